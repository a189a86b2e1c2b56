"""Where a Kardinal building may stand (rules 2–4: the site, and the seven rules): the checks behind ``apply``,
``legal_actions``, the views' building sites and examples, and the AI's forecasts."""
from __future__ import annotations

from rules.api import State
from rules.kardinal.geometry import COURT, HOUSE, NEIGHBOURS, TOWER, sort_key


def touching(state: State, cells) -> list[int]:
    """The pieces touching a footprint (each once, in order of placement)."""
    g = state.grid
    found = set()
    for c in cells:
        for d in NEIGHBOURS:
            p = g.get(c + d)
            if p is not None:
                found.add(p)
    return sorted(found)


def violations(state: State, seat: int, kind: int, colour: int, cells: tuple) -> list[str]:
    """Every rule (codes of the rules file) the placement breaks; [] when it is legal."""
    bad = []
    if colour not in state.usable[seat] or state.supply[colour][kind] <= 0:
        bad.append("P1")
    if any(c in state.grid for c in cells):
        bad.append("P3")
    if state.cardinal is not None and state.cardinal in cells:
        bad.append("R1")
    near = touching(state, cells)
    if not near:
        bad.append("P4")
    kinds = {state.pieces[p][0] for p in near}
    if kind == TOWER and HOUSE not in kinds:
        bad.append("R2")
    if kind == COURT and HOUSE not in kinds:
        bad.append("R3")
    if kind in kinds:
        bad.append("R4")
    if any(state.pieces[p][1] == colour for p in near):
        bad.append("R5")
    if state.last is not None and state.last[0] == kind:
        bad.append("R6")
    if state.last is not None and state.last[1] == colour:
        bad.append("R7")
    return bad


def _masks(state: State, c: int, cache: dict) -> tuple[int, int]:
    m = cache.get(c)
    if m is None:
        g = state.grid
        pieces = state.pieces
        tm = cm = 0
        for d in NEIGHBOURS:
            p = g.get(c + d)
            if p is not None:
                k, col = pieces[p][0], pieces[p][1]
                tm |= 1 << k
                if col >= 0:
                    cm |= 1 << col
        m = cache[c] = (tm, cm)
    return m


def placements(state: State, seat: int, first: bool = False) -> list[tuple[int, int, int, int | None]]:
    """Every legal (site, kind, colour, other cell) for ``seat``; with ``first`` stop at the first one.

    Sites are in (x, y) order; at a site the buildings go colour by colour, house, tower, then the courtyards
    (north, east, south, west)."""
    last_k, last_c = state.last if state.last is not None else (-1, -1)
    supply = state.supply
    cols = [[c for c in state.usable[seat] if c != last_c and supply[c][k] > 0] if k != last_k else []
            for k in range(3)]
    if not (cols[0] or cols[1] or cols[2]):
        return []
    order = [c for c in state.usable[seat] if c != last_c]
    g = state.grid
    card = state.cardinal
    cache: dict = {}
    out = []
    for s in sorted(state.sites, key=sort_key):
        if s == card:
            continue
        tm, cm = _masks(state, s, cache)
        house_ok = cols[0] and not tm & 1
        tower_ok = cols[1] and tm & 1 and not tm & 2
        courts = []
        if cols[2] and not tm & 4:
            for d in NEIGHBOURS:
                t = s + d
                if t in g or t == card:
                    continue
                tm2, cm2 = _masks(state, t, cache)
                if (tm | tm2) & 1 and not tm2 & 4:
                    courts.append((t, cm | cm2))
        if not (house_ok or tower_ok or courts):
            continue
        for c in order:
            bit = 1 << c
            if house_ok and not cm & bit and supply[c][0] > 0:
                out.append((s, HOUSE, c, None))
            if tower_ok and not cm & bit and supply[c][1] > 0:
                out.append((s, TOWER, c, None))
            if courts and supply[c][2] > 0:
                for t, m in courts:
                    if not m & bit:
                        out.append((s, COURT, c, t))
            if first and out:
                return out
    return out


def can_build(state: State, seat: int) -> bool:
    return bool(placements(state, seat, first=True))


def next_builder(state: State) -> int | None:
    """``State.next_to_act``: once the building is placed, the next seat that can build whatever the Cardinal does —
    seats that cannot build even with the Cardinal gone are passed, and one whose every placement shares a cell
    the Cardinal might take is not foreseen. Before the building it depends on the building."""
    if state.phase in ("build", "over"):
        return None
    free = state.clone()
    free.cardinal = None
    for q in ((state.current + i) % state.n for i in range(1, state.n)):
        found = placements(free, q)
        if not found:
            continue
        cells = [{site} | ({other} if other is not None else set()) for site, _kind, _colour, other in found]
        shared = set.intersection(*cells)
        return None if shared else q
    return None


def has_buildings(state: State, seat: int) -> bool:
    return any(any(state.supply[c]) for c in state.usable[seat])
