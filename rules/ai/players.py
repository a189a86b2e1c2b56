"""Random and greedy one-ply players.

They see the game only through the contract. The greedy player never peeks:
it evaluates each of its actions on a ``determinize(seat)`` of the state (or
takes the engine's ``ai_values``, drawn the same way), so it decides from
exactly what its seat may know.
"""
from __future__ import annotations

import random

from rules.api import IllegalAction, State


class Player:
    level = "base"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> dict:
        raise NotImplementedError


class RandomPlayer(Player):
    """Uniform over the legal actions."""

    level = "random"

    def choose(self, state: State, seat: int) -> dict:
        actions = state.legal_actions(seat)
        if not actions:
            raise IllegalAction("No legal action for this seat.")
        return self.rng.choice(actions)


class GreedyPlayer(Player):
    """Picks the action whose immediate result ``evaluate``s best for its seat; ties at random."""

    level = "greedy"

    def choose(self, state: State, seat: int) -> dict:
        actions = state.ai_actions(seat)  # one of each group of actions that play the same
        if not actions:
            raise IllegalAction("No legal action for this seat.")
        if len(actions) == 1:
            return actions[0]
        values = state.ai_values(seat, actions, self.rng)  # an engine's shortcut, when it has one
        worlds: list[State] = []

        def world() -> State:  # determinized once, only when needed (the rng's draws stay in this order)
            if not worlds:
                worlds.append(state.determinize(seat, self.rng))
            return worlds[0]

        if values is None:
            values = world().evaluate_actions(seat, actions)
        return best_of(seat, actions, values, world, self.rng)


def best_of(seat: int, actions: list[dict], values: list, world, rng: random.Random) -> dict:
    """The action of highest value, ties at random. A ``None`` value is found by playing the action in
    ``world()`` and evaluating the result; an action that is illegal there is skipped."""
    best: list[dict] = []
    best_value = float("-inf")
    for action, value in zip(actions, values):
        if value is None:
            trial = world().clone()
            try:
                trial.apply(seat, action)
            except IllegalAction:  # legal in the real state, not in this world: skip it
                continue
            value = trial.evaluate(seat)
        if value > best_value:
            best, best_value = [action], value
        elif value == best_value:
            best.append(action)
    return rng.choice(best or actions)
