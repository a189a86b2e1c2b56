"""Opening the database: the async engine, SQLite pragmas (WAL) and automatic Alembic migrations."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from storage import health
from storage.checkpoint import WalCheckpointer
from storage.health import FileWatch

MIGRATIONS = Path(__file__).parent / "migrations"

try:  # JSON columns (snapshots, move events, the outbox's messages) are written with every move: orjson is ~5×
    import orjson  # faster than the json module; values read back the same either way

    def _dumps(value) -> str:
        try:  # the common case: string keys only (half the time of the option that allows others)
            return orjson.dumps(value).decode()
        except TypeError:  # orjson.JSONEncodeError: a key that is not a string (int keys are written as strings)
            return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()

    _loads = orjson.loads
except ImportError:  # pragma: no cover - an environment without it still works
    import json

    _dumps, _loads = json.dumps, json.loads


def alembic_config(url: str | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if url:
        cfg.set_main_option("sqlalchemy.url", url)
    return cfg


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    # Let SQLAlchemy, not the driver, begin transactions, so that SAVEPOINTs nest correctly
    # (the documented pysqlite/aiosqlite recipe; see _sqlite_begin).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def _read_only(dbapi_connection, _record) -> None:
    # A reader never writes: a write in a read-only unit of work would upgrade its deferred transaction to
    # SQLite's one write lock and hold it, unseen, until the session closes; query_only refuses it instead.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA query_only=ON")
    cursor.close()


def _no_autocheckpoint(dbapi_connection, _record) -> None:
    # The writer's commits never checkpoint: storage/checkpoint.py does it in the background (issue 24).
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    cursor.close()


def _sqlite_reset(dbapi_connection, _record, state) -> None:
    # The pool's reset on return, only when a transaction is open: a rollback through aiosqlite is a hop to its
    # thread and back, and most connections come back committed (the group commit's lean write, every
    # read-only session that read nothing). sqlite3's ``in_transaction`` is a plain read of the handle's state.
    if not state.asyncio_safe:
        return
    raw = getattr(getattr(dbapi_connection, "_connection", None), "_connection", None)
    if raw is None or raw.in_transaction:
        dbapi_connection.rollback()


def _sqlite_begin(connection) -> None:
    # IMMEDIATE takes the write lock up front: a transaction that reads and then writes can never
    # fail to upgrade its lock when another process (the other bot) writes to the same file.
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def _sqlite_begin_read(connection) -> None:
    # A reader takes no write lock: in WAL mode it sees the last commit and never waits for a writer.
    connection.exec_driver_sql("BEGIN")


class DatabaseUnavailable(Exception):
    """The database could not be opened (unreachable server, bad credentials, unwritable file): ``str(e)`` says
    why in one line, for the person starting the bot."""


@dataclass
class Database:
    engine: AsyncEngine
    sessions: async_sessionmaker
    read_sessions: async_sessionmaker | None = None  # transactions that only read (SQLite: no write lock)
    read_engine: AsyncEngine | None = None
    checkpointer: WalCheckpointer | None = None  # SQLite files: the WAL is checkpointed in the background
    watch: FileWatch | None = None  # SQLite files: is the path's file still the one opened (health.py)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    async def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision."""

        def upgrade(sync_connection) -> None:
            cfg = alembic_config()
            cfg.attributes["connection"] = sync_connection
            command.upgrade(cfg, "head")

        async with self.engine.begin() as conn:
            await conn.run_sync(upgrade)

    async def probe_write(self) -> None:
        """A write that is undone: a read-only database (file, mount, server) refuses it here, at start,
        rather than at the first move (reads and the migrations at head write nothing)."""
        async with self.engine.connect() as conn:
            try:
                await conn.execute(text("UPDATE alembic_version SET version_num = version_num"))
            finally:
                await conn.rollback()

    def _watch(self) -> None:
        """Writes on SQLite check the file first (a flag) and commits verify it (one stat), see health.py."""
        watch = self.watch

        def check(_connection) -> None:
            watch.check()

        def verify(_connection) -> None:
            watch.verify()

        event.listen(self.engine.sync_engine, "begin", check, insert=True)  # before BEGIN IMMEDIATE
        event.listen(self.engine.sync_engine, "commit", verify)

    async def close(self) -> None:
        if self.checkpointer is not None:
            await self.checkpointer.aclose()
        if self.read_engine is not None and self.read_engine is not self.engine:
            await self.read_engine.dispose()
        await self.engine.dispose()


async def open_database(url: str, *, migrate: bool = True) -> Database:
    """Connect (creating the SQLite file if needed) and migrate the schema."""
    parsed = make_url(url)
    kwargs: dict = {}
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            try:
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise DatabaseUnavailable(f"cannot create the folder of {parsed.database}: {e.strerror}") from e
            # SQLite has one writer: one pooled connection serialises this process's transactions, so a
            # read that later writes never meets "database is locked" (busy_timeout covers other processes).
            kwargs.update(pool_size=1, max_overflow=0, pool_timeout=120)
    else:
        kwargs.update(pool_size=10, max_overflow=20, pool_pre_ping=True)
    if parsed.get_backend_name() == "sqlite":
        kwargs.update(pool_reset_on_return=None)  # _sqlite_reset rolls back what is open
    kwargs.update(json_serializer=_dumps, json_deserializer=_loads)
    engine = create_async_engine(url, **kwargs)
    reader = engine
    checkpointer = None
    if parsed.get_backend_name() == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        event.listen(engine.sync_engine, "begin", _sqlite_begin)
        event.listen(engine.pool, "reset", _sqlite_reset)
        if parsed.database and parsed.database != ":memory:":
            event.listen(engine.sync_engine, "connect", _no_autocheckpoint)
            checkpointer = WalCheckpointer(parsed.database)
            reader = create_async_engine(url, pool_size=4, max_overflow=4, pool_timeout=120,
                                         pool_reset_on_return=None, json_serializer=_dumps,
                                         json_deserializer=_loads)
            event.listen(reader.sync_engine, "connect", _sqlite_pragmas)
            event.listen(reader.sync_engine, "connect", _read_only)
            event.listen(reader.sync_engine, "begin", _sqlite_begin_read)
            event.listen(reader.pool, "reset", _sqlite_reset)
    db = Database(engine, async_sessionmaker(engine, expire_on_commit=False),
                  async_sessionmaker(reader, expire_on_commit=False), reader, checkpointer)
    if migrate:
        try:
            await db.migrate()
            await db.probe_write()
        except (OSError, DBAPIError) as e:  # the first connection: the server or file is not there
            await engine.dispose()
            if reader is not engine:
                await reader.dispose()
            reason = getattr(e, "orig", None) or e
            where = parsed.render_as_string(hide_password=True)
            if health.reason_of(e) == health.READ_ONLY:
                raise DatabaseUnavailable(f"the database {where} is read-only ({reason}): the bot must store "
                                          "every move; make it writable") from e
            raise DatabaseUnavailable(f"cannot open the database {where}: {reason}") from e
    if checkpointer is not None:
        db.watch = checkpointer.watch = FileWatch(parsed.database)
        db._watch()
        checkpointer.start()
    return db
