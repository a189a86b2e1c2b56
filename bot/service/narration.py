"""What the table sees: the lines of narration a viewer may read for a stretch of a game's log.

Pure and platform-neutral. Input: the game, the logged events (each an ``Event``, or ``(seq, Event)`` with the seq of
the move that caused it), the viewer's seat (None: the public channel) and the seat names. Output: lines for that
viewer only —

- an event is told only if its ``audience`` is None or holds the viewer (hidden information never leaves its owner);
- every event the viewer may see is told (``describe_event`` of every engine has a line for every kind) — at most
  folded into a neighbouring line that says it too (a Troubadour turn start into that player's first action, a
  trick's played cards into one line, three castle builds into "AI 2 builds 3 castle cards: A♥ A♣ 2♥");
- the viewer's own lines in the second person ("You play R9", "your V2"), everybody else by name.

``narrate`` gives the texts; ``narrate_lines`` also which events each line tells (the tests check 0 missed).
``final_result_lines`` is the final result sorted by place, shared places and the game's tie rule stated (the
engine's ``tie_rule`` and ``score_unit`` hooks: which rule breaks ties is the game's knowledge, not the bot's).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from bot.i18n import N_, _, language, ngettext
from rules.api import Event, Game
from rules.lang import mine, reading


@dataclass
class Line:
    """One line of narration: its text (names filled in) and the indexes, in the input, of the events it tells."""

    text: str
    events: list[int] = field(default_factory=list)
    seq: int | None = None  # the move of its first event, when known


# ---------------------------------------------------------------------------------------------------- input
def _entries(events: Iterable[Any]) -> list[tuple[int | None, Event]]:
    """``Event``, ``(seq, Event)``, a dict ``{"seq", "kind", ...}``/``Event.to_json()`` or an object with ``seq`` and
    ``event`` → ``(seq, Event)``."""
    out: list[tuple[int | None, Event]] = []
    for item in events:
        if isinstance(item, Event):
            out.append((None, item))
        elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], Event):
            out.append((item[0], item[1]))
        elif isinstance(item, dict):
            out.append((item.get("seq"), Event.from_json(item)))
        elif hasattr(item, "event"):
            out.append((getattr(item, "seq", None), item.event))
        else:
            raise TypeError(f"not an event: {item!r}")
    return out


# ---------------------------------------------------------------------------------------------------- people
_IRREGULAR = {"has": "have", "is": "are", "does": "do", "goes": "go", "was": "were"}
_NOT_VERBS = {"cards", "points", "castles", "stones", "trumps", "villages", "nobles", "pawns", "tokens", "pts",
              "and", "vs", "is"}
_SUBJECT = re.compile(r"\{P(\d+)\}('s\b| [a-z]+\b)?")


def _base(verb: str) -> str | None:
    """``builds`` → ``build``, ``passes`` → ``pass``, ``has`` → ``have``; None if it is no third-person verb."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb in _NOT_VERBS or not verb.endswith("s") or len(verb) < 3 or verb.endswith("ss"):
        return None
    for end in ("sses", "ches", "shes", "xes", "zes"):
        if verb.endswith(end):
            return verb[:-2]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    return verb[:-1]


def personal(text: str, viewer: int | None, names: Sequence[str]) -> str:
    """Fill in ``{P<n>}`` placeholders: everybody by name but the viewer. The viewer's own sentences are written
    by the engines and the narration in each language (``rules.lang.mine``); what is left of the viewer's
    placeholder is "you" — in English with the verb after it in the base form (``{P1}'s`` as "your", capitalised
    where a sentence starts), in other languages the catalog's word for "you" where no sentence of its own is
    written (an English rule of grammar cannot turn a Dutch verb)."""
    english = language() == "en"
    # TRANSLATORS: the reader, where a line names them without a sentence of its own (e.g. "Slag: jij R9 · …")
    you = _("you")

    def fill(match: re.Match) -> str:
        seat = int(match.group(1)) - 1
        rest = match.group(2) or ""
        if seat != viewer:
            return (names[seat] if 0 <= seat < len(names) else match.group(0)[:-len(rest) or None]) + rest
        if not english:
            return you + rest
        start = match.start()
        before = text[:start].rstrip()
        capital = not before or before[-1] in ".:!?·—(\n⚔" or before.endswith("▶") or \
            text[:start].rstrip(" ").endswith("\n")  # a line of its own (Kardinal's final account)
        if rest == "'s":
            word = "your"
        else:
            verb = rest.strip()
            base = _base(verb) if verb else None
            word = "you" + (f" {base}" if base else rest)
        return word[0].upper() + word[1:] if capital else word

    return _SUBJECT.sub(fill, text)


