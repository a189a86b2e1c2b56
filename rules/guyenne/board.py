"""The table's fixed shape and what a pattern of castles scores: the numbers the rules fix, each army's line of
castles and its castle score (5.2), and a fight's two sides. Plain functions that the rules, the views and the AI
all share (so none of those modules imports another); the scores are remembered per control pattern because the AI
asks for them at every position it weighs."""
from __future__ import annotations

from functools import lru_cache

CASTLES = 6
MAX_AT_CASTLE = 5
HAND = 6
LEVELS = ("basic", "advanced", "expert")
PLACING = ("open1", "respond1", "open2", "respond2")


def group_points(mine: list[bool]) -> int:
    """1 per isolated castle, 2 per castle in a run of two or more adjacent ones (5.2)."""
    points, run = 0, 0
    for held in mine + [False]:
        if held:
            run += 1
        else:
            points += run if run == 1 else 2 * run
            run = 0
    return points


def rival(fight: dict, a: int) -> int:
    """The other army of ``fight``'s pair."""
    first, second = fight["pair"]
    return second if a == first else first


@lru_cache(maxsize=None)
def lines(two_sets: bool, armies: int) -> tuple[tuple[int, ...], ...]:
    """Each army's scoring line of castles (see ``GuyenneState.line``), worked out once per table shape."""
    if not two_sets:
        return tuple(tuple(range(1, CASTLES + 1)) for _ in range(armies))
    out = []
    for a in range(armies):
        left, right = (a - 1) % armies, a
        out.append((3 * left + 3, 3 * left + 2, 3 * left + 1, 3 * right + 1, 3 * right + 2, 3 * right + 3))
    return tuple(out)


@lru_cache(maxsize=100000)
def castle_points(two_sets: bool, armies: int, castles: tuple) -> tuple[int, ...]:
    """Every army's castle score (5.2 on its line) for one control pattern, remembered: it changes rarely."""
    return tuple(group_points([castles[k - 1] == a for k in line]) for a, line in enumerate(lines(two_sets, armies)))


@lru_cache(maxsize=100000)
def castle_leads(two_sets: bool, armies: int, castles: tuple) -> tuple[float, ...]:
    """Every army's castle score ahead of its best opponent, remembered like ``castle_points``."""
    points = castle_points(two_sets, armies, castles)
    return tuple(float(p - max(q for o, q in enumerate(points) if o != a)) for a, p in enumerate(points))
