"""Pieces shared by the board pictures: seat names and tags, the footer saying whose turn it is.

One name, one number and one colour per player: a player is always shown as his seat's number (engine seat + 1) on
his seat's colour, then his name — "1 Alice" — in every picture (Guyenne's colour is his army's, as in its text)."""
from __future__ import annotations

from bot.i18n import _
from bot.render.canvas import MIN_TEXT, Canvas
from bot.render.palette import INK, SEAT_COLOURS, text_colour_on


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_name(names: list[str], seat: int | None) -> str:
    if seat is None:
        return "—"
    name = names[seat] if 0 <= seat < len(names) else f"Player {seat + 1}"
    return name if len(name) <= 18 else name[:17] + "…"


def places(view: dict) -> list[int] | None:
    """Each seat's place in a finished game: the places the service tells (``places``: resigned seats last, as
    the result, /history and the ratings), else the engine's ``ranking``."""
    return view.get("places") or view.get("ranking")


def first_places(view: dict) -> list[int] | None:
    """The seats placed first in a finished game (None: the view ranks nobody)."""
    ranked = places(view)
    return None if not ranked else [p for p, r in enumerate(ranked) if r == 1]


def player(names: list[str], seat: int | None, limit: int = 18) -> str:
    """``1 Alice``: the seat's number and name, as the text names him (a name that already starts with its
    number is not numbered twice)."""
    if seat is None:
        return "—"
    name = names[seat] if 0 <= seat < len(names) else f"Player {seat + 1}"
    number = str(seat + 1)
    if not (name.startswith(number + " ") or name.startswith(number + ".")):
        name = f"{number} {name}"
    return name if len(name) <= limit else name[:limit - 1] + "…"


def seat_tag(canvas: Canvas, name: str, x: int, y: int, seat: int, names: list[str], acting: bool = False,
             size: int = MIN_TEXT, colour=None) -> int:
    """The seat's number on its colour, then its name (bold when it is to act); returns the x after it."""
    colour = colour or seat_colour(seat)
    r = size // 2 + 5
    canvas.pawn(name, x + r, y + size // 2 + 3, r, colour, str(seat + 1), size=size)
    label = seat_name(names, seat) + ("  " + _("◀ to act") if acting else "")
    box = canvas.text((x + 2 * r + 8, y), label, size, bold=acting, fill=INK, measure=True)
    return box[2]


def tag_width(canvas: Canvas, seat: int, names: list[str], acting: bool = False, size: int = MIN_TEXT) -> int:
    """How wide ``seat_tag`` draws (to decide what fits beside it)."""
    label = seat_name(names, seat) + ("  " + _("◀ to act") if acting else "")
    return 2 * (size // 2 + 5) + 8 + canvas.text_width(label, size, bold=acting)


def beside_or_below(canvas: Canvas, right: int, y: int, text: str, size: int = MIN_TEXT, fill=INK, ground=None,
                    line: int | None = None) -> int:
    """``text`` right-aligned on the line at ``y`` when it clears ``right`` (what the line holds already), else on
    the next line at the left margin of the line's start; returns the y below what was drawn."""
    line = line or size + 10
    width = canvas.text_width(text, size)
    if canvas.width - 24 - width >= right + 16:
        canvas.text((canvas.width - 24, y + 2), text, size, fill=fill, anchor="ra", ground=ground)
        return y + line
    canvas.text((24, y + line), text, size, fill=fill, ground=ground)
    return y + 2 * line


def fits_beside(canvas: Canvas, right: int, text: str, size: int = MIN_TEXT) -> bool:
    return canvas.width - 24 - canvas.text_width(text, size) >= right + 16


def wrapped(canvas: Canvas, x: int, y: int, text: str, size: int = MIN_TEXT, line: int | None = None,
            right: int | None = None, **style) -> int:
    """``text`` in lines up to ``right`` (default: the picture's right margin), broken between words; returns the
    y below it."""
    line = line or size + 10
    right = right or canvas.width - 24
    current = ""
    for word in text.split(" "):
        longer = f"{current} {word}" if current else word
        if current and x + canvas.text_width(longer, size, style.get("bold", False)) > right:
            canvas.text((x, y), current, size, **style)
            y += line
            longer = word
        current = longer
    if current:
        canvas.text((x, y), current, size, **style)
        y += line
    return y


def wrapped_lines(canvas: Canvas, x: int, text: str, size: int = MIN_TEXT, right: int | None = None,
                  bold: bool = False) -> int:
    """How many lines ``wrapped`` draws ``text`` in."""
    right = right or canvas.width - 24
    lines, current = 0, ""
    for word in text.split(" "):
        longer = f"{current} {word}" if current else word
        if current and x + canvas.text_width(longer, size, bold) > right:
            lines += 1
            longer = word
        current = longer
    return lines + (1 if current else 0)


def count(n, word: str, plural: str | None = None) -> str:
    """``1 pt``, ``2 pts``, ``1 card``: counted properly."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def title(canvas: Canvas, text: str, right: str = "") -> int:
    """The picture's title, and what it is at (round, trick) on the right; returns the y below them."""
    canvas.text((20, 12), text, 28, bold=True)
    if right:
        canvas.text((canvas.width - 20, 16), right, MIN_TEXT, anchor="ra")
    return 56


def chip(canvas: Canvas, name: str, x: int, y: int, colour, letter: str, size: int = 30) -> int:
    """A small colour square with its letter (e.g. the trump); returns the x after it."""
    def draw_chip(c: Canvas) -> None:
        c.draw.rounded_rectangle((0, 0, size, size), radius=5, fill=colour, outline=INK, width=2)
        c.text((size // 2, size // 2), letter, max(MIN_TEXT, size * 6 // 10), bold=True, fill=text_colour_on(colour),
               anchor="mm",
               ground=colour)

    canvas.paste(canvas.piece(("chip", colour, letter, size), size + 1, size + 1, draw_chip, radius=5), x, y)
    canvas.mark(name, (x, y, x + size, y + size))
    return x + size + 6


def finish(canvas: Canvas, x: int, y: int, hint: str | None) -> Canvas:
    """A hand picture's last line (what to do now, if anything), then the picture cut to its content."""
    if hint:
        canvas.text((x, y), hint, MIN_TEXT, bold=True)
        y += 32
    canvas.crop_height(y + 8)
    return canvas
