"""The commit of a move: the AI seats that answer at once, the messages that tell it, and one version-checked write.

Every way a game moves (a person's move, a timed-out turn, a thinking AI's answer, a resignation, the start)
ends here: the batch of moves is applied to a clone, the board and each person's changed view are built (each
view once: compared with the one last shown, stored as the message's recipe, drawn from), and snapshot, log
rows, timers and those messages (the outbox) are written in one transaction — the group commit's, shared with
other games' moves — before any message is returned.
"""
from __future__ import annotations

from collections import defaultdict

from rules.ai import make_player
from rules.api import State
from storage import StaleVersion, UnitOfWork
from storage.group_commit import MoveWrite, write_one
from bot import i18n
from bot.i18n import _
from bot.service import ai_seats, languages, narration, views
from bot.service.live import LiveGame
from bot.service.messages import Message

AI_STEP_CAP = 5000


class CommitCommands:
    def _ai_moves(self, live: LiveGame, state: State) -> list[tuple]:
        """AI seats (and resigned ones) that decide at once act until a human or a thinking AI (``strong``:
        it gets a job of its own, see ai_turns.py) is to act, or the game ends. Pure: no I/O."""
        done: list[tuple] = []
        for _ in range(AI_STEP_CAP):
            seat = ai_seats.inline_seat(live, state)
            if seat is None:
                break
            ai = make_player(ai_seats.level_of(live, seat), seed=live.seed ^ (live.moves + len(done)))
            action = ai.choose(state, seat)
            done.append((seat, action, state.apply(seat, action), "ai"))
        return done

    async def _commit(self, uow: UnitOfWork, live: LiveGame, work: State, batch: list[tuple],
                      actor: int | None = None, notes: list[Message] | None = None,
                      started: bool = False, grouped: bool = False, takeover: int | None = None) -> list[Message]:
        """Write snapshot (version-checked) + moves + timers + the messages that tell it (+ ratings at the end),
        commit, then return the messages.

        ``grouped``: the caller holds no uncommitted writes, so the writes join the group commit
        (shared with other games' concurrent moves); otherwise they complete ``uow``'s transaction.
        ``takeover``: the seat whose timed-out turn a thinking AI plays (its next action becomes a job).
        """
        over = work.is_over()
        before = [] if started else live.state.to_act()
        for i, (seat, _, events, _) in enumerate(batch):
            live.remember(live.moves + i, seat, events)
        new_version = live.version + 1
        messages = (notes or []) + self._change_messages(live, work, new_version, batch, actor, before, started)
        write = MoveWrite(
            live.id, live.version, work.to_json(),
            [{"seq": live.moves + i, "seat": s, "action": a, "events": [e.to_json() for e in ev], "by": by}
             for i, (s, a, ev, by) in enumerate(batch)],
            status="finished" if over else "active", outbox=self.outbox_rows(messages))
        if over:
            async def end(w: UnitOfWork) -> list[Message]:
                await w.timers.clear(live.id)
                finish = await self._finish(w, live, work)
                await w.outbox.add(self.outbox_rows(finish))
                return finish

            write.then = end
        else:
            write.drop_timer_seats, write.new_timers = self._timer_changes(live, work, takeover)
        try:
            if grouped:
                new_version, finish = await self._group.run(write)
            else:
                new_version, finish = await write_one(uow, write)
                await uow.commit()
        except BaseException as error:
            self.forget(live.id)  # the picture may be ahead of the database: reload next time
            if isinstance(error, StaleVersion):
                self.shared_games.note(live.id)  # other processes write this game: read its version first
            raise
        live.version, live.state, live.moves = new_version, work, live.moves + len(batch)
        if over:
            live.status = "finished"
            self.forget(live.id)
        self.wake_timers()
        return messages + (finish or [])

    def _change_messages(self, live: LiveGame, state: State, version: int, batch: list[tuple],
                         actor: int | None, before: list[int], started: bool = False) -> list[Message]:
        """The board; each person's view where it changed (or where they learnt something privately), sent anew
        with a ping to whoever's turn has just come; and the group's turn line when the people to act changed."""
        out = [views.board_message(live, state, self.pictures, fresh=started, view=state.view(None))]
        private_events: dict[int, list] = defaultdict(list)  # told in each reader's language, below
        for _, _, events, _ in batch:
            for event in events:
                if event.audience is not None:
                    for s in event.audience:
                        private_events[s].append(event)
        to_act = [] if state.is_over() else state.to_act()
        turn_came = {s for s in to_act if s not in before or s == actor}
        for s in live.humans():
            view = state.view(s.seat)  # built once: compared, rendered and drawn
            if view == live.shown_views.get(s.seat) and not private_events.get(s.seat) and s.seat != actor \
                    and s.seat not in turn_came:
                continue
            live.shown_views[s.seat] = view
            # what they are told beside the view is narrated when the hand is rendered (at sending: never for a
            # hand superseded before it is sent), from the events it tells, kept with the recipe
            if s.seat in turn_came or not to_act:  # their turn, or the end: all they know since their last one
                told = {"since": _since_last_turn(live.log, s.seat), "ended": not to_act}
            else:  # what they learnt privately
                mine = private_events.get(s.seat)
                told = {"events": [event.to_json() for event in mine]} if mine else None
            message = views.private_message(live, s, state, version, [], self.pictures, view=view, told=told)
            message.ping = s.seat in turn_came
            out.append(message)
        humans_to_act = [s for s in to_act if not live.seats[s].is_ai]
        if humans_to_act and set(humans_to_act) != {s for s in before if not live.seats[s].is_ai}:
            out.append(views.turn_message(live, state))
        return out

    async def _finish(self, uow: UnitOfWork, live: LiveGame, state: State) -> list[Message]:
        """Record the result and rate the game, inside the transaction that ends it."""
        names = live.names
        ranking = state.ranking()
        scores = state.scores()
        resigned = sorted(s.seat for s in live.seats if s.resigned)
        result = {"ranking": ranking, "scores": scores, "names": names, "resigned": resigned}
        row = await uow.games.get(live.id)
        row.result = result
        with i18n.using(languages.of_live_chat(live)):
            lines = [_("🏆 Game #{id} is over.", id=live.id)]
            lines += narration.final_result_lines(live.game, scores, ranking, names, resigned=resigned)
        out = [Message("\n".join(lines), chat=live.chat, game_id=live.id, kind="result")]
        out.extend(await self.rate_finished(uow, row, state, live.chat))
        return out


def _since_last_turn(log, seat: int) -> list[list]:
    """The moves of ``log`` (``(seq, seat, events)``, oldest first) from ``seat``'s last own move on (all of them
    when it has none), as JSON: what ``narration.since_last_turn`` reads to tell the seat what it has not seen."""
    moves = list(log)
    start = next((k for k in range(len(moves) - 1, -1, -1) if moves[k][1] == seat), 0)
    return [[seq, mover, [event.to_json() for event in events]] for seq, mover, events in moves[start:]]
