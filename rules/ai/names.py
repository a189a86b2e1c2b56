"""Display names for AI seats: they say the level, and several AI seats of one level get different names."""
from __future__ import annotations

from rules.lang import N_, _

# said in the language the names are built in (each language keeps the level in the name)
NAMES = {
    "random": [N_("Jester Random"), N_("Fool Fortune"), N_("Juggler Chance"), N_("Minstrel Whim"), N_("Page Dice"),
               N_("Squire Luck")],
    "greedy": [N_("Sir Greedy"), N_("Lady Grasp"), N_("Baron Hoard"), N_("Dame Thrift"), N_("Lord Grab"),
               N_("Count Coin")],
    "strong": [N_("Strong Merlin"), N_("Strong Morgana"), N_("Strong Gawain"), N_("Strong Eleanor"),
               N_("Strong Roland"), N_("Strong Isolde")],
}
ROBOT = "🤖 "


def ai_name(level: str, seat_index: int) -> str:
    """The name of the ``seat_index``-th AI seat of ``level`` in a game (0-based): distinct for each index."""
    names = NAMES.get(level) or [f"{level.capitalize()} Bot"]
    name = _(names[seat_index % len(names)])
    lap = seat_index // len(names)
    return ROBOT + (name if lap == 0 else f"{name} {lap + 1}")
