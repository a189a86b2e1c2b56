"""The Guyenne AI's shortcuts and judgement: one action per multiset of kinds (``ai_actions``), how good a
position is (``evaluate``), what each action would be worth without playing it (``evaluate_actions``), the few
hidden cards drawn instead of a whole world (``ai_values``) and the strong AI's rollout length. Only a guide for
the AI, apart from the rules it must agree with: ``evaluate_actions`` gives exactly what applying the action and
``evaluate`` give.

Plain functions of the state (``rules.guyenne.state.GuyenneState``)."""
from __future__ import annotations

import random
from itertools import product

from rules.api import IllegalAction, State
from rules.guyenne import cards as C
from rules.guyenne.board import MAX_AT_CASTLE, castle_leads, rival
from rules.guyenne.cards import CARD_WORTH
from rules.guyenne.copies import unseen
from rules.guyenne.fights import total


_KIND_SUBSETS: dict[tuple, list[tuple[int, ...]]] = {}  # (kinds of a hand, most) -> positions of subsets
_UNFOUGHT = ("set_aside", "direction", "place", "open1", "respond1", "open2", "respond2", "reinforce")


def ai_actions(state, seat: int) -> list[dict]:
    """Which of two equal cards goes makes no difference: the AI weighs one action per multiset of kinds."""
    return state._actions(seat, kind_subsets)


def kind_subsets(cards: list[str], most: int) -> list[list[str]]:
    """One subset per multiset of kinds (the first cards of each kind): equal cards play the same. The subsets,
    as positions in the hand, are worked out once per row of kinds and size: hands of other cards with the
    same kinds (``H 5a 5b 3a`` and ``H 5c 5d 3b``) share them."""
    kinds = "".join(card[0] for card in cards)
    key = (kinds, most)
    found = _KIND_SUBSETS.get(key)
    if found is None:
        runs: list[list[int]] = []
        for i, kind in enumerate(kinds):  # army order keeps each kind together
            if runs and kinds[runs[-1][0]] == kind:
                runs[-1].append(i)
            else:
                runs.append([i])
        found = []
        for counts in product(*(range(len(run) + 1) for run in runs)):
            if 1 <= sum(counts) <= most:
                found.append(tuple(i for run, k in zip(runs, counts) for i in run[:k]))
        _KIND_SUBSETS[key] = found  # at most 2^22 rows of kinds in all; far fewer ever occur
    return [[cards[i] for i in t] for t in found]


def ai_search_options(state) -> dict | None:
    """The strong AI's rollouts look further ahead than the search's default of 2 actions per opponent: a
    castle's fight takes several exchanges. bench/strength.py against greedy: duel 78 % wins at 6 actions,
    62 % at 2, 42 % at 1 (60 games); teams 82 % at 12, 68 % at 6 (40 and 100 games)."""
    return {"rollout_actions": 12 if state.mode == "teams" else 6}


def ai_values(state, seat: int, actions: list[dict], rng: random.Random) -> list[float] | None:
    """Until a fight is fought, an action's value depends on the hidden cards of the fights of ``seat``'s
    own army only: draw just the opponents' cards there, not a whole world (the AI's costliest step). Not
    with teams (a partner's face-down cards would need drawing too), nor where an action must be played
    out (a pass or a last card that ends the reinforcements)."""
    if state.mode == "teams" or state.phase not in _UNFOUGHT:
        return None
    if state.phase == "reinforce" and not (any(state._has_room(s) for s in state.rotation if s != seat) and
                                          quiet_after(state, seat, {"type": "pass"})):
        return None  # a pass, or a card, could end the reinforcements: no need to draw first
    values = sketch(state, seat, rng).evaluate_actions(seat, actions)
    return None if None in values else values


