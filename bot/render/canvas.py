"""Drawing toolkit for board pictures (Pillow): fonts, a colour-blind-safe palette, cards, and a layout record.

Every picture is drawn from a view only. ``Canvas.mark`` records where each element landed (name → box) so tests
can look at the pixels that matter, and ``Canvas.png`` encodes the result.
"""
from __future__ import annotations

import io
import os
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

WIDTH = 960  # phone-sized pictures are shown about 400 px wide: 960 keeps 12 px text readable at that scale

BACKGROUND = (246, 241, 230)
INK = (38, 34, 30)
MUTED = (120, 112, 100)
PANEL = (234, 226, 210)
HIGHLIGHT = (255, 196, 0)
WHITE = (255, 255, 255)
CARD_BACK = (92, 70, 130)

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


def text_colour_on(fill: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on ``fill``."""
    r, g, b = fill[:3]
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else WHITE


@lru_cache(maxsize=None)
def _font_dir() -> str:
    import matplotlib  # ships the DejaVu fonts (with ♠♥♦♣ and ⚔), so no system font is needed

    return os.path.join(matplotlib.get_data_path(), "fonts", "ttf")


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(os.path.join(_font_dir(), name), size)


Box = tuple[int, int, int, int]


class Canvas:
    """An RGB image being drawn, with the boxes of what was drawn where."""

    def __init__(self, height: int, width: int = WIDTH):
        self.image = Image.new("RGB", (width, height), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        self.layout: dict[str, Box] = {}
        self.width = width

    def mark(self, name: str, box: Box) -> None:
        self.layout[name] = tuple(int(v) for v in box)

    def text(self, xy: tuple[float, float], text: str, size: int = 18, bold: bool = False, fill=INK,
             anchor: str = "la", measure: bool = False) -> Box | None:
        """Draw ``text``; with ``measure`` also return its box (measuring costs as much as drawing)."""
        self.draw.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor)
        return self.draw.textbbox(xy, text, font=font(size, bold), anchor=anchor) if measure else None

    def text_width(self, text: str, size: int = 18, bold: bool = False) -> int:
        return int(self.draw.textlength(text, font=font(size, bold)))

    def heading(self, y: int, text: str, size: int = 20) -> int:
        """A section heading at ``y``; returns the y below it."""
        self.text((20, y), text, size, bold=True)
        return y + size + 12

    def panel(self, box: Box, fill=PANEL, outline=None, radius: int = 10) -> None:
        self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=3 if outline else 1)

    def card(self, name: str, x: int, y: int, rank: str, colour: tuple[int, int, int] | None, letter: str = "",
             w: int = 62, h: int = 88, highlight: bool = False, dim: bool = False) -> Box:
        """A face-up card (``colour`` fills its top band, ``letter`` marks the colour for colour-blind eyes), or a
        card back when ``colour`` is None. Recorded under ``name``; the band's colour is at the box's top middle."""
        box = (x, y, x + w, y + h)
        if highlight:
            self.draw.rounded_rectangle((x - 4, y - 4, x + w + 4, y + h + 4), radius=10, fill=HIGHLIGHT)
        if colour is None:
            self.draw.rounded_rectangle(box, radius=8, fill=CARD_BACK, outline=INK, width=2)
            self.draw.rounded_rectangle((x + 7, y + 7, x + w - 7, y + h - 7), radius=5, outline=(150, 130, 190),
                                        width=2)
            self.mark(name, box)
            return box
        band = max(22, h * 3 // 10)
        self.draw.rounded_rectangle(box, radius=8, fill=WHITE, outline=INK, width=2)
        self.draw.rounded_rectangle((x + 3, y + 3, x + w - 3, y + band), radius=6, fill=colour)
        if letter:
            self.text((x + w // 2, y + 3 + band // 2), letter, max(12, band - 8), bold=True,
                      fill=text_colour_on(colour), anchor="mm")
        size = max(14, min(30, (h - band) * 5 // 10))
        if len(rank) >= 3:
            size = size * 2 // 3
        self.text((x + w // 2, y + band + (h - band) // 2), rank, size=size, bold=True, fill=INK, anchor="mm")
        if dim:
            veil = Image.new("RGB", (w, h), BACKGROUND)
            self.image.paste(Image.blend(self.image.crop(box), veil, 0.55), box[:2])
        self.mark(name, box)
        return box

    def playing_card(self, name: str, x: int, y: int, code: str, w: int = 58, h: int = 80,
                     highlight: bool = False) -> Box:
        """A French-suited card from its notation (``7H``, ``10C``, ``QS``): rank and suit symbol, hearts and
        diamonds red, spades and clubs black — the symbol tells the suit without colour. ``None``-like codes
        ("", "?") draw a card back."""
        rank, suit = code[:-1].upper(), code[-1:].upper()
        if suit not in SUITS:
            return self.card(name, x, y, "", None, w=w, h=h, highlight=highlight)
        symbol, colour = SUITS[suit]
        box = (x, y, x + w, y + h)
        if highlight:
            self.draw.rounded_rectangle((x - 4, y - 4, x + w + 4, y + h + 4), radius=10, fill=HIGHLIGHT)
        self.draw.rounded_rectangle(box, radius=7, fill=WHITE, outline=INK, width=2)
        self.text((x + 5, y + 3), rank, max(12, h // 5), bold=True, fill=colour)
        self.text((x + w // 2, y + h * 6 // 10), symbol, max(16, h // 2), fill=colour, anchor="mm")
        self.mark(name, box)
        return box

    def tile(self, name: str, x: int, y: int, text: str, colour, w: int = 44, h: int = 30) -> Box:
        """A small card as a coloured tile whose text names it (``R12``): letter and colour together."""
        box = (x, y, x + w, y + h)
        self.draw.rounded_rectangle(box, radius=5, fill=colour, outline=INK, width=1)
        self.text((x + w // 2, y + h // 2), text, 15 if len(text) <= 3 else 13, bold=True,
                  fill=text_colour_on(colour), anchor="mm")
        self.mark(name, box)
        return box

    def pawn(self, name: str, cx: int, cy: int, r: int, fill, label: str) -> Box:
        box = (cx - r, cy - r, cx + r, cy + r)
        self.draw.ellipse(box, fill=fill, outline=INK, width=2)
        self.text((cx, cy), label, max(10, r), bold=True, fill=text_colour_on(fill), anchor="mm")
        self.mark(name, box)
        return box

    def crop_height(self, height: int) -> None:
        """Cut unused space at the bottom (pictures are drawn on a generous canvas first)."""
        height = max(1, min(self.image.height, height))
        self.image = self.image.crop((0, 0, self.width, height))
        self.draw = ImageDraw.Draw(self.image)

    def png(self) -> bytes:
        """PNG bytes, reduced to a 64-colour palette: flat boards lose nothing visible, and encoding is 10×
        faster and the file a third of the size."""
        out = io.BytesIO()
        self.image.quantize(colors=64, method=Image.Quantize.FASTOCTREE).save(out, format="PNG", compress_level=1)
        return out.getvalue()


def band_point(box: Box) -> tuple[int, int]:
    """A point inside a face-up card's colour band or a tile (away from its text): what tests sample."""
    x0, y0, x1, y1 = box
    return x0 + 5, y0 + (y1 - y0) // 2 if y1 - y0 <= 40 else y0 + 8
