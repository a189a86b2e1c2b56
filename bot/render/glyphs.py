"""Text on the pictures: DejaVu (shipped with matplotlib), glyphs the font lacks drawn or substituted, and every
text drawn once per string, size, weight, ink and ground, then pasted from a cache (``sprite``).
"""
from __future__ import annotations

import os
import threading
from collections import OrderedDict
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.render.palette import STEPS, blend, ink, rgb
from bot.render.png import np

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
        space = space_width(size, bold)
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


def seen_before(text: str, size: int, bold: bool) -> bool:
    """Whether this line was drawn before (then it is worth a piece of its own); remembers it."""
    key = (text, size, bold)
    if key in _SEEN:
        return True
    with SPRITES_LOCK:
        _SEEN[key] = None
        while len(_SEEN) > SPRITES_KEPT:
            _SEEN.popitem(last=False)
    return False


@lru_cache(maxsize=8192)
def measure(text: str, size: int, bold: bool) -> tuple[None, int, int, int]:
    """A text's width and the font's ascent and descent (as ``_glyphs``, without drawing a multi-word line)."""
    f = font(size, bold)
    ascent, descent = f.getmetrics()
    words = text.split(" ")
    if len(words) > 1:
        width = sum(measure(word, size, bold)[1] for word in words) + space_width(size, bold) * (len(words) - 1)
    else:
        width = round(sum(_advance(run, size, bold) for run in _runs(text, bold)))
    return None, width, ascent, descent


@lru_cache(maxsize=256)
def space_width(size: int, bold: bool) -> int:
    return round(font(size, bold).getlength(" "))


@lru_cache(maxsize=2048)
def _levels(fg: int, bg: int) -> tuple[bytes, bytes]:
    """Lookup tables coverage → palette index (ground, three blends, ink) and coverage → mask."""
    steps = [ink(blend(rgb(fg), rgb(bg), t)) for t in STEPS]
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


SPRITES: OrderedDict[tuple, tuple] = OrderedDict()
SPRITES_KEPT = 12000
SPRITES_LOCK = threading.Lock()


def sprite(key: tuple, make):
    """A drawn piece from the cache of this process (least recently used dropped past ``SPRITES_KEPT``)."""
    hit = SPRITES.get(key)
    if hit is not None:
        try:
            SPRITES.move_to_end(key)
        except KeyError:  # dropped by another thread meanwhile: it is still a good piece
            pass
        return hit
    hit = make()
    with SPRITES_LOCK:
        SPRITES[key] = hit
        while len(SPRITES) > SPRITES_KEPT:
            SPRITES.popitem(last=False)
    return hit


def text_sprite(text: str, size: int, bold: bool, fg: int, bg: int):
    def make():
        alpha, width, ascent, descent = _glyphs(text, size, bold)
        if alpha is None:
            return None
        lut, mask = _levels(fg, bg)
        return _lookup(alpha, lut, "P"), _lookup(alpha, mask, "L").convert("1")

    return sprite(("text", text, size, bold, fg, bg), make)


def anchor_offset(anchor: str, width: int, ascent: int, descent: int) -> tuple[int, int]:
    """Where the top left of a text's box lies relative to its anchor point (Pillow's anchor letters)."""
    h, v = anchor[0], anchor[1]
    dx = {"l": 0, "m": -width // 2, "r": -width}[h]
    dy = {"a": 0, "t": 0, "m": -(ascent + descent) // 2, "s": -ascent, "b": -(ascent + descent),
          "d": -(ascent + descent)}[v]
    return dx, dy
