"""Delivery: what must be said is stored with what it tells (the outbox), then sent — at once by the process
that made it when it serves that platform, else (or after a crash) by a delivery loop of a process that does.

``outbox_rows`` turns messages into rows written in the same transaction as the move, lobby change or timer
that they tell. The messages returned to an adapter carry their row's key in ``outbox_id``; the adapter's
Delivery reports them ``holding`` when queued and ``delivered`` once sent (or superseded by a newer message for the
same slot). ``outbox_loop`` claims what nobody delivered within the lease and hands it to the process's deliverer.
A process renews the claims of what it holds until the sent mark is written, however long a chat's queue, a 429
or a slow request takes (the lease ran out before and another process sent a reminder again); a process that dies
stops renewing, and its messages are taken over after the lease. Delivery is at least once: boards and hands
replace their slot, so a repeat is harmless.
"""
from __future__ import annotations

import asyncio
import itertools
import logging
import uuid
from datetime import timedelta

from bot.render.pool import PicturePool
from bot.service.base import now
from bot.service.messages import Message, message_from_json, message_to_json

log = logging.getLogger(__name__)
DELIVERY_LEASE = timedelta(seconds=15)  # a message whose claim nobody renewed for that long is sent by another
RENEWALS_PER_LEASE = 3  # claims held are renewed this often within a lease: one late renewal loses nothing
PURGE_AFTER = timedelta(hours=1)
UNSTORED_PLATFORMS = ("console",)  # a terminal has one process: nothing to hand over


def platform_of(message: Message) -> str | None:
    ref = message.chat or message.user
    return ref.platform if ref else None


