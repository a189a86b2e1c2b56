"""The turns of thinking AIs (``strong``): thought in the AI pool, outside any lock or transaction.

A commit that leaves a thinking AI to act writes a timer of kind ``ai`` due now (``deadlines``); the timer
loop starts at once. The one process that claims the timer:

1. reads the stored game (a short read; nothing is held afterwards);
2. asks the pool for the move, with the chat's ``ai_time`` — the event loop, other games and this game's
   buttons go on meanwhile, and no database transaction or game lock is open;
3. locks the game, checks it is still at the version it read, deletes its timer and records the move (and the
   greedy AIs after it, and the next thinking AI's job) like any move; its messages go through the outbox.

If the game moved on meanwhile (a person acted in a simultaneous phase), the result is dropped: either the newer
commit already wrote a fresh job, or the claim is given back and the next round thinks again. If the process
dies while thinking, its claim ages past the lease and another process takes the job over. If the pool fails,
the greedy AI moves instead: a game never stalls.
"""
from __future__ import annotations

import asyncio
import logging
import os

from rules.ai import make_player
from rules.api import IllegalAction
from storage import StaleVersion
from bot.service import ai_seats
from bot.service.context import Context
from bot.service.deadlines import bank_deadlines, deadlines
from bot.service.live import LiveGame
from bot.service.messages import Message
from bot.service.recording import record

log = logging.getLogger(__name__)
AI_JOBS = ("ai", "takeover")  # timers that are an AI's decision, thought in the AI pool


async def run_job(ctx: Context, timer_id: int, game_id: int, seat: int, version: int,
                  kind: str = "ai") -> list[Message]:
    """One claimed AI timer: an AI seat's decision (``ai``) or one action of a timed-out turn (``takeover``)."""
    try:
        if kind == "takeover":
            return await _take_over(ctx, timer_id, game_id, seat, version)
        return await _think_and_play(ctx, timer_id, game_id, seat)
    except StaleVersion:
        return []
    except asyncio.CancelledError:
        raise
    except Exception:  # the claim stays: after its lease the job is taken over
        log.exception("the AI job %s (game %s, seat %s) failed", timer_id, game_id, seat)
        return []


def _budget(ctx: Context, live: LiveGame) -> float:
    """The chat's ``ai_time``, shared when more AIs of the table think at once (a simultaneous phase, e.g.
    Troubadour's trios) than the pool has workers: the table then waits about ``ai_time`` for all of them,
    not a multiple of it while the last ones wait for a free worker."""
    at_once = len(ai_seats.thinking_seats(live, live.state))
    workers = getattr(ctx.thinking.pool, "workers", None) or os.cpu_count() or 1
    return ai_seats.ai_time(live) * min(1.0, workers / max(1, at_once))


def _seed(live: LiveGame, seat: int) -> int:
    return (live.seed ^ (live.moves * 1_000_003 + seat)) & (2 ** 62 - 1)


async def _think_and_play(ctx: Context, timer_id: int, game_id: int, seat: int) -> list[Message]:
    async with ctx.uow(readonly=True) as uow:
        live = await ctx.games.fresh(uow, game_id)
    if live is None or seat not in ai_seats.thinking_seats(live, live.state):
        async with ctx.uow() as uow:  # nothing to think about any more
            await uow.timers.take(timer_id, ctx.process_id)
            await uow.commit()
        return []
    version, state_json, name, seed = live.version, live.state.to_json(), live.game.name, _seed(live, seat)
    try:
        action = await ctx.thinking.pool.choose(name, state_json, seat, ai_seats.level_of(live, seat), seed,
                                                _budget(ctx, live), ctx.ai_iterations)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("the AI pool failed for game %s; the greedy AI moves instead", game_id)
        action = None
    async with ctx.games.lock_for(game_id):
        async with ctx.uow() as uow:
            row = await uow.games.lock(game_id)  # the row first, as every move's write takes it
            if row is None or row.status != "active" or row.version != version:
                # the game moved on while the AI thought: think again from the stored game (unless a newer
                # commit replaced this job already, or the game ended)
                await uow.timers.release(timer_id, ctx.process_id)
                await uow.commit()
                ctx.wake_timers()
                return []
            if not await uow.timers.take(timer_id, ctx.process_id):
                return []  # another process took the job over after the lease
            live = await ctx.games.fresh(uow, game_id)
            work = live.state.clone()
            try:
                if action is None:
                    raise IllegalAction("no decision")
                events = work.apply(seat, action)
            except IllegalAction:
                work = live.state.clone()
                action = make_player(ai_seats.INLINE_DEFAULT, seed=seed).choose(work, seat)
                events = work.apply(seat, action)
            batch = [(seat, action, events, "ai")] + ai_seats.inline_moves(live, work)
            return await record(ctx, live, work, batch, uow=uow)


async def _take_over(ctx: Context, timer_id: int, game_id: int, seat: int, version: int) -> list[Message]:
    """One action of a person's timed-out turn, by the thinking AI of ``ai_seats.takeover_level``: thought like
    an AI seat's (no lock, no transaction), recorded only if the game is still at ``version``, the version the
    job was written for. The record writes the job of the turn's next action, due now (``deadlines``), so the
    whole turn is played one decision at a time and the chat is told once (by the timer that fired). Any other
    change in between (the person came back and acted, or another seat acted in a simultaneous phase) ends the
    takeover: the person to act gets a fresh deadline instead."""
    async with ctx.uow(readonly=True) as uow:
        live = await ctx.games.fresh(uow, game_id)
    action = None
    if live is not None and live.version == version and seat in live.state.to_act() and not live.seats[seat].is_ai:
        name, state_json = live.game.name, live.state.to_json()
        level = ai_seats.takeover_level_of(live)
        try:
            action = await ctx.thinking.pool.choose(name, state_json, seat, level, _seed(live, seat),
                                                    ai_seats.ai_time(live), ctx.ai_iterations)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the AI pool failed for game %s; the greedy AI moves instead", game_id)
            action = {}
    async with ctx.games.lock_for(game_id):
        async with ctx.uow() as uow:
            row = await uow.games.lock(game_id)
            if not await uow.timers.take(timer_id, ctx.process_id):
                return []  # another process took the job over after the lease
            live = await ctx.games.fresh(uow, game_id) if row is not None and row.status == "active" else None
            if live is None:
                await uow.commit()
                return []
            if action is None or row.version != version or seat not in live.state.to_act() or live.seats[seat].is_ai:
                # the takeover ends; a person still to act gets a deadline again (none was written for them while
                # the AI played their turn)
                if seat in live.state.to_act() and not live.seats[seat].is_ai and \
                        (live.clocks or live.turn_timer > 0) and seat not in await uow.timers.seats_with_timers(game_id):
                    await uow.timers.add(game_id, bank_deadlines(live, live.clocks, seat, ctx.now()) if live.clocks
                                         else deadlines(live, seat, ctx.now()))
                    live.timer_seats.add(seat)
                else:
                    live.timer_seats.discard(seat)
                await uow.commit()
                return []
            work = live.state.clone()
            try:
                if not action:
                    raise IllegalAction("no decision")
                events = work.apply(seat, action)
            except IllegalAction:
                work = live.state.clone()
                action = make_player(ai_seats.INLINE_DEFAULT, seed=live.seed ^ live.version).choose(work, seat)
                events = work.apply(seat, action)
            batch = [(seat, action, events, "timer")] + ai_seats.inline_moves(live, work)
            return await record(ctx, live, work, batch, uow=uow, takeover=seat)
