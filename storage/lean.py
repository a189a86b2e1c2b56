"""The lean write of a batch of moves on SQLite: the group commit's common case, near the database's own floor.

Through SQLAlchemy's asyncio adapter every statement costs three hops to aiosqlite's thread and back (open a
cursor, execute, close it) plus the ORM's or Core's set-up; a move is one version-checked UPDATE and a few
INSERTs, so that machinery cost several times the database's own work. Here the pooled connection is checked
out as usual (SQLAlchemy's pool still serialises this process's writers), and the statements go straight to
its aiosqlite connection: BEGIN IMMEDIATE, one ``executemany`` per table, COMMIT — all in one hop to its thread. The SQL text is
built once per statement's shape from the models, and values are converted by the columns' own SQLAlchemy bind
processors, so what is stored is exactly what the ORM would store (and reads back the same).

What the statements are and which rows they get is ``storage/move_rows.py``'s encoding, shared with the SQLAlchemy
path; ``Statements.add`` only renders a step. The group commit takes the general path when the lean one does not
apply (not aiosqlite) or does not fit (an INSERT's rows that differ in their columns).
"""
from __future__ import annotations

import sqlite3
from typing import Any, Iterable, Sequence

from sqlalchemy import Table, event
from sqlalchemy.util import greenlet_spawn

from storage import writers
from storage.db import Database
from storage.health import FileWatch
from storage.move_rows import Step

_SQL: dict[tuple, tuple[str, list]] = {}  # (dialect, table, columns) → (SQL, bind processors)


def applies(db: Database) -> bool:
    return db.engine.dialect.name == "sqlite" and db.engine.dialect.driver == "aiosqlite"


def _processors(dialect, table: Table, columns: Sequence[str]) -> list:
    return [table.c[name].type.dialect_impl(dialect).bind_processor(dialect) for name in columns]


def insert_sql(dialect, table: Table, columns: tuple[str, ...]) -> tuple[str, list]:
    key = (dialect.name, table.name, "insert", columns)
    if key not in _SQL:
        quote = dialect.identifier_preparer.quote
        sql = (f"INSERT INTO {quote(table.name)} ({', '.join(quote(c) for c in columns)}) "
               f"VALUES ({', '.join('?' for _ in columns)})")
        _SQL[key] = sql, _processors(dialect, table, columns)
    return _SQL[key]


def update_sql(dialect, table: Table, columns: tuple[str, ...], where: tuple[str, ...]) -> tuple[str, list]:
    """``UPDATE table SET columns… WHERE where…`` (each ``= ?``); parameters: the columns', then the where's."""
    key = (dialect.name, table.name, "update", columns, where)
    if key not in _SQL:
        quote = dialect.identifier_preparer.quote
        sql = (f"UPDATE {quote(table.name)} SET {', '.join(f'{quote(c)} = ?' for c in columns)} "
               f"WHERE {' AND '.join(f'{quote(c)} = ?' for c in where)}")
        _SQL[key] = sql, _processors(dialect, table, columns + where)
    return _SQL[key]


def delete_sql(dialect, table: Table, where: tuple[str, ...]) -> tuple[str, list]:
    key = (dialect.name, table.name, "delete", where)
    if key not in _SQL:
        quote = dialect.identifier_preparer.quote
        sql = f"DELETE FROM {quote(table.name)} WHERE {' AND '.join(f'{quote(c)} = ?' for c in where)}"
        _SQL[key] = sql, _processors(dialect, table, where)
    return _SQL[key]


def bound(processors: list, rows: Iterable[Iterable[Any]]) -> list[list[Any]]:
    """Rows of values converted as SQLAlchemy would bind them (JSON dumped, datetimes formatted); only the
    columns that have a converter are visited (a hot spot: every column of every row of every batch). A value
    that several rows share — the batch's one moment in every ``created_at`` — is converted once."""
    active = [(i, p, {}) for i, p in enumerate(processors) if p is not None]
    out = []
    for row in rows:
        row = list(row)
        for i, convert, done in active:  # done: id(value) → (value, converted); the value kept: its id stays its own
            value = row[i]
            if value is not None:
                seen = done.get(id(value))
                if seen is not None and seen[0] is value:
                    row[i] = seen[1]
                else:
                    row[i] = converted = convert(value)
                    done[id(value)] = (value, converted)
        out.append(row)
    return out


def columns_of(rows: list[dict]) -> tuple[str, ...] | None:
    """The columns every row gives (None when the rows differ: the general path handles them)."""
    columns = tuple(rows[0])
    return columns if all(tuple(r) == columns for r in rows) else None


