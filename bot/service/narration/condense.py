"""Condensing: neighbouring events told in one line (a trick, a Guyenne fight, a run of castle builds, a whole
turn), so that a round of AI turns reads as a few lines, not forty. Every event folded in is still told."""
from __future__ import annotations

from bot.i18n import N_, _
from bot.service.narration.lines import Line
from rules.api import Event, Game
from rules.lang import mine, ours


def _seat(event: Event):
    return event.data.get("seat")


def _join(items: list[str]) -> str:
    return " ".join(items)


def _troubadour_run(game: Game, kind: str, group: list[Event]) -> str | None:
    from rules.troubadour.text import c

    who = _seat(group[0])
    n = len(group)
    def place(e: Event) -> str:  # where a card came from: "V2", or the waste in the reader's language
        return _("waste") if e.data["from"] == "waste" else e.data["from"]

    if kind == "built_castle":  # every card with the village it came from: "A♦ (V2), 2♦ 3♦ (waste)"
        runs: list[tuple[str, list[str]]] = []
        for e in group:
            if runs and runs[-1][0] == place(e):
                runs[-1][1].append(c(e.data["card"]))
            else:
                runs.append((place(e), [c(e.data["card"])]))
        cards = ", ".join(f"{_join(shown)} ({where})" for where, shown in runs)
        return mine(who, N_("{who} builds {n} castle cards: {cards}."), N_("You build {n} castle cards: {cards}."),
                    n=n, cards=cards)
    if kind == "built_village":  # every move with where it came from: "5♠ V1 → V4, 4♦ 3♠ waste → V4"
        moves = ", ".join(" ".join(c(x) for x in e.data["cards"]) + f" {place(e)} → V{e.data['to']}" for e in group)
        return mine(who, N_("{who} makes {n} village moves: {moves}."), N_("You make {n} village moves: {moves}."),
                    n=n, moves=moves)
    return None  # (two flips are two lines: merged, they read as one flip of several cards)


def _club_jack_flip(first: Event, then: Event) -> str | None:
    """J♣'s flip and the cards it turned up, one line: ``{P2} flips with J♣ until a card fits: 4♠ 9♥ 7♦.``"""
    from rules.troubadour.text import c

    if first.kind != "noble_used" or first.data.get("noble") != "JC" or then.kind != "flipped" or \
            _seat(then) != _seat(first):
        return None
    return mine(_seat(first), N_("{who} flips with J♣ until a card fits: {cards}."),
                N_("You flip with J♣ until a card fits: {cards}."), cards=_join([c(x) for x in then.data["cards"]]))


def _trick_line(game: Game, group: list[Event]) -> str | None:
    """Consecutive cards of a trick (List und Tücke, König Artus): ``{P1} R9 · {P2} G3 · {P3} B5``."""
    if game.name == "list_und_tuecke":
        from rules.list_und_tuecke.text import card, seat
    elif game.name == "koenig_artus":
        from rules.koenig_artus.text import card, seat
    else:
        return None
    return _("Trick: {cards}.", cards=" · ".join(f"{seat(e.data['seat'])} {card(e.data['card'])}" for e in group))


# kinds that are said again by the next line of the same seat, so they are folded into it
_FOLD_NEXT = {("troubadour", "turn_started"), ("troubadour", "noble_used"), ("troubadour", "trio_chosen"),
              ("troubadour", "tiebreak_chosen"), ("guyenne", "placed"), ("guyenne", "set_aside"), ("guyenne", "refilled")}
_FOLD_INTO = {"trio_chosen": ("own_trio",), "tiebreak_chosen": ("own_tiebreak",), "placed": ("placed_cards",),
              "set_aside": ("set_aside_card", "set_aside_cards")}
# a card played by anyone: consecutive ones are one line
_TRICK_KINDS = {("list_und_tuecke", "card_played"), ("koenig_artus", "card_played")}


def _fold_next_ok(game: Game, event: Event, nxt: Event | None) -> bool:
    if (game.name, event.kind) not in _FOLD_NEXT or nxt is None or _seat(nxt) != _seat(event):
        return False
    if event.kind == "refilled":
        return not event.data.get("reshuffled") and nxt.kind == "drawn"
    if event.kind in _FOLD_INTO:  # the public line and the owner's own, which says more
        return nxt.kind in _FOLD_INTO[event.kind]
    if event.kind == "noble_used":  # Q♥+K♥ names a card: said only here; the others are said by the next line
        return event.data.get("noble") not in ("QH+KH", "JC") and nxt.kind in (
            "flipped", "hearts_jack_moved", "revealed", "attacked", "recycled")
    return nxt.kind not in ("turn_ended",)  # an empty turn keeps its start


