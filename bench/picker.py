"""``python -m bench.picker``: the move picker's cost per game — what rendering a hand of the seat to act costs on
top of its text: legal actions, ``picker.resolve``, buttons and menu — with the picker's value keys as they are
(strings, numbers and lists of strings compared without JSON) and, beside it, with every value keyed by
``json.dumps`` as before issue 24 (the comparison the figure in the issue's note comes from).

Random positions of each game (the first 40 moves of 3 seeded games); CPU time of this thread, so the machine's
load changes the figures little (it is printed anyway).
"""
from __future__ import annotations

import json
import os
import random
import time

import rules
from bot.service import picker, views


def cases(name: str) -> list:
    game, rng, out = rules.get_game(name), random.Random(2), []
    for seed in range(3):
        state = game.new_game(game.min_players, seed=seed)
        for _ in range(40):
            if state.is_over():
                break
            seat = rng.choice(state.to_act())
            out.append((state.clone(), seat))
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return out


def cost(name: str, positions: list) -> float:
    """ms of CPU per hand: legal actions, resolve, buttons, menu."""
    game = rules.get_game(name)
    start = time.thread_time()
    for state, seat in positions:
        level = picker.resolve(game, state.legal_actions(seat), "")
        views.picker_buttons(game, 1, 1, level, "")
        views.picker_menu(game, 1, 1, level, "")
    return (time.thread_time() - start) / len(positions) * 1e3


def main() -> None:
    fast = picker._key
    print(f"load {os.getloadavg()[0]:.1f}; CPU ms per picker (legal actions + resolve + buttons + menu)")
    for name in sorted(rules.GAMES):
        positions = cases(name)
        now = cost(name, positions)
        picker._key = lambda value: json.dumps(value, sort_keys=True)
        try:
            before = cost(name, positions)
        finally:
            picker._key = fast
        print(f"    {name:<18} {now:6.3f} ms   (every key through JSON: {before:6.3f} ms)")


if __name__ == "__main__":
    main()
