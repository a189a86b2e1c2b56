"""What each seat of a Guyenne game may see: ``view(None)`` the table (castles, counts, revealed cards, the last
fights), ``view(seat)`` that and the seat's own hand, face-down cards, the discard cards it may know (A40) and its
expert set-aside. In a module of its own so that what is shown to whom can be checked in one place."""
from __future__ import annotations

from rules.guyenne import cards as C
from rules.guyenne.copies import copy_fight


class Views:
    """Mixin of ``GuyenneState``: its ``view``."""

    def view(self, seat: int | None) -> dict:
        fights = []
        for f in self.fights:
            fights.append({"castle": f["castle"], "controller": f["controller"], "roles": list(f["roles"]),
                           "actors": list(f["actors"]), "pair": list(f["pair"]),
                           "counts": [len(c) for c in f["cards"]],
                           "revealed": [list(c) if f["revealed"][a] else None for a, c in enumerate(f["cards"])],
                           "conceded": f["conceded"]})
        view = {
            "viewer": seat, "players": self.num_players, "mode": self.mode, "level": self.level,
            "round": self.round_no, "phase": self.phase, "to_act": self.to_act(), "first": self.first,
            "sides": list(self.sides), "armies": list(self.army_of), "members": [list(m) for m in self.members],
            "leaders": [None if self.phase == "give" and any(g in team for g in self.givers) else self.leader[a]
                        for a, team in enumerate(self.members)],  # A29: public once named
            "castles": list(self.castles), "fights": fights,
            "last_fights": [copy_fight(f) for f in self.last_fights],
            "hand_counts": [len(h) for h in self.hands], "deck_counts": [len(d) for d in self.decks],
            "discard_counts": [len(d) for d in self.discards], "reshuffles_left": list(self.reshuffles),
            "removed": [list(r) for r in self.removed], "points": [self.points(a) for a in self.armies],
            "scores": self.scores(), "end": self.end, "ranking": self.ranking() if self.phase == "over" else None,
            "unspent": [self.unspent(a) for a in self.armies] if self.phase == "over" else None,
        }
        if seat is None:  # the table's board highlights the last action (a hand is told it in its narration)
            view["last"] = dict(self.last) if self.last else None
        if self.mode == "two_sets":
            view["lines"] = [self.line(a) for a in self.armies]
            view["frontiers"] = [list(self.frontier_armies(f)) for f in self.armies]
            view["direction"] = self.direction if self.phase != "direction" else None
            if self.phase == "place":
                kind, _, frontier = self.steps[self.step_index]
                view["step"] = {"kind": kind, "frontier": frontier}
        if self.phase == "set_aside":
            view["aside_counts"] = [len(a) for a in self.aside]
        if seat is not None:
            army = self.army_of[seat]
            view["hand"] = list(self.hands[seat])
            view["placed"] = {str(f["castle"]): list(f["cards"][army]) for f in self.fights
                              if f["actors"][army] == seat}
            if len(self.members[army]) == 1:  # A40: his whole discard; a team member only what he put there
                view["discard"] = C.order(self.discards[army])  # or saw revealed
            else:
                view["discard"] = C.order(self.seen[army] + self.mine[seat])
            if self.phase == "set_aside" and seat == self.members[army][0]:
                view["aside"] = list(self.aside[army])
            if self.phase == "losses" and seat in self.to_act():
                view["loss_options"] = self._loss_options(army)
        return view
