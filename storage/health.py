"""Why the database cannot store anything right now, said precisely: the disk is full, it is read-only, its file
was deleted or replaced under the running bot, or another process holds its write lock beyond every wait.

Why: such a failure used to reach people as "something went wrong" and the log as one traceback per command
(issue 34). Storage raises ``StorageUnavailable`` with one of these reasons instead; the service's guard answers
it in one sentence, and the cause is logged here, once a minute per reason, not per command.

A SQLite file deleted or replaced (``mv``) while the bot runs is not noticed by SQLite in WAL mode: its
connections keep writing into the unlinked file, which no one will read again. ``FileWatch`` compares the
path's device and inode with those of the file opened; once they differ, every write is refused until restart.
"""
from __future__ import annotations

import errno
import logging
import os
import threading
import time

log = logging.getLogger(__name__)

FULL = "disk full"
READ_ONLY = "read-only"
GONE = "file gone"
BUSY = "busy"

LOG_EVERY = 60.0  # seconds between two log lines of one reason

_SQLITE = {13: FULL, 8: READ_ONLY, 5: BUSY, 6: BUSY}  # SQLITE_FULL, SQLITE_READONLY, SQLITE_BUSY, SQLITE_LOCKED
_SQLITE_DBMOVED = 1032  # SQLITE_READONLY_DBMOVED: SQLite itself saw the file moved (rollback-journal mode)
_SQLSTATE = {"53100": FULL, "25006": READ_ONLY}  # PostgreSQL: disk_full, read_only_sql_transaction
_ERRNO = {errno.ENOSPC: FULL, errno.EDQUOT: FULL, errno.EROFS: READ_ONLY}


class StorageUnavailable(Exception):
    """Nothing could be stored, for ``reason`` (FULL, READ_ONLY, GONE, BUSY); nothing of the write was kept."""

    def __init__(self, reason: str, detail: str = ""):
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


def reason_of(error: BaseException) -> str | None:
    """The reason behind ``error`` (a driver's error, SQLAlchemy's wrapper of it, an OSError), or None."""
    seen = 0
    while error is not None and seen < 8:
        seen += 1
        if isinstance(error, StorageUnavailable):
            return error.reason
        code = getattr(error, "sqlite_errorcode", None)
        if code == _SQLITE_DBMOVED:
            return GONE
        if code is not None and code & 0xFF in _SQLITE:
            return _SQLITE[code & 0xFF]
        state = getattr(error, "sqlstate", None) or getattr(error, "pgcode", None)
        if state in _SQLSTATE:
            return _SQLSTATE[state]
        if isinstance(error, OSError) and error.errno in _ERRNO:
            return _ERRNO[error.errno]
        error = getattr(error, "orig", None) or error.__cause__ or error.__context__
    return None


def unavailable(error: BaseException, *, busy: bool = True) -> StorageUnavailable | None:
    """``error`` as a StorageUnavailable (reported to the log, once a minute per reason), or None. ``busy``:
    count a busy database too (False where the caller still waits and tries again)."""
    if isinstance(error, StorageUnavailable):
        return error
    reason = reason_of(error)
    if reason is None or (reason == BUSY and not busy):
        return None
    cause = getattr(error, "orig", None) or error
    found = StorageUnavailable(reason, str(cause))
    report(found)
    return found


_last: dict[str, list] = {}  # reason → [monotonic time of its last line, refusals since]
_last_lock = threading.Lock()


def report(error: StorageUnavailable) -> None:
    """Log the cause at most once a minute per reason (no traceback: the cause is the whole story)."""
    with _last_lock:
        entry = _last.setdefault(error.reason, [float("-inf"), 0])
        now = time.monotonic()
        if now - entry[0] < LOG_EVERY:
            entry[1] += 1
            return
        since, entry[0], entry[1] = entry[1], now, 0
    more = f" ({since} more refused since the last line)" if since else ""
    log.error("The database cannot store anything: %s%s", error, more)


class FileWatch:
    """Tells whether the SQLite file at ``path`` is still the one this process opened (same device and inode)."""

    def __init__(self, path: str):
        self.path = path
        self.identity = self._identity()
        self.gone: StorageUnavailable | None = None

    def _identity(self) -> tuple[int, int] | None:
        try:
            stat = os.stat(self.path)
        except FileNotFoundError:
            return None
        return stat.st_dev, stat.st_ino

    def check(self) -> None:
        """Refuse a write once the file is known gone (no system call)."""
        if self.gone is not None:
            report(self.gone)
            raise self.gone

    def verify(self) -> None:
        """Compare the path's file with the one opened (one ``stat``); refuse from now on if it changed."""
        if self.gone is None and self.identity is not None and self._identity() != self.identity:
            self.gone = StorageUnavailable(GONE, f"{self.path} was deleted or replaced while the bot ran")
            log.error("The database file %s was deleted or replaced while the bot ran: what this process writes "
                      "would go to a file no one reads, so it stores nothing more and refuses every move. "
                      "Restart the bot to open the file now at that path.", self.path)
            with _last_lock:  # that was this minute's line
                _last[GONE] = [time.monotonic(), 0]
            raise self.gone
        self.check()
