"""The AI levels by name, and the one factory the bot uses."""
from __future__ import annotations

from rules.ai.players import GreedyPlayer, Player, RandomPlayer
from rules.ai.strong import DEFAULT_BUDGET, StrongPlayer
from rules.api import IllegalAction
from rules.lang import _

LEVELS = {"random": RandomPlayer, "greedy": GreedyPlayer, "strong": StrongPlayer}


def make_player(level: str = "greedy", seed: int | None = None, budget: float | None = DEFAULT_BUDGET,
                iterations: int | None = None) -> Player:
    """A player of ``level``; ``budget`` (seconds per decision) and ``iterations`` (a cap that makes a search
    repeatable) concern only the levels that search."""
    cls = LEVELS.get(level)
    if cls is None:
        raise IllegalAction(_("Unknown AI level {level}. Levels: {levels}.", level=repr(level), levels=', '.join(LEVELS)))
    if cls is StrongPlayer:
        return StrongPlayer(seed, budget=budget, iterations=iterations)
    return cls(seed)