# ---------------------------------------------------------------------------------------------------- condensing
def _seat(event: Event):
    return event.data.get("seat")


def _join(items: list[str]) -> str:
    return " ".join(items)


def _troubadour_run(game: Game, kind: str, group: list[Event]) -> str | None:
    from rules.troubadour.render import c, seat

    who = _seat(group[0])
    n = len(group)
    if kind == "built_castle":
        cards = _join([c(e.data["card"]) for e in group])
        return mine(who, N_("{who} builds {n} castle cards: {cards}."), N_("You build {n} castle cards: {cards}."),
                    n=n, cards=cards)
    if kind == "built_village":
        moves = ", ".join(" ".join(c(x) for x in e.data["cards"]) + f" → V{e.data['to']}" for e in group)
        return mine(who, N_("{who} makes {n} village moves: {moves}."), N_("You make {n} village moves: {moves}."),
                    n=n, moves=moves)
    if kind == "flipped":
        cards = _join([c(x) for e in group for x in e.data["cards"]])
        left = group[-1].data.get("extra_left")
        if left is not None:
            return mine(who, N_("{who} flips {cards} ({left} extra left)."),
                        N_("You flip {cards} ({left} extra left)."), cards=cards, left=left)
        return mine(who, N_("{who} flips {cards}."), N_("You flip {cards}."), cards=cards)
    return None


def _trick_line(game: Game, group: list[Event]) -> str | None:
    """Consecutive cards of a trick (List und Tücke, König Artus): ``{P1} R9 · {P2} G3 · {P3} B5``."""
    if game.name == "list_und_tuecke":
        from rules.list_und_tuecke.render import card, seat
    elif game.name == "koenig_artus":
        from rules.koenig_artus.render import card, seat
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
        return event.data.get("noble") not in ("QH+KH",) and nxt.kind in (
            "flipped", "hearts_jack_moved", "revealed", "attacked", "recycled")
    return nxt.kind not in ("turn_ended",)  # an empty turn keeps its start


def _guyenne_fight(game: Game, items: list[tuple[int, Event]], i: int) -> tuple[str, list[int]] | None:
    """Reveals at a castle and its fight → one line: ``Castle 4: {P1} 5 T = 10 vs {P2} 4 2 = 6, {P1} takes…``."""
    from rules.guyenne.render import fight_result, fight_totals

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
    {P2} +1 at castle 5 (A) · {P3} passes`` (who added nothing); the cards shown are those the viewer may see (its own)."""
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
    from rules.guyenne.render import cards

    parts = []
    for who in order:
        if who in added:
            parts.append(f"{{P{who + 1}}} " + ", ".join(
                _("+{count} at castle {castle}", count=count, castle=castle) + (f" ({cards(own)})" if own else "")
                for castle, (count, own) in added[who].items()))
    idle = [who for who in order if who not in added]
    if len(idle) == 1:
        parts.append(mine(idle[0], N_("{who} passes"), N_("You pass")))
    elif idle:
        parts.append(_("{who} pass", who=_(" and ").join(f"{{P{who + 1}}}" for who in idle)))
    return _("Reinforcing: {parts}.", parts=" · ".join(parts)), [items[m][0] for m in range(i, j)]


def _guyenne_refill(items: list[tuple[int, Event]], i: int) -> tuple[str, list[int]] | None:
    """The refills of a round's end (2 armies or more) → one line: ``Refill: {P1} 6 cards · {P2} 5 4 2 2 A A``."""
    from rules.guyenne.render import cards, plural

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


def narrate_lines(game: Game, events: Iterable[Any], viewer: int | None, names: Sequence[str],
                  condense: bool = True) -> list[Line]:
    """The lines ``viewer`` may read for ``events``, with the events each one tells (indexes into ``events``),
    built for the viewer (the engines' ``mine`` speaks to it) in the language current now."""
    with reading(viewer):
        return _narrate_lines(game, events, viewer, names, condense)


