"""Greedy playouts per second of CPU time on one core, and actions per game, per engine and configuration.

The same games are played in several rounds and each round is timed: the best round is the code's speed (as
``timeit`` takes the minimum: a slower round was slowed by something else on the machine, such as a neighbour on
a shared host); the median shows how much the machine varied."""
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


ROUNDS = 5


def bench_game(name: str, seconds: float = 2.0, rounds: int = ROUNDS) -> list[dict]:
    """Per configuration: the first round plays seeds 0, 1, ... for ``seconds / rounds`` of CPU time; the other
    rounds replay those same games."""
    game = GAMES[name]
    rows = []
    for n, options in game.configurations():
        games = total_actions = finished = 0
        start = time.process_time()
        while time.process_time() - start < seconds / rounds or games == 0:
            actions, over = greedy_playout(game, n, options, games)
            games += 1
            total_actions += actions
            finished += over
        times = [time.process_time() - start]
        for _ in range(rounds - 1):
            start = time.process_time()
            for seed in range(games):
                greedy_playout(game, n, options, seed)
            times.append(time.process_time() - start)
        rates = sorted(games / t for t in times)
        rows.append({"game": name, "players": n, "options": options, "games_per_s": rates[-1],
                     "median_games_per_s": rates[len(rates) // 2], "games": games,
                     "actions_per_game": total_actions / games, "finished": f"{finished}/{games}"})
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=sorted(GAMES))
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU time per configuration, all rounds")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="timed rounds of the same games")
    args = parser.parse_args(argv)
    print(f"{'game':<16} {'N':>2} {'options':<36} {'games/s':>8} {'median':>7} {'actions/game':>12} "
          f"{'finished':>9}")
    for name in args.games:
        for row in bench_game(name, args.seconds, args.rounds):
            opts = ",".join(f"{k}={v}" for k, v in sorted(row["options"].items()))[:36]
            print(f"{row['game']:<16} {row['players']:>2} {opts:<36} {row['games_per_s']:>8.1f} "
                  f"{row['median_games_per_s']:>7.1f} {row['actions_per_game']:>12.0f} {row['finished']:>9}")


if __name__ == "__main__":
    main()
