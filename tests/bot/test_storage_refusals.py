"""Issue 34 through the service: people are told why nothing can be stored (disk full, file gone), and that a
move waiting for a frozen process is still pending — one reply each, no traceback in a chat or per command."""
from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import subprocess
import sys


from bot.service import build_service
from storage import UnitOfWork, writers
from tests.bot.test_service import ALICE, BOB, hand_of, two_player_game


async def _service(tmp_path, name):
    return await build_service(f"sqlite+aiosqlite:///{tmp_path}/{name}")


async def _version(service, gid) -> tuple[int, int]:
    async with UnitOfWork(service.db, readonly=True) as uow:
        return (await uow.games.get(gid)).version, len(await uow.games.moves(gid))


async def _keep(service, gid, user):
    hand = await hand_of(service, gid, user)
    return f"keep {hand[0]} {hand[1]}"


async def _fill_the_disk(db) -> None:
    """SQLite's limit of pages as a full disk (SQLITE_FULL): the file may not grow, and the outbox's last page,
    where a move's messages go, is filled up with rows already sent."""
    async with db.engine.connect() as connection:  # back to the pool with its limit: the writer's one connection
        raw = (await connection.get_raw_connection()).driver_connection
        await raw.execute("PRAGMA max_page_count = 1")  # no less than the pages it has: it may not grow
        number = 0
        for size in (2000, 400, 80, 10, 1):
            while True:
                number += 1
                try:
                    await raw.execute("INSERT INTO outbox (key, platform, payload, created_at, sent_at) VALUES "
                                      "(?, 'x', ?, '2020-01-01', '2020-01-01')", (f"f{number}", "x" * size))
                except sqlite3.OperationalError:
                    break


async def test_a_full_disk_is_told_and_logged_without_tracebacks(tmp_path, caplog):
    service = await _service(tmp_path, "full.db")
    try:
        gid, _ = await two_player_game(service)
        move = await _keep(service, gid, ALICE)
        before = await _version(service, gid)
        await _fill_the_disk(service.db)
        caplog.clear()
        with caplog.at_level(logging.ERROR):
            replies = [await service.act(None, ALICE, move) for _ in range(3)]
        for reply in replies:
            assert [m.kind for m in reply] == ["error"]
            assert "cannot store moves right now (the disk is full); nothing was changed" in reply[0].text
        assert all(r.exc_info is None for r in caplog.records)
        assert len([r for r in caplog.records if r.levelno >= logging.ERROR]) == 1
        assert await _version(service, gid) == before  # nothing was stored
    finally:
        await service.close()


async def test_a_deleted_database_file_refuses_moves_with_one_error_logged(tmp_path, caplog):
    service = await _service(tmp_path, "gone.db")
    try:
        gid, _ = await two_player_game(service)
        moves = [await _keep(service, gid, u) for u in (ALICE, BOB)]
        before = await _version(service, gid)
        os.remove(tmp_path / "gone.db")
        caplog.clear()
        with caplog.at_level(logging.ERROR):
            replies = [await service.act(None, user, move) for user, move in zip((ALICE, BOB), moves)]
        for reply in replies:
            assert [m.kind for m in reply] == ["error"]
            assert "its database file was deleted or replaced" in reply[0].text
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1 and errors[0].exc_info is None
        # the first commit went into the deleted file before the check after it: refused, not acknowledged;
        # the second was refused before its transaction
        assert await _version(service, gid) in (before, (before[0] + 1, before[1] + 1))
    finally:
        await service.close()


async def test_a_move_waiting_for_a_frozen_process_is_answered_pending_then_stored(tmp_path):
    path = tmp_path / "frozen.db"
    service = await _service(tmp_path, "frozen.db")
    service.ctx.pending_after = 0.5
    frozen = None
    try:
        gid, _ = await two_player_game(service)
        move = await _keep(service, gid, ALICE)
        before = await _version(service, gid)
        # another process frozen inside its transaction: it holds the writers' queue and SQLite's write lock
        frozen = subprocess.Popen(
            [sys.executable, "-c", "import fcntl, os, sqlite3, sys\n"
             f"fd = os.open({str(path) + writers.SUFFIX!r}, os.O_RDWR | os.O_CREAT)\n"
             "fcntl.flock(fd, fcntl.LOCK_EX)\n"
             f"c = sqlite3.connect({str(path)!r}, isolation_level=None); c.execute('BEGIN IMMEDIATE')\n"
             "print('held', flush=True); sys.stdin.readline()"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert (await asyncio.to_thread(frozen.stdout.readline)).strip() == "held"
        reply = await service.act(None, ALICE, move)
        assert [m.kind for m in reply] == ["notice"] and "still pending" in reply[0].text
        frozen.stdin.write("\n")
        frozen.stdin.flush()  # it thaws: its transaction ends, its descriptors close
        await asyncio.to_thread(frozen.wait)
        for _ in range(600):
            if await _version(service, gid) != before:
                break
            await asyncio.sleep(0.05)
        assert await _version(service, gid) == (before[0] + 1, before[1] + 1)  # stored once it could be
    finally:
        if frozen is not None:
            frozen.kill()
            frozen.wait()
        await service.close()



def test_python_m_bot_run_refuses_a_read_only_database_in_one_line(tmp_path):
    path = tmp_path / "ro.db"
    asyncio.run(_create(path))
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD", "TELEGRAM", "DATABASE"))}
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    done = subprocess.run([sys.executable, "-m", "bot", "run", "--discord"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60,
                          env={**clean, "PYTHONPATH": root, "DISCORD_TOKEN": "x",
                               "DATABASE_URL": f"sqlite+aiosqlite:///file:{path}?mode=ro&uri=true"})
    output = done.stdout + done.stderr
    assert done.returncode == 2 and "read-only" in output and "Traceback" not in output, output


async def _create(path) -> None:
    from storage import open_database

    db = await open_database(f"sqlite+aiosqlite:///{path}")
    await db.close()
