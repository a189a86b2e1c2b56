"""Turn deadlines and AI jobs as timer rows: which a change of a game writes and which it drops. Pure.

A person to act has a reminder at half the chat's turn time and an AI's turn at its end; a thinking AI to act
has an ``ai`` job due now; a person whose timed-out turn a thinking AI plays has a ``takeover`` job for its
next action (``handlers/ai_turns.py``). The timer loop (``handlers/timers.py``) fires them.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from rules.api import State
from bot.service import ai_seats
from bot.service.live import LiveGame


def deadlines(live: LiveGame, seat: int, moment: datetime) -> list[dict]:
    """A person's turn deadline: a reminder at half the chat's turn time, an AI's turn at its end."""
    seconds = live.turn_timer
    return [{"seat": seat, "kind": kind, "version": live.version, "due_at": moment + timedelta(seconds=seconds * part)}
            for kind, part in (("remind", 0.5), ("autoplay", 1.0))]


def timer_changes(live: LiveGame, state: State, moment: datetime,
                  takeover: int | None = None) -> tuple[set[int], list[dict]]:
    """(seats whose timers go, new timer rows) for the game moving to ``state``. Each human to act has a
    deadline from when their turn began; others' timers are dropped. A thinking AI to act gets a fresh ``ai``
    job, due now (a job for an older version of the game is replaced). ``takeover``: the seat whose timed-out
    turn a thinking AI is playing; while that turn goes on it has no deadline but a ``takeover`` job for its
    next action, due now. Updates ``live.timer_seats``."""
    to_act = {s for s in state.to_act() if not live.seats[s].is_ai}
    leaving = live.timer_seats - to_act
    live.timer_seats -= leaving
    new: list[dict] = []
    if live.turn_timer <= 0:
        leaving |= live.timer_seats  # the timer was switched off: deadlines already set go too
        live.timer_seats.clear()
    else:
        for seat in sorted(to_act - live.timer_seats - {takeover}):
            new.extend(deadlines(live, seat, moment))
            live.timer_seats.add(seat)
    if takeover in to_act:
        leaving.add(takeover)
        live.timer_seats.add(takeover)
        new.append({"seat": takeover, "kind": "takeover", "version": live.version + 1, "due_at": moment})
    for seat in ai_seats.thinking_seats(live, state):
        leaving.add(seat)  # dropped before the new job is written (MoveWrite drops first)
        new.append({"seat": seat, "kind": "ai", "version": live.version + 1, "due_at": moment})
    return leaving, new
