"""Mit List und Tücke: the current trick with the trump colour, everyone's open piles and hidden-pile counts,
and — in a private picture — the viewer's hand with the playable cards raised."""
from __future__ import annotations

import json

from bot.render.boards import common
from bot.render.boards.common import (beside_or_below, chip, finish, fits_beside, player, seat_colour, seat_name,
                                      seat_tag, tag_width, title, wrapped)
from bot.i18n import _, language, ngettext
from bot.render.canvas import MIN_TEXT, Canvas
from bot.render.palette import COLOURS, MUTED, PANEL

COLOUR = {"R": COLOURS["red"], "G": COLOURS["green"], "B": COLOURS["blue"], "Y": COLOURS["yellow"]}
ORDER = "RGBY"


def _card(canvas: Canvas, name: str, x: int, y: int, text: str, **kw):
    return canvas.card(name, x, y, text[1:], COLOUR[text[0]], text[0], **kw)


def private_part(view: dict) -> dict:
    """What a hand picture shows: it changes far less often than the whole view."""
    acting = view["viewer"] in view["to_act"]
    return {"viewer": view["viewer"], "hand": view.get("hand") or [], "own_hidden": view.get("own_hidden") or {},
            "trump": view.get("trump"), "can_play": view.get("can_play") if acting else None,
            "phase": view["phase"] if acting else None}


