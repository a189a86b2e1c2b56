"""Turn deadlines and AI jobs as timer rows: which a change of a game writes and which it drops. Pure.

A person to act has a reminder at half the chat's turn time and an AI's turn at its end; a thinking AI to act
has an ``ai`` job due now; a person whose timed-out turn a thinking AI plays has a ``takeover`` job for its
next action (``handlers/ai_turns.py``). The timer loop (``handlers/timers.py``) fires them.

A game with time banks (``clocks.py``) has instead a ``bank`` timer when the seat's bank would run out (fired
against the stored banks: a later increment or an away period only makes it look again later) and a ``remind``
timer after the person's own reminder time (``notifying.py``).
"""
from __future__ import annotations

from datetime import datetime, timedelta

from rules.api import State
from bot.service import ai_seats, clocks as banks, notifying
from bot.service.live import LiveGame


def deadlines(live: LiveGame, seat: int, moment: datetime) -> list[dict]:
    """A person's turn deadline: a reminder at half the chat's turn time, an AI's turn at its end."""
    seconds = live.turn_timer
    return [{"seat": seat, "kind": kind, "version": live.version, "due_at": moment + timedelta(seconds=seconds * part)}
            for kind, part in (("remind", 0.5), ("autoplay", 1.0))]


def bank_deadlines(live: LiveGame, clocks: dict, seat: int, moment: datetime) -> list[dict]:
    """A person's turn in a game with time banks: look at the bank when it would run out; remind them after
    their own reminder time."""
    notify = live.seats[seat].notify
    out = [{"seat": seat, "kind": "bank", "version": live.version,
            "due_at": banks.runs_out(clocks, seat, banks.periods_of(notify))}]
    remind = notifying.of(notify)["remind"]
    digest = notifying.next_digest(notify, moment)
    if digest is not None:  # one message a day instead of reminders
        out.append({"seat": seat, "kind": "digest", "version": live.version, "due_at": digest})
    elif remind:
        out.append({"seat": seat, "kind": "remind", "version": live.version,
                    "due_at": moment + timedelta(seconds=remind)})
    return out


def timer_changes(live: LiveGame, state: State, moment: datetime,
                  takeover: int | None = None, clocks: dict | None = None) -> tuple[set[int], list[dict]]:
    """(seats whose timers go, new timer rows) for the game moving to ``state``. Each human to act has a
    deadline from when their turn began; others' timers are dropped. A thinking AI to act gets a fresh ``ai``
    job, due now (a job for an older version of the game is replaced). ``takeover``: the seat whose timed-out
    turn a thinking AI is playing; while that turn goes on it has no deadline but a ``takeover`` job for its
    next action, due now. ``clocks``: the game's time banks after the change (then banks, not the chat's turn
    timer, set the deadlines). Updates ``live.timer_seats``."""
    to_act = {s for s in state.to_act() if not live.seats[s].is_ai}
    leaving = live.timer_seats - to_act
    live.timer_seats -= leaving
    new: list[dict] = []
    if clocks:
        for seat in sorted(to_act - live.timer_seats - {takeover}):
            new.extend(bank_deadlines(live, clocks, seat, moment))
            live.timer_seats.add(seat)
    elif live.turn_timer <= 0:
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


def hold_pings(messages: list, live: LiveGame, moment: datetime) -> list[dict]:
    """The turn pings of ``messages`` that their people do not want now: ``ping=off``, a daily digest instead, or
    quiet hours (the hand is then shown without notifying, and a ``ping`` timer gives the ping when the quiet hours
    end). Returns those timers' rows."""
    held = []
    for message in messages:
        if message.kind == "turn" and message.mentions:
            held += _hold_mentions(message, live, moment)
        if not message.ping or message.user is None:
            continue
        person = live.seat_of(message.user)
        if person is None:
            continue
        prefs = notifying.of(person.notify)
        later = notifying.quiet_end(person.notify, moment)
        if prefs["digest"] != "off" and live.clocks:  # the daily digest tells them (a live game pings as ever)
            message.ping, message.silent = False, True
            continue
        if prefs["ping"] == "off" or later is not None:
            message.ping, message.silent = False, True
        if prefs["ping"] == "on" and later is not None:
            held.append({"seat": person.seat, "kind": "ping", "version": live.version, "due_at": later})
    return held


def _hold_mentions(message, live: LiveGame, moment: datetime) -> list[dict]:
    """The group's turn line names only the people who want their ping there now (``where=mention``): not with
    ``ping=off`` or a digest, and not in quiet hours (a ``ping`` timer mentions them when those end)."""
    held, kept = [], []
    for user in message.mentions:
        person = live.seat_of(user)
        prefs = notifying.of(person.notify if person else None)
        if person is None or person.dm_ok is False or prefs["where"] != "mention":
            kept.append(user)  # private messages fail: named whatever they chose
            continue
        later = notifying.quiet_end(person.notify, moment)
        if prefs["ping"] == "off" or (prefs["digest"] != "off" and live.clocks):
            continue
        if later is not None:
            held.append({"seat": person.seat, "kind": "ping", "version": live.version, "due_at": later})
            continue
        kept.append(user)
    message.mentions = kept
    return held
