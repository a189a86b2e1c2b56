"""Turn timers: a reminder at half time, then an AI plays the turn; tables left idle are closed, and so are the
places of finished games after their grace (``places.CLOSE``).

Timers are rows. Every process runs the loop, but a due timer is claimed by exactly one process (an atomic
claim in one write transaction; ``FOR UPDATE SKIP LOCKED`` on PostgreSQL), fired against the stored game (a
copy in memory may be old), and its messages go through the outbox, so they reach the chat's platform
whichever process fired it. The jobs of thinking AIs are timers too (``ai_turns``).
"""
from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import Awaitable, Callable

from rules.ai import make_player
from storage import StaleVersion
from bot import i18n
from bot.i18n import _, ngettext
from bot.service import ai_seats, clocks, languages, notifying
from bot.service.chat_settings import DEFAULT_SETTINGS
from bot.service.context import Context, aware
from bot.service.handlers import ai_turns, places, reminding
from bot.service.messages import Message
from bot.service.outbox import outbox_rows
from bot.service.recording import record
from bot.service.rows import chat_ref

log = logging.getLogger(__name__)
Deliver = Callable[[list[Message]], Awaitable[None]]


async def run_timers(ctx: Context, moment: datetime | None = None, *, deliver: Deliver | None = None) -> list[Message]:
    """Fire every due timer this process can claim: remind at half time, then an AI plays the turn; and the jobs
    of thinking AIs, all at once. ``deliver``: the AI jobs run on in the background and hand their messages to
    it (the timer loop); without it they are awaited and returned (tests)."""
    moment = moment or ctx.now()
    out: list[Message] = []
    async with ctx.uow() as uow:
        # only the games this process serves: a Telegram process never fires a Discord game's timer, a Discord
        # shard only its guilds' (``ctx.served``)
        due = await uow.timers.claim_due(moment, ctx.process_id, moment - ctx.timer_lease, served=ctx.served)
        jobs = [(t.id, t.game_id, t.seat, t.kind, t.version) for t in due]
        await uow.commit()
    thinking = [ai_turns.run_job(ctx, timer_id, game_id, seat, version, kind)
                for timer_id, game_id, seat, kind, version in jobs if kind in ai_turns.AI_JOBS]
    if deliver is not None:
        for job in thinking:
            ctx.thinking.background(job, deliver)
        thinking = []
    waiting = asyncio.gather(*thinking)
    for timer_id, game_id, seat, kind, _version in jobs:
        if kind in ai_turns.AI_JOBS:
            continue
        try:
            out.extend(await _fire(ctx, timer_id, game_id, seat, kind, moment))
        except StaleVersion:
            continue
        except Exception:
            log.exception("timer %s failed", timer_id)
    for messages in await waiting:
        out.extend(messages)
    out.extend(await close_idle_lobbies(ctx, moment))
    return out


async def _fire(ctx: Context, timer_id: int, game_id: int, seat: int, kind: str, moment: datetime) -> list[Message]:
    async with ctx.games.lock_for(game_id):
        async with ctx.uow() as uow:
            # the game row first, then its timers: the order every move's write takes (no deadlock)
            await uow.games.lock(game_id)
            if not await uow.timers.take(timer_id, ctx.process_id):
                return []  # another process took it over
            if kind == places.CLOSE:  # a finished game's place, its grace over
                return await places.close_due(ctx, uow, game_id)
            live = await ctx.games.fresh(uow, game_id)
            state = live.state if live else None
            if live is None or seat not in state.to_act() or live.seats[seat].is_ai:
                await uow.commit()
                return []
            user = live.seats[seat].user
            if kind in reminding.KINDS and (live.clocks or kind != "remind"):
                return await reminding.fire(ctx, uow, live, seat, kind, moment)
            gone_for_good = False
            if kind == "bank" and live.clocks:
                notify = (await uow.players.notify_of([live.seats[seat].player_id])).get(live.seats[seat].player_id)
                periods = clocks.periods_of(notify)
                if clocks.remaining(live.clocks, seat, moment, periods) > 1:  # more time since: look again then
                    await uow.timers.add(live.id, [{"seat": seat, "kind": "bank", "version": live.version,
                                                    "due_at": clocks.runs_out(live.clocks, seat, periods)}])
                    await uow.commit()
                    return []
                gone_for_good = clocks.outs(live.clocks, seat) + 1 >= clocks.TAKEOVER_AFTER
            if kind == "remind":
                person = live.seats[seat]
                notify = (await uow.players.notify_of([person.player_id])).get(person.player_id)
                if notifying.quiet_end(notify, moment) is not None:  # their quiet hours: no reminder
                    await uow.commit()
                    return []
                with i18n.using(languages.of_live_seat(live, live.seats[seat])):
                    text = _("⏳ Game #{id}: half of your turn time is gone. An AI will play for you when it runs "
                             "out.", id=live.id)
                out = [Message(text, user=user, game_id=live.id, kind="notice")]
                await uow.outbox.add(outbox_rows(ctx, out))
                await uow.commit()
                return out
            await uow.timers.drop_seats(live.id, {seat})
            live.timer_seats.discard(seat)
            with i18n.using(languages.of_live_chat(live)):
                if gone_for_good:
                    text = _("⌛ {name}'s time ran out in game #{id} for the second turn in a row: an AI plays "
                             "their seat for good.", name=user.name, id=live.id)
                elif kind == "bank":
                    text = _("⌛ {name}'s time bank ran out in game #{id}; an AI played their turn.",
                             name=user.name, id=live.id)
                else:
                    text = _("⌛ {name}'s time ran out in game #{id}; an AI played their turn.", name=user.name,
                             id=live.id)
            note = Message(text, chat=live.chat, game_id=live.id, kind="notice")
            if gone_for_good:
                return await _take_over(ctx, uow, live, seat, note)
            if ai_seats.takeover_thinks(live):
                # the strong AI plays the turn in jobs of its own, thought outside this lock (``ai_turns``)
                await uow.timers.add(live.id, [{"seat": seat, "kind": "takeover", "version": live.version,
                                                "due_at": ctx.now()}])
                live.timer_seats.add(seat)
                out = [note]
                await uow.outbox.add(outbox_rows(ctx, out))
                await uow.commit()
                ctx.wake_timers()
                return out
            work = state.clone()
            ai = make_player(ai_seats.INLINE_DEFAULT, seed=live.seed ^ live.version)
            batch = []
            while seat in work.to_act() and not work.is_over() and len(batch) < 200:
                action = ai.choose(work, seat)
                batch.append((seat, action, work.apply(seat, action), "timer"))
            batch += ai_seats.inline_moves(live, work)
            return await record(ctx, live, work, batch, uow=uow, notes=[note])


