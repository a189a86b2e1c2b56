"""What each seat may see of a Troubadour game: ``view(seat)`` (the public table for None; a player's own secret
trio or tie-break noble before the reveal) and, for the active player, every legal move summarised by kind
(``options_of``) and each noble's status. Hidden cards never reach a view: a face-down village card shows as None,
a stock as its size, a waste as its top and size.

Plain functions of the state (``rules.troubadour.state.TroubadourState``, whose fields are described there)."""
from __future__ import annotations

from rules.troubadour.actions import turn_actions
from rules.troubadour.cards import (FD, JC, JD, JH, JS, KC, KD, KH, KS, NAMES, NOBLES, QC, QD, QH, QS, name, trio_key,
                                    trio_list)
from rules.troubadour.flips import UNUSED
from rules.troubadour.seats import target_code

SHOWN = [NAMES[x] if x < 40 else None for x in range(FD + 40)]  # a village card as a view shows it
CASTLE_TOPS = [[None] + [NAMES[s * 10 + r] for r in range(10)] for s in range(4)]
FLIP_NAMES = ["unused", "standard", "hearts_qk"]  # the turn's flip slot (flips.UNUSED, STANDARD, HEARTS_QK)


def view(state, seat: int | None) -> dict:
    revealed = state.phase in ("tiebreak", "turn", "over")
    seats = []
    shown = SHOWN
    for p in range(state.n):
        waste = state.waste[p]
        villages = [[shown[x] for x in v] for v in state.villages[p]]
        seats.append({
            "stock": len(state.stock[p]), "waste": len(waste),
            "waste_top": NAMES[waste[-1]] if waste else None,
            "villages": villages,
            "castles": [CASTLE_TOPS[s][r] for s, r in enumerate(state.castles[p])],
            "castle_cards": sum(state.castles[p]),
            "facedown": sum(v.count(None) for v in villages),
        })
    view = {
        "viewer": seat, "players": state.n, "round": state.round_no, "max_rounds": state.max_rounds,
        "phase": state.phase, "to_act": state.to_act(), "current": state.current,
        "trio_tiebreak": state.tiebreak,
        "trio_chosen": [bool(t) for t in state.trios],
        "trios": [trio_list(t) if revealed and t else None for t in state.trios],
        "last_trios": [trio_list(t) if t else None for t in state.last_trios],
        "order": list(state.order) if state.phase == "turn" else None,
        "order_groups": [list(g) for g in state.groups] if state.phase == "tiebreak" else None,
        "tiebreak": [{"seats": list(g["seats"]), "chosen": [x is not None for x in g["picks"]],
                      "games": g["games"]} for g in state.rps],
        "tiebreak_log": [dict(e) for e in state.tiebreak_log],
        "seats": seats,
        "scores": state.scores(), "winner": state.winner, "draw": state.draw,
    }
    if state.phase == "turn":
        p = state.order[state.turn_idx]
        options = options_of(turn_actions(state, p))
        view["turn"] = {
            "seat": p, "flip": FLIP_NAMES[state.flip_slot], "extra_flips_left": state.extra_left,
            "used_nobles": [NOBLES[x] for x in range(12) if state.used >> x & 1],
            "nobles": noble_status(state, p, options),
            "pending_ace": None if state.pending_ace is None else {
                "village": state.pending_ace[0] + 1, "position": state.pending_ace[1],
                "card": name(state.villages[p][state.pending_ace[0]][state.pending_ace[1]])},
            "protected": {target_code(o): [NOBLES[x] for x in (JD, QD, KD) if state.has(o, x)]
                          for o in range(state.n)},
        }
        view["options"] = options
    if state.phase == "over":
        view["ranking"] = state.ranking()
    if seat is not None and 0 <= seat < state.n:
        if state.phase == "select_trios" and state.trios[seat]:
            view["my_trio"] = trio_list(state.trios[seat])
        if state.phase == "tiebreak":
            for g in state.rps:
                if seat in g["seats"]:
                    pick = g["picks"][g["seats"].index(seat)]
                    view["my_tiebreak"] = NOBLES[pick] if pick is not None else None
    return view


def noble_status(state, p: int, options: dict) -> dict:
    """Each noble of the active trio: ``used``, ``ready`` (usable now), ``later`` (Q♣/K♣ before the flip),
    ``protects`` (diamonds) or ``idle`` (no use now); ``options`` is ``options_of`` the legal actions."""
    out = {}
    stock_or_waste = bool(state.stock[p] or state.waste[p])
    for x in trio_key(state.trios[p]):
        if x in (QC, KC):  # their extra flips are shared: usable while any is left
            grant = 2 if x == QC else (3 if state.extra_grant(p) in (3, 5) else 0)
            if not grant:
                status = "idle"
            elif state.flip_slot == UNUSED:
                status = "later" if stock_or_waste else "idle"
            elif options["extra_flip"]:
                status = "ready"
            else:
                status = "used" if state.used >> x & 1 else "idle"
        elif state.used >> x & 1:
            status = "used"
        elif x in (JD, QD, KD):
            status = "protects"
        else:
            ready = {JC: options["club_jack"], JH: options["hearts_jack"],
                     QH: options["hearts_queen"] or options["hearts_qk"], KH: options["hearts_qk"],
                     JS: options["spade_jack"] or options["spade_trio"], QS: options["spade_queen"] or
                     options["spade_trio"], KS: options["spade_trio"]}[x]
            status = "ready" if ready else "idle"
        out[NOBLES[x]] = status
    return out


def options_of(actions: list[dict]) -> dict:
    """The active player's legal actions summarised for views and the text (what can be built where)."""
    out: dict = {"flip": False, "club_jack": False, "extra_flip": False, "hearts_qk": [], "castle": [],
                 "village": {}, "hearts_jack": {}, "hearts_queen": [], "spade_jack": {}, "spade_queen": [],
                 "spade_trio": {}, "ace": False}
    for a in actions:
        t = a["type"]
        if t == "standard_flip":
            out["club_jack" if a["club_jack"] else "flip"] = True
        elif t == "extra_flip":
            out["extra_flip"] = True
        elif t == "hearts_queen_king_flip":
            out["hearts_qk"].append(a["named_card"])
        elif t == "build_castle":
            out["castle"].append(a["card"])
        elif t == "build_village":
            out["village"].setdefault(a["card"], []).append(a["village"])
        elif t == "hearts_jack_move":
            out["hearts_jack"].setdefault(a["card"], []).append(a["destination"])
        elif t == "hearts_queen_reveal":
            out["hearts_queen"].append([a["village"], a["position"]])
        elif t == "spade_jack_attack":
            out["spade_jack"].setdefault(a["target"], []).append(a["village"])
        elif t == "spade_queen_attack":
            out["spade_queen"].append(a["target"])
        elif t == "spade_trio_attack":
            out["spade_trio"].setdefault(a["target"], []).append(a["suit"])
        elif t == "hearts_queen_ace":
            out["ace"] = True
    return out
