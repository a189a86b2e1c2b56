"""Recording a change of a game: one version-checked write of snapshot, log rows, timers and the messages that
tell it (the outbox), committed before any message is returned.

Every way a game moves (a person's move, a timed-out turn, a thinking AI's answer, a resignation, the start)
ends here. The batch of moves was applied to a clone (``work``); ``telling`` makes its messages; the write
joins the group commit (shared with other games' concurrent moves), or completes the caller's unit of work
when the caller already wrote in it. A game that ends is rated in the same transaction (``leagues.rate_finished``),
so two games ending at once both count exactly once.
"""
from __future__ import annotations

from rules.api import State
from storage import StaleVersion, UnitOfWork
from storage.group_commit import MoveWrite, retry_while_busy, write_one
from bot.service.chat_settings import web_link
from bot.service import clocks as banks, leagues, telling
from bot.service.context import Context
from bot.service.deadlines import hold_pings, timer_changes
from bot.service.heads_up import heads_up
from bot.service.live import LiveGame
from bot.service.messages import Message
from bot.service.outbox import outbox_rows


async def record(ctx: Context, live: LiveGame, work: State, batch: list[tuple], *, uow: UnitOfWork | None = None,
                 actor: int | None = None, notes: list[Message] | None = None, started: bool = False,
                 takeover: int | None = None, undoable: bool = False,
                 taken_back: list[int] | None = None) -> list[Message]:
    """Write ``batch`` (``(seat, action, events, by)`` each, already applied to ``work``) and return what it
    makes the bot say. ``uow``: a unit of work holding the caller's uncommitted writes, which this commit
    completes; without it the write joins the group commit. ``actor``: the seat that moved (its view is
    sent even if unchanged); ``takeover``: the seat whose timed-out turn a thinking AI plays; ``undoable``: the
    actor's move may be taken back freely (its hand gets the Undo button); ``taken_back``: seqs of logged moves an
    undo takes back (``work`` is the state before them, ``batch`` empty)."""
    over = work.is_over()
    before = [] if started else live.state.to_act()
    clocks = None
    if live.clocks and not over:
        # the board tells the banks after this change (a failed write drops the picture: nothing stays wrong)
        live.clocks = clocks = await _clocks_after(ctx, live, work, batch, uow)
    for i, (seat, _action, events, _by) in enumerate(batch):
        live.remember(live.moves + i, seat, events)
    messages = (notes or []) + telling.change_messages(live, work, live.version + 1, batch, actor, before,
                                                         ctx.pictures, started, undoable)
    messages += heads_up(live, work, before, ctx.now(), None if started else live.state)  # /notify next=on
    hinted = set(live.hinted_seats)  # a seat's first move since it asked for a hint is marked; an AI's never
    rows = []
    for i, (s, a, ev, by) in enumerate(batch):
        rows.append({"seq": live.moves + i, "seat": s, "action": a, "events": [e.to_json() for e in ev], "by": by,
                     "hinted": s in hinted and by == "player"})
        hinted.discard(s)
    write = MoveWrite(
        live.id, live.version, work.to_json(), rows,
        status="finished" if over else "active", outbox=outbox_rows(ctx, messages), taken_back=taken_back or [],
        clocks=clocks)
    ended: list[Message] = []
    if not over:
        write.drop_timer_seats, write.new_timers = timer_changes(live, work, ctx.now(), takeover, clocks)
        write.new_timers += hold_pings(messages, live, ctx.now())
    try:
        if over:
            ended = await _record_end(ctx, live, work, write, uow)
            new_version = write.new_version
        elif uow is None:
            new_version = await ctx.group.run(write, ctx.pending_after)
        else:
            new_version = await write_one(uow, write)
            await uow.commit()
    except BaseException as error:
        ctx.games.forget(live.id)  # the picture may be ahead of the database: reload next time
        if isinstance(error, StaleVersion):
            ctx.games.shared.note(live.id)  # other processes write this game: read its version first
        raise
    live.version, live.state, live.moves = new_version, work, live.moves + len(batch)
    live.hinted_seats -= {seat for seat, *_rest in batch}
    if over:
        live.status = "finished"
        ctx.games.forget(live.id)
    ctx.wake_timers()
    return messages + ended


async def _clocks_after(ctx: Context, live: LiveGame, work: State, batch: list[tuple],
                        uow: UnitOfWork | None) -> dict:
    """The game's banks after the batch: the charged ones run down to now (outside their people's away periods,
    read fresh: ``/away`` may have come through another process), the movers get their increment, and every
    person who must act now is charged."""
    moment = ctx.now()
    people = [s for s in live.seats if not s.is_ai and s.player_id is not None]
    if uow is None:
        async with ctx.uow(readonly=True) as reader:
            notify = await reader.players.notify_of([s.player_id for s in people])
    else:
        notify = await uow.players.notify_of([s.player_id for s in people])
    for s in people:
        s.notify = notify.get(s.player_id)
    periods = {s.seat: banks.periods_of(s.notify) for s in people}
    clocks = live.clocks if "left" in live.clocks else banks.started(live.clocks, range(len(live.seats)), moment)
    moved = {seat: by for seat, _action, _events, by in batch}
    charged = [s for s in work.to_act() if not live.seats[s].is_ai]
    return banks.settle(clocks, moment, moved, charged, periods)


async def _record_end(ctx: Context, live: LiveGame, work: State, write: MoveWrite,
                      uow: UnitOfWork | None) -> list[Message]:
    """The last move, the result and the ratings in one transaction (the caller's, or one of its own)."""
    if uow is None:  # another process's transaction in the way (a rating row both add) is waited out
        async def attempt() -> list[Message]:
            async with ctx.uow() as own:
                return await _record_end(ctx, live, work, write, own)

        return await retry_while_busy(attempt)
    await write_one(uow, write)
    await uow.timers.clear(live.id)
    row = await uow.games.get(live.id)
    row.result = {"ranking": telling.final_places(live, work), "scores": work.scores(), "names": live.names,
                  "resigned": sorted(s.seat for s in live.seats if s.resigned)}
    link = web_link(ctx.web_base_url, live.settings, f"/g/{live.id}")
    ended = [telling.result_message(live, work, link), telling.turn_retired(live.chat, live.id)]
    ended += await leagues.rate_finished(uow, row, work, live.chat)
    await uow.outbox.add(outbox_rows(ctx, ended))
    await uow.commit()
    return ended
