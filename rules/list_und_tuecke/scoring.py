"""How a round of Mit List und Tücke scores a player's piles (rules 5.1), and which two colours a hiding due in the
last trick turns face down (A13): read by the rules, the AI's forecasts and loading alike."""
from __future__ import annotations


def round_score(counts: list[int], hidden: list[int] | None) -> int:
    """Rules 5.1: the two largest open piles multiplied, divided (rounded down) by all other cards."""
    total = counts[0] + counts[1] + counts[2] + counts[3]
    if (counts[0] > 0) + (counts[1] > 0) + (counts[2] > 0) + (counts[3] > 0) <= 1:
        return 0
    open_sizes = [n for c, n in enumerate(counts) if n and not (hidden and c in hidden)]
    if len(open_sizes) < 2:  # cannot happen (rules A21); scored as no product
        return 0
    open_sizes.sort(reverse=True)
    a, b = open_sizes[0], open_sizes[1]
    rest = total - a - b
    return a * b if rest == 0 else (a * b) // rest


def best_hide(counts: list[int]) -> list[int]:
    """The two colours to hide that keep the two largest piles open (rules A13); ties by colour order."""
    keep = sorted(range(4), key=lambda c: (-counts[c], c))[:2]
    return sorted(c for c in range(4) if c not in keep)
