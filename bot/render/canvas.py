"""The canvas a board picture is drawn on (Pillow): text, panels, frames, cards, tiles and pawns, and a layout
record. Colours are in ``palette``, text in ``glyphs``, the PNG in ``png``.

Every picture is drawn from a view only. ``Canvas.mark`` records where each element landed (name → box) so tests
can look at the pixels that matter, ``Canvas.texts`` every text drawn (its box and font size, those inside pasted
pieces and layers too) so tests can check that no two overlap and that each stays readable at phone width
(``MIN_TEXT``), and ``Canvas.png`` encodes the result.

Speed: a picture is a palette image ("P") from the start, on the one fixed palette, so nothing is quantized when it
is encoded and the PNG is one byte a pixel; with numpy the image is drawn straight into the PNG's rows. What
repeats is drawn once and pasted from then on: every text, card face, tile, chip and pawn (``glyphs.sprite``), and
larger layers (a player's panel, a board's fixed part).
"""
from __future__ import annotations

from collections import OrderedDict

from PIL import Image, ImageDraw

from bot.render import glyphs
from bot.render.palette import (BACKGROUND, CARD_BACK, CARD_BACK_LINE, DIM, HIGHLIGHT, INK, LAST, PALETTE_BYTES, PANEL,
                                SUITS, WHITE, ink, text_colour_on, to_palette)
from bot.render.png import encode_png, np, raw_png

