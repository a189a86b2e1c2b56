"""Group commit: the writes of many concurrent moves share one transaction and one commit.

SQLite has a single writer, and each statement through aiosqlite costs a hop to its
thread and back; under load every move would queue for its own transaction. Instead a
move is described as a ``MoveWrite`` (new snapshot, log rows, timer changes) and handed
to ``GroupCommit.run``. Whatever writes are waiting go out together: one UPDATE of all
snapshots (each version-checked), one INSERT of all log rows, the timer changes, the outbox rows, one
COMMIT. ``run`` returns only after that commit, so a caller never tells a player about
a move that is not stored. Writes are taken in arrival order, so nobody starves.

On SQLite (aiosqlite) the batch goes through ``storage/lean.py``: the same statements sent straight to the
pooled connection, one hop each, near the floor of a bare transaction; PostgreSQL takes the SQLAlchemy path.
A game that ends is not written here: the service records and rates it in one unit of work of its own
(``bot/service/recording.py``), through ``write_one``.

Marks that messages of the outbox were sent (``mark_sent``) ride in the same transactions: under load they
never queue for the one writer connection of their own (one more transaction between two batches of moves);
when nothing moves, they go out alone.

If the batch cannot be written as a whole (a game changed under us — another process), it is
rolled back and redone one write at a time, each in its own SAVEPOINT, so only the writes at
fault fail.
"""
from __future__ import annotations

import asyncio
import contextvars
import sqlite3
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, bindparam, delete, insert, update
from sqlalchemy.exc import DBAPIError

from storage import health, lean
from storage.db import Database
from storage.models import GameRow, Move, OutboxMessage, Timer, utcnow
from storage.repository import StaleVersion
from storage.uow import UnitOfWork

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

class Waiting:
    """How many writes of one command (its task and the tasks it starts) wait for the group commit now: the
    service tells a person whose move waits long that it is still pending (``watch``)."""

    writes = 0


_WAITING: contextvars.ContextVar[Waiting | None] = contextvars.ContextVar("group_commit_waiting", default=None)


def watch() -> Waiting:
    """Count the writes the current context (and tasks created from it) hands to any group commit."""
    waiting = Waiting()
    _WAITING.set(waiting)
    return waiting


GAMES = GameRow.__table__
MOVES = Move.__table__
TIMERS = Timer.__table__
OUTBOX = OutboxMessage.__table__
_GAME_SET = ("state", "version", "status", "updated_at", "finished_at")
_GAME_WHERE = ("id", "version")

_UPDATE_GAME = (
    update(GAMES)
    .where(and_(GAMES.c.id == bindparam("g_id"), GAMES.c.version == bindparam("g_version")))
    .values(state=bindparam("g_state"), version=bindparam("g_new_version"), status=bindparam("g_status"),
            updated_at=bindparam("g_now"), finished_at=bindparam("g_finished_at"))
)
_DROP_TIMER = delete(TIMERS).where(and_(TIMERS.c.game_id == bindparam("t_game"), TIMERS.c.seat == bindparam("t_seat")))


@dataclass
class MoveWrite:
    """Everything one committed move changes in the database."""

    game_id: int
    version: int  # the version the move was judged against; the write fails if the game moved on
    state: dict
    moves: list[dict]  # rows of the move log: seq, seat, action, events, by
    status: str = "active"
    drop_timer_seats: set[int] = field(default_factory=set)
    new_timers: list[dict] = field(default_factory=list)  # seat, kind, version, due_at
    outbox: list[dict] = field(default_factory=list)  # rows of the outbox: what the move makes the bot say

    @property
    def new_version(self) -> int:
        return self.version + 1


async def write_one(uow: UnitOfWork, write: MoveWrite) -> int:
    """Apply one write in ``uow``'s transaction (the caller commits); the new version. StaleVersion if the game
    moved on."""
    now = utcnow()
    done = await uow.session.execute(_UPDATE_GAME, [_game_params(write, now)])
    if done.rowcount != 1:
        raise StaleVersion(f"game {write.game_id} changed since version {write.version}")
    if write.moves:
        await uow.session.execute(insert(MOVES), [_move_params(write, m, now) for m in write.moves])
    if write.drop_timer_seats:
        await uow.session.execute(_DROP_TIMER, [{"t_game": write.game_id, "t_seat": s}
                                                for s in sorted(write.drop_timer_seats)])
    if write.new_timers:
        await uow.session.execute(insert(TIMERS), [dict(t, game_id=write.game_id) for t in write.new_timers])
    await uow.outbox.add(write.outbox)
    return write.new_version


