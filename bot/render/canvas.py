"""Drawing toolkit for board pictures (Pillow): fonts, a colour-blind-safe palette, cards, and a layout record.

Every picture is drawn from a view only. ``Canvas.mark`` records where each element landed (name → box) so tests
can look at the pixels that matter, and ``Canvas.png`` encodes the result.

Speed: a picture is a palette image ("P") from the start, on one fixed palette (the colours below, the anti-aliasing
steps of text on each of them, and the dimmed colours), so nothing is quantized when it is encoded and the PNG is
one byte a pixel. What repeats is drawn once and pasted from then on: every text (per string, size and weight, and
per ink and ground), every card face, tile, chip and pawn. The palette is fixed at import, so the same view gives
the same bytes in every process.
"""
from __future__ import annotations

import io
import os
import struct
import threading
import zlib
from collections import OrderedDict
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFont

try:
    import numpy as np  # a dependency of matplotlib: the rows of the PNG put together in one step
except ImportError:  # pragma: no cover
    np = None
try:  # ISA-L's deflate (PyPI "isal"): zlib-compatible, about 8× faster than zlib at level 1, and smaller
    from isal import isal_zlib as _deflate
except ImportError:  # pragma: no cover - then zlib, which costs about 1.2 ns a pixel
    _deflate = zlib
if os.environ.get("HERALD_PNG_DEFLATE") == "zlib":  # to measure without ISA-L
    _deflate = zlib
DEFLATE = "isal" if _deflate is not zlib else "zlib"

WIDTH = 960  # phone-sized pictures are shown about 400 px wide: 960 keeps 12 px text readable at that scale

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


# ---------------------------------------------------------------------------------------------------- palette
def _blend(a, b, t: float) -> tuple[int, int, int]:
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
              (MUTED, (222, 196, 150)), (MUTED, (240, 200, 60)), (_blend(SUIT_RED, PANEL, 0.5), PANEL)]
    out: list[tuple[int, int, int]] = []
    for colour in base + [_blend(fg, bg, t) for fg, bg in pairs for t in STEPS] + \
            [_blend(c, BACKGROUND, DIM) for c in base]:
        if colour not in out:
            out.append(colour)
    assert len(out) <= 256, len(out)
    return out


PALETTE = _build_palette()
_INDEX = {c: i for i, c in enumerate(PALETTE)}
_PALETTE_BYTES = bytes(v for c in PALETTE for v in c) + bytes(3 * (256 - len(PALETTE)))
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


# ---------------------------------------------------------------------------------------------------- fonts
@lru_cache(maxsize=None)
def _font_dir() -> str:
    import matplotlib  # ships the DejaVu fonts (with ♠♥♦♣ and ⚔), so no system font is needed

    return os.path.join(matplotlib.get_data_path(), "fonts", "ttf")


