"""The final result: places, scores in the game's unit, shared places and the game's tie rule."""
from __future__ import annotations

from typing import Iterable, Sequence

from bot.i18n import _, ngettext
from rules.api import Game


def _plural(n: float, word: str) -> str:
    """``27 points`` in the unit the game counts (its ``score_unit``); a fraction takes the plural form."""
    shown, k = f"{n:g}", int(n) if n == int(n) else 2
    if word == "point":
        return ngettext("{score} point", "{score} points", k, score=shown)
    if word == "field":
        return ngettext("{score} field", "{score} fields", k, score=shown)
    if word == "castle card":
        return ngettext("{score} castle card", "{score} castle cards", k, score=shown)
    return f"{shown} {word}" + ("" if n == 1 else "s")


def final_result_lines(game: Game, scores: Sequence[float], ranking: Sequence[int], names: Sequence[str],
                       viewer: int | None = None, resigned: Iterable[int] = ()) -> list[str]:
    """``1. You — 27 points / 2. AI 2 — 26 points / 2. AI 3 — 19 points``, sorted by place (then score), equal
    places marked "shared", and the game's tie rule stated when a place is shared or scores are equal."""
    resigned = set(resigned)
    word = game.score_unit()
    order = sorted(range(len(names)), key=lambda s: (ranking[s], -scores[s], s))
    lines = []
    for s in order:
        name = _("You") if s == viewer else names[s]
        shared = sum(1 for r in ranking if r == ranking[s]) > 1
        lines.append(f"{ranking[s]}. {name} — {_plural(scores[s], word)}" + (" " + _("(shared)") if shared else "") +
                     (" " + _("(resigned)") if s in resigned else ""))
    ties = len(set(ranking)) < len(ranking) or len(set(scores)) < len(scores)
    rule = game.tie_rule() if ties else None
    if rule:
        lines.append(_("Tie rule: {rule}", rule=rule))
    return lines
