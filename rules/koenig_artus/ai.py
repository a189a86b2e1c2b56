"""The AI's view of König Artus Tafelrunde. The greedy AI's ``evaluate`` is the lead on the track (10 a field)
plus the hand's strength under the trump order (``weights``), and ``evaluate_actions`` forecasts it after each
action without playing it; the strong AI's search reads ``win_chances``: each seat's chance to reach King Arthur
first.

The search cuts its rollouts short (a few actions per opponent) and, without ``win_chances``, scores the cut by how
each seat's ``evaluate`` (10 per field of lead on the best other pawn, plus the hand's strength) gained since the
sampled world began. At four players that reads the race badly: a trick won by the third pawn and one won by the
last change nobody's lead on the best other, and one more field is worth far more near King Arthur than at the
start. ``win_chances`` reads the race itself: each pawn's tricks still needed (fields to go, less the pawns it
will jump), less the tricks its hand may still take this hand, turned into chances by a softmax whose temperature
grows as the square root of the distance left (a race of random tricks spreads like a random walk).

Only read in worlds the search sampled (``ai_rewards``, from three players): it may use every hand there. The greedy
AI never reads it, so the bench's greedy opponents play as before.

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

from rules.api import State
from rules.koenig_artus.cards import COLOURS, KNIGHT, SHIELD, card_of, full_deck, trick_winner

HAND_WEIGHT = 1.0  # the share of the hand's expected tricks counted as fields already made
TEMPERATURE = 1.0  # the softmax's temperature per square root of the mean tricks still needed


_WEIGHTS: dict[tuple[int, ...], list[float]] = {}


def weights(slots: list[int]) -> list[float]:
    """By card, its strength for ``evaluate``: a supertrump 2, a trump 1 + slot/6, another card value/22
    (remembered per trump order)."""
    key = tuple(slots)
    table = _WEIGHTS.get(key)
    if table is None:
        rank = {c: k + 1 for k, c in enumerate(slots)}
        table = [0.0] * (SHIELD + 4)
        for c in full_deck():
            table[c] = 2.0 if c >= KNIGHT else 1.0 + rank[c >> 4] / 6 if c >> 4 in rank else (c & 15) / 22
        table = _WEIGHTS.setdefault(key, table)
    return table


def lead(seat: int, pos: list[int]) -> int:
    """Fields ahead of the best other pawn (negative when behind)."""
    return pos[seat] - max(pos[:seat] + pos[seat + 1:])


def worth(ahead: int, table: list[float], hand: list[int]) -> float:
    """``evaluate`` before the end: 10 per field of lead plus the hand's strength."""
    strength = 0.0
    for c in hand:
        strength += table[c]
    return 10.0 * ahead + strength


def ai_rewards(state: State) -> list[float] | None:
    """From three players: each seat's chance to reach King Arthur first, for the strong AI's cut rollouts
    (``win_chances``). Between two, a trick won is a field of lead on the only rival, which ``evaluate``
    already reads (the search's default cut met its target there)."""
    if state.n < 3:
        return None
    return win_chances(state)


def evaluate(state: State, seat: int) -> float:
    """Lead on the track, plus the strength of the hand under the current trump order."""
    if state.winner is not None:
        return 1000.0 if state.winner == seat else -1000.0
    return worth(lead(seat, state.pos), weights(state.slots), state.hands[seat])


def evaluate_actions(state: State, seat: int, actions: list[dict]) -> list[float | None]:
    """``evaluate`` after each action without applying it; None where a new hand would be dealt."""
    if seat not in state.to_act():
        return [None] * len(actions)
    pos, slots, hand = state.pos, state.slots, state.hands[seat]
    others_empty = not any(h for p, h in enumerate(state.hands) if p != seat)
    values: list[float | None] = []
    if state.phase == "trump":
        for action in actions:
            kind = action["type"]
            if kind == "defer_trump_decision" or not any(state.hands):  # the next hand is dealt at once
                values.append(None)
                continue
            if kind == "choose_trump":
                after = slots + [COLOURS.index(action["color"])]
            else:
                a, b = action["slots"]
                after = slots[:]
                after[a - 1], after[b - 1] = after[b - 1], after[a - 1]
            values.append(worth(lead(seat, pos), weights(after), hand))
        return values
    completes = len(state.trick) == state.n - 1
    ahead, table = lead(seat, pos), weights(slots)
    for action in actions:
        c = card_of(action["card"])
        rest = [x for x in hand if x != c]
        if not completes:
            values.append(worth(ahead, table, rest))
            continue
        trick = state.trick + [[seat, c]]
        w = trick[trick_winner(trick, slots)][0]
        after = pos[:]
        q = after[w] + 1
        while q < state.track and q in after:  # _advance: a pawn never stands on its own next field
            q += 1
        after[w] = q
        if q >= state.track:
            values.append(1000.0 if w == seat else -1000.0)
        elif q not in state.swords and not rest and others_empty:
            values.append(None)
        else:
            values.append(worth(lead(seat, after), table, rest))
    return values


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
