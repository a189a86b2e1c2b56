"""What the repositories share: the stale-version error, a race-free insert and claiming rows for one process."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession


class StaleVersion(Exception):
    """Another writer changed the game since it was read: nothing was written."""


async def insert_if_absent(session: AsyncSession, model, **values) -> None:
    """INSERT … ON CONFLICT DO NOTHING: of two processes creating the same row at once, one wins, neither fails."""
    dialect = session.bind.dialect.name
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as dialect_insert
    else:
        from sqlalchemy.dialects.sqlite import insert as dialect_insert
    await session.execute(dialect_insert(model.__table__).values(**values).on_conflict_do_nothing())


async def claim_rows(session: AsyncSession, model, conditions: list, order, me: str, now: datetime,
                     lease_before: datetime, limit: int) -> list:
    """Rows of ``model`` matching ``conditions`` that nobody holds (never claimed, or claimed before the lease:
    that process died), claimed for process ``me``. Each row goes to exactly one process: ``FOR UPDATE SKIP
    LOCKED`` on PostgreSQL; SQLite's write transaction is exclusive. Commit to make the claim visible."""
    query = (select(model).where(*conditions, (model.claimed_at.is_(None)) | (model.claimed_at < lease_before))
             .order_by(order).limit(limit))
    if session.bind.dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    rows = list(await session.scalars(query))
    for row in rows:
        row.claimed_by, row.claimed_at = me, now
    return rows
