"""Messages: the outbox of what is to be delivered, and the platform ids of messages that are edited later."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import MessageSlot, OutboxMessage, utcnow
from storage.repository.base import claim_rows


class Outbox:
    """Messages to deliver, written with what they tell (see ``OutboxMessage``)."""

    def __init__(self, session: AsyncSession):
        self.session = session

    async def add(self, rows: list[dict]) -> None:
        if rows:
            await self.session.execute(insert(OutboxMessage.__table__), rows)

    async def mark_sent(self, keys: list[str], when: datetime) -> None:
        if keys:
            table = OutboxMessage.__table__
            await self.session.execute(update(table).where(table.c.key.in_(keys)).values(sent_at=when))

    async def claim(self, platforms: list[str], me: str, now: datetime, lease_before: datetime,
                    limit: int = 100) -> list[OutboxMessage]:
        """Unsent messages of ``platforms`` nobody holds (never claimed, or the claim is older than the lease),
        oldest first, claimed for ``me``. Commit to make the claim visible."""
        return await claim_rows(self.session, OutboxMessage,
                                [OutboxMessage.platform.in_(platforms), OutboxMessage.sent_at.is_(None)],
                                OutboxMessage.id, me, now, lease_before, limit)

    async def renew(self, keys: list[str], me: str, now: datetime) -> set[str]:
        """Stamp ``now`` on the claims ``me`` still holds of these unsent messages, so no other process takes
        them over while ``me`` is still sending them; the keys renewed (not: sent, superseded, taken over)."""
        table = OutboxMessage.__table__
        renewed: set[str] = set()
        for start in range(0, len(keys), 500):
            done = await self.session.execute(
                update(table).where(table.c.key.in_(keys[start:start + 500]), table.c.claimed_by == me,
                                    table.c.sent_at.is_(None)).values(claimed_at=now).returning(table.c.key))
            renewed.update(done.scalars())
        return renewed

    async def pending(self, platform: str | None = None) -> list[OutboxMessage]:
        query = select(OutboxMessage).where(OutboxMessage.sent_at.is_(None)).order_by(OutboxMessage.id)
        if platform is not None:
            query = query.where(OutboxMessage.platform == platform)
        return list(await self.session.scalars(query))

    async def purge_sent(self, before: datetime) -> None:
        await self.session.execute(delete(OutboxMessage).where(OutboxMessage.sent_at < before))


class Slots:
    """Platform message ids of lobbies, boards and hands, keyed by a slot name like ``board:12``."""

    def __init__(self, session: AsyncSession):
        self.session = session

    async def get(self, platform: str, slot: str) -> MessageSlot | None:
        return await self.session.scalar(
            select(MessageSlot).where(MessageSlot.platform == platform, MessageSlot.slot == slot))

    async def put(self, platform: str, slot: str, chat_external_id: str, message_id: str) -> None:
        row = await self.get(platform, slot)
        if row is None:
            self.session.add(MessageSlot(platform=platform, slot=slot, chat_external_id=chat_external_id,
                                         message_id=message_id))
        else:
            row.chat_external_id, row.message_id, row.updated_at = chat_external_id, message_id, utcnow()

    async def mark(self, platform: str, slot: str) -> None:
        """A marker row (something said once, e.g. ``dm-failed:<game>:<person>``); two processes adding the same
        one at once: one of their commits fails on the unique key."""
        self.session.add(MessageSlot(platform=platform, slot=slot, chat_external_id="", message_id="-"))

    async def drop(self, platform: str, slot: str) -> None:
        await self.session.execute(
            delete(MessageSlot).where(MessageSlot.platform == platform, MessageSlot.slot == slot))
