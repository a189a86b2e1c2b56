"""The outbox: what must be said is stored with what it tells, then sent — at once by the process that made it
when it serves that platform, else (or after a crash) by a delivery loop of a process that does.

``outbox_rows`` turns messages into rows written in the same transaction as the move, lobby change or timer
that they tell. The messages returned carry their row's key in ``outbox_id``; the delivery reports them to
``DeliveryMarks`` as held when queued and as delivered once sent (or superseded by a newer message for the same
slot). ``outbox_loop`` claims what nobody delivered within the lease and hands it to the process's deliverer.
A process renews the claims of what it holds until the sent mark is written, however long a chat's queue, a 429
or a slow request takes (the lease ran out before and another process sent a reminder again); a process that
dies stops renewing, and its messages are taken over after the lease. Delivery is at least once: boards and
hands replace their slot, so a repeat is harmless.
"""
from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Awaitable, Callable

from bot.service.context import Context
from bot.service.messages import OWN_TABLES, Message, message_from_json, message_to_json

log = logging.getLogger(__name__)
PURGE_AFTER = timedelta(hours=1)
RENEWALS_PER_LEASE = 3  # claims held are renewed this often within a lease: one late renewal loses nothing


def platform_of(message: Message) -> str | None:
    ref = message.chat or message.user
    return ref.platform if ref else None


def outbox_rows(ctx: Context, messages: list[Message]) -> list[dict]:
    """Rows for the messages a write makes (answers to the asker are not stored: they are the reply)."""
    rows = []
    moment = ctx.now()
    for message in messages:
        platform = platform_of(message)
        if message.kind == "error" or message.is_reply or platform is None or platform in OWN_TABLES:
            continue
        message.outbox_id = ctx.outbox_keys.next()
        mine = ctx.serves is None or platform in ctx.serves
        slot = message.slot
        if slot and message.is_private:
            slot = f"{slot}:{message.user.id}"
        rows.append({"key": message.outbox_id, "platform": platform, "game_id": message.game_id, "slot": slot,
                     "payload": message_to_json(message), "created_at": moment,
                     "claimed_by": ctx.process_id if mine else None, "claimed_at": moment if mine else None,
                     "sent_at": None})
    return rows


async def claim(ctx: Context, platforms: list[str], limit: int = 100) -> list[Message]:
    """Messages of ``platforms`` nobody delivered in time, claimed for this process; only the newest of each
    slot is returned (the older ones are marked sent: a board changed twice is shown once)."""
    moment = ctx.now()
    async with ctx.uow() as uow:
        rows = await uow.outbox.claim(platforms, ctx.process_id, moment, moment - ctx.delivery_lease, limit)
        newest: dict[str, str] = {}
        for row in rows:
            if row.slot:
                newest[f"{row.platform}|{row.slot}"] = row.key
        superseded = [r.key for r in rows if r.slot and newest[f"{r.platform}|{r.slot}"] != r.key]
        await uow.outbox.mark_sent(superseded, moment)
        if rows and rows[0].id % 50 == 0:
            await uow.outbox.purge_sent(moment - PURGE_AFTER)
        await uow.commit()
        keep = [message_from_json(r.payload, r.key) for r in rows if r.key not in superseded]
    await _picker_states(ctx, keep)
    return keep


async def _picker_states(ctx: Context, messages: list[Message]) -> None:
    """Hands stored as recipes keep their game's state only in the memory of the process that made them; one
    delivered from the outbox gets the picker of the game as stored now (and that version on its buttons), or
    none when the person is no longer to act."""
    waiting = [m for m in messages if m.recipe is not None and m.recipe.get("render") == "hand"
               and m.recipe.get("to_act") and m.recipe.get("state") is None]
    if not waiting:
        return
    async with ctx.uow(readonly=True) as uow:
        for message in waiting:
            recipe = message.recipe
            live = await ctx.games.fresh(uow, recipe["id"])
            if live is None or recipe["seat"] not in live.state.to_act() or live.state.is_over():
                recipe["to_act"] = False
            else:
                recipe["state"], recipe["version"] = live.state, live.version


