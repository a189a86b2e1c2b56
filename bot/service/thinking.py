"""The strong AI's thinking: a process pool (started on first use) and the jobs running in it, so the event
loop, other games and this game's buttons go on while it searches."""
from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

from bot.ai_pool import AIPool

log = logging.getLogger(__name__)


class Thinking:
    def __init__(self, pool=None):
        self._pool = pool
        self._own_pool = pool is None
        self._tasks: set[asyncio.Task] = set()

    @property
    def pool(self):
        """The process pool the AI thinks in, started on first use (its workers take a moment to start)."""
        if self._pool is None:
            self._pool = AIPool()
        return self._pool

    @pool.setter
    def pool(self, pool) -> None:
        self._pool, self._own_pool = pool, False

    def background(self, job: Awaitable[list], deliver: Callable[[list], Awaitable[None]]) -> None:
        """Run an AI job on its own; its messages go to ``deliver`` when it is done."""
        async def run() -> None:
            messages = await job
            if messages:
                try:
                    await deliver(messages)
                except Exception:
                    log.exception("delivering an AI move failed (the outbox sends it later)")

        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._own_pool and self._pool is not None:
            self._pool.close()
        self._pool = None
