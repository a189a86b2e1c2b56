"""Issue 24: SQLite's batch writers of every process wait their turn in one queue (``storage/writers.py``), an
flock beside the database, so a process waiting for another is woken when that one is done, not by the busy
handler's sleeps."""
from __future__ import annotations

import asyncio
import fcntl
import os
import signal
import subprocess
import sys

from storage import UnitOfWork, writers
from storage.db import open_database
from storage.group_commit import GroupCommit, MoveWrite
from tests.storage.test_group_commit import _games


def _write(gid: int) -> MoveWrite:
    return MoveWrite(gid, 0, {"n": 1}, [{"seq": 0, "seat": 0, "action": {"type": "go"}, "events": [], "by": "player"}])


async def _stored_version(db, gid: int) -> int:
    async with UnitOfWork(db, readonly=True) as uow:
        return (await uow.games.get(gid)).version


async def test_a_batch_waits_for_the_writer_ahead_of_it_and_then_lands(tmp_path):
    path = tmp_path / "queue.db"
    db = await open_database(f"sqlite+aiosqlite:///{path}")
    try:
        gid = (await _games(db, 1))[0]
        ahead = os.open(writers.lock_path(str(path)), os.O_RDWR | os.O_CREAT)  # another writer (its own descriptor)
        fcntl.flock(ahead, fcntl.LOCK_EX)
        try:
            write = asyncio.create_task(GroupCommit(db).run(_write(gid)))
            await asyncio.sleep(0.3)
            assert not write.done()  # queued behind the writer ahead, nothing written yet
            assert await _stored_version(db, gid) == 0
        finally:
            fcntl.flock(ahead, fcntl.LOCK_UN)
            os.close(ahead)
        assert await asyncio.wait_for(write, 10) == 1
        assert await _stored_version(db, gid) == 1
        assert os.path.exists(f"{path}{writers.SUFFIX}")
    finally:
        await db.close()


async def test_a_killed_writer_never_blocks_the_queue(tmp_path):
    """A process killed while it held the queue (kill -9) releases it with its descriptors."""
    path = tmp_path / "killed.db"
    db = await open_database(f"sqlite+aiosqlite:///{path}")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys, time\n"
         f"fd = os.open({str(path) + writers.SUFFIX!r}, os.O_RDWR | os.O_CREAT)\n"
         "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True)
    try:
        gid = (await _games(db, 1))[0]
        assert (await asyncio.to_thread(holder.stdout.readline)).strip() == "held"
        write = asyncio.create_task(GroupCommit(db).run(_write(gid)))
        await asyncio.sleep(0.3)
        assert not write.done()
        holder.send_signal(signal.SIGKILL)
        assert await asyncio.wait_for(write, 10) == 1
        assert await _stored_version(db, gid) == 1
    finally:
        holder.kill()
        holder.wait()
        await db.close()


def test_an_in_memory_database_has_no_queue():
    assert writers.lock_path(":memory:") is None and writers.lock_path(None) is None
    assert writers.open_queue(":memory:") is None
    assert writers.lock_path("file::memory:?cache=shared") is None
    assert writers.lock_path("file:shared?mode=memory&cache=shared") is None
    assert writers.lock_path("/data/herald.db") == "/data/herald.db-writers"
    assert writers.lock_path("file:/data/herald.db?mode=rwc") == "/data/herald.db-writers"
