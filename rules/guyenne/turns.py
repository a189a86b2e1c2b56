"""Applying a Guyenne action: each kind of action checked and carried out by its handler (expert set-aside, the
team gift, the two-set direction, the placements, reinforcing and passing), every bad input refused with a
friendly reason before anything changes, and the turn passed on until the fights begin (fights.py)."""
from __future__ import annotations

from rules.api import Event, IllegalAction, check_move
from rules.lang import N_, _, ngettext, translate
from rules.guyenne import cards as C
from rules.guyenne.board import MAX_AT_CASTLE, PLACING

# what a seat may do in each phase, said when it tries something else
EXPECTED = {"direction": N_("Choose the direction of this round: direction left (or right)."),
            "set_aside": N_("Set aside a card: e.g. aside 2."),
            "give": N_("Give cards to your partner and name who leads: e.g. give 5 2 partner leads."),
            "open1": N_("Open a castle: e.g. open 3 5 2."), "open2": N_("Open a second castle: e.g. open 5 4 3."),
            "respond1": N_("Answer at the castle: e.g. respond 4 2."),
            "respond2": N_("Answer at the castle: e.g. respond 4 2."),
            "reinforce": N_("Reinforce or pass: e.g. reinforce 3 2, or pass."), "defend": N_("Reveal or concede."),
            "losses": N_("Choose your losses: e.g. lose 4.")}


