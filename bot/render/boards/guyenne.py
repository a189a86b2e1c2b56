"""Guyenne: the row of six castles with their control arrows (toward the player who holds one), the armies at the
contested castles — face down as backs in their side's colour, or revealed — and each army's counts. A private
picture shows the viewer's hand and his own face-down cards at the castles.

One colour per player, the text's: a player's colour is his army's side, 🟥 E (English, red) or 🟦 F (French, blue),
in the duel, the team game and the two-set game alike, always with his seat number (two-set neighbours may share a
side, so there the number tells them apart, as in the text).

Every text is at least ``MIN_TEXT`` (readable at phone width): an army too wide for its place shows its revealed
cards as small tiles in rows, a stack of backs is labelled once, labels wrap where a language's words are long."""
from __future__ import annotations

from bot.render.boards import common
from bot.render.boards.common import (beside_or_below, finish, player, seat_name, seat_tag, title, wrapped,
                                      wrapped_lines)
from bot.i18n import N_, _, ngettext, translate
from bot.render.canvas import MIN_TEXT, Canvas
from bot.render.palette import COLOURS, INK, MUTED, WHITE, text_colour_on

SIDE = {"E": COLOURS["red"], "F": COLOURS["blue"]}
SIDE_NAME = {"E": N_("English"), "F": N_("French")}
NEUTRAL = (205, 200, 190)
TILE_W, TILE_H, GAP = 136, 120, 14
CARD_W, CARD_H = 44, 62
SMALL_W, SMALL_H = 26, 30  # a revealed card as a tile, when an army's cards do not fit its place side by side
LINE = 32  # a line of 22 px text


def seat_colour(view: dict, seat: int) -> tuple[int, int, int]:
    """A player's colour: his army's side."""
    return SIDE[view["sides"][view["armies"][seat]]]


def _tile_x(k: int) -> int:
    return 24 + (k - 1) * (TILE_W + GAP)


