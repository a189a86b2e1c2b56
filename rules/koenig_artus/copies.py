"""A König Artus state as JSON and back, its copies, and the worlds the AI samples: ``determinize`` re-deals the
unseen cards so that no player holds a colour he showed he lacks (``share``)."""
from __future__ import annotations

import random
from itertools import combinations
from typing import Callable

from rules.api import State
from rules.koenig_artus.cards import KNIGHT, SHIELD, card_of, name


def to_json(state: State) -> dict:
    """Everything, cards as their names: ``from_json`` reads it back."""
    return {
        "n": state.n, "seed": state.seed, "counter": state.counter, "track": state.track,
        "swords": list(state.swords), "pos": list(state.pos), "slots": list(state.slots), "dealer": state.dealer,
        "hand_no": state.hand_no, "hands": [[name(c) for c in h] for h in state.hands],
        "stack": [name(c) for c in state.stack], "discard": [name(c) for c in state.discard],
        "trick": [[s, name(c)] for s, c in state.trick], "current": state.current,
        "phase": state.phase, "decider": state.decider, "can_defer": state.can_defer, "deferred": state.deferred,
        "winner": state.winner, "voids": [list(v) for v in state.voids], "last_trick": state.last_trick,
        "reshuffles": state.reshuffles, "old": [name(c) for c in sorted(state.old)],
        "hand_ends": [list(r) for r in state.hand_ends],
    }


def from_json(make: Callable[..., State], data: dict) -> State:
    """The state ``to_json`` wrote, built by ``make(players, seed, track, swords)`` (the state class)."""
    s = make(data["n"], data["seed"], data["track"], data["swords"])
    s.counter, s.pos, s.slots = data["counter"], list(data["pos"]), list(data["slots"])
    s.dealer, s.hand_no = data["dealer"], data["hand_no"]
    s.hands = [[card_of(c) for c in h] for h in data["hands"]]
    s.stack = [card_of(c) for c in data["stack"]]
    s.discard = [card_of(c) for c in data["discard"]]
    s.trick = [[p, card_of(c)] for p, c in data["trick"]]
    s.current, s.phase = data["current"], data["phase"]
    s.decider, s.can_defer, s.deferred = data["decider"], data["can_defer"], data["deferred"]
    s.winner, s.voids = data["winner"], [list(v) for v in data["voids"]]
    s.last_trick, s.reshuffles = data["last_trick"], data["reshuffles"]
    s.old = frozenset(card_of(c) for c in data.get("old", ()))
    s.hand_ends = [list(r) for r in data.get("hand_ends", ())]
    return s


def clone(state: State, deal: bool = True) -> State:
    """A copy; ``deal=False`` leaves the hands and the stack shared, for ``determinize`` to replace."""
    s = object.__new__(type(state))
    s.__dict__.update(state.__dict__)
    s.pos = state.pos[:]
    s.slots = state.slots[:]
    s.hands = [h[:] for h in state.hands] if deal else state.hands[:]
    s.stack = state.stack[:] if deal else state.stack
    s.discard = state.discard[:]
    s.trick = [t[:] for t in state.trick]
    s.voids = [v[:] for v in state.voids]
    return s


def determinize(state: State, seat: int | None, rng: random.Random) -> State:
    """Re-deal the unseen cards (others' hands and the stack), keeping what ``seat`` knows: each player's shown
    voids, and after a reshuffle that the old stack cards went to the hands first (so many to each)."""
    world = clone(state, deal=False)
    world.seed = rng.getrandbits(48)
    world.counter = 0
    others = [p for p in range(state.n) if p != seat]
    draw = rng.random
    old = state.old
    pool = list(state.stack)
    needs = {}
    old_pool: list[int] = []
    old_needs = {}
    for p in others:
        hand = state.hands[p]
        mine = [c for c in hand if c in old] if old else ()
        if mine:
            old_pool += mine
            old_needs[p] = len(mine)
            pool += [c for c in hand if c not in old]
        else:
            pool += hand
        needs[p] = len(hand) - len(mine)
    pool.sort()  # sorted: where the unseen cards really lie changes nothing
    hands, world.stack = share(pool, needs, state.voids, draw)
    if old_pool:
        extra, _ = share(sorted(old_pool), old_needs, state.voids, draw)
        for p, cards in extra.items():
            hands[p] += cards
    for p in others:
        world.hands[p] = sorted(hands[p])
    if seat is not None:
        world.hands[seat] = state.hands[seat][:]
    return world


