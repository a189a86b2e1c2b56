"""What narration reads and writes: logged events in the forms callers hold them, and ``Line``, one line told
with the events it tells."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from rules.api import Event, Game


@dataclass
class Line:
    """One line of narration: its text (names filled in) and the indexes, in the input, of the events it tells."""

    text: str
    events: list[int] = field(default_factory=list)
    seq: int | None = None  # the move of its first event, when known


def _entries(events: Iterable[Any]) -> list[tuple[int | None, Event]]:
    """``Event``, ``(seq, Event)``, a dict ``{"seq", "kind", ...}``/``Event.to_json()`` or an object with ``seq`` and
    ``event`` → ``(seq, Event)``."""
    out: list[tuple[int | None, Event]] = []
    for item in events:
        if isinstance(item, Event):
            out.append((None, item))
        elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], Event):
            out.append((item[0], item[1]))
        elif isinstance(item, dict):
            out.append((item.get("seq"), Event.from_json(item)))
        elif hasattr(item, "event"):
            out.append((getattr(item, "seq", None), item.event))
        else:
            raise TypeError(f"not an event: {item!r}")
    return out


def _describe(game: Game, event: Event) -> str | None:
    return game.describe_event(event) or None
