"""Group commit: the writes of many concurrent moves share one transaction and one commit.

SQLite has a single writer, and each statement through aiosqlite costs a hop to its thread and back; under
load every move would queue for its own transaction. Instead a move is described as a ``MoveWrite`` (new
snapshot, log rows, timer changes, outbox rows) and handed to ``GroupCommit.run``. Whatever writes are waiting
go out together: one UPDATE of all snapshots (each version-checked), one INSERT of all log rows, the timer
changes, one INSERT of all outbox rows, one COMMIT. ``run`` returns only after that commit, so a caller never
tells a player about a move that is not stored. Writes are taken in arrival order, so nobody starves.

Those statements and their rows are encoded once, by ``storage/move_rows.py``, for every path: the lean batch
on SQLite (aiosqlite: ``storage/lean.py`` sends them straight to the pooled connection as one transaction in one
hop, near the floor of a bare transaction), the SQLAlchemy batch (PostgreSQL), the redo one write at a time, and
``write_one`` (one write in a caller's unit of work). A game that ends is not rated here: the service records
and rates it in one unit of work of its own (``bot/service/recording.py``), through ``write_one``.

Marks that messages of the outbox were sent (``mark_sent``) ride in the same transactions: under load they
never queue for the one writer connection of their own (one more transaction between two batches of moves);
when nothing moves, they go out alone.

If the batch cannot be written as a whole (a game changed under us — another process), it is
rolled back and redone one write at a time, each in its own SAVEPOINT, so only the writes at
fault fail.
"""
from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections import deque

from sqlalchemy.exc import DBAPIError

from storage import health, lean, move_rows, writers
from storage.db import Database
from storage.models import utcnow
from storage.move_rows import MoveWrite
from storage.repository import StaleVersion
from storage.uow import UnitOfWork

log = logging.getLogger(__name__)

BUSY_RETRIES = 12  # with backoff up to 1 s: about 8 s beyond SQLite's own busy_timeout


# PostgreSQL: deadlock detected, serialization failure, lock not available — the transaction was undone; and a
# unique violation: two processes' transactions both found a row missing and both added it (a player's first
# rating in a league, when two of their games end at once) — done again, the row is there and is read
RETRYABLE_SQLSTATES = {"40P01", "40001", "55P03", "23505"}


def is_busy(error: Exception) -> bool:
    """Another process is in the way and trying again works: SQLite's 'database is locked' / 'busy', a
    PostgreSQL deadlock between two processes' transactions (one of them is undone), or a row both added."""
    orig = getattr(error, "orig", error)
    if getattr(orig, "sqlstate", None) in RETRYABLE_SQLSTATES or getattr(orig, "pgcode", None) in RETRYABLE_SQLSTATES:
        return True
    text = str(orig).lower()
    return "locked" in text or "busy" in text or "deadlock detected" in text

async def retry_while_busy(work):
    """``await work()``, tried again with a growing pause while another process is in the way (``is_busy``),
    ``BUSY_RETRIES`` times in all; any other failure, or the last, is raised."""
    for attempt in range(BUSY_RETRIES):
        try:
            return await work()
        except (DBAPIError, sqlite3.Error, OSError) as error:
            if not is_busy(error) or attempt == BUSY_RETRIES - 1:
                raise
            await asyncio.sleep(min(1.0, 0.02 * 2 ** attempt))


class StillWaiting(Exception):
    """The write waits behind a stuck writers' queue (another process frozen while it holds SQLite's writers);
    it stays in the group commit and is stored once the database lets it."""


async def write_one(uow: UnitOfWork, write: MoveWrite) -> int:
    """Apply one write in ``uow``'s transaction (the caller commits); the new version. StaleVersion if the game
    moved on."""
    if not await move_rows.execute(uow.session, move_rows.encode([write], (), utcnow())):
        raise StaleVersion(f"game {write.game_id} changed since version {write.version}")
    return write.new_version


def _stored_late(future: asyncio.Future) -> None:
    """A write answered "still waiting" ends: nobody awaits it any more (its failure was told to nobody)."""
    if not future.cancelled() and future.exception() is not None:
        log.warning("a write answered 'still pending' failed: %r", future.exception())


