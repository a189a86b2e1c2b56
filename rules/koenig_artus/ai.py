"""König Artus's estimate for the strong AI's search: each seat's chance to reach King Arthur first.

The search cuts its rollouts short (a few actions per opponent) and, without this hook, scores the cut by how
each seat's ``evaluate`` (10 per field of lead on the best other pawn, plus the hand's strength) gained since the
sampled world began. At four players that reads the race badly: a trick won by the third pawn and one won by the
last change nobody's lead on the best other, and one more field is worth far more near King Arthur than at the
start. ``win_chances`` reads the race itself: each pawn's tricks still needed (fields to go, less the pawns it
will jump), less the tricks its hand may still take this hand, turned into chances by a softmax whose temperature
grows as the square root of the distance left (a race of random tricks spreads like a random walk).

Only read in worlds the search sampled (``ai_rewards``): it may use every hand there. The greedy AI never reads it,
so the bench's greedy opponents play as before. Used from three players (``ArtusState.ai_rewards``).

bench/strength.py, 4 players, 40 iterations a decision, strong against greedy, first place (200 games each unless
said; ``--first`` picks the seed set):

    seeds        without   with this hook
    0-199          53.2 %   58.5 %        (without: 94 games, h-ai3)
    1000-1199      49.5 %   59.0 %
    2000-2199      53.5 %   52.0 %
    3000-3199      52.5 %   54.0 %
    4000-4199      48.5 %   53.0 %
    pooled         51.2 %   55.3 % ±3.1   (894 and 1000 games; ±3.3 without)

Tried and left out (games 1000-1199 unless said): the exact race of random tricks (dynamic programming over the
tricks still needed) 57.5 %; independent binomial races 55.0 %; the hand's tricks not counted 59.0 %; cut rollouts
of 3 actions 52.0 %, of 12 50.0 %; the search's confidence 0.5 55.5-59.0 %, 0 58.5 %; progressive widening below
the root with the greedy pick first (2000-2199 and 3000-3199: 52.5-57.5 %). At 200 iterations (still a fraction of
the chat's 1 s): 56 % without, 60 % with the hook (100 games, seeds 2000-2099).
"""
from __future__ import annotations

import math

from rules.koenig_artus.state import weights

HAND_WEIGHT = 1.0  # the share of the hand's expected tricks counted as fields already made
TEMPERATURE = 1.0  # the softmax's temperature per square root of the mean tricks still needed


def needs(pos: list[int], track: int) -> list[int]:
    """Tricks each pawn still needs if nobody else moved: fields to go, less the pawns it would jump."""
    return [max(1, track - p - sum(1 for q in pos if p < q < track)) for p in pos]


def expected_tricks(hands: list[list[int]], slots: list[int]) -> list[float]:
    """The tricks each seat may expect from the rest of this hand: the tricks left, shared by the hands' strength
    (each card's ``evaluate`` weight squared, so that supertrumps and high trumps count far more than small cards,
    as they do in a trick)."""
    table = weights(slots)
    left = max(len(h) for h in hands)
    strength = [sum(table[c] ** 2 for c in h) for h in hands]
    total = sum(strength)
    return [left * s / total if total else 0.0 for s in strength]


def win_chances(state) -> list[float]:
    """Each seat's chance to come first from ``state`` (a sampled world: every hand is read), summing to 1."""
    if state.winner is not None:
        return [1.0 if s == state.winner else 0.0 for s in range(state.n)]
    extra = expected_tricks(state.hands, state.slots)
    left = [max(0.5, k - HAND_WEIGHT * e) for k, e in zip(needs(state.pos, state.track), extra)]
    spread = TEMPERATURE * max(1.0, math.sqrt(sum(left) / len(left)))
    best = min(left)
    odds = [math.exp((best - x) / spread) for x in left]
    total = sum(odds)
    return [x / total for x in odds]