def sketch(state, seat: int, rng: random.Random) -> State:
    """A shallow copy, only for ``evaluate_actions`` (it shares every list but the fights it changes): where
    ``seat``'s army faces unrevealed cards, they are drawn as ``determinize`` deals them, from all the cards
    of that army ``seat`` cannot place, taken in army order so that where they really lie changes nothing."""
    cls = type(state)
    world = cls.__new__(cls)
    world.__dict__.update(state.__dict__)
    mine = state.army_of[seat]
    drawn_at: dict[int, list[int]] = {}  # opponent army -> indices of the fights where his cards are drawn
    for i, f in enumerate(state.fights):
        if "outcome" not in f and mine in f["pair"]:
            a = state.rival(f, mine)
            if f["cards"][a] and not f["revealed"][a]:
                drawn_at.setdefault(a, []).append(i)
    if not drawn_at:
        return world
    world.fights = state.fights[:]
    for a, indices in drawn_at.items():
        _, unknown, _, _, pool = unseen(state, a, seat)
        pool = C.order(pool)
        sizes = [len(state.fights[i]["cards"][a]) for i in indices]
        wanted = sum(sizes)
        draw = rng.random
        slot = wanted  # the hero's place among the drawn cards; wanted: not drawn, or drawn like the rest
        if state.hero_at[a] < 2 and pool[0] == "H":  # as in determinize: somewhere past the deck (and discard)
            lowest = len(state.decks[a]) + (len(unknown) if state.hero_at[a] == 0 else 0)
            slot = int(draw() * (len(pool) - lowest))
            del pool[0]
        drawn = [pool.pop(int(draw() * len(pool))) for _ in range(wanted - (slot < wanted))]
        if slot < wanted:
            drawn.insert(slot, "H")
        start = 0
        for i, size in zip(indices, sizes):
            fight = world.fights[i] = state.fights[i].copy()
            fight["cards"] = fight["cards"][:]
            fight["cards"][a] = C.order(drawn[start:start + size])
            start += size
    return world


def evaluate(state, seat: int) -> float:
    return position_value(state, seat, None, [])


def position_value(state, seat: int, castle: int | None, added: list[str], base: float | None = None,
           theirs_cache: dict | None = None) -> float:
    """Castle points now, plus how the open fights lean, plus a little for cards kept (``added`` are cards
    of ``seat`` imagined at ``castle``, for evaluate_actions, which passes what all its actions share)."""
    mine_army = state.army_of[seat]
    others = [a for a in state.armies if a != mine_army]
    value = base if base is not None else castle_lead(state, mine_army)
    if state.phase == "over":
        return value + 0.01 * (state.unspent(mine_army) - max(state.unspent(a) for a in others))
    fights = list(state.fights)
    if castle is not None and state._fight_at(castle) is None:
        fights.append(imagined_fight(state, castle))
    for f in fights:
        if "outcome" in f or mine_army not in f["pair"]:
            continue
        mine = f["cards"][mine_army] + (added if f["castle"] == castle else [])
        value += leaning(state, f, mine_army, mine, strength(state, f, state.rival(f, mine_army), theirs_cache))
    return value + 0.03 * (state.army_hand(mine_army) - len(added) + len(state.decks[mine_army]))


def castle_lead(state, a: int) -> float:
    """Army ``a``'s castle points ahead of its best opponent."""
    if state.end == "six":
        return float(state.points(a) - max(state.points(o) for o in state.armies if o != a))
    return castle_leads(state.mode == "two_sets", len(state.members), tuple(state.castles))[a]


def imagined_fight(state, castle: int) -> dict:
    controller = state.castles[castle - 1]
    pair = state.pair_of(castle)
    return {"castle": castle, "controller": controller, "cards": [[] for _ in state.armies], "pair": list(pair),
            "roles": [("defend" if controller == a else "attack") if a in pair else None for a in state.armies]}


def strength(state, f: dict, a: int, cache: dict | None = None) -> int:
    """Army ``a``'s strength at fight ``f`` (a hero counts as 100), cached per castle for evaluate_actions."""
    if cache is not None and f["castle"] in cache:
        return cache[f["castle"]]
    cards = f["cards"][a]
    strong = 100 if "H" in cards else total(f, a, cards)
    if cache is not None:
        cache[f["castle"]] = strong
    return strong


