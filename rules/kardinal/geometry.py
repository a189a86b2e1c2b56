"""Cells of the unbounded grid as ints, their labels (``M13`` is the church tower) and the pieces' kinds/colours."""
from __future__ import annotations

import re
from functools import lru_cache

W = 1024  # cell = (x + OFF) * W + (y + OFF)
OFF = 512
LIMIT = 400  # coordinates beyond this are never on the table
EAST, WEST, NORTH, SOUTH = W, -W, 1, -1
NEIGHBOURS = (NORTH, EAST, SOUTH, WEST)

COL0 = 12  # x = 0 is column M
ROW0 = 13  # y = 0 is row 13

HOUSE, TOWER, COURT = 0, 1, 2
KINDS = ("house", "tower", "courtyard")
COLOURS = ("red", "yellow", "green", "blue")
LETTER = "rygb"
MARKS = ("🟥", "🟨", "🟩", "🟦")
KIND_LETTER = "HTC"


def cell(x: int, y: int) -> int:
    return (x + OFF) * W + (y + OFF)


def xy(c: int) -> tuple[int, int]:
    return c // W - OFF, c % W - OFF


DOM_TOWER = cell(0, 0)
DOM_NAVE = cell(1, 0)
DOM_CELLS = (DOM_TOWER, DOM_NAVE)
DOM_NEIGHBOURS = frozenset(c + d for c in DOM_CELLS for d in NEIGHBOURS) - set(DOM_CELLS)


def col_label(x: int) -> str:
    i = x + COL0
    if 0 <= i < 26:
        return chr(65 + i)
    if i >= 26:
        return "Z" * (i // 26) + chr(65 + i % 26)
    j = -i - 1
    return "A" * (j // 26 + 1) + chr(65 + 25 - j % 26)


def _col_index(letters: str) -> int:
    if len(letters) == 1:
        return ord(letters) - 65
    prefix, r = letters[:-1], ord(letters[-1]) - 65
    if set(prefix) == {"Z"}:
        return 26 * len(prefix) + r
    if set(prefix) == {"A"}:
        return -(26 * (len(prefix) - 1) + 25 - r) - 1
    return 10 ** 6


@lru_cache(maxsize=8192)
def label(c: int) -> str:
    x, y = xy(c)
    return f"{col_label(x)}{y + ROW0}"


_LABEL = re.compile(r"^([A-Z]{1,6})(-?\d{1,4})$")


def parse_label(text) -> int | None:
    """A label (case-insensitive) → cell, or None if it is no cell near the town."""
    return _parse_label(text) if isinstance(text, str) else None


@lru_cache(maxsize=8192)
def _parse_label(text: str) -> int | None:
    m = _LABEL.match(text.strip().upper())
    if not m:
        return None
    x = _col_index(m.group(1)) - COL0
    y = int(m.group(2)) - ROW0
    if abs(x) > LIMIT or abs(y) > LIMIT:
        return None
    return cell(x, y)


def sort_key(c: int) -> tuple[int, int]:
    x, y = xy(c)
    return x, y


def building_text(colour: int, kind: int, other: int | None = None) -> str:
    text = f"{COLOURS[colour]} {KINDS[kind]}"
    return text if other is None else f"{text} {label(other)}"


_BUILDING = re.compile(r"^(red|yellow|green|blue) (house|tower|courtyard)(?: ([A-Za-z]{1,6}-?\d{1,4}))?$")


def parse_building(text) -> tuple[int, int, int | None] | None:
    """``red house`` / ``blue courtyard N14`` → (colour, kind, other cell or None); None if malformed."""
    return _parse_building(text) if isinstance(text, str) else None


@lru_cache(maxsize=8192)
def _parse_building(text: str) -> tuple[int, int, int | None] | None:
    m = _BUILDING.match(text.strip().lower())
    if not m:
        return None
    kind = KINDS.index(m.group(2))
    other = m.group(3)
    if (kind == COURT) != (other is not None):
        return None
    other_cell = parse_label(other) if other else None
    if other and other_cell is None:
        return None
    return COLOURS.index(m.group(1)), kind, other_cell
