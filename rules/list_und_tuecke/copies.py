"""A Mit List und Tücke state as JSON and back, its copies, and the worlds the AI samples (``determinize``)."""
from __future__ import annotations

import random
from math import comb
from typing import Callable

from rules.api import State
from rules.list_und_tuecke.cards import name, parse_card
from rules.list_und_tuecke.scoring import round_score


def to_json(state: State) -> dict:
    """Everything, cards as their names: ``from_json`` reads it back."""
    return {
        "n": state.n, "seed": state.seed, "counter": state.counter, "round_no": state.round_no,
        "dealer": state.dealer, "totals": list(state.totals), "round_scores": [list(r) for r in state.round_scores],
        "hands": [[name(c) for c in h] for h in state.hands],
        "piles": [[[name(c) for c in pile] for pile in p] for p in state.piles],
        "hidden": [list(h) if h is not None else None for h in state.hidden],
        "trick": [[s, name(c)] for s, c in state.trick], "trick_no": state.trick_no, "leader": state.leader,
        "phase": state.phase, "high": state.high, "low": state.low, "hider": state.hider,
        "after_hide": state.after_hide,
        "picked": [name(c) for c in state.picked], "out_of_round": [name(c) for c in state.out_of_round],
        "last_trick": state.last_trick, "aborted_by": state.aborted_by,
    }


def from_json(make: Callable[[int, int], State], data: dict) -> State:
    """The state ``to_json`` wrote, built by ``make(players, seed)`` (the state class)."""
    s = make(data["n"], data["seed"])
    card_of = parse_card
    s.counter, s.round_no, s.dealer = data["counter"], data["round_no"], data["dealer"]
    s.totals, s.round_scores = list(data["totals"]), [list(r) for r in data["round_scores"]]
    s.hands = [[card_of(c) for c in h] for h in data["hands"]]
    s.piles = [[[card_of(c) for c in pile] for pile in p] for p in data["piles"]]
    s.hidden = [list(h) if h is not None else None for h in data["hidden"]]
    s.points = [round_score([len(x) for x in s.piles[p]], s.hidden[p]) for p in range(s.n)]
    s.trick = [[seat, card_of(c)] for seat, c in data["trick"]]
    s.trick_no, s.leader, s.phase = data["trick_no"], data["leader"], data["phase"]
    s.high, s.low, s.hider, s.after_hide = data["high"], data["low"], data["hider"], data["after_hide"]
    s.picked = [card_of(c) for c in data["picked"]]
    s.out_of_round = [card_of(c) for c in data["out_of_round"]]
    s.last_trick, s.aborted_by = data["last_trick"], data["aborted_by"]
    return s


def clone(state: State) -> State:
    """A shallow copy: the engine never changes a list in place (hands, piles, trick entries, hidden colours,
    scores are replaced), so only the per-seat lists that get new items need copies of their own."""
    s = object.__new__(type(state))
    s.__dict__.update(state.__dict__)
    s.hands = state.hands[:]
    s.piles = [p[:] for p in state.piles]
    s.hidden = state.hidden[:]
    s.points = state.points[:]
    s.trick = state.trick[:]
    return s


def determinize(state: State, seat: int | None, rng: random.Random) -> State:
    """Re-deal the hands ``seat`` cannot see (same sizes) and re-draw the future shuffles.

    Piles, the trick and removed cards came from open tricks, so they stay. No play reveals a void
    (there is no duty to follow), but the round going on does: a player to act facing three colours
    holds one of them (rules 4.7), so his hand is drawn under that condition.
    """
    world = state.clone()
    world.seed = rng.getrandbits(48)
    world.counter = 0
    others = [p for p in range(state.n) if p != seat]
    pool = sorted(c for p in others for c in state.hands[p])  # sorted: who really holds what changes nothing
    draw = rng.random
    pool.sort(key=lambda _: draw())  # a uniform shuffle, cheaper than Random.shuffle
    at = 0
    for p in others:
        size = len(state.hands[p])
        world.hands[p] = sorted(pool[at:at + size])
        at += size
    if state.phase == "play" and state.trick:
        actor = state.next_to_play()
        colours = state.trick_colours()
        if actor != seat and len(colours) == 3 and not any(c >> 5 in colours for c in world.hands[actor]):
            _redeal_follower(state, world, others, actor, colours, rng)
    return world


def _redeal_follower(state: State, world: State, others: list[int], actor: int, colours: set[int],
                     rng: random.Random) -> None:
    """Re-deal so that ``actor`` holds a card of ``colours``: his hand uniform among such hands, the rest
    uniform. Used only when the plain deal failed, so the two together stay uniform over consistent deals."""
    pool = sorted(c for p in others for c in state.hands[p])
    fits = [c for c in pool if c >> 5 in colours]
    misfits = [c for c in pool if c >> 5 not in colours]
    size = len(state.hands[actor])
    weights = [comb(len(fits), j) * comb(len(misfits), size - j) for j in range(1, size + 1)]
    j = rng.choices(range(1, size + 1), weights)[0]  # how many fitting cards, hypergeometric given >= 1
    rng.shuffle(fits)
    rng.shuffle(misfits)
    world.hands[actor] = sorted(fits[:j] + misfits[:size - j])
    rest = fits[j:] + misfits[size - j:]
    rng.shuffle(rest)
    at = 0
    for p in others:
        if p != actor:
            size = len(state.hands[p])
            world.hands[p] = sorted(rest[at:at + size])
            at += size
