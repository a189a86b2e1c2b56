"""Troubadour: per player the stock count, the waste's top card, the four castles (their top cards), the five
villages fanned with face-down cards as backs, and the trio of nobles (revealed, or a back while still secret)."""
from __future__ import annotations

from bot.render.boards.common import seat_tag, title
from bot.render.canvas import INK, MUTED, Canvas

CARD_W, CARD_H = 54, 74
PANEL_H = 262


def _slot(canvas: Canvas, name: str, x: int, y: int, label: str = "") -> None:
    """An empty place (no castle yet, an empty waste or village): a dashed outline."""
    box = (x, y, x + CARD_W, y + CARD_H)
    canvas.draw.rounded_rectangle(box, radius=7, outline=MUTED, width=2)
    if label:
        canvas.text((x + CARD_W // 2, y + CARD_H // 2), label, 11, fill=MUTED, anchor="mm")
    canvas.mark(name, box)


def draw(view: dict, names: list[str]) -> Canvas:
    n = view["players"]
    canvas = Canvas(height=70 + n * (PANEL_H + 12))
    phase = view["phase"]
    title(canvas, "Troubadour", "game over" if phase == "over" else
          ("choosing nobles" if phase == "select_trios" else f"round {view['round']}"))
    y = 60
    trios = view.get("trios") or [None] * n
    for p, seat in enumerate(view["seats"]):
        canvas.panel((14, y, canvas.width - 14, y + PANEL_H))
        acting = p in view["to_act"]
        right = seat_tag(canvas, f"seat:{p}", 26, y + 8, p, names, acting=acting)
        canvas.text((right + 14, y + 11), f"stock {seat['stock']} · waste {seat['waste']} · "
                                           f"{int(view['scores'][p])} castle cards", 15, fill=MUTED)
        top = y + 44
        # the waste's top card
        canvas.text((26, top - 2), "waste", 12, fill=MUTED)
        if seat["waste_top"]:
            canvas.playing_card(f"waste:{p}", 26, top + 14, seat["waste_top"], w=CARD_W, h=CARD_H)
        else:
            _slot(canvas, f"waste:{p}", 26, top + 14)
        # castles: the top card of each
        canvas.text((100, top - 2), "castles", 12, fill=MUTED)
        for i, card in enumerate(seat["castles"]):
            x = 100 + i * (CARD_W + 6)
            if card:
                canvas.playing_card(f"castle:{p}:{i}", x, top + 14, card, w=CARD_W, h=CARD_H)
            else:
                _slot(canvas, f"castle:{p}:{i}", x, top + 14)
        # villages, fanned downward: backs for the face-down cards
        canvas.text((350, top - 2), "villages", 12, fill=MUTED)
        for v, village in enumerate(seat["villages"]):
            x = 350 + v * (CARD_W + 8)
            if not village:
                _slot(canvas, f"village:{p}:{v}", x, top + 14, "empty")
                continue
            step = min(24, (PANEL_H - 70 - CARD_H) // max(1, len(village) - 1)) if len(village) > 1 else 0
            for i, card in enumerate(village):
                name = f"village:{p}:{v}:{i}"
                if card is None:
                    canvas.card(name, x, top + 14 + i * step, "", None, w=CARD_W, h=CARD_H)
                else:
                    canvas.playing_card(name, x, top + 14 + i * step, card, w=CARD_W, h=CARD_H)
        # the trio of nobles
        tx = 350 + 5 * (CARD_W + 8) + 20
        canvas.text((tx, top - 2), "nobles", 12, fill=MUTED)
        trio = trios[p] if p < len(trios) else None
        chosen = (view.get("trio_chosen") or [False] * n)[p]
        if trio:
            for i, card in enumerate(trio):
                canvas.playing_card(f"trio:{p}:{i}", tx + i * 46, top + 14, card, w=42, h=60)
        elif chosen:  # chosen, not yet revealed: nobody sees it
            for i in range(3):
                canvas.card(f"trio:{p}:{i}", tx + i * 46, top + 14, "", None, w=42, h=60)
        else:
            canvas.text((tx, top + 30), "choosing…" if phase == "select_trios" else "—", 14, fill=MUTED)
        y += PANEL_H + 12
    if phase == "over":
        winner = view.get("winner")
        text = "Draw" if view.get("draw") or winner is None else "🏆 Player " + str(winner + 1) + " wins"
        canvas.text((24, y), text, 20, bold=True, fill=INK)
        y += 32
    canvas.crop_height(y + 4)
    return canvas
