"""The 72 cards of König Artus Tafelrunde: six colours 1..11, three Knights and three Shields.

Inside the engine a card is an int: ``colour * 16 + value`` for a coloured card, 100+k for
Knight k and 110+k for Shield k. Outside it is ``red-7``, ``knight-1``, ``shield-3``. Which card wins a trick
(``trick_winner``) is read by the rules and the AI's forecasts alike.
"""
from __future__ import annotations

import re

from rules.lang import colour_aliases

COLOURS = ("red", "yellow", "green", "blue", "purple", "black")
MARKS = {"red": "🟥", "yellow": "🟨", "green": "🟩", "blue": "🟦", "purple": "🟪", "black": "⬛"}
SHORT = {"red": "R", "yellow": "Y", "green": "G", "blue": "B", "purple": "P", "black": "K"}
KNIGHT, SHIELD = 100, 110
# typed colour words: full names, first letters (black is K, or bk), a few synonyms; local aliases (issue 26): the
# Dutch, German and French names as whole words, and Dutch z(wart) — the only local initial that clashes with none
_SAME = {c: c for c in COLOURS}
COLOUR_WORDS = {**_SAME, "r": "red", "y": "yellow", "g": "green", "b": "blue", "p": "purple",
                "k": "black", "bk": "black", "blk": "black", "z": "black", **colour_aliases(_SAME)}  # violet: an alias


def coloured(colour: int, value: int) -> int:
    return colour * 16 + value


def is_super(c: int) -> bool:
    return c >= KNIGHT


def kind_of(c: int) -> int:
    """KNIGHT or SHIELD for a supertrump."""
    return SHIELD if c >= SHIELD else KNIGHT


def colour_of(c: int) -> int | None:
    return None if c >= KNIGHT else c >> 4


def value_of(c: int) -> int:
    return c & 15


def full_deck() -> list[int]:
    return [coloured(col, v) for col in range(6) for v in range(1, 12)] + \
        [KNIGHT + k for k in (1, 2, 3)] + [SHIELD + k for k in (1, 2, 3)]


def trick_winner(trick: list[list[int]], slots: list[int]) -> int:
    """Rules 3.4: the index in ``trick`` of the winning card."""
    best = None
    for i, (_, c) in enumerate(trick):
        if c >= KNIGHT and (best is None or kind_of(c) != kind_of(trick[best][1])):
            best = i
    if best is not None:
        return best
    rank = {colour: k for k, colour in enumerate(slots)}
    trumps = [(rank[c >> 4], c & 15, i) for i, (_, c) in enumerate(trick) if (c >> 4) in rank]
    if trumps:
        return max(trumps)[2]
    led = trick[0][1] >> 4
    return max((c & 15, i) for i, (_, c) in enumerate(trick) if c >> 4 == led)[1]


_NAMES = {c: (f"{COLOURS[c >> 4]}-{c & 15}" if c < KNIGHT else
              f"{'shield' if c >= SHIELD else 'knight'}-{c - kind_of(c)}") for c in full_deck()}
_CARDS = {text: c for c, text in _NAMES.items()}


def name(c: int) -> str:
    return _NAMES[c]


def card_of(text: str) -> int | None:
    """The exact notation (``red-7``, ``knight-2``) → card; None otherwise."""
    return _CARDS.get(text)


def marked(c: int) -> str:
    """For chat: ``🟥R7``, ``🐴Kn1``, ``🛡Sh2`` (colour square plus letter: colour-blind safe); without the mark
    (``short``) it is what one types, the card's one name in text, menus and errors."""
    if c >= KNIGHT:
        return ("🛡" if c >= SHIELD else "🐴") + short(c)
    colour = COLOURS[c >> 4]
    return f"{MARKS[colour]}{SHORT[colour]}{c & 15}"


def short(c: int) -> str:
    """``R7``, ``K7`` (black), ``Kn1`` (Knight 1), ``Sh2`` (Shield 2): a card's name in text; typed, it parses."""
    if c >= SHIELD:
        return f"Sh{c - SHIELD}"
    if c >= KNIGHT:
        return f"Kn{c - KNIGHT}"
    return f"{SHORT[COLOURS[c >> 4]]}{c & 15}"


_TYPED = re.compile(r"^([a-zäöüß]+)[\s\-]*(\d{1,2})?$")


def parse_typed(text: str) -> tuple[str, int | None] | None:
    """A typed card: ('red', 7), ('knight', None|k), ('shield', None|k); None if unreadable."""
    match = _TYPED.match(text.strip().lower())
    if not match:
        return None
    word, number = match.group(1), match.group(2)
    if word in ("knight", "kn", "ritter", "kni", "ridder", "chevalier"):
        return "knight", int(number) if number else None
    if word in ("shield", "sh", "schild", "shi", "bouclier"):
        return "shield", int(number) if number else None
    colour = COLOUR_WORDS.get(word)
    if colour is None or number is None:
        return None
    return colour, int(number)
