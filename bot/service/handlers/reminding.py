"""A person's reminders and held pings, fired by the timer loop (``timers.py``) against their settings as stored
now (``/notify``): nothing is said in their quiet hours — the timer moves to the hour they end —, a reminder
comes again every M hours while the turn waits, and a ping held through the quiet hours is given when they end.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from storage import UnitOfWork
from bot import i18n
from bot.i18n import _, ngettext
from bot.service import clocks, languages, notifying
from bot.service.context import Context
from bot.service.live import LiveGame
from bot.service.messages import Message
from bot.service.outbox import outbox_rows

KINDS = ("remind", "ping", "digest")


async def fire(ctx: Context, uow: UnitOfWork, live: LiveGame, seat: int, kind: str,
               moment: datetime) -> list[Message]:
    """Remind (or ping) the person at ``seat``, whose turn it still is — or hold it until their quiet hours end."""
    person = live.seats[seat]
    notify = (await uow.players.notify_of([person.player_id])).get(person.player_id)
    person.notify = notify
    prefs = notifying.of(notify)
    if kind == "digest":
        return await _digest(ctx, uow, live, seat, notify, moment)
    if kind == "ping" and (prefs["ping"] == "off" or prefs["digest"] != "off"):  # changed their mind since
        await uow.commit()
        return []
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
    if kind == "ping" and prefs["where"] == "mention" and person.dm_ok is not False:  # named in the channel
        with i18n.using(languages.of_live_chat(live)):
            text = _("🔔 Game #{id} ({game}): it is your turn.", id=live.id, game=live.game.title)
        out = [Message(text, chat=live.chat, game_id=live.id, kind="notice", ping=True, mentions=[person.user])]
    else:
        out = [Message(text, user=person.user, game_id=live.id, kind="notice")]
    if kind == "remind" and prefs["every"]:
        await uow.timers.add(live.id, [{"seat": seat, "kind": "remind", "version": live.version,
                                        "due_at": moment + timedelta(seconds=prefs["every"])}])
    await uow.outbox.add(outbox_rows(ctx, out))
    await uow.commit()
    return out


async def _digest(ctx: Context, uow: UnitOfWork, live: LiveGame, seat: int, notify: dict | None,
                  moment: datetime) -> list[Message]:
    """The person's daily digest: every game of theirs where they are to act has a digest timer at that hour, and
    the one with the lowest number tells them all (the same answer in any process, so one message a day)."""
    person = live.seats[seat]
    following = notifying.next_digest(notify, moment)
    if following is None:  # they turned the digest off since: reminders start from now
        remind = notifying.of(notify)["remind"]
        if remind:
            await uow.timers.add(live.id, [{"seat": seat, "kind": "remind", "version": live.version,
                                            "due_at": moment + timedelta(seconds=remind)}])
        await uow.commit()
        return []
    await uow.timers.add(live.id, [{"seat": seat, "kind": "digest", "version": live.version, "due_at": following}])
    waiting = []
    for row in await uow.games.of_player(person.player_id, ("active",)):
        game = live if row.id == live.id else await ctx.games.fresh(uow, row.id)
        mine = game.seat_of(person.user) if game is not None else None
        if mine is not None and mine.seat in game.state.to_act():
            waiting.append(game)
    if not waiting or min(g.id for g in waiting) != live.id:
        await uow.commit()
        return []
    with i18n.using(languages.of_live_seat(live, person)):
        text = "\n".join([ngettext("📬 {n} game waits for you:", "📬 {n} games wait for you:", len(waiting))]
                         + [f"• #{g.id} {g.game.title}" for g in waiting])
    out = [Message(text, user=person.user, kind="notice")]
    await uow.outbox.add(outbox_rows(ctx, out))
    await uow.commit()
    return out