def _guyenne_fight(game: Game, items: list[tuple[int, Event]], i: int) -> tuple[str, list[int]] | None:
    """Reveals at a castle and its fight → one line: ``Castle 4: {P1} 5 T = 10 vs {P2} 4 2 = 6, {P1} takes…``."""
    from rules.guyenne.text import fight_result, fight_totals

    j = i
    castle = items[i][1].data.get("castle")
    while j < len(items) and items[j][1].kind in ("revealed", "conceded") and items[j][1].data.get("castle") == castle:
        j += 1
    if j >= len(items) or items[j][1].kind != "fight" or items[j][1].data.get("castle") != castle:
        return None
    fight = items[j][1].data
    shown: dict[int, list[str]] = {}
    conceded = []
    for _seq, e in items[i:j]:
        if e.kind == "revealed" and e.data["seat"] in fight.get("seats", []):
            shown[fight["seats"].index(e.data["seat"])] = e.data["cards"]
        elif e.kind == "conceded":
            conceded.append(e.data["seat"])
    won = fight.get("winner")
    fight = dict(fight, hero=won is not None and any(c.startswith("H") for c in shown.get(won, [])))
    text = "⚔ " + _("Castle {castle}:", castle=castle) + " " + fight_totals(fight, shown) + " " + \
        fight_result(fight, conceded[0] if conceded else None)
    return text, [items[k][0] for k in range(i, j + 1)]


def _guyenne_reinforcing(items: list[tuple[int, Event]], i: int) -> tuple[str, list[int]] | None:
    """A run of reinforcements and passes (3 events or more) → one line: ``Reinforcing: {P1} +3 at castle 2 ·
    {P2} +1 at castle 5 (A) · {P3} passes`` (every seat that passed, after adding or not); the cards shown are those the
    viewer may see (its own)."""
    def reinforcing(e: Event) -> bool:
        return e.kind == "passed" or (e.kind == "placed" and e.data.get("step") == "reinforce")

    j = i
    added: dict[int, dict[int, list]] = {}  # seat -> castle -> [count, own cards]
    order: list[int] = []
    while j < len(items):
        e = items[j][1]
        if reinforcing(e):
            pass
        elif e.kind == "placed_cards" and j > i and items[j - 1][1].kind == "placed" and \
                items[j - 1][1].data.get("seat") == e.data.get("seat"):
            added[e.data["seat"]][e.data["castle"]][1] += list(e.data["cards"])
            j += 1
            continue
        else:
            break
        who = e.data["seat"]
        if who not in order:
            order.append(who)
        if e.kind == "placed":
            at = added.setdefault(who, {}).setdefault(e.data["castle"], [0, []])
            at[0] += e.data["count"]
        j += 1
    if j - i < 3:
        return None
    from rules.guyenne.text import cards

    parts = []
    for who in order:
        if who in added:
            parts.append(f"{{P{who + 1}}} " + ", ".join(
                _("+{count} at castle {castle}", count=count, castle=castle) + (f" ({cards(own)})" if own else "")
                for castle, (count, own) in added[who].items()))
    # every seat that passed, those who added first too (the last pass of a round ends it: it is said)
    idle = list(dict.fromkeys(items[m][1].data["seat"] for m in range(i, j) if items[m][1].kind == "passed"))
    if len(idle) == 1:
        parts.append(mine(idle[0], N_("{who} passes"), N_("You pass")))
    elif idle:
        parts.append(ours(idle, N_("{who} pass"), N_("{who} and you pass")))
    return _("Reinforcing: {parts}.", parts=" · ".join(parts)), [items[m][0] for m in range(i, j)]


def _guyenne_refill(items: list[tuple[int, Event]], i: int) -> tuple[str, list[int]] | None:
    """The refills of a round's end (2 armies or more) → one line: ``Refill: {P1} 6 cards · {P2} 5 4 2 2 A A``."""
    from rules.guyenne.text import cards, plural

    j, parts = i, []
    while j < len(items) and items[j][1].kind == "refilled":
        d = items[j][1].data
        part = f"{{P{d['seat'] + 1}}} " + plural(d["count"], "card")
        j += 1
        if j < len(items) and items[j][1].kind == "drawn" and items[j][1].data.get("seat", d["seat"]) == d["seat"]:
            part = f"{{P{d['seat'] + 1}}} " + cards(items[j][1].data["cards"])
            j += 1
        parts.append(part + (" " + _("(after reshuffling the discard)") if d.get("reshuffled") else ""))
    if len(parts) < 2:
        return None
    return _("Refill: {parts}.", parts=" · ".join(parts)), [items[m][0] for m in range(i, j)]