async def _take_over(ctx: Context, uow, live, seat: int, note: Message) -> list[Message]:
    """A seat whose bank ran out twice in a row is an AI's from now on (as if its person resigned; the game
    stays rated), and the AI plays its turn at once."""
    row = await uow.games.get(live.id)
    await uow.games.resign(next(s for s in row.seats if s.seat == seat))
    ctx.games.forget(live.id)
    live = await ctx.games.get(uow, live.id)
    work = live.state.clone()
    batch = [(s, action, events, "timer" if s == seat else by)
             for s, action, events, by in ai_seats.inline_moves(live, work)]
    return await record(ctx, live, work, batch, uow=uow, notes=[note])


async def close_idle_lobbies(ctx: Context, moment: datetime) -> list[Message]:
    """Tables nobody touched for the chat's ``lobby_timeout`` are closed (they would stay open for ever)."""
    shortest = min(DEFAULT_SETTINGS["lobby_timeout"], 600)
    out: list[Message] = []
    async with ctx.uow() as uow:
        for row in await uow.games.idle_lobbies(moment - timedelta(seconds=shortest), served=ctx.served):
            stored = await uow.chats.get(row.chat_id)
            limit = int({**DEFAULT_SETTINGS, **(stored.settings or {})}["lobby_timeout"])
            if aware(row.updated_at) > moment - timedelta(seconds=limit):
                continue
            await uow.games.save_state(row, {}, status="aborted")
            with i18n.using(languages.chat_language(stored.settings)):
                text = _("💤 Table #{id} was closed: nobody started it for {time}. /new opens a new one.",
                         id=row.id, time=_duration(limit))
            out.append(Message(text, chat=chat_ref(stored), slot=f"lobby:{row.id}", game_id=row.id, kind="lobby"))
        await uow.outbox.add(outbox_rows(ctx, out))
        await uow.commit()
    return out


async def next_timer_due(ctx: Context) -> datetime | None:
    async with ctx.uow(readonly=True) as uow:
        due = await uow.timers.next_due(ctx.served)
        return aware(due) if due else None


async def timer_loop(ctx: Context, deliver: Deliver, max_sleep: float = 30.0) -> None:
    """Run until cancelled: fire due timers and hand their messages to ``deliver``."""
    while True:
        try:
            messages = await run_timers(ctx, deliver=deliver)
            if messages:
                await deliver(messages)
            due = await next_timer_due(ctx)
            delay = max_sleep if due is None else max(0.05, min(max_sleep, (due - ctx.now()).total_seconds()))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("timer loop")
            delay = max_sleep
        ctx.timer_wakeup.clear()
        try:
            await asyncio.wait_for(ctx.timer_wakeup.wait(), timeout=delay)
        except asyncio.TimeoutError:
            pass


def _duration(seconds: int) -> str:
    if seconds % 86400 == 0:
        return ngettext("a day", "{n} days", seconds // 86400)
    if seconds % 3600 == 0:
        return ngettext("an hour", "{n} hours", seconds // 3600)
    return ngettext("{n} minute", "{n} minutes", seconds // 60)
