"""Board pictures: one module per game draws a view (public or private) as a PNG.

Only the view is drawn, so a picture can show no more than the text does: the channel's picture comes from
``view(None)``, a person's from ``view(seat)``.
"""
from __future__ import annotations

import importlib
import importlib.util
import logging

from bot.render.canvas import Canvas

log = logging.getLogger(__name__)

# registry name → module under bot.render.boards with ``draw(view, names) -> Canvas`` (the board) and, for a game
# with hidden hands, ``private_part(view) -> dict`` and ``draw_hand(part, names) -> Canvas``
DRAWERS = {
    "list_und_tuecke": "list_und_tuecke",
    "koenig_artus": "koenig_artus",
    "kardinal": "kardinal",
    "troubadour": "troubadour",
    "guyenne": "guyenne",
}


def has_picture(game: str) -> bool:
    return game in DRAWERS and importlib.util.find_spec(f"{__name__}.{DRAWERS[game]}") is not None


def _module(game: str):
    return importlib.import_module(f"{__name__}.{DRAWERS[game]}")


def wants_picture(game: str, view: dict) -> bool:
    """Every public view has a picture; a private one when the game has something private to draw (a hand)."""
    if not has_picture(game):
        return False
    return view.get("viewer") is None or hasattr(_module(game), "private_part")


def picture_key(game: str, view: dict, names: list[str]) -> list:
    """What a picture depends on: a hand picture only on the private part of the view, so it is drawn again
    only when that changes."""
    module = _module(game)
    private = view.get("viewer") is not None and hasattr(module, "private_part")
    shown = module.private_part(view) if private else view
    return [game, shown, names]


def draw(game: str, view: dict, names: list[str]) -> Canvas:
    """The picture of ``view`` with its layout (what is where): the board for view(None), the hand for a seat
    (``draw_hand`` of the view's private part; a game without one shows its board)."""
    module = _module(game)
    if view.get("viewer") is not None and hasattr(module, "draw_hand"):
        return module.draw_hand(module.private_part(view), names)
    return module.draw(view, names)


def warm(games: list[str] | None = None, states: int = 10, seed: int = 7) -> int:
    """Draw a few pictures of each game from short random playouts, so the pieces every picture repeats (texts,
    cards, pawns) are in this process's caches before the first real one. Returns how many were drawn."""
    import random

    from rules import GAMES
    from rules.ai import RandomPlayer

    drawn = 0
    names = [f"Player {i + 1}" for i in range(8)]
    for name in games or [g for g in sorted(GAMES) if has_picture(g)]:
        game = GAMES[name]
        configs = game.configurations()
        for k in range(states):
            n, options = configs[k % len(configs)]
            state = game.new_game(n, seed=seed + k, options=dict(options))
            rng = random.Random(seed + k)
            player = RandomPlayer(seed + k)
            for _ in range(rng.randrange(0, 120)):
                if state.is_over():
                    break
                seat = rng.choice(state.to_act())
                state.apply(seat, player.choose(state, seat))
            for seat in (None, rng.randrange(n)):
                drawn += picture(name, state.view(seat), names[:n]) is not None
    return drawn


def picture(game: str, view: dict, names: list[str]) -> bytes | None:
    """PNG bytes of ``view``, or None when there is nothing to draw or drawing failed (the text still goes out)."""
    try:
        if not wants_picture(game, view):
            return None
        return draw(game, view, names).png()
    except Exception:  # a drawing bug must never cost a move: log it, send the text alone
        log.exception("could not draw a %s picture", game)
        return None
