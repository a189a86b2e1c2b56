"""Copies of a Guyenne position: saving and loading (``to_json``/``from_json``), the AI's cheap ``clone``, and
``determinize``, which re-deals what one seat cannot know. Apart from the rules because they depend only on which
fields hold what, and on which lists clones may share (each is replaced, never changed in place), not on how a turn
goes.

Plain functions of the state (``rules.guyenne.state.GuyenneState``)."""
from __future__ import annotations

import random

from rules.api import State
from rules.guyenne import cards as C


FIELDS = ("level", "mode", "sides", "members", "army_of", "drawer", "leader", "givers", "first", "round_no",
          "castles", "hands", "decks", "discards", "removed", "reshuffles", "aside", "fight_index", "rotation",
          "step", "passes", "end", "six_winners", "phase", "direction", "steps", "step_index", "seen", "mine",
          "hero_at", "given", "last")


def to_json(state) -> dict:
    data = {key: _copy(getattr(state, key)) for key in FIELDS}
    data["fights"] = [copy_fight(f) for f in state.fights]
    data["last_fights"] = [copy_fight(f) for f in state.last_fights]
    rng = state._rng.getstate()  # reading it needs no copy of a shared one
    data["rng"] = [rng[0], list(rng[1]), rng[2]]
    return data


def from_json(cls, data: dict) -> State:
    """The state ``to_json`` wrote, as an instance of ``cls`` (the state class)."""
    s = cls.__new__(cls)
    armies = len(data["members"])
    known = {"seen": [[] for _ in range(armies)], "mine": [[] for _ in data["army_of"]],
             "hero_at": [2] * armies, "given": [[] for _ in data["army_of"]],
             "last": None}  # saved before they were kept
    for key in FIELDS:
        setattr(s, key, _copy(data[key] if key in data else known[key]))
    s.fights = [copy_fight(f) for f in data["fights"]]
    s.last_fights = [copy_fight(f) for f in data["last_fights"]]
    rng = random.Random.__new__(random.Random)
    version, internal, gauss = data["rng"]
    rng.setstate((version, tuple(internal), gauss))
    s.rng = rng
    return s


def clone(state, copy_rng: bool = True) -> State:
    """By hand, field by field: the AI clones once per action it weighs."""
    cls = type(state)
    s = cls.__new__(cls)
    s.level, s.mode, s.sides, s.first, s.round_no = state.level, state.mode, state.sides, state.first, state.round_no
    s.members = state.members  # fixed for the whole game: shared, never changed
    s.army_of = state.army_of
    s.drawer, s.leader, s.givers = state.drawer[:], state.leader[:], state.givers[:]
    s.castles = state.castles[:]
    # hands, decks, discards, removed and aside cards: each list is replaced, never changed in place (a deck
    # is copied before a draw), so the lists are shared
    s.hands, s.decks, s.discards = state.hands[:], state.decks[:], state.discards[:]
    s.removed, s.aside = state.removed[:], state.aside[:]
    s.reshuffles = state.reshuffles[:]
    s.seen = state.seen[:]  # its lists are replaced, never changed
    if state.mode == "teams":
        s.mine, s.given = [c[:] for c in state.mine], state.given[:]  # given: lists replaced, never changed
    else:
        s.mine, s.given = state.mine, state.given  # never changed without teams: shared
    s.hero_at = state.hero_at[:]
    s.fight_index, s.rotation, s.step, s.passes = state.fight_index, state.rotation[:], state.step, state.passes[:]
    s.end, s.six_winners, s.phase = state.end, state.six_winners, state.phase
    s.direction, s.steps, s.step_index = state.direction, state.steps, state.step_index  # steps never change
    s.last = state.last  # replaced, never changed in place: shared
    s.fights = [_clone_fight(f) for f in state.fights]
    s.last_fights = state.last_fights[:]  # entries are replaced, never changed in place: shared
    if copy_rng:  # copy on first use: most clones the AI weighs never draw
        s._rng = state._rng
        s._rng_shared = state._rng_shared = True
    return s


