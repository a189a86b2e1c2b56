"""Timers: deadlines of games, each fired by exactly one process."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import Timer
from storage.repository.base import claim_rows


class Timers:
    def __init__(self, session: AsyncSession):
        self.session = session

    async def replace(self, game_id: int, timers: list[Timer]) -> None:
        await self.session.execute(delete(Timer).where(Timer.game_id == game_id))
        self.session.add_all(timers)

    async def add(self, game_id: int, timers: list[dict]) -> None:
        """New timers of a game: ``seat``, ``kind``, ``version``, ``due_at`` each."""
        self.session.add_all(Timer(game_id=game_id, **values) for values in timers)

    async def drop_seats(self, game_id: int, seats: set[int]) -> None:
        if seats:
            await self.session.execute(delete(Timer).where(Timer.game_id == game_id, Timer.seat.in_(seats)))

    async def seats_with_timers(self, game_id: int) -> set[int]:
        return set(await self.session.scalars(select(Timer.seat).where(Timer.game_id == game_id).distinct()))

    async def clear(self, game_id: int, kinds: tuple[str, ...] | None = None) -> None:
        """Drop the game's timers (only those of ``kinds`` when given)."""
        query = delete(Timer).where(Timer.game_id == game_id)
        if kinds is not None:
            query = query.where(Timer.kind.in_(kinds))
        await self.session.execute(query)

    async def release(self, timer_id: int, me: str) -> None:
        """Give a claimed timer back unfired, so that the next round (of any process) fires it at once."""
        await self.session.execute(update(Timer).where(Timer.id == timer_id, Timer.claimed_by == me)
                                   .values(claimed_by=None, claimed_at=None))

    async def claim_due(self, now: datetime, me: str, lease_before: datetime, limit: int = 50) -> list[Timer]:
        """Claim due timers for process ``me``: each is claimed by exactly one process (``FOR UPDATE SKIP
        LOCKED`` on PostgreSQL; SQLite's write transaction is exclusive). A claim older than the lease (its
        process died) is taken over. Commit to make the claim visible."""
        return await claim_rows(self.session, Timer, [Timer.due_at <= now], Timer.due_at, me, now, lease_before,
                                limit)

    async def take(self, timer_id: int, me: str) -> bool:
        """Delete a timer this process claimed; False when it is gone or another process took it over."""
        done = await self.session.execute(delete(Timer).where(Timer.id == timer_id, Timer.claimed_by == me))
        return done.rowcount == 1

    async def next_due(self) -> datetime | None:
        """The next unclaimed deadline (a claimed one is fired by its process, or taken over after its lease)."""
        return await self.session.scalar(select(func.min(Timer.due_at)).where(Timer.claimed_at.is_(None)))

    async def of_game(self, game_id: int) -> list[Timer]:
        return list(await self.session.scalars(select(Timer).where(Timer.game_id == game_id).order_by(Timer.due_at)))
