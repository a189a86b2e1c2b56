"""The heads-up of ``/notify next=on``: a short private notice to the person who is next, when the turn passes to
the player just before them — once per turn, never in their quiet hours (dropped, not held: by then it is their
turn, and that has its own ping), never to the person to act. Pure.

Who is next: the engines tell only who acts now (``State.to_act``), so the order is the order of the seats
around the table — the next seat after the one to act that a person plays (AIs are skipped). A simultaneous
phase (more than one to act) has no order: nobody is told.
"""
from __future__ import annotations

from datetime import datetime

from rules.api import State
from bot import i18n
from bot.i18n import _
from bot.service import languages, notifying
from bot.service.clocks import away_until
from bot.service.live import LiveGame, LiveSeat
from bot.service.messages import Message


def next_person(live: LiveGame, seat: int) -> LiveSeat | None:
    """The person after ``seat`` in seat order (AIs skipped), or None when ``seat`` is the only one."""
    n = len(live.seats)
    for step in range(1, n):
        other = live.seats[(seat + step) % n]
        if not other.is_ai:
            return other
    return None


def heads_up(live: LiveGame, state: State, before: list[int], moment: datetime) -> list[Message]:
    """The heads-up for the change to ``state`` (``before``: who was to act), as a private notice."""
    to_act = [] if state.is_over() else state.to_act()
    if len(to_act) != 1 or to_act[0] in before:
        return []  # no fixed order now, or the turn did not pass (the mover still to act: the same turn)
    person = next_person(live, to_act[0])
    if person is None or person.seat in to_act:
        return []
    prefs = notifying.of(person.notify)
    if prefs["next"] != "on" or prefs["digest"] != "off" and live.clocks \
            or notifying.quiet_end(person.notify, moment) is not None or away_until(person.notify, moment):
        return []
    with i18n.using(languages.of_live_seat(live, person)):
        text = _("⏭ You are next in game #{id} ({game}): {name} is to play.", id=live.id, game=live.game.title,
                 name=live.names[to_act[0]])
    return [Message(text, user=person.user, game_id=live.id, kind="notice")]
