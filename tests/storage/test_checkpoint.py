"""Issue 24: SQLite's write-ahead log is copied into the database file in the background, never inside a move's
commit (a commit that checkpointed paid 10–20 ms: the whole p99 of the quiet move path)."""
from __future__ import annotations

import asyncio
import os

from sqlalchemy import text

from storage import UnitOfWork
from storage.db import open_database
from storage.group_commit import GroupCommit, MoveWrite
from tests.storage.test_group_commit import _games

BIG = {"padding": "x" * 3000}  # a snapshot of a few pages: the log passes SQLite's 1,000 pages soon


async def _moves(db, gid: int, first: int, count: int) -> None:
    group = GroupCommit(db)
    for version in range(first, first + count):
        write = MoveWrite(gid, version, dict(BIG, n=version + 1),
                          [{"seq": version, "seat": 0, "action": {"type": "go"}, "events": [], "by": "player"}])
        await group.run(write)


async def test_commits_never_checkpoint_and_the_background_does(tmp_path):
    path = tmp_path / "wal.db"
    db = await open_database(f"sqlite+aiosqlite:///{path}")
    try:
        async with UnitOfWork(db) as uow:
            assert (await uow.session.execute(text("PRAGMA wal_autocheckpoint"))).scalar() == 0
        await db.checkpointer.aclose()  # stopped: what the commits alone do
        gid = (await _games(db, 1))[0]
        size = os.path.getsize(path)
        await _moves(db, gid, 0, 1500)  # ~1,500 commits of a page or more: SQLite's default would checkpoint
        assert os.path.getsize(f"{path}-wal") > 1000 * 4096
        assert os.path.getsize(path) == size  # nothing was copied back by a commit

        db.checkpointer.start()
        for _ in range(100):
            if os.path.getsize(path) > size and db.checkpointer.checkpoints:  # counted after the copy ends
                break
            await asyncio.sleep(0.05)
        assert os.path.getsize(path) > size and db.checkpointer.checkpoints >= 1
        async with UnitOfWork(db, readonly=True) as uow:
            row = await uow.games.get(gid)
            assert row.version == 1500 and row.state["n"] == 1500
    finally:
        await db.close()