def determinize(state, seat: int | None, rng: random.Random) -> State:
    """Re-deal what ``seat`` cannot know, army by army: the hands of the others, the deck, the discard but for
    the cards he knows there (his own duel discard; cards seen revealed; a team member's own) and the face-down
    castle cards he did not place, among those places; expert picks he did not make. A hero that never left
    its army's hands unseen stays among them (or their face-down cards; or the discard after a concession)."""
    world = clone(state, copy_rng=False)
    world.rng = random.Random(rng.getrandbits(64))
    draw = rng.random

    def shuffled(cards: list[str]) -> list[str]:
        """A shuffle by sorting on random keys (faster than random.shuffle in CPython)."""
        return sorted(cards, key=lambda _card: draw())

    for a, team in enumerate(world.members):
        if world.phase == "set_aside":
            if seat != team[0]:
                world.aside[a] = shuffled(C.ARMY[1:])[:len(world.aside[a])]
            continue
        if len(team) == 1 and team[0] == seat:  # his own army: he knows all but the order of his deck
            if len(world.decks[a]) > 1:
                world.decks[a] = shuffled(sorted(world.decks[a]))  # sorted: the real order stays unread
            continue
        known, unknown, hands, hidden, pool = unseen(world, a, seat)
        home = len(world.decks[a]) + len(unknown)  # where hands and face-down cards begin in the pool
        pinned = []  # cards he gave his partner, still in the partner's hand or face down: stay there
        if len(team) == 2:
            if seat in team:
                held = set(pool[home:])
                pinned = [c for c in world.given[seat] if c in held]
            else:
                for m in team:
                    world.given[m] = []  # what the others follow of their gifts: not his to know
        hero = world.hero_at[a] < 2 and "H" in pool and "H" not in pinned
        for c in pinned + (["H"] if hero else []):
            pool.remove(c)
        pool = shuffled(sorted(pool))  # from a sorted pool: where the cards really lie changes nothing
        for c in pinned:
            pool.insert(home + int(draw() * (len(pool) + 1 - home)), c)
        if hero:  # 0: in a hand or face down (after the deck and the discard), 1: or in the discard
            lowest = home if world.hero_at[a] == 0 else len(world.decks[a])
            pool.insert(lowest + int(draw() * (len(pool) + 1 - lowest)), "H")
        at = len(world.decks[a])
        world.decks[a] = pool[:at]
        k = at + len(unknown)
        world.discards[a] = known + pool[at:k] if known else pool[at:k]
        if len(team) == 2:  # whose the unseen discarded cards are, as many each as before
            for m in hands:
                size = len(world.mine[m])
                world.mine[m], at = pool[at:at + size], at + size
        for m in hands:
            at, k = k, k + len(world.hands[m])
            world.hands[m] = C.order(pool[at:k])
        for f in hidden:
            at, k = k, k + len(f["cards"][a])
            f["cards"][a] = C.order(pool[at:k])
    return world


def unseen(state, a: int, seat: int | None) -> tuple[list[str], list[str], list[int], list[dict], list[str]]:
    """Army ``a``'s cards that ``seat`` cannot place: (the discard cards he knows, the other discard cards,
    the members whose hands he cannot see, the fights where he did not place its face-down cards, and all
    those cards: the deck, the unknown discard, those hands, those face-down cards, in that order)."""
    team = state.members[a]
    hands = [m for m in team if m != seat]
    hidden = [f for f in state.fights if f["cards"][a] and not f["revealed"][a] and f["actors"][a] != seat]
    known = state.seen[a] + state.mine[seat] if seat in team else state.seen[a]
    unknown = state.discards[a]
    if known:  # card ids are unique within an army
        known_set = set(known)
        unknown = [c for c in unknown if c not in known_set]
    pool = state.decks[a] + unknown
    for m in hands:
        pool += state.hands[m]
    for f in hidden:
        pool += f["cards"][a]
    return known, unknown, hands, hidden, pool


def _copy(value):
    """A copy of a field: lists (of lists) copied, scalars as they are."""
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def copy_fight(f: dict) -> dict:
    out = dict(f)
    for key in ("roles", "revealed", "actors", "pair"):
        if key in out:
            out[key] = list(out[key])
    out["cards"] = [list(c) if c is not None else None for c in f["cards"]]
    if "removed" in f:
        out["removed"] = [list(r) for r in f["removed"]]
    return out


def _clone_fight(f: dict) -> dict:
    """A fight for a clone: what changes during the round is copied, its roles and pair (fixed) are shared."""
    out = f.copy()
    out["actors"] = f["actors"][:]
    out["revealed"] = f["revealed"][:]
    out["cards"] = f["cards"][:]  # each army's list is replaced, never changed in place: shared
    return out
