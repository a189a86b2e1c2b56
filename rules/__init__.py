"""Herald's game engines. ``rules.GAMES`` maps name → Game; ``rules.get_game(name)`` looks one up.

Every sub-package (except ``ai``) is a game that registers itself on import.
"""
from __future__ import annotations

import importlib
import pkgutil

from rules.api import GAMES, Event, Game, IllegalAction, State, get_game, register

__all__ = ["GAMES", "Event", "Game", "IllegalAction", "State", "get_game", "register", "load_games"]

_NOT_GAMES = {"ai", "api"}


def load_games() -> dict[str, Game]:
    """Import every game package (idempotent) so that each registers itself."""
    for info in pkgutil.iter_modules(__path__):
        if info.ispkg and info.name not in _NOT_GAMES and not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
    return GAMES


load_games()