def _font_file(bold: bool) -> str:
    return os.path.join(_font_dir(), "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(_font_file(bold), size)


@lru_cache(maxsize=2)
def _covered(bold: bool) -> frozenset[int]:
    """The code points the font has a glyph for."""
    from fontTools.ttLib import TTFont  # a dependency of matplotlib

    return frozenset(TTFont(_font_file(bold), lazy=True).getBestCmap())


ROBOT = "🤖"  # not in DejaVu: drawn as a mark (see _robot)
SUBSTITUTES = {"🏆": "★", "⚔️": "⚔", "🛡️": "◆", "🛡": "◆", "🐴": "", "\ufe0f": ""}


def _runs(text: str, bold: bool) -> list[str]:
    """``text`` cut into runs of drawable characters and single robot marks; a character the font lacks (and has
    no substitute for) is left out rather than drawn as a box."""
    for emoji, substitute in SUBSTITUTES.items():
        if emoji in text:
            text = text.replace(emoji, substitute)
    covered = _covered(bold)
    runs: list[str] = []
    current = ""
    for ch in text:
        if ch == ROBOT:
            if current:
                runs.append(current)
            runs.append(ROBOT)
            current = ""
        elif ord(ch) in covered or ch in " \n":
            current += ch
    if current:
        runs.append(current)
    return runs


def _robot(draw: ImageDraw.ImageDraw, x: float, baseline: float, size: int, fill=255) -> float:
    """A robot's head in the text's ink: antenna, square head with two eyes and a mouth. Returns its advance."""
    s = size * 0.8
    top = baseline - s * 0.95
    x0, x1 = x + s * 0.1, x + s * 0.9
    draw.line((x + s / 2, top, x + s / 2, top + s * 0.2), fill=fill, width=max(1, round(s / 10)))
    r = max(1.0, s * 0.08)
    draw.ellipse((x + s / 2 - r, top - r, x + s / 2 + r, top + r), fill=fill)
    head = (x0, top + s * 0.2, x1, baseline)
    draw.rounded_rectangle(head, radius=max(1, round(s * 0.15)), fill=fill)
    eye = max(1.0, s * 0.1)
    for ex in (x0 + (x1 - x0) * 0.3, x0 + (x1 - x0) * 0.7):
        ey = top + s * 0.45
        draw.ellipse((ex - eye, ey - eye, ex + eye, ey + eye), fill=0)
    draw.rectangle((x0 + (x1 - x0) * 0.28, baseline - s * 0.22, x1 - (x1 - x0) * 0.28,
                    baseline - s * 0.22 + max(1, s * 0.08)), fill=0)
    return s + size * 0.08


def _advance(run: str, size: int, bold: bool) -> float:
    return size * 0.8 + size * 0.08 if run == ROBOT else font(size, bold).getlength(run)


@lru_cache(maxsize=8192)
def _glyphs(text: str, size: int, bold: bool) -> tuple[Image.Image | None, int, int, int]:
    """The anti-aliased coverage (L) of ``text``, its width, and the font's ascent and descent. A text of several
    words is put together from its words' coverage (each drawn once), so a new line of numbers costs pastes, not
    a font rendering."""
    f = font(size, bold)
    ascent, descent = f.getmetrics()
    words = text.split(" ")
    if len(words) > 1:
        parts = [_glyphs(word, size, bold) if word else (None, 0, ascent, descent) for word in words]
        space = _space(size, bold)
        width = sum(p[1] for p in parts) + space * (len(parts) - 1)
        if width <= 0:
            return None, 0, ascent, descent
        alpha = Image.new("L", (width + 2, ascent + descent))
        x = 0
        for part in parts:
            if part[0] is not None:  # coverage adds up as the larger of the two (as drawn word by word)
                box = (x, 0, x + part[0].width, part[0].height)
                alpha.paste(ImageChops.lighter(alpha.crop(box), part[0]), box)
            x += part[1] + space
        return alpha, width, ascent, descent
    runs = _runs(text, bold)
    width = round(sum(_advance(run, size, bold) for run in runs))
    if width <= 0:
        return None, 0, ascent, descent
    alpha = Image.new("L", (width + 2, ascent + descent))
    draw = ImageDraw.Draw(alpha)
    x = 0.0
    for run in runs:
        if run == ROBOT:
            x += _robot(draw, x, ascent, size)
        else:
            draw.text((x, ascent), run, font=f, fill=255, anchor="ls")
            x += f.getlength(run)
    return alpha, width, ascent, descent


_SEEN: OrderedDict[tuple, None] = OrderedDict()


def _seen(text: str, size: int, bold: bool) -> bool:
    """Whether this line was drawn before (then it is worth a piece of its own); remembers it."""
    key = (text, size, bold)
    if key in _SEEN:
        return True
    with _SPRITES_LOCK:
        _SEEN[key] = None
        while len(_SEEN) > SPRITES_KEPT:
            _SEEN.popitem(last=False)
    return False


@lru_cache(maxsize=8192)
def _measure(text: str, size: int, bold: bool) -> tuple[None, int, int, int]:
    """A text's width and the font's ascent and descent (as ``_glyphs``, without drawing a multi-word line)."""
    f = font(size, bold)
    ascent, descent = f.getmetrics()
    words = text.split(" ")
    if len(words) > 1:
        width = sum(_measure(word, size, bold)[1] for word in words) + _space(size, bold) * (len(words) - 1)
    else:
        width = round(sum(_advance(run, size, bold) for run in _runs(text, bold)))
    return None, width, ascent, descent


@lru_cache(maxsize=256)
def _space(size: int, bold: bool) -> int:
    return round(font(size, bold).getlength(" "))


@lru_cache(maxsize=2048)
def _levels(fg: int, bg: int) -> tuple[bytes, bytes]:
    """Lookup tables coverage → palette index (ground, three blends, ink) and coverage → mask."""
    steps = [ink(_blend(rgb(fg), rgb(bg), t)) for t in STEPS]
    lut, mask = [], []
    for a in range(256):
        level = min(4, (a + 31) // 64)
        lut.append([bg, *steps, fg][level])
        mask.append(255 if level else 0)
    return bytes(lut), bytes(mask)


def _lookup(image: Image.Image, table: bytes, mode: str) -> Image.Image:
    """``image`` (L) through a 256-entry table, as an image of ``mode``."""
    if np is not None:
        data = np.frombuffer(table, dtype=np.uint8)[np.frombuffer(image.tobytes(), dtype=np.uint8)].tobytes()
    else:  # pragma: no cover
        data = image.point(list(table)).tobytes()
    return Image.frombytes(mode, image.size, data)


_SPRITES: OrderedDict[tuple, tuple] = OrderedDict()
SPRITES_KEPT = 12000
_SPRITES_LOCK = threading.Lock()
_LAYERS: OrderedDict[tuple, tuple] = OrderedDict()  # larger pieces: a player's panel, a board's fixed part
LAYERS_KEPT = 128  # at most ~250 KB each


def _sprite(key: tuple, make):
    """A drawn piece from the cache of this process (least recently used dropped past ``SPRITES_KEPT``)."""
    hit = _SPRITES.get(key)
    if hit is not None:
        try:
            _SPRITES.move_to_end(key)
        except KeyError:  # dropped by another thread meanwhile: it is still a good piece
            pass
        return hit
    hit = make()
    with _SPRITES_LOCK:
        _SPRITES[key] = hit
        while len(_SPRITES) > SPRITES_KEPT:
            _SPRITES.popitem(last=False)
    return hit


def _text_sprite(text: str, size: int, bold: bool, fg: int, bg: int):
    def make():
        alpha, width, ascent, descent = _glyphs(text, size, bold)
        if alpha is None:
            return None
        lut, mask = _levels(fg, bg)
        return _lookup(alpha, lut, "P"), _lookup(alpha, mask, "L").convert("1")

    return _sprite(("text", text, size, bold, fg, bg), make)


def _anchor_offset(anchor: str, width: int, ascent: int, descent: int) -> tuple[int, int]:
    """Where the top left of a text's box lies relative to its anchor point (Pillow's anchor letters)."""
    h, v = anchor[0], anchor[1]
    dx = {"l": 0, "m": -width // 2, "r": -width}[h]
    dy = {"a": 0, "t": 0, "m": -(ascent + descent) // 2, "s": -ascent, "b": -(ascent + descent),
          "d": -(ascent + descent)}[v]
    return dx, dy


Box = tuple[int, int, int, int]


class _Draw:
    """``ImageDraw`` on the palette image, taking RGB colours (mapped to the fixed palette)."""

    def __init__(self, image: Image.Image):
        self._draw = ImageDraw.Draw(image)

    def __getattr__(self, name):
        method = getattr(self._draw, name)

        def call(*args, **kwargs):
            for key in ("fill", "outline"):
                if kwargs.get(key) is not None:
                    kwargs[key] = ink(kwargs[key])
            return method(*args, **kwargs)

        return call


class Canvas:
    """A palette image being drawn, with the boxes of what was drawn where."""

    def __init__(self, height: int, width: int = WIDTH, background=BACKGROUND):
        self.layout: dict[str, Box] = {}
        self.width = width
        self.background = ink(background)
        self._rows = None
        if np is not None:
            # the image is drawn straight into the PNG's rows: one buffer of rows (filter byte 0, then the row's
            # palette indices) that the image maps with a stride — the PNG is deflated from it without a copy
            self._rows = np.full(height * (width + 1) + 1, self.background, dtype=np.uint8)
            self._rows[0:height * (width + 1):width + 1] = 0
            image = self._mapped(height)
            if image is not None:
                self._use(image)
                return
            self._rows = None
        image = Image.new("P", (width, height), self.background)
        image.putpalette(_PALETTE_BYTES)
        self._use(image)

    def _mapped(self, height: int) -> Image.Image | None:
        """The first ``height`` rows of the buffer as a writable palette image (None where Pillow will not)."""
        stride = self.width + 1
        image = Image.frombuffer("P", (self.width, height), memoryview(self._rows)[1:height * stride + 1], "raw",
                                 "P", stride, 1)
        image.readonly = 0  # the buffer is ours and writable: draw into it, not into a copy
        if image.readonly:
            return None
        image.putpalette(_PALETTE_BYTES)
        return image

    def _use(self, image: Image.Image) -> None:
        self.image = image
        self.draw = _Draw(image)
        self._pixels = image.load()
        self._core = image.im

    def mark(self, name: str, box: Box) -> None:
        self.layout[name] = tuple(int(v) for v in box)

    def ground(self, x: int, y: int) -> int:
        """The palette index under (x, y) (the background outside the picture)."""
        if 0 <= x < self.image.width and 0 <= y < self.image.height:
            return self._pixels[x, y]
        return self.background

    def paste(self, piece: tuple, x: int, y: int) -> None:
        picture, mask = piece
        w, h = picture.size
        if mask is None:
            self._core.paste(picture.im, (x, y, x + w, y + h))
        else:
            self._core.paste(picture.im, (x, y, x + w, y + h), mask.im)

    def text(self, xy: tuple[float, float], text: str, size: int = 18, bold: bool = False, fill=INK,
             anchor: str = "la", measure: bool = False, ground=None) -> Box | None:
        """Draw ``text`` (anti-aliased on the colour found under it, or on ``ground``); with ``measure`` also
        return its box. A line of several words seen for the first time is pasted word by word (numbers change
        from picture to picture, the words around them do not); from its second time on it is one piece."""
        alpha, width, ascent, descent = _measure(text, size, bold)
        dx, dy = _anchor_offset(anchor, width, ascent, descent)
        x, y = int(xy[0]) + dx, int(xy[1]) + dy
        box = (x, y, x + width, y + ascent + descent)
        if width <= 0:
            return box if measure else None
        if ground is None:  # the ground: what most of the box's corners and middle show
            probes = [self.ground(x + 1, y + 1), self.ground(x + width - 2, y + 1), self.ground(x + 1, box[3] - 2),
                      self.ground(x + width - 2, box[3] - 2), self.ground(x + width // 2, y + 1)]
            ground = max(probes, key=probes.count)
        fg, bg = ink(fill), ink(ground)
        key = ("text", text, size, bold, fg, bg)
        if key in _SPRITES or " " not in text or _seen(text, size, bold):
            self.paste(_text_sprite(text, size, bold, fg, bg), x, y)
        else:
            space = _space(size, bold)
            for word in text.split(" "):
                if word:
                    piece = _text_sprite(word, size, bold, fg, bg)
                    if piece is not None:
                        self.paste(piece, x, y)
                    x += _measure(word, size, bold)[1]
                x += space
        return box if measure else None

    def text_width(self, text: str, size: int = 18, bold: bool = False) -> int:
        return _measure(text, size, bold)[1]

    def heading(self, y: int, text: str, size: int = 20) -> int:
        """A section heading at ``y``; returns the y below it."""
        self.text((20, y), text, size, bold=True)
        return y + size + 12

    def panel(self, box: Box, fill=PANEL, outline=None, radius: int = 10) -> None:
        self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=3 if outline else 1)

    def frame(self, box: Box, colour=LAST, width: int = 4, pad: int = 4, radius: int = 10,
              name: str = "last") -> None:
        """A frame around ``box`` (recorded as ``name``, its outer edge): what the last action changed."""
        x0, y0, x1, y1 = box
        outer = (x0 - pad, y0 - pad, x1 + pad, y1 + pad)
        self.draw.rounded_rectangle(outer, radius=radius, outline=colour, width=width)
        self.mark(name, outer)

    # ------------------------------------------------------------------ pieces, drawn once and pasted
    def piece(self, key: tuple, w: int, h: int, draw_piece, shape: str = "round", radius: int = 8) -> tuple:
        """A cached piece of ``w``×``h``: ``draw_piece(canvas)`` draws it on a small canvas once; ``shape`` (round,
        ellipse, rect) is the mask it is pasted through, so what lies under its corners stays."""
        def make():
            small = Canvas(h, w, background=BACKGROUND)
            draw_piece(small)
            if shape == "rect":
                return small.image, None
            mask = Image.new("1", (w, h))
            md = ImageDraw.Draw(mask)
            if shape == "ellipse":
                md.ellipse((0, 0, w - 1, h - 1), fill=1)
            else:
                md.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=1)
            return small.image, mask

        return _sprite(("piece", *key), make)

    def layer(self, key: tuple, x: int, y: int, w: int, h: int, draw_layer) -> None:
        """A band of the picture (a player's panel, a fixed board) cached by ``key`` — what it shows:
        ``draw_layer(canvas)`` draws it once on a ``w``×``h`` canvas; its marks are moved to (x, y) here."""
        hit = _LAYERS.get(key)
        if hit is None:
            band = Canvas(h, w, background=BACKGROUND)
            draw_layer(band)
            hit = (band.image, dict(band.layout))
            with _SPRITES_LOCK:
                _LAYERS[key] = hit
                while len(_LAYERS) > LAYERS_KEPT:
                    _LAYERS.popitem(last=False)
        else:
            try:
                _LAYERS.move_to_end(key)
            except KeyError:
                pass
        image, layout = hit
        self.paste((image, None), x, y)
        for name, (x0, y0, x1, y1) in layout.items():
            self.layout[name] = (x0 + x, y0 + y, x1 + x, y1 + y)

    def card(self, name: str, x: int, y: int, rank: str, colour: tuple[int, int, int] | None, letter: str = "",
             w: int = 62, h: int = 88, highlight: bool = False, dim: bool = False) -> Box:
        """A face-up card (``colour`` fills its top band, ``letter`` marks the colour for colour-blind eyes), or a
        card back when ``colour`` is None. Recorded under ``name``; the band's colour is at the box's top middle."""
        box = (x, y, x + w, y + h)
        if highlight:
            self.draw.rounded_rectangle((x - 4, y - 4, x + w + 4, y + h + 4), radius=10, fill=HIGHLIGHT)
        self.paste(self.piece(("card", rank, colour, letter, w, h, dim), w + 1, h + 1,
                              lambda c: c._card(0, 0, rank, colour, letter, w, h, dim)), x, y)
        self.mark(name, box)
        return box

    def _card(self, x, y, rank, colour, letter, w, h, dim) -> None:
        box = (x, y, x + w, y + h)
        if colour is None:
            self.draw.rounded_rectangle(box, radius=8, fill=CARD_BACK, outline=INK, width=2)
            self.draw.rounded_rectangle((x + 7, y + 7, x + w - 7, y + h - 7), radius=5, outline=CARD_BACK_LINE,
                                        width=2)
            return
        band = max(22, h * 3 // 10)
        self.draw.rounded_rectangle(box, radius=8, fill=WHITE, outline=INK, width=2)
        self.draw.rounded_rectangle((x + 3, y + 3, x + w - 3, y + band), radius=6, fill=colour)
        if letter:
            self.text((x + w // 2, y + 3 + band // 2), letter, max(12, band - 8), bold=True,
                      fill=text_colour_on(colour), anchor="mm", ground=colour)
        size = max(14, min(30, (h - band) * 5 // 10))
        if len(rank) >= 3:
            size = size * 2 // 3
        self.text((x + w // 2, y + band + (h - band) // 2), rank, size=size, bold=True, fill=INK, anchor="mm",
                  ground=WHITE)
        if dim:
            rgb_image = self.image.convert("RGB")
            veil = Image.new("RGB", rgb_image.size, BACKGROUND)
            self.image.paste(to_palette(Image.blend(rgb_image, veil, 1 - DIM)))

    def playing_card(self, name: str, x: int, y: int, code: str, w: int = 58, h: int = 80,
                     highlight: bool = False) -> Box:
        """A French-suited card from its notation (``7H``, ``10C``, ``QS``): rank and suit symbol, hearts and
        diamonds red, spades and clubs black — the symbol tells the suit without colour. ``None``-like codes
        ("", "?") draw a card back."""
        rank, suit = code[:-1].upper(), code[-1:].upper()
        if suit not in SUITS:
            return self.card(name, x, y, "", None, w=w, h=h, highlight=highlight)
        box = (x, y, x + w, y + h)
        if highlight:
            self.draw.rounded_rectangle((x - 4, y - 4, x + w + 4, y + h + 4), radius=10, fill=HIGHLIGHT)

        def draw_face(c: Canvas) -> None:
            symbol, colour = SUITS[suit]
            c.draw.rounded_rectangle((0, 0, w, h), radius=7, fill=WHITE, outline=INK, width=2)
            c.text((5, 3), rank, max(12, h // 5), bold=True, fill=colour, ground=WHITE)
            c.text((w // 2, h * 6 // 10), symbol, max(16, h // 2), fill=colour, anchor="mm", ground=WHITE)

        self.paste(self.piece(("playing", rank, suit, w, h), w + 1, h + 1, draw_face, radius=7), x, y)
        self.mark(name, box)
        return box

    def tile(self, name: str, x: int, y: int, text: str, colour, w: int = 44, h: int = 30) -> Box:
        """A small card as a coloured tile whose text names it (``R12``): letter and colour together."""
        box = (x, y, x + w, y + h)

        def draw_tile(c: Canvas) -> None:
            c.draw.rounded_rectangle((0, 0, w, h), radius=5, fill=colour, outline=INK, width=1)
            c.text((w // 2, h // 2), text, 15 if len(text) <= 3 else 13, bold=True, fill=text_colour_on(colour),
                   anchor="mm", ground=colour)

        self.paste(self.piece(("tile", text, colour, w, h), w + 1, h + 1, draw_tile, radius=5), x, y)
        self.mark(name, box)
        return box

    def pawn(self, name: str, cx: int, cy: int, r: int, fill, label: str, size: int | None = None) -> Box:
        box = (cx - r, cy - r, cx + r, cy + r)
        size = size or max(10, r)

        def draw_pawn(c: Canvas) -> None:
            c.draw.ellipse((0, 0, 2 * r, 2 * r), fill=fill, outline=INK, width=2)
            c.text((r, r), label, size, bold=True, fill=text_colour_on(fill), anchor="mm", ground=fill)

        self.paste(self.piece(("pawn", r, fill, label, size), 2 * r + 1, 2 * r + 1, draw_pawn, shape="ellipse"),
                   cx - r, cy - r)
        self.mark(name, box)
        return box

    def crop_height(self, height: int) -> None:
        """Cut unused space at the bottom (pictures are drawn on a generous canvas first)."""
        height = max(1, min(self.image.height, height))
        if height != self.image.height:
            mapped = self._mapped(height) if self._rows is not None else None
            self._use(mapped or self.image.crop((0, 0, self.width, height)))
            if mapped is None:
                self._rows = None

    def png(self) -> bytes:
        """PNG bytes: the palette image as it is (one byte a pixel, nothing to quantize, nothing copied)."""
        if self._rows is None:
            return encode_png(self.image)
        w, h = self.image.size
        return _png(w, h, memoryview(self._rows)[:h * (w + 1)])


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


_PLTE = _chunk(b"PLTE", bytes(v for c in PALETTE for v in c))


def encode_png(image: Image.Image) -> bytes:
    """A palette image on the fixed palette as PNG: rows without filters, one deflate pass at level 1 over the whole
    image — ISA-L's when the ``isal`` package is installed (0.16 ms for a 960×900 board), else zlib's (1.3 ms;
    still about 15 % faster than Pillow's encoder, which deflates row by row)."""
    if image.mode != "P" or np is None:
        out = io.BytesIO()
        image.save(out, format="PNG", compress_level=1)
        return out.getvalue()
    w, h = image.size
    rows = np.zeros((h, w + 1), dtype=np.uint8)  # each row: filter 0 (none), then its palette indices
    rows[:, 1:] = np.frombuffer(image.tobytes(), dtype=np.uint8).reshape(h, w)
    return _png(w, h, rows.tobytes())


def _png(w: int, h: int, rows) -> bytes:
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)) + _PLTE +
            _chunk(b"IDAT", _deflate.compress(rows, 1)) + _chunk(b"IEND", b""))


def band_point(box: Box) -> tuple[int, int]:
    """A point inside a face-up card's colour band or a tile (away from its text): what tests sample."""
    x0, y0, x1, y1 = box
    return x0 + 5, y0 + (y1 - y0) // 2 if y1 - y0 <= 40 else y0 + 8
