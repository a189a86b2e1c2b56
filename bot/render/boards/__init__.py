"""Board pictures: one module per game draws a view (public or private) as a PNG.

Only the view is drawn, so a picture can show no more than the text does: the channel's picture comes from
``view(None)``, a person's from ``view(seat)``.
"""
from __future__ import annotations

import importlib
import logging

from bot.render.canvas import Canvas

log = logging.getLogger(__name__)

# registry name → module under bot.render.boards with ``draw(view, names) -> Canvas``
DRAWERS = {
    "list_und_tuecke": "list_und_tuecke",
    "koenig_artus": "koenig_artus",
    "kardinal": "kardinal",
    "troubadour": "troubadour",
    "guyenne": "guyenne",
}


def has_picture(game: str) -> bool:
    return game in DRAWERS and importlib.util.find_spec(f"{__name__}.{DRAWERS[game]}") is not None


def draw(game: str, view: dict, names: list[str]) -> Canvas:
    """The picture of ``view`` with its layout (what is where); KeyError for a game without pictures."""
    module = importlib.import_module(f"{__name__}.{DRAWERS[game]}")
    return module.draw(view, names)


def picture(game: str, view: dict, names: list[str]) -> bytes | None:
    """PNG bytes of ``view``, or None when the game has no pictures or drawing failed (the text still goes out)."""
    if not has_picture(game):
        return None
    try:
        return draw(game, view, names).png()
    except Exception:  # a drawing bug must never cost a move: log it, send the text alone
        log.exception("could not draw a %s picture", game)
        return None