def leaning(state, f: dict, a: int, mine: list[str], theirs: int) -> float:
    """+0.4 when army ``a`` would win or keep the castle with ``mine`` there, -0.4 when it would lose."""
    return lean_of(f, a, 100 if "H" in mine else total(f, a, mine), theirs)


def lean_of(f: dict, a: int, strong: int, theirs: int) -> float:
    if f["roles"][a] == "defend":
        return 0.4 if strong >= theirs else -0.4
    if f["roles"][rival(f, a)] == "defend":
        return 0.4 if strong > theirs else -0.4
    return 0.4 if strong > theirs else (-0.4 if strong < theirs else 0.0)


def evaluate_actions(state, seat: int, actions: list[dict]) -> list[float | None]:
    """Placements, gifts, passes and the direction change nothing but the imagined fights, unless the
    reinforcements end at once (then the fights are fought: simulate those). A card's worth at a castle depends
    on its kind only, and an action's value on the castle, how that fight then leans and how many cards it
    takes: each worked out once. Which cards a loss takes changes only how many are left: one trial per
    count. A fight decided, or the last army's set-aside (it deals), is simulated."""
    phase = state.phase
    if phase == "losses":
        return loss_values(state, seat, actions)
    if phase == "defend" or phase == "over":
        return [None] * len(actions)
    mine = state.army_of[seat]
    base = castle_lead(state, mine)
    if phase == "set_aside":  # only the last army's choice deals the armies
        if all(len(a) == 5 for i, a in enumerate(state.aside) if i != mine):
            return [None] * len(actions)
        return [position_value(state, seat, None, [], base)] * len(actions)
    # what every action shares: each open fight's lean as it stands, the opponent's strength there
    open_fights = [f for f in state.fights if "outcome" not in f and mine in f["pair"]]
    standing = []
    at: dict = {}  # castle -> (own hero there?, own total, opponent's strength, lean on a tie, card worth)
    for f in open_fights:
        theirs = strength(state, f, state.rival(f, mine))
        odds = at[f["castle"]] = castle_odds(state, f, mine, theirs)
        strong = 100 if odds[0] else odds[1]  # as lean_of, like the actions below
        standing.append(0.4 if strong > theirs else (odds[3] if strong == theirs else -0.4))
    kept = state.army_hand(mine) + len(state.decks[mine])

    def value_of(castle: int | None, lean: float | None, count: int) -> float:
        """The value with ``count`` cards added at ``castle`` (None: nowhere), that fight then leaning
        ``lean``: the same order of sums as position_value, so exactly equal. The loop below remembers it."""
        value = base
        for f, was in zip(open_fights, standing):
            value += lean if f["castle"] == castle else was
        if castle is not None and castle not in at:  # opened now
            value += lean
        return value + 0.03 * (kept - count)

    if phase == "give" or phase == "direction":  # nothing placed yet, no card spent
        return [value_of(None, None, 0)] * len(actions)
    all_calm = phase != "reinforce" and (phase != "place" or state.step_index < len(state.steps) - 1) and \
        phase != "respond2"
    if phase == "reinforce":
        calm_cards = any(state._has_room(s) for s in state.rotation if s != seat)
        respond_castle = None
    else:
        calm_cards = all_calm
        respond_castle = state._respond_castle() if phase == "respond1" or phase == "respond2" or \
            phase == "place" and state.steps[state.step_index][0] == "respond" else None
    quiet: dict[tuple, bool] = {}
    opened: list[float | None] = [None] * (MAX_AT_CASTLE + 1)  # by number of cards
    out: list[float | None] = []
    for action in actions:
        added = action.get("cards")
        if added is None:  # the pass
            if not all_calm and not quiet_after(state, seat, action):
                out.append(None)
                continue
            out.append(value_of(None, None, 0))
            continue
        castle = action.get("castle") or respond_castle
        count = len(added)
        if not calm_cards:
            probe = (castle, count)  # all it depends on
            calm = quiet.get(probe)
            if calm is None:
                calm = quiet[probe] = quiet_after(state, seat, action)
            if not calm:
                out.append(None)
                continue
        odds = at.get(castle)
        if odds is None:  # a castle opened now: nobody else there yet, and any card (worth 2 at least, a hero
            value = opened[count]  # 100) beats nothing, as in lean_of against 0: the same at any new castle
            if value is None:
                value = opened[count] = value_of(castle, 0.4, count)
            out.append(value)
            continue
        hero, strong, theirs, tie, worth, memo = odds
        strong = 100 if hero or "H" in added else strong + sum(map(worth, added))
        slot = (0 if strong > theirs else (7 if strong == theirs else 14)) + count  # lean 0.4, on a tie, -0.4
        value = memo[slot]
        if value is None:
            value = memo[slot] = value_of(castle, 0.4 if slot < 7 else (tie if slot < 14 else -0.4), count)
        out.append(value)
    return out