class Turns:
    """Mixin of ``GuyenneState``: ``apply`` and the turn handlers."""

    def apply(self, seat: int, action: dict) -> list[Event]:
        check_move(action, seat, self.num_players, self.phase == "over")
        if seat not in self.to_act():
            raise IllegalAction(_("It is not your turn."))
        kind = action["type"]
        handler = {"set_aside": self._set_aside, "give": self._give, "direction": self._direction,
                   "open": self._place, "respond": self._place,
                   "reinforce": self._reinforce, "pass": self._pass, "reveal": self._decide,
                   "concede": self._decide, "lose": self._lose}.get(kind)
        if handler is None:
            raise IllegalAction(_("Unknown action {kind} here. {expected}",
                                  kind=repr(kind), expected=self._expected(seat)))
        events = handler(seat, action)
        castle = next((e.data["castle"] for e in events if e.audience is None and "castle" in e.data), None)
        self.last = {"seat": seat, "type": kind, "castle": castle}  # a new dict each time: clones may share it
        return events

    def _expected(self, seat: int) -> str:
        if self.phase == "place":
            kind, _step, frontier = self.steps[self.step_index]
            if kind == "respond":
                return _("Answer first at castle {castle} on your frontier: e.g. respond 4 2.",
                         castle=self._respond_castle())
            return _("Open a castle on your frontier: {a}, {b} or {c}, e.g. open {a} 5 2.", a=3 * frontier + 1,
                     b=3 * frontier + 2, c=3 * frontier + 3)
        return _(EXPECTED[self.phase])

    def _check_fields(self, action: dict, allowed: set[str]) -> None:
        extra = set(action) - allowed - {"type"}
        if extra or not allowed <= set(action):
            if allowed:
                raise IllegalAction(_("This action takes {fields}.", fields=', '.join(sorted(allowed))))
            raise IllegalAction(_("This action takes nothing else."))

    def _cards_from(self, chosen, pool: list[str], most: int) -> list[str]:
        if not isinstance(chosen, list) or not chosen or not all(isinstance(c, str) for c in chosen):
            raise IllegalAction(_("Name at least one card, e.g. 5 or 2."))
        if len(set(chosen)) != len(chosen) or any(c not in pool for c in chosen):
            raise IllegalAction(_("You can only use cards you hold: {cards}.", cards=" ".join(C.label(c) for c in pool)))
        if chosen != C.order(chosen):
            raise IllegalAction(_("List the cards strongest first."))
        if len(chosen) > most:
            raise IllegalAction(ngettext("You may put at most {n} card there now.",
                                         "You may put at most {n} cards there now.", most))
        return chosen

    def _set_aside(self, seat: int, action: dict) -> list[Event]:
        """One choice of the 5 troop cards (rules: ``expert_set_aside(cards)``), named by kind; equal cards are
        interchangeable, so the first unused id of each kind goes. A game stored mid-way through the old five
        single picks chooses the cards still missing."""
        if self.phase != "set_aside":
            raise IllegalAction(self._expected(seat))
        self._check_fields(action, {"cards"})
        army = self.army_of[seat]
        want = 5 - len(self.aside[army])
        kinds = action["cards"]
        if not isinstance(kinds, list) or not all(isinstance(k, str) and k in C.KINDS[1:] for k in kinds):
            raise IllegalAction(_("Set aside troop cards (not the hero): 5, 4, 3, T, 2 or A, e.g. aside 4 3 2 2 A."))
        if kinds != sorted(kinds, key=C.KINDS.index):
            raise IllegalAction(_("List the cards strongest first, e.g. aside 4 3 2 2 A."))
        if len(kinds) != want:
            example = " ".join("4 3 2 2 A".split()[:want])
            raise IllegalAction(_("Set aside exactly {want} troop cards, e.g. aside {example}.",
                                  want=want, example=example))
        left = [c for c in C.ARMY if c != "H" and c not in self.aside[army]]
        picks = []
        for k in kinds:
            pick = next((c for c in left if c[0] == k and c not in picks), None)
            if pick is None:
                count = sum(1 for c in left if c[0] == k)
                raise IllegalAction(_("Your army has only {count} × {card} to set aside.", count=count,
                                      card=translate(C.NAMES[k])))
            picks.append(pick)
        self.aside[army] = C.order(self.aside[army] + picks)  # a new list: clones share the old one
        events = [Event("set_aside", {"seat": seat, "count": len(self.aside[army])}),
                  Event("set_aside_cards", {"seat": seat, "cards": C.order(picks)}, (seat,))]
        if all(len(a) == 5 for a in self.aside):
            for a in self.armies:
                self._deal(a)
            self.aside = [[] for _army in self.armies]  # in the discards now, where determinize re-deals them
            events.append(Event("setup_done", {"first": self.first}))
            events += self._start_round_phase()
        return events

    def _give(self, seat: int, action: dict) -> list[Event]:
        if self.phase != "give" or seat not in self.givers:
            raise IllegalAction(self._expected(seat))
        self._check_fields(action, {"cards", "leader"})
        cards, who = action["cards"], action["leader"]
        if not isinstance(cards, list) or cards not in self._gifts(seat):
            hand = self.hands[seat]
            raise IllegalAction(_("You hold one card: give nothing (give me leads).") if len(hand) == 1 else
                                _("Give 1 to {most} of your cards and keep at least one, e.g. give {card} partner "
                                  "leads.", most=min(5, len(hand) - 1), card=C.label(hand[0])))
        if who not in ("me", "partner"):
            raise IllegalAction(_("Name who leads this round: me or partner, e.g. give 5 2 partner leads."))
        army = self.army_of[seat]
        partner = next(m for m in self.members[army] if m != seat)
        self.hands[seat] = [c for c in self.hands[seat] if c not in cards]
        self.hands[partner] = C.order(self.hands[partner] + cards)
        self.leader[army] = seat if who == "me" else partner
        self.givers.remove(seat)
        self.given[seat] = self.given[seat] + cards  # 6: the giver knows them; the receiver has them in hand
        if self.given[partner]:
            self.given[partner] = [c for c in self.given[partner] if c not in cards]
        events = [Event("given", {"seat": seat, "to": partner, "count": len(cards), "leader": self.leader[army]}),
                  Event("given_cards", {"seat": seat, "to": partner, "cards": list(cards)}, (seat, partner))]
        if not self.givers:
            self.phase = "open1"
        return events

    def _direction(self, seat: int, action: dict) -> list[Event]:
        """Two sets: the first player picks the way round the table; that fixes the placement steps (7.2)."""
        if self.phase != "direction":
            raise IllegalAction(self._expected(seat))
        self._check_fields(action, {"way"})
        way = action["way"]
        if way not in ("left", "right"):
            raise IllegalAction(_("The direction is left or right, e.g. direction left."))
        n = len(self.members)
        order = [(self.first + (k if way == "left" else -k)) % n for k in range(n)]
        # the frontier between Q(k) and Q(k+1): Q(k)'s own (left) frontier going left, Q(k+1)'s going right
        frontier = [order[k] if way == "left" else order[(k + 1) % n] for k in range(n)]
        steps = [["open", order[0], frontier[0]]]
        for k in range(1, n):
            steps += [["respond", order[k], frontier[k - 1]], ["open", order[k], frontier[k]]]
        steps.append(["respond", order[0], frontier[n - 1]])
        self.direction, self.steps, self.step_index = way, steps, 0
        self.rotation = order[1:] + order[:1]  # A35
        self.phase = "place"
        return [Event("direction", {"seat": seat, "way": way, "order": order})]

    def _start_round_phase(self) -> list[Event]:
        """Teams hand cards over (7.1) before the placement; with two sets the first player picks a direction;
        a duel goes straight to the placement."""
        if self.mode == "two_sets":
            self.phase = "direction"
            return []
        self.givers = []
        for a, team in enumerate(self.members):
            if len(team) == 2:
                drawer = team[self.drawer[a]]
                partner = team[1 - self.drawer[a]]
                giver = partner if not self.hands[drawer] and len(self.hands[partner]) >= 2 else drawer
                self.givers.append(giver)
            else:
                self.leader[a] = team[0]
        self.phase = "give" if self.givers else "open1"
        return []

    def _place(self, seat: int, action: dict) -> list[Event]:
        phase = self.phase
        if phase == "place":
            kind, _step, frontier = self.steps[self.step_index]
            phase = "open_on" if kind == "open" else "respond_on"
        if phase not in PLACING + ("open_on", "respond_on") or (action["type"] == "open") != phase.startswith("open"):
            raise IllegalAction(self._expected(seat))
        hand = self.hands[seat]
        army = self.army_of[seat]
        most = min(MAX_AT_CASTLE, len(hand) - (1 if self._keep_one(seat) else 0))
        if phase.startswith("open"):
            self._check_fields(action, {"castle", "cards"})
            castle = action["castle"]
            if not isinstance(castle, int) or isinstance(castle, bool) or not 1 <= castle <= len(self.castles):
                raise IllegalAction(_("Castles are numbered 1 to {n}, e.g. open 3 5 2.", n=len(self.castles)))
            if phase == "open_on" and (castle - 1) // 3 != frontier:
                a, b = self.frontier_armies(frontier)
                raise IllegalAction(_("Open a castle on your frontier with seat {seat}: {a}, {b} or {c}.",
                                      seat=b + 1 if a == seat else a + 1, a=3 * frontier + 1, b=3 * frontier + 2,
                                      c=3 * frontier + 3))
            if self._fight_at(castle):
                raise IllegalAction(_("Castle {castle} is already contested this round: open another one.",
                                      castle=castle))
            cards = self._cards_from(action["cards"], hand, most)
            controller = self.castles[castle - 1]
            pair = self.pair_of(castle)
            n = len(self.members)
            roles = [("defend" if controller == a else "attack") if a in pair else None for a in range(n)]
            self.fights.append({"castle": castle, "controller": controller, "roles": roles,
                                "cards": [[] for _army in range(n)], "revealed": [False] * n, "conceded": False,
                                "winner": None, "actors": [None] * n, "pair": list(pair)})
            fight = self.fights[-1]
        else:
            self._check_fields(action, {"cards"})
            fight = self.fights[-1] if phase != "respond_on" else \
                next(f for f in self.fights if (f["castle"] - 1) // 3 == frontier)
            cards = self._cards_from(action["cards"], hand, most)
        fight["actors"][army] = seat
        fight["cards"][army] = C.order(fight["cards"][army] + cards)
        self.hands[seat] = [c for c in hand if c not in cards]
        events = [Event("placed", {"seat": seat, "castle": fight["castle"], "count": len(cards),
                                   "role": fight["roles"][army], "step": action["type"]}),
                  Event("placed_cards", {"seat": seat, "castle": fight["castle"], "cards": cards}, (seat,))]
        if self.phase == "place":
            self.step_index += 1
            if self.step_index == len(self.steps):
                self.phase = "reinforce"
        else:
            self.phase = PLACING[PLACING.index(phase) + 1] if phase != "respond2" else "reinforce"
            if self.phase == "reinforce":  # A31: S2 leader, S1 leader, S2 other, S1 other (duel: second, first)
                rotation = [self.actor(self.second, 0), self.actor(self.first, 0), self.actor(self.second, 1),
                            self.actor(self.first, 1)]
                self.rotation = rotation[:2] if self.mode == "duel" else rotation
        if self.phase == "reinforce":
            self.step = 0
            self.passes = []
            events += self._auto_passes()
        return events

    def _reinforce(self, seat: int, action: dict) -> list[Event]:
        if self.phase != "reinforce":
            raise IllegalAction(self._expected(seat))
        self._check_fields(action, {"castle", "cards"})
        castle = action["castle"]
        fight = self._fight_at(castle) if isinstance(castle, int) and not isinstance(castle, bool) else None
        if fight is None:
            raise IllegalAction(_("Reinforce one of this round's two castles: {castles}.",
                                  castles=_(" or ").join(str(f["castle"]) for f in self.fights)))
        army = self.army_of[seat]
        if fight["actors"][army] != seat:
            raise IllegalAction(_("You do not play castle {castle} this round: reinforce your own castle.",
                                  castle=fight['castle']))
        cards = self._cards_from(action["cards"], self.hands[seat], MAX_AT_CASTLE - len(fight["cards"][army]))
        fight["cards"][army] = C.order(fight["cards"][army] + cards)
        self.hands[seat] = [c for c in self.hands[seat] if c not in cards]
        self.passes = []
        events = [Event("placed", {"seat": seat, "castle": fight["castle"], "count": len(cards),
                                   "role": fight["roles"][army], "step": "reinforce"}),
                  Event("placed_cards", {"seat": seat, "castle": fight["castle"], "cards": cards}, (seat,))]
        self.step = (self.step + 1) % len(self.rotation)
        return events + self._auto_passes()

    def _pass(self, seat: int, action: dict) -> list[Event]:
        if self.phase != "reinforce":
            raise IllegalAction(self._expected(seat))
        self._check_fields(action, set())
        return self._passed(seat, auto=False) + self._auto_passes()

    def _passed(self, seat: int, auto: bool) -> list[Event]:
        if seat not in self.passes:
            self.passes.append(seat)
        self.step = (self.step + 1) % len(self.rotation)
        return [Event("passed", {"seat": seat, "auto": auto})]

    def _auto_passes(self) -> list[Event]:
        """Players who cannot add a card pass by themselves (A10); when everyone passed in a row, fights begin."""
        events: list[Event] = []
        while self.phase == "reinforce":
            if set(self.passes) >= set(self.rotation):  # everyone passed, one after another
                self.phase = "resolve"
                self.fight_index = 0
                return events + self._resolve()
            actor = self.rotation[self.step]
            if self._has_room(actor):
                return events
            events += self._passed(actor, auto=True)
        return events
