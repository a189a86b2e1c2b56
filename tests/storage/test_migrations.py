"""Migrating a database that already holds games, from the previous head: 0005 drops the moves table's index on
game_id alone (the unique (game_id, seq) index serves the same lookups), keeps every row and the uniqueness of a
move's seq, and its downgrade puts the index back — on SQLite and PostgreSQL."""
from __future__ import annotations

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from storage import UnitOfWork
from storage.db import alembic_config, open_database
from storage.models import Base, GameRow


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


async def test_dropping_the_redundant_moves_index_keeps_the_log(database_url):
    db = await open_database(database_url, migrate=False)
    try:
        await _to(db, "0004")  # a database of the previous release, with a game and its moves
        async with UnitOfWork(db) as uow:
            # the players table as it was then (the model has grown columns since: written in SQL)
            await uow.session.execute(text("INSERT INTO players (platform, external_id, name, created_at) "
                                           "VALUES ('telegram', '1', 'Alice', CURRENT_TIMESTAMP)"))
            player_id = (await uow.session.execute(text("SELECT id FROM players"))).scalar_one()
            chat = await uow.chats.get_or_create("telegram", "-100", "telegram:-100", "group")
            game = await uow.games.add(GameRow(chat_id=chat.id, game="toy", options={}, seed=1, status="active",
                                               state={"n": 0}, version=0, created_by=player_id))
            await uow.games.append_moves(game.id, 0, [(0, {"n": 1}, [], "player"), (1, {"n": 2}, [], "ai")])
            await uow.commit()
        logged = [(game.id, 0), (game.id, 1)]
        assert await _state(db) == ("0004", {"ix_moves_game_id"}, logged)

        await _to(db, "0005")
        assert await _state(db) == ("0005", set(), logged)
        await _to(db, "head")
        async with db.engine.connect() as conn:  # the schema is what the models declare
            assert await conn.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync), Base.metadata)) == []
        with pytest.raises(IntegrityError):  # a seq is still logged once per game
            async with UnitOfWork(db) as uow:
                await uow.games.append_moves(game.id, 1, [(0, {"n": 3}, [], "player")])
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
            player = await uow.players.get_or_create("telegram", "1", "Alice")
            chat = await uow.chats.get_or_create("telegram", "-100", "telegram:-100", "group")
            game = await uow.games.add(GameRow(chat_id=chat.id, game="toy", options={}, seed=1, status="active",
                                               state={"n": 0}, version=0, created_by=player.id))
            await uow.games.append_moves(game.id, 0, [(0, {"n": 1}, [], "player"), (1, {"n": 2}, [], "ai")])
            await uow.commit()
        await _to(db, "head")
        async with db.engine.connect() as conn:
            marks = (await conn.execute(text("SELECT seq, taken_back FROM moves ORDER BY seq"))).all()
            assert [(seq, bool(back)) for seq, back in marks] == [(0, False), (1, False)]
            assert await conn.run_sync(  # the schema is what the models declare
                lambda sync: compare_metadata(MigrationContext.configure(sync), Base.metadata)) == []
        await _to(db, "0006_web", down=True)
        assert await _state(db) == ("0006_web", set(), [(game.id, 0), (game.id, 1)])
        async with db.engine.connect() as conn:
            assert "takebacks" not in await conn.run_sync(lambda sync: inspect(sync).get_table_names())
    finally:
        await db.close()
