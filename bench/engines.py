"""Greedy playouts per second of CPU time (one core, unaffected by other load) and actions per game,
per engine and configuration."""
from __future__ import annotations

import argparse
import random
import time

from rules import GAMES
from rules.ai import GreedyPlayer

CAP = 20000


def greedy_playout(game, n: int, options: dict, seed: int) -> tuple[int, bool]:
    state = game.new_game(n, seed=seed, options=dict(options))
    player = GreedyPlayer(seed)
    pick = random.Random(seed)
    actions = 0
    while not state.is_over() and actions < CAP:
        seat = pick.choice(state.to_act())
        state.apply(seat, player.choose(state, seat))
        actions += 1
    return actions, state.is_over()


def bench_game(name: str, seconds: float = 2.0) -> list[dict]:
    game = GAMES[name]
    rows = []
    for n, options in game.configurations():
        games = total_actions = finished = 0
        start = time.process_time()
        while time.process_time() - start < seconds or games == 0:
            actions, over = greedy_playout(game, n, options, games)
            games += 1
            total_actions += actions
            finished += over
        elapsed = time.process_time() - start
        rows.append({"game": name, "players": n, "options": options, "games_per_s": games / elapsed,
                     "actions_per_game": total_actions / games, "finished": f"{finished}/{games}"})
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=sorted(GAMES))
    parser.add_argument("--seconds", type=float, default=2.0, help="time per configuration")
    args = parser.parse_args(argv)
    print(f"{'game':<16} {'N':>2} {'options':<40} {'games/s':>8} {'actions/game':>12} {'finished':>9}")
    for name in args.games:
        for row in bench_game(name, args.seconds):
            opts = ",".join(f"{k}={v}" for k, v in sorted(row["options"].items()))[:40]
            print(f"{row['game']:<16} {row['players']:>2} {opts:<40} {row['games_per_s']:>8.1f} "
                  f"{row['actions_per_game']:>12.0f} {row['finished']:>9}")


if __name__ == "__main__":
    main()
