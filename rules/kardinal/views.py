"""What a seat may know of a Kardinal game, as JSON: everything is public, so the views differ only in ``viewer``.
Besides the town it lists where the player to move can build and a typed example or two for the chat."""
from __future__ import annotations

from rules.api import State
from rules.kardinal.geometry import (COLOURS, COURT, DOM_NAVE, DOM_TOWER, KINDS, building_text, label, parse_label,
                                     sort_key)
from rules.kardinal.placing import placements


def view(state: State, seat: int | None) -> dict:
    view = {
        "viewer": seat, "players": state.n, "phase": state.phase, "to_act": state.to_act(),
        "current": state.current, "start_player": state.start_player,
        "colours": [[COLOURS[c] for c in cs] for cs in state.colours],
        "shared": COLOURS[state.shared] if state.shared is not None else None,
        "dom": [label(DOM_TOWER), label(DOM_NAVE)],
        "pieces": [{"kind": KINDS[k], "color": COLOURS[c], "cells": [label(x) for x in cells], "builder": b}
                   for k, c, cells, b in state.pieces[2:]],
        "cardinal": label(state.cardinal) if state.cardinal is not None else None,
        "last_built": {"kind": KINDS[state.last[0]], "color": COLOURS[state.last[1]]} if state.last else None,
        "buildings": {COLOURS[c]: {KINDS[k]: state.supply[c][k] for k in range(3)} for c in range(4)},
        "stone_supply": {COLOURS[c]: state.stone_supply[c] for c in range(4)},
        "stones": [{COLOURS[c]: state.stones[p][c] for c in range(4)} for p in range(state.n)],
        "scores": state.final_scores(), "dom_touches": state.dom_touches(),
        "sites": [label(s) for s in sorted(state.sites, key=sort_key)],
        "ranking": state.ranking() if state.phase == "over" else None,
    }
    if state.phase == "build":
        found = placements(state, state.current)
        view["build_sites"] = sorted({label(s) for s, *_ in found}, key=lambda t: sort_key(parse_label(t)))
        first = found[0]
        court = next((f for f in found if f[1] == COURT), None)
        view["examples"] = [f"{label(f[0])} {building_text(f[2], f[1], f[3])}"
                            for f in ([first] + ([court] if court and court is not first else []))]
    elif state.phase in ("place_cardinal", "cardinal"):
        view["examples"] = ["cardinal " + label(next(c for c in sorted(state.sites, key=sort_key)
                                                     if c != state.cardinal))]
    return view
