"""Troubadour: per player the stock count, the waste's top card, the four castles (their top cards, an empty one
showing its suit), the five villages V1–V5 fanned with face-down cards as backs, and the trio of nobles (revealed,
or a back while still secret). Each player's panel is as tall as his longest village."""
from __future__ import annotations

from bot.render.boards.common import player, seat_tag, title
from bot.render.canvas import INK, MUTED, PANEL, SUIT_RED, SUITS, Canvas, _blend

CARD_W, CARD_H = 54, 74
FAN_STEP = 24
FAN_MAX = 170  # the longest fan drawn: steps shrink past it
CASTLE_SUITS = "SHDC"  # the castles' order in the view (as the text writes them)
HEAD = 62  # from a panel's top to its cards
LIGHT_RED = _blend(SUIT_RED, PANEL, 0.5)


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


def draw(view: dict, names: list[str]) -> Canvas:
    n = view["players"]
    heights = [_panel_height(seat) for seat in view["seats"]]
    canvas = Canvas(height=70 + sum(heights) + 10 * n + 40)
    phase = view["phase"]
    title(canvas, "Troubadour", "game over" if phase == "over" else
          ("choosing nobles" if phase == "select_trios" else f"round {view['round']}"))
    y = 60
    trios = view.get("trios") or [None] * n
    turn = view.get("turn") or {}
    ace = turn.get("pending_ace")
    for p, seat in enumerate(view["seats"]):
        height = heights[p]
        canvas.panel((14, y, canvas.width - 14, y + height))
        canvas.mark(f"panel:{p}", (14, y, canvas.width - 14, y + height))
        acting = p in view["to_act"]
        right = seat_tag(canvas, f"seat:{p}", 26, y + 8, p, names, acting=acting)
        canvas.text((right + 14, y + 11), f"stock {seat['stock']} · waste {seat['waste']} · "
                                           f"{seat.get('castle_cards', int(view['scores'][p]))}/40 castle cards",
                    15, fill=MUTED, ground=PANEL)
        top = y + 40
        label = top - 2
        cards = top + 22
        # the waste's top card
        canvas.text((26, label), "waste", 15, fill=MUTED, ground=PANEL)
        if seat["waste_top"]:
            canvas.playing_card(f"waste:{p}", 26, cards, seat["waste_top"], w=CARD_W, h=CARD_H)
        else:
            _slot(canvas, f"waste:{p}", 26, cards, "empty")
        # castles: the top card of each, an empty one with its suit
        canvas.text((96, label), "castles", 15, fill=MUTED, ground=PANEL)
        for i, card in enumerate(seat["castles"]):
            x = 96 + i * (CARD_W + 6)
            if card:
                canvas.playing_card(f"castle:{p}:{i}", x, cards, card, w=CARD_W, h=CARD_H)
            else:
                _slot(canvas, f"castle:{p}:{i}", x, cards, suit=CASTLE_SUITS[i])
        # villages V1–V5, fanned downward: backs for the face-down cards
        for v, village in enumerate(seat["villages"]):
            x = 346 + v * (CARD_W + 8)
            canvas.mark(f"village-label:{p}:{v}", canvas.text((x + CARD_W // 2, label), f"V{v + 1}", 17, bold=True,
                                                             fill=MUTED, anchor="ma", ground=PANEL, measure=True))
            if not village:
                _slot(canvas, f"village:{p}:{v}", x, cards, "empty")
                continue
            step = _fan_step(village)
            for i, card in enumerate(village):
                name = f"village:{p}:{v}:{i}"
                if card is None:
                    canvas.card(name, x, cards + i * step, "", None, w=CARD_W, h=CARD_H)
                else:
                    canvas.playing_card(name, x, cards + i * step, card, w=CARD_W, h=CARD_H)
            if ace and turn.get("seat") == p and ace["village"] == v + 1 and 0 <= ace["position"] < len(village):
                # the last action: the card the Q♥ just turned up
                i = ace["position"]
                canvas.frame((x, cards + i * step, x + CARD_W, cards + i * step + CARD_H), width=3, pad=2)
        # the trio of nobles
        tx = 346 + 5 * (CARD_W + 8) + 20
        canvas.text((tx, label), "nobles", 15, fill=MUTED, ground=PANEL)
        trio = trios[p] if p < len(trios) else None
        chosen = (view.get("trio_chosen") or [False] * n)[p]
        if trio:
            for i, card in enumerate(trio):
                canvas.playing_card(f"trio:{p}:{i}", tx + i * 46, cards, card, w=42, h=60)
        elif chosen:  # chosen, not yet revealed: nobody sees it
            for i in range(3):
                canvas.card(f"trio:{p}:{i}", tx + i * 46, cards, "", None, w=42, h=60)
        else:
            canvas.text((tx, cards + 16), "choosing…" if phase == "select_trios" else "—", 14, fill=MUTED,
                        ground=PANEL)
        y += height + 10
    if phase == "over":
        winner = view.get("winner")
        text = "Draw" if view.get("draw") or winner is None else f"★ {player(names, winner)} wins"
        canvas.text((24, y), text, 20, bold=True, fill=INK)
        y += 32
    canvas.crop_height(y + 4)
    return canvas
