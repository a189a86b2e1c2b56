"""``/away 3d`` (or until a day: ``friday``, ``2026-12-24``) and ``/back``: a person's time banks stop in every
game they sit in on their platform while they are away (``clocks.py`` subtracts the period from the charged
time), within an allowance; each table is told once. Stored on the person (``players.notify``), so every process
derives the same banks.

The bank timers need no rewrite for ``/away`` (fired early, they look again later); ``/back`` before the
planned end makes them look now, as the banks run again from now.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from babel.dates import format_datetime, get_day_names

from rules.api import IllegalAction
from bot import i18n
from bot.i18n import _
from bot.service import clocks, commands as c, lifecycle, notifying
from bot.service.context import Context
from bot.service.errors import clean
from bot.service.languages import chat_language, person_language
from bot.service.messages import Message, UserRef
from bot.service.outbox import outbox_rows
from bot.service.rows import chat_ref, seat_of


def when(moment: datetime, notify: dict | None, lang: str) -> str:
    """A moment as the reader says it ("Friday 4 December, 19:00"), in the away person's time zone."""
    zone = notifying.of(notify)["tz"]
    try:
        said = format_datetime(moment, "EEEE d MMMM, HH:mm", tzinfo=ZoneInfo(zone), locale=lang)
    except (ValueError, LookupError):
        said = format_datetime(moment, "EEEE d MMMM, HH:mm", locale=lang)
    return f"{said} ({zone})"  # (UTC too: a reader elsewhere knows to convert it)


# a day of the week in any of the bot's languages, whole or short ("friday", "vrijdag", "Fr.", "ven."): no two
# languages give one word to two days
WEEKDAYS = {name.lower().rstrip("."): day for lang in i18n.LANGUAGES for width in ("wide", "abbreviated")
            for day, name in get_day_names(width, locale=lang).items()}


def _until(text: str, moment: datetime, notify: dict | None) -> datetime:
    """``3d`` from now, a day of the week (the next one: a week on when it is today) or a date ``2026-12-24``
    — a day's start, in the person's zone."""
    text = text.strip()
    seconds = clocks.duration(text) if text else None
    if seconds:
        return moment + timedelta(seconds=seconds)
    zone = ZoneInfo(notifying.of(notify)["tz"])
    weekday = WEEKDAYS.get(text.lower().rstrip("."))
    if weekday is not None:
        today = moment.astimezone(zone).date()
        day = today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)
        return datetime(day.year, day.month, day.day, tzinfo=zone)
    try:
        day = datetime.strptime(text, "%Y-%m-%d")
    except ValueError:
        raise IllegalAction(_("Say how long you are away, e.g. /away 3d or /away 12h, or until a day: /away friday "
                              "or /away 2026-12-24.")) from None
    return day.replace(tzinfo=zone)


async def go_away(ctx: Context, command: c.GoAway) -> list[Message]:
    user, moment = command.user, ctx.now()
    async with ctx.uow() as uow:
        player = await uow.players.get_or_create(user.platform, user.id, user.name, user.locale)
        until = _until(clean(command.text, 40), moment, player.notify)
        if until <= moment + timedelta(minutes=1):
            raise IllegalAction(_("That moment has passed; /away takes a time to come, e.g. /away 3d."))
        player.notify = clocks.go_away(player.notify, moment, until)
        out = await _tell_tables(ctx, uow, player, user, lambda lang: _(
            "💤 {name} is away until {until}: their time banks stop meanwhile.", name=user.name,
            until=when(until, player.notify, lang)))
        lang = person_language(player)
        with i18n.using(lang):
            left = clocks.AWAY_ALLOWANCE[0] - clocks.away_used(player.notify, moment)
            text = _("💤 You are away until {until}: your time banks stop in all your games here. /back ends it "
                     "sooner. Away time left in these 60 days: {left}.", until=when(until, player.notify, lang),
                     left=clocks.spoken(max(0.0, left)))
        out.append(Message(text, user=user, kind="notice"))
        await uow.outbox.add(outbox_rows(ctx, out))
        await uow.commit()
    remember_notify(ctx, user, player.notify)
    return out


async def come_back(ctx: Context, command: c.ComeBack) -> list[Message]:
    user, moment = command.user, ctx.now()
    async with ctx.uow() as uow:
        player = await uow.players.get_or_create(user.platform, user.id, user.name, user.locale)
        if clocks.away_until(player.notify, moment) is None:
            raise IllegalAction(_("You are not away. /away 3d stops your time banks for three days."))
        player.notify = clocks.come_back(player.notify, moment)
        out = await _tell_tables(ctx, uow, player, user, lambda lang: _(
            "👋 {name} is back: their time banks run again.", name=user.name), look_now=moment)
        with i18n.using(person_language(player)):
            out.append(Message(_("👋 Welcome back: your time banks run again."), user=user, kind="notice"))
        await uow.outbox.add(outbox_rows(ctx, out))
        await uow.commit()
    remember_notify(ctx, user, player.notify)
    ctx.wake_timers()
    return out


async def _tell_tables(ctx: Context, uow, player, user: UserRef, say, look_now: datetime | None = None) -> list:
    """One notice per chat where the person sits in a running game; ``look_now``: their bank timers are due
    then (the banks run again sooner than the timers were set for)."""
    told: dict[int, Message] = {}
    for row in await uow.games.of_player(player.id, (lifecycle.ACTIVE,)):
        seat = seat_of(row, user)
        if seat is None:
            continue
        if look_now is not None and row.clocks:
            await uow.timers.due_again(row.id, seat.seat, "bank", look_now)
        if row.chat_id not in told:
            stored = await uow.chats.get(row.chat_id)
            lang = chat_language(stored.settings)
            with i18n.using(lang):
                told[row.chat_id] = Message(say(lang), chat=chat_ref(stored), kind="notice")
    return list(told.values())


def remember_notify(ctx: Context, user: UserRef, notify: dict | None) -> None:
    """The games in this process's memory see the person's new settings at once."""
    for live in ctx.games.all():
        seat = live.seat_of(user)
        if seat is not None:
            seat.notify = notify