def loss_values(state, seat: int, actions: list[dict]) -> list[float | None]:
    """Which cards a loss takes changes no count and no fight still open: one trial per number of cards."""
    seen: dict[int, float] = {}
    out = []
    for action in actions:
        count = len(action["cards"])
        if count not in seen:
            trial = state.clone()
            try:
                trial.apply(seat, action)
                seen[count] = trial.evaluate(seat)
            except IllegalAction:  # not possible here: let the caller find out
                out.append(None)
                continue
        out.append(seen[count])
    return out


def castle_odds(state, f: dict, mine: int, theirs: int) -> tuple:
    """What an action's value at open fight ``f`` needs: own hero there, own total, the opponent's strength,
    the lean on equal strength (as ``lean_of``), each card's combat value there (a lookup), and room to
    remember the values worked out."""
    defending = f["roles"][mine] == "defend"
    against = f["controller"] is not None and f["controller"] != mine
    tie = 0.4 if defending else (-0.4 if f["roles"][state.rival(f, mine)] == "defend" else 0.0)
    return ("H" in f["cards"][mine], total(f, mine), theirs, tie,
            CARD_WORTH[defending, against].__getitem__, [None] * 21)  # 21: values by lean and card count


def quiet_after(state, seat: int, action: dict) -> bool:
    """True when applying ``action`` leaves someone to reinforce (so no fight is fought yet): the same walk
    round the rotation as ``turns.auto_passes``, with the actor's hand and castle as they would be."""
    if state.phase in ("open1", "respond1", "open2") or \
            state.phase == "place" and state.step_index < len(state.steps) - 1:
        return True
    spent = len(action.get("cards", []))
    castle = action.get("castle", state._respond_castle() if action["type"] == "respond" else None)
    army = state.army_of[seat]

    def room(s: int) -> bool:
        if s != seat:
            return state._has_room(s)
        if len(state.hands[seat]) - spent <= 0:
            return False
        return any((f["actors"][army] == seat or f["castle"] == castle) and
                   len(f["cards"][army]) + (spent if f["castle"] == castle else 0) < MAX_AT_CASTLE
                   for f in state.fights)

    if state.phase == "respond2":
        order = [state.actor(state.second, 0), state.actor(state.first, 0), state.actor(state.second, 1),
                 state.actor(state.first, 1)]
        rotation = order[:2] if state.mode == "duel" else order
        passes: set[int] = set()
        start = 0
    elif state.phase == "place":  # the last answer: the reinforcements begin with the rotation's first
        rotation, passes, start = state.rotation, set(), 0
    else:
        rotation = state.rotation
        passes = set(state.passes) | {seat} if action["type"] == "pass" else set()
        start = state.step + 1
    everyone = set(rotation)
    for i in range(len(rotation) + 1):
        if passes >= everyone:
            return False
        s = rotation[(start + i) % len(rotation)]
        if room(s):
            return True
        passes.add(s)
    return False


