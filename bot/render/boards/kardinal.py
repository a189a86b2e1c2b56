"""Kardinal: the town on its lettered grid — buildings in their colours with a shape icon and colour letter, the
Dom, the Cardinal (a cross, not a letter: K is a column), the sites where the player to move can build, the last
building framed — then everyone's colours, stones and score. A seat's badge has the seat's own colour.

Every text is at least ``MIN_TEXT`` (readable at phone width); on a town too wide for that, a cell's letters and
every other column label are left out (the colours and shapes still tell the buildings apart)."""
from __future__ import annotations

from bot.render.boards.common import chip, player, seat_tag, title, wrapped
from bot.i18n import _, ngettext, translate
from rules.kardinal.names import BUILDINGS, COLOUR_NAMES, KIND_NAMES
from bot.render.canvas import MIN_TEXT, Canvas
from bot.render.palette import BACKGROUND, COLOURS, INK, LETTERS, MUTED, WHITE
from rules.kardinal.geometry import col_label, parse_label, xy

DOM = (150, 146, 140)
GROUND = (238, 232, 218)
DOT = (190, 180, 160)
CARDINAL_MARK = "✝"
CARDINAL = (150, 20, 60)
SITE = (120, 170, 120)
MAX_CELL = 52


def _icon(canvas: Canvas, kind: str, box, colour) -> None:
    """White shape marks (house, tower, courtyard ring) so shapes are told apart without colour."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    s = min(x1 - x0, y1 - y0) / 2
    ink = INK if sum(colour) > 500 else WHITE
    if kind == "house":
        canvas.draw.polygon([(cx - s * .45, cy + s * .4), (cx - s * .45, cy - s * .05), (cx, cy - s * .5),
                             (cx + s * .45, cy - s * .05), (cx + s * .45, cy + s * .4)], outline=ink, width=3)
    elif kind == "tower":
        canvas.draw.rectangle((cx - s * .22, cy - s * .35, cx + s * .22, cy + s * .5), outline=ink, width=3)
        for dx in (-.22, 0, .22):
            canvas.draw.rectangle((cx + s * dx - s * .06, cy - s * .5, cx + s * dx + s * .06, cy - s * .35), fill=ink)
    else:
        canvas.draw.rectangle((cx - s * .4, cy - s * .4, cx + s * .4, cy + s * .4), outline=ink, width=3)


def draw(view: dict, names: list[str]) -> Canvas:
    n = view["players"]
    cells = [view["dom"][0], view["dom"][1], *view["sites"]]
    cells += [c for piece in view["pieces"] for c in piece["cells"]]
    if view.get("cardinal"):
        cells.append(view["cardinal"])
    points = [xy(parse_label(c)) for c in cells]
    x_lo, x_hi = min(p[0] for p in points), max(p[0] for p in points)
    y_lo, y_hi = min(p[1] for p in points), max(p[1] for p in points)
    cols, rows = x_hi - x_lo + 1, y_hi - y_lo + 1
    size = max(18, min(MAX_CELL, (960 - 80) // cols, 900 // rows))
    left, top = 56, 70
    canvas = Canvas(height=top + 30 + rows * size + 200 + 44 * n)
    title(canvas, "Kardinal", _("game over") if view["phase"] == "over" else
          _("{who} to play", who=player(names, view['current'])))

    def box_of(label: str):
        x, y = xy(parse_label(label))
        bx = left + (x - x_lo) * size
        by = top + 24 + (y_hi - y) * size  # north (higher rows) at the top
        return bx, by, bx + size, by + size

    small = MIN_TEXT if size >= 40 else 0  # a cell's colour letter, where it fits
    label_size = MIN_TEXT

    # the board: column letters (every other one where the cells are narrower than a label), row numbers (every
    # other one where they are lower), the ground
    widest = max(canvas.text_width(col_label(x), label_size) for x in range(x_lo, x_hi + 1)) + 4
    for i, x in enumerate(range(x_lo, x_hi + 1)):
        if size >= widest or i % 2 == 0:
            canvas.text((left + i * size + size // 2, top - 4), col_label(x), label_size, fill=MUTED, anchor="ma",
                        ground=BACKGROUND)
    for j, y in enumerate(range(y_hi, y_lo - 1, -1)):
        if size >= 28 or j % 2 == 0:
            canvas.text((left - 8, top + 24 + j * size + size // 2), str(y + 13), label_size, fill=MUTED,
                        anchor="rm", ground=BACKGROUND)
    canvas.draw.rectangle((left, top + 24, left + cols * size, top + 24 + rows * size), fill=GROUND)

    def draw_site(c: Canvas, buildable: bool) -> None:
        c.draw.rectangle((0, 0, size, size), fill=GROUND)
        if buildable:
            c.draw.rectangle((3, 3, size - 3, size - 3), outline=SITE, width=3)
            if size >= 30:
                c.text((size // 2, size // 2), "+", max(MIN_TEXT, size // 2), bold=True, fill=SITE, anchor="mm",
                       ground=GROUND)
        else:
            c.draw.ellipse((size / 2 - 3, size / 2 - 3, size / 2 + 3, size / 2 + 3), fill=DOT)

    buildable = set(view.get("build_sites") or [])
    for site in view["sites"]:
        x0, y0, x1, y1 = box_of(site)
        can = site in buildable
        canvas.paste(canvas.piece(("kardinal-site", size, can), size, size, lambda c: draw_site(c, can),
                                  shape="rect"), x0, y0)
        canvas.mark(f"site:{site}", (x0, y0, x1, y1))

    def building(box, kind: str, colour, letter: str, width: int = 2):
        """A building (or the Dom's part) as a piece: its colour, its shape's icon, its colour's letter."""
        w, h = box[2] - box[0], box[3] - box[1]

        def draw_building(c: Canvas) -> None:
            c.draw.rectangle((0, 0, w - 2, h - 2), fill=colour, outline=INK, width=width)
            _icon(c, kind, (10, 12, w + 2, h + 6), colour)  # low and right: the letter sits top left
            if small:
                c.text((3, 0), letter, small, bold=True, fill=INK if sum(colour) > 500 else WHITE, ground=colour)

        canvas.paste(canvas.piece(("kardinal-building", kind, colour, letter, w, h, small), w - 1, h - 1,
                                  draw_building, shape="rect"), box[0] + 1, box[1] + 1)

    for label, kind, text in ((view["dom"][0], "tower", "DT"), (view["dom"][1], "house", "DN")):
        box = box_of(label)
        building(box, kind, DOM, text)
        canvas.mark(f"cell:{label}", box)

    last = view.get("last_built")
    for number, piece in enumerate(view["pieces"]):
        colour = COLOURS[piece["color"]]
        boxes = [box_of(c) for c in piece["cells"]]
        whole = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
        building(whole, piece["kind"], colour, LETTERS[piece["color"]])
        for c, b in zip(piece["cells"], boxes):
            canvas.mark(f"cell:{c}", b)
        if last and number == len(view["pieces"]) - 1 and (last["kind"], last["color"]) == \
                (piece["kind"], piece["color"]):  # the last action: the building just built
            canvas.frame(whole, pad=1, width=4, radius=4)
            canvas.mark("last_built", whole)

    if view.get("cardinal"):
        x0, y0, x1, y1 = box_of(view["cardinal"])
        canvas.pawn("cardinal", (x0 + x1) // 2, (y0 + y1) // 2, max(8, size // 2 - 6), CARDINAL, CARDINAL_MARK,
                    size=max(MIN_TEXT, size // 2))

    y = top + 24 + rows * size + 12
    legend = _("⌂ house · ♜ tower · □ courtyard (letter = colour) · + where you can build · {mark} the "
               "Cardinal", mark=CARDINAL_MARK)
    y = wrapped(canvas, 24, y, legend, fill=MUTED, line=30)
    if last:
        y = wrapped(canvas, 24, y + 2, _("Last built: {building} — next not {colour}, not a {kind}",
                                         building=translate(BUILDINGS[(last['color'], last['kind'])][0]),
                                         colour=translate(COLOUR_NAMES[last['color']]),
                                         kind=translate(KIND_NAMES[last['kind']])), line=30)
    x = canvas.text((24, y + 6), _("Stone supply"), MIN_TEXT, fill=MUTED, measure=True)[2] + 12
    for colour, count in view["stone_supply"].items():
        x = chip(canvas, f"supply:{colour}", x, y - 2, COLOURS[colour], str(count), size=36)  # room for "12"
    y += 46
    for p in range(n):
        # the badge in the seat's own (first) colour, as its buildings and the text's squares: one colour a seat
        right = seat_tag(canvas, f"seat:{p}", 24, y, p, names, acting=p in view["to_act"],
                         colour=COLOURS[view["colours"][p][0]])
        x = max(right + 14, 300)
        for colour in view["colours"][p]:
            x = chip(canvas, f"colour:{p}:{colour}", x, y, COLOURS[colour], LETTERS[colour], size=32)
        x = max(x + 14, 400)
        for colour, count in view["stones"][p].items():
            if count:
                x = chip(canvas, f"stones:{p}:{colour}", x, y - 2, COLOURS[colour], str(count), size=36)
        canvas.text((canvas.width - 24, y + 4), ngettext("{n} pt", "{n} pts", view['scores'][p]), MIN_TEXT, bold=True,
                    anchor="ra")  # the catalog's points, not an English "score"
        y += 40
    y += 4
    canvas.crop_height(y)
    return canvas
