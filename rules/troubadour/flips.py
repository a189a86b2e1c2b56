"""Flipping, the one way cards leave a Troubadour stock: the standard flip, J♣'s flip until a card fits, the Q♥+K♥
flip to a named card, the clubs' extra flips, and turning the waste over into a new stock (rules 3.1, 3.3, A4).
Which of them a turn has used is its flip slot (``UNUSED``, ``STANDARD``, ``HEARTS_QK``).

A mixin of ``rules.troubadour.state.TroubadourState``; the state's fields are described there."""
from __future__ import annotations

from rules.api import Event, IllegalAction
from rules.lang import _
from rules.troubadour.cards import JC, KC, KH, QC, QH, card_of, name

UNUSED, STANDARD, HEARTS_QK = 0, 1, 2  # the turn's flip slot: no flip yet, the standard flip, the Q♥+K♥ flip


class FlipMixin:
    """The flip actions (mixed into ``TroubadourState``)."""

    def _flip_one(self, p: int, cards: list[str], events: list[Event]) -> int:
        stock = self.stock[p]
        if not stock:
            waste = self.waste[p]
            if not waste:
                return -1
            if cards:
                events.append(Event("flipped", {"seat": p, "cards": list(cards)}))
                cards.clear()
            stock[:] = waste[::-1]
            waste.clear()
            for x in stock:  # every card of the waste was flipped in public: the new stock's order is known (A4)
                self.seen[p] |= 1 << x
            self.cuts[p] = list(range(1, len(stock)))
            events.append(Event("recycled", {"seat": p, "stock": len(stock)}))
        c = stock.pop()
        cuts = self.cuts[p]
        if cuts and cuts[-1] == len(stock):
            cuts.pop()
        self.waste[p].append(c)
        cards.append(name(c))
        return c

    def _flipped(self, p: int, cards: list[str], events: list[Event]) -> None:
        if cards:
            events.append(Event("flipped", {"seat": p, "cards": list(cards)}))

    def _slot_taken(self, p: int, slot: int) -> None:
        self.flip_slot = slot
        self.extra_left = self.extra_grant(p)
        self.flips[p] += 1

    def _standard_flip(self, p: int, action: dict) -> list[Event]:
        self._fields(action, ("club_jack",), "flip")
        jack = action["club_jack"]
        if not isinstance(jack, bool):
            raise IllegalAction(_("club_jack is true or false: `flip` or `flip JC`."))
        if self.flip_slot == STANDARD:
            raise IllegalAction(_("You have already made the standard flip this turn."))
        if self.flip_slot == HEARTS_QK:
            raise IllegalAction(_("The Q♥+K♥ flip replaced the standard flip this turn."))
        if not (self.stock[p] or self.waste[p]):
            raise IllegalAction(_("Your stock and waste are both empty: there is nothing to flip."))
        if jack and not self.has(p, JC):
            raise IllegalAction(_("J♣ is not in your trio."))
        events = [Event("noble_used", {"seat": p, "noble": "JC"})] if jack else []
        cards: list[str] = []
        if jack:
            self.used |= 1 << JC
            total = len(self.stock[p]) + len(self.waste[p])
            for k in range(total):
                c = self._flip_one(p, cards, events)
                if self.fits(p, c):
                    break
        else:
            self._flip_one(p, cards, events)
        self._flipped(p, cards, events)
        self._slot_taken(p, STANDARD)
        return events

    def _hearts_qk_flip(self, p: int, action: dict) -> list[Event]:
        self._fields(action, ("named_card",), "QHKH 7S")
        if not (self.has(p, QH) and self.has(p, KH)):
            raise IllegalAction(_("The Q♥+K♥ flip needs both Q♥ and K♥ in your trio."))
        if self.used & ((1 << QH) | (1 << KH)):
            raise IllegalAction(_("Q♥ has already been used this turn."))
        if self.flip_slot != UNUSED:
            raise IllegalAction(_("The Q♥+K♥ flip replaces the standard flip: not after a flip this turn."))
        if self.facedown_count(p):
            raise IllegalAction(_("The Q♥+K♥ flip needs all your village cards face up."))
        c = card_of(action["named_card"])
        if c is None or action["named_card"] != name(c):
            raise IllegalAction(_("Name one of your building cards, e.g. `QHKH 7S`."))
        if c not in self.stock[p] and c not in self.waste[p]:
            raise IllegalAction(_("{card} is not in your stock or waste (it lies in a village or castle).",
                                  card=name(c)))
        self.used |= (1 << QH) | (1 << KH)
        events = [Event("noble_used", {"seat": p, "noble": "QH+KH", "named": name(c)})]
        cards: list[str] = []
        while True:
            if self._flip_one(p, cards, events) == c:
                break
        self._flipped(p, cards, events)
        self._slot_taken(p, HEARTS_QK)
        return events

    def _extra_flip(self, p: int, action: dict) -> list[Event]:
        self._fields(action, (), "extra")
        if self.flip_slot == UNUSED:
            raise IllegalAction(_("Extra flips (Q♣, K♣) come only after the standard flip or the Q♥+K♥ flip."))
        if self.extra_left <= 0:
            raise IllegalAction(_("You have no extra flips left this turn."))
        if not (self.stock[p] or self.waste[p]):
            raise IllegalAction(_("Your stock and waste are both empty: there is nothing to flip."))
        self.extra_left -= 1
        grant = 1 << QC if self.has(p, QC) else 0
        if self.has(p, KC) and self.extra_grant(p) - (2 if grant else 0) == 3:
            grant |= 1 << KC
        self.used |= grant
        cards: list[str] = []
        events: list[Event] = []
        self._flip_one(p, cards, events)
        self._flipped(p, cards, events)
        events[-1].data["extra_left"] = self.extra_left
        self.flips[p] += 1
        return events
