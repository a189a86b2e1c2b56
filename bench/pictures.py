"""Board pictures: time to draw and encode one PNG (``boards.picture``, as the service sends it), and its size, per
game, public and private views, over states taken from random playouts; then the throughput of the process pool
(``bot.render.pool.PicturePool``) at 1 and 2 workers.

The process first warms its caches of pieces (texts, cards, pawns) with ``boards.warm()`` on other states, as each
pool worker does once when it starts; the states measured are different ones.

    python -m bench.pictures                       # every game, 30 states each, pool at 1 and 2 workers
    python -m bench.pictures kardinal --profile    # where one game's time goes
"""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import statistics
import time

from bot.render import boards
from rules import GAMES
from rules.ai import RandomPlayer

NAMES = ["Alice", "🤖 AI 2", "Carol", "🤖 Dave", "Eve", "Frank"]


def sample_views(name: str, states: int, seed: int = 1) -> list[tuple[str, dict]]:
    """(kind, view) pairs from random playouts at every configuration of the game."""
    game = GAMES[name]
    rng = random.Random(seed)
    views: list[tuple[str, dict]] = []
    configs = game.configurations()
    for k in range(states):
        n, options = configs[k % len(configs)]
        state = game.new_game(n, seed=seed + k, options=dict(options))
        player = RandomPlayer(seed + k)
        for _ in range(rng.randrange(0, 400)):
            if state.is_over():
                break
            seat = rng.choice(state.to_act())
            state.apply(seat, player.choose(state, seat))
        views.append(("public", state.view(None)))
        views.append(("private", state.view(rng.randrange(n))))
    return views


def playout_views(name: str, moves: int, seed: int = 77) -> list[dict]:
    """The public view after each move of one random playout (the biggest configuration): what a busy table's
    board looks like move after move, as the service draws it."""
    game = GAMES[name]
    n, options = max(game.configurations(), key=lambda c: c[0])
    state = game.new_game(n, seed=seed, options=dict(options))
    player, rng = RandomPlayer(seed), random.Random(seed)
    views = []
    while len(views) < moves and not state.is_over():
        seat = rng.choice(state.to_act())
        state.apply(seat, player.choose(state, seat))
        views.append(state.view(None))
    return views


def bench_game(name: str, views: list[tuple[str, dict]]) -> dict:
    times: dict[str, list[float]] = {"public": [], "private": []}
    cpu: list[float] = []
    sizes: list[int] = []
    for kind, view in views:
        if not boards.wants_picture(name, view):  # e.g. Kardinal has nothing private: no hand picture
            continue
        start, start_cpu = time.perf_counter(), time.thread_time()
        png = boards.picture(name, view, NAMES)
        times[kind].append(time.perf_counter() - start)
        cpu.append(time.thread_time() - start_cpu)
        sizes.append(len(png))
    every = times["public"] + times["private"]
    times["private"] = times["private"] or [float("nan")]
    return {"game": name, "images": len(every),
            "p50_ms": statistics.median(every) * 1000, "max_ms": max(every) * 1000,
            "cpu_p50_ms": statistics.median(cpu) * 1000, "cpu_max_ms": max(cpu) * 1000,
            "public_ms": statistics.median(times["public"]) * 1000,
            "private_ms": statistics.median(times["private"]) * 1000,
            "mean_kb": statistics.mean(sizes) / 1024, "max_kb": max(sizes) / 1024}


