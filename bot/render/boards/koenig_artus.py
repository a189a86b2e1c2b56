"""König Artus Tafelrunde: the track with its sword fields, King Arthur and the pawns; the trump ladder; the
current trick; in a private picture the viewer's hand with the playable cards raised. Every text is at least
``MIN_TEXT`` (readable at phone width)."""
from __future__ import annotations

from bot.render.boards import common
from bot.render.boards.common import beside_or_below, chip, finish, player, seat_colour, seat_tag, title, wrapped
from bot.i18n import _, language, ngettext
from rules.koenig_artus.text import colour_name
from bot.render.canvas import MIN_TEXT, Canvas
from bot.render.palette import COLOURS, LETTERS, MUTED, WHITE

SUPER = (176, 176, 176)
SWORD_FIELD = (222, 196, 150)
ARTHUR_FIELD = (240, 200, 60)
PER_ROW = 10
FIELD = 86  # a field holds up to six pawns of radius 17 (digits 22 px: about 9 px at phone width)
FIELD_H = 100  # under the field's number: two rows of three pawns
GAP = 6
LINE = 32
PAWN_R = 17


def card_face(text: str) -> tuple[str, tuple[int, int, int], str]:
    """``red-7`` → ("7", red, "R"); ``knight-2`` → ("Kn2", grey, "⚔")."""
    kind, _, value = text.partition("-")
    if kind in COLOURS:
        return value, COLOURS[kind], LETTERS[kind]
    return ("Kn" if kind == "knight" else "Sh") + value, SUPER, "⚔" if kind == "knight" else "◆"


def field_box(field: int) -> tuple[int, int, int, int]:
    """Fields snake through rows of 10: left to right, then right to left."""
    row, col = divmod(field, PER_ROW)
    if row % 2:
        col = PER_ROW - 1 - col
    x = 24 + col * (FIELD + GAP)
    y = 64 + row * (FIELD_H + GAP)
    return x, y, x + FIELD, y + FIELD_H


def private_part(view: dict) -> dict:
    acting = view["viewer"] in view["to_act"] and view["phase"] == "play"
    return {"viewer": view["viewer"], "hand": view.get("hand") or [], "slots": view["slots"],
            "can_play": view.get("can_play") if acting else None}


