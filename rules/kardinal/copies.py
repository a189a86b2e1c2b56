"""A Kardinal state as JSON and back, and its copies (nothing is hidden: a sampled world is a copy)."""
from __future__ import annotations

import random
from typing import Callable

from rules.api import State
from rules.kardinal.geometry import cell, xy


def to_json(state: State) -> dict:
    """Everything, cells as (x, y): ``from_json`` reads it back, placing the pieces again."""
    return {
        "n": state.n, "seed": state.seed, "counter": state.counter, "colours": [list(c) for c in state.colours],
        "shared": state.shared, "start_player": state.start_player, "supply": [list(r) for r in state.supply],
        "stone_supply": list(state.stone_supply), "stones": [list(r) for r in state.stones],
        "pieces": [[k, c, [list(xy(x)) for x in cells], b] for k, c, cells, b in state.pieces[2:]],
        "cardinal": list(xy(state.cardinal)) if state.cardinal is not None else None,
        "last": list(state.last) if state.last is not None else None,
        "current": state.current, "phase": state.phase, "builds": state.builds,
    }


def from_json(make: Callable[..., State], data: dict) -> State:
    """The state ``to_json`` wrote, built by ``make(players, seed, colours, shared, start)`` (the state class)."""
    s = make(data["n"], data["seed"], data["colours"], data["shared"], data["start_player"])
    s.counter = data["counter"]
    s.supply = [list(r) for r in data["supply"]]
    s.stone_supply = list(data["stone_supply"])
    s.stones = [list(r) for r in data["stones"]]
    for k, c, cells, b in data["pieces"]:
        s.place_piece(k, c, tuple(cell(x, y) for x, y in cells), b)
    s.cardinal = cell(*data["cardinal"]) if data["cardinal"] is not None else None
    s.last = tuple(data["last"]) if data["last"] is not None else None
    s.current, s.phase, s.builds = data["current"], data["phase"], data["builds"]
    return s


def clone(state: State) -> State:
    """A copy with lists of its own; the pieces are tuples, shared."""
    s = object.__new__(type(state))
    s.__dict__.update(state.__dict__)
    s.supply = [r[:] for r in state.supply]
    s.stone_supply = state.stone_supply[:]
    s.stones = [r[:] for r in state.stones]
    s.pieces = state.pieces[:]
    s.grid = state.grid.copy()
    s.sites = state.sites.copy()
    return s


def determinize(state: State, seat: int | None, rng: random.Random) -> State:
    """Nothing is hidden in Kardinal: a clone."""
    return clone(state)
