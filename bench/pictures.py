"""Board pictures: time to draw and encode one PNG, and its size, per game, public and private views, over
states taken from random playouts."""
from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.render import boards
from rules import GAMES
from rules.ai import RandomPlayer

NAMES = ["Alice", "Bob", "Carol", "Dave", "Eve", "Frank"]


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


def bench_game(name: str, states: int) -> dict:
    boards.draw(name, sample_views(name, 1)[0][1], NAMES).png()  # fonts loaded once, not counted
    times: dict[str, list[float]] = {"public": [], "private": []}
    sizes: list[int] = []
    for kind, view in sample_views(name, states):
        if not boards.wants_picture(name, view):  # e.g. Kardinal has nothing private: no hand picture
            continue
        start = time.perf_counter()
        png = boards.draw(name, view, NAMES).png()
        times[kind].append(time.perf_counter() - start)
        sizes.append(len(png))
    every = times["public"] + times["private"]
    return {"game": name, "images": len(every),
            "p50_ms": statistics.median(every) * 1000, "max_ms": max(every) * 1000,
            "public_ms": statistics.mean(times["public"]) * 1000,
            "private_ms": statistics.mean(times["private"]) * 1000 if times["private"] else float("nan"),
            "mean_kb": statistics.mean(sizes) / 1024, "max_kb": max(sizes) / 1024}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=[g for g in sorted(GAMES) if boards.has_picture(g)])
    parser.add_argument("--states", type=int, default=30, help="random states per game (2 images each)")
    args = parser.parse_args(argv)
    print(f"{'game':<16} {'images':>6} {'p50 ms':>7} {'max ms':>7} {'public':>7} {'private':>8} {'mean KB':>8} "
          f"{'max KB':>7}")
    for name in args.games:
        r = bench_game(name, args.states)
        print(f"{r['game']:<16} {r['images']:>6} {r['p50_ms']:>7.1f} {r['max_ms']:>7.1f} {r['public_ms']:>7.1f} "
              f"{r['private_ms']:>8.1f} {r['mean_kb']:>8.1f} {r['max_kb']:>7.1f}")


if __name__ == "__main__":
    main()