def _narrate_lines(game: Game, events: Iterable[Any], viewer: int | None, names: Sequence[str],
                   condense: bool) -> list[Line]:
    entries = _entries(events)
    items = [(k, e) for k, (_, e) in enumerate(entries) if e.visible_to(viewer)]
    seqs = [s for s, _ in entries]
    raw: list[Line] = []  # templates, {P<n>} still in them
    pending: list[int] = []  # events folded into the next line

    def emit(line: Line) -> None:
        if pending:
            line.events = pending + line.events
            line.seq = seqs[pending[0]]
            pending.clear()
        raw.append(line)

    i = 0
    while i < len(items):
        k, event = items[i]
        nxt = items[i + 1][1] if i + 1 < len(items) else None
        if condense and game.name == "guyenne" and event.kind in ("revealed", "conceded"):
            fight = _guyenne_fight(game, items, i)
            if fight is not None:
                emit(Line(fight[0], fight[1], seqs[k]))
                i += len(fight[1])
                continue
        if condense and game.name == "guyenne" and event.kind in ("placed", "passed", "refilled"):
            run = (_guyenne_refill if event.kind == "refilled" else _guyenne_reinforcing)(items, i)
            if run is not None:
                emit(Line(run[0], run[1], seqs[k]))
                i += len(run[1])
                continue
        if condense and (game.name, event.kind) in _TRICK_KINDS:
            j = i
            while j < len(items) and items[j][1].kind == event.kind:
                j += 1
            text = _trick_line(game, [e for _, e in items[i:j]])
            end = items[j][1] if j < len(items) else None
            if end is not None and end.kind in ("trick_won", "trick_resolved"):
                told = _describe(game, end)
                if _seat(end) == viewer and viewer is not None:  # "→ you win the trick": no capital mid-line
                    told = told[:1].lower() + told[1:]
                text = text[:-1] + " → " + told
                j += 1
            if text and j - i >= 2:
                emit(Line(text, [items[m][0] for m in range(i, j)], seqs[k]))
                i = j
                continue
        if condense and game.name == "list_und_tuecke" and event.kind == "cards_picked":
            j = i + 1
            parts = [_describe(game, event)[:-1]]
            while j < len(items) and items[j][1].kind in ("cards_received", "cards_removed", "next_leader") \
                    and j - i < 3:
                part = _describe(game, items[j][1])[:-1]
                if _seat(items[j][1]) == viewer and viewer is not None:  # "…; you get G5": no capital mid-line
                    part = part[:1].lower() + part[1:]
                parts.append(part)
                j += 1
            emit(Line("; ".join(parts) + ".", [items[m][0] for m in range(i, j)], seqs[k]))
            i = j
            continue
        if condense and game.name == "troubadour" and event.kind in ("built_castle", "built_village", "flipped"):
            j = i
            while j < len(items) and items[j][1].kind == event.kind and _seat(items[j][1]) == _seat(event):
                j += 1
            if j - i >= 2:
                text = _troubadour_run(game, event.kind, [e for _, e in items[i:j]])
                if text:
                    emit(Line(text, [items[m][0] for m in range(i, j)], seqs[k]))
                    i = j
                    continue
        if condense and _fold_next_ok(game, event, nxt):
            pending.append(k)  # told by the next line
            i += 1
            continue
        text = _describe(game, event)
        emit(Line(text if text is not None else event.kind.replace("_", " "), [k], seqs[k]))
        i += 1
    for m in pending:  # nothing came after them: said on their own
        raw.append(Line(_describe(game, entries[m][1]) or entries[m][1].kind.replace("_", " "), [m], seqs[m]))
    if condense and game.name in _TURN_LINES:
        raw = _turns(raw, [e for _, e in entries], *_TURN_LINES[game.name])
    return [Line(personal(r.text, viewer, names), r.events, r.seq) for r in raw]


# a turn told in this many lines or more becomes one line (with this head: "{P3}'s turn: …", or the first line's)
_TURN_LINES = {"troubadour": (3, True), "kardinal": (2, False)}


