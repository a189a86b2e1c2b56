"""Where a quiet move's time goes: ``python -m bench.profile_moves`` plays N moves one game at a time (as the
quiet figure of ``bench.busy`` does) under cProfile and sums the event loop's own time by what it is spent on.

cProfile sees the thread it runs in — the event loop. The database's work runs in aiosqlite's thread and shows
here only as the loop's waiting (not counted); the bench's bare-commit floor measures it. The buckets are
decided by the file of each function (its own time, not cumulative), so they add up to the loop's CPU:

    engine          rules/ (apply, clone, view, legal actions, render_view, describe)
    views/texts     bot/service views, narration, picker, languages, bot/i18n, gettext
    outbox          message serialisation (messages.py, json encoding, uuid)
    storage         storage/, SQLAlchemy, aiosqlite's callers, sqlite3 binding on the loop
    asyncio         the event loop, futures, tasks, thread hand-offs (the cost of each hop to aiosqlite)
    service         the rest of bot/service (act, commit, locks)

    python -m bench.profile_moves --moves 400 --top 25
"""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import tempfile
import time
from pathlib import Path

from bench.service import open_tables, play
from bot.service import ChatRef, UserRef, build_service

BUCKETS = [  # (bucket, substrings of the file path), first match wins
    ("engine", ("/rules/",)),
    ("views/texts", ("bot/service/views", "bot/service/narration", "bot/service/picker", "bot/service/languages",
                     "bot/i18n", "gettext", "/re/", "re.py", "hashlib")),
    ("outbox", ("bot/service/messages", "bot/service/outbox", "/json/", "uuid")),
    ("storage", ("/storage/", "sqlalchemy", "aiosqlite", "sqlite3", "datetime")),
    ("asyncio", ("asyncio", "threading", "queue.py", "concurrent", "selectors", "contextvars")),
    ("service", ("bot/service",)),
]


def bucket_of(filename: str) -> str:
    for name, parts in BUCKETS:
        if any(p in filename for p in parts):
            return name
    if filename == "~":  # built-ins: attributed by name below
        return "builtin"
    return "other"


def builtin_bucket(name: str) -> str:
    if any(k in name for k in ("sqlite3", "executemany", "execute")):
        return "storage"
    if any(k in name for k in ("select", "poll", "_thread", "acquire", "release", "wait", "call_soon", "run_once",
                               "set_result", "Future", "Task")):
        return "asyncio"
    if any(k in name for k in ("json", "encode", "dumps", "uuid", "urandom")):
        return "outbox"
    if "deepcopy" in name or "copy" in name:
        return "engine"
    return "other"


def summarise(stats: pstats.Stats, moves: int) -> dict[str, float]:
    """Own time per bucket, in ms per move."""
    totals: dict[str, float] = {}
    for (filename, _line, name), (_cc, _nc, own, _cum, _callers) in stats.stats.items():
        bucket = bucket_of(filename)
        if bucket == "builtin":
            bucket = builtin_bucket(name)
        totals[bucket] = totals.get(bucket, 0.0) + own
    return {k: v / moves * 1e3 for k, v in sorted(totals.items(), key=lambda kv: -kv[1])}


async def profiled(path: Path, game: str, tables: int, moves: int) -> tuple[pstats.Stats, int, float]:
    service = await build_service(f"sqlite+aiosqlite:///{path}")
    for i in range(10):  # no turn timers: moves, not timer bookkeeping
        await service.settings(ChatRef("bench", f"chat{i}", "bench"), UserRef("bench", "admin", "admin"),
                               "turn_timer=0", is_admin=True)
    opened = await open_tables(service, game, tables, 10_000)
    warm = await open_tables(service, game, 1, 20_000)
    await play(service, *warm[0], 20, random.Random(1), [], [])  # imports and caches warm before profiling
    profile = cProfile.Profile()
    done = 0
    start = time.perf_counter()
    profile.enable()
    for gid, chat in opened:
        done += await play(service, gid, chat, moves // tables, random.Random(gid), [], [])
    profile.disable()
    wall = time.perf_counter() - start
    await service.close()
    return pstats.Stats(profile), done, wall


async def profiled_loaded(path: Path, game: str, games: int, moves: int, pictures: bool,
                          workers: int) -> tuple[pstats.Stats, int, float]:
    """bench.busy's loaded figure (``games`` games at once, every message delivered) under the profiler."""
    from bench.busy import loaded

    profile = cProfile.Profile()
    figures = await loaded(path, game, games, moves, pictures, workers, profile=profile)
    return pstats.Stats(profile), figures["moves"], figures["elapsed_s"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="koenig_artus")
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--loaded", type=int, default=0, metavar="GAMES",
                        help="profile GAMES games moving at once (bench.busy's loaded figure), --moves each")
    parser.add_argument("--pictures", action="store_true", help="with --loaded: pictures on")
    parser.add_argument("--workers", type=int, default=2, help="with --pictures: picture workers")
    parser.add_argument("--callers", nargs="*", default=[], help="also print the callers of these functions")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        if args.loaded:
            stats, done, wall = asyncio.run(profiled_loaded(Path(tmp) / "profile.db", args.game, args.loaded,
                                                            args.moves, args.pictures, args.workers))
        else:
            stats, done, wall = asyncio.run(profiled(Path(tmp) / "profile.db", args.game, args.tables,
                                                     args.moves))
    load = os.getloadavg()
    what = f"{args.loaded} games at once" if args.loaded else "quiet"
    print(f"{done} moves of {args.game} ({what}), {wall / done * 1e3:.2f} ms a move under the profiler "
          f"(load {load[0]:.2f} {load[1]:.2f})")
    print("the event loop's own time per move, by what it is spent on (profiler overhead included):")
    for bucket, ms in summarise(stats, done).items():
        print(f"    {bucket:<12} {ms:6.3f} ms")
    print(f"top {args.top} functions by own time:")
    stats.sort_stats("tottime").print_stats(args.top)
    for name in args.callers:
        stats.print_callers(name)


if __name__ == "__main__":
    main()
