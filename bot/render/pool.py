"""Pictures drawn in a pool of processes, never on the event loop.

``PicturePool.draw(game, view, names)`` returns the PNG bytes of ``boards.picture(game, view, names)`` (or None,
exactly when that returns None): recent results are kept by what they show (``boards.picture_key``), so a board or
hand re-sent unchanged is not drawn again, and two requests for the same picture at once draw it once. Each worker
process warms its caches of pieces (texts, cards, pawns) once when it starts.

    pool = PicturePool()                    # one worker a core but the event loop's (``default_workers``)
    png = await pool.draw("kardinal", view, names)
    pool.close()

A worker that dies (killed, out of memory) costs the pictures in flight — they come back as None, the text goes out
alone — and the pool starts new workers for the next ones.
"""
from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import logging
import multiprocessing
import os
import time
from collections import OrderedDict
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from bot import i18n
from bot.render import boards
from bot.worker_guard import start_worker

log = logging.getLogger(__name__)

KEPT = 256  # recent pictures kept in the parent


def _warm_worker(warm: bool) -> None:
    """A worker's first act: load the fonts and draw a few pictures of every game (its caches warm once)."""
    if warm:
        try:
            boards.warm()
        except Exception:  # warming is an optimisation only
            log.exception("could not warm the picture caches")
    gc.freeze()  # what is loaded now lives as long as the worker: the collector need not walk it again


def _worker_id(pause: float) -> int:
    time.sleep(pause)  # long enough that one worker cannot answer for all of them
    return os.getpid()


def _draw(game: str, view: dict, names: list[str], lang: str | None = None) -> bytes | None:
    with i18n.using(lang):  # a worker process: the language of the message that asked comes along
        return boards.picture(game, view, names)


def picture_digest(game: str, view: dict, names: list[str], lang: str | None = None) -> str:
    """A short digest of what a picture shows (its ``picture_key``, and the language of its labels)."""
    key = boards.picture_key(game, view, names) + [i18n.supported(lang) or i18n.DEFAULT]
    return hashlib.sha256(json.dumps(key, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:32]


def default_workers() -> int:
    """One worker a core but the event loop's: the loop (moves, texts, the workers' results) keeps a core of its
    own, else workers and loop take turns on it and both go slower (bench.busy: 2 workers on 2 cores drew fewer
    pictures a second than 1). At least one."""
    try:
        cores = len(os.sched_getaffinity(0))  # the cores this process may use (a container may have fewer)
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


class PicturePool:
    """Board and hand pictures drawn in ``workers`` processes (default: a core each, but the loop's), with an LRU
    of results."""

    def __init__(self, workers: int | None = None, *, kept: int = KEPT, warm: bool = True):
        self.workers = max(1, workers or default_workers())
        self.kept = kept
        self._warm = warm
        self._done: OrderedDict[str, bytes | None] = OrderedDict()
        self._pending: dict[str, asyncio.Future] = {}
        self._executor: ProcessPoolExecutor | None = None
        self.drawn = 0  # pictures drawn by the workers (not served from the LRU)
        self.reused = 0  # pictures served from the LRU or from a drawing already under way

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # spawn: the parent runs an event loop and threads, which a forked child must not inherit
            self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=start_worker, initargs=(_warm_worker, self._warm))
        return self._executor

    def start(self) -> list[Future]:
        """Start the workers now (else on the first picture); they warm up in the background."""
        pool = self._pool()
        return [pool.submit(_worker_id, 0.0) for _ in range(self.workers)]

    async def ready(self, timeout: float = 120.0) -> int:
        """Start the workers and wait until every one of them is warm (has answered); returns how many answered."""
        loop = asyncio.get_running_loop()
        seen: set[int] = set()
        deadline = loop.time() + timeout
        while len(seen) < self.workers and loop.time() < deadline:
            pool = self._pool()
            answers = [asyncio.wrap_future(pool.submit(_worker_id, 0.05)) for _ in range(self.workers)]
            seen.update(await asyncio.gather(*answers))
        return len(seen)

    async def draw(self, game: str, view: dict, names: list[str], lang: str | None = None, *,
                   key: str | None = None) -> bytes | None:
        """PNG bytes of ``view`` (as ``boards.picture``), drawn in a worker unless drawn recently, its labels in
        ``lang`` (English when None). ``key``: a digest of ``picture_key(game, view, names)`` and the language the
        caller already has (saves hashing the view again)."""
        try:
            if not boards.wants_picture(game, view):
                return None
            key = key or picture_digest(game, view, names, lang)
        except Exception:
            log.exception("could not key a %s picture", game)
            return None
        if key in self._done:
            self._done.move_to_end(key)
            self.reused += 1
            return self._done[key]
        pending = self._pending.get(key)
        if pending is not None:
            self.reused += 1
            return await asyncio.shield(pending)
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._pending[key] = future
        png = None
        try:
            png = await self._submit(loop, game, view, names, lang)
            self._done[key] = png
            if len(self._done) > self.kept:
                self._done.popitem(last=False)
        finally:
            del self._pending[key]
            if not future.done():
                future.set_result(png)
        return png

    async def _submit(self, loop, game: str, view: dict, names: list[str], lang: str | None = None) -> bytes | None:
        try:
            png = await loop.run_in_executor(self._pool(), _draw, game, view, list(names), lang)
            self.drawn += 1
            return png
        except BrokenProcessPool:
            log.error("a picture worker died; the pool starts new ones")
            broken, self._executor = self._executor, None
            if broken is not None:
                broken.shutdown(wait=False, cancel_futures=True)
            return None
        except Exception:
            log.exception("could not draw a %s picture", game)
            return None

    def close(self, wait: bool = True) -> None:
        """Stop the workers (the pool starts new ones if asked to draw again)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=wait, cancel_futures=True)

    async def aclose(self) -> None:
        """``close`` without blocking the event loop while the workers finish."""
        await asyncio.get_running_loop().run_in_executor(None, self.close)
