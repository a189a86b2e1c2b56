"""Turn timers: a reminder at half time, then an AI plays the turn; and tables left idle are closed.

Timers are rows. Every process runs the loop, but a due timer is claimed by exactly one process (an atomic
claim in one write transaction; ``FOR UPDATE SKIP LOCKED`` on PostgreSQL), fired against the stored game (a
copy in memory may be old), and its messages go through the outbox, so they reach the chat's platform
whichever process fired it.
"""
from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

from rules.ai import make_player
from rules.api import State
from storage import StaleVersion
from storage.models import Timer
from bot import i18n
from bot.i18n import _, ngettext
from bot.service import ai_seats, languages
from bot.service.base import aware, now
from bot.service.chat_settings import DEFAULT_SETTINGS
from bot.service.live import LiveGame
from bot.service.messages import Message

log = logging.getLogger(__name__)
AI_JOBS = ("ai", "takeover")  # timers that are an AI's decision, thought in the AI pool (ai_turns.py)
CLAIM_LEASE = timedelta(seconds=60)  # a claim older than this belonged to a process that died: take it over


class TimerCommands:
    timer_lease = CLAIM_LEASE

    def wake_timers(self) -> None:
        self._timer_wakeup.set()

    def _timer_changes(self, live: LiveGame, state: State,
                       takeover: int | None = None) -> tuple[set[int], list[dict]]:
        """Each human to act has a deadline from when their turn began; others' timers are dropped. A thinking
        AI to act gets a fresh ``ai`` job, due now (a job for an older version of the game is replaced).
        ``takeover``: the seat whose timed-out turn a thinking AI is playing (ai_turns.py); while that turn goes
        on it has no deadline but a ``takeover`` job for its next action, due now."""
        to_act = {s for s in state.to_act() if not live.seats[s].is_ai}
        leaving = live.timer_seats - to_act
        live.timer_seats -= leaving
        moment = now()
        new: list[dict] = []
        seconds = live.turn_timer
        if seconds <= 0:
            leaving |= live.timer_seats  # the timer was switched off: deadlines already set go too
            live.timer_seats.clear()
        else:
            for seat in sorted(to_act - live.timer_seats - {takeover}):
                new.extend(deadlines(live, seat, moment))
                live.timer_seats.add(seat)
        if takeover in to_act:
            leaving.add(takeover)
            live.timer_seats.add(takeover)
            new.append({"seat": takeover, "kind": "takeover", "version": live.version + 1, "due_at": moment})
        for seat in ai_seats.thinking_seats(live, state):
            leaving.add(seat)  # dropped before the new job is written (MoveWrite drops first)
            new.append({"seat": seat, "kind": "ai", "version": live.version + 1, "due_at": moment})
        return leaving, new

    async def run_timers(self, moment: datetime | None = None, *, deliver=None) -> list[Message]:
        """Fire every due timer this process can claim: remind at half time, then an AI plays the turn; and
        the jobs of thinking AIs (``ai``), all at once. ``deliver``: the AI jobs run on in the background and
        hand their messages to it (the timer loop); without it they are awaited and returned (tests)."""
        moment = moment or now()
        out: list[Message] = []
        async with self._uow() as uow:
            due = await uow.timers.claim_due(moment, self.process_id, moment - self.timer_lease)
            jobs = [(t.id, t.game_id, t.seat, t.kind, t.version) for t in due]
            await uow.commit()
        thinking = [self._ai_job(timer_id, game_id, seat, version, kind)
                    for timer_id, game_id, seat, kind, version in jobs if kind in AI_JOBS]
        if deliver is not None:
            for job in thinking:
                self._background(job, deliver)
            thinking = []
        waiting = asyncio.gather(*thinking)
        for timer_id, game_id, seat, kind, _ in jobs:
            if kind in AI_JOBS:
                continue
            try:
                out.extend(await self._fire_timer(timer_id, game_id, seat, kind))
            except StaleVersion:
                continue
            except Exception:
                log.exception("timer %s failed", timer_id)
        for messages in await waiting:
            out.extend(messages)
        out.extend(await self.close_idle_lobbies(moment))
        return await self.finish_messages(out)

    async def _fire_timer(self, timer_id: int, game_id: int, seat: int, kind: str) -> list[Message]:
        async with self.lock_for(game_id):
            async with self._uow() as uow:
                # the game row first, then its timers: the order every move's write takes (no deadlock)
                await uow.games.lock(game_id)
                if not await uow.timers.take(timer_id, self.process_id):
                    return []  # another process took it over
                live = await self.fresh_live(uow, game_id)
                state = live.state if live else None
                if live is None or seat not in state.to_act() or live.seats[seat].is_ai:
                    await uow.commit()
                    return []
                user = live.seats[seat].user
                if kind == "remind":
                    with i18n.using(languages.of_live_seat(live, live.seats[seat])):
                        text = _("⏳ Game #{id}: half of your turn time is gone. An AI will play for you when it "
                                 "runs out.", id=live.id)
                    out = [Message(text, user=user, game_id=live.id, kind="notice")]
                    await uow.outbox.add(self.outbox_rows(out))
                    await uow.commit()
                    return out
                await uow.timers.drop_seats(live.id, {seat})
                live.timer_seats.discard(seat)
                with i18n.using(languages.of_live_chat(live)):
                    text = _("⌛ {name}'s time ran out in game #{id}; an AI played their turn.", name=user.name,
                             id=live.id)
                note = Message(text, chat=live.chat, game_id=live.id, kind="notice")
                if ai_seats.takeover_thinks(live):
                    # the strong AI plays the turn in jobs of its own, thought outside this lock (ai_turns.py)
                    uow.session.add(Timer(game_id=live.id, seat=seat, kind="takeover", version=live.version,
                                                 due_at=now()))
                    live.timer_seats.add(seat)
                    out = [note]
                    await uow.outbox.add(self.outbox_rows(out))
                    await uow.commit()
                    self.wake_timers()
                    return out
                work = state.clone()
                ai = make_player(ai_seats.INLINE_DEFAULT, seed=live.seed ^ live.version)
                batch = []
                while seat in work.to_act() and not work.is_over() and len(batch) < 200:
                    action = ai.choose(work, seat)
                    batch.append((seat, action, work.apply(seat, action), "timer"))
                batch += self._ai_moves(live, work)
                return await self._commit(uow, live, work, batch, notes=[note])

    async def close_idle_lobbies(self, moment: datetime) -> list[Message]:
        """Tables nobody touched for the chat's ``lobby_timeout`` are closed (they would stay open for ever)."""
        shortest = min(DEFAULT_SETTINGS["lobby_timeout"], 600)
        out: list[Message] = []
        async with self._uow() as uow:
            for row in await uow.games.idle_lobbies(moment - timedelta(seconds=shortest)):
                chat_row = await uow.chats.get(row.chat_id)
                limit = int({**DEFAULT_SETTINGS, **(chat_row.settings or {})}["lobby_timeout"])
                if aware(row.updated_at) > moment - timedelta(seconds=limit):
                    continue
                await uow.games.save_state(row, {}, status="aborted")
                with i18n.using(languages.chat_language(chat_row.settings)):
                    text = _("💤 Table #{id} was closed: nobody started it for {time}. /new opens a new one.",
                             id=row.id, time=_duration(limit))
                out.append(Message(text, chat=self.chat_ref(chat_row), slot=f"lobby:{row.id}", game_id=row.id,
                                   kind="lobby"))
            await uow.outbox.add(self.outbox_rows(out))
            await uow.commit()
        return out

    async def next_timer_due(self) -> datetime | None:
        async with self._uow(readonly=True) as uow:
            due = await uow.timers.next_due()
            return aware(due) if due else None

    async def timer_loop(self, deliver, max_sleep: float = 30.0) -> None:
        """Run forever: fire due timers and hand their messages to ``deliver`` (an async callable)."""
        self._running_loop()
        while True:
            try:
                messages = await self.run_timers(deliver=deliver)
                if messages:
                    await deliver(messages)
                due = await self.next_timer_due()
                delay = max_sleep if due is None else max(0.05, min(max_sleep, (due - now()).total_seconds()))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("timer loop")
                delay = max_sleep
            self._timer_wakeup.clear()
            try:
                await asyncio.wait_for(self._timer_wakeup.wait(), timeout=delay)
            except asyncio.TimeoutError:
                pass


def deadlines(live: LiveGame, seat: int, moment: datetime) -> list[dict]:
    """A person's turn deadline: a reminder at half the chat's turn time, an AI's turn at its end."""
    seconds = live.turn_timer
    return [{"seat": seat, "kind": kind, "version": live.version, "due_at": moment + timedelta(seconds=seconds * part)}
            for kind, part in (("remind", 0.5), ("autoplay", 1.0))]


def _duration(seconds: int) -> str:
    if seconds % 86400 == 0:
        return ngettext("a day", "{n} days", seconds // 86400)
    if seconds % 3600 == 0:
        return ngettext("an hour", "{n} hours", seconds // 3600)
    return ngettext("{n} minute", "{n} minutes", seconds // 60)
