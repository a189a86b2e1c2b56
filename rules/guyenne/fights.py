"""How a Guyenne round ends: the fights in the order opened (attackers reveal, the defender reveals or
concedes, the outcome, the advanced losses), then the discards, the refills, the end of the game or the next
round. The rules of 4 and 5, apart from the choices that lead up to them."""
from __future__ import annotations

from rules.api import Event, IllegalAction
from rules.lang import _
from rules.guyenne import cards as C
from rules.guyenne.board import HAND
from rules.guyenne.cards import CARD_WORTH


class Fights:
    """Mixin of ``GuyenneState``: resolving the round's fights and ending the round."""

    def _resolve(self) -> list[Event]:
        """Fights in the order opened: attackers reveal, the defender decides, the outcome, the losses."""
        events: list[Event] = []
        while self.fight_index < len(self.fights):
            fight = self.fights[self.fight_index]
            if fight["winner"] is None and "outcome" not in fight:
                for a in fight["pair"]:
                    if fight["roles"][a] == "attack" and not fight["revealed"][a]:
                        fight["revealed"][a] = True
                        if "H" in fight["cards"][a]:
                            self.hero_at[a] = 2
                        events.append(Event("revealed", {"seat": fight["actors"][a], "castle": fight["castle"],
                                                         "cards": fight["cards"][a]}))
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
        army = self.army_of[seat]
        if action["type"] == "reveal":
            fight["revealed"][army] = True
            if "H" in fight["cards"][army]:
                self.hero_at[army] = 2
            events.append(Event("revealed", {"seat": seat, "castle": fight["castle"], "cards": fight["cards"][army]}))
        else:
            fight["conceded"] = True
            if self.hero_at[army] == 0:  # the hero may be among the cards discarded unseen
                self.hero_at[army] = 1
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
        pair = fight["pair"]
        heroes = [p for p in pair if "H" in cards[p]]
        if len(heroes) == 2:
            return None
        if heroes:
            return heroes[0]
        a, b = pair
        totals = {p: self.total(fight, p) for p in pair}
        if "defend" not in roles:
            return None if totals[a] == totals[b] else (a if totals[a] > totals[b] else b)
        attacker = roles.index("attack")
        defender = self.rival(fight, attacker)
        return attacker if totals[attacker] > totals[defender] else defender

    @staticmethod
    def total(fight: dict, p: int, cards: list[str] | None = None) -> int:
        defending = fight["roles"][p] == "defend"
        against = fight["controller"] is not None and fight["controller"] != p
        return sum(map(CARD_WORTH[defending, against].__getitem__, fight["cards"][p] if cards is None else cards))

    def _outcome(self, fight: dict) -> list[Event]:
        fight["outcome"] = True
        winner = self._winner(fight)
        castle = fight["castle"]
        if winner is not None:
            self.castles[castle - 1] = winner
        totals = [self.total(fight, p) if fight["revealed"][p] else None for p in range(len(fight["cards"]))]
        events = [Event("fight", {"castle": castle, "winner": winner, "totals": totals,
                                  "before": fight["controller"], "controller": self.castles[castle - 1],
                                  "conceded": fight["conceded"], "seats": list(fight["actors"])})]
        self.last_fights.append({"castle": castle, "winner": winner, "conceded": fight["conceded"],
                                 "roles": list(fight["roles"]),
                                 "pair": list(fight["pair"]),
                                 "cards": [list(c) if fight["revealed"][p] else None
                                           for p, c in enumerate(fight["cards"])]})
        if self.level == "basic":
            return events
        if fight["controller"] is not None:  # attack on an opponent's castle: the attacker's strongest card
            attacker = fight["roles"].index("attack")
            lost = C.strongest_loss(fight["cards"][attacker])
            events += self._remove(attacker, fight, [lost])
        elif winner is not None:
            loser = self.rival(fight, winner)
            fight["winner"] = winner
            if len(fight["cards"][loser]) == 1:  # his only card is his only choice (two give two choices at least)
                events += self._remove(loser, fight, list(fight["cards"][loser]))
            else:
                self.phase = "losses"
        return events

    def _remove(self, a: int, fight: dict, cards: list[str]) -> list[Event]:
        fight["cards"][a] = [c for c in fight["cards"][a] if c not in cards]
        self.removed[a] = C.order(self.removed[a] + cards)
        last = dict(self.last_fights[-1])  # a new entry: clones share the old ones (they never change)
        removed = [list(r) for r in last.get("removed", [[] for _ in fight["cards"]])]
        removed[a] = list(cards)
        last["removed"] = removed
        self.last_fights[-1] = last
        return [Event("removed", {"seat": fight["actors"][a], "castle": fight["castle"], "cards": list(cards)})]

    def _lose(self, seat: int, action: dict) -> list[Event]:
        if self.phase != "losses":
            raise IllegalAction(self._expected(seat))
        self._check_fields(action, {"cards"})
        fight = self.fights[self.fight_index]
        chosen = action["cards"]
        mine = fight["cards"][self.army_of[seat]]
        top = max(C.PRINTED[c[0]] for c in mine)
        if not self._is_loss_option(chosen, mine, top):
            raise IllegalAction(_("Remove your strongest card there, or cards worth at least {top} together (from: "
                                  "{cards}).", top=top, cards=' '.join(mine)))
        events = self._remove(self.army_of[seat], fight, chosen)
        fight["winner"] = None
        self.phase = "resolve"
        self.fight_index += 1
        return events + self._resolve()

    # ------------------------------------------------------------------ round end
    def _end_round(self) -> list[Event]:
        events: list[Event] = []
        winners = [a for a in self.armies if all(self.castles[k - 1] == a for k in self.line(a))]
        if winners:  # 5.1.1 / 7.2: all six of one's castles at a round's end (A37: with 4 players, maybe two)
            self.end, self.six_winners, self.phase = "six", winners, "over"
            return events + [Event("game_over", {"reason": "six", "winners": winners, "scores": self.scores()})]
        for fight in self.fights:
            for a in fight["pair"]:
                self.discards[a] = self.discards[a] + fight["cards"][a]  # a new list: clones share the old one
                if fight["revealed"][a]:
                    self.seen[a] = self.seen[a] + fight["cards"][a]  # a new list: clones share the old one
                elif len(self.members[a]) == 2:
                    self.mine[fight["actors"][a]].extend(fight["cards"][a])
        self.fights = []
        for a in self.armies:
            if len(self.members[a]) == 2:  # teams alternate the drawer every round (7.1)
                self.drawer[a] = 1 - self.drawer[a]
                one, two = self.members[a]  # a gift placed is gone from what the giver can follow
                for giver, holder in ((one, two), (two, one)):
                    if self.given[giver]:
                        self.given[giver] = [c for c in self.given[giver] if c in self.hands[holder]]
            events += self._refill(a)
        self.first = (self.first + 1) % len(self.members) if self.mode == "two_sets" else self.second
        self.round_no += 1
        self.last_fights = self.last_fights[-len(self.members):] if self.mode == "two_sets" else self.last_fights[-2:]
        if any(self.army_hand(a) <= 1 for a in self.armies):  # 5.1.2, A32
            self.end, self.phase = "exhaustion", "over"
            return events + [Event("game_over", {"reason": "exhaustion", "scores": self.scores(),
                                                 "unspent": [self.unspent(a) for a in self.armies]})]
        events.append(Event("round_started", {"round": self.round_no, "first": self.first,
                                              "seats": list(self.members[self.first])}))
        return events + self._start_round_phase()

    def _refill(self, a: int) -> list[Event]:
        """3.6: the army's drawer draws until the army's hands hold six; an empty deck is rebuilt from the discard
        while reshuffles last (A16)."""
        p = self.members[a][self.drawer[a]]
        drawn: list[str] = []
        reshuffled = False
        wanted = HAND - self.army_hand(a)
        deck = self.decks[a] = self.decks[a][:]  # its own copy to draw from: clones share the old one
        while len(drawn) < wanted:
            if deck:
                drawn.append(deck.pop())
            elif self.reshuffles[a] > 0 and self.discards[a]:
                deck = self.decks[a] = self.discards[a][:]
                self.discards[a] = []
                self.rng.shuffle(deck)
                self.reshuffles[a] -= 1
                self.seen[a] = []
                if len(self.members[a]) == 2:
                    for m in self.members[a]:
                        self.mine[m] = []
                if self.hero_at[a] == 1:
                    self.hero_at[a] = 2
                reshuffled = True
            else:
                break
        self.hands[p] = C.order(self.hands[p] + drawn)
        events = [Event("refilled", {"seat": p, "count": len(drawn), "reshuffled": reshuffled})]
        if drawn:
            events.append(Event("drawn", {"seat": p, "cards": C.order(drawn)}, (p,)))
        return events
