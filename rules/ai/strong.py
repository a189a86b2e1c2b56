"""The strong player and the hint: an ISMCTS search (rules.ai.search) under a time budget.

The search is deterministic for a seed and an iteration cap; with a budget the clock decides how many
iterations there are, so a budgeted decision may differ from run to run.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from rules.ai.players import Player
from rules.ai.search import search
from rules.api import IllegalAction, State

DEFAULT_BUDGET = 1.0  # seconds per decision, the chat setting's default
BUDGET_BOUNDS = (0.1, 5.0)
SAFETY = 0.9  # the search stops a little early: answering and the last iteration fit in the rest


def search_budget(budget: float | None) -> float | None:
    """The clock time the search itself may take of a decision's budget."""
    return None if budget is None else max(0.0, budget * SAFETY)


class StrongPlayer(Player):
    """Searches its seat's information set for ``budget`` seconds (and/or ``iterations``) per decision."""

    level = "strong"

    def __init__(self, seed: int | None = None, budget: float | None = DEFAULT_BUDGET,
                 iterations: int | None = None, rollout_actions: int | None = None, cutoff: str | None = None,
                 confidence: float | None = None):
        super().__init__(seed)
        if budget is None and iterations is None:
            raise ValueError("the strong player needs a time budget or an iteration cap")
        self.budget, self.iterations, self.rollout_actions = budget, iterations, rollout_actions
        self.cutoff, self.confidence = cutoff, confidence
        self.last_iterations = 0  # of the latest decision, for benches

    def choose(self, state: State, seat: int) -> dict:
        result = search(state, seat, self.rng, iterations=self.iterations, budget=search_budget(self.budget),
                        rollout_actions=self.rollout_actions, cutoff=self.cutoff, confidence=self.confidence)
        self.last_iterations = result.iterations
        return result.best.action


@dataclass(frozen=True)
class Advice:
    """What the strong AI would play, its estimated chance to come first, and the runner-up (None when the
    move is forced)."""

    action: dict
    win_rate: float
    runner_up: dict | None
    runner_up_win_rate: float | None
    iterations: int


def advise(state: State, seat: int, seed: int, budget: float | None = DEFAULT_BUDGET,
           iterations: int | None = None) -> Advice:
    """The hint for ``seat``: the search's best action and runner-up, from what that seat may know only."""
    if not state.legal_actions(seat):
        raise IllegalAction("It is not your turn.")
    result = search(state, seat, random.Random(seed), iterations=iterations, budget=search_budget(budget))
    best = result.choices[0]
    second = result.choices[1] if len(result.choices) > 1 else None
    if best.visits == 0:  # a forced move: no search ran
        return Advice(best.action, 0.5, None, None, result.iterations)
    return Advice(best.action, clamp(best.win_rate), second.action if second else None,
                  clamp(second.win_rate) if second else None, result.iterations)


def clamp(rate: float) -> float:
    """A mean reward as a chance: the search's small cost per action can push it a little below 0."""
    return min(1.0, max(0.0, rate))
