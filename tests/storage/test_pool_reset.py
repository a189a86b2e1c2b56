"""SQLite's pool reset on return (storage/db.py ``_sqlite_reset``): a connection that comes back with a transaction
open is rolled back (nothing of it stays); one that comes back committed is not (a rollback is a thread hop)."""
from __future__ import annotations

from storage.db import open_database


async def test_open_work_is_rolled_back_and_committed_connections_cost_no_rollback(tmp_path):
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'reset.db'}")
    rollbacks = []
    try:
        async with db.engine.connect() as conn:
            raw = (await conn.get_raw_connection()).driver_connection
            real = raw.rollback

            async def counted():
                rollbacks.append(1)
                return await real()

            raw.rollback = counted
            await raw.execute("BEGIN IMMEDIATE")
            await raw.execute("CREATE TABLE left_open (x)")  # returned to the pool uncommitted
        assert rollbacks == [1]
        async with db.engine.connect() as conn:
            raw = (await conn.get_raw_connection()).driver_connection
            assert not raw.in_transaction
            found = await (await raw.execute("SELECT count(*) FROM sqlite_master WHERE name = 'left_open'")).fetchone()
            assert found[0] == 0
            await raw.execute("BEGIN IMMEDIATE")
            await raw.execute("CREATE TABLE kept (x)")
            await raw.execute("COMMIT")  # returned committed: no rollback
        assert rollbacks == [1]
        async with db.engine.connect() as conn:
            raw = (await conn.get_raw_connection()).driver_connection
            assert (await (await raw.execute("SELECT count(*) FROM sqlite_master WHERE name = 'kept'")).fetchone())[0]
    finally:
        await db.close()
