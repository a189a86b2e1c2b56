"""Troubadour: per player the stock count, the waste's top card, the four castles (their top cards, an empty one
showing its suit), the five villages V1–V5 fanned with face-down cards as backs, and the trio of nobles (revealed,
or a back while still secret). Each player's panel is as tall as his longest village. A seat's own picture shows
its table with its trio face up (secret to the others until all have chosen) and its nobles' state this turn.

Every text is at least ``MIN_TEXT`` (readable at phone width); the groups are placed by their measured labels."""
from __future__ import annotations

import json

from bot.i18n import _, language, translate
from bot.render import glyphs
from bot.render.boards import common
from bot.render.boards.common import (beside_or_below, finish, fits_beside, player, seat_tag, tag_width, title,
                                      wrapped)
from bot.render.canvas import MIN_TEXT, Canvas
from bot.render.palette import INK, MUTED, PANEL, SUIT_RED, SUITS, blend
from rules.troubadour.text import STATUS
from rules.troubadour.words import noble, trio

CARD_W, CARD_H = 58, 80
NOBLE_W, NOBLE_H = 44, 64
FAN_STEP = 30  # a covered village card shows its index (22 px) in a strip this tall
CASTLE_SUITS = "SHDC"  # the castles' order in the view (as the text writes them)
LINE = 32  # a line of 22 px text
LEFT, RIGHT = 26, 934  # a panel's inner margins
LIGHT_RED = blend(SUIT_RED, PANEL, 0.5)


