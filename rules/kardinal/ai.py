"""The AI's view of Kardinal: ``evaluate`` (ten times the lead of the seat's running score on the best other, plus
three for each own building the Cardinal shields), forecast after each action without applying it, and the strong
AI's search knobs. Only the AI reads these; they never change what is legal."""
from __future__ import annotations

from rules.api import State
from rules.kardinal.geometry import COLOURS, NEIGHBOURS, parse_building, parse_label
from rules.kardinal.placing import touching


def ai_search_options(state: State) -> dict | None:
    """With three or more players the strong AI's rollouts look 8 actions per opponent ahead (the search's
    default is 2): a building's stones are often taken back a round or two later. bench/strength.py, 4 players,
    40 iterations: first place 35 % at the default 6 actions (60 games), 47.5 % at 12 (100 games), 68.8 % at 24
    (40 games; scoring the cut by rank instead: 53.8 %)."""
    return {"rollout_actions": 8 * (state.n - 1)} if state.n >= 3 else None


def evaluate(state: State, seat: int) -> float:
    """10 × (own running score − best other running score) + 3 per own building the Cardinal shields."""
    return _value(state, seat, state.stones, state.stone_supply, _guard(state, seat, state.cardinal))


def evaluate_actions(state: State, seat: int, actions: list[dict]) -> list[float | None]:
    if state.phase == "over" or seat != state.current:
        return [None] * len(actions)
    out: list[float | None] = []
    for a in actions:
        kind = a.get("type") if isinstance(a, dict) else None
        if kind == "build":
            parsed = parse_building(a.get("building"))
            site = parse_label(a.get("site"))
            if parsed is None or site is None:
                out.append(None)
                continue
            colour, k, other = parsed
            cells = (site,) if other is None else (site, other)
            supply = state.stone_supply[:]
            stones = [row[:] for row in state.stones]
            for p in touching(state, cells):
                col = state.pieces[p][1]
                if col >= 0 and supply[col] > 0:
                    supply[col] -= 1
                    stones[seat][col] += 1
            out.append(_value(state, seat, stones, supply, _guard(state, seat, state.cardinal, (k, colour, cells))))
        elif kind == "bonus_stone" and a.get("color") in COLOURS:
            c = COLOURS.index(a["color"])
            supply = state.stone_supply[:]
            stones = [row[:] for row in state.stones]
            supply[c] -= 1
            stones[seat][c] += 1
            out.append(_value(state, seat, stones, supply, _guard(state, seat, state.cardinal)))
        elif kind in ("place_cardinal", "move_cardinal"):
            c = parse_label(a.get("site"))
            out.append(None if c is None else _value(state, seat, state.stones, state.stone_supply,
                                                          _guard(state, seat, c)))
        elif kind == "end_turn":
            out.append(evaluate(state, seat))
        else:
            out.append(None)
    return out


def _value(state: State, seat: int, stones, supply, guard: int) -> float:
    scores = state.final_scores(stones, supply)
    best_other = max(s for p, s in enumerate(scores) if p != seat)
    return float(10 * (scores[seat] - best_other) + 3 * guard)


def _guard(state: State, seat: int, card: int | None, extra: tuple | None = None) -> int:
    """Own buildings next to the Cardinal (nobody can build there to take their stones)."""
    if card is None:
        return 0
    g = state.grid
    own = state.colours[seat]
    found = set()
    for d in NEIGHBOURS:
        p = g.get(card + d)
        if p is not None and state.pieces[p][1] in own:
            found.add(p)
    n = len(found)
    if extra is not None and extra[1] in own and any(card - c in NEIGHBOURS for c in extra[2]):
        n += 1
    return n
