"""Per-chat settings: what exists, the defaults and bounds, and parsing ``/settings key=value``.

``mylanguage`` is not a chat setting but the asker's own language (their private texts and answers); it is
parsed here with the rest and stored on their player row by the settings command. ``myweb`` (hidden or shown) is
the asker's name on the web pages, stored on their player row too. ``web=on`` publishes the chat's league under a
random slug (``web_slug``, kept with the settings, never typed by anyone); ``web=off`` forgets the slug.
"""
from __future__ import annotations

import secrets

from rules.api import IllegalAction
from bot import i18n
from bot.i18n import N_, _
from bot.service.clocks import PRESETS, describe, parse_clock

DEFAULT_SETTINGS: dict = {
    "turn_timer": 3600,      # seconds a person has for a turn; 0 = no timer
    "min_games": 3,          # games before someone appears on the leaderboard
    "lobby_timeout": 86400,  # seconds a table may stay open without anyone joining, leaving or starting it
    "language": "en",
    "pictures": "on",        # on: boards and hands as pictures with the text as caption; off: text only
    "ai_time": 1.0,          # seconds a strong AI thinks per decision (also a /hint)
    "hints": "on",           # on: players may ask /hint (the game is then unrated); off: refused
    "web": "off",            # on: the league's pages are public under a random address (/web gives it)
    "undo": "free",          # free: /undo takes back what told nobody anything, else asks; consent: always asks; off
    "reveal_after_end": "on",  # on: a finished game's record and replay show every hidden card; off: never
    "clock": "live",         # new games' time control: live (turn_timer), fast, normal, slow or a bank: 2d+12h
    "threads": "on",         # on: a game gets its own thread (Discord) or forum topic (Telegram) where permitted
}
PERSONAL = "mylanguage"  # the asker's own language, stored on their player row
MYWEB = "myweb"  # the asker's name on the web pages: hidden ("a player") or shown, stored on their player row
SLUG = "web_slug"  # the random part of the pages' address while web=on; set by the bot, not by a person

# whole-number settings: (smallest, largest, or 0 allowed as "off")
_BOUNDS = {"turn_timer": (30, 7 * 86400, True), "min_games": (0, 1000, False),
           "lobby_timeout": (600, 30 * 86400, False)}
_CHOICES = {"language": i18n.LANGUAGES, "pictures": ("on", "off"), "hints": ("on", "off"),
            "web": ("on", "off"), "undo": ("free", "consent", "off"), "reveal_after_end": ("on", "off"),
            "threads": ("on", "off"), PERSONAL: i18n.LANGUAGES, MYWEB: ("hidden", "shown")}
_SECONDS = {"ai_time": (0.1, 5.0)}  # settings in seconds with a fraction: (smallest, largest)
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_HELP = {
    "turn_timer": N_("time per turn (reminder at half time, then an AI plays): 30s to 7d, or 0 = off, "
                     "e.g. turn_timer=10m"),
    "min_games": N_("games needed to appear on the leaderboard (0–1000), e.g. min_games=5"),
    "lobby_timeout": N_("an unstarted table closes after this idle time (10m to 30d), e.g. lobby_timeout=1d"),
    "language": N_("language of the bot's messages in this chat (en, nl, de, fr)"),
    "pictures": N_("on = boards and hands drawn as pictures (text as caption); off = text only"),
    "ai_time": N_("seconds a strong AI thinks per move, and a /hint takes (0.1–5), e.g. ai_time=2"),
    "hints": N_("on = players may ask /hint (that game is then not rated); off = no hints"),
    "web": N_("on = the league's tables and games on the web, under a secret link (/web gives it); off = none"),
    "undo": N_("free = /undo takes a move back while it told nobody anything (else the others are asked); "
               "consent = the others are always asked; off = moves are final"),
    "reveal_after_end": N_("on = records and replays of a finished game show every hidden card; off = they stay "
                           "hidden"),
    "clock": N_("new games' time control: live = turn_timer per turn; fast, normal, slow, or a time bank per player "
                "plus an increment per move, e.g. clock=2d+12h (a game may choose its own: /new … clock=slow)"),
    "threads": N_("on = each game is played in its own thread (Discord) or topic (Telegram), where I may open one; "
                  "off = in the chat itself"),
}


