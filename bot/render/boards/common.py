"""Pieces shared by the board pictures: seat names and tags, the footer saying whose turn it is.

One name, one number and one colour per player: a player is always shown as his seat's number (engine seat + 1) on
his seat's colour, then his name — "1 Alice" — in every picture (Guyenne's colour is his army's, as in its text)."""
from __future__ import annotations

from bot.i18n import _
from bot.render.canvas import Canvas
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
             size: int = 18, colour=None) -> int:
    """The seat's number on its colour, then its name (bold when it is to act); returns the x after it."""
    colour = colour or seat_colour(seat)
    r = size // 2 + 4
    canvas.pawn(name, x + r, y + size // 2 + 2, r, colour, str(seat + 1), size=size - 2)
    label = seat_name(names, seat) + ("  " + _("◀ to act") if acting else "")
    box = canvas.text((x + 2 * r + 8, y), label, size, bold=acting, fill=INK, measure=True)
    return box[2]


def count(n, word: str, plural: str | None = None) -> str:
    """``1 pt``, ``2 pts``, ``1 card``: counted properly."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def title(canvas: Canvas, text: str, right: str = "") -> int:
    canvas.text((20, 16), text, 24, bold=True)
    if right:
        canvas.text((canvas.width - 20, 18), right, 18, anchor="ra")
    return 56


def chip(canvas: Canvas, name: str, x: int, y: int, colour, letter: str, size: int = 30) -> int:
    """A small colour square with its letter (e.g. the trump); returns the x after it."""
    def draw_chip(c: Canvas) -> None:
        c.draw.rounded_rectangle((0, 0, size, size), radius=5, fill=colour, outline=INK, width=2)
        c.text((size // 2, size // 2), letter, size * 6 // 10, bold=True, fill=text_colour_on(colour), anchor="mm",
               ground=colour)

    canvas.paste(canvas.piece(("chip", colour, letter, size), size + 1, size + 1, draw_chip, radius=5), x, y)
    canvas.mark(name, (x, y, x + size, y + size))
    return x + size + 6


def finish(canvas: Canvas, x: int, y: int, hint: str | None) -> Canvas:
    """A hand picture's last line (what to do now, if anything), then the picture cut to its content."""
    if hint:
        canvas.text((x, y), hint, 16, bold=True)
        y += 26
    canvas.crop_height(y + 8)
    return canvas
