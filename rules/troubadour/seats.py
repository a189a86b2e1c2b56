"""How a seat is written, shared by the rules, the views and the texts: ``{P2}`` in a message (the narration puts
the player's name in its place) and ``P2`` as an attack's target in actions and views (1-based, as the board shows
the players)."""
from __future__ import annotations


def seat_name(s: int) -> str:
    return f"{{P{s + 1}}}"


def target_code(s: int) -> str:
    return f"P{s + 1}"
