"""The 22-card army of one side: a hero, two 5s, three 4s, three 3s, the trebuchet (3), eight 2s and four
archers (2). Cards are ids (``H``, ``5a``, ``4c``, ``T``, ``2h``, ``A3``); the first character is the kind."""
from __future__ import annotations

from rules.lang import N_

KINDS = "H543T2A"  # strongest first; the order hands and card lists are kept in
PRINTED = {"H": 6, "5": 5, "4": 4, "3": 3, "T": 3, "2": 2, "A": 2}  # H: above 5 (it has no sum value, A5)
SPECIAL = {"T", "A"}
NAMES = {"H": N_("hero"), "5": "5", "4": "4", "3": "3", "T": N_("trebuchet"), "2": "2", "A": N_("archer")}
SIDE_NAMES = {"E": "English", "F": "French"}
ARCHER_NAMES = {"E": "archer", "F": "crossbowman"}

ARMY = ("H", "5a", "5b", "4a", "4b", "4c", "3a", "3b", "3c", "T",
        "2a", "2b", "2c", "2d", "2e", "2f", "2g", "2h", "A1", "A2", "A3", "A4")
_ORDER = {card: i for i, card in enumerate(ARMY)}


def kind(card: str) -> str:
    return card[0]


def order(cards) -> list[str]:
    """Cards in army order (strongest kind first)."""
    return sorted(cards, key=_ORDER.__getitem__)


def is_card(text: str) -> bool:
    return text in _ORDER


def value(card: str, defending: bool, against_opponent: bool) -> int:
    """Combat value (4.2): the trebuchet counts 5 attacking an opponent's castle, an archer 4 defending its
    owner's castle; the hero adds nothing (it decides the fight instead)."""
    k = card[0]
    if k == "H":
        return 0
    if k == "T":
        return 5 if against_opponent and not defending else 3
    if k == "A":
        return 4 if defending else 2
    return PRINTED[k]


_WORTH = {(defending, against): {k: value(k, defending, against) for k in KINDS}
          for defending in (False, True) for against in (False, True)}  # each kind's combat value in each role
CARD_WORTH = {role: {card: worth[card[0]] for card in ARMY} for role, worth in _WORTH.items()}  # per card id


def strongest_loss(cards) -> str:
    """The card an attacker of an opponent's castle loses (4.3.3, A21): hero first, then by printed value; among
    equal printed values the plain card before the trebuchet/archer."""
    return max(cards, key=lambda c: (PRINTED[c[0]], c[0] not in SPECIAL, -_ORDER[c]))


def troop_sets(size: int) -> list[tuple[str, ...]]:
    """Every choice of ``size`` troop cards (no hero) by kind, strongest kinds first: what an expert army may set
    aside (163 choices of 5; by id, 21 choose 5 = 20349 would play the same)."""
    if size not in _TROOP_SETS:
        counts = [(k, sum(1 for c in ARMY if c[0] == k)) for k in KINDS[1:]]

        def sets(i: int, left: int) -> list[tuple[str, ...]]:
            if left == 0:
                return [()]
            if i == len(counts):
                return []
            k, most = counts[i]
            return [(k,) * n + rest for n in range(min(most, left), -1, -1) for rest in sets(i + 1, left - n)]

        _TROOP_SETS[size] = sets(0, size)
    return _TROOP_SETS[size]


_TROOP_SETS: dict[int, list[tuple[str, ...]]] = {}


def label(card: str) -> str:
    """For chat: ``H``, ``5``, ``T``, ``A`` — the kind; ids only matter to tell equal cards apart."""
    return card[0]
