"""Storage on real databases: migrations, the version check, the append-only move log, and a whole game
through the service on SQLite and on PostgreSQL with only a different URL."""
from __future__ import annotations

import asyncio

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from bot.service import ChatRef, UserRef, build_service
from storage import StaleVersion, UnitOfWork
from storage.db import open_database
from storage.models import Base, GameRow

CHAT = ChatRef("discord", "100", "7", "general")
ALICE = UserRef("discord", "1", "Alice")
BOB = UserRef("discord", "2", "Bob")


async def test_migrations_create_the_models_schema_and_rerun_harmlessly(database_url):
    db = await open_database(database_url)
    try:
        def diff(sync_conn):
            return compare_metadata(MigrationContext.configure(sync_conn), Base.metadata)

        def tables(sync_conn):
            return set(inspect(sync_conn).get_table_names())

        async with db.engine.connect() as conn:
            assert await conn.run_sync(diff) == []  # the migrations build exactly what the models declare
            assert {"players", "chats", "games", "seats", "moves", "timers"} <= await conn.run_sync(tables)
            head = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one()
        await db.migrate()  # starting again does not fail or change the revision
        async with db.engine.connect() as conn:
            assert (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one() == head
    finally:
        await db.close()


async def test_sqlite_runs_in_wal_mode(tmp_path):
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path}/wal.db")
    try:
        async with db.engine.connect() as conn:
            assert (await conn.execute(text("PRAGMA journal_mode"))).scalar_one() == "wal"
            assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar_one() == 1
    finally:
        await db.close()


async def _new_game(db) -> int:
    async with UnitOfWork(db) as uow:
        player = await uow.players.get_or_create("telegram", "1", "Alice")
        chat = await uow.chats.get_or_create("telegram", "-100", "telegram:-100", "group")
        row = await uow.games.add(GameRow(chat_id=chat.id, game="toy", options={}, seed=1, status="active",
                                          state={"n": 0}, version=0, created_by=player.id))
        await uow.commit()
        return row.id


async def test_version_check_lets_exactly_one_of_two_writers_win(database_url):
    db = await open_database(database_url)
    other = await open_database(database_url, migrate=False)  # as if a second process
    try:
        gid = await _new_game(db)
        async with UnitOfWork(other) as second:  # the second process's picture of the game, read earlier
            seen = (await second.games.get(gid)).version
        async with UnitOfWork(db) as first:
            row = await first.games.get(gid)
            assert row.version == seen == 0
            await first.games.save_state(row, {"n": 1})
            await first.commit()
        async with UnitOfWork(other) as second:
            with pytest.raises(StaleVersion):
                await second.games.save_version(gid, seen, {"n": 2})
            await second.rollback()
        async with UnitOfWork(db) as uow:
            row = await uow.games.get(gid)
            assert (row.version, row.state) == (1, {"n": 1})
    finally:
        await other.close()
        await db.close()


async def test_move_log_keeps_order_and_json(database_url):
    db = await open_database(database_url)
    try:
        gid = await _new_game(db)
        moves = [(0, {"type": "play", "card": "7H"}, [{"kind": "played", "data": {"name": "Tücke ♥"}}], "player"),
                 (1, {"type": "keep", "cards": [3, 9]}, [], "ai")]
        async with UnitOfWork(db) as uow:
            await uow.games.append_moves(gid, 0, moves)
            await uow.games.append_moves(gid, 2, [(0, {"type": "pass"}, [], "timer")])
            await uow.commit()
        async with UnitOfWork(db) as uow:
            logged = await uow.games.moves(gid)
            assert [(m.seq, m.seat, m.action, m.events, m.by) for m in logged] == [
                (0, *moves[0]), (1, *moves[1]), (2, 0, {"type": "pass"}, [], "timer")]
            assert await uow.games.move_count(gid) == 3
            assert [m.seq for m in await uow.games.last_moves(gid, 2)] == [1, 2]
    finally:
        await db.close()


async def test_a_whole_game_survives_a_restart_on_either_database(database_url):
    service = await build_service(database_url)
    try:
        lobby = await service.create_lobby(CHAT, ALICE, "toy", seed=3)
        gid = lobby[0].game_id
        await service.join(CHAT, BOB)
        await service.add_ai(CHAT, ALICE, "greedy")
        started = await service.start(CHAT, ALICE)
        assert not [m for m in started if m.kind == "error"]
        first = (await service.choices(ALICE, game_id=gid))[0][1]
        assert not [m for m in await service.act(CHAT, ALICE, first, game_id=gid) if m.kind == "error"]
    finally:
        await service.close()

    service = await build_service(database_url)  # a new process: the game is resumed from the database
    try:
        assert await service.active_game_ids() == [gid]
        for _ in range(20):
            moved = False
            for user in (ALICE, BOB):
                choices = await service.choices(user, game_id=gid)
                if choices and isinstance(choices[0], tuple):
                    out = await service.act(CHAT, user, choices[0][1], game_id=gid)
                    assert not [m for m in out if m.kind == "error"], [m.text for m in out]
                    moved = True
            if not moved:
                break
        async with UnitOfWork(service.db) as uow:
            row = await uow.games.get(gid)
            assert row.status == "finished"
            assert len(row.result["ranking"]) == 3 and {"Alice", "Bob"} < set(row.result["names"])
            logged = await uow.games.moves(gid)
            assert [m.seq for m in logged] == list(range(len(logged)))
            assert {m.by for m in logged} == {"player", "ai"}
    finally:
        await service.close()


async def test_concurrent_moves_in_many_games_all_commit(database_url):
    service = await build_service(database_url)
    try:
        chats = [ChatRef("discord", f"{i}", "7", f"channel{i}") for i in range(6)]
        gids = []
        for chat in chats:
            lobby = await service.create_lobby(chat, ALICE, "toy", seed=1)
            gids.append(lobby[0].game_id)
            await service.add_ai(chat, ALICE, "random")
            await service.start(chat, ALICE)

        async def keep(gid, chat):
            notation = (await service.choices(ALICE, game_id=gid))[0][1]
            return await service.act(chat, ALICE, notation, game_id=gid)

        results = await asyncio.gather(*(keep(g, c) for g, c in zip(gids, chats)))
        assert all(not [m for m in out if m.kind == "error"] for out in results)
        async with UnitOfWork(service.db) as uow:
            for gid in gids:
                assert await uow.games.move_count(gid) >= 2  # Alice's keep and the AI's
    finally:
        await service.close()
