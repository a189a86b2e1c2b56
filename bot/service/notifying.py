"""A person's notification settings (``/notify``, stored on their player row with their away periods): a ping
when it is their turn (``where``: a private message, or a mention in the game's channel), a heads-up when they
are next, reminders after N hours and every M hours after, quiet hours in their time zone. Pure.

Quiet hours are wall-clock hours of the person's zone (zoneinfo), so a reminder held through the night is given
at the hour they chose on either side of a daylight-saving change.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from rules.api import IllegalAction
from bot.i18n import N_, _, translate
from bot.service.clocks import compact, duration

DEFAULTS: dict = {"ping": "on", "where": "dm", "next": "off", "remind": 12 * 3600, "every": 24 * 3600,
                  "quiet": "off", "tz": "UTC", "digest": "off"}
CHOICES = {"ping": ("on", "off"), "where": ("dm", "mention"), "next": ("on", "off")}
DIGEST_HOUR = 9  # digest=on: the daily digest at 9:00 in the person's zone
SUGGESTED_ZONES = ("Europe/Amsterdam", "Europe/Berlin", "Europe/Paris", "Europe/London", "Europe/Brussels",
                   "America/New_York", "America/Los_Angeles", "Asia/Tokyo", "Australia/Sydney", "UTC")
_HELP = {
    "ping": N_("a ping when it is your turn: on or off"),
    "where": N_("where the ping comes: dm (your hand, sent anew) or mention (you are named in the game's channel, "
                "your hand is updated quietly)"),
    "next": N_("a short private heads-up when you play after the one now to act (where the game can tell: not "
               "after a trick, whose winner leads): on or off"),
    "remind": N_("a reminder when your turn has waited this long (1h to 7d, or off), e.g. remind=12h"),
    "every": N_("then a reminder again every … (1h to 7d, or off), e.g. every=1d"),
    "quiet": N_("hours without pings or reminders, in your time zone (held until they end), e.g. quiet=22-8, or off"),
    "tz": N_("your time zone, e.g. tz=Europe/Amsterdam"),
    "digest": N_("on = no pings or reminders, but one message a day listing the games that wait for you (at 9:00, "
                 "or digest=18 for 18:00); off"),
}


def of(notify: dict | None) -> dict:
    """The person's settings: the defaults, overridden by what they chose."""
    return {**DEFAULTS, **{k: v for k, v in (notify or {}).items() if k in DEFAULTS}}


def parse_notify(text: str) -> dict:
    """``key=value`` tokens as changes; a refusal names what is wrong (an unknown zone: a list to choose from)."""
    changes: dict = {}
    for token in text.split():
        key, sep, value = token.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not sep or key not in DEFAULTS:
            raise IllegalAction(_("Notification settings are written key=value; known: {keys}. Example: /notify "
                                  "quiet=22-8 tz=Europe/Amsterdam", keys=", ".join(DEFAULTS)))
        if key in CHOICES:
            if value.lower() not in CHOICES[key]:
                raise IllegalAction(_("{key} is one of: {choices}.", key=key, choices=", ".join(CHOICES[key])))
            changes[key] = value.lower()
        elif key in ("remind", "every"):
            seconds = 0 if value.lower() in ("off", "0") else duration(value)
            if seconds is None or (seconds and not 3600 <= seconds <= 7 * 86400):
                raise IllegalAction(_("{key} takes a time from 1h to 7d, or off, e.g. {key}=12h.", key=key))
            changes[key] = seconds
        elif key == "quiet":
            changes[key] = _quiet(value.lower())
        elif key == "digest":
            value = value.lower()
            if value == "on":
                value = str(DIGEST_HOUR)
            if value != "off" and not (value.isdigit() and 0 <= int(value) < 24):
                raise IllegalAction(_("digest is on, off, or the hour it comes at (0 to 23), e.g. digest=18."))
            changes[key] = value if value == "off" else str(int(value))
        else:
            changes[key] = zone_name(value)
    return changes


def _quiet(value: str) -> str:
    if value == "off":
        return value
    start, dash, end = value.partition("-")
    if dash and start.isdigit() and end.isdigit() and 0 <= int(start) < 24 and 0 <= int(end) < 24 \
            and int(start) != int(end):
        return f"{int(start)}-{int(end)}"
    raise IllegalAction(_("quiet takes two hours from 0 to 23, e.g. quiet=22-8 (from 22:00 to 8:00), or off."))


def zone_name(value: str) -> str:
    """The zone as zoneinfo names it; an unknown one is refused with the closest names and a short list."""
    if len(value) <= 60 and value in available_timezones():
        return value
    wanted = value.lower()
    matches = sorted(z for z in available_timezones() if wanted and len(wanted) >= 3 and wanted in z.lower())
    choices = (matches or list(SUGGESTED_ZONES))[:10]
    raise IllegalAction(_("I do not know the time zone “{zone}”. Choose one, e.g.: {zones}.", zone=value[:60],
                          zones=", ".join(choices)))


def quiet_end(notify: dict | None, moment: datetime) -> datetime | None:
    """When the person's quiet hours going on at ``moment`` end (UTC), or None when they are not quiet now."""
    prefs = of(notify)
    if prefs["quiet"] == "off":
        return None
    start, end = (int(h) for h in prefs["quiet"].split("-"))
    zone = _zone(prefs)
    local = moment.astimezone(zone)
    hour = local.hour
    quiet = start <= hour < end if start < end else (hour >= start or hour < end)
    if not quiet:
        return None
    day = local.date() if hour < end else local.date() + timedelta(days=1)
    ends = datetime(day.year, day.month, day.day, end, tzinfo=zone)  # a wall-clock hour: DST is zoneinfo's
    return ends.astimezone(timezone.utc)


def _zone(prefs: dict) -> ZoneInfo:
    try:
        return ZoneInfo(prefs["tz"])
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def next_digest(notify: dict | None, moment: datetime) -> datetime | None:
    """When the person's next daily digest comes (UTC), after ``moment``; None when they want pings instead."""
    prefs = of(notify)
    if prefs["digest"] == "off":
        return None
    zone = _zone(prefs)
    local = moment.astimezone(zone)
    day = local.date()
    for _day in range(3):
        due = datetime(day.year, day.month, day.day, int(prefs["digest"]), tzinfo=zone).astimezone(timezone.utc)
        if due > moment:
            return due
        day += timedelta(days=1)
    return moment + timedelta(days=1)


def describe(notify: dict | None) -> str:
    prefs = of(notify)
    lines = [_("🔔 Your notifications (change them with /notify key=value):")]
    for key, value in prefs.items():
        shown = (compact(value) if value else "off") if key in ("remind", "every") else value
        lines.append(f"• {key} = {shown} — {translate(_HELP[key])}")
    return "\n".join(lines)
