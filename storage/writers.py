"""A fair queue for SQLite's one writer, across processes: an ``flock`` on a file beside the database.

Why: when another process holds SQLite's write lock, ``BEGIN IMMEDIATE`` does not wait in a queue; SQLite's busy
handler sleeps and retries (1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100 ms …). A group commit holds the lock
for a millisecond or two, so two processes writing batches back to back made each other sleep many times as
long as the other's transaction lasted (``BEGIN IMMEDIATE`` waited p90 11–18 ms, max 230 ms, in two bench
processes). A blocking ``flock`` is a kernel wait queue instead: a writer waiting for another process is woken
the moment that one is done (then ``BEGIN`` p90 0.13 ms; two processes made ~12 % more moves/s).

The flock only orders the lean batch writes (``storage/lean.py``), which run in aiosqlite's own thread where
blocking is harmless; every other write keeps SQLite's busy handler, and SQLite's own locking stays the only
thing correctness rests on (a writer that skips the queue is merely slower to get the lock). Each pooled
connection opens its own descriptor, so writers within one process queue as well. The kernel releases the lock
of a killed process; a stopped one keeps it, so the wait is bounded (``WAIT``, issue 34): a frozen holder costs
the others that wait once, then SQLite's busy timeout per write. The queue is held only while waiting for
SQLite. Where ``fcntl`` does not exist (Windows) there is no queue.
"""
from __future__ import annotations

import contextlib
import os
import threading
import time

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: SQLite's busy handler alone
    fcntl = None

SUFFIX = "-writers"
WAIT = 2.0  # seconds a writer waits for the queue before it goes on to SQLite's own lock (see Queue)


def lock_path(database: str | None) -> str | None:
    """The queue's file for a SQLite database file (None for an in-memory database: one connection, no queue)."""
    if fcntl is None or not database:
        return None
    if database.startswith("file:"):  # a URI filename: its path, unless it names a memory database
        path, _, query = database[len("file:"):].partition("?")
        if "mode=memory" in query:
            return None
        database = path
    return None if database in ("", ":memory:") else database + SUFFIX


def open_queue(database: str | None) -> "Queue | None":
    """This connection's place in the queue, one per connection (None: no queue, or its file cannot be opened:
    a read-only folder — SQLite's busy handler alone then)."""
    path = lock_path(database)
    if path is None:
        return None
    try:
        return Queue(os.open(path, os.O_RDWR | os.O_CREAT, 0o644))
    except OSError:
        return None


_gave_up = float("-inf")  # when a writer of this process last stopped waiting for the queue (monotonic)


def stuck(within: float = 30.0) -> bool:
    """A writer of this process stopped waiting for the queue in the last ``within`` seconds: another process
    holds it beyond any batch (frozen), so a long wait for a write is no mere load."""
    return time.monotonic() - _gave_up < within


class Queue:
    """One descriptor of the queue's file. ``acquire`` waits at most ``timeout`` seconds: a process stopped
    (SIGSTOP, a paused container, a debugger) while it holds the queue keeps it, as the kernel releases it only
    when the process dies; after the wait the writer goes on to SQLite's own lock and its busy timeout.

    The wait stays a kernel wait (woken the moment the holder is done): a helper thread blocks in ``flock`` and
    hands the lock over; a writer that stopped waiting leaves it there, and the lock it gets later is released
    at once. While it still waits (the queue is stuck), later writers do not wait for the queue again."""

    def __init__(self, descriptor: int):
        self.descriptor = descriptor
        self._mutex = threading.Lock()
        self._granted: threading.Event | None = None  # a helper blocked in flock; set once it holds the lock
        self._wanted = False  # a writer waits for the helper's lock
        self._stuck = False  # a writer gave up waiting: do not wait again until the helper is through
        self._closed = False

    def acquire(self, timeout: float) -> bool:
        """Take the queue (True), or give up after ``timeout`` seconds (False: go on without it)."""
        with self._mutex:
            if self._granted is None:
                try:
                    fcntl.flock(self.descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return True
                except BlockingIOError:
                    pass
                self._granted = threading.Event()
                threading.Thread(target=self._wait, args=(self._granted,), name="writers-queue", daemon=True).start()
            granted = self._granted
            self._wanted = True
            if self._stuck:
                timeout = 0.0
        granted.wait(timeout)
        with self._mutex:
            self._wanted = False
            if granted.is_set():
                self._granted = None
                return True
            self._stuck = True
            global _gave_up
            _gave_up = time.monotonic()
            return False

    def _wait(self, granted: threading.Event) -> None:
        fcntl.flock(self.descriptor, fcntl.LOCK_EX)  # the descriptor stays open while this waits (see close)
        with self._mutex:
            self._stuck = False
            if self._wanted and not self._closed:
                granted.set()
                return
            self._granted = None
            if self._closed:  # closed while this waited: its close was left to this thread
                os.close(self.descriptor)
            else:
                fcntl.flock(self.descriptor, fcntl.LOCK_UN)

    def release(self) -> None:
        fcntl.flock(self.descriptor, fcntl.LOCK_UN)

    def close(self) -> None:
        """Close the descriptor (later, by the helper, if one still waits on it: never a reused number)."""
        with self._mutex:
            self._closed = True
            if self._granted is not None and not self._granted.is_set():
                return
        os.close(self.descriptor)


@contextlib.contextmanager
def turn(queue: Queue | None, timeout: float = WAIT):
    """Hold the writers' queue for the block, or go on without it after ``timeout`` seconds (blocking: call it
    in the database connection's thread). Yields whether the queue is held."""
    if queue is None or not queue.acquire(timeout):
        yield False
        return
    try:
        yield True
    finally:
        queue.release()
