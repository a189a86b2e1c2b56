"""Copies of a Troubadour state: ``to_json`` / ``from_json`` (a saved game; piles as card codes, ``9S* 8H``, so a
stored game reads like the table), ``clone`` (the AI copies a state millions of times: only the mutable lists are
copied) and ``determinize`` (a copy in which what a seat cannot know is dealt anew, for the AI's search).

Plain functions of the state (``rules.troubadour.state.TroubadourState``, whose fields are described there)."""
from __future__ import annotations

import random

from rules.api import State
from rules.troubadour.cards import FD, NAMES
from rules.troubadour.evaluation import compute_progress


CODES = NAMES + [""] * (FD - 40) + [n + "*" for n in NAMES]  # a card in to_json (``*``: face down)
CODE_INDEX = {c: x for x, c in enumerate(CODES) if c}


def pile_text(pile: list[int]) -> str:
    return " ".join([CODES[x] for x in pile])


def pile_of(text: str) -> list[int]:
    return [CODE_INDEX[t] for t in text.split()]


def to_json(state) -> dict:
    """Piles as strings of card codes bottom→top (``9S* 8H``: ``*`` face down)."""
    return {
        "n": state.n, "seed": state.seed, "counter": state.counter, "tiebreak": state.tiebreak,
        "max_rounds": state.max_rounds, "round": state.round_no, "phase": state.phase,
        "stock": [pile_text(s) for s in state.stock], "waste": [pile_text(w) for w in state.waste],
        "villages": [[pile_text(v) for v in vs] for vs in state.villages],
        "castles": [list(c) for c in state.castles],
        "seen": list(state.seen), "cuts": [list(c) for c in state.cuts],
        "trios": list(state.trios), "last_trios": list(state.last_trios),
        "groups": [list(g) for g in state.groups],
        "rps": [{"seats": list(g["seats"]), "picks": list(g["picks"]), "games": g["games"]} for g in state.rps],
        "tiebreak_log": [dict(e) for e in state.tiebreak_log],
        "order": list(state.order), "turn_idx": state.turn_idx, "flip_slot": state.flip_slot,
        "extra_left": state.extra_left, "used": state.used,
        "pending_ace": list(state.pending_ace) if state.pending_ace is not None else None,
        "turn_actions": state.turn_actions, "round_actions": state.round_actions,
        "flips": list(state.flips), "ended": list(state.ended),
        "winner": state.winner, "draw": state.draw, "back": state.back,
    }


def from_json(make, data: dict) -> State:
    """The state ``to_json`` wrote, built by ``make(n, seed, tiebreak, max_rounds)`` (the state class)."""
    s = make(data["n"], data["seed"], data["tiebreak"], data["max_rounds"])
    s.counter, s.round_no, s.phase = data["counter"], data["round"], data["phase"]
    s.stock = [pile_of(x) for x in data["stock"]]
    s.waste = [pile_of(x) for x in data["waste"]]
    s.villages = [[pile_of(v) for v in vs] for vs in data["villages"]]
    s.castles = [list(c) for c in data["castles"]]
    s.seen = list(data.get("seen", s.seen))  # (games saved before these were kept: nothing known in a stock)
    s.cuts = [list(c) for c in data.get("cuts", s.cuts)]
    s.trios, s.last_trios = list(data["trios"]), list(data["last_trios"])
    s.groups = [list(g) for g in data["groups"]]
    s.rps = [{"seats": list(g["seats"]), "picks": list(g["picks"]), "games": g["games"]} for g in data["rps"]]
    s.tiebreak_log = [dict(e) for e in data["tiebreak_log"]]
    s.order, s.turn_idx = list(data["order"]), data["turn_idx"]
    s.flip_slot, s.extra_left, s.used = data["flip_slot"], data["extra_left"], data["used"]
    s.pending_ace = list(data["pending_ace"]) if data["pending_ace"] is not None else None
    s.turn_actions, s.round_actions = data["turn_actions"], data["round_actions"]
    s.flips, s.ended = list(data["flips"]), list(data["ended"])
    s.winner, s.draw = data["winner"], data["draw"]
    s.back = list(data["back"]) if data.get("back") else None  # (games saved before it was kept: None)
    return s


def clone(state) -> State:
    cls = state.__class__
    s = cls.__new__(cls)
    s.__dict__.update(state.__dict__)
    s.stock = [x[:] for x in state.stock]
    s.waste = [x[:] for x in state.waste]
    s.villages = [[v[:] for v in vs] for vs in state.villages]
    s.castles = [c[:] for c in state.castles]
    s.seen = state.seen[:]
    s.cuts = [c[:] for c in state.cuts]
    s.trios = state.trios[:]
    s.last_trios = state.last_trios[:]
    s.groups = [g[:] for g in state.groups]
    s.rps = [{"seats": g["seats"][:], "picks": g["picks"][:], "games": g["games"]} for g in state.rps]
    s.tiebreak_log = state.tiebreak_log[:]
    s.order = state.order[:]
    s.pending_ace = state.pending_ace[:] if state.pending_ace is not None else None
    s.flips = state.flips[:]
    s.ended = state.ended[:]
    s._prog = state._prog[:]
    return s


def determinize(state, seat: int | None, rng: random.Random) -> State:
    """Re-deal what nobody knows, per player from his own deck: the cards never seen (face-down village cards, the
    dealt stock, face-down cards an attack took) among their places, then each stock group's inner order; and
    the trios / tie-break nobles of the others that are not revealed yet. Kept: the waste, a recycled stock's
    order, and which cards an attack put in which block under a stock (all public history, A37)."""
    for p in range(state.n):  # the AI's progress cache does not depend on hidden cards: fill it once here
        if state._prog[p] is None:
            compute_progress(state, p)
    world = clone(state)
    world.seed = rng.getrandbits(48)
    world.counter = 0
    draw = rng.random

    def key(_):
        return draw()

    for p in range(state.n):
        stock = world.stock[p]
        seen = state.seen[p]
        cuts = state.cuts[p]
        hidden = [v for v in world.villages[p] if v and max(v) >= FD]
        if seen:
            slots = [i for i, x in enumerate(stock) if not seen >> x & 1]
            pool = [stock[i] for i in slots]
        else:
            slots, pool = None, stock[:]
        if hidden:
            pool += [x - FD for v in hidden for x in v if x >= FD]
        pool.sort()  # first in card order: where the unseen cards really lie changes nothing
        pool.sort(key=key)
        size = len(slots) if seen else len(stock)
        if seen:
            for i, x in zip(slots, pool):
                stock[i] = x
        else:
            stock[:] = pool[:size]
        if hidden:
            rest = iter(pool[size:])
            for v in hidden:
                for k, x in enumerate(v):
                    if x >= FD:
                        v[k] = next(rest) + FD
        if (cuts or seen) and len(cuts) + 1 < len(stock):  # some group has two cards or more: its order
            start = 0
            for end in cuts + [len(stock)]:
                if end - start > 1:
                    part = sorted(stock[start:end])
                    part.sort(key=key)
                    stock[start:end] = part
                start = end
    if state.phase == "select_trios":
        for p in range(state.n):
            if p != seat and world.trios[p]:
                world.trios[p] = sum(1 << x for x in rng.sample(range(12), 3))
    for g in world.rps:
        for at, s in enumerate(g["seats"]):
            if s != seat and g["picks"][at] is not None:
                g["picks"][at] = rng.choice([x for x in range(12) if not world.trios[s] >> x & 1])
    return world