def _turns(raw: list[Line], events: list[Event], least: int, head: bool) -> list[Line]:
    """A turn of several lines → one: ``{P3}'s turn: flips 4♥ · builds 3 castle cards: 4♠ 5♠ 6♠ · makes 2 village
    moves: 10♠ → V2 · turn ends.`` (Troubadour: a 4-player round of AI turns is four lines, not forty);
    ``{P2} builds a 🟦 blue tower at M15: +🟥 stone · moves the Cardinal J14 → N15.`` (Kardinal)."""
    def seat_of(line: Line):
        return events[line.events[0]].data.get("seat") if line.events else None

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
        parts = []
        for n, line in enumerate(raw[i:j]):
            text = line.text.rstrip(".")
            last = events[line.events[-1]] if line.events else None
            if last is not None and last.kind == "turn_ended":  # said by the event, not by its words
                text = _("turn ends (nothing more to do)") if last.data.get("auto") else _("turn ends")
            elif text.startswith(subject + " ") and (head or n):
                text = text[len(subject) + 1:]
            parts.append(text)
        stop = "" if parts[-1].endswith(("!", "?", "…")) else "."  # "…complete!", not "…complete!."
        out.append(Line((_("{who}'s turn:", who=subject) + " " if head else "") + " · ".join(parts) + stop,
                        [k for line in raw[i:j] for k in line.events], raw[i].seq))
        i = j
    return out


def _describe(game: Game, event: Event) -> str | None:
    return game.describe_event(event) or None


def narrate(game: Game, events: Iterable[Any], viewer: int | None, names: Sequence[str],
            condense: bool = True) -> list[str]:
    """The narration ``viewer`` may read for ``events`` (each line may hold several events; multi-line
    descriptions, such as Kardinal's final account, stay one entry with newlines)."""
    return [line.text for line in narrate_lines(game, events, viewer, names, condense)]


def since_last_turn(game: Game, log: Sequence[tuple[int, int | None, list[Event]]], viewer: int,
                    names: Sequence[str], ended: bool = False) -> list[str]:
    """What ``viewer`` has not seen since its previous move: ``log`` is the game's moves as ``(seq, seat, events)``
    in order; the events after the viewer's last own move are narrated, and of that move what the viewer learnt
    privately and what it set off (public events of other seats or of nobody: the fights a pass started, the cards
    an attack turned up), not the viewer's own action. ``ended``: the game is over, and the viewer's own last
    move is told whole (when it ended the game, it is where the final account is)."""
    last = max((k for k, (_, seat, _) in enumerate(log) if seat == viewer), default=-1)
    if last < 0:
        return narrate(game, [(seq, e) for seq, _, events in log for e in events], viewer, names)
    own_seq, _, own_events = log[last]
    # of the viewer's own move: what it learnt privately and what it set off, not the move itself it made
    told = [(own_seq, e) for e in own_events if e.audience is not None or ended or e.data.get("seat") != viewer]
    told += [(seq, e) for seq, _, events in log[last + 1:] for e in events]
    return narrate(game, told, viewer, names)


# ---------------------------------------------------------------------------------------------------- results
def _plural(n: float, word: str) -> str:
    """``27 points`` in the unit the game counts (its ``score_unit``); a fraction takes the plural form."""
    shown, k = f"{n:g}", int(n) if n == int(n) else 2
    if word == "point":
        return ngettext("{score} point", "{score} points", k, score=shown)
    if word == "field":
        return ngettext("{score} field", "{score} fields", k, score=shown)
    if word == "castle card":
        return ngettext("{score} castle card", "{score} castle cards", k, score=shown)
    return f"{shown} {word}" + ("" if n == 1 else "s")


def final_result_lines(game: Game, scores: Sequence[float], ranking: Sequence[int], names: Sequence[str],
                       viewer: int | None = None, resigned: Iterable[int] = ()) -> list[str]:
    """``1. You — 27 points / 2. AI 2 — 26 points / 2. AI 3 — 19 points``, sorted by place (then score), equal
    places marked "shared", and the game's tie rule stated when a place is shared or scores are equal."""
    resigned = set(resigned)
    word = game.score_unit()
    order = sorted(range(len(names)), key=lambda s: (ranking[s], -scores[s], s))
    lines = []
    for s in order:
        name = _("You") if s == viewer else names[s]
        shared = sum(1 for r in ranking if r == ranking[s]) > 1
        lines.append(f"{ranking[s]}. {name} — {_plural(scores[s], word)}" + (" " + _("(shared)") if shared else "") +
                     (" " + _("(resigned)") if s in resigned else ""))
    ties = len(set(ranking)) < len(ranking) or len(set(scores)) < len(scores)
    rule = game.tie_rule() if ties else None
    if rule:
        lines.append(_("Tie rule: {rule}", rule=rule))
    return lines
