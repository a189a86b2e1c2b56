"""Migrating a database that already holds games, from the previous head: 0005 drops the moves table's index on
game_id alone (the unique (game_id, seq) index serves the same lookups), keeps every row and the uniqueness of a
move's seq, and its downgrade puts the index back — on SQLite and PostgreSQL."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from storage import UnitOfWork
from storage.db import alembic_config, open_database
from storage.models import Base
from bot.service.records import load_game


async def _to(db, revision: str, *, down: bool = False) -> None:
    def run(sync_connection) -> None:
        cfg = alembic_config()
        cfg.attributes["connection"] = sync_connection
        (command.downgrade if down else command.upgrade)(cfg, revision)

    async with db.engine.begin() as conn:
        await conn.run_sync(run)


async def _state(db) -> tuple[str, set[str], list]:
    """(revision, names of the indexes of ``moves`` on game_id alone, (game_id, seq) of every move)."""
    def indexes(sync_conn) -> set[str]:
        return {i["name"] for i in inspect(sync_conn).get_indexes("moves") if i["column_names"] == ["game_id"]}

    async with db.engine.connect() as conn:
        revision = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one()
        moves = (await conn.execute(text("SELECT game_id, seq FROM moves ORDER BY game_id, seq"))).all()
        return revision, await conn.run_sync(indexes), [tuple(m) for m in moves]


async def _old_player(uow) -> int:
    """A player as an older release stored them (the players table has grown columns since: written in SQL)."""
    await uow.session.execute(text("INSERT INTO players (platform, external_id, name, created_at) "
                                   "VALUES ('telegram', '1', 'Alice', CURRENT_TIMESTAMP)"))
    return (await uow.session.execute(text("SELECT id FROM players"))).scalar_one()


async def _old_game(uow, chat_id: int, player_id: int) -> int:
    """An active game as an older release stored it (the games table has grown columns since: written in SQL)."""
    await uow.session.execute(text(
        "INSERT INTO games (chat_id, game, options, seed, status, state, version, created_by, rated, hinted, "
        "created_at, updated_at) VALUES (:chat, 'toy', '{}', 1, 'active', '{\"n\": 0}', 0, :player, false, false, "
        "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"), {"chat": chat_id, "player": player_id})
    return (await uow.session.execute(text("SELECT max(id) FROM games"))).scalar_one()


async def test_dropping_the_redundant_moves_index_keeps_the_log(database_url):
    db = await open_database(database_url, migrate=False)
    try:
        await _to(db, "0004")  # a database of the previous release, with a game and its moves
        async with UnitOfWork(db) as uow:
            # the players table as it was then (the model has grown columns since: written in SQL)
            player_id = await _old_player(uow)
            chat = await uow.chats.get_or_create("telegram", "-100", "telegram:-100", "group")
            game_id = await _old_game(uow, chat.id, player_id)
            await uow.games.append_moves(game_id, 0, [(0, {"n": 1}, [], "player"), (1, {"n": 2}, [], "ai")])
            await uow.commit()
        logged = [(game_id, 0), (game_id, 1)]
        assert await _state(db) == ("0004", {"ix_moves_game_id"}, logged)

        await _to(db, "0005")
        assert await _state(db) == ("0005", set(), logged)
        await _to(db, "head")
        async with db.engine.connect() as conn:  # the schema is what the models declare
            assert await conn.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync), Base.metadata)) == []
        with pytest.raises(IntegrityError):  # a seq is still logged once per game
            async with UnitOfWork(db) as uow:
                await uow.games.append_moves(game_id, 1, [(0, {"n": 3}, [], "player")])
                await uow.commit()

        await _to(db, "0004", down=True)
        assert await _state(db) == ("0004", {"ix_moves_game_id"}, logged)
        await _to(db, "0005")
        assert await _state(db) == ("0005", set(), logged)
    finally:
        await db.close()


async def test_taking_back_marks_moves_and_keeps_them(database_url):
    """0007_undo: every logged move stays, not taken back; the takebacks table comes; the schema is then what the
    models declare; the downgrade removes both and keeps the log."""
    db = await open_database(database_url, migrate=False)
    try:
        await _to(db, "0006_web")
        async with UnitOfWork(db) as uow:
            player_id = await _old_player(uow)
            chat = await uow.chats.get_or_create("telegram", "-100", "telegram:-100", "group")
            game_id = await _old_game(uow, chat.id, player_id)
            await uow.games.append_moves(game_id, 0, [(0, {"n": 1}, [], "player"), (1, {"n": 2}, [], "ai")])
            await uow.commit()
        await _to(db, "head")
        async with db.engine.connect() as conn:
            marks = (await conn.execute(text("SELECT seq, taken_back FROM moves ORDER BY seq"))).all()
            assert [(seq, bool(back)) for seq, back in marks] == [(0, False), (1, False)]
            assert await conn.run_sync(  # the schema is what the models declare
                lambda sync: compare_metadata(MigrationContext.configure(sync), Base.metadata)) == []
        await _to(db, "0006_web", down=True)
        assert await _state(db) == ("0006_web", set(), [(game_id, 0), (game_id, 1)])
        async with db.engine.connect() as conn:
            assert "takebacks" not in await conn.run_sync(lambda sync: inspect(sync).get_table_names())
    finally:
        await db.close()


async def test_hints_and_the_start_are_kept_from_0008_and_old_games_read_as_before(database_url):
    """0008_records: old moves were not made after a hint, old games have no stored start (their record starts
    at their first move); the schema is then what the models declare; the downgrade keeps the log."""
    db = await open_database(database_url, migrate=False)
    try:
        await _to(db, "0007_undo")
        async with UnitOfWork(db) as uow:
            player_id = await _old_player(uow)
            chat = await uow.chats.get_or_create("telegram", "-100", "telegram:-100", "group")
            game_id = await _old_game(uow, chat.id, player_id)
            await uow.session.execute(text("UPDATE games SET created_at = :opened"),
                                      {"opened": datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)})
            await uow.games.append_moves(game_id, 0, [(0, {"n": 1}, [], "player"), (1, {"n": 2}, [], "ai")])
            await uow.commit()
        await _to(db, "head")
        async with db.engine.connect() as conn:
            rows = (await conn.execute(text("SELECT seq, hinted FROM moves ORDER BY seq"))).all()
            assert [(seq, bool(hinted)) for seq, hinted in rows] == [(0, False), (1, False)]
            assert (await conn.execute(text("SELECT hints, started_at FROM games"))).one() == (None, None)
            assert await conn.run_sync(  # the schema is what the models declare
                lambda sync: compare_metadata(MigrationContext.configure(sync), Base.metadata)) == []
        async with UnitOfWork(db) as uow:
            stored = await load_game(uow, game_id)
            first = (await uow.games.moves(game_id))[0].created_at
        assert stored.hinted_moves == set() and stored.started_at == first
        assert first.replace(tzinfo=timezone.utc) > datetime(2026, 1, 2, tzinfo=timezone.utc)  # not the opening
        await _to(db, "0007_undo", down=True)
        assert await _state(db) == ("0007_undo", set(), [(game_id, 0), (game_id, 1)])
    finally:
        await db.close()


async def test_clocks_and_notify_columns_come_and_go(database_url):
    """0009_clocks: games.clocks and players.notify come empty on a database with games, and go again."""
    db = await open_database(database_url, migrate=False)
    try:
        await _to(db, "0008_records")
        async with UnitOfWork(db) as uow:
            player_id = await _old_player(uow)
            chat = await uow.chats.get_or_create("telegram", "-100", "telegram:-100", "group")
            game_id = await _old_game(uow, chat.id, player_id)
            await uow.commit()
        await _to(db, "head")
        async with UnitOfWork(db) as uow:
            assert (await uow.games.get(game_id)).clocks is None
            assert (await uow.players.get(player_id)).notify is None
        await _to(db, "0008_records", down=True)
        async with db.engine.connect() as conn:
            columns = await conn.run_sync(lambda sync: {t: [c["name"] for c in inspect(sync).get_columns(t)]
                                                        for t in ("games", "players")})
            assert "clocks" not in columns["games"] and "notify" not in columns["players"]
            assert (await conn.execute(text("SELECT count(*) FROM games"))).scalar_one() == 1
    finally:
        await db.close()