class GroupCommit:
    def __init__(self, db: Database, max_batch: int = 128):
        self.db = db
        self.max_batch = max_batch
        self._pending: deque[tuple[MoveWrite, asyncio.Future]] = deque()
        self._marks: list[tuple[list[str], asyncio.Future]] = []  # outbox keys sent, written with the next batch
        self._flusher: asyncio.Task | None = None
        self._lean = lean.applies(db)
        self.batches = 0  # for the bench: how many commits served how many writes
        self.writes = 0

    async def run(self, write: MoveWrite, pending_after: float | None = None) -> int:
        """Store ``write`` with whatever else is waiting; its new version once committed. ``pending_after``:
        once the write has waited that long while the writers' queue is stuck, raise ``StillWaiting`` (the
        write goes on and is stored when it can) instead of waiting on without a word."""
        future = asyncio.get_running_loop().create_future()
        self._pending.append((write, future))
        self._start()
        if pending_after is None:
            return await future
        while True:
            done, _waiting = await asyncio.wait((future,), timeout=pending_after)
            if done:
                return future.result()
            if writers.stuck():  # a frozen process, not mere load: it may wait long
                future.add_done_callback(_stored_late)
                raise StillWaiting(f"game {write.game_id}: its write waits behind a stuck writers' queue")

    async def mark_sent(self, keys: list[str]) -> None:
        """Stamp ``sent_at`` on these outbox rows, with the next batch of moves (or alone if none waits);
        returns once committed."""
        if not keys:
            return
        future = asyncio.get_running_loop().create_future()
        self._marks.append((list(keys), future))
        self._start()
        await future

    async def wait_idle(self) -> None:
        """Until every write handed over so far is committed or failed (before the database is closed)."""
        while self._flusher is not None and not self._flusher.done():
            await asyncio.gather(self._flusher, return_exceptions=True)

    def _start(self) -> None:
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())

    async def _flush(self) -> None:
        while self._pending or self._marks:
            batch = [self._pending.popleft() for _ in range(min(self.max_batch, len(self._pending)))]
            batch = [(w, f) for w, f in batch if not f.cancelled()]
            marks, self._marks = self._marks, []
            keys = [key for taken, _ in marks for key in taken]
            try:
                await self._write_batch(batch, keys)
            except BaseException as error:  # the commit itself failed: nothing of the batch is stored
                for _, future in batch + marks:
                    if not future.done():
                        future.set_exception(error)
                if isinstance(error, asyncio.CancelledError):
                    raise
            else:
                for _, future in marks:
                    if not future.done():
                        future.set_result(None)
            if batch:
                self.batches += 1
                self.writes += len(batch)

    async def _write_batch(self, batch: list[tuple[MoveWrite, asyncio.Future]], keys: list[str]) -> None:
        """Write the batch (and the sent marks ``keys``); a database busy with another process is waited for,
        and reported only after every retry. A database that cannot store (disk full, read-only, file gone,
        busy beyond the retries) raises StorageUnavailable, its cause logged once a minute (health.py)."""
        async def attempt() -> None:
            if not await self._all_at_once(batch, keys):
                await self._one_by_one(batch, keys)

        try:
            await retry_while_busy(attempt)
        except (DBAPIError, sqlite3.Error, OSError) as error:
            found = health.unavailable(error)
            if found is None:
                raise
            raise found from error

    async def _all_at_once(self, batch: list[tuple[MoveWrite, asyncio.Future]], keys: list[str]) -> bool:
        """The common case: a handful of statements for the whole batch. False if it must be redone."""
        if len(batch) > 1 and not self.db.engine.dialect.supports_sane_multi_rowcount:
            return False
        batch.sort(key=lambda wf: wf[0].game_id)  # rows locked in one order by every process: no deadlock
        steps = move_rows.encode([w for w, _ in batch], keys, utcnow())
        done = await self._lean_batch(steps) if self._lean else None
        if done is None:
            async with UnitOfWork(self.db) as uow:
                done = await move_rows.execute(uow.session, steps)
                if done:
                    await uow.commit()
        if done:
            for write, future in batch:
                if not future.done():
                    future.set_result(write.new_version)
        return done

    async def _lean_batch(self, steps: list[move_rows.Step]) -> bool | None:
        """The batch in one lean SQLite transaction (see ``storage/lean.py``); None if it does not fit."""
        statements = lean.Statements(self.db)
        for step in steps:
            if not statements.add(step):
                return None
        return await lean.run(self.db, statements)

    async def _one_by_one(self, batch: list[tuple[MoveWrite, asyncio.Future]], keys: list[str]) -> None:
        batch.sort(key=lambda wf: wf[0].game_id)
        outcomes: list[tuple[asyncio.Future, int]] = []
        failures: list[tuple[asyncio.Future, Exception]] = []
        async with UnitOfWork(self.db) as uow:
            for write, future in batch:
                try:
                    async with uow.session.begin_nested():
                        outcomes.append((future, await write_one(uow, write)))
                except DBAPIError as error:
                    if is_busy(error):
                        raise  # the whole batch is tried again
                    failures.append((future, error))
                except Exception as error:  # undone by its savepoint; the others go on
                    failures.append((future, error))
            await move_rows.execute(uow.session, move_rows.encode((), keys, utcnow()))
            await uow.commit()
        for future, error in failures:
            if not future.done():
                future.set_exception(error)
        for future, outcome in outcomes:
            if not future.done():
                future.set_result(outcome)