class Statements:
    """Statements of one transaction, each ``(sql, rows, expect)``: ``expect``, the rows it must change (or None)."""

    def __init__(self, db: Database):
        self.dialect = db.engine.dialect
        self.steps: list[tuple[str, list[Sequence], int | None]] = []

    def add(self, step: Step) -> bool:
        """One step of ``storage/move_rows.py``'s encoding, as SQL text and bound rows; False if the rows of an
        INSERT do not all give the same columns (the general path handles them)."""
        if step.kind == "insert":
            columns = columns_of(step.rows)
            if columns is None:
                return False
            sql, processors = insert_sql(self.dialect, step.table, columns)
            rows = [tuple(row.values()) for row in step.rows]
        elif step.kind == "update":
            sql, processors = update_sql(self.dialect, step.table, step.columns, step.where)
            rows = step.rows
        else:
            sql, processors = delete_sql(self.dialect, step.table, step.where)
            rows = step.rows
        self.steps.append((sql, bound(processors, rows), step.expect))
        return True


def _transaction(connection: sqlite3.Connection, steps: list[tuple[str, list[tuple], int | None]],
                 queue: writers.Queue | None = None, watch: FileWatch | None = None) -> bool:
    """The whole transaction, run in the connection's own thread: it ends (committed or rolled back) before
    the caller hears of it, so nothing — not even a cancelled caller — leaves it open. ``queue``: the writers'
    queue (``storage/writers.py``) it waits in for its turn (a bounded wait), so other processes' batches wake
    it, not a timer. ``watch``: the file is checked to be the one opened before and after: a commit into a
    file deleted or replaced meanwhile is not reported done (StorageUnavailable)."""
    if watch is not None:
        watch.check()
    with writers.turn(queue):
        done = _statements(connection, steps)
    if watch is not None:
        watch.verify()
    return done


def _statements(connection: sqlite3.Connection, steps: list[tuple[str, list[tuple], int | None]]) -> bool:
    connection.execute("BEGIN IMMEDIATE")
    try:
        for sql, rows, expect in steps:
            cursor = connection.execute(sql, rows[0]) if len(rows) == 1 else connection.executemany(sql, rows)
            if expect is not None and cursor.rowcount != expect:
                connection.execute("ROLLBACK")
                return False
        connection.execute("COMMIT")
        return True
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise


def _queue(db: Database, pooled) -> writers.Queue | None:
    """This pooled connection's descriptor of the writers' queue, opened on its first lean write and closed with
    the connection (``_close_queue``)."""
    info = pooled.info
    if "writers" not in info:
        pool = db.engine.sync_engine.pool
        if not event.contains(pool, "close", _close_queue):
            event.listen(pool, "close", _close_queue)
        info["writers"] = writers.open_queue(db.engine.url.database)
    return info["writers"]


def _close_queue(_dbapi_connection, record) -> None:
    queue = record.info.pop("writers", None)
    if queue is not None:
        queue.close()


async def run(db: Database, statements: Statements) -> bool:
    """Run the statements in one IMMEDIATE transaction on a pooled connection; False (and nothing written)
    when a statement with ``expect`` changed another number of rows (a game moved on: a stale version).

    aiosqlite runs each call in its connection's thread; the transaction is handed over as one call (one hop
    instead of one per statement) through ``Connection._execute``, the function every aiosqlite call goes
    through — with a fallback to one call per statement should a later aiosqlite not have it."""
    # the pool's connection itself (``Pool.connect``), without an engine Connection around it: the same pooled
    # connection and checkout/checkin events at a third of the CPU (the engine's Connection is not needed here)
    pooled = await greenlet_spawn(db.engine.sync_engine.pool.connect)
    try:
        raw = pooled.driver_connection
        in_thread = getattr(raw, "_execute", None)
        connection = getattr(raw, "_connection", None)
        if in_thread is not None and isinstance(connection, sqlite3.Connection):
            return await in_thread(_transaction, connection, statements.steps, _queue(db, pooled), db.watch)
        if db.watch is not None:
            db.watch.check()
        try:
            await raw.execute("BEGIN IMMEDIATE")
            for sql, rows, expect in statements.steps:
                cursor = await (raw.execute(sql, rows[0]) if len(rows) == 1 else raw.executemany(sql, rows))
                if expect is not None and cursor.rowcount != expect:
                    await raw.execute("ROLLBACK")
                    return False
            await raw.execute("COMMIT")
            if db.watch is not None:
                db.watch.verify()
            return True
        except BaseException:
            if raw.in_transaction:
                try:
                    await raw.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # the pool's reset on return rolls back too
            raise
    finally:
        await greenlet_spawn(pooled.close)  # back to the pool (its reset rolls back anything left open)