# a turn told in this many lines or more becomes one line (with this head: "{P3}'s turn: …", or the first line's)
_TURN_LINES = {"troubadour": (3, True), "kardinal": (2, False)}


def _turns(raw: list[Line], events: list[Event], least: int, head: bool) -> list[Line]:
    """A turn of several lines → one: ``{P3}'s turn: flips 4♥ · builds 3 castle cards: 4♠ 5♠ 6♠ (waste) · makes 2
    village moves: 10♠ V1 → V2 · turn ends.`` (Troubadour: a 4-player round of AI turns is four short entries, not
    forty lines; a long turn wrapped in a few lines of ``TURN_WIDTH``);
    ``{P2} builds a 🟦 blue tower at M15: +🟥 stone · moves the Cardinal J14 → N15.`` (Kardinal)."""
    def seat_of(line: Line):  # (the game's end is a line of its own: the view below says it once more)
        if not line.events or events[line.events[0]].kind == "game_won":
            return None
        return events[line.events[0]].data.get("seat")

    out: list[Line] = []
    i = 0
    while i < len(raw):
        who = seat_of(raw[i])
        j = i
        while j < len(raw) and who is not None and seat_of(raw[j]) == who:
            j += 1
            if events[raw[j - 1].events[-1]].kind in ("turn_ended", "game_won"):
                break
        if j - i < least or any("\n" in line.text for line in raw[i:j]):
            out.append(raw[i])
            i += 1
            continue
        subject = f"{{P{who + 1}}}"
        parts: list[str] = []
        for n, line in enumerate(raw[i:j]):
            text = line.text.rstrip(".")
            last = events[line.events[-1]] if line.events else None
            before = events[raw[i + n - 1].events[-1]] if n and raw[i + n - 1].events else None
            uncovered = _uncovered(before, last) if len(line.events) == 1 else None
            if uncovered is not None:  # "builds A♣ on the ♣ castle from V3, 5♥ turned up"
                parts[-1] += ", " + uncovered
                continue
            if len(line.events) == 1 and last.kind == "revealed" and last.data.get("by") == "QH" and \
                    _seat(last) == who and head:  # in the seat's own turn its villages need no name
                text = _("Q♥ turns {card} in V{village}", card=_troubadour_card(last.data["card"]),
                         village=last.data["village"])
            if last is not None and last.kind == "turn_ended":  # said by the event, not by its words
                text = _("turn ends (nothing more to do)") if last.data.get("auto") else _("turn ends")
            elif text.startswith(subject + " ") and (head or n):
                text = text[len(subject) + 1:]
            parts.append(text)
        stop = "" if parts[-1].endswith(("!", "?", "…")) else "."  # "…complete!", not "…complete!."
        text = _wrapped(_("{who}'s turn:", who=subject), parts) if head else " · ".join(parts)
        out.append(Line(text + stop, [k for line in raw[i:j] for k in line.events], raw[i].seq))
        i = j
    return out


def _troubadour_card(card: str) -> str:
    from rules.troubadour.text import c

    return c(card)


def _uncovered(before: Event | None, event: Event | None) -> str | None:
    """A Troubadour card turned up where the step before took a card from (``5♥ turned up``): said with that step,
    not as a sentence of its own naming the seat and the village again."""
    if before is None or event is None or event.kind != "revealed" or event.data.get("by") != "auto" or \
            _seat(before) != _seat(event):
        return None
    source = before.data.get("from")
    if before.kind == "hearts_jack_moved":
        source = f"V{source}"
    if before.kind not in ("built_castle", "built_village", "hearts_jack_moved") or \
            source != f"V{event.data.get('village')}":
        return None
    return _("{card} turned up", card=_troubadour_card(event.data["card"]))


TURN_WIDTH = 96  # a turn's steps are told in lines of about this many characters (a long turn: a few lines)
NAME_WIDTH = 14  # what a name placeholder ({P2}) is counted as: "🤖 Lady Grasp"


def _wrapped(head: str, parts: list[str]) -> str:
    """``head`` and the steps of a turn, `` · `` between them, in a few lines of about ``TURN_WIDTH`` characters
    once the names are filled in (the next ones indented) instead of one of 900: a step is never cut."""
    def width(text: str) -> int:
        return len(text) + text.count("{P") * (NAME_WIDTH - 4)

    lines = [head + " " + parts[0]]
    for part in parts[1:]:
        if width(lines[-1]) + 3 + width(part) > TURN_WIDTH:
            lines.append("   " + part)
        else:
            lines[-1] += " · " + part
    return "\n".join(lines)
