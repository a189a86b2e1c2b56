"""Issue 37 (items 3 and 13): what the console printed before each of the person's prompts, compared with the events
stored with the moves — every event the person's seat may know told once, none missed, none told twice.

A whole seeded game is played through the real console and service on a SQLite file (the person always answers
``1``, the other seats are AIs). The narration is watched (``narration.narrate_lines``: which events each line
tells), and so is every prompt (which moves were stored before it). For the stretch printed before a prompt (and
the last one, after the game ended), each printed line is matched with the narrated lines of that stretch; the
events of the moves stored in that stretch that the seat may see must each be told by a printed line, and no event
may be told by two printed lines — anywhere in the game — and events are told in the order they happened (Guyenne
printed "You reveal at castle 6" above the box that told the opponent's pass before it: issue 37, item 7).
A hand as dealt (``Game.restated_by_view``) is told by the view of the box that brings it, when that view's hand
is those cards. One repetition is not one: the line that goes on with a trick ("Trick: A R9 · B G3 · you B5 → A wins the trick")
names again the cards played into it before the person's prompt, since it says what the trick was.
"""
from __future__ import annotations

import io
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from bot import i18n
from bot.console.play import Console, table
from bot.console.words import _plain, addressed, you as console_you
from bot.service import build_service, narration, rendering
from rules.api import Event

_PREFIXES = ("│ ", "📢 ", "· ")


def key(seq, event: Event) -> tuple:
    return seq, json.dumps(event.to_json(), sort_keys=True)


@dataclass
class Report:
    expected: int = 0
    missed: list = field(default_factory=list)  # (prompt, seq, kind, line)
    twice: list = field(default_factory=list)  # (seq, kind, line, times)
    over: bool = False
    text: str = ""
    kinds: Counter = field(default_factory=Counter)  # the game's events by kind
    disorder: list = field(default_factory=list)  # (prompt, line told, a line printed before it that came later)


class _Answers(io.StringIO):
    """The person's keyboard: ``1`` at every prompt (then quit), noting where each prompt came."""

    def __init__(self, out: io.StringIO, seqs: list, service, limit: int):
        super().__init__()
        self.out, self.seqs, self.service, self.limit = out, seqs, service, limit
        self.cuts: list[int] = []  # where in the printed text each prompt came
        self.game_id = None

    def readline(self, *args) -> str:
        self.cuts.append(len(self.out.getvalue()))
        live = self.service.ctx.games.loaded(self.game_id) if self.game_id is not None else None
        self.seqs.append(live.log[-1][0] if live is not None and live.log else -1)
        return "1\n" if len(self.cuts) <= self.limit else "quit\n"


def shown_by_view(game, recipe: dict) -> list[str]:
    """The events (as JSON) a hand message's recipe brought without a line of their own because its view shows
    them (``Game.restated_by_view``): each a hand as dealt whose cards are that view's hand."""
    told = recipe.get("told") or {}
    events = told.get("events", []) + [e for _seq, _mover, events in told.get("since", []) for e in events]
    return [json.dumps(data, sort_keys=True) for data in events if data["kind"] in game.restated_by_view
            and sorted(data["data"]["cards"]) == sorted(recipe["view"]["hand"])]