def _cpu_seconds(pids) -> float:
    """User + system CPU time of these processes so far (Linux /proc; 0 where it cannot be read)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


async def pool_throughput(workers: int, jobs: list[tuple[str, dict]]) -> tuple[float, float, float]:
    """Pictures a second through a warm pool of ``workers`` processes, all jobs distinct (no result reused); also
    the pictures per CPU second the workers used, and the parent's CPU milliseconds per picture (its share:
    keying, sending, receiving)."""
    from bot.render.pool import PicturePool

    pool = PicturePool(workers, kept=0)
    try:
        assert await pool.ready() == workers  # every worker started and warm
        await asyncio.gather(*(pool.draw(g, v, NAMES) for g, v in jobs[:4 * workers]))
        rest = jobs[4 * workers:]
        pids = list(pool._executor._processes)
        cpu, parent = _cpu_seconds(pids), time.process_time()
        start = time.perf_counter()
        drawn = await asyncio.gather(*(pool.draw(g, v, NAMES) for g, v in rest))
        elapsed = time.perf_counter() - start
        cpu, parent = _cpu_seconds(pids) - cpu, time.process_time() - parent
        assert all(png is not None for png in drawn)
        return len(rest) / elapsed, len(rest) / cpu if cpu else float("nan"), parent / len(rest) * 1000
    finally:
        await pool.aclose()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=[g for g in sorted(GAMES) if boards.has_picture(g)])
    parser.add_argument("--states", type=int, default=30, help="random states per game (2 views each)")
    parser.add_argument("--pool", type=int, default=500, help="pictures drawn through the pool per worker count "
                                                              "(0: skip the pool)")
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--profile", action="store_true", help="print where the time of drawing goes")
    parser.add_argument("--moves", type=int, default=60, help="boards of consecutive moves per game (0: skip)")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    boards.warm(args.games)
    from bot.render.png import DEFLATE

    print(f"warm-up: {time.perf_counter() - start:.2f} s (once per process); PNG deflate by {DEFLATE}")
    views = {name: sample_views(name, args.states) for name in args.games}
    print("wall time, then the CPU time of the drawing thread (what the machine's other work does not inflate)")
    print(f"{'game':<16} {'images':>6} {'p50 ms':>7} {'max ms':>7} {'cpu p50':>8} {'cpu max':>8} {'public':>7} "
          f"{'private':>8} {'mean KB':>8} {'max KB':>7}")
    profile = cProfile.Profile() if args.profile else None
    for name in args.games:
        if profile:
            profile.enable()
        r = bench_game(name, views[name])
        if profile:
            profile.disable()
        print(f"{r['game']:<16} {r['images']:>6} {r['p50_ms']:>7.2f} {r['max_ms']:>7.2f} {r['cpu_p50_ms']:>8.2f} "
              f"{r['cpu_max_ms']:>8.2f} {r['public_ms']:>7.2f} {r['private_ms']:>8.2f} {r['mean_kb']:>8.1f} "
              f"{r['max_kb']:>7.1f}")
    if profile:
        pstats.Stats(profile).sort_stats("tottime").print_stats(14)
    if args.moves:
        print(f"move after move: the board after each of {args.moves} moves of one playout (layers reused)")
        for name in args.games:
            r = bench_game(name, [("public", v) for v in playout_views(name, args.moves)])
            print(f"{r['game']:<16} {r['images']:>6} {r['p50_ms']:>7.2f} {r['max_ms']:>7.2f} {r['cpu_p50_ms']:>8.2f} "
                  f"{r['cpu_max_ms']:>8.2f}")
    if args.pool:
        from bot.render.pool import picture_digest

        distinct = {}  # no picture twice: none comes from the pool's LRU
        per_game = args.pool // (2 * len(args.games)) + 1
        for name in args.games:
            for _, view in views[name] + sample_views(name, per_game, seed=101):
                if boards.wants_picture(name, view):
                    distinct.setdefault(picture_digest(name, view, NAMES), (name, view))
        jobs = list(distinct.values())
        random.Random(0).shuffle(jobs)
        jobs = jobs[:args.pool]
        for workers in args.workers:
            rate, per_cpu, parent = asyncio.run(pool_throughput(workers, jobs))
            print(f"pool, {workers} worker{'s' if workers > 1 else ''}: {rate:5.0f} pictures/s "
                  f"({len(jobs) - 4 * workers} pictures; {per_cpu:4.0f} per worker CPU second; "
                  f"parent {parent:.2f} ms CPU a picture)")


if __name__ == "__main__":
    main()
