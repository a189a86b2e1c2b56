"""How often a move leaves a seat's view unchanged: ``python -m bench.view_changes``.

Issue 24 asked to build a view only for the seats whose view can have changed. This counts, over random games of
every configuration of every game, the (move, seat) pairs whose ``view(seat)`` is equal before and after the move,
and the cost of one ``view()`` call. Measured 24 Nov 2026: unchanged in 0 % of pairs in every configuration but
Guyenne's 3-player teams (0.3–0.6 %): every view carries the public table (the trick or the board, whose turn, the
counts of cards), so nearly every move changes every seat's view. Skipping seats cannot save views here; the move
path builds each view once (compared, stored as the message's recipe, drawn) — tests/bot/test_views_told.py holds
any shortcut to telling every changed view. A view costs 6–8 µs (König Artus) to 60–75 µs (Kardinal).
"""
from __future__ import annotations

import argparse
import random
import time

import rules


def count(name: str, players: int, options: dict, games: int, cap: int) -> tuple[int, int, float]:
    """(unchanged pairs, all pairs, seconds per view) over ``games`` random games of at most ``cap`` moves."""
    game = rules.get_game(name)
    same = total = 0
    spent = 0.0
    for seed in range(games):
        state = game.new_game(players, seed=seed, options=options)
        rng = random.Random(seed)
        shown = {seat: state.view(seat) for seat in [None, *range(players)]}
        for _ in range(cap):
            if state.is_over():
                break
            seat = rng.choice(state.to_act())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            for viewer in shown:
                start = time.perf_counter()
                view = state.view(viewer)
                spent += time.perf_counter() - start
                same += view == shown[viewer]
                total += 1
                shown[viewer] = view
    return same, total, spent / max(1, total)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--moves", type=int, default=300, help="at most this many moves a game")
    args = parser.parse_args(argv)
    rules.get_game("koenig_artus")  # fills the registry
    for name in sorted(rules.GAMES):
        for players, options in rules.get_game(name).configurations():
            same, total, per_view = count(name, players, options, args.games, args.moves)
            print(f"{name:<16} {players} {options}: view unchanged after a move {same}/{total} "
                  f"({same / max(1, total):.1%}), one view {per_view * 1e6:.1f} µs")


if __name__ == "__main__":
    main()