async def told_report(monkeypatch, url: str, game: str, players: int, seed: int, options: str = "",
                      lang: str = "en", limit: int = 600) -> Report:
    calls: list[tuple[int, int | None, str, set]] = []  # (prompt, viewer, text, event keys)
    real = narration.narrate_lines
    seqs: list[int] = []
    answers: _Answers | None = None

    def spy(g, events, viewer, names, condense=True):
        entries = narration._entries(events)
        lines = real(g, entries, viewer, names, condense)
        prompt = len(answers.cuts) if answers is not None else 0
        calls.extend((prompt, viewer, line.text, {key(*entries[k]) for k in line.events}) for line in lines)
        return lines

    monkeypatch.setattr(narration, "narrate_lines", spy)
    shown: list[tuple[int, int, str]] = []  # (prompt, seat, event) a hand's view showed instead of a line
    hand = rendering._hand

    def hand_spy(g, recipe):
        prompt = len(answers.cuts) if answers is not None else 0
        shown.extend((prompt, recipe["seat"], event) for event in shown_by_view(g, recipe))
        return hand(g, recipe)

    monkeypatch.setattr(rendering, "_hand", hand_spy)
    monkeypatch.setenv("COLUMNS", "2000")  # lines are matched whole: no wrapping to a terminal's width
    out = io.StringIO()
    service = await build_service(url)
    try:
        with i18n.using(lang):
            # a new console game is played at its language's own table (bot.console.play.table), as `play` sets it
            await service.settings(table(lang), console_you(), f"language={lang} mylanguage={lang}", is_admin=True)
            answers = _Answers(out, seqs, service, limit)
            console = Console(service, out, answers)
            original = console.new_game

            async def new_game(*a):
                ok = await original(*a)
                answers.game_id = console.game_id
                return ok

            assert await new_game(game, players, seed, options)
            answers.game_id = console.game_id
            await console.loop()
            you = console.you.name
            seat = console.seat
            from storage import UnitOfWork

            async with UnitOfWork(service.db) as uow:
                row = await uow.games.get(console.game_id)
                moves = [(m.seq, m.seat, [Event.from_json(e) for e in m.events])
                         for m in await uow.games.moves(console.game_id)]
                over = row.status == "finished"
    finally:
        await service.close()
    text = out.getvalue()
    cuts = answers.cuts + [len(text)]
    seqs = seqs + [max((m[0] for m in moves), default=-1)]
    report = Report(over=over, text=text, kinds=Counter(e.kind for _s, _m, events in moves for e in events))
    order = {}  # event key -> its place in the game (seq, index in its move): lines are printed in this order
    for seq, _mover, events in moves:
        for i, event in enumerate(events):
            order.setdefault(key(seq, event), (seq, i))
    told = Counter()  # event key -> printed lines telling it
    closing_told = Counter()  # ... of them, lines closing a trick
    with i18n.using(lang):
        for prompt in range(len(cuts)):
            start = cuts[prompt - 1] if prompt else 0
            chunk = [line for line in text[start:cuts[prompt]].splitlines()]
            said = defaultdict(list)  # narrated text (first line) -> the event sets it tells, in order
            for at, viewer, line, keys in calls:
                if at == prompt and viewer == seat:
                    first = _plain(line).splitlines()[0] if line.strip() else ""
                    said[addressed(first, you)].append(keys)
            used = Counter()
            last = None  # (place, line): the latest event told so far before this prompt, and its line
            latest = {key(seq, e)[1]: key(seq, e) for seq, _m, events in moves if seq <= seqs[prompt] for e in events}
            for raw in chunk:
                for prefix in _PREFIXES:
                    if raw.startswith(prefix):
                        raw = raw[len(prefix):]
                        break
                line = addressed(raw, you)
                if line not in said:
                    continue
                sets = said[line]
                keys = sets[min(used[line], len(sets) - 1)]
                used[line] += 1
                keys = {k if k[0] is not None else latest.get(k[1], k) for k in keys}  # a board's recent events
                cards = [k[0] for k in keys if json.loads(k[1])["kind"] == "card_played"]
                places = [order[k] for k in keys if k in order]
                if places and last is not None and max(places) < last[0]:  # an event told after a later one
                    report.disorder.append((prompt, line, last[1]))
                if places and (last is None or max(places) > last[0]):
                    last = (max(places), line)
                for k in keys:
                    told[k] += 1
                    closing_told[k] += k[0] in cards and k[0] < max(cards)  # a later card of its trick in the line
            for at, viewer, event in shown:  # a hand as dealt, told by the view of the box that brought it
                if at == prompt and viewer == seat:
                    told[next(k for k in latest.values() if k[1] == event)] += 1
            low = seqs[prompt - 1] if prompt else -10 ** 9
            for seq, _mover, events in moves:
                if not low < seq <= seqs[prompt]:
                    continue
                for event in events:
                    if not event.visible_to(seat):
                        continue
                    report.expected += 1
                    if told[key(seq, event)] == 0:
                        report.missed.append((prompt, seq, event.kind, event.data))
        for seq, _mover, events in moves:
            for event in events:
                k = key(seq, event)
                extra = told[k] - 1 - (closing_told[k] if event.kind == "card_played" else 0)
                if event.visible_to(seat) and told[k] > 1 and extra > 0:
                    report.twice.append((seq, event.kind, event.data, told[k]))
    return report
