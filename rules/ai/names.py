"""Display names for AI seats: they say the level, and several AI seats of one level get different names."""
from __future__ import annotations

NAMES = {
    "random": ["Jester Random", "Fool Fortune", "Juggler Chance", "Minstrel Whim", "Page Dice", "Squire Luck"],
    "greedy": ["Sir Greedy", "Lady Grasp", "Baron Hoard", "Dame Thrift", "Lord Grab", "Count Coin"],
    "strong": ["Strong Merlin", "Strong Morgana", "Strong Gawain", "Strong Eleanor", "Strong Roland",
               "Strong Isolde"],
}
ROBOT = "🤖 "


def ai_name(level: str, seat_index: int) -> str:
    """The name of the ``seat_index``-th AI seat of ``level`` in a game (0-based): distinct for each index."""
    names = NAMES.get(level) or [f"{level.capitalize()} Bot"]
    name = names[seat_index % len(names)]
    lap = seat_index // len(names)
    return ROBOT + (name if lap == 0 else f"{name} {lap + 1}")
