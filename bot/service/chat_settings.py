"""Per-chat settings: what exists, the defaults, and parsing ``/settings key=value``."""
from __future__ import annotations

from rules.api import IllegalAction

DEFAULT_SETTINGS: dict = {
    "turn_timer": 3600,   # seconds a person has for a turn; 0 = no timer
    "min_games": 3,       # games before someone appears on the leaderboard
    "language": "en",
    "hands": "dm",        # dm: private views by direct message; channel: only on request (/hand, ephemeral)
    "pictures": "on",     # on: boards and hands as pictures with the text as caption; off: text only
}

_CHOICES = {"language": ("en",), "hands": ("dm", "channel"), "pictures": ("on", "off")}
_HELP = {
    "turn_timer": "seconds per turn (reminder at half time, then an AI plays); 0 = off, e.g. turn_timer=600",
    "min_games": "games needed to appear on the leaderboard, e.g. min_games=5",
    "language": "language of the bot's messages (en)",
    "hands": "dm = hands by direct message; channel = only on request with /hand",
    "pictures": "on = boards and hands drawn as pictures (text as caption); off = text only",
}


def parse_settings(text: str) -> dict:
    changes: dict = {}
    for token in text.split():
        key, sep, value = token.partition("=")
        key = key.strip().lower()
        if not sep or key not in DEFAULT_SETTINGS:
            raise IllegalAction("Settings are written key=value; known: " + ", ".join(DEFAULT_SETTINGS) +
                                ". Example: /settings turn_timer=600")
        if isinstance(DEFAULT_SETTINGS[key], int):
            if key == "turn_timer" and value[-1:] in ("m", "h") and value[:-1].isdigit():
                value = str(int(value[:-1]) * (60 if value[-1] == "m" else 3600))
            if not value.isdigit():
                raise IllegalAction(f"{key} takes a whole number ≥ 0, e.g. {key}=600.")
            changes[key] = int(value)
        else:
            value = value.lower()
            if value not in _CHOICES[key]:
                raise IllegalAction(f"{key} is one of: {', '.join(_CHOICES[key])}.")
            changes[key] = value
    return changes


def describe_settings(settings: dict) -> str:
    lines = ["⚙ Settings of this chat (admins change them with /settings key=value):"]
    for key, default in DEFAULT_SETTINGS.items():
        lines.append(f"• {key} = {settings.get(key, default)} — {_HELP[key]}")
    return "\n".join(lines)
