"""Cards of one Troubadour deck: 40 building cards (A–10 of four suits) and 12 nobles (J, Q, K).

A building card is an int ``suit * 10 + rank - 1`` (suits in the order S H D C, ranks 1..10, A = 1); a face-down
card in a village is the same int plus ``FD``. A noble is its turn-order rank 0..11 (JS QS KS JD QD KD JC QC KC JH
QH KH, rules 4.9); a trio is a bitmask of three nobles.
"""
from __future__ import annotations

import re

SUITS = "SHDC"
SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANKS = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
FD = 64  # flag of a face-down village card

NOBLES = ["JS", "QS", "KS", "JD", "QD", "KD", "JC", "QC", "KC", "JH", "QH", "KH"]
NOBLE_INDEX = {n: i for i, n in enumerate(NOBLES)}
JS, QS, KS, JD, QD, KD, JC, QC, KC, JH, QH, KH = range(12)
SPADES_TRIO = (1 << JS) | (1 << QS) | (1 << KS)
FACES = "JQK"

ALL_CARDS = list(range(40))


def suit_of(c: int) -> int:
    return c // 10


def rank_of(c: int) -> int:
    return c % 10 + 1


def is_red(c: int) -> bool:
    return 10 <= c < 30


def card(rank: int, suit: int) -> int:
    return suit * 10 + rank - 1


def name(c: int) -> str:
    """``7H``, ``10C``, ``AS``."""
    return RANKS[c % 10 + 1] + SUITS[c // 10]


def pretty(c: int) -> str:
    """``7♥``."""
    return RANKS[c % 10 + 1] + SYMBOL[SUITS[c // 10]]


_CARD = re.compile(r"^(a|10|t|[2-9]|1)([shdc])$")
_SUIT_WORD = {"♠": "s", "♥": "h", "♦": "d", "♣": "c", "♤": "s", "♡": "h", "♢": "d", "♧": "c"}


def normal(text: str) -> str:
    text = text.strip().lower()
    if text.isascii():
        return text
    for k, v in _SUIT_WORD.items():
        text = text.replace(k, v)
    return text


def card_of(text) -> int | None:
    """A building card from ``7H`` / ``10c`` / ``TC`` / ``7♥``; None if it is not one."""
    if not isinstance(text, str):
        return None
    exact = CARD_INDEX.get(text)
    if exact is not None:
        return exact
    m = _CARD.match(normal(text))
    if not m:
        return None
    r = m.group(1)
    rank = 1 if r in ("a", "1") else 10 if r in ("10", "t") else int(r)
    return card(rank, "shdc".index(m.group(2)))


def noble_of(text) -> int | None:
    if not isinstance(text, str):
        return None
    return NOBLE_INDEX.get(normal(text).upper())


def noble_pretty(n: int) -> str:
    code = NOBLES[n]
    return code[0] + SYMBOL[code[1]]


def trio_list(mask: int) -> list[str]:
    return [NOBLES[i] for i in range(12) if mask >> i & 1]


def rps_example(trio: list[str] | None) -> str:
    """A tie-break noble to propose as an example: ``QH``, or the first noble outside ``trio`` when QH is in it
    (the example is a move the reader may make)."""
    return next(n for n in ("QH", "KH", "JH", "QC", "KC") if n not in (trio or []))


def trio_key(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(12) if mask >> i & 1)


def fits_on(c: int, top: int) -> bool:
    """Village rule: ``top`` (face up) is one rank higher than ``c`` and of the opposite colour."""
    return top % 10 == c % 10 + 1 and (10 <= top < 30) != (10 <= c < 30)


# FITS[c][t]: building card c may lie on face-up card t in a village
FITS = [[fits_on(c, t) for t in range(40)] for c in range(40)]

NAMES = [name(c) for c in range(40)]
CARD_INDEX = {n: c for c, n in enumerate(NAMES)}
