"""Timers: deadlines of games, each fired by exactly one process."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import BigInteger, case, cast, delete, false, func, literal_column, select, true, update
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import Chat, GameRow, Timer
from storage.repository.base import claim_rows


@dataclass(frozen=True)
class Served:
    """The games a process works on: those of chats on ``platforms`` (None: every platform) and, on Discord,
    of guilds on ``shards`` (count, ids) when given — a guild's shard is (guild id >> 22) % count, and a chat
    without a guild (a private chat) is shard 0's, as Discord sends private messages there."""

    platforms: frozenset[str] | None = None
    shards: tuple[int, frozenset[int]] | None = None

    @property
    def everything(self) -> bool:
        return self.platforms is None and self.shards is None

    def condition(self):
        """A condition on ``Chat``: true for the chats this process serves."""
        conditions = []
        if self.platforms is not None:
            conditions.append(Chat.platform.in_(sorted(self.platforms)))
        if self.shards is not None:
            count, ids = self.shards
            # ``chats.league`` is ``discord:<guild id>``, or ``discord:<channel id>`` for a chat without a guild;
            # the CASE reads the number only of a Discord guild's row (PostgreSQL casts nothing else)
            guild = cast(func.substr(Chat.league, len("discord:") + 1), BigInteger)
            conditions.append(case((Chat.platform != "discord", true()),
                                   (Chat.league == "discord:" + Chat.external_id, true() if 0 in ids else false()),
                                   else_=(guild.op(">>")(literal_column("22")) % int(count)).in_(sorted(ids))))
        return conditions

    def games(self):
        """The ids of the games in served chats (a subquery)."""
        return select(GameRow.id).join(Chat, Chat.id == GameRow.chat_id).where(*self.condition())


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

    async def due_again(self, game_id: int, seat: int, kind: str, moment: datetime) -> None:
        """The seat's unclaimed timers of ``kind`` fall due at ``moment`` (they are looked at again then)."""
        await self.session.execute(update(Timer).where(Timer.game_id == game_id, Timer.seat == seat,
                                                       Timer.kind == kind, Timer.claimed_by.is_(None))
                                   .values(due_at=moment))

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

    async def claim_due(self, now: datetime, me: str, lease_before: datetime, limit: int = 50,
                        served: Served | None = None) -> list[Timer]:
        """Claim due timers for process ``me``: each is claimed by exactly one process (``FOR UPDATE SKIP
        LOCKED`` on PostgreSQL; SQLite's write transaction is exclusive). A claim older than the lease (its
        process died) is taken over. Only timers of the games ``served`` (None: all). Commit to make the claim
        visible."""
        return await claim_rows(self.session, Timer, [Timer.due_at <= now, *_of_served(served)], Timer.due_at, me,
                                now, lease_before, limit)

    async def take(self, timer_id: int, me: str) -> bool:
        """Delete a timer this process claimed; False when it is gone or another process took it over."""
        done = await self.session.execute(delete(Timer).where(Timer.id == timer_id, Timer.claimed_by == me))
        return done.rowcount == 1

    async def next_due(self, served: Served | None = None) -> datetime | None:
        """The next unclaimed deadline of the games ``served`` (None: all) — a claimed one is fired by its process,
        or taken over after its lease."""
        return await self.session.scalar(select(func.min(Timer.due_at))
                                         .where(Timer.claimed_at.is_(None), *_of_served(served)))

    async def of_game(self, game_id: int) -> list[Timer]:
        return list(await self.session.scalars(select(Timer).where(Timer.game_id == game_id).order_by(Timer.due_at)))


def _of_served(served: Served | None) -> list:
    return [] if served is None or served.everything else [Timer.game_id.in_(served.games())]
