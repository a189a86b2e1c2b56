"""Time banks for games played over days, and away periods that stop them. Pure: no I/O.

A game's ``clocks`` (stored on its row, written in the same version-checked write as each move) hold the time
control — ``bank``, ``inc``rement and ``cap`` in seconds — and the facts every process derives the banks from:
``left`` (each seat's bank as of ``since``), ``charged`` (the seats whose banks run since then: every person who
must act, all at once in a simultaneous phase) and ``outs`` (banks run out in a row). A bank runs only while its
seat is charged and its person is not away (the away periods are stored on the person, ``players.notify``), so a
bank at any moment is ``left`` minus the charged time since ``since`` outside the person's away periods. The
bank timer (``deadlines.py``) only says when to look again: it is fired against these facts.
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from rules.api import IllegalAction
from bot.i18n import _

LIVE = "live"
PRESETS = {"fast": (86400, 4 * 3600), "normal": (3 * 86400, 86400), "slow": (7 * 86400, 2 * 86400)}
MAX_BANK = 30 * 86400
MAX_INC = 7 * 86400
MIN_BANK = 3600
CAP_TIMES = 2  # a bank never grows beyond twice its size at the start
AWAY_ALLOWANCE = (14 * 86400, 60 * 86400)  # away at most 14 days in any 60
TAKEOVER_AFTER = 2  # banks run out this many times in a row: an AI takes the seat over for good
_UNITS = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_PART = re.compile(r"(\d{1,4})([mhdw])")


def duration(text: str) -> int | None:
    """``2d12h``, ``90m``, ``1w`` as seconds (None when it is not one)."""
    text = text.replace(" ", "").lower()
    parts = _PART.findall(text)
    if not text or len(text) > 20 or "".join(n + u for n, u in parts) != text:
        return None
    return sum(int(n) * _UNITS[u] for n, u in parts)


def parse_clock(text: str) -> dict | None:
    """``live`` (None: the chat's per-turn timer), a preset, or ``<bank>+<increment>`` as a time control."""
    text = (text or "").strip().lower()
    if text == LIVE:
        return None
    if text in PRESETS:
        bank, inc = PRESETS[text]
    else:
        bank_text, plus, inc_text = text.partition("+")
        bank, inc = duration(bank_text), duration(inc_text) if plus else 0
        if bank is None or inc is None:
            raise IllegalAction(_("clock is live, fast, normal, slow, or a bank and an increment per move like "
                                  "clock=2d+12h (units m, h, d, w)."))
    if not MIN_BANK <= bank <= MAX_BANK or inc > MAX_INC:
        raise IllegalAction(_("clock: a bank from 1h to 30d, an increment up to 7d, e.g. clock=2d+12h."))
    return {"bank": bank, "inc": inc, "cap": bank * CAP_TIMES}


def describe(clocks: dict | None) -> str:
    """The time control as typed: ``live`` or ``2d+12h``."""
    if not clocks:
        return LIVE
    return compact(clocks["bank"]) + ("+" + compact(clocks["inc"]) if clocks["inc"] else "")


def compact(seconds: int) -> str:
    parts = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            parts.append(f"{seconds // size}{unit}")
            seconds %= size
    return "".join(parts) or "0m"


def spoken(seconds: float) -> str:
    """A bank in the reader's language, to the two largest units: "2d 4h", "35m"."""
    seconds = max(0, int(seconds))
    days, hours, minutes = seconds // 86400, seconds % 86400 // 3600, seconds % 3600 // 60
    # TRANSLATORS: short units of a remaining time: d = days, h = hours, m = minutes ("2d 4h")
    if days:
        return _("{d}d {h}h", d=days, h=hours) if hours else _("{d}d", d=days)
    if hours:
        return _("{h}h {m}m", h=hours, m=minutes) if minutes else _("{h}h", h=hours)
    return _("{m}m", m=minutes)


# -- the facts and what follows from them ---------------------------------------------------------------------

def _at(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def periods_of(notify: dict | None) -> list[tuple[datetime, datetime]]:
    """A person's away periods (start, end), oldest first."""
    return [(_at(a), _at(b)) for a, b in (notify or {}).get("away", [])]


def overlap(periods: list[tuple[datetime, datetime]], start: datetime, end: datetime) -> float:
    """Seconds of [start, end) inside the periods (which do not overlap each other)."""
    return sum(max(0.0, (min(b, end) - max(a, start)).total_seconds()) for a, b in periods)


def started(control: dict, seats: list[int], moment: datetime) -> dict:
    """The clocks of a game starting now: every seat's bank full, nobody charged yet."""
    return {**control, "left": {str(s): control["bank"] for s in seats}, "since": moment.isoformat(),
            "charged": [], "outs": {}}


def remaining(clocks: dict, seat: int, moment: datetime, periods: list | None = None) -> float:
    """Seat's bank at ``moment`` (seconds, may be below 0 until the timer fires)."""
    left = float(clocks["left"].get(str(seat), clocks["bank"]))
    if seat in clocks.get("charged", []):
        since = _at(clocks["since"])
        if moment > since:
            left -= (moment - since).total_seconds() - overlap(periods or [], since, moment)
    return left


def runs_out(clocks: dict, seat: int, periods: list | None = None) -> datetime:
    """When seat's bank reaches 0 if it stays charged (its person's away periods as known now)."""
    moment = _at(clocks["since"])
    need = max(0.0, float(clocks["left"].get(str(seat), clocks["bank"])))
    for start, end in sorted(periods or []):  # walk through the away periods: the bank stands still in them
        if end <= moment:
            continue
        start = max(start, moment)
        if moment + timedelta(seconds=need) <= start:
            break
        need -= (start - moment).total_seconds()
        moment = end
    return moment + timedelta(seconds=need)


def settle(clocks: dict, moment: datetime, moved: dict[int, str], charged: list[int],
           periods: dict[int, list]) -> dict:
    """The clocks after a change at ``moment``: the charged banks run down to it, each seat that moved gets the
    increment (capped) — ``moved``: seat → who moved it last (``player``; ``timer`` when its bank ran out: the
    run of outs grows, any other resets it) —, and ``charged`` run from now."""
    left = {k: float(v) for k, v in clocks["left"].items()}
    for seat in clocks.get("charged", []):
        left[str(seat)] = remaining(clocks, seat, moment, periods.get(seat))
    outs = dict(clocks.get("outs", {}))
    for seat, by in moved.items():
        key = str(seat)
        left[key] = min(float(clocks["cap"]), max(0.0, left.get(key, clocks["bank"])) + clocks["inc"])
        outs[key] = outs.get(key, 0) + 1 if by == "timer" else 0
    return {**clocks, "left": {k: round(v, 3) for k, v in left.items()}, "since": moment.isoformat(),
            "charged": sorted(charged), "outs": {k: v for k, v in outs.items() if v}}


def outs(clocks: dict | None, seat: int) -> int:
    return int(((clocks or {}).get("outs") or {}).get(str(seat), 0))


def board_clocks(clocks: dict | None, seats: list[int]) -> list[list]:
    """[seat, seconds left, running] of ``seats`` as the clocks were settled (the board of that change), or []
    for a live game."""
    if not clocks or "left" not in clocks:
        return []
    return [[s, round(float(clocks["left"].get(str(s), clocks["bank"]))), s in clocks.get("charged", [])]
            for s in seats]


# -- away --------------------------------------------------------------------------------------------------------

def away_until(notify: dict | None, moment: datetime) -> datetime | None:
    """The end of the person's away period going on at ``moment``, or None."""
    return next((b for a, b in periods_of(notify) if a <= moment < b), None)


def away_used(notify: dict | None, moment: datetime) -> float:
    """Seconds of away counted against the allowance at ``moment``: within the window before it, and planned."""
    window = AWAY_ALLOWANCE[1]
    return sum(max(0.0, (b - max(a, moment - timedelta(seconds=window))).total_seconds())
               for a, b in periods_of(notify))


def go_away(notify: dict | None, moment: datetime, until: datetime) -> dict:
    """The person's notify settings with an away period from now until ``until`` (one going on is replaced);
    periods older than the allowance's window are forgotten. Refused beyond the allowance."""
    periods = [(a, b) for a, b in periods_of(notify) if b > moment - timedelta(seconds=AWAY_ALLOWANCE[1])]
    periods = [(a, min(b, moment)) for a, b in periods if a < moment]  # a period going on ends now
    kept = {**(notify or {}), "away": [[a.isoformat(), b.isoformat()] for a, b in periods if b > a]}
    allowed, window = AWAY_ALLOWANCE
    used = away_used(kept, moment)
    if used + (until - moment).total_seconds() > allowed:
        raise IllegalAction(_("Away is allowed {most} in any {window}; you have {left} left.",
                              most=spoken(allowed), window=spoken(window), left=spoken(max(0.0, allowed - used))))
    kept["away"].append([moment.isoformat(), until.isoformat()])
    return kept


def come_back(notify: dict | None, moment: datetime) -> dict:
    """The away period going on ends now."""
    periods = [(a, min(b, moment) if a <= moment else b) for a, b in periods_of(notify)]
    return {**(notify or {}), "away": [[a.isoformat(), b.isoformat()] for a, b in periods if b > a]}