async def outbox_loop(ctx: Context, deliver: Callable[[list[Message]], Awaitable[None]], platforms: list[str],
                      marks: "DeliveryMarks", interval: float = 1.0) -> None:
    """Run until cancelled: deliver what this process's platforms are owed (after another process's crash, or
    what a process serving another platform stored for them)."""
    while True:
        try:
            messages = await claim(ctx, platforms)
            if messages:
                await deliver(messages)
                await marks.flush()
                continue
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("outbox loop")
        await asyncio.sleep(interval)


async def pending(ctx: Context, platform: str | None = None) -> list[Message]:
    """Unsent messages (tests and the operator's view)."""
    async with ctx.uow(readonly=True) as uow:
        return [message_from_json(r.payload, r.key) for r in await uow.outbox.pending(platform)]


class DeliveryMarks:
    """What the delivery reports of outbox messages. ``holding``: queued here — their claims are renewed until
    they are marked sent, so no other process claims a message still waiting in a chat's queue or being sent.
    ``delivered``: sent (or superseded) — never send them again; marks are gathered for a moment, then written
    with the group commit's next batch (one statement), never in a transaction of their own between two
    batches of moves."""

    def __init__(self, ctx: Context):
        self._ctx = ctx
        self._keys: list[str] = []
        self._flushing: asyncio.Task | None = None
        self._held: set[str] = set()  # queued, being sent, or sent and not yet marked
        self._renewer: asyncio.Task | None = None

    def holding(self, outbox_ids: list[str]) -> None:
        self._held.update(str(key) for key in outbox_ids if key)
        if self._held and (self._renewer is None or self._renewer.done()):
            self._renewer = asyncio.create_task(self._renew_claims())

    async def delivered(self, outbox_ids: list[str]) -> None:
        self._keys.extend(str(i) for i in outbox_ids if i)
        if self._keys and (self._flushing is None or self._flushing.done()):
            self._flushing = asyncio.create_task(self._flush())

    async def _flush(self) -> None:
        await asyncio.sleep(0.05)
        while self._keys:
            keys, self._keys = self._keys[:500], self._keys[500:]
            try:
                await self._ctx.group.mark_sent(keys)
            except Exception:
                log.exception("could not mark %d messages sent (they may be sent again)", len(keys))
            self._held.difference_update(keys)  # marked (or given up): the claim need not be renewed any more

    async def _renew_claims(self) -> None:
        """While this process holds messages, stamp their claims several times a lease (in a short transaction
        of its own). A message no longer claimed by this process (sent, superseded, or taken over after a stall
        longer than the lease) is dropped from the held ones."""
        while self._held:
            await asyncio.sleep(self._ctx.delivery_lease.total_seconds() / RENEWALS_PER_LEASE)
            keys = list(self._held)
            try:
                async with self._ctx.uow() as uow:
                    renewed = await uow.outbox.renew(keys, self._ctx.process_id, self._ctx.now())
                    await uow.commit()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("could not renew the claims of %d messages (tried again shortly)", len(keys),
                            exc_info=True)
                continue
            lost = [key for key in keys if key not in renewed and key in self._held]
            self._held.difference_update(lost)
            if lost:
                log.info("%d messages held here are no longer claimed by this process (marked sent, or taken "
                         "over after a stall longer than the lease)", len(lost))

    async def flush(self) -> None:
        """Wait until every mark is written (tests, shutdown)."""
        while self._flushing is not None and not self._flushing.done():
            await self._flushing

    async def close(self) -> None:
        """Write the marks; stop renewing (what is still held is taken over by another process after the lease)."""
        await self.flush()
        if self._renewer is not None:
            self._renewer.cancel()
            await asyncio.gather(self._renewer, return_exceptions=True)


class SlotStore:
    """Which platform message shows each slot (``board:12`` in a chat, a person's ``hand:12``): the adapter's
    outbound half edits it, or posts anew and remembers the new one."""

    def __init__(self, ctx: Context):
        self._ctx = ctx

    async def remember(self, platform: str, slot: str, chat_id: str, message_id: str) -> None:
        async with self._ctx.uow() as uow:
            await uow.slots.put(platform, slot, chat_id, message_id)
            await uow.commit()

    async def lookup(self, platform: str, slot: str) -> tuple[str, str] | None:
        async with self._ctx.uow(readonly=True) as uow:
            row = await uow.slots.get(platform, slot)
            return (row.chat_external_id, row.message_id) if row else None
