"""The spade attacks of Troubadour, the only actions that touch an opponent's cards: J♠ clears a village, Q♠ takes
each village's top, J♠+Q♠+K♠ destroys a castle, each blocked by the matching diamond; the taken cards go shuffled
under the victim's stock, and what the public saw of them is remembered for ``determinize`` (rules 3.3, A37).

Plain functions of the state (``rules.troubadour.state.TroubadourState``, whose fields are described there); an
action's function is the state's ``TURN_HANDLERS`` entry for it."""
from __future__ import annotations

from rules.api import Event, IllegalAction
from rules.lang import _
from rules.troubadour import building, checks
from rules.troubadour.cards import FD, JD, JS, KD, NOBLES, QD, QS, SPADES_TRIO, SUITS, name
from rules.troubadour.seats import seat_name


def target(state, p: int, action: dict) -> int:
    t = action["target"]
    if isinstance(t, str) and len(t) >= 2 and t[0] == "P" and t[1:].isdigit():
        o = int(t[1:]) - 1
        if 0 <= o < state.n and o != p:
            return o
    raise IllegalAction(_("The target is an opponent like P2 (player number)."))


def spade_check(state, p: int, noble: int) -> None:
    label = NOBLES[noble]
    if not state.has(p, noble):
        raise IllegalAction(_("{label} is not in your trio.", label=label))
    if state.used >> noble & 1:
        raise IllegalAction(_("{label} has already been used this turn (alone or in the J♠+Q♠+K♠ attack).",
                              label=label))


def under_stock(state, victim: int, cards: list[int]) -> None:
    """3.3: shuffled under the stock; the face-up ones stay known (by identity, not by place in the block)."""
    state._prog[victim] = None
    for c in cards:
        if c < FD:
            state.seen[victim] |= 1 << c
    cards = [c & ~FD for c in cards]
    state._rng().shuffle(cards)
    k = len(cards)
    if state.stock[victim]:
        state.cuts[victim] = [k] + [x + k for x in state.cuts[victim]]
    state.stock[victim][:0] = cards  # the stock's bottom is the list's start


def spade_jack(state, p: int, action: dict) -> list[Event]:
    checks.fields(action, ("target", "village"), "JS P2 V3")
    spade_check(state, p, JS)
    o = target(state, p, action)
    v = checks.village(action["village"])
    if state.has(o, JD):
        raise IllegalAction(_("{player} is protected by J♦ this round.", player=seat_name(o)))
    village = state.villages[o][v]
    if not village:
        raise IllegalAction(_("V{village} of {player} is empty: nothing to attack.",
                              village=v + 1, player=seat_name(o)))
    state.used |= 1 << JS
    known = [name(x) for x in village if not x & FD]
    hidden = sum(1 for x in village if x & FD)
    taken = village[:]
    village.clear()
    under_stock(state, o, taken)
    return [Event("attacked", {"seat": p, "noble": "JS", "target": o, "village": v + 1, "cards": known,
                               "hidden": hidden})]


def spade_queen(state, p: int, action: dict) -> list[Event]:
    checks.fields(action, ("target",), "QS P2")
    spade_check(state, p, QS)
    o = target(state, p, action)
    if state.has(o, QD):
        raise IllegalAction(_("{player} is protected by Q♦ this round.", player=seat_name(o)))
    if not any(state.villages[o]):
        raise IllegalAction(_("All villages of {player} are empty: nothing to attack.", player=seat_name(o)))
    state.used |= 1 << QS
    taken = [v.pop() for v in state.villages[o] if v]
    events = [Event("attacked", {"seat": p, "noble": "QS", "target": o, "cards": [name(c) for c in taken],
                                 "hidden": 0})]
    for j in range(5):
        building.after_removal(state, o, j, events)
    under_stock(state, o, taken)
    return events


def spade_trio(state, p: int, action: dict) -> list[Event]:
    checks.fields(action, ("target", "suit"), "spades P2 H")
    if state.trios[p] != SPADES_TRIO:
        raise IllegalAction(_("The J♠+Q♠+K♠ attack needs the trio J♠ Q♠ K♠."))
    if state.used & SPADES_TRIO:
        raise IllegalAction(_("J♠ or Q♠ has already been used this turn: the combination is no longer possible."))
    o = target(state, p, action)
    suit = action["suit"]
    if not isinstance(suit, str) or suit not in SUITS or len(suit) != 1:
        raise IllegalAction(_("Name the castle's suit: S, H, D or C, e.g. `spades P2 H`."))
    s = SUITS.index(suit)
    if state.has(o, KD):
        raise IllegalAction(_("{player} is protected by K♦ this round.", player=seat_name(o)))
    top = state.castles[o][s]
    if not top:
        raise IllegalAction(_("{player} has no {suit} castle.", player=seat_name(o), suit=suit))
    state.used |= SPADES_TRIO
    taken = [s * 10 + r for r in range(top)]
    state.castles[o][s] = 0
    under_stock(state, o, taken)
    return [Event("attacked", {"seat": p, "noble": "JS+QS+KS", "target": o, "suit": suit,
                               "cards": [name(c) for c in taken], "hidden": 0})]