def _game_params(write: MoveWrite, now) -> dict:
    return {"g_id": write.game_id, "g_version": write.version, "g_state": write.state,
            "g_new_version": write.new_version, "g_status": write.status, "g_now": now,
            "g_finished_at": now if write.status in ("finished", "aborted") else None}


def _move_params(write: MoveWrite, row: dict, now) -> dict:
    return dict(row, game_id=write.game_id, created_at=now)


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

    async def run(self, write: MoveWrite) -> int:
        """Store ``write`` with whatever else is waiting; its new version once committed."""
        future = asyncio.get_running_loop().create_future()
        self._pending.append((write, future))
        self._start()
        waiting = _WAITING.get()
        if waiting is None:
            return await future
        waiting.writes += 1
        try:
            return await future
        finally:
            waiting.writes -= 1

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
        for attempt in range(BUSY_RETRIES):
            try:
                if not await self._all_at_once(batch, keys):
                    await self._one_by_one(batch, keys)
                return
            except (DBAPIError, sqlite3.Error, OSError) as error:
                if is_busy(error) and attempt < BUSY_RETRIES - 1:
                    await asyncio.sleep(min(1.0, 0.02 * 2 ** attempt))
                    continue
                found = health.unavailable(error)
                if found is None:
                    raise
                raise found from error

    async def _all_at_once(self, batch: list[tuple[MoveWrite, asyncio.Future]], keys: list[str]) -> bool:
        """The common case: a handful of statements for the whole batch. False if it must be redone."""
        if len(batch) > 1 and not self.db.engine.dialect.supports_sane_multi_rowcount:
            return False
        batch.sort(key=lambda wf: wf[0].game_id)  # rows locked in one order by every process: no deadlock
        writes = [w for w, _ in batch]
        now = utcnow()
        if self._lean:
            done = await self._lean_batch(writes, keys, now)
            if done is not None:
                if done:
                    for write, future in batch:
                        if not future.done():
                            future.set_result(write.new_version)
                return done
        async with UnitOfWork(self.db) as uow:
            if writes:
                done = await uow.session.execute(_UPDATE_GAME, [_game_params(w, now) for w in writes])
                if done.rowcount != len(writes):
                    await uow.rollback()
                    return False
            moves = [_move_params(w, m, now) for w in writes for m in w.moves]
            if moves:
                await uow.session.execute(insert(MOVES), moves)
            drops = [{"t_game": w.game_id, "t_seat": s} for w in writes for s in sorted(w.drop_timer_seats)]
            if drops:
                await uow.session.execute(_DROP_TIMER, drops)
            timers = [dict(t, game_id=w.game_id) for w in writes for t in w.new_timers]
            if timers:
                await uow.session.execute(insert(TIMERS), timers)
            await uow.outbox.add([row for w in writes for row in w.outbox])
            await uow.outbox.mark_sent(keys, now)
            await uow.commit()
        for write, future in batch:
            if not future.done():
                future.set_result(write.new_version)
        return True

    async def _lean_batch(self, writes: list[MoveWrite], keys: list[str], now) -> bool | None:
        """The batch in one lean SQLite transaction (see ``storage/lean.py``); None if it does not fit."""
        statements = lean.Statements(self.db)
        if writes:
            statements.update(GAMES, _GAME_SET, _GAME_WHERE, [
                (w.state, w.new_version, w.status, now, now if w.status in ("finished", "aborted") else None,
                 w.game_id, w.version) for w in writes], expect=len(writes))
        if not statements.insert(MOVES, [_move_params(w, m, now) for w in writes for m in w.moves]):
            return None
        statements.delete(TIMERS, ("game_id", "seat"),
                          [(w.game_id, s) for w in writes for s in sorted(w.drop_timer_seats)])
        if not statements.insert(TIMERS, [dict(t, game_id=w.game_id) for w in writes for t in w.new_timers]):
            return None
        if not statements.insert(OUTBOX, [row for w in writes for row in w.outbox]):
            return None
        if keys:
            statements.update(OUTBOX, ("sent_at",), ("key",), [(now, key) for key in keys])
        return await lean.run(self.db, statements)

    async def _one_by_one(self, batch: list[tuple[MoveWrite, asyncio.Future]], keys: list[str]) -> None:
        batch.sort(key=lambda wf: wf[0].game_id)
        outcomes: list[tuple[asyncio.Future, Any]] = []
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
            await uow.outbox.mark_sent(keys, utcnow())
            await uow.commit()
        for future, error in failures:
            if not future.done():
                future.set_exception(error)
        for future, outcome in outcomes:
            if not future.done():
                future.set_result(outcome)