def draw_hand(part: dict, names: list[str]) -> Canvas:
    """The viewer's hand (playable cards raised and marked) with the trump and the own hidden piles."""
    canvas = Canvas(height=400)
    title(canvas, _("Your hand — {player}", player=player(names, part['viewer'])))
    x = 20
    if part["trump"]:
        canvas.text((canvas.width - 64, 20), _("Trump"), MIN_TEXT, bold=True, anchor="ra")
        chip(canvas, "trump", canvas.width - 54, 14, COLOUR[part["trump"]], part["trump"], size=36)
    playable = set(part["can_play"] or [])
    ordered = sorted(part["hand"], key=lambda c: (ORDER.index(c[0]), int(c[1:])))
    step = min(66, (canvas.width - 60 - 62) // max(1, len(ordered) - 1)) if len(ordered) > 1 else 66
    for i, card in enumerate(ordered):
        raised = card in playable
        _card(canvas, f"hand:{card}", x + i * step, 78 - (12 if raised else 0), card, highlight=raised)
    if not ordered:
        canvas.text((x, 100), _("no cards in hand"), MIN_TEXT, fill=MUTED)
    y = 184
    if part["own_hidden"]:
        hidden = " · ".join(f"{c}: {' '.join(v)}" for c, v in part["own_hidden"].items())
        y = wrapped(canvas, x, y, _("Your hidden piles — {piles}", piles=hidden), line=LINE)
    hint = {"play": _("Your turn: play a raised card"), "pick": _("Your turn: pick cards of the trick"),
            "hide": _("Your turn: hide two colours")}.get(part["phase"] or "")
    return finish(canvas, x, y, hint)


LINE = 32  # a line of 22 px text
TILE_W, TILE_H, TILE_STEP, ROW = 56, 32, 58, 38  # an open card as a tile; tiles wrap into rows of ROW px
HIDDEN_ROOM = 250  # the hidden pile's back and count, right of the tiles


def _tile_rows(piles: dict, width: int, hidden: bool) -> list[list[tuple[str, str, int]]]:
    """The open piles as rows of (colour, card, x): by colour, a gap between colours, wrapping at the right margin
    (less room for the hidden pile on the first row)."""
    rows: list[list] = [[]]
    x = 24
    for colour in ORDER:
        for card in piles[colour]:
            right = width - 24 - (HIDDEN_ROOM if hidden and len(rows) == 1 else 0)
            if x + TILE_W > right:
                rows.append([])
                x = 24
            rows[-1].append((colour, card, x))
            x += TILE_STEP
        if piles[colour]:
            x += 10
    return rows


def _head(c: Canvas, p: int, names: list[str], acting: bool, facts: str) -> int:
    """The lines a panel's head takes: the name with the counts beside it, or below when they do not fit."""
    return 1 if fits_beside(c, 24 + tag_width(c, p, names, acting), facts) else 2


def _panel_height(c: Canvas, p: int, names: list[str], facts: str, piles: dict, hidden: tuple, acting: bool) -> int:
    return 8 + _head(c, p, names, acting, facts) * LINE + len(_tile_rows(piles, c.width, bool(hidden[0]))) * ROW + 10


def _panel(c: Canvas, p: int, names: list[str], facts: str, piles: dict, hidden: tuple, acting: bool,
           height: int) -> None:
    """Player ``p``'s panel from its top: name, counts, the open piles by colour (in rows), the hidden pile."""
    count, what = hidden
    c.panel((14, 0, c.width - 14, height), fill=PANEL)
    right = seat_tag(c, f"seat:{p}", 24, 8, p, names, acting=acting)
    y = beside_or_below(c, right, 8, facts, ground=PANEL, line=LINE) + 2
    rows = _tile_rows(piles, c.width, bool(count))
    for r, row in enumerate(rows):
        for colour, card, x in row:
            c.tile(f"open:{p}:{card}", x, y + r * ROW, card, COLOUR[colour], w=TILE_W, h=TILE_H)
    if not rows[0] and not count:
        c.text((24, y + 2), _("no cards taken yet"), MIN_TEXT, fill=MUTED, ground=PANEL)
    if count:
        x = max((x for colour, card, x in rows[0]), default=24 - TILE_STEP) + TILE_STEP + 10
        c.card(f"hidden:{p}", x, y - 2, "", None, w=26, h=36)
        c.text((x + 34, y + 3), _("×{n} hidden {colours}", n=count, colours=what).rstrip(), MIN_TEXT, ground=PANEL)


def _trick_spacing(canvas: Canvas, view: dict) -> int:
    """Room for a trick card and, under it, its player's number and the high/low tag (measured: "▼ niedrig")."""
    tags = [_("▲ high"), _("▼ low")] if view["phase"] == "pick" else []
    return max([84] + [canvas.text_width(t, MIN_TEXT) + 12 for t in tags])


def draw(view: dict, names: list[str]) -> Canvas:
    n = view["players"]
    canvas = Canvas(height=300 + 200 * n)
    y = title(canvas, "Mit List und Tücke",
              _("round {round}/{rounds} · trick {trick}/14", round=view['round'], rounds=view['rounds'],
                trick=min(view['trick_no'], 14)))

    # the trick, with the trump beside it: under each card its player's number (his colour) and high/low
    shown = view["trick"] or []
    last = view.get("last_trick")
    label = ""
    if not shown and last and last.get("cards"):
        shown, label = last["cards"], _("last trick")
    tags = [(_("▲ high") if seat == view.get("high") else _("▼ low") if seat == view.get("low") else "")
            if not label and view["phase"] == "pick" else "" for seat, card in shown]
    bottom = y + (204 if any(tags) else 178)
    canvas.panel((14, y, canvas.width - 14, bottom))
    canvas.text((28, y + 10), _("Trump"), MIN_TEXT, bold=True)
    if view.get("trump"):
        chip(canvas, "trump", 28, y + 44, COLOUR[view["trump"]], view["trump"], size=44)
    else:
        canvas.text((28, y + 50), "—", 24, fill=MUTED)
    start = max(130, 28 + canvas.text_width(_("Trump"), MIN_TEXT, True) + 24)
    heading = canvas.text((start, y + 10), _("Trick"), MIN_TEXT, bold=True, measure=True)
    if label:
        canvas.text((heading[2] + 12, y + 10), "· " + label, MIN_TEXT, fill=MUTED)
    spacing = _trick_spacing(canvas, view)
    for i, ((seat, card), tag) in enumerate(zip(shown, tags)):
        x = start + i * spacing
        box = _card(canvas, f"trick:{i}", x, y + 44, card, w=62, h=88, highlight=bool(tag), dim=bool(label))
        if not label and not tag and i == len(shown) - 1:  # the last action: the card just played
            canvas.frame(box)
        canvas.pawn(f"trick-seat:{i}", x + 31, y + 154, 16, seat_colour(seat), str(seat + 1), size=MIN_TEXT)
        if tag:
            canvas.text((x + 31, y + 172), tag, MIN_TEXT, anchor="ma")
    y = bottom + 12

    # everyone's piles: each panel a layer cached by what it shows (a trick changes one of them)
    for p in range(n):
        facts = _("{n} in hand · {points} · total {total}", n=view['hand_counts'][p],
                  points=ngettext("{n} pt", "{n} pts", view['round_points'][p]), total=view['totals'][p])
        piles = {colour: list(view["open_piles"][p].get(colour) or []) for colour in ORDER}
        hidden = (view["hidden_counts"][p], "".join(view["hidden_colours"][p] or []))
        acting = p in view["to_act"]
        height = _panel_height(canvas, p, names, facts, piles, hidden, acting)
        key = ("lut-panel", p, facts, json.dumps(piles), hidden, acting, seat_name(names, p), language())
        canvas.layer(key, 0, y, canvas.width, height + 1, lambda c, p=p, facts=facts, piles=piles, hidden=hidden,
                     acting=acting, height=height: _panel(c, p, names, facts, piles, hidden, acting, height))
        y += height + 10

    ranked = common.places(view)  # the places the result tells: resigned seats last
    if view["phase"] == "over" and ranked:
        order = sorted(range(n), key=lambda p: (ranked[p], p))
        y = wrapped(canvas, 20, y, _("Final:") + " " + ", ".join(f"{ranked[p]}. {player(names, p)} "
                                                              f"{view['totals'][p]}" for p in order), bold=True)
    canvas.crop_height(y + 10)
    return canvas