def draw_hand(part: dict, names: list[str]) -> Canvas:
    """The viewer's hand (playable cards raised) under the trump order it is played against."""
    canvas = Canvas(height=300)
    title(canvas, _("Your hand — {player}", player=player(names, part['viewer'])))
    x = canvas.text((24, 62), _("trumps, weakest → strongest") if part["slots"] else _("no trump yet"), MIN_TEXT,
                    fill=MUTED, measure=True)[2] + 12
    for k, colour in enumerate(part["slots"]):
        x = chip(canvas, f"slot:{k}", x, 58, COLOURS[colour], LETTERS[colour], size=32)
    hand = part["hand"]
    playable = set(part["can_play"] or [])
    step = min(70, (canvas.width - 48 - 62) // max(1, len(hand) - 1)) if len(hand) > 1 else 70
    for i, card in enumerate(hand):
        rank, colour, letter = card_face(card)
        raised = card in playable
        canvas.card(f"hand:{card}", 24 + i * step, 116 - (12 if raised else 0), rank, colour, letter,
                    highlight=raised)
    if not hand:
        canvas.text((24, 130), _("no cards in hand"), MIN_TEXT, fill=MUTED)
    return finish(canvas, 24, 218, _("Your turn: play a raised card") if part["can_play"] is not None else None)


def draw(view: dict, names: list[str]) -> Canvas:
    n = view["players"]
    rows = view["track"] // PER_ROW + 1
    canvas = Canvas(height=64 + rows * (FIELD_H + GAP) + 420 + LINE * (n + 4))
    title(canvas, "König Artus", _("hand {hand} · trick {trick}/8 · stack {stack}", hand=view['hand_no'],
                                   trick=view['trick_no'], stack=view['stack']))

    # the track: 0 is the start, ``track`` is King Arthur — one piece per track and sword fields
    swords = set(view["swords"])
    top = field_box(0)[1]

    def draw_track(c: Canvas) -> None:
        for field in range(view["track"] + 1):
            x0, y0, x1, y1 = field_box(field)
            box = (x0, y0 - top, x1, y1 - top)
            fill = ARTHUR_FIELD if field == view["track"] else SWORD_FIELD if field in swords else WHITE
            c.draw.rounded_rectangle(box, radius=8, fill=fill, outline=(90, 80, 70), width=2)
            if field == view["track"]:
                c.text((box[2] - 6, box[1] + 2), "♔", 28, bold=True, anchor="ra", ground=fill)
            else:
                c.text((box[0] + 5, box[1] + 2), _("Start") if field == 0 else str(field), MIN_TEXT, fill=MUTED,
                       ground=fill)
            if field in swords:
                c.text((box[2] - 5, box[1] + 2), "⚔", MIN_TEXT, anchor="ra", ground=fill)

    canvas.paste(canvas.piece(("artus-track", view["track"], tuple(sorted(swords)), language()), canvas.width,
                              rows * (FIELD_H + GAP), draw_track, shape="rect"), 0, top)
    for field in range(view["track"] + 1):
        canvas.mark(f"field:{field}", field_box(field))
    by_field: dict[int, list[int]] = {}
    for seat, pos in enumerate(view["pos"]):
        by_field.setdefault(min(pos, view["track"]), []).append(seat)
    for field, seats in by_field.items():
        x0, y0 = field_box(field)[:2]
        for k, seat in enumerate(seats):  # three a row, slightly overlapping when there are three
            cx = x0 + 2 + PAWN_R + (k % 3) * (PAWN_R * 3 // 2 if len(seats) > 2 else PAWN_R * 2 + 4)
            cy = y0 + 30 + PAWN_R + (k // 3) * (PAWN_R + 13)
            canvas.pawn(f"pawn:{seat}", cx, cy, PAWN_R, seat_colour(seat), str(seat + 1), size=MIN_TEXT)
    y = 64 + rows * (FIELD_H + GAP) + 8

    # the trump ladder, right of the trick
    tx = 584
    ly = wrapped(canvas, tx, y + 8, _("Trumps, weakest → strongest"), bold=True, line=30)
    x = tx
    if view["slots"]:
        for k, colour in enumerate(view["slots"]):
            x = chip(canvas, f"slot:{k}", x, ly + 2, COLOURS[colour], LETTERS[colour], size=40)
            if k + 1 < len(view["slots"]):
                canvas.text((x - 2, ly + 9), "<", MIN_TEXT, fill=MUTED)
                x += 16
        ly += 52
    else:
        ly = wrapped(canvas, tx, ly, _("no trump yet — knights and") + " " + _("shields beat everything"),
                     fill=MUTED, line=30) + 6
    if view["free_tokens"]:
        ly = wrapped(canvas, tx, ly, _("not yet trump"), fill=MUTED, line=30)
        for k, colour in enumerate(view["free_tokens"]):
            chip(canvas, f"free:{colour}", tx + 38 * k, ly, COLOURS[colour], LETTERS[colour], size=32)
        ly += 40

    # the trick (or the last one, dimmed): under each card its player's number on his colour
    shown, label = view["trick"], _("Trick") + (" · " + _("led {colour}", colour=colour_name(view['led']))
                                                if view.get("led") else "")
    last = view.get("last_trick")
    dim = False
    if not shown and last:
        shown, label, dim = last["cards"], _("Last trick → {player}", player=player(names, last['winner'])), True
    heading = 1 if canvas.text_width(label, MIN_TEXT, True) <= 530 else 2
    bottom = y + 10 + heading * 30 + 88 + 50
    canvas.panel((14, y, 570, bottom))
    cards_y = wrapped(canvas, 28, y + 10, label, bold=True, line=30, right=560) + 4
    for i, (seat, card) in enumerate(shown or []):
        rank, colour, letter = card_face(card)
        x = 28 + i * 84
        box = canvas.card(f"trick:{i}", x, cards_y, rank, colour, letter, dim=dim)
        if not dim and i == len(shown) - 1:  # the last action: the card just played
            canvas.frame(box)
        canvas.pawn(f"trick-seat:{i}", x + 31, cards_y + 112, 16, seat_colour(seat), str(seat + 1), size=MIN_TEXT)
    y = max(bottom, ly) + 12

    # players: cards in hand, field, who is to act — one a line
    for seat in range(n):
        right = seat_tag(canvas, f"seat:{seat}", 24, y, seat, names, acting=seat in view["to_act"])
        facts = ngettext("{n} card", "{n} cards", view['hand_counts'][seat]) + " · " + \
            _("field {field}", field=view['pos'][seat])
        y = beside_or_below(canvas, right, y, facts, fill=MUTED, line=36)
    y += 6
    ends = view.get("hand_ends") or []
    if ends:  # the running score table, compact: each seat's field after the last three hands
        first = max(0, len(ends) - 3)
        table = " · ".join(f"P{seat + 1}: " + " ".join(str(e[seat]) for e in ends[first:]) for seat in range(n))
        if first + 1 == len(ends):
            text = _("Fields after hand {hand} — {table}", hand=first + 1, table=table)
        else:
            text = _("Fields after hands {first}–{last} — {table}", first=first + 1, last=len(ends), table=table)
        below = wrapped(canvas, 24, y, text, fill=MUTED, line=LINE)
        canvas.mark("hand_ends", (24, y, canvas.width - 24, below))
        y = below + 4

    if view["phase"] == "over":
        first = common.first_places(view) or [view["winner"]]
        if first == [view["winner"]]:
            text = "♔ " + _("Winner: {who}, first to King Arthur's field!", who=player(names, view['winner']))
        else:  # the first to the field resigned: the others share first place, as the result says
            text = "★ " + (_("{who} wins", who=player(names, first[0])) if len(first) == 1 else
                           _("Winners: {names}", names=", ".join(player(names, p) for p in first)))
        y = wrapped(canvas, 24, y, text, 24, bold=True, line=36)
    elif view["phase"] != "play" and view.get("decider") is not None:
        who = player(names, view['decider'])
        what = _("{who} swaps two trump tokens", who=who) if len(view["slots"]) == 6 else \
            _("{who} chooses a new trump colour", who=who)
        y = wrapped(canvas, 24, y, f"⚔ {what}", bold=True, line=LINE)

    canvas.crop_height(y + 10)
    return canvas