def _number(key: str, value: str) -> int:
    unit = 1
    if key != "min_games" and value[-1:].lower() in _UNITS:
        unit, value = _UNITS[value[-1].lower()], value[:-1]
    low, high, off = _BOUNDS[key]
    if not (value.isascii() and value.isdigit()) or len(value) > 9:
        raise IllegalAction(_("{key} takes a whole number, e.g. {key}={example}.", key=key,
                              example="600" if key != "min_games" else "5"))
    number = int(value) * unit
    if number == 0 and off:
        return 0
    if not low <= number <= high:
        if off:
            raise IllegalAction(_("{key} must be between {low} and {high} (or 0 for off).", key=key, low=low,
                                  high=high))
        raise IllegalAction(_("{key} must be between {low} and {high}.", key=key, low=low, high=high))
    return number


def _seconds(key: str, value: str) -> float:
    low, high = _SECONDS[key]
    text = value[:-1] if value[-1:].lower() == "s" else value
    try:
        number = float(text) if len(text) <= 12 and text.isascii() else float("nan")
    except ValueError:
        number = float("nan")
    if not low <= number <= high:  # also NaN and infinities
        raise IllegalAction(_("{key} is a number of seconds from {low} to {high}, e.g. {key}=1.5.", key=key,
                              low=f"{low:g}", high=f"{high:g}"))
    return round(number, 2)


def parse_settings(text: str) -> dict:
    """``key=value`` tokens as a dict of changes (``mylanguage`` included); a refusal names what is wrong."""
    changes: dict = {}
    for token in text.split():
        key, sep, value = token.partition("=")
        key = key.strip().lower()
        if key == "timer":
            key = "turn_timer"
        if not sep or (key not in DEFAULT_SETTINGS and key not in (PERSONAL, MYWEB)):
            raise IllegalAction(_("Settings are written key=value; known: {keys}. Example: /settings "
                                  "turn_timer=10m", keys=", ".join([*DEFAULT_SETTINGS, PERSONAL, MYWEB])))
        if key in _BOUNDS:
            changes[key] = _number(key, value.strip())
        elif key in _SECONDS:
            changes[key] = _seconds(key, value.strip())
        elif key == "clock":
            control = parse_clock(value)
            changes[key] = value.strip().lower() if control is None or value.strip().lower() in PRESETS \
                else describe(control)
        else:
            value = value.lower()
            if value not in _CHOICES[key]:
                raise IllegalAction(_("{key} is one of: {choices}.", key=key, choices=", ".join(_CHOICES[key])))
            changes[key] = value
    return changes


def effective(stored: dict | None) -> dict:
    """The chat's settings: the defaults, overridden by what it stored (unknown old keys are ignored; the web
    slug is kept)."""
    return {**DEFAULT_SETTINGS, **{k: v for k, v in (stored or {}).items() if k in DEFAULT_SETTINGS or k == SLUG}}


def with_web_slug(settings: dict) -> dict:
    """The settings with a new random slug when the pages are on and have none, without one when they are off
    (turned on again, the pages get a new address: an old link stays dead)."""
    if settings.get("web") == "on":
        return settings if settings.get(SLUG) else {**settings, SLUG: secrets.token_urlsafe(18)}
    return {k: v for k, v in settings.items() if k != SLUG}


def web_link(base_url: str | None, settings: dict | None, path: str = "") -> str | None:
    """The address of the chat's pages (``path`` below them: ``/g/12``), or None when they are off. Without a
    configured WEB_BASE_URL the address starts at ``/c/``: the web process's own address is not known here."""
    if (settings or {}).get("web") != "on" or not (settings or {}).get(SLUG):
        return None
    return f"{(base_url or '').rstrip('/')}/c/{settings[SLUG]}{path}"


def describe_settings(settings: dict, mine: str | None = None) -> str:
    """The chat's settings, one line each, in the current language; ``mine``: the asker's own language too."""
    lines = [_("⚙ Settings of this chat (admins change them with /settings key=value):")]
    for key, default in DEFAULT_SETTINGS.items():
        lines.append(f"• {key} = {settings.get(key, default)} — {i18n.translate(_HELP[key])}")
    lines.append(describe_mine(mine))
    lines.append(_("• myweb — your name on the web pages: myweb=hidden shows you as “a player”, myweb=shown "
                   "as your name"))
    return "\n".join(lines)


def describe_mine(mine: str | None) -> str:
    if mine:
        return _("• mylanguage = {lang} — your own language (answers and private messages); change it with "
                 "/settings mylanguage=de", lang=mine)
    return _("• mylanguage — your own language for answers and private messages (en, nl, de, fr), e.g. "
             "/settings mylanguage=de; unset: your app's language")
