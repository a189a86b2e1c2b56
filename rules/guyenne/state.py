"""The Guyenne duel: castles, armies, placement, reinforcement, resolution, refill and the end of the game."""
from __future__ import annotations

import random
from itertools import combinations

from rules.api import Event, IllegalAction, State, check_action_shape
from rules.guyenne import cards as C

CASTLES = 6
MAX_AT_CASTLE = 5
HAND = 6
LEVELS = ("basic", "advanced", "expert")
PLACING = ("open1", "respond1", "open2", "respond2")


def group_points(mine: list[bool]) -> int:
    """1 per isolated castle, 2 per castle in a run of two or more adjacent ones (5.2)."""
    points, run = 0, 0
    for held in mine + [False]:
        if held:
            run += 1
        else:
            points += run if run == 1 else 2 * run
            run = 0
    return points


class GuyenneState(State):
    """All fields are plain lists/dicts of ints and card ids, so ``to_json``/``clone`` are cheap copies."""

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, num_players: int, seed: int, level: str) -> "GuyenneState":
        s = cls()
        s.rng = random.Random(seed)
        s.level = level
        s.sides = ["E", "F"] if s.rng.random() < 0.5 else ["F", "E"]  # A39: random; English opens round 1
        s.first = s.sides.index("E")
        s.round_no = 1
        s.castles = [None] * CASTLES
        s.hands = [[], []]
        s.decks = [[], []]
        s.discards = [[], []]
        s.removed = [[], []]
        s.reshuffles = [2 if level == "expert" else 1] * 2
        s.aside = [[], []]  # expert: the cards chosen so far (moved to the discard at the end of setup)
        s.fights = []
        s.fight_index = 0
        s.rotation = []
        s.step = 0
        s.passes = []
        s.last_fights = []
        s.end = None  # "six" or "exhaustion"
        s.six_winner = None
        if level == "expert":
            s.phase = "set_aside"
        else:
            for p in (0, 1):
                s._deal(p)
            s.phase = "open1"
        return s

    def _deal(self, p: int) -> None:
        troops = [c for c in C.ARMY if c != "H" and c not in self.aside[p]]
        self.rng.shuffle(troops)
        self.decks[p] = troops
        self.discards[p] = C.order(self.aside[p])
        self.hands[p] = C.order(["H"] + [self.decks[p].pop() for _ in range(5)])

    # ------------------------------------------------------------------ contract
    @property
    def num_players(self) -> int:
        return 2

    @property
    def second(self) -> int:
        return 1 - self.first

    def to_act(self) -> list[int]:
        phase = self.phase
        if phase == "over":
            return []
        if phase == "set_aside":
            return [p for p in (0, 1) if len(self.aside[p]) < 5]
        if phase in ("open1", "respond2"):
            return [self.first]
        if phase in ("respond1", "open2"):
            return [self.second]
        if phase == "reinforce":
            return [self.rotation[self.step]]
        fight = self.fights[self.fight_index]
        return [fight["roles"].index("defend")] if phase == "defend" else [1 - fight["winner"]]

    def is_over(self) -> bool:
        return self.phase == "over"

    def points(self, p: int) -> int:
        if self.end == "six":
            return 12 if self.six_winner == p else 0
        return group_points([c == p for c in self.castles])

    def scores(self) -> list[float]:
        return [float(self.points(0)), float(self.points(1))]

    def unspent(self, p: int) -> int:
        return len(self.hands[p]) + len(self.decks[p])

    def ranking(self) -> list[int]:
        if self.end == "six":
            return [1 if p == self.six_winner else 2 for p in (0, 1)]
        keys = [(self.points(p), self.unspent(p)) for p in (0, 1)]  # tie-break: more unspent cards (A19)
        return [1 + sum(1 for other in keys if other > key) for key in keys]

    # ------------------------------------------------------------------ legal actions
    def _keep_one(self, seat: int) -> bool:
        """A player who still has a castle to play after this placement must keep a card (A7)."""
        return self.phase in ("open1", "respond1")

    def _subsets(self, cards: list[str], most: int) -> list[list[str]]:
        out: list[list[str]] = []
        for size in range(1, min(most, len(cards)) + 1):
            out.extend(list(c) for c in combinations(cards, size))
        return out

    def _fight_at(self, castle: int) -> dict | None:
        return next((f for f in self.fights if f["castle"] == castle), None)

    def _room(self, p: int) -> list[int]:
        """Contested castles where ``p`` may still add cards (fewer than five there, a card in hand)."""
        if not self.hands[p]:
            return []
        return [f["castle"] for f in self.fights if len(f["cards"][p]) < MAX_AT_CASTLE]

    def legal_actions(self, seat: int) -> list[dict]:
        if seat not in self.to_act():
            return []
        phase = self.phase
        hand = self.hands[seat]
        if phase == "set_aside":
            left = [c for c in C.ARMY if c != "H" and c not in self.aside[seat]]
            return [{"type": "set_aside", "card": k} for k in C.KINDS[1:] if any(c[0] == k for c in left)]
        if phase in PLACING:
            most = min(MAX_AT_CASTLE, len(hand) - (1 if self._keep_one(seat) else 0))
            subsets = self._subsets(hand, most)
            if phase.startswith("respond"):
                return [{"type": "respond", "cards": s} for s in subsets]
            taken = {f["castle"] for f in self.fights}
            return [{"type": "open", "castle": k, "cards": s} for k in range(1, CASTLES + 1) if k not in taken
                    for s in subsets]
        if phase == "reinforce":
            out = []
            for castle in self._room(seat):
                have = len(self._fight_at(castle)["cards"][seat])
                out += [{"type": "reinforce", "castle": castle, "cards": s}
                        for s in self._subsets(hand, MAX_AT_CASTLE - have)]
            return out + [{"type": "pass"}]
        if phase == "defend":
            return [{"type": "reveal"}, {"type": "concede"}]
        return [{"type": "lose", "cards": s} for s in self._loss_options(seat)]

    def _loss_options(self, seat: int) -> list[list[str]]:
        """Non-empty sets of the loser's cards there whose printed values reach his strongest card (4.3.1, A23)."""
        mine = self.fights[self.fight_index]["cards"][seat]
        top = max(C.PRINTED[c[0]] for c in mine)
        return [s for s in self._subsets(mine, len(mine)) if sum(C.PRINTED[c[0]] for c in s) >= top]

    # ------------------------------------------------------------------ apply
    def apply(self, seat: int, action: dict) -> list[Event]:
        check_action_shape(action)
        if seat not in (0, 1):
            raise IllegalAction("There is no such seat in this game.")
        if self.phase == "over":
            raise IllegalAction("The game is over.")
        if seat not in self.to_act():
            raise IllegalAction("It is not your turn.")
        kind = action["type"]
        handler = {"set_aside": self._set_aside, "open": self._place, "respond": self._place,
                   "reinforce": self._reinforce, "pass": self._pass, "reveal": self._decide,
                   "concede": self._decide, "lose": self._lose}.get(kind)
        if handler is None:
            raise IllegalAction(f"Unknown action {kind!r} here. {self._expected(seat)}")
        return handler(seat, action)

    def _expected(self, seat: int) -> str:
        return {"set_aside": "Set aside a card: e.g. aside 2.", "open1": "Open a castle: e.g. open 3 5 2.",
                "open2": "Open a second castle: e.g. open 5 4 3.", "respond1": "Answer at the castle: e.g. respond 4 2.",
                "respond2": "Answer at the castle: e.g. respond 4 2.",
                "reinforce": "Reinforce or pass: e.g. reinforce 3 2, or pass.",
                "defend": "Reveal or concede.", "losses": "Choose your losses: e.g. lose 4."}[self.phase]

    def _check_fields(self, action: dict, allowed: set[str]) -> None:
        extra = set(action) - allowed - {"type"}
        if extra or not allowed <= set(action):
            raise IllegalAction(f"This action takes {', '.join(sorted(allowed)) or 'nothing else'}.")

    def _cards_from(self, chosen, pool: list[str], most: int) -> list[str]:
        if not isinstance(chosen, list) or not chosen or not all(isinstance(c, str) for c in chosen):
            raise IllegalAction("Name at least one card, e.g. 5 or 2.")
        if len(set(chosen)) != len(chosen) or any(c not in pool for c in chosen):
            raise IllegalAction("You can only use cards you hold: " + " ".join(C.label(c) for c in pool) + ".")
        if chosen != C.order(chosen):
            raise IllegalAction("List the cards strongest first.")
        if len(chosen) > most:
            raise IllegalAction(f"You may put at most {most} card(s) there now.")
        return chosen

    def _set_aside(self, seat: int, action: dict) -> list[Event]:
        if self.phase != "set_aside":
            raise IllegalAction(self._expected(seat))
        self._check_fields(action, {"card"})
        k = action["card"]
        left = [c for c in C.ARMY if c != "H" and c not in self.aside[seat]]
        pick = next((c for c in left if isinstance(k, str) and c[0] == k), None)
        if pick is None:
            raise IllegalAction("Set aside one of your troops (not the hero): 5, 4, 3, T, 2 or A.")
        self.aside[seat].append(pick)
        events = [Event("set_aside", {"seat": seat, "count": len(self.aside[seat])}),
                  Event("set_aside_card", {"seat": seat, "card": pick}, (seat,))]
        if all(len(a) == 5 for a in self.aside):
            for p in (0, 1):
                self._deal(p)
            self.phase = "open1"
            events.append(Event("setup_done", {"first": self.first}))
        return events

    def _place(self, seat: int, action: dict) -> list[Event]:
        phase = self.phase
        if phase not in PLACING or (action["type"] == "open") != phase.startswith("open"):
            raise IllegalAction(self._expected(seat))
        hand = self.hands[seat]
        most = min(MAX_AT_CASTLE, len(hand) - (1 if self._keep_one(seat) else 0))
        if phase.startswith("open"):
            self._check_fields(action, {"castle", "cards"})
            castle = action["castle"]
            if not isinstance(castle, int) or isinstance(castle, bool) or not 1 <= castle <= CASTLES:
                raise IllegalAction("Castles are numbered 1 to 6, e.g. open 3 5 2.")
            if self._fight_at(castle):
                raise IllegalAction(f"Castle {castle} is already contested this round: open another one.")
            cards = self._cards_from(action["cards"], hand, most)
            controller = self.castles[castle - 1]
            roles = ["defend" if controller == p else "attack" for p in (0, 1)]
            self.fights.append({"castle": castle, "controller": controller, "roles": roles, "cards": [[], []],
                                "revealed": [False, False], "conceded": False, "winner": None})
            fight = self.fights[-1]
        else:
            self._check_fields(action, {"cards"})
            fight = self.fights[-1]
            cards = self._cards_from(action["cards"], hand, most)
        fight["cards"][seat] = C.order(fight["cards"][seat] + cards)
        self.hands[seat] = [c for c in hand if c not in cards]
        events = [Event("placed", {"seat": seat, "castle": fight["castle"], "count": len(cards),
                                   "role": fight["roles"][seat], "step": action["type"]}),
                  Event("placed_cards", {"seat": seat, "castle": fight["castle"], "cards": cards}, (seat,))]
        self.phase = PLACING[PLACING.index(phase) + 1] if phase != "respond2" else "reinforce"
        if self.phase == "reinforce":
            self.rotation = [self.second, self.first]
            self.step = 0
            self.passes = []
            events += self._auto_passes()
        return events

    def _reinforce(self, seat: int, action: dict) -> list[Event]:
        if self.phase != "reinforce":
            raise IllegalAction(self._expected(seat))
        self._check_fields(action, {"castle", "cards"})
        fight = self._fight_at(action["castle"]) if isinstance(action["castle"], int) else None
        if fight is None:
            raise IllegalAction("Reinforce one of this round's two castles: " +
                                " or ".join(str(f["castle"]) for f in self.fights) + ".")
        cards = self._cards_from(action["cards"], self.hands[seat], MAX_AT_CASTLE - len(fight["cards"][seat]))
        fight["cards"][seat] = C.order(fight["cards"][seat] + cards)
        self.hands[seat] = [c for c in self.hands[seat] if c not in cards]
        self.passes = []
        events = [Event("placed", {"seat": seat, "castle": fight["castle"], "count": len(cards),
                                   "role": fight["roles"][seat], "step": "reinforce"}),
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
            if len(self.passes) == 2:
                self.phase = "resolve"
                self.fight_index = 0
                return events + self._resolve()
            actor = self.rotation[self.step]
            if self._room(actor):
                return events
            events += self._passed(actor, auto=True)
        return events

    # ------------------------------------------------------------------ resolution
    def _resolve(self) -> list[Event]:
        """Fights in the order opened: attackers reveal, the defender decides, the outcome, the losses."""
        events: list[Event] = []
        while self.fight_index < len(self.fights):
            fight = self.fights[self.fight_index]
            if fight["winner"] is None and "outcome" not in fight:
                for p in (0, 1):
                    if fight["roles"][p] == "attack" and not fight["revealed"][p]:
                        fight["revealed"][p] = True
                        events.append(Event("revealed", {"seat": p, "castle": fight["castle"],
                                                         "cards": fight["cards"][p]}))
                if "defend" in fight["roles"] and "decided" not in fight:
                    self.phase = "defend"
                    return events
                events += self._outcome(fight)
                if self.phase == "losses":
                    return events
            self.fight_index += 1
        return events + self._end_round()

    def _decide(self, seat: int, action: dict) -> list[Event]:
        if self.phase != "defend":
            raise IllegalAction(self._expected(seat))
        self._check_fields(action, set())
        fight = self.fights[self.fight_index]
        fight["decided"] = True
        events: list[Event] = []
        if action["type"] == "reveal":
            fight["revealed"][seat] = True
            events.append(Event("revealed", {"seat": seat, "castle": fight["castle"], "cards": fight["cards"][seat]}))
        else:
            fight["conceded"] = True
            events.append(Event("conceded", {"seat": seat, "castle": fight["castle"]}))
        self.phase = "resolve"
        events += self._outcome(fight)
        if self.phase == "losses":
            return events
        self.fight_index += 1
        return events + self._resolve()

    def _winner(self, fight: dict) -> int | None:
        """4.1: None is a tie (control unchanged)."""
        roles, cards = fight["roles"], fight["cards"]
        if fight["conceded"]:
            return roles.index("attack")
        heroes = [p for p in (0, 1) if "H" in cards[p]]
        if len(heroes) == 2:
            return None
        if heroes:
            return heroes[0]
        totals = [self.total(fight, p) for p in (0, 1)]
        if "defend" not in roles:
            return None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
        attacker = roles.index("attack")
        return attacker if totals[attacker] > totals[1 - attacker] else 1 - attacker

    @staticmethod
    def total(fight: dict, p: int, cards: list[str] | None = None) -> int:
        defending = fight["roles"][p] == "defend"
        against = fight["controller"] is not None and fight["controller"] != p
        return sum(C.value(c, defending, against) for c in (fight["cards"][p] if cards is None else cards))

    def _outcome(self, fight: dict) -> list[Event]:
        fight["outcome"] = True
        winner = self._winner(fight)
        castle = fight["castle"]
        if winner is not None:
            self.castles[castle - 1] = winner
        totals = [None if not fight["revealed"][p] else self.total(fight, p) for p in (0, 1)]
        events = [Event("fight", {"castle": castle, "winner": winner, "totals": totals,
                                  "before": fight["controller"], "controller": self.castles[castle - 1],
                                  "conceded": fight["conceded"]})]
        self.last_fights.append({"castle": castle, "winner": winner, "conceded": fight["conceded"],
                                 "roles": list(fight["roles"]),
                                 "cards": [list(fight["cards"][p]) if fight["revealed"][p] else None for p in (0, 1)]})
        if self.level == "basic":
            return events
        if fight["controller"] is not None:  # attack on an opponent's castle: the attacker's strongest card
            attacker = fight["roles"].index("attack")
            lost = C.strongest_loss(fight["cards"][attacker])
            events += self._remove(attacker, fight, [lost])
        elif winner is not None:
            loser = 1 - winner
            fight["winner"] = winner
            options = self._loss_options(loser)
            if len(options) == 1:
                events += self._remove(loser, fight, options[0])
            else:
                self.phase = "losses"
        return events

    def _remove(self, p: int, fight: dict, cards: list[str]) -> list[Event]:
        fight["cards"][p] = [c for c in fight["cards"][p] if c not in cards]
        self.removed[p] = C.order(self.removed[p] + cards)
        self.last_fights[-1].setdefault("removed", [[], []])[p] = list(cards)
        return [Event("removed", {"seat": p, "castle": fight["castle"], "cards": list(cards)})]

    def _lose(self, seat: int, action: dict) -> list[Event]:
        if self.phase != "losses":
            raise IllegalAction(self._expected(seat))
        self._check_fields(action, {"cards"})
        fight = self.fights[self.fight_index]
        chosen = action["cards"]
        if not isinstance(chosen, list) or chosen not in self._loss_options(seat):
            top = max(C.PRINTED[c[0]] for c in fight["cards"][seat])
            raise IllegalAction(f"Remove your strongest card there, or cards worth at least {top} together "
                                f"(from: {' '.join(fight['cards'][seat])}).")
        events = self._remove(seat, fight, chosen)
        fight["winner"] = None
        self.phase = "resolve"
        self.fight_index += 1
        return events + self._resolve()

    # ------------------------------------------------------------------ round end
    def _end_round(self) -> list[Event]:
        events: list[Event] = []
        for p in (0, 1):
            if all(c == p for c in self.castles):
                self.end, self.six_winner, self.phase = "six", p, "over"
                return events + [Event("game_over", {"reason": "six", "winner": p, "scores": self.scores()})]
        for fight in self.fights:
            for p in (0, 1):
                self.discards[p].extend(fight["cards"][p])
        self.fights = []
        for p in (0, 1):
            events += self._refill(p)
        self.first = self.second
        self.round_no += 1
        self.last_fights = self.last_fights[-2:]
        if any(len(h) <= 1 for h in self.hands):
            self.end, self.phase = "exhaustion", "over"
            return events + [Event("game_over", {"reason": "exhaustion", "scores": self.scores(),
                                                 "unspent": [self.unspent(p) for p in (0, 1)]})]
        self.phase = "open1"
        return events + [Event("round_started", {"round": self.round_no, "first": self.first})]

    def _refill(self, p: int) -> list[Event]:
        """3.6: draw up to six; an empty deck is rebuilt from the discard while reshuffles last (A16)."""
        drawn: list[str] = []
        reshuffled = False
        while len(self.hands[p]) + len(drawn) < HAND:
            if self.decks[p]:
                drawn.append(self.decks[p].pop())
            elif self.reshuffles[p] > 0 and self.discards[p]:
                self.decks[p] = self.discards[p]
                self.discards[p] = []
                self.rng.shuffle(self.decks[p])
                self.reshuffles[p] -= 1
                reshuffled = True
            else:
                break
        self.hands[p] = C.order(self.hands[p] + drawn)
        events = [Event("refilled", {"seat": p, "count": len(drawn), "reshuffled": reshuffled})]
        if drawn:
            events.append(Event("drawn", {"seat": p, "cards": C.order(drawn)}, (p,)))
        return events

    # ------------------------------------------------------------------ views
    def view(self, seat: int | None) -> dict:
        fights = []
        for f in self.fights:
            fights.append({"castle": f["castle"], "controller": f["controller"], "roles": list(f["roles"]),
                           "counts": [len(f["cards"][p]) for p in (0, 1)],
                           "revealed": [list(f["cards"][p]) if f["revealed"][p] else None for p in (0, 1)],
                           "conceded": f["conceded"]})
        view = {
            "viewer": seat, "players": 2, "mode": "duel", "level": self.level, "round": self.round_no,
            "phase": self.phase, "to_act": self.to_act(), "first": self.first, "sides": list(self.sides),
            "castles": list(self.castles), "fights": fights,
            "last_fights": [dict(f, cards=[list(c) if c is not None else None for c in f["cards"]])
                            for f in self.last_fights],
            "hand_counts": [len(h) for h in self.hands], "deck_counts": [len(d) for d in self.decks],
            "discard_counts": [len(d) for d in self.discards], "reshuffles_left": list(self.reshuffles),
            "removed": [list(r) for r in self.removed], "scores": self.scores(),
            "end": self.end, "ranking": self.ranking() if self.phase == "over" else None,
            "unspent": [self.unspent(p) for p in (0, 1)] if self.phase == "over" else None,
        }
        if self.phase == "set_aside":
            view["aside_counts"] = [len(a) for a in self.aside]
        if seat is not None:
            view["hand"] = list(self.hands[seat])
            view["placed"] = {str(f["castle"]): list(f["cards"][seat]) for f in self.fights}
            view["discard"] = C.order(self.discards[seat])
            if self.phase == "set_aside":
                view["aside"] = list(self.aside[seat])
            if self.phase == "losses" and seat in self.to_act():
                view["loss_options"] = self._loss_options(seat)
        return view

    # ------------------------------------------------------------------ copies
    def to_json(self) -> dict:
        rng = self.rng.getstate()
        return {"level": self.level, "sides": self.sides, "first": self.first, "round_no": self.round_no,
                "castles": list(self.castles), "hands": [list(h) for h in self.hands],
                "decks": [list(d) for d in self.decks], "discards": [list(d) for d in self.discards],
                "removed": [list(r) for r in self.removed], "reshuffles": list(self.reshuffles),
                "aside": [list(a) for a in self.aside], "fights": [_copy_fight(f) for f in self.fights],
                "fight_index": self.fight_index, "rotation": list(self.rotation), "step": self.step,
                "passes": list(self.passes), "last_fights": [_copy_fight(f) for f in self.last_fights],
                "end": self.end, "six_winner": self.six_winner, "phase": self.phase,
                "rng": [rng[0], list(rng[1]), rng[2]]}

    @classmethod
    def from_json(cls, data: dict) -> "GuyenneState":
        s = cls()
        for key in ("level", "sides", "first", "round_no", "castles", "hands", "decks", "discards", "removed",
                    "reshuffles", "aside", "fight_index", "rotation", "step", "passes", "end", "six_winner", "phase"):
            value = data[key]
            setattr(s, key, [list(v) if isinstance(v, list) else v for v in value] if isinstance(value, list)
                    else value)
        s.fights = [_copy_fight(f) for f in data["fights"]]
        s.last_fights = [_copy_fight(f) for f in data["last_fights"]]
        s.rng = random.Random()
        version, internal, gauss = data["rng"]
        s.rng.setstate((version, tuple(internal), gauss))
        return s

    def clone(self) -> "GuyenneState":
        s = GuyenneState.__new__(GuyenneState)
        s.level, s.sides, s.first, s.round_no = self.level, self.sides, self.first, self.round_no
        s.castles = list(self.castles)
        s.hands = [list(h) for h in self.hands]
        s.decks = [list(d) for d in self.decks]
        s.discards = [list(d) for d in self.discards]
        s.removed = [list(r) for r in self.removed]
        s.reshuffles = list(self.reshuffles)
        s.aside = [list(a) for a in self.aside]
        s.fights = [_copy_fight(f) for f in self.fights]
        s.fight_index, s.rotation, s.step = self.fight_index, list(self.rotation), self.step
        s.passes = list(self.passes)
        s.last_fights = [_copy_fight(f) for f in self.last_fights]
        s.end, s.six_winner, s.phase = self.end, self.six_winner, self.phase
        s.rng = random.Random()
        s.rng.setstate(self.rng.getstate())
        return s

    def determinize(self, seat: int | None, rng: random.Random) -> "GuyenneState":
        """Re-deal what ``seat`` cannot know: every other army's unseen cards (hand, deck, discard, face-down cards
        at the castles, expert picks) among those places, and the order of its own deck."""
        world = self.clone()
        world.rng = random.Random(rng.random())
        for p in (0, 1):
            if p == seat:
                rng.shuffle(world.decks[p])
                continue
            hidden = [f for f in world.fights if not f["revealed"][p]]
            pool = world.hands[p] + world.decks[p] + world.discards[p] + [c for f in hidden for c in f["cards"][p]]
            if world.phase == "set_aside":
                left = [c for c in C.ARMY if c != "H"]
                rng.shuffle(left)
                world.aside[p] = left[:len(world.aside[p])]
                continue
            rng.shuffle(pool)
            sizes = [len(world.hands[p]), len(world.decks[p]), len(world.discards[p])]
            world.hands[p] = C.order(pool[:sizes[0]])
            world.decks[p] = pool[sizes[0]:sizes[0] + sizes[1]]
            world.discards[p] = pool[sizes[0] + sizes[1]:sum(sizes)]
            rest = pool[sum(sizes):]
            for f in hidden:
                k = len(f["cards"][p])
                f["cards"][p], rest = C.order(rest[:k]), rest[k:]
        return world

    # ------------------------------------------------------------------ the AI's view of a position
    def evaluate(self, seat: int) -> float:
        return self._value(seat, None, [])

    def _value(self, seat: int, castle: int | None, added: list[str], base: float | None = None,
               theirs_cache: dict | None = None) -> float:
        """Castle points now, plus how the open fights lean, plus a little for cards kept (``added`` are cards
        of ``seat`` imagined at ``castle``, for evaluate_actions, which passes what all its actions share)."""
        other = 1 - seat
        value = base if base is not None else float(self.points(seat) - self.points(other))
        if self.phase == "over":
            return value + 0.01 * (self.unspent(seat) - self.unspent(other))
        fights = list(self.fights)
        if castle is not None and self._fight_at(castle) is None:
            controller = self.castles[castle - 1]
            fights.append({"castle": castle, "controller": controller, "cards": [[], []],
                           "roles": ["defend" if controller == p else "attack" for p in (0, 1)]})
        for f in fights:
            if "outcome" in f:
                continue
            mine = f["cards"][seat] + (added if f["castle"] == castle else [])
            theirs = f["cards"][other]
            key = f["castle"]
            if theirs_cache is None or key not in theirs_cache:
                strong = 100 if "H" in theirs else self.total(f, other, theirs)
                if theirs_cache is not None:
                    theirs_cache[key] = strong
            else:
                strong = theirs_cache[key]
            strength = [100 if "H" in mine else self.total(f, seat, mine), strong]
            if f["roles"][seat] == "defend":
                value += 0.4 if strength[0] >= strength[1] else -0.4
            elif f["roles"][other] == "defend":
                value += 0.4 if strength[0] > strength[1] else -0.4
            else:
                value += 0.4 if strength[0] > strength[1] else (-0.4 if strength[0] < strength[1] else 0.0)
        return value + 0.03 * (len(self.hands[seat]) - len(added) + len(self.decks[seat]))

    def evaluate_actions(self, seat: int, actions: list[dict]) -> list[float | None]:
        """Placements and passes change nothing but the imagined fights, unless the reinforcements end at once."""
        out: list[float | None] = []
        base = float(self.points(seat) - self.points(1 - seat))
        theirs: dict = {}
        calm = self.phase in ("open1", "respond1", "open2") or bool(self._room(1 - seat)) and \
            (1 - seat) not in self.passes  # the other player will still act: nothing resolves yet
        for action in actions:
            kind = action.get("type")
            if kind in ("open", "respond", "reinforce", "pass") and (calm or self._quiet_after(seat, action)):
                castle = action.get("castle", self.fights[-1]["castle"] if kind == "respond" else None)
                out.append(self._value(seat, castle, action.get("cards", []), base, theirs))
            else:
                out.append(None)
        return out

    def _quiet_after(self, seat: int, action: dict) -> bool:
        """True when applying ``action`` cannot start the fights (someone will still be able to reinforce)."""
        if self.phase in ("open1", "respond1", "open2"):
            return True
        other = 1 - seat
        if action["type"] == "pass":
            return other not in self.passes and bool(self._room(other))
        if self._room(other):
            return True
        spent = len(action["cards"])
        castle = action.get("castle", self.fights[-1]["castle"])
        left = len(self.hands[seat]) - spent
        return left > 0 and any(len(f["cards"][seat]) + (spent if f["castle"] == castle else 0) < MAX_AT_CASTLE
                                for f in self.fights)


def _copy_fight(f: dict) -> dict:
    out = dict(f)
    for key in ("roles", "revealed"):
        if key in out:
            out[key] = list(out[key])
    out["cards"] = [list(c) if c is not None else None for c in f["cards"]]
    if "removed" in f:
        out["removed"] = [list(r) for r in f["removed"]]
    return out