def _slot(canvas: Canvas, name: str, x: int, y: int, suit: str = "", w: int = CARD_W, h: int = CARD_H) -> None:
    """An empty place (no castle yet, an empty waste or village): an outline, with the castle's suit faint in it
    (a dash in an empty waste or village: a word would not fit a card's width at a readable size)."""
    box = (x, y, x + w, y + h)
    canvas.draw.rounded_rectangle(box, radius=7, outline=MUTED, width=2)
    if suit:
        symbol, colour = SUITS[suit]
        canvas.text((x + w // 2, y + h // 2), symbol, 32, fill=LIGHT_RED if colour == SUIT_RED else MUTED,
                    anchor="mm", ground=PANEL)
    else:
        canvas.text((x + w // 2, y + h // 2), "–", MIN_TEXT, fill=MUTED, anchor="mm", ground=PANEL)
    canvas.mark(name, box)


def _fan_height(village: list) -> int:
    return CARD_H + FAN_STEP * (len(village) - 1) if village else CARD_H


def _labels() -> list[str]:
    return [_("waste"), _("castles"), *(f"V{v + 1}" for v in range(5)), _("nobles")]


def _columns() -> list[int]:
    """The x of each group (waste, castles, V1–V5, nobles): each as wide as its cards or its label, whichever is
    wider (translated labels differ a lot: "offener Stapel" over one card), gaps shrinking when room runs out."""
    widths = [CARD_W, 4 * CARD_W + 3 * 4, *([CARD_W] * 5), 3 * NOBLE_W + 2 * 4]
    measured = [max(w, glyphs.measure(label, MIN_TEXT, i in range(2, 7))[1]) for i, (w, label) in
                enumerate(zip(widths, _labels()))]
    gaps = [18, 18, 6, 6, 6, 6, 18]
    spare = RIGHT - LEFT - sum(measured) - sum(gaps)
    if spare < 0:  # take it from the larger gaps first
        for i in (0, 1, 6):
            cut = min(-spare, gaps[i] - 8)
            gaps[i] -= cut
            spare += cut
    xs, x = [], LEFT
    for width, gap in zip(measured, gaps + [0]):
        xs.append(x)
        x += width + gap
    return xs


def _head_height(c: Canvas, p: int, names: list[str], acting: bool, facts: str) -> int:
    right = LEFT + tag_width(c, p, names, acting)
    return LINE if fits_beside(c, right, facts) else 2 * LINE


def _facts(seat: dict) -> str:
    return _("stock {stock} · waste {waste} · {cards}/40 castle cards", stock=seat['stock'], waste=seat['waste'],
             cards=seat.get('castle_cards', 0))


def _panel_height(head: int, seat: dict) -> int:
    return 8 + head + LINE + max(_fan_height(v) for v in seat["villages"]) + 12


def _panel(c: Canvas, p: int, seat: dict, names: list[str], acting: bool, trio, chosen: bool, phase: str,
           ace: dict | None, height: int) -> None:
    """Player ``p``'s panel, drawn from its top (y = 0)."""
    c.panel((14, 0, c.width - 14, height))
    c.mark(f"panel:{p}", (14, 0, c.width - 14, height))
    right = seat_tag(c, f"seat:{p}", LEFT, 8, p, names, acting=acting)
    below = beside_or_below(c, right, 8, _facts(seat), fill=MUTED, ground=PANEL, line=LINE)
    label, cards = below, below + LINE
    xs = _columns()
    # the waste's top card
    c.text((xs[0], label), _("waste"), MIN_TEXT, fill=MUTED, ground=PANEL)
    if seat["waste_top"]:
        c.playing_card(f"waste:{p}", xs[0], cards, seat["waste_top"], w=CARD_W, h=CARD_H)
    else:
        _slot(c, f"waste:{p}", xs[0], cards)
    # castles: the top card of each, an empty one with its suit
    c.text((xs[1], label), _("castles"), MIN_TEXT, fill=MUTED, ground=PANEL)
    for i, card in enumerate(seat["castles"]):
        x = xs[1] + i * (CARD_W + 4)
        if card:
            c.playing_card(f"castle:{p}:{i}", x, cards, card, w=CARD_W, h=CARD_H)
        else:
            _slot(c, f"castle:{p}:{i}", x, cards, suit=CASTLE_SUITS[i])
    # villages V1–V5, fanned downward: backs for the face-down cards, a covered card shows its index
    for v, village in enumerate(seat["villages"]):
        x = xs[2 + v]
        c.mark(f"village-label:{p}:{v}", c.text((x + CARD_W // 2, label), f"V{v + 1}", MIN_TEXT, bold=True,
                                                fill=MUTED, anchor="ma", ground=PANEL, measure=True))
        if not village:
            _slot(c, f"village:{p}:{v}", x, cards)
            continue
        for i, card in enumerate(village):
            name = f"village:{p}:{v}:{i}"
            h = CARD_H if i == len(village) - 1 else FAN_STEP + 10  # covered: only its index strip is seen
            if card is None:
                c.card(name, x, cards + i * FAN_STEP, "", None, w=CARD_W, h=h)
            else:
                c.playing_card(name, x, cards + i * FAN_STEP, card, w=CARD_W, h=h)
        if ace and ace["village"] == v + 1 and 0 <= ace["position"] < len(village):
            # the last action: the card the Q♥ just turned up
            i = ace["position"]
            c.frame((x, cards + i * FAN_STEP, x + CARD_W, cards + i * FAN_STEP + CARD_H), width=3, pad=2)
    # the trio of nobles
    tx = xs[7]
    c.text((tx, label), _("nobles"), MIN_TEXT, fill=MUTED, ground=PANEL)
    if trio:
        for i, card in enumerate(trio):
            c.playing_card(f"trio:{p}:{i}", tx + i * (NOBLE_W + 4), cards, card, w=NOBLE_W, h=NOBLE_H)
    elif chosen:  # chosen, not yet revealed: nobody sees it
        for i in range(3):
            c.card(f"trio:{p}:{i}", tx + i * (NOBLE_W + 4), cards, "", None, w=NOBLE_W, h=NOBLE_H)
    else:
        c.text((tx, cards + 16), _("choosing…") if phase == "select_trios" else "—", MIN_TEXT, fill=MUTED,
               ground=PANEL)


def _panel_layer(canvas: Canvas, y: int, p: int, seat: dict, names: list[str], acting: bool, trio, chosen: bool,
                 phase: str, ace: dict | None) -> int:
    """Player ``p``'s panel at ``y``, a layer drawn once for what it shows (a move changes one or two of them);
    returns its height."""
    height = _panel_height(_head_height(canvas, p, names, acting, _facts(seat)), seat)
    key = ("troubadour-panel", p, json.dumps(seat, sort_keys=True), json.dumps(trio), chosen, acting,
           phase if not trio and not chosen else "", json.dumps(ace, sort_keys=True), common.seat_name(names, p),
           language())
    canvas.layer(key, 0, y, canvas.width, height + 1,
                 lambda c: _panel(c, p, seat, names, acting, trio, chosen, phase, ace, height))
    return height


def draw(view: dict, names: list[str]) -> Canvas:
    n = view["players"]
    canvas = Canvas(height=80 + sum(_panel_height(2 * LINE, seat) + 10 for seat in view["seats"]) + 50)
    phase = view["phase"]
    title(canvas, "Troubadour", _("game over") if phase == "over" else
          (_("choosing nobles") if phase == "select_trios" else _("round {round}", round=view['round'])))
    y = 60
    trios = view.get("trios") or [None] * n
    chosen = view.get("trio_chosen") or [False] * n
    turn = view.get("turn") or {}
    for p, seat in enumerate(view["seats"]):
        seat = {**seat, "castle_cards": seat.get("castle_cards", int(view["scores"][p]))}
        trio = trios[p] if p < len(trios) else None
        ace = turn.get("pending_ace") if turn.get("seat") == p else None
        y += _panel_layer(canvas, y, p, seat, names, p in view["to_act"], trio, chosen[p], phase, ace) + 10
    if phase == "over":
        first = common.first_places(view)
        if first is None:
            first = [] if view.get("draw") or view.get("winner") is None else [view["winner"]]
        text = "★ " + _("{who} wins", who=player(names, first[0])) if len(first) == 1 else _("Draw")
        canvas.text((24, y), text, 24, bold=True, fill=INK)
        y += 36
    canvas.crop_height(y + 4)
    return canvas


def private_part(view: dict) -> dict:
    """What a seat's own picture shows, from its view only: its table, its trio (secret or revealed), its
    nobles' use this turn, its tie-break noble."""
    me = view["viewer"]
    turn = view.get("turn") or {}
    mine = turn.get("seat") == me
    trios = view.get("trios") or []
    seat = view["seats"][me]
    return {"viewer": me, "phase": view["phase"], "seat": {**seat, "castle_cards": seat.get(
                "castle_cards", int(view["scores"][me]))},
            "trio": view.get("my_trio") or (trios[me] if me < len(trios) else None),
            "chosen": bool((view.get("trio_chosen") or [False] * (me + 1))[me]),
            "nobles": turn.get("nobles") if mine else None, "ace": turn.get("pending_ace") if mine else None,
            "tiebreak": view.get("my_tiebreak"), "acting": me in view["to_act"]}


def draw_hand(part: dict, names: list[str]) -> Canvas:
    """A seat's own picture: its table in full with its trio face up (still secret to the others while they
    choose), then its nobles' state this turn and its tie-break noble."""
    me, seat = part["viewer"], part["seat"]
    canvas = Canvas(height=80 + _panel_height(2 * LINE, seat) + 6 * LINE + 40)
    y = title(canvas, _("Your table — {player}", player=player(names, me)))
    y += _panel_layer(canvas, y, me, seat, names, part["acting"], part["trio"], part["chosen"], part["phase"],
                      part["ace"]) + 14
    lines = []
    if part["phase"] == "select_trios" and part["trio"]:
        lines.append(_("Your trio: {nobles} (secret until everyone has chosen).", nobles=trio(part["trio"])))
    if part["tiebreak"]:
        lines.append(_("Your choice: {noble}", noble=noble(part["tiebreak"])))
    if part["nobles"]:
        lines.append(_("Nobles:") + " " + " · ".join(f"{noble(k)} {translate(STATUS[v])}"
                                                   for k, v in part["nobles"].items()))
    for line in lines:
        y = wrapped(canvas, 24, y, line)
    return finish(canvas, 24, y, _("Your move — see the buttons") if part["acting"] else None)

