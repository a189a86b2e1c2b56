"""The greedy AI's view of Mit List und Tücke: how good a state is for a seat, that value after each action
without applying it, and the shortlist of actions worth weighing. Only the AI reads these (``State.evaluate``,
``evaluate_actions``, ``ai_actions``); they never change what is legal."""
from __future__ import annotations

from rules.api import State
from rules.list_und_tuecke.cards import COLOURS, HAND_SIZE, name
from rules.list_und_tuecke.scoring import best_hide, round_score

_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}


def evaluate(state: State, seat: int) -> float:
    """Own total plus this round's points so far, against the best opponent's."""
    totals, points = state.totals, state.points
    if state.phase == "over":
        return totals[seat] - 0.5 * max(t for p, t in enumerate(totals) if p != seat)
    best_other = max(totals[p] + points[p] for p in range(state.n) if p != seat)
    return totals[seat] + points[seat] - 0.5 * best_other


def evaluate_actions(state: State, seat: int, actions: list[dict]) -> list[float | None]:
    """``evaluate`` after each action, without applying it (None for what is no action of this phase).

    ``evaluate`` is totals plus this round's points, and a round's end turns exactly those points into
    totals (the next round starts at 0), so ending a round never changes it. Hence a play keeps the value
    (also one that ends the round early), and a pick or hide changes only the points of W and T: W's after
    his pick (hiding at once in the last trick, A13), T's once the rest reaches him (not yet if W must
    hide first). ``tests/rules/test_list_und_tuecke.py`` checks this against ``apply``.
    """
    if state.phase == "play":
        value = evaluate(state, seat)
        hand = {name(c) for c in state.hands[seat]}
        return [value if action.get("type") == "play_card" and action.get("card") in hand else None
                for action in actions]
    if state.phase == "pick":
        return _evaluate_picks(state, seat, actions)
    if state.phase == "hide":
        return _evaluate_hides(state, seat, actions)
    return [None] * len(actions)


def _value_with(state: State, seat: int, mine: int, low: int | None, low_points: int) -> float:
    """``evaluate(seat)`` with ``seat``'s round points ``mine`` and ``low``'s ``low_points``."""
    totals, points = state.totals, state.points
    best_other = float("-inf")
    for p in range(state.n):
        if p != seat:
            other = totals[p] + (low_points if p == low else points[p])
            if other > best_other:
                best_other = other
    return totals[seat] + mine - 0.5 * best_other


def _evaluate_picks(state: State, seat: int, actions: list[dict]) -> list[float | None]:
    low, last = state.low, state.trick_no == HAND_SIZE
    own = [len(p) for p in state.piles[seat]]
    low_counts = [len(p) for p in state.piles[low]] if low is not None else None
    trick_cards = [c for _, c in state.trick]
    in_trick = {name(c): c for c in trick_cards}
    hidden, low_hidden = state.hidden[seat], state.hidden[low] if low is not None else None
    values: list[float | None] = []
    for action in actions:
        names = action.get("cards", ())
        picked = [in_trick.get(x) for x in names] if isinstance(names, list) else [None]
        if action.get("type") != "pick_cards" or None in picked or len(picked) != state.h:
            values.append(None)
            continue
        counts = own[:]
        for c in picked:
            counts[c >> 5] += 1
        mine_hidden = hidden
        hides = hidden is None and counts[0] and counts[1] and counts[2] and counts[3]
        if hides and last:
            mine_hidden = best_hide(counts)
        mine = round_score(counts, mine_hidden)
        low_points = 0
        if low is not None:
            if hides and not last:  # W hides first; T waits for the rest
                low_points = state.points[low]
            else:
                received = low_counts[:]
                for c in trick_cards:
                    if c not in picked:
                        received[c >> 5] += 1
                got_hidden = low_hidden
                if last and got_hidden is None and received[0] and received[1] and received[2] and received[3]:
                    got_hidden = best_hide(received)
                low_points = round_score(received, got_hidden)
        values.append(_value_with(state, seat, mine, low, low_points))
    return values


def _evaluate_hides(state: State, seat: int, actions: list[dict]) -> list[float | None]:
    """A hide is never in the last trick (A13 applies it there), so T may receive the rest but no round ends."""
    counts = [len(p) for p in state.piles[seat]]
    low = state.low if state.after_hide == "distribute" else None
    low_points = 0
    if low is not None:
        received = [len(p) for p in state.piles[low]]
        for _, c in state.trick:
            if c not in state.picked:
                received[c >> 5] += 1
        low_points = round_score(received, state.hidden[low])
    values: list[float | None] = []
    for action in actions:
        colours = action.get("colors")
        if action.get("type") != "hide_colors" or not isinstance(colours, list) or len(colours) != 2 or \
                colours[0] == colours[1] or not all(isinstance(x, str) and x in _COLOUR_INDEX for x in colours):
            values.append(None)
            continue
        mine = round_score(counts, [_COLOUR_INDEX[x] for x in colours])
        values.append(_value_with(state, seat, mine, low, low_points))
    return values


def ai_actions(state: State, seat: int) -> list[dict]:
    """One pick per mix of colours: only pile sizes ever count, so picks of the same colours play the same."""
    actions = state.legal_actions(seat)
    if state.phase != "pick":
        return actions
    kept: dict[str, dict] = {}
    for action in actions:
        kept.setdefault("".join(x[0] for x in action["cards"]), action)
    return list(kept.values())