def _troop(canvas: Canvas, name: str, x: int, y: int, card: str | None, side: str, hidden_mark: bool = False,
           colour=None, label: str | None = None):
    """A troop card: its kind (H, 5 … A) under a band of its army's colour and letter (the side's, or with two
    sets the player's colour and number); None draws the back."""
    colour, label = colour or SIDE[side], label or side
    if card is None:
        box = (x, y, x + CARD_W, y + CARD_H)
        canvas.draw.rounded_rectangle(box, radius=6, fill=colour, outline=INK, width=2)
        if label != " ":  # a covered back in a stack is not labelled
            canvas.text((x + CARD_W // 2, y + CARD_H // 2), label, MIN_TEXT, bold=True,
                        fill=text_colour_on(colour), anchor="mm")
        canvas.mark(name, box)
        return box
    box = canvas.card(name, x, y, card[0], colour, label, w=CARD_W, h=CARD_H)
    if hidden_mark:  # the owner's own face-down card: shown to him, marked as unseen by others
        canvas.draw.rounded_rectangle(box, radius=8, outline=MUTED, width=3)
    return box


def _army(canvas: Canvas, name: str, x: int, y: int, width: int, cards: list, side: str, colour=None,
          label: str | None = None) -> None:
    """An army's cards at a castle within ``width``: backs as a stack (labelled on top), revealed cards side by
    side when they fit, else as small tiles (kind on the army's colour) in rows."""
    colour = colour or SIDE[side]
    if any(card is None for card in cards):
        step = min(CARD_W + 4, (width - CARD_W) // max(1, len(cards) - 1)) if len(cards) > 1 else 0
        for i, card in enumerate(cards):
            _troop(canvas, f"{name}:{i}", x + i * step, y, card, side, colour=colour,
                   label=label if i == len(cards) - 1 else " ")
        return
    if len(cards) * (CARD_W + 2) - 2 <= width:
        for i, card in enumerate(cards):
            _troop(canvas, f"{name}:{i}", x + i * (CARD_W + 2), y, card, side, colour=colour, label=label)
        return
    per_row = max(1, (width + 2) // (SMALL_W + 2))
    for i, card in enumerate(cards):
        row, col = divmod(i, per_row)
        canvas.tile(f"{name}:{i}", x + col * (SMALL_W + 2), y + row * (SMALL_H + 2), card[0], colour, w=SMALL_W,
                    h=SMALL_H)


def _fitted(canvas: Canvas, text: str, width: int, size: int = MIN_TEXT) -> str:
    """``text`` cut (with …) to ``width`` px."""
    if canvas.text_width(text, size) <= width:
        return text
    while len(text) > 1 and canvas.text_width(text + "…", size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def private_part(view: dict) -> dict:
    return {"viewer": view["viewer"], "side": view["sides"][view["armies"][view["viewer"]]],
            "hand": view.get("hand") or [],
            "placed": {k: v for k, v in (view.get("placed") or {}).items() if v}, "aside": view.get("aside"),
            "acting": view["viewer"] in view["to_act"]}


def draw_hand(part: dict, names: list[str]) -> Canvas:
    """The viewer's hand and the cards he has put face down this round (only he knows them): as tall as it needs."""
    canvas = Canvas(height=70 + CARD_H + 20 + len(part["placed"]) * (CARD_H + 10) + 3 * LINE + 40)
    title(canvas, _("Your army — {player} ({side} {side_name})", player=player(names, part['viewer']),
                    side=part['side'], side_name=translate(SIDE_NAME[part['side']])))
    for i, card in enumerate(part["hand"]):
        _troop(canvas, f"hand:{card}", 24 + i * (CARD_W + 12), 70, card, part["side"])
    if not part["hand"]:
        canvas.text((24, 90), _("no cards in hand"), MIN_TEXT, fill=MUTED)
    y = 70 + CARD_H + 20
    labels = {castle: _("face down at castle {castle}:", castle=castle) for castle in part["placed"]}
    cards_x = max([230] + [24 + canvas.text_width(label, MIN_TEXT) + 14 for label in labels.values()])
    for castle, cards in sorted(part["placed"].items()):
        canvas.text((24, y + 18), labels[castle], MIN_TEXT)
        for i, card in enumerate(cards):
            _troop(canvas, f"placed:{castle}:{card}", cards_x + i * (CARD_W + 8), y, card, part["side"],
                   hidden_mark=True)
        y += CARD_H + 10
    if part["aside"] is not None:
        canvas.text((24, y), _("set aside: {cards} ({n}/5)", cards=' '.join(c[0] for c in part['aside']) or '—',
                               n=len(part['aside'])), MIN_TEXT)
        y += LINE
    return finish(canvas, 24, y, _("Your move — see the buttons") if part["acting"] else None)


LAST = COLOURS["orange"]


def _is_last(view: dict, k: int) -> bool:
    return (view.get("last") or {}).get("castle") == k


def _highlight(canvas: Canvas, k: int, box) -> None:
    """The castle of the last action, ringed in orange (the text's 👉)."""
    x0, y0, x1, y1 = box
    ring = (x0 - 5, y0 - 5, x1 + 5, y1 + 5)
    canvas.draw.rounded_rectangle(ring, radius=14, outline=LAST, width=4)
    canvas.mark(f"last:{k}", ring)


def draw_two_sets(view: dict, names: list[str]) -> Canvas:
    """Two sets: one row per frontier — its left player, its three castles from the table's centre outward
    (colour and number of the player holding each, the arrow toward him), its right player — and under a contested
    castle both players' cards."""
    n = len(view["members"])
    row_h, tile, step, first = 160, 104, 184, 250
    canvas = Canvas(height=70 + n * row_h + 2 * LINE * n + 20)
    title(canvas, "Guyenne", _("{level} · two sets · round {round}", level=translate(view['level']),
                               round=view['round']))
    fights = {f["castle"]: f for f in view["fights"]}
    y = 64
    for f, (a, b) in enumerate(view["frontiers"]):
        for side, seat, x in ((0, a, 24), (1, b, canvas.width - 24)):
            colour = seat_colour(view, seat)
            canvas.pawn(f"frontier:{f}:{side}", x + (16 if side == 0 else -16), y + 40, 16, colour, str(seat + 1),
                        size=MIN_TEXT)
            room = first - 40 - 24 - 14 if side == 0 else canvas.width - 40 - 24 - (first + 2 * step + tile) - 14
            canvas.text((x + (40 if side == 0 else -40), y + 28), _fitted(canvas, seat_name(names, seat), room),
                        MIN_TEXT, anchor="la" if side == 0 else "ra")
        for i in range(3):
            k = 3 * f + 1 + i
            x = first + i * step
            owner = view["castles"][k - 1]
            fill = NEUTRAL if owner is None else seat_colour(view, owner)
            box = (x, y + 8, x + tile, y + 72)
            canvas.draw.rounded_rectangle(box, radius=10, fill=fill, outline=INK, width=3 if k in fights else 1)
            canvas.mark(f"castle:{k}", box)
            if _is_last(view, k):
                _highlight(canvas, k, box)
            ink = text_colour_on(fill)
            canvas.text((x + 8, y + 10), str(k), MIN_TEXT, bold=True, fill=ink)
            cx, cy = x + tile // 2, y + 50
            if owner is None:
                canvas.draw.line((cx - 24, cy, cx + 24, cy), fill=ink, width=5)
            else:
                canvas.text((x + tile - 8, y + 10), f"{owner + 1}{view['sides'][owner]}", MIN_TEXT, bold=True,
                            fill=ink, anchor="ra")
                sign = -1 if owner == a else 1  # the arrow points at the holder's side of the row
                canvas.draw.line((cx - sign * 22, cy, cx + sign * 8, cy), fill=ink, width=6)
                canvas.draw.polygon([(cx + sign * 6, cy - 10), (cx + sign * 6, cy + 10), (cx + sign * 26, cy)],
                                    fill=ink)
            fight = fights.get(k)
            if fight is None:
                continue
            for j, army in enumerate((a, b)):
                shown = fight["revealed"][army]
                cards = shown if shown is not None else [None] * fight["counts"][army]
                _army(canvas, f"army:{k}:{army}", x - 42 + j * 92, y + 80, 84, cards, view["sides"][army],
                      colour=seat_colour(view, army), label=str(army + 1))
        y += row_h
    for a in range(n):
        acting = a in view["to_act"]
        right = seat_tag(canvas, f"seat:{a}", 24, y, a, names, acting=acting, colour=seat_colour(view, a))
        facts = translate(SIDE_NAME[view['sides'][a]]) + " · " + _(
            "hand {hand} · deck {deck} · discard {discard} · {points}", hand=view['hand_counts'][a],
            deck=view['deck_counts'][a], discard=view['discard_counts'][a],
            points=ngettext("{n} pt", "{n} pts", view['points'][a]))
        y = beside_or_below(canvas, right, y, facts, fill=MUTED, line=LINE) + 6
    canvas.crop_height(y + 8)
    return canvas


def draw(view: dict, names: list[str]) -> Canvas:
    if view["mode"] == "two_sets":
        return draw_two_sets(view, names)
    bottom = view["sides"].index("E")
    top = 1 - bottom
    canvas = Canvas(height=1200)
    variant = " · " + _("teams") if view["mode"] == "teams" else ""
    title(canvas, "Guyenne", f"{translate(view['level'])}{variant} · " + _("round {round}", round=view['round']))

    def army_name(a: int) -> str:
        return " + ".join(player(names, m) for m in view["members"][a])

    def info(p: int, y: int) -> int:
        """An army's block: its side, its players (who is to act, who is first), its counts; returns the y below."""
        side = view["sides"][p]
        canvas.draw.rounded_rectangle((24, y, 54, y + 30), radius=5, fill=SIDE[side], outline=INK, width=2)
        canvas.text((39, y + 15), side, MIN_TEXT, bold=True, fill=WHITE, anchor="mm")
        canvas.mark(f"side:{p}", (24, y, 54, y + 30))
        acting = any(m in view["to_act"] for m in view["members"][p])
        who = f"{army_name(p)} ({translate(SIDE_NAME[side])})" + ("  " + _("◀ to act") if acting else "") + \
            ("  · " + _("first") if p == view["first"] and view["phase"] != "over" else "")
        y = wrapped(canvas, 64, y + 2, who, bold=acting, line=LINE)
        hands = "+".join(str(view["hand_counts"][m]) for m in view["members"][p])
        facts = _("hand {hand} · deck {deck} · discard {discard} · rebuilds left {rebuilds} · {points}", hand=hands,
                  deck=view['deck_counts'][p], discard=view['discard_counts'][p],
                  rebuilds=view['reshuffles_left'][p], points=ngettext("{n} pt", "{n} pts", view['points'][p]))
        y = wrapped(canvas, 64, y, facts, fill=MUTED, line=LINE)
        if view["removed"][p]:
            y = wrapped(canvas, 64, y, _("lost for good:") + " " + " ".join(c[0] for c in view["removed"][p]),
                        fill=MUTED, line=LINE)
        return y

    fights = {f["castle"]: f for f in view["fights"]}

    def tag(k: int, p: int) -> str:
        role = fights[k]["roles"][p]
        return (_("⚑ defends") if role == "defend" else _("⚔ attacks")) + (
            " · " + _("conceded") if fights[k]["conceded"] and role == "defend" else "")

    def armies(k: int, p: int) -> list:
        shown = fights[k]["revealed"][p]
        return shown if shown is not None else [None] * fights[k]["counts"][p]  # backs until revealed

    def tag_lines(p: int) -> int:  # a tag may take two lines where its words are long ("⚑ verteidigt · …")
        return max([wrapped_lines(canvas, _tile_x(k), tag(k, p), right=_tile_x(k) + TILE_W + GAP - 4)
                    for k in fights if armies(k, p)] or [0])

    y = info(top, 60) + 8
    top_tags, top_cards = y, y + tag_lines(top) * LINE
    row_y = top_cards + CARD_H + 12  # castle row in the middle: the top army above it, the bottom one below
    for k in range(1, 7):
        x = _tile_x(k)
        owner = view["castles"][k - 1]
        fill = NEUTRAL if owner is None else SIDE[view["sides"][owner]]
        box = (x, row_y, x + TILE_W, row_y + TILE_H)
        label = _("neutral") if owner is None else view["sides"][owner]
        sign = 0 if owner is None else -1 if owner == top else 1  # the arrow points at the player who holds it

        def draw_castle(c: Canvas, k=k, fill=fill, label=label, sign=sign, thick=k in fights) -> None:
            c.draw.rounded_rectangle((0, 0, TILE_W, TILE_H), radius=12, fill=fill, outline=INK,
                                     width=3 if thick else 1)
            ink = text_colour_on(fill)
            c.text((10, 6), str(k), MIN_TEXT, bold=True, fill=ink, ground=fill)
            cx, cy = TILE_W // 2, TILE_H // 2 + 10
            if not sign:  # across: nobody's (the word under the line, where it has the tile's width)
                c.draw.line((cx - 34, cy - 16, cx + 34, cy - 16), fill=ink, width=6)
                c.text((cx, TILE_H - 10), label, MIN_TEXT, bold=True, fill=ink, anchor="md", ground=fill)
            else:
                c.text((TILE_W - 10, 6), label, MIN_TEXT, bold=True, fill=ink, anchor="ra", ground=fill)
                c.draw.line((cx, cy - sign * 30, cx, cy + sign * 18), fill=ink, width=7)
                c.draw.polygon([(cx - 16, cy + sign * 14), (cx + 16, cy + sign * 14), (cx, cy + sign * 38)], fill=ink)

        canvas.paste(canvas.piece(("guyenne-castle", k, fill, label, sign, k in fights), TILE_W + 1, TILE_H + 1,
                                  draw_castle, radius=12), x, row_y)
        canvas.mark(f"castle:{k}", box)
        if _is_last(view, k):
            _highlight(canvas, k, box)
        if sign:
            cx, cy = x + TILE_W // 2, row_y + TILE_H // 2 + 10
            canvas.mark(f"arrow:{k}", (cx - 16, min(cy + sign * 14, cy + sign * 38), cx + 16,
                                       max(cy + sign * 14, cy + sign * 38)))
    bottom_cards = row_y + TILE_H + 12
    bottom_tags = bottom_cards + CARD_H + 4
    for k in fights:
        x = _tile_x(k)
        for p, cards_y, tag_y in ((top, top_cards, top_tags), (bottom, bottom_cards, bottom_tags)):
            cards = armies(k, p)
            _army(canvas, f"army:{k}:{p}", x, cards_y, TILE_W, cards, view["sides"][p])
            if cards:
                wrapped(canvas, x, tag_y, tag(k, p), right=x + TILE_W + GAP - 4, fill=MUTED, line=LINE)
    y = info(bottom, bottom_tags + tag_lines(bottom) * LINE + 8) + 8

    if not view["fights"] and view["last_fights"]:
        lines = []
        for f in view["last_fights"]:
            result = _("tie") if f["winner"] is None else army_name(f["winner"]) + " " + view["sides"][f["winner"]]
            lines.append(_("castle {castle}: {result}", castle=f['castle'], result=result) +
                         (" " + _("(conceded)") if f["conceded"] else ""))
        y = wrapped(canvas, 24, y, _("Last round — {fights}", fights=" · ".join(lines)), fill=MUTED, line=LINE)
    if view["phase"] == "over":
        ranked = common.places(view)  # resigned seats last: an army is placed as its best member
        places = [min(ranked[m] for m in view["members"][a]) for a in (0, 1)]
        best = places.index(min(places))
        text = _("Draw") if places[0] == places[1] else "★ " + (
            _("{who} wins", who=army_name(best)) if len(view["members"][best]) == 1 else
            _("{who} win", who=army_name(best)))
        y = wrapped(canvas, 24, y, f"{text} · {view['points'][0]}–{view['points'][1]}", 24, bold=True, line=36)
    canvas.crop_height(y + 6)
    return canvas
