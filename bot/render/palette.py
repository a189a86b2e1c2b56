"""The pictures' colours and their one fixed palette.

Colours are Okabe–Ito (distinguishable with every common colour-vision deficiency) and each is also drawn with a
letter. Every picture is a palette image on ``PALETTE``: the colours below, the anti-aliasing steps of text on each
of them, and the dimmed colours — fixed at import, so nothing is quantized when a picture is encoded and the same
view gives the same bytes in every process.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image

BACKGROUND = (246, 241, 230)
INK = (38, 34, 30)
MUTED = (120, 112, 100)
PANEL = (234, 226, 210)
HIGHLIGHT = (255, 196, 0)
WHITE = (255, 255, 255)
CARD_BACK = (92, 70, 130)
CARD_BACK_LINE = (150, 130, 190)
LAST = (196, 20, 110)  # the frame of what the last action changed (magenta: apart from every seat and card colour)

# Okabe–Ito colours: distinguishable with every common colour-vision deficiency; each is also drawn with a letter
COLOURS = {
    "red": (213, 94, 0),
    "yellow": (240, 228, 66),
    "green": (0, 158, 115),
    "blue": (0, 114, 178),
    "purple": (204, 121, 167),
    "black": (45, 45, 45),
    "orange": (230, 159, 0),
    "sky": (86, 180, 233),
}
LETTERS = {"red": "R", "yellow": "Y", "green": "G", "blue": "B", "purple": "P", "black": "K"}
SUIT_RED = (200, 30, 40)
SUITS = {"S": ("♠", INK), "H": ("♥", SUIT_RED), "D": ("♦", SUIT_RED), "C": ("♣", INK)}
# seats (pawns, name tags): distinct hues in a fixed order, each with the seat's number on it
SEAT_COLOURS = [(0, 114, 178), (213, 94, 0), (0, 158, 115), (204, 121, 167), (230, 159, 0), (86, 180, 233)]

# the other colours the boards use (kept here so that the palette is complete and fixed)
EXTRA = [
    (205, 200, 190),  # Guyenne: a neutral castle
    (150, 146, 140), (150, 20, 60), (120, 170, 120), (238, 232, 218), (190, 180, 160),  # Kardinal
    (176, 176, 176), (222, 196, 150), (240, 200, 60), (90, 80, 70),  # König Artus
]


def text_colour_on(fill: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on ``fill``."""
    r, g, b = fill[:3]
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else WHITE


def blend(a, b, t: float) -> tuple[int, int, int]:
    """``t`` of ``a`` over ``1 - t`` of ``b``."""
    return tuple(round(x * t + y * (1 - t)) for x, y in zip(a, b))


STEPS = (0.25, 0.5, 0.75)  # anti-aliasing levels of text edges
DIM = 0.45  # a dimmed card keeps this much of its colour (the rest is the background)


def _build_palette() -> list[tuple[int, int, int]]:
    base = [BACKGROUND, INK, MUTED, PANEL, HIGHLIGHT, WHITE, CARD_BACK, CARD_BACK_LINE, LAST, SUIT_RED,
            *COLOURS.values(), *SEAT_COLOURS, *EXTRA]
    pairs = [(text_colour_on(bg), bg) for bg in base]
    pairs += [(fg, bg) for fg in (INK, MUTED, SUIT_RED) for bg in (BACKGROUND, PANEL, WHITE)]
    pairs += [(MUTED, (238, 232, 218)), ((120, 170, 120), (238, 232, 218)), (WHITE, LAST), (INK, HIGHLIGHT),
              (MUTED, (222, 196, 150)), (MUTED, (240, 200, 60)), (blend(SUIT_RED, PANEL, 0.5), PANEL)]
    out: list[tuple[int, int, int]] = []
    for colour in base + [blend(fg, bg, t) for fg, bg in pairs for t in STEPS] + \
            [blend(c, BACKGROUND, DIM) for c in base]:
        if colour not in out:
            out.append(colour)
    assert len(out) <= 256, len(out)
    return out


PALETTE = _build_palette()
_INDEX = {c: i for i, c in enumerate(PALETTE)}
PALETTE_BYTES = bytes(v for c in PALETTE for v in c) + bytes(3 * (256 - len(PALETTE)))
_PALETTE_IMAGE = Image.new("P", (1, 1))
_PALETTE_IMAGE.putpalette(bytes(v for c in PALETTE for v in c))  # quantizing picks among these only


@lru_cache(maxsize=4096)
def ink(colour) -> int:
    """The palette index of ``colour`` (an index passes through; an unknown colour gets the nearest)."""
    if isinstance(colour, int):
        return colour
    colour = tuple(colour[:3])
    if colour in _INDEX:
        return _INDEX[colour]
    return min(range(len(PALETTE)), key=lambda i: sum((a - b) ** 2 for a, b in zip(PALETTE[i], colour)))


def rgb(index: int) -> tuple[int, int, int]:
    return PALETTE[index] if index < len(PALETTE) else (0, 0, 0)


def to_palette(image: Image.Image) -> Image.Image:
    """An RGB image on the fixed palette (each pixel the nearest colour, no dithering)."""
    return image.convert("RGB").quantize(palette=_PALETTE_IMAGE, dither=Image.Dither.NONE)
