"""``python -m bench.frozen [seconds]``: what a frozen process on one SQLite file costs this one (issue 34).

Another OS process takes the writers' queue (``queue``) — or the queue and SQLite's write lock, as one stopped
inside its transaction (``transaction``) — and keeps it for ``seconds``; meanwhile this process writes moves of 8
games through the group commit, back to back. Prints the moves stored during the freeze and how long their
callers waited (p50, max).
"""
from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import tempfile
import time

from storage import StorageUnavailable, writers
from storage.db import open_database
from storage.group_commit import GroupCommit, MoveWrite
from tests.storage.test_group_commit import _games

HOLD = ("import fcntl, os, sqlite3, sys, time\n"
        "path, mode, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])\n"
        "fd = os.open(path + '-writers', os.O_RDWR | os.O_CREAT); fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "if mode == 'transaction':\n"
        "    c = sqlite3.connect(path, isolation_level=None); c.execute('BEGIN IMMEDIATE')\n"
        "print('held', flush=True); time.sleep(seconds)")


async def run(mode: str, seconds: float) -> None:
    path = f"{tempfile.mkdtemp()}/frozen.db"
    db = await open_database(f"sqlite+aiosqlite:///{path}")
    ids = await _games(db, 8)
    group = GroupCommit(db)
    versions = dict.fromkeys(ids, 0)
    waits, refused = [], 0
    holder = subprocess.Popen([sys.executable, "-c", HOLD, path, mode, str(seconds)], stdout=subprocess.PIPE, text=True)
    holder.stdout.readline()
    end = time.monotonic() + seconds

    async def player(gid: int) -> None:
        nonlocal refused
        while time.monotonic() < end:
            v = versions[gid]
            began = time.monotonic()
            try:
                await group.run(MoveWrite(gid, v, {"n": v + 1}, [{"seq": v, "seat": 0, "action": {}, "events": [],
                                                                   "by": "player"}]))
                if time.monotonic() < end:
                    versions[gid] = v + 1
                    waits.append(time.monotonic() - began)
            except StorageUnavailable:
                refused += 1

    await asyncio.gather(*(player(g) for g in ids))
    holder.wait()
    await db.close()
    p50 = statistics.median(waits) if waits else float("nan")
    print(f"{mode:12} frozen {seconds:.0f} s: {len(waits)} moves stored during the freeze, {refused} refused; "
          f"callers waited p50 {p50:.3f} s, max {max(waits, default=float('nan')):.3f} s")


if __name__ == "__main__":
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 30.0
    for mode in ("queue", "transaction"):
        asyncio.run(run(mode, seconds))
