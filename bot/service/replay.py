"""Stepping through a game record (``bot.service.records``): the view and the narration of any step, for any
viewer the record allows.

Step 0 is the table as dealt, step k the table after the k-th move. A whole record (audience ``"all"``) is
rebuilt with the engine from its seed and actions (a copy of the state kept every ``KEEP_EVERY`` steps, so that
stepping back and forth costs a few moves); a cut record carries its views and is only read.
Viewers: ``None`` (the public channel), a seat number, or ``"all"`` (every seat's view at once).
"""
from __future__ import annotations

import copy
from typing import Union

import rules
from bot.service import narration
from bot.service.records import ALL, FORMAT, VERSION, PUBLIC, RecordError
from rules.api import Event, State

KEEP_EVERY = 16
Viewer = Union[None, int, str]


def check(record: object) -> dict:
    """``record`` if it is a record this version reads; RecordError saying why not."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError("not a Herald game record")
    version = record.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= VERSION:
        raise RecordError(f"record version {version!r} is not one this Herald reads (up to {VERSION})")
    if not isinstance(record.get("steps"), list) or not isinstance(record.get("players"), list):
        raise RecordError("a record needs its players and steps")
    try:
        rules.get_game(str(record.get("game")))
    except Exception:
        raise RecordError(f"unknown game {record.get('game')!r}") from None
    return record


class Replay:
    """One record, stepped through. ``steps``: the number of moves (the last step's number)."""

    def __init__(self, record: dict):
        self.record = check(record)
        self.game = rules.get_game(record["game"])
        self.names = [p["name"] for p in record["players"]]
        self.audience = record["audience"]
        self.steps = len(record["steps"])
        self._kept: dict[int, State] = {}
        if self.whole:
            self._kept[0] = self.game.new_game(len(self.names), seed=record["seed"],
                                               options=copy.deepcopy(record.get("options") or {}))

    @property
    def whole(self) -> bool:
        """The record holds everything (seed and every action): the engine rebuilds it."""
        return self.audience == ALL

    @property
    def over(self) -> bool:
        return self.record.get("status") == "finished"

    def viewers(self) -> list[Viewer]:
        """Whom this record may be seen as: the table, each seat and everything (whole); the table and the
        reader's seat (a seat's record); the table only (public)."""
        if self.whole:
            return [None, *range(len(self.names)), ALL]
        return [None] if self.audience == PUBLIC else [None, self.audience]

    def _step(self, step: int) -> int:
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= self.steps:
            raise RecordError(f"no step {step!r}: steps go from 0 to {self.steps}")
        return step

    def _viewer(self, viewer: Viewer) -> Viewer:
        if viewer not in self.viewers():
            raise RecordError(f"this record cannot be seen as {viewer!r}")
        return viewer

    def state(self, step: int) -> State:
        """The engine's state after ``step`` moves (a whole record only); a copy the caller may keep."""
        step = self._step(step)
        if not self.whole:
            raise RecordError("only a whole record rebuilds the game")
        base = max(k for k in self._kept if k <= step)
        state = self._kept[base].clone()
        for k in range(base, step):
            entry = self.record["steps"][k]
            seat = entry["seat"]
            try:
                action = self.game.parse_action(state, seat, entry["action"])
                state.apply(seat, action)
            except Exception as error:
                raise RecordError(f"step {k + 1} ({entry.get('action')!r}) does not replay: {error}") from None
            if (k + 1) % KEEP_EVERY == 0 and k + 1 not in self._kept:
                self._kept[k + 1] = state.clone()
        return state

    def view(self, step: int, viewer: Viewer = None) -> dict:
        """What ``viewer`` saw after ``step`` moves: the engine's ``view(viewer)``; for ``"all"`` a dict
        ``{"viewer": "all", "public": view(None), "seats": [view(0), view(1), …]}``."""
        step, viewer = self._step(step), self._viewer(viewer)
        if not self.whole:  # each step holds the views that changed: the latest one at or before ``step``
            key = "public" if viewer is None else "seat"
            for k in range(step, -1, -1):
                views = (self.record["start"] if k == 0 else self.record["steps"][k - 1])["views"]
                if key in views:
                    return copy.deepcopy(views[key])
            raise RecordError("the record holds no view at its start")
        state = self.state(step)
        if viewer == ALL:
            return {"viewer": ALL, "public": state.view(None),
                    "seats": [state.view(s) for s in range(len(self.names))]}
        return state.view(viewer)

    def events(self, step: int, viewer: Viewer = None) -> list[Event]:
        """The events of move ``step`` (none at step 0) that ``viewer`` may know; for ``"all"`` every one of
        them, told as if public."""
        step, viewer = self._step(step), self._viewer(viewer)
        if step == 0:
            return []
        events = [Event.from_json(e) for e in self.record["steps"][step - 1]["events"]]
        if viewer == ALL:
            return [Event(e.kind, e.data) for e in events]
        return [e for e in events if e.visible_to(viewer)]

    def narration(self, step: int, viewer: Viewer = None) -> list[str]:
        """The lines of move ``step`` as ``viewer`` read them at the table (in the language current now).
        ``"all"``: the public lines, and each hidden one as the seat it was told to read it, after a lock and that
        seat's name (``🔒 Alice: You put 2 at castle 2.``)."""
        if viewer != ALL:
            return narration.narrate(self.game, self.events(step, viewer), viewer, self.names)
        step = self._step(step)
        events = [Event.from_json(e) for e in self.record["steps"][step - 1]["events"]] if step else []
        lines: list[str] = []
        k = 0
        while k < len(events):  # runs of events with one audience, each told to its own reader
            audience = events[k].audience
            run = [events[k]]
            while k + len(run) < len(events) and events[k + len(run)].audience == audience:
                run.append(events[k + len(run)])
            k += len(run)
            if audience is None:
                lines += narration.narrate(self.game, run, None, self.names)
            else:
                who = ", ".join(self.names[s] for s in audience if 0 <= s < len(self.names))
                lines += [f"🔒 {who}: {line}" for line in narration.narrate(self.game, run, audience[0], self.names)]
        return lines

    def action(self, step: int) -> str | None:
        """The notation of move ``step`` (None: step 0, or hidden from this record's reader)."""
        step = self._step(step)
        return self.record["steps"][step - 1]["action"] if step else None

    def actor(self, step: int) -> int | None:
        step = self._step(step)
        return self.record["steps"][step - 1]["seat"] if step else None
