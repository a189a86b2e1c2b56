"""The spade attacks of Troubadour, the only actions that touch an opponent's cards: J♠ clears a village, Q♠ takes
each village's top, J♠+Q♠+K♠ destroys a castle, each blocked by the matching diamond; the taken cards go shuffled
under the victim's stock, and what the public saw of them is remembered for ``determinize`` (rules 3.3, A37).

A mixin of ``rules.troubadour.state.TroubadourState``; the state's fields are described there."""
from __future__ import annotations

from rules.api import Event, IllegalAction
from rules.lang import _
from rules.troubadour.cards import FD, JD, JS, KD, NOBLES, QD, QS, SPADES_TRIO, SUITS, name
from rules.troubadour.seats import seat_name


class AttackMixin:
    """The attack actions (mixed into ``TroubadourState``)."""

    def _target(self, p: int, action: dict) -> int:
        t = action["target"]
        if isinstance(t, str) and len(t) >= 2 and t[0] == "P" and t[1:].isdigit():
            o = int(t[1:]) - 1
            if 0 <= o < self.n and o != p:
                return o
        raise IllegalAction(_("The target is an opponent like P2 (player number)."))

    def _spade_check(self, p: int, noble: int) -> None:
        label = NOBLES[noble]
        if not self.has(p, noble):
            raise IllegalAction(_("{label} is not in your trio.", label=label))
        if self.used >> noble & 1:
            raise IllegalAction(_("{label} has already been used this turn (alone or in the J♠+Q♠+K♠ attack).",
                                  label=label))

    def _under_stock(self, victim: int, cards: list[int]) -> None:
        """3.3: shuffled under the stock; the face-up ones stay known (by identity, not by place in the block)."""
        self._prog[victim] = None
        for c in cards:
            if c < FD:
                self.seen[victim] |= 1 << c
        cards = [c & ~FD for c in cards]
        self._rng().shuffle(cards)
        k = len(cards)
        if self.stock[victim]:
            self.cuts[victim] = [k] + [x + k for x in self.cuts[victim]]
        self.stock[victim][:0] = cards  # the stock's bottom is the list's start

    def _spade_jack(self, p: int, action: dict) -> list[Event]:
        self._fields(action, ("target", "village"), "JS P2 V3")
        self._spade_check(p, JS)
        o = self._target(p, action)
        v = self._village(action["village"])
        if self.has(o, JD):
            raise IllegalAction(_("{player} is protected by J♦ this round.", player=seat_name(o)))
        village = self.villages[o][v]
        if not village:
            raise IllegalAction(_("V{village} of {player} is empty: nothing to attack.",
                                  village=v + 1, player=seat_name(o)))
        self.used |= 1 << JS
        known = [name(x) for x in village if not x & FD]
        hidden = sum(1 for x in village if x & FD)
        taken = village[:]
        village.clear()
        self._under_stock(o, taken)
        return [Event("attacked", {"seat": p, "noble": "JS", "target": o, "village": v + 1, "cards": known,
                                   "hidden": hidden})]

    def _spade_queen(self, p: int, action: dict) -> list[Event]:
        self._fields(action, ("target",), "QS P2")
        self._spade_check(p, QS)
        o = self._target(p, action)
        if self.has(o, QD):
            raise IllegalAction(_("{player} is protected by Q♦ this round.", player=seat_name(o)))
        if not any(self.villages[o]):
            raise IllegalAction(_("All villages of {player} are empty: nothing to attack.", player=seat_name(o)))
        self.used |= 1 << QS
        taken = [v.pop() for v in self.villages[o] if v]
        events = [Event("attacked", {"seat": p, "noble": "QS", "target": o, "cards": [name(c) for c in taken],
                                     "hidden": 0})]
        for j in range(5):
            self._after_removal(o, j, events)
        self._under_stock(o, taken)
        return events

    def _spade_trio(self, p: int, action: dict) -> list[Event]:
        self._fields(action, ("target", "suit"), "spades P2 H")
        if self.trios[p] != SPADES_TRIO:
            raise IllegalAction(_("The J♠+Q♠+K♠ attack needs the trio J♠ Q♠ K♠."))
        if self.used & SPADES_TRIO:
            raise IllegalAction(_("J♠ or Q♠ has already been used this turn: the combination is no longer possible."))
        o = self._target(p, action)
        suit = action["suit"]
        if not isinstance(suit, str) or suit not in SUITS or len(suit) != 1:
            raise IllegalAction(_("Name the castle's suit: S, H, D or C, e.g. `spades P2 H`."))
        s = SUITS.index(suit)
        if self.has(o, KD):
            raise IllegalAction(_("{player} is protected by K♦ this round.", player=seat_name(o)))
        top = self.castles[o][s]
        if not top:
            raise IllegalAction(_("{player} has no {suit} castle.", player=seat_name(o), suit=suit))
        self.used |= SPADES_TRIO
        taken = [s * 10 + r for r in range(top)]
        self.castles[o][s] = 0
        self._under_stock(o, taken)
        return [Event("attacked", {"seat": p, "noble": "JS+QS+KS", "target": o, "suit": suit,
                                   "cards": [name(c) for c in taken], "hidden": 0})]
