"""Troubadour: per player the stock count, the waste's top card, the four castles (their top cards, an empty one
showing its suit), the five villages V1–V5 fanned with face-down cards as backs, and the trio of nobles (revealed,
or a back while still secret). Each player's panel is as tall as his longest village."""
from __future__ import annotations

import json

from bot.render.boards import common
from bot.render.boards.common import player, seat_tag, title
from bot.i18n import _, language
from bot.render.canvas import Canvas
from bot.render.palette import INK, MUTED, PANEL, SUIT_RED, SUITS, blend

CARD_W, CARD_H = 54, 74
FAN_STEP = 24
FAN_MAX = 170  # the longest fan drawn: steps shrink past it
CASTLE_SUITS = "SHDC"  # the castles' order in the view (as the text writes them)
HEAD = 62  # from a panel's top to its cards
LIGHT_RED = blend(SUIT_RED, PANEL, 0.5)


def _slot(canvas: Canvas, name: str, x: int, y: int, label: str = "", suit: str = "") -> None:
    """An empty place (no castle yet, an empty waste or village): an outline, with the castle's suit faint in it."""
    box = (x, y, x + CARD_W, y + CARD_H)
    canvas.draw.rounded_rectangle(box, radius=7, outline=MUTED, width=2)
    if suit:
        symbol, colour = SUITS[suit]
        canvas.text((x + CARD_W // 2, y + CARD_H // 2), symbol, 30, fill=LIGHT_RED if colour == SUIT_RED else MUTED,
                    anchor="mm", ground=PANEL)
    elif label:
        canvas.text((x + CARD_W // 2, y + CARD_H // 2), label, 11, fill=MUTED, anchor="mm", ground=PANEL)
    canvas.mark(name, box)


def _fan_step(village: list) -> int:
    return min(FAN_STEP, (FAN_MAX - CARD_H) // (len(village) - 1)) if len(village) > 1 else 0


def _panel_height(seat: dict) -> int:
    fan = max((CARD_H + _fan_step(v) * (len(v) - 1) for v in seat["villages"] if v), default=CARD_H)
    return HEAD + fan + 12


def _panel(c: Canvas, p: int, seat: dict, names: list[str], acting: bool, trio, chosen: bool, phase: str,
           ace: dict | None, height: int) -> None:
    """Player ``p``'s panel, drawn from its top (y = 0)."""
    c.panel((14, 0, c.width - 14, height))
    c.mark(f"panel:{p}", (14, 0, c.width - 14, height))
    right = seat_tag(c, f"seat:{p}", 26, 8, p, names, acting=acting)
    c.text((right + 14, 11), _("stock {stock} · waste {waste} · {cards}/40 castle cards", stock=seat['stock'],
                               waste=seat['waste'], cards=seat.get('castle_cards', 0)), 15, fill=MUTED, ground=PANEL)
    label, cards = 38, 62
    # the waste's top card
    c.text((26, label), _("waste"), 15, fill=MUTED, ground=PANEL)
    if seat["waste_top"]:
        c.playing_card(f"waste:{p}", 26, cards, seat["waste_top"], w=CARD_W, h=CARD_H)
    else:
        _slot(c, f"waste:{p}", 26, cards, _("empty"))
    # castles: the top card of each, an empty one with its suit
    c.text((96, label), _("castles"), 15, fill=MUTED, ground=PANEL)
    for i, card in enumerate(seat["castles"]):
        x = 96 + i * (CARD_W + 6)
        if card:
            c.playing_card(f"castle:{p}:{i}", x, cards, card, w=CARD_W, h=CARD_H)
        else:
            _slot(c, f"castle:{p}:{i}", x, cards, suit=CASTLE_SUITS[i])
    # villages V1–V5, fanned downward: backs for the face-down cards
    for v, village in enumerate(seat["villages"]):
        x = 346 + v * (CARD_W + 8)
        c.mark(f"village-label:{p}:{v}", c.text((x + CARD_W // 2, label), f"V{v + 1}", 17, bold=True, fill=MUTED,
                                                anchor="ma", ground=PANEL, measure=True))
        if not village:
            _slot(c, f"village:{p}:{v}", x, cards, _("empty"))
            continue
        step = _fan_step(village)
        for i, card in enumerate(village):
            name = f"village:{p}:{v}:{i}"
            if card is None:
                c.card(name, x, cards + i * step, "", None, w=CARD_W, h=CARD_H)
            else:
                c.playing_card(name, x, cards + i * step, card, w=CARD_W, h=CARD_H)
        if ace and ace["village"] == v + 1 and 0 <= ace["position"] < len(village):
            # the last action: the card the Q♥ just turned up
            i = ace["position"]
            c.frame((x, cards + i * step, x + CARD_W, cards + i * step + CARD_H), width=3, pad=2)
    # the trio of nobles
    tx = 346 + 5 * (CARD_W + 8) + 20
    c.text((tx, label), _("nobles"), 15, fill=MUTED, ground=PANEL)
    if trio:
        for i, card in enumerate(trio):
            c.playing_card(f"trio:{p}:{i}", tx + i * 46, cards, card, w=42, h=60)
    elif chosen:  # chosen, not yet revealed: nobody sees it
        for i in range(3):
            c.card(f"trio:{p}:{i}", tx + i * 46, cards, "", None, w=42, h=60)
    else:
        c.text((tx, cards + 16), _("choosing…") if phase == "select_trios" else "—", 14, fill=MUTED, ground=PANEL)


def draw(view: dict, names: list[str]) -> Canvas:
    n = view["players"]
    heights = [_panel_height(seat) for seat in view["seats"]]
    canvas = Canvas(height=70 + sum(heights) + 10 * n + 40)
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
        acting = p in view["to_act"]
        # a panel is drawn once for what it shows: in a game, a move changes one or two of them
        key = ("troubadour-panel", p, json.dumps(seat, sort_keys=True), json.dumps(trio), chosen[p], acting,
               phase if not trio and not chosen[p] else "", json.dumps(ace, sort_keys=True),
               common.seat_name(names, p), language())
        canvas.layer(key, 0, y, canvas.width, heights[p] + 1,
                     lambda c, p=p, seat=seat, trio=trio, ace=ace, acting=acting:
                     _panel(c, p, seat, names, acting, trio, chosen[p], phase, ace, heights[p]))
        y += heights[p] + 10
    if phase == "over":
        first = common.first_places(view)
        if first is None:
            first = [] if view.get("draw") or view.get("winner") is None else [view["winner"]]
        text = "★ " + _("{who} wins", who=player(names, first[0])) if len(first) == 1 else _("Draw")
        canvas.text((24, y), text, 20, bold=True, fill=INK)
        y += 32
    canvas.crop_height(y + 4)
    return canvas
