"""Cards of Mit List und Tücke: four colours, values 1..21, the deck depending on the player count.

Inside the engine a card is an int ``colour * 32 + value`` (fast to copy and compare);
outside it is the notation ``R10``, ``Y16``.
"""
from __future__ import annotations

COLOURS = "RGBY"
COLOUR_NAMES = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}
COLOUR_MARKS = {"R": "🟥", "G": "🟩", "B": "🟦", "Y": "🟨"}  # colour-blind safe: always shown with the letter

# highest value per colour, by player count (rules 1.2)
TOP_VALUES = {4: (14, 14, 14, 14), 5: (18, 17, 17, 18), 6: (21, 21, 21, 21)}
# H = cards the high-trump player picks, L = cards the low player receives (rules 1.3)
PICK_COUNT = {4: 2, 5: 3, 6: 3}
REST_COUNT = {4: 2, 5: 2, 6: 3}
HAND_SIZE = 14


def card(colour: int, value: int) -> int:
    return colour * 32 + value


def colour_of(c: int) -> int:
    return c >> 5


def value_of(c: int) -> int:
    return c & 31


def deck(num_players: int) -> list[int]:
    return [card(col, v) for col, top in enumerate(TOP_VALUES[num_players]) for v in range(1, top + 1)]


_NAMES = {card(col, v): f"{COLOURS[col]}{v}" for col in range(4) for v in range(1, 22)}
_CARDS = {text: c for c, text in _NAMES.items()}


def name(c: int) -> str:
    return _NAMES[c]


def parse_card(text: str) -> int | None:
    """``r10`` / ``R10`` → the card int, None if it is not a card's notation (the deck is not checked)."""
    found = _CARDS.get(text)
    if found is None:
        found = _CARDS.get(text.strip().upper().replace("R0", "R").replace("G0", "G").replace("B0", "B")
                           .replace("Y0", "Y"))
    return found


def marked(c: int) -> str:
    """A card for chat text: colour square plus notation, e.g. ``🟥R10``."""
    return COLOUR_MARKS[COLOURS[colour_of(c)]] + name(c)
