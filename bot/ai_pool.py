"""AI thinking off the event loop: a process pool sized to the machine runs ``rules.ai.think`` / ``hint``.

A strong decision takes its whole budget (a second by default) of pure Python: on the event loop it would stall
every other game's moves and buttons for that long. In a worker process it costs the loop one pickled state out
and one action back. Workers are started with ``spawn`` (not ``fork``): forking a process that runs threads (the
database driver's, the platforms') can copy a held lock into the child.
"""
from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from bot.worker_guard import start_worker
from rules.ai import hint, think


class AIPool:
    """``await pool.choose(...)`` for an AI's action, ``await pool.hint(...)`` for a person's hint."""

    def __init__(self, workers: int | None = None, initializer=None):
        """``initializer``: a top-level function each worker runs first (tests register their toy game)."""
        self.workers = workers or os.cpu_count() or 1
        self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=start_worker, initargs=(initializer,))

    async def choose(self, game_name: str, state_json: dict, seat: int, level: str, seed: int,
                     budget: float | None, iterations: int | None = None) -> dict:
        """The action the AI of ``level`` plays for ``seat`` in the state ``state_json`` (``State.to_json``)."""
        call = functools.partial(think, game_name, state_json, seat, level, seed, budget, iterations)
        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    async def hint(self, game_name: str, state_json: dict, seat: int, seed: int, budget: float | None,
                   iterations: int | None = None) -> dict:
        """``rules.ai.hint``: {"action", "win_rate", "runner_up", "runner_up_win_rate", "iterations"}."""
        call = functools.partial(hint, game_name, state_json, seat, seed, budget, iterations)
        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    def close(self) -> None:
        """Stop the workers: decisions not started are cancelled, running ones are abandoned (the timer job that
        asked is claimed again by a process that runs on). The worker processes are ended here, not left to the
        interpreter's exit, which joins them and was seen to wait past a minute for a worker still starting."""
        processes = list((getattr(self._executor, "_processes", None) or {}).values())
        self._executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()

    async def __aenter__(self) -> "AIPool":
        return self

    async def __aexit__(self, *exc) -> None:
        self.close()
