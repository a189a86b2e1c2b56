"""A person's reminders and held pings, fired by the timer loop (``timers.py``) against their settings as stored
now (``/notify``): nothing is said in their quiet hours — the timer moves to the hour they end —, a reminder
comes again every M hours while the turn waits, and a ping held through the quiet hours is given when they end.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from storage import UnitOfWork
from bot import i18n
from bot.i18n import _
from bot.service import clocks, languages, notifying
from bot.service.context import Context
from bot.service.live import LiveGame
from bot.service.messages import Message
from bot.service.outbox import outbox_rows

KINDS = ("remind", "ping")


async def fire(ctx: Context, uow: UnitOfWork, live: LiveGame, seat: int, kind: str,
               moment: datetime) -> list[Message]:
    """Remind (or ping) the person at ``seat``, whose turn it still is — or hold it until their quiet hours end."""
    person = live.seats[seat]
    notify = (await uow.players.notify_of([person.player_id])).get(person.player_id)
    person.notify = notify
    prefs = notifying.of(notify)
    later = notifying.quiet_end(notify, moment)
    if later is not None:
        await uow.timers.add(live.id, [{"seat": seat, "kind": kind, "version": live.version, "due_at": later}])
        await uow.commit()
        return []
    with i18n.using(languages.of_live_seat(live, person)):
        if kind == "ping":
            text = _("🔔 Game #{id} ({game}): it is your turn.", id=live.id, game=live.game.title)
        elif live.clocks:
            left = clocks.remaining(live.clocks, seat, moment, clocks.periods_of(notify))
            text = _("⏳ Game #{id} ({game}) is waiting for your move; your time bank: {left}.", id=live.id,
                     game=live.game.title, left=clocks.spoken(left))
        else:
            text = _("⏳ Game #{id} ({game}) is waiting for your move.", id=live.id, game=live.game.title)
    out = [Message(text, user=person.user, game_id=live.id, kind="notice")]
    if kind == "remind" and prefs["every"]:
        await uow.timers.add(live.id, [{"seat": seat, "kind": "remind", "version": live.version,
                                        "due_at": moment + timedelta(seconds=prefs["every"])}])
    await uow.outbox.add(outbox_rows(ctx, out))
    await uow.commit()
    return out

