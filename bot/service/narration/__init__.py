"""What the table sees: the lines of narration a viewer may read for a stretch of a game's log.

Pure and platform-neutral. Input: the game, the logged events (each an ``Event``, or ``(seq, Event)`` with the seq of
the move that caused it), the viewer's seat (None: the public channel) and the seat names. Output: lines for that
viewer only —

- an event is told only if its ``audience`` is None or holds the viewer (hidden information never leaves its owner);
- every event the viewer may see is told (``describe_event`` of every engine has a line for every kind) — at most
  folded into a neighbouring line that says it too (a Troubadour turn start into that player's first action, a
  trick's played cards into one line, three castle builds into "AI 2 builds 3 castle cards: A♥ A♣ (waste), 2♥ (V2)"),
  keeping every card, place and number;
- the viewer's own lines in the second person ("You play R9", "your V2"), everybody else by name.

``narrate`` gives the texts; ``narrate_lines`` also which events each line tells (the tests check 0 missed).
``final_result_lines`` is the final result sorted by place, shared places and the game's tie rule stated (the
engine's ``tie_rule`` and ``score_unit`` hooks: which rule breaks ties is the game's knowledge, not the bot's).
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from bot.service.narration.condense import (_TRICK_KINDS, _TURN_LINES, _club_jack_flip, _fold_next_ok, _guyenne_fight,
                                            _guyenne_refill, _guyenne_reinforcing, _seat, _trick_line, _troubadour_run,
                                            _turns)
from bot.service.narration.lines import Line, _describe, _entries
from bot.service.narration.people import personal
from bot.service.narration.results import final_result_lines
from rules.api import Event, Game
from rules.lang import reading, semicolon

__all__ = ["Line", "narrate", "narrate_lines", "since_last_turn", "personal", "final_result_lines"]


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
            emit(Line(semicolon().join(parts) + ".", [items[m][0] for m in range(i, j)], seqs[k]))
            i = j
            continue
        if condense and game.name == "troubadour" and nxt is not None and _club_jack_flip(event, nxt):
            emit(Line(_club_jack_flip(event, nxt), [k, items[i + 1][0]], seqs[k]))
            i += 2
            continue
        if condense and game.name == "troubadour" and event.kind in ("built_castle", "built_village"):
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


def narrate(game: Game, events: Iterable[Any], viewer: int | None, names: Sequence[str],
            condense: bool = True) -> list[str]:
    """The narration ``viewer`` may read for ``events`` (each line may hold several events; multi-line
    descriptions, such as Kardinal's final account, stay one entry with newlines)."""
    return [line.text for line in narrate_lines(game, events, viewer, names, condense)]


def since_last_turn(game: Game, log: Sequence[tuple[int, int | None, list[Event]]], viewer: int,
                    names: Sequence[str], ended: bool = False) -> list[str]:
    """What ``viewer`` has not seen since its previous move: ``log`` is the game's moves as ``(seq, seat, events)``
    in order (from after the viewer's move before its last one, or earlier); the viewer's last own move is
    told — confirmed in a short line, with what it learnt privately and what it set off — and everything after it.
    The cards played into a trick before the viewer's card were told before; the line closing that trick names
    them again ("Trick: A R9 · B G3 · you B5 → A wins the trick"), no line tells them alone. ``ended``: the game
    is over (kept for callers; the last move is told whole either way)."""
    last = max((k for k, (_, seat, _) in enumerate(log) if seat == viewer), default=-1)
    if last < 0:
        return narrate(game, [(seq, e) for seq, _, events in log for e in events], viewer, names)
    first = last
    while first > 0 and _trick_cards_only(game, log[first - 1][2]):
        first -= 1
    context = [(seq, e) for seq, _, events in log[first:last] for e in events]
    told = context + [(seq, e) for seq, _, events in log[last:] for e in events]
    lines = narrate_lines(game, told, viewer, names)
    return [line.text for line in lines if any(k >= len(context) for k in line.events)]


def _trick_cards_only(game: Game, events: list[Event]) -> bool:
    """A move that only played a card into a trick (a trick game's card, the trick not closed by it)."""
    return bool(events) and all((game.name, e.kind) in _TRICK_KINDS for e in events)
