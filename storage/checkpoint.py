"""SQLite's WAL copied back into the database file in the background, never in a move's commit.

By default SQLite checkpoints inside the commit that takes the write-ahead log past 1,000 pages: that commit
copies the log into the database file and syncs it (10–20 ms on this host), and every later commit tries again
while a reader keeps the log from being restarted. Measured on the quiet move path (issue 24): 3 % of moves
paid that, and it was the whole of the commit's p99 (11.5 ms; 0.2 ms without it). So the writer connection
turns automatic checkpoints off (``wal_autocheckpoint=0``) and this task checkpoints PASSIVE (it waits for
nobody and blocks no writer) from a connection of its own, in a thread, a moment after the log last grew.

Several processes on one file each run one; a checkpoint that meets another process's is simply skipped. If
none ran (a process killed), the log is checkpointed by the next one, or by SQLite when the last connection
closes; a process of an older version checkpoints in its commits as before.

Each round also checks that the file at the path is still the one opened (``health.FileWatch``): a database
deleted or replaced under the running bot is noticed within a round even when nobody moves.
"""
from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import threading

from storage.health import StorageUnavailable

log = logging.getLogger(__name__)


class WalCheckpointer:
    """Checkpoints ``path``'s write-ahead log every ``interval`` seconds while it grows."""

    def __init__(self, path: str, interval: float = 0.5):
        self.path = path
        self.wal = f"{path}-wal"
        self.interval = interval
        self.checkpoints = 0  # for the bench and the tests
        self._seen: tuple[int, int] | None = None  # the log's (size, mtime) at the last checkpoint
        self._connection: sqlite3.Connection | None = None
        self._lock = threading.Lock()  # one checkpoint at a time; closing waits for a running one
        self._task: asyncio.Task | None = None
        self.watch = None  # health.FileWatch: the file is checked to be the one opened on every round

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="wal-checkpoint")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.checkpoint_if_grown()
            except asyncio.CancelledError:
                raise
            except Exception:  # never let the task die: without it the log would only grow
                log.exception("WAL checkpoint of %s", self.path)

    async def checkpoint_if_grown(self) -> None:
        if self.watch is not None:
            try:
                self.watch.verify()  # logs once when the file is deleted or replaced; every write refuses then
            except StorageUnavailable:
                return  # nothing to copy into a file no one reads
        try:
            stat = os.stat(self.wal)
        except FileNotFoundError:
            return
        seen = (stat.st_size, stat.st_mtime_ns)
        if seen != self._seen:
            await asyncio.to_thread(self._checkpoint)
            self._seen = seen

    def _checkpoint(self) -> None:
        with self._lock:
            if self._connection is None:
                self._connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            try:
                self._connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                self.checkpoints += 1
            except sqlite3.OperationalError as error:  # another process checkpoints, or writes a schema change
                log.debug("WAL checkpoint skipped: %s", error)

    async def aclose(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
        await asyncio.to_thread(self._close)

    def _close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None
