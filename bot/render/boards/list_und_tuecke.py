"""Mit List und Tücke: the current trick with the trump colour, everyone's open piles and hidden-pile counts,
and — in a private picture — the viewer's hand with the playable cards raised."""
from __future__ import annotations

import json

from bot.render.boards import common
from bot.render.boards.common import chip, finish, player, seat_name, seat_tag, title
from bot.i18n import _, language, ngettext
from bot.render.canvas import Canvas
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
    canvas = Canvas(height=250)
    title(canvas, _("Your hand — {player}", player=player(names, part['viewer'])))
    x = 20
    if part["trump"]:
        canvas.text((canvas.width - 110, 20), _("Trump"), 16, bold=True)
        chip(canvas, "trump", canvas.width - 54, 14, COLOUR[part["trump"]], part["trump"], size=34)
    playable = set(part["can_play"] or [])
    ordered = sorted(part["hand"], key=lambda c: (ORDER.index(c[0]), int(c[1:])))
    step = min(66, (canvas.width - 60 - 62) // max(1, len(ordered) - 1)) if len(ordered) > 1 else 66
    for i, card in enumerate(ordered):
        raised = card in playable
        _card(canvas, f"hand:{card}", x + i * step, 78 - (12 if raised else 0), card, highlight=raised)
    if not ordered:
        canvas.text((x, 100), _("no cards in hand"), 18, fill=MUTED)
    y = 184
    if part["own_hidden"]:
        hidden = " · ".join(f"{c}: {' '.join(v)}" for c, v in part["own_hidden"].items())
        canvas.text((x, y), _("Your hidden piles — {piles}", piles=hidden), 16)
        y += 26
    hint = {"play": _("Your turn: play a raised card"), "pick": _("Your turn: pick cards of the trick"),
            "hide": _("Your turn: hide two colours")}.get(part["phase"] or "")
    return finish(canvas, x, y, hint)


def _panel(c: Canvas, p: int, names: list[str], facts: str, piles: dict, hidden: tuple, acting: bool) -> None:
    """Player ``p``'s panel from its top: name, counts, the open piles by colour, the hidden pile."""
    count, what = hidden
    c.panel((14, 0, c.width - 14, 86), fill=PANEL)
    seat_tag(c, f"seat:{p}", 24, 8, p, names, acting=acting)
    c.text((c.width - 24, 10), facts, 16, anchor="ra", ground=PANEL)
    opened = [card for colour in ORDER for card in piles[colour]]
    groups = sum(1 for colour in ORDER if piles[colour])
    room = c.width - 48 - (190 if count else 0) - 10 * groups
    step = min(46, room // max(1, len(opened)))
    x = 24
    for colour in ORDER:
        for card in piles[colour]:
            c.tile(f"open:{p}:{card}", x, 42, card, COLOUR[colour], w=min(44, step - 2), h=32)
            x += step
        if piles[colour]:
            x += 10
    if not opened and not count:
        c.text((24, 50), _("no cards taken yet"), 15, fill=MUTED, ground=PANEL)
    if count:
        c.card(f"hidden:{p}", x + 6, 40, "", None, w=28, h=38)
        c.text((x + 42, 48), _("×{n} hidden {colours}", n=count, colours=what).rstrip(), 16, ground=PANEL)


def draw(view: dict, names: list[str]) -> Canvas:
    n = view["players"]
    canvas = Canvas(height=260 + 96 * n)
    y = title(canvas, "Mit List und Tücke",
              _("round {round}/{rounds} · trick {trick}/14", round=view['round'], rounds=view['rounds'],
                trick=min(view['trick_no'], 14)))

    # the trick, with the trump beside it
    canvas.panel((14, y, canvas.width - 14, y + 160))
    canvas.text((28, y + 10), _("Trump"), 18, bold=True)
    if view.get("trump"):
        chip(canvas, "trump", 28, y + 38, COLOUR[view["trump"]], view["trump"], size=44)
    else:
        canvas.text((28, y + 44), "—", 24, fill=MUTED)
    canvas.text((130, y + 10), _("Trick"), 18, bold=True)
    x = 130
    shown = view["trick"] or []
    last = view.get("last_trick")
    label = ""
    if not shown and last and last.get("cards"):
        shown, label = last["cards"], _("last trick")
    for i, (seat, card) in enumerate(shown):
        tag = ""
        if not label and view["phase"] == "pick":
            tag = _("▲ high") if seat == view.get("high") else (_("▼ low") if seat == view.get("low") else "")
        box = _card(canvas, f"trick:{i}", x, y + 38, card, w=62, h=88, highlight=bool(tag), dim=bool(label))
        if not label and not tag and i == len(shown) - 1:  # the last action: the card just played
            canvas.frame(box)
        canvas.text((x + 31, y + 132), (tag + " " if tag else "") + player(names, seat, 10), 13, anchor="ma")
        x += 78
    if label:
        canvas.text((x + 6, y + 70), label, 16, fill=MUTED)
    y += 176

    # everyone's piles: each panel a layer cached by what it shows (a trick changes one of them)
    for p in range(n):
        facts = _("{n} in hand · {points} · total {total}", n=view['hand_counts'][p],
                  points=ngettext("{n} pt", "{n} pts", view['round_points'][p]), total=view['totals'][p])
        piles = {colour: list(view["open_piles"][p].get(colour) or []) for colour in ORDER}
        hidden = (view["hidden_counts"][p], "".join(view["hidden_colours"][p] or []))
        acting = p in view["to_act"]
        key = ("lut-panel", p, facts, json.dumps(piles), hidden, acting, seat_name(names, p), language())
        canvas.layer(key, 0, y, canvas.width, 87, lambda c, p=p, facts=facts, piles=piles, hidden=hidden,
                     acting=acting: _panel(c, p, names, facts, piles, hidden, acting))
        y += 96

    ranked = common.places(view)  # the places the result tells: resigned seats last
    if view["phase"] == "over" and ranked:
        order = sorted(range(n), key=lambda p: (ranked[p], p))
        canvas.text((20, y), _("Final:") + " " + ", ".join(f"{ranked[p]}. {player(names, p)} "
                                                   f"{view['totals'][p]}" for p in order), 18, bold=True)
        y += 32
    canvas.crop_height(y + 10)
    return canvas
