"""Closing the service while its loops are inside a transaction that waits for another process's write: the
loops end first, so the process can exit (``python -m bot run`` hung in ``asyncio.run``'s last cancellation)."""
from __future__ import annotations

import asyncio
import sqlite3
import threading

from bot.service import ChatRef, UserRef, build_service


async def test_close_ends_the_loops_before_the_database_even_while_another_process_writes(tmp_path):
    path = tmp_path / "herald.db"
    service = await build_service(f"sqlite+aiosqlite:///{path}")
    chat, alice = ChatRef("telegram", "-1", "-1", "group"), UserRef("telegram", "1", "Alice")
    await service.create_lobby(chat, alice, "kardinal", "")  # something for the loops to read
    told = []

    async def deliver(messages):
        told.extend(messages)

    loops = [asyncio.create_task(service.outbox_loop(deliver, ["telegram"], interval=0.05)),
             asyncio.create_task(service.timer_loop(deliver, max_sleep=0.05))]
    await asyncio.sleep(0.3)
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    for _ in range(100):  # another process takes SQLite's write lock (the loops hold it a moment now and then)
        try:
            other.execute("BEGIN IMMEDIATE")  # ... and holds it for a second
            break
        except sqlite3.OperationalError:
            await asyncio.sleep(0.05)
    else:
        raise AssertionError("the loops never let another process write")
    threading.Timer(1.0, lambda: other.execute("ROLLBACK")).start()
    await asyncio.sleep(0.3)  # the outbox loop's claim now waits for that lock in SQLite's busy handler

    await service.close()

    assert all(loop.done() for loop in loops), "a loop was still running when the database closed"
    assert all(loop.cancelled() for loop in loops)
    other.close()
