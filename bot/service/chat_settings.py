"""Per-chat settings: what exists, the defaults and bounds, and parsing ``/settings key=value``."""
from __future__ import annotations

from rules.api import IllegalAction

DEFAULT_SETTINGS: dict = {
    "turn_timer": 3600,      # seconds a person has for a turn; 0 = no timer
    "min_games": 3,          # games before someone appears on the leaderboard
    "lobby_timeout": 86400,  # seconds a table may stay open without anyone joining, leaving or starting it
    "language": "en",
    "pictures": "on",        # on: boards and hands as pictures with the text as caption; off: text only
    "ai_time": 1.0,          # seconds a strong AI thinks per decision (also a /hint)
    "hints": "on",           # on: players may ask /hint (the game is then unrated); off: refused
}

# whole-number settings: (smallest, largest, or 0 allowed as "off")
_BOUNDS = {"turn_timer": (30, 7 * 86400, True), "min_games": (0, 1000, False),
           "lobby_timeout": (600, 30 * 86400, False)}
_CHOICES = {"language": ("en",), "pictures": ("on", "off"), "hints": ("on", "off")}
_SECONDS = {"ai_time": (0.1, 5.0)}  # settings in seconds with a fraction: (smallest, largest)
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_HELP = {
    "turn_timer": "time per turn (reminder at half time, then an AI plays): 30s to 7d, or 0 = off, e.g. turn_timer=10m",
    "min_games": "games needed to appear on the leaderboard (0–1000), e.g. min_games=5",
    "lobby_timeout": "an unstarted table closes after this idle time (10m to 30d), e.g. lobby_timeout=1d",
    "language": "language of the bot's messages (en)",
    "pictures": "on = boards and hands drawn as pictures (text as caption); off = text only",
    "ai_time": "seconds a strong AI thinks per move, and a /hint takes (0.1–5), e.g. ai_time=2",
    "hints": "on = players may ask /hint (that game is then not rated); off = no hints",
}


def _number(key: str, value: str) -> int:
    unit = 1
    if key != "min_games" and value[-1:].lower() in _UNITS:
        unit, value = _UNITS[value[-1].lower()], value[:-1]
    low, high, off = _BOUNDS[key]
    if not (value.isascii() and value.isdigit()) or len(value) > 9:
        raise IllegalAction(f"{key} takes a whole number, e.g. {key}={'600' if key != 'min_games' else '5'}.")
    number = int(value) * unit
    if number == 0 and off:
        return 0
    if not low <= number <= high:
        raise IllegalAction(f"{key} must be between {low} and {high}" + (" (or 0 for off)" if off else "") + ".")
    return number


def _seconds(key: str, value: str) -> float:
    low, high = _SECONDS[key]
    text = value[:-1] if value[-1:].lower() == "s" else value
    try:
        number = float(text) if len(text) <= 12 and text.isascii() else float("nan")
    except ValueError:
        number = float("nan")
    if not low <= number <= high:  # also NaN and infinities
        raise IllegalAction(f"{key} is a number of seconds from {low:g} to {high:g}, e.g. {key}=1.5.")
    return round(number, 2)


def parse_settings(text: str) -> dict:
    changes: dict = {}
    for token in text.split():
        key, sep, value = token.partition("=")
        key = key.strip().lower()
        if key == "timer":
            key = "turn_timer"
        if not sep or key not in DEFAULT_SETTINGS:
            raise IllegalAction("Settings are written key=value; known: " + ", ".join(DEFAULT_SETTINGS) +
                                ". Example: /settings turn_timer=10m")
        if key in _BOUNDS:
            changes[key] = _number(key, value.strip())
        elif key in _SECONDS:
            changes[key] = _seconds(key, value.strip())
        else:
            value = value.lower()
            if value not in _CHOICES[key]:
                raise IllegalAction(f"{key} is one of: {', '.join(_CHOICES[key])}.")
            changes[key] = value
    return changes


def effective(stored: dict | None) -> dict:
    """The chat's settings: the defaults, overridden by what it stored (unknown old keys are ignored)."""
    return {**DEFAULT_SETTINGS, **{k: v for k, v in (stored or {}).items() if k in DEFAULT_SETTINGS}}


def describe_settings(settings: dict) -> str:
    lines = ["⚙ Settings of this chat (admins change them with /settings key=value):"]
    for key, default in DEFAULT_SETTINGS.items():
        lines.append(f"• {key} = {settings.get(key, default)} — {_HELP[key]}")
    return "\n".join(lines)