WIDTH = 960  # pictures are drawn 960 px wide and shown about 400 px wide on a phone
PHONE = 400
MIN_TEXT = 22  # the least font size (px) on a 960-wide picture: 22 × 400 / 960 ≈ 9.2 px on a phone
Box = tuple[int, int, int, int]
Text = tuple[Box, int, str]  # a drawn text: its box (ascent to descent), its font size, the text
_LAYERS: OrderedDict[tuple, tuple] = OrderedDict()  # larger pieces: a player's panel, a board's fixed part
LAYERS_KEPT = 128  # at most ~250 KB each


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
        self.texts: list[Text] = []
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
        image.putpalette(PALETTE_BYTES)
        self._use(image)

    def _mapped(self, height: int) -> Image.Image | None:
        """The first ``height`` rows of the buffer as a writable palette image (None where Pillow will not)."""
        stride = self.width + 1
        image = Image.frombuffer("P", (self.width, height), memoryview(self._rows)[1:height * stride + 1], "raw",
                                 "P", stride, 1)
        image.readonly = 0  # the buffer is ours and writable: draw into it, not into a copy
        if image.readonly:
            return None
        image.putpalette(PALETTE_BYTES)
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
        """Paste a drawn piece (image, mask[, the texts drawn on it], as ``piece`` makes them) at (x, y)."""
        picture, mask = piece[0], piece[1]
        w, h = picture.size
        if mask is None:
            self._core.paste(picture.im, (x, y, x + w, y + h))
        else:
            self._core.paste(picture.im, (x, y, x + w, y + h), mask.im)
        if len(piece) > 2:
            self.texts.extend(((x0 + x, y0 + y, x1 + x, y1 + y), size, text)
                              for (x0, y0, x1, y1), size, text in piece[2])

    def text(self, xy: tuple[float, float], text: str, size: int = 18, bold: bool = False, fill=INK,
             anchor: str = "la", measure: bool = False, ground=None) -> Box | None:
        """Draw ``text`` (anti-aliased on the colour found under it, or on ``ground``); with ``measure`` also
        return its box. A line of several words seen for the first time is pasted word by word (numbers change
        from picture to picture, the words around them do not); from its second time on it is one piece."""
        alpha, width, ascent, descent = glyphs.measure(text, size, bold)
        dx, dy = glyphs.anchor_offset(anchor, width, ascent, descent)
        x, y = int(xy[0]) + dx, int(xy[1]) + dy
        box = (x, y, x + width, y + ascent + descent)
        if width <= 0:
            return box if measure else None
        self.texts.append((box, size, text))
        if ground is None:  # the ground: what most of the box's corners and middle show
            probes = [self.ground(x + 1, y + 1), self.ground(x + width - 2, y + 1), self.ground(x + 1, box[3] - 2),
                      self.ground(x + width - 2, box[3] - 2), self.ground(x + width // 2, y + 1)]
            ground = max(probes, key=probes.count)
        fg, bg = ink(fill), ink(ground)
        key = ("text", text, size, bold, fg, bg)
        if key in glyphs.SPRITES or " " not in text or glyphs.seen_before(text, size, bold):
            self.paste(glyphs.text_sprite(text, size, bold, fg, bg), x, y)
        else:
            space = glyphs.space_width(size, bold)
            for word in text.split(" "):
                if word:
                    piece = glyphs.text_sprite(word, size, bold, fg, bg)
                    if piece is not None:
                        self.paste(piece, x, y)
                    x += glyphs.measure(word, size, bold)[1]
                x += space
        return box if measure else None

    def text_width(self, text: str, size: int = 18, bold: bool = False) -> int:
        return glyphs.measure(text, size, bold)[1]

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
            texts = tuple(small.texts)
            if shape == "rect":
                return small.image, None, texts
            mask = Image.new("1", (w, h))
            md = ImageDraw.Draw(mask)
            if shape == "ellipse":
                md.ellipse((0, 0, w - 1, h - 1), fill=1)
            else:
                md.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=1)
            return small.image, mask, texts

        return glyphs.sprite(("piece", *key), make)

    def layer(self, key: tuple, x: int, y: int, w: int, h: int, draw_layer) -> None:
        """A band of the picture (a player's panel, a fixed board) cached by ``key`` — what it shows:
        ``draw_layer(canvas)`` draws it once on a ``w``×``h`` canvas; its marks are moved to (x, y) here."""
        hit = _LAYERS.get(key)
        if hit is None:
            band = Canvas(h, w, background=BACKGROUND)
            draw_layer(band)
            hit = (band.image, dict(band.layout), tuple(band.texts))
            with glyphs.SPRITES_LOCK:
                _LAYERS[key] = hit
                while len(_LAYERS) > LAYERS_KEPT:
                    _LAYERS.popitem(last=False)
        else:
            try:
                _LAYERS.move_to_end(key)
            except KeyError:
                pass
        image, layout, texts = hit
        self.paste((image, None, texts), x, y)
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
            self.text((x + w // 2, y + 3 + band // 2), letter, max(MIN_TEXT, band - 8), bold=True,
                      fill=text_colour_on(colour), anchor="mm", ground=colour)
        size = max(MIN_TEXT, min(30, (h - band) * 5 // 10))
        if len(rank) >= 3:
            size = max(MIN_TEXT, size * 2 // 3)
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
            # the index (rank and suit) in the corner, readable on a phone and on a card half covered in a fan;
            # the big symbol below it where the card is tall enough
            index = rank + symbol
            box = c.text((4, 2), index, MIN_TEXT, bold=True, fill=colour, ground=WHITE, measure=True)
            room = h - box[3] - 3
            if room >= MIN_TEXT + 4:
                big = min(h // 2, room * 5 // 6)
                tall = sum(glyphs.measure(symbol, big, False)[2:])
                c.text((w // 2, box[3] + (room - tall) // 2), symbol, big, fill=colour, anchor="ma", ground=WHITE)

        self.paste(self.piece(("playing", rank, suit, w, h), w + 1, h + 1, draw_face, radius=7), x, y)
        self.mark(name, box)
        return box

    def tile(self, name: str, x: int, y: int, text: str, colour, w: int = 54, h: int = 32) -> Box:
        """A small card as a coloured tile whose text names it (``R12``): letter and colour together."""
        box = (x, y, x + w, y + h)

        def draw_tile(c: Canvas) -> None:
            c.draw.rounded_rectangle((0, 0, w, h), radius=5, fill=colour, outline=INK, width=1)
            c.text((w // 2, h // 2), text, MIN_TEXT, bold=True, fill=text_colour_on(colour), anchor="mm",
                   ground=colour)

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
        return raw_png(w, h, memoryview(self._rows)[:h * (w + 1)])


def band_point(box: Box) -> tuple[int, int]:
    """A point inside a face-up card's colour band or a tile (away from its text): what tests sample."""
    x0, y0, x1, y1 = box
    return x0 + 5, y0 + (y1 - y0) // 2 if y1 - y0 <= 40 else y0 + 8