class DeliveryCommands:
    def _init_delivery(self, picture_workers: int | None = None, warm_pictures: bool = True) -> None:
        # pictures are drawn in worker processes (a core each but the loop's), never on the event loop; the pool
        # keeps recently drawn ones (a re-sent board or hand is not drawn again). Its workers start on the
        # first picture, so a service without pictures never starts them.
        self.delivery_lease = DELIVERY_LEASE
        self.pictures_pool = PicturePool(picture_workers, warm=warm_pictures)
        # True where the adapters draw at delivery (``draw_pictures`` in their Delivery's ``prepare``): the
        # messages keep their picture request, and a board superseded before it is sent is never drawn
        self.draw_at_delivery = False
        self._sent: list[str] = []
        # outbox keys: a random prefix per service and a counter (uuid4 per message cost a system call each)
        self._key_prefix = uuid.uuid4().hex[:20]
        self._key_count = itertools.count()
        self._sent_flush: asyncio.Task | None = None
        # outbox keys a Delivery of this process holds (queued, being sent, or sent and not yet marked): their
        # claims are renewed until the sent mark is written
        self._held: set[str] = set()
        self._renewer: asyncio.Task | None = None

    def outbox_rows(self, messages: list[Message]) -> list[dict]:
        """Rows for the messages a write makes (answers to the asker are not stored: they are the reply)."""
        rows = []
        moment = now()
        for message in messages:
            platform = platform_of(message)
            if message.kind == "error" or message.is_reply or platform is None or platform in UNSTORED_PLATFORMS:
                continue
            message.outbox_id = f"{self._key_prefix}{next(self._key_count):x}"
            mine = self.serves is None or platform in self.serves
            slot = message.slot
            if slot and message.is_private:
                slot = f"{slot}:{message.user.id}"
            rows.append({"key": message.outbox_id, "platform": platform, "game_id": message.game_id, "slot": slot,
                         "payload": message_to_json(message), "created_at": moment,
                         "claimed_by": self.process_id if mine else None, "claimed_at": moment if mine else None,
                         "sent_at": None})
        return rows

    async def delivered(self, outbox_ids: list[str]) -> None:
        """Messages of the outbox were sent (or superseded by a newer one for their slot): never resend them.
        Marks are gathered for a moment, then written with the group commit's next batch (one statement)."""
        self._sent.extend(str(i) for i in outbox_ids if i)
        if self._sent and (self._sent_flush is None or self._sent_flush.done()):
            self._sent_flush = asyncio.create_task(self._flush_sent())

    async def _flush_sent(self) -> None:
        await asyncio.sleep(0.05)
        while self._sent:
            keys, self._sent = self._sent[:500], self._sent[500:]
            try:  # with the next group commit of moves: never a transaction of its own between them
                await self._group.mark_sent(keys)
            except Exception:
                log.exception("could not mark %d messages sent (they may be sent again)", len(keys))
            for key in keys:  # marked (or given up): the claim need not be renewed any more
                self._held.discard(key)

    def holding(self, outbox_ids: list[str]) -> None:
        """A Delivery of this process queued these messages: renew their claims until they are marked sent, so
        no other process claims a message still waiting in a chat's queue or being sent."""
        self._held.update(str(key) for key in outbox_ids if key)
        if self._held and (self._renewer is None or self._renewer.done()):
            self._renewer = asyncio.create_task(self._renew_claims())

    async def _renew_claims(self) -> None:
        """While this process holds messages, stamp their claims several times a lease (in a short transaction
        of its own). A message no longer claimed by this process (sent, superseded, or taken over after a stall
        longer than the lease) is dropped from the held ones."""
        while self._held:
            await asyncio.sleep(self.delivery_lease.total_seconds() / RENEWALS_PER_LEASE)
            keys = list(self._held)
            try:
                async with self._uow() as uow:
                    renewed = await uow.outbox.renew(keys, self.process_id, now())
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

    async def flush_delivered(self) -> None:
        """Wait until every ``delivered`` mark is written (tests, shutdown)."""
        while self._sent_flush is not None and not self._sent_flush.done():
            await self._sent_flush

    async def claim_outbox(self, platforms: list[str], limit: int = 100) -> list[Message]:
        """Messages of ``platforms`` nobody delivered in time, claimed for this process; only the newest of each
        slot is returned (the older ones are marked sent: a board changed twice is shown once)."""
        moment = now()
        async with self._uow() as uow:
            rows = await uow.outbox.claim(platforms, self.process_id, moment, moment - self.delivery_lease, limit)
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
        await self._picker_states(keep)
        return await self.finish_messages(keep)

    async def _picker_states(self, messages: list[Message]) -> None:
        """Hands stored as recipes (rendered when sent) keep their game's state only in the memory of the
        process that made them; one delivered from the outbox gets the picker of the game as stored now (and
        that version on its buttons), or none when the person is no longer to act."""
        waiting = [m for m in messages if m.recipe is not None and m.recipe.get("render") == "hand"
                   and m.recipe.get("to_act") and m.recipe.get("state") is None]
        if not waiting:
            return
        async with self._uow(readonly=True) as uow:
            for message in waiting:
                recipe = message.recipe
                live = await self.fresh_live(uow, recipe["id"])
                if live is None or recipe["seat"] not in live.state.to_act() or live.state.is_over():
                    recipe["to_act"] = False
                else:
                    recipe["state"], recipe["version"] = live.state, live.version

    async def outbox_loop(self, deliver, platforms: list[str], interval: float = 1.0) -> None:
        """Run forever: deliver what this process's platforms are owed (after another process's crash, or what
        a process serving another platform stored for them)."""
        self._running_loop()
        while True:
            try:
                messages = await self.claim_outbox(platforms)
                if messages:
                    await deliver(messages)
                    await self.flush_delivered()
                    continue
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("outbox loop")
            await asyncio.sleep(interval)

    async def pending_outbox(self, platform: str | None = None) -> list[Message]:
        """Unsent messages (tests and the operator's view)."""
        async with self._uow(readonly=True) as uow:
            return [message_from_json(r.payload, r.key) for r in await uow.outbox.pending(platform)]

    # ------------------------------------------------------------------ pictures
    async def finish_messages(self, messages):
        """Draw the pictures the messages ask for (all at once, in the pool) — unless they are drawn at delivery
        (``draw_at_delivery``), where only what is really sent is drawn."""
        if not isinstance(messages, list) or self.draw_at_delivery:
            return messages
        await self.draw_pictures(messages)
        return messages

    async def draw_pictures(self, messages: list[Message]) -> None:
        """Turn each message's picture request into ``image``, drawing several at once; a message without one
        (or already drawn) is left as it is. A picture that cannot be drawn leaves the text to go alone."""
        asking = [m for m in messages if isinstance(m, Message) and m.picture is not None]
        if not asking:
            return
        drawn = await asyncio.gather(*(self.pictures_pool.draw(*m.picture) for m in asking))
        for message, png in zip(asking, drawn):
            message.picture, message.image = None, png

    async def draw_picture(self, message: Message) -> None:
        """``draw_pictures`` for one message: the ``prepare`` of a Delivery, just before it sends."""
        if message.picture is not None:
            await self.draw_pictures([message])

    async def close_delivery(self) -> None:
        await self.flush_delivered()
        if self._renewer is not None:  # what is still held is taken over by another process after the lease
            self._renewer.cancel()
            await asyncio.gather(self._renewer, return_exceptions=True)
        await self.pictures_pool.aclose()
