"""Flipping, the one way cards leave a Troubadour stock: the standard flip, J♣'s flip until a card fits, the Q♥+K♥
flip to a named card, the clubs' extra flips, and turning the waste over into a new stock (rules 3.1, 3.3, A4).
Which of them a turn has used is its flip slot (``UNUSED``, ``STANDARD``, ``HEARTS_QK``).

Plain functions of the state (``rules.troubadour.state.TroubadourState``, whose fields are described there); an
action's function is the state's ``TURN_HANDLERS`` entry for it."""
from __future__ import annotations

from rules.api import Event, IllegalAction
from rules.lang import _
from rules.troubadour.cards import JC, KC, KH, QC, QH, card_of, name
from rules.troubadour import checks

UNUSED, STANDARD, HEARTS_QK = 0, 1, 2  # the turn's flip slot: no flip yet, the standard flip, the Q♥+K♥ flip


def flip_one(state, p: int, cards: list[str], events: list[Event]) -> int:
    stock = state.stock[p]
    if not stock:
        waste = state.waste[p]
        if not waste:
            return -1
        if cards:
            events.append(Event("flipped", {"seat": p, "cards": list(cards)}))
            cards.clear()
        stock[:] = waste[::-1]
        waste.clear()
        for x in stock:  # every card of the waste was flipped in public: the new stock's order is known (A4)
            state.seen[p] |= 1 << x
        state.cuts[p] = list(range(1, len(stock)))
        events.append(Event("recycled", {"seat": p, "stock": len(stock)}))
    c = stock.pop()
    cuts = state.cuts[p]
    if cuts and cuts[-1] == len(stock):
        cuts.pop()
    state.waste[p].append(c)
    cards.append(name(c))
    return c


def flipped(state, p: int, cards: list[str], events: list[Event]) -> None:
    if cards:
        events.append(Event("flipped", {"seat": p, "cards": list(cards)}))


def slot_taken(state, p: int, slot: int) -> None:
    state.flip_slot = slot
    state.extra_left = state.extra_grant(p)
    state.flips[p] += 1


def standard_flip(state, p: int, action: dict) -> list[Event]:
    checks.fields(action, ("club_jack",), "flip")
    jack = action["club_jack"]
    if not isinstance(jack, bool):
        raise IllegalAction(_("club_jack is true or false: `flip` or `flip JC`."))
    if state.flip_slot == STANDARD:
        raise IllegalAction(_("You have already made the standard flip this turn."))
    if state.flip_slot == HEARTS_QK:
        raise IllegalAction(_("The Q♥+K♥ flip replaced the standard flip this turn."))
    if not (state.stock[p] or state.waste[p]):
        raise IllegalAction(_("Your stock and waste are both empty: there is nothing to flip."))
    if jack and not state.has(p, JC):
        raise IllegalAction(_("J♣ is not in your trio."))
    events = [Event("noble_used", {"seat": p, "noble": "JC"})] if jack else []
    cards: list[str] = []
    if jack:
        state.used |= 1 << JC
        total = len(state.stock[p]) + len(state.waste[p])
        for k in range(total):
            c = flip_one(state, p, cards, events)
            if state.fits(p, c):
                break
    else:
        flip_one(state, p, cards, events)
    flipped(state, p, cards, events)
    slot_taken(state, p, STANDARD)
    return events


def hearts_qk_flip(state, p: int, action: dict) -> list[Event]:
    checks.fields(action, ("named_card",), "QHKH 7S")
    if not (state.has(p, QH) and state.has(p, KH)):
        raise IllegalAction(_("The Q♥+K♥ flip needs both Q♥ and K♥ in your trio."))
    if state.used & ((1 << QH) | (1 << KH)):
        raise IllegalAction(_("Q♥ has already been used this turn."))
    if state.flip_slot != UNUSED:
        raise IllegalAction(_("The Q♥+K♥ flip replaces the standard flip: not after a flip this turn."))
    if state.facedown_count(p):
        raise IllegalAction(_("The Q♥+K♥ flip needs all your village cards face up."))
    c = card_of(action["named_card"])
    if c is None or action["named_card"] != name(c):
        raise IllegalAction(_("Name one of your building cards, e.g. `QHKH 7S`."))
    if c not in state.stock[p] and c not in state.waste[p]:
        raise IllegalAction(_("{card} is not in your stock or waste (it lies in a village or castle).",
                              card=name(c)))
    state.used |= (1 << QH) | (1 << KH)
    events = [Event("noble_used", {"seat": p, "noble": "QH+KH", "named": name(c)})]
    cards: list[str] = []
    while True:
        if flip_one(state, p, cards, events) == c:
            break
    flipped(state, p, cards, events)
    slot_taken(state, p, HEARTS_QK)
    return events


def extra_flip(state, p: int, action: dict) -> list[Event]:
    checks.fields(action, (), "extra")
    if state.flip_slot == UNUSED:
        raise IllegalAction(_("Extra flips (Q♣, K♣) come only after the standard flip or the Q♥+K♥ flip."))
    if state.extra_left <= 0:
        raise IllegalAction(_("You have no extra flips left this turn."))
    if not (state.stock[p] or state.waste[p]):
        raise IllegalAction(_("Your stock and waste are both empty: there is nothing to flip."))
    state.extra_left -= 1
    grant = 1 << QC if state.has(p, QC) else 0
    if state.has(p, KC) and state.extra_grant(p) - (2 if grant else 0) == 3:
        grant |= 1 << KC
    state.used |= grant
    cards: list[str] = []
    events: list[Event] = []
    flip_one(state, p, cards, events)
    flipped(state, p, cards, events)
    events[-1].data["extra_left"] = state.extra_left
    state.flips[p] += 1
    return events


