"""The heads-up of ``/notify next=on``: a short private notice to the person who acts after the one now to act,
as soon as the engine can tell who that is (``State.next_to_act``: the seat order, a placement's set order,
never a trick's winner) — once per turn, never in their quiet hours (dropped, not held: by then it is their
turn, and that has its own ping), never to the person to act. Pure.

Once per turn: it is said when the turn passes to someone, or later in the same turn when the answer first
becomes known (Kardinal's next is known once the building stands); a further move of that turn that leaves the
answer as it was says nothing. A turn an AI plays is over at once: its next person gets the turn ping instead.
"""
from __future__ import annotations

from datetime import datetime

from rules.api import State
from bot import i18n
from bot.i18n import _
from bot.service import languages, notifying
from bot.service.clocks import away_until
from bot.service.live import LiveGame
from bot.service.messages import Message


def heads_up(live: LiveGame, state: State, before: list[int], moment: datetime,
             earlier: State | None = None) -> list[Message]:
    """The heads-up for the change to ``state`` (``before``: who was to act in ``earlier``, the state before it),
    as a private notice."""
    to_act = [] if state.is_over() else state.to_act()
    if len(to_act) != 1 or live.seats[to_act[0]].is_ai or not _anyone_asked(live, to_act[0]):
        return []
    nxt = state.next_to_act()
    if nxt is None or nxt == to_act[0] or live.seats[nxt].is_ai:
        return []
    if to_act == before and earlier is not None and earlier.next_to_act() == nxt:
        return []  # the same turn goes on and this was known already: said once
    person = live.seats[nxt]
    prefs = notifying.of(person.notify)
    if prefs["next"] != "on" or prefs["digest"] != "off" and live.clocks \
            or notifying.quiet_end(person.notify, moment) is not None or away_until(person.notify, moment):
        return []
    with i18n.using(languages.of_live_seat(live, person)):
        text = _("⏭ You are next in game #{id} ({game}): {name} is to play.", id=live.id, game=live.game.title,
                 name=live.names[to_act[0]])
    return [Message(text, user=person.user, game_id=live.id, kind="notice")]


def _anyone_asked(live: LiveGame, acting: int) -> bool:
    """Whether a person other than the one acting chose ``next=on``: only then is the engine asked."""
    return any(not s.is_ai and s.seat != acting and notifying.of(s.notify)["next"] == "on" for s in live.seats)
