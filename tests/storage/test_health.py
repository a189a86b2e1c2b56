"""Issue 34: storage under a frozen process, a file deleted or replaced, a full disk, a read-only database —
each said precisely (StorageUnavailable), never a hang, a silent loss or a traceback per write."""
from __future__ import annotations

import asyncio
import logging
import os
import shutil
import subprocess
import sys

import pytest
from sqlalchemy import text

from storage import DatabaseUnavailable, StorageUnavailable, UnitOfWork, health, writers
from storage.db import open_database
from storage.group_commit import GroupCommit, MoveWrite
from tests.storage.test_group_commit import _games, _stored


def _write(gid: int, version: int = 0, size: int = 10) -> MoveWrite:
    return MoveWrite(gid, version, {"n": version + 1, "pad": "x" * size},
                     [{"seq": version, "seat": 0, "action": {"type": "go"}, "events": [], "by": "player"}])


def _hold_queue(path) -> subprocess.Popen:
    """Another OS process that takes the writers' queue and never lets go (as a stopped one would)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, time\n"
         f"fd = os.open({str(path) + writers.SUFFIX!r}, os.O_RDWR | os.O_CREAT)\n"
         "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); time.sleep(120)"],
        stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    return holder


async def test_a_frozen_holder_of_the_queue_does_not_stop_this_process_moves(tmp_path):
    path = tmp_path / "frozen.db"
    db = await open_database(f"sqlite+aiosqlite:///{path}")
    holder = await asyncio.to_thread(_hold_queue, path)
    try:
        ids = await _games(db, 3)
        group = GroupCommit(db)
        # before issue 34 the first waited for the holder for ever (a safety limit here, not a measured duration)
        assert await asyncio.wait_for(group.run(_write(ids[0])), 60) == 1
        for gid in ids[1:]:  # the queue is known stuck: later writes go straight to SQLite's lock
            assert await asyncio.wait_for(group.run(_write(gid)), 60) == 1
        assert [(await _stored(db, gid))[0] for gid in ids] == [1, 1, 1]
    finally:
        holder.kill()
        holder.wait()
        await db.close()


async def test_the_queue_is_taken_again_once_a_frozen_holder_lets_go(tmp_path):
    """The helper still waiting when the writer went on releases what it gets; the next writer queues again."""
    path = tmp_path / "thaw.db"
    db = await open_database(f"sqlite+aiosqlite:///{path}")
    holder = await asyncio.to_thread(_hold_queue, path)
    try:
        gid = (await _games(db, 1))[0]
        group = GroupCommit(db)
        assert await asyncio.wait_for(group.run(_write(gid)), 60) == 1
        holder.kill()
        holder.wait()
        assert await asyncio.wait_for(group.run(_write(gid, 1)), 60) == 2
        queue = writers.open_queue(str(path))  # another writer finds the queue free: nobody kept it
        for _ in range(200):
            if queue.acquire(0):
                break
            await asyncio.sleep(0.05)
        else:
            pytest.fail("the writers' queue stayed taken after its holder died")
        queue.release()
        queue.close()
    finally:
        holder.kill()
        holder.wait()
        await db.close()


@pytest.mark.parametrize("how", ["deleted", "replaced"])
async def test_a_file_deleted_or_replaced_under_the_bot_refuses_every_write(tmp_path, caplog, how):
    path = tmp_path / "gone.db"
    db = await open_database(f"sqlite+aiosqlite:///{path}")
    try:
        a, b = await _games(db, 2)
        group = GroupCommit(db)
        assert await group.run(_write(a)) == 1
        if how == "deleted":
            os.remove(path)
        else:  # a copy put in its place (a restored backup): another inode at the same path
            shutil.copy(path, tmp_path / "copy.db")
            os.replace(tmp_path / "copy.db", path)
        caplog.clear()
        with caplog.at_level(logging.ERROR):
            for gid, version in ((a, 1), (b, 0), (a, 1)):
                with pytest.raises(StorageUnavailable) as refused:
                    await group.run(_write(gid, version))
                assert refused.value.reason == health.GONE
            with pytest.raises(StorageUnavailable):  # the unit of work's writes too
                async with UnitOfWork(db) as uow:
                    await uow.players.get_or_create("discord", "9", "Zoe")
                    await uow.commit()
            await db.checkpointer.checkpoint_if_grown()
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1 and "deleted or replaced" in errors[0].getMessage() and errors[0].exc_info is None
    finally:
        await db.close()


async def test_a_file_deleted_while_nobody_writes_is_noticed_by_the_checkpoint_round(tmp_path, caplog):
    path = tmp_path / "quiet.db"
    db = await open_database(f"sqlite+aiosqlite:///{path}")
    try:
        gid = (await _games(db, 1))[0]
        os.remove(path)
        with caplog.at_level(logging.ERROR):
            await db.checkpointer.checkpoint_if_grown()
        assert any("deleted or replaced" in r.getMessage() for r in caplog.records)
        with pytest.raises(StorageUnavailable):
            await GroupCommit(db).run(_write(gid))
    finally:
        await db.close()


async def _fill_the_disk(db) -> None:
    """SQLite's own limit of pages, as a full disk: SQLITE_FULL on the next page it needs."""
    async with UnitOfWork(db) as uow:  # the writer engine has one connection: the limit stays on it
        pages = (await uow.session.execute(text("PRAGMA page_count"))).scalar()
        await uow.session.execute(text(f"PRAGMA max_page_count = {pages}"))


async def test_a_full_disk_is_said_and_logged_once_not_per_write(tmp_path, caplog):
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path}/full.db")
    try:
        ids = await _games(db, 3)
        await _fill_the_disk(db)
        group = GroupCommit(db)
        caplog.clear()
        with caplog.at_level(logging.ERROR):
            for gid in ids:
                with pytest.raises(StorageUnavailable) as refused:
                    await group.run(_write(gid, size=200_000))
                assert refused.value.reason == health.FULL
            with pytest.raises(StorageUnavailable) as refused:  # the general path: a unit of work
                async with UnitOfWork(db) as uow:
                    await uow.chats.get_or_create("discord", "c2", "discord:g", "x" * 100_000)
                    await uow.commit()
            assert refused.value.reason == health.FULL
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) <= 1 and all(r.exc_info is None for r in errors)
        assert [(await _stored(db, gid))[0] for gid in ids] == [0, 0, 0]  # nothing of them was kept
    finally:
        await db.close()


async def test_a_read_only_database_is_refused_at_start_saying_read_only(tmp_path):
    path = tmp_path / "ro.db"
    db = await open_database(f"sqlite+aiosqlite:///{path}")
    await db.close()
    with pytest.raises(DatabaseUnavailable) as refused:
        await open_database(f"sqlite+aiosqlite:///file:{path}?mode=ro&uri=true")
    assert "read-only" in str(refused.value) and "\n" not in str(refused.value)


def test_causes_are_read_from_the_drivers_errors():
    import errno
    import sqlite3

    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = 13
    assert health.reason_of(full) == health.FULL
    assert health.reason_of(OSError(errno.ENOSPC, "No space left on device")) == health.FULL
    assert health.reason_of(OSError(errno.EROFS, "Read-only file system")) == health.READ_ONLY
    assert health.reason_of(ValueError("nothing of the kind")) is None