_ALLOWED: dict[int, list[bool]] = {}


def allowed(void: list[int]) -> list[bool]:
    """By card: may a player who showed these voids hold it? (remembered per set of voids)"""
    mask = 0
    for v in void:
        mask |= 1 << v
    table = _ALLOWED.get(mask)
    if table is None:
        table = _ALLOWED[mask] = [c >= KNIGHT or not mask >> (c >> 4) & 1 for c in range(SHIELD + 4)]
    return table


def share(cards: list[int], needs: dict[int, int], voids: list[list[int]], draw, tries: int = 20):
    """Deal ``needs[p]`` of ``cards`` at random to each player p, none of a colour p showed he lacks; returns the
    hands and the rest. A greedy deal (the most constrained player first) almost always fits; if it fails ``tries``
    times, a card-by-card deal that keeps the remaining needs satisfiable (Hall's condition) always does."""
    cards = sorted(cards, key=lambda _: draw())
    bound = sorted((p for p in needs if needs[p] and voids[p]), key=lambda q: -len(voids[q]))
    free = [p for p in needs if p not in bound]
    rules = [(p, needs[p], allowed(voids[p])) for p in bound]
    for attempt in range(tries):
        if attempt:
            cards.sort(key=lambda _: draw())
        left, hands = cards, {}
        for p, k, ok in rules:  # the first k cards he may hold, in the shuffled order
            chosen, cut = [], 0
            for c in left:
                cut += 1
                if ok[c]:
                    chosen.append(c)
                    if len(chosen) == k:
                        break
            if len(chosen) < k:
                break
            hands[p] = chosen
            left = [c for c in left[:cut] if not ok[c]] + left[cut:] if cut > k else left[cut:]
        else:
            at = 0
            for p in free:
                hands[p] = left[at:at + needs[p]]
                at += needs[p]
            return hands, left[at:]
    players = sorted((p for p in needs if needs[p]), key=lambda q: -len(voids[q]))
    return _share_exactly(cards, needs, players, voids, draw)


def _share_exactly(cards, needs, players, voids, draw):
    """Card by card: a random allowed card, kept only if every group of players can still fill its needs."""
    kinds: list[list[int]] = [[] for _ in range(7)]  # six colours, then the supertrumps
    for c in cards:
        kinds[6 if c >= KNIGHT else c >> 4].append(c)
    masks = {p: 127 & ~sum(1 << v for v in voids[p]) for p in players}
    groups = []
    for size in range(1, len(players) + 1):
        for group in combinations(players, size):
            mask = 0
            for p in group:
                mask |= masks[p]
            groups.append((group, mask))
    need = {p: needs[p] for p in players}

    def fits() -> bool:
        return all(sum(need[p] for p in group) <= sum(len(kinds[k]) for k in range(7) if mask >> k & 1)
                   for group, mask in groups)

    hands = {p: [] for p in needs}
    for p in players:
        while need[p]:
            open_kinds = [k for k in range(7) if masks[p] >> k & 1 and kinds[k]]
            while True:
                if not open_kinds:  # only if the voids contradict the real hands
                    raise ValueError("the shown voids leave no deal")
                r = int(draw() * sum(len(kinds[k]) for k in open_kinds))
                for k in open_kinds:
                    if r < len(kinds[k]):
                        break
                    r -= len(kinds[k])
                card = kinds[k].pop(r)
                need[p] -= 1
                if fits():
                    hands[p].append(card)
                    break
                kinds[k].insert(r, card)
                need[p] += 1
                open_kinds.remove(k)
    rest = [c for kind in kinds for c in kind]
    rest.sort(key=lambda _: draw())
    return hands, rest
