"""What each seat of a Guyenne game may see: ``view(None)`` the table (castles, counts, revealed cards, the last
fights), ``view(seat)`` that and the seat's own hand, face-down cards, the discard cards it may know (A40) and its
expert set-aside. In a module of its own so that what is shown to whom can be checked in one place.

A plain function of the state (``rules.guyenne.state.GuyenneState``)."""
from __future__ import annotations

from rules.guyenne import cards as C
from rules.guyenne.copies import copy_fight


def view(state, seat: int | None) -> dict:
    fights = []
    for f in state.fights:
        fights.append({"castle": f["castle"], "controller": f["controller"], "roles": list(f["roles"]),
                       "actors": list(f["actors"]), "pair": list(f["pair"]),
                       "counts": [len(c) for c in f["cards"]],
                       "revealed": [list(c) if f["revealed"][a] else None for a, c in enumerate(f["cards"])],
                       "conceded": f["conceded"]})
    view = {
        "viewer": seat, "players": state.num_players, "mode": state.mode, "level": state.level,
        "round": state.round_no, "phase": state.phase, "to_act": state.to_act(), "first": state.first,
        "sides": list(state.sides), "armies": list(state.army_of), "members": [list(m) for m in state.members],
        "leaders": [None if state.phase == "give" and any(g in team for g in state.givers) else state.leader[a]
                    for a, team in enumerate(state.members)],  # A29: public once named
        "castles": list(state.castles), "fights": fights,
        "last_fights": [copy_fight(f) for f in state.last_fights],
        "hand_counts": [len(h) for h in state.hands], "deck_counts": [len(d) for d in state.decks],
        "discard_counts": [len(d) for d in state.discards], "reshuffles_left": list(state.reshuffles),
        "removed": [list(r) for r in state.removed], "points": [state.points(a) for a in state.armies],
        "scores": state.scores(), "end": state.end, "ranking": state.ranking() if state.phase == "over" else None,
        "unspent": [state.unspent(a) for a in state.armies] if state.phase == "over" else None,
    }
    if seat is None:  # the table's board highlights the last action (a hand is told it in its narration)
        view["last"] = dict(state.last) if state.last else None
    if state.mode == "two_sets":
        view["lines"] = [state.line(a) for a in state.armies]
        view["frontiers"] = [list(state.frontier_armies(f)) for f in state.armies]
        view["direction"] = state.direction if state.phase != "direction" else None
        if state.phase == "place":
            kind, _, frontier = state.steps[state.step_index]
            view["step"] = {"kind": kind, "frontier": frontier}
    if state.phase == "set_aside":
        view["aside_counts"] = [len(a) for a in state.aside]
    if seat is not None:
        army = state.army_of[seat]
        view["hand"] = list(state.hands[seat])
        view["placed"] = {str(f["castle"]): list(f["cards"][army]) for f in state.fights
                          if f["actors"][army] == seat}
        if len(state.members[army]) == 1:  # A40: his whole discard; a team member only what he put there
            view["discard"] = C.order(state.discards[army])  # or saw revealed
        else:
            view["discard"] = C.order(state.seen[army] + state.mine[seat])
        if state.phase == "set_aside" and seat == state.members[army][0]:
            view["aside"] = list(state.aside[army])
        if state.phase == "losses" and seat in state.to_act():
            view["loss_options"] = state._loss_options(army)
            view["loss_castle"] = state.fights[state.fight_index]["castle"]
    return view


