"""Which moves can be taken back: the reasons an engine gives through ``State.undo_refusal``, and the rebuild.

A move may be taken back freely only while it has told nobody anything new: it left nothing to chance (a shuffle,
a draw, a die) and made nothing hidden known to anyone (a card turned up or played from a hand, a hand or a trio
shown, cards handed to a partner). Each game names its own revealing events; ``refusal`` adds what holds for every
game: an event told privately to anyone but the mover shows them something hidden. Whether another seat acted
since is the caller's to check (the engine only sees one move).
"""
from __future__ import annotations

from typing import Iterable

from rules.api import Event
from rules.lang import N_, _

CHANCE = N_("That move left something to chance (a shuffle, a draw or a die), so it cannot be taken back.")
REVEALED = N_("That move showed something hidden, so it cannot be taken back.")


def refusal(seat: int, events: Iterable[Event], *, chance: bool, revealing: frozenset[str],
            drawing: frozenset[str] = frozenset()) -> str | None:
    """The reason ``seat``'s move, which told ``events``, may not be taken back, or None. ``chance``: the move
    used the game's randomness; ``revealing``: the game's event kinds that make something hidden known;
    ``drawing``: those that draw from a shuffled pile (chance too, though the shuffle was earlier)."""
    events = list(events)
    if chance or any(event.kind in drawing for event in events):
        return _(CHANCE)
    for event in events:
        if event.kind in revealing or (event.audience is not None and set(event.audience) - {seat}):
            return _(REVEALED)
    return None


def rebuild(game, num_players: int, seed: int, options: dict | None, moves: Iterable[tuple[int, dict]]):
    """The state after ``moves`` (``(seat, action)`` each) from a new game: how a move is taken back — the game
    played again from its seed without it (engines are deterministic), never a stored snapshot edited."""
    state = game.new_game(num_players, seed=seed, options=dict(options or {}))
    for seat, action in moves:
        state.apply(seat, action)
    return state
