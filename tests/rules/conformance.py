"""The shared conformance kit: checks every engine against the contract of rules/api.py.

Each check takes a game and a configuration (player count, options) and plays
it out. ``tests/rules/test_conformance.py`` runs them for every registered game.
"""
from __future__ import annotations

import copy
import json
import os
import random

from rules.api import Event, Game, IllegalAction, State

ACTION_CAP = int(os.environ.get("HERALD_ACTION_CAP", "4000"))
SEEDS = int(os.environ.get("HERALD_CONFORMANCE_SEEDS", "4"))


def dump(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def step_policy(state: State, policy, rng: random.Random) -> tuple[int, dict]:
    seat = rng.choice(state.to_act())
    return seat, policy.choose(state, seat)


def playout(game: Game, n: int, options: dict, seed: int, policy_cls, cap: int = ACTION_CAP,
            on_step=None) -> tuple[State, list[tuple[int, dict]]]:
    """Play from a new game with ``policy_cls`` for every seat; ``on_step(state, seat, action, events)``."""
    state = game.new_game(n, seed=seed, options=copy.deepcopy(options))
    policy = policy_cls(seed)
    rng = random.Random(seed ^ 0x5EED)
    log: list[tuple[int, dict]] = []
    while not state.is_over() and len(log) < cap:
        seat, action = step_policy(state, policy, rng)
        before = state.clone() if on_step else None
        events = state.apply(seat, action)
        log.append((seat, action))
        if on_step:
            on_step(before, state, seat, action, events)
    return state, log


def check_invariants(game: Game, state: State) -> None:
    n = state.num_players
    acting = state.to_act()
    assert (acting == []) == state.is_over(), "to_act must be [] exactly when the game is over"
    assert len(set(acting)) == len(acting) and all(0 <= s < n for s in acting)
    for seat in range(n):
        actions = state.legal_actions(seat)
        if seat in acting:
            assert actions, f"seat {seat} is to act but has no legal action"
            assert len({json.dumps(a, sort_keys=True) for a in actions}) == len(actions), "duplicate actions"
            assert actions == state.legal_actions(seat), "legal_actions must be deterministic"
        else:
            assert actions == [], f"seat {seat} is not to act but has legal actions"
    for viewer in [None, *range(n)]:
        view = state.view(viewer)
        json.dumps(view)
        text = game.render_view(view)
        assert isinstance(text, str) and text.strip()
    json.dumps(state.to_json())
    if state.is_over():
        ranking = state.ranking()
        assert len(ranking) == n and min(ranking) == 1 and all(1 <= r <= n for r in ranking)
        assert len(state.scores()) == n


def check_roundtrips(game: Game, state: State) -> None:
    data = state.to_json()
    assert dump(game.from_json(json.loads(json.dumps(data)))) == dump(state), "from_json(to_json()) differs"
    assert dump(state.clone()) == dump(state), "clone differs"
    for seat in state.to_act():
        for action in state.legal_actions(seat):
            text = game.format_action(action)
            assert isinstance(text, str) and text
            assert game.parse_action(state, seat, text) == action, f"{text!r} does not parse back to {action}"
            assert game.parse_action(state, seat, text.lower()) == action, "notation must be case-insensitive"


def check_all_actions_apply(game: Game, state: State) -> None:
    """Every legal action applies (on a clone, leaving the state as it was); where the engine predicts its value
    (``evaluate_actions``) it is exact; the AI's shortlist (``ai_actions``) is made of legal actions only."""
    before = dump(state)
    for seat in state.to_act():
        actions = state.legal_actions(seat)
        shortlist = state.ai_actions(seat)
        keys = {json.dumps(a, sort_keys=True) for a in actions}
        assert shortlist and all(json.dumps(a, sort_keys=True) in keys for a in shortlist), "ai_actions not legal"
        predicted = state.evaluate_actions(seat, copy.deepcopy(actions))
        assert len(predicted) == len(actions)
        for action, value in zip(actions, predicted):
            trial = state.clone()
            events = trial.apply(seat, copy.deepcopy(action))
            check_events(trial, events)
            if value is not None:
                assert value == trial.evaluate(seat), f"evaluate_actions is wrong for {action}"
    assert dump(state) == before, "playing out a clone changed the state it was cloned from"


def check_events(state: State, events: list[Event]) -> None:
    assert isinstance(events, list)
    for event in events:
        assert isinstance(event, Event) and event.kind
        json.dumps(event.data)
        if event.audience is not None:
            assert all(0 <= s < state.num_players for s in event.audience)


def junk_actions(state: State, seat: int) -> list[tuple[int, object]]:
    """Actions no engine may accept, as (seat, action)."""
    n = state.num_players
    legal = state.legal_actions(seat)
    junk: list[tuple[int, object]] = [
        (seat, None), (seat, "pass"), (seat, []), (seat, {}), (seat, {"type": 7}),
        (seat, {"type": "no_such_action"}), (seat, {"type": "no_such_action", "card": "R1"}),
        (n, legal[0] if legal else {"type": "x"}), (-1, legal[0] if legal else {"type": "x"}),
    ]
    waiting = [s for s in range(n) if s not in state.to_act()]
    if waiting and legal:
        junk.append((waiting[0], legal[0]))  # a seat that is not to act
    legal_keys = {json.dumps(a, sort_keys=True) for a in legal}
    for action in legal[:3]:
        for key in [k for k in action if k != "type"]:
            for bad in (None, "ZZ99", 10**6, [None], {"x": 1}):
                mutated = dict(action)
                mutated[key] = bad
                if json.dumps(mutated, sort_keys=True) not in legal_keys:
                    junk.append((seat, mutated))
            missing = {k: v for k, v in action.items() if k != key}
            if json.dumps(missing, sort_keys=True) not in legal_keys:
                junk.append((seat, missing))
    return junk


def check_junk_rejected(game: Game, state: State) -> None:
    for seat in state.to_act()[:2]:
        for who, action in junk_actions(state, seat):
            before = dump(state)
            try:
                state.apply(who, action)  # type: ignore[arg-type]
            except IllegalAction as e:
                assert str(e).strip(), "IllegalAction needs a reason"
            else:
                raise AssertionError(f"junk action {action!r} by seat {who} was accepted")
            assert dump(state) == before, f"rejected {action!r} changed the state"
    for text in ["", "   ", "???", "zz99 qq", "x" * 200]:
        for seat in state.to_act()[:1]:
            before = dump(state)
            try:
                game.parse_action(state, seat, text)
            except IllegalAction as e:
                assert str(e).strip()
            assert dump(state) == before


def check_ai_values(state: State, rng: random.Random) -> bool:
    """Where an engine takes the AI's shortcut (``ai_values``), it gives a value for every action and depends on
    nothing but what the seat knows: the same in any determinization for that seat. Returns whether it did."""
    taken = False
    for seat in state.to_act():
        actions = state.ai_actions(seat)
        seed = rng.random()
        original = dump(state)
        values = state.ai_values(seat, copy.deepcopy(actions), random.Random(seed))
        assert dump(state) == original, "ai_values must not change the state"
        if values is None:
            continue
        taken = True
        assert len(values) == len(actions) and None not in values
        world = state.determinize(seat, rng)
        assert world.ai_values(seat, copy.deepcopy(actions), random.Random(seed)) == values, \
            f"ai_values for seat {seat} depends on what he cannot know"
    return taken


def check_no_leak(state: State, rng: random.Random) -> bool:
    """view(s) is the same in any determinization for s; returns whether a re-draw changed anything hidden."""
    redrew = False
    for viewer in [None, *range(state.num_players)]:
        original = dump(state)
        world_a = state.determinize(viewer, rng)
        world_b = state.determinize(viewer, rng)
        assert dump(state) == original, "determinize must not change the state"
        assert world_a.view(viewer) == state.view(viewer), f"view({viewer}) leaks what seat {viewer} cannot know"
        assert world_b.view(viewer) == state.view(viewer)
        if viewer is not None and viewer in state.to_act():
            assert world_a.legal_actions(viewer) == state.legal_actions(viewer)
        if dump(world_a) != dump(world_b):
            redrew = True
    return redrew


def check_next_to_act(state: State, rng: random.Random, tries: int = 4) -> bool:
    """``next_to_act`` tells nothing hidden (any world everyone could believe in gives the same answer), and when
    it names a seat, every way of playing the turn now running ends with that seat to act (or the game over).
    Returns whether it named one."""
    nxt = state.next_to_act()
    assert state.determinize(None, rng).next_to_act() == nxt, "next_to_act depends on something hidden"
    if nxt is None:
        return False
    acting = state.to_act()
    assert len(acting) == 1 and nxt != acting[0], f"next_to_act {nxt} while {acting} act"
    for _ in range(tries):
        world = state.clone()
        while world.to_act() == acting:
            world.apply(acting[0], rng.choice(world.legal_actions(acting[0])))
        assert world.is_over() or world.to_act() == [nxt], f"next_to_act said {nxt}, then {world.to_act()} acted"
    return True


def check_strong_sees_only_its_seat(state: State, rng: random.Random, iterations: int = 6) -> None:
    """The strong AI's search (at a small fixed iteration count) is the same in the state and in any
    determinization for the seat that searches, given the same seed: it reads nothing that seat cannot know."""
    from rules.ai.search import search

    for seat in state.to_act():
        seed = rng.getrandbits(32)
        original = dump(state)
        real = search(state, seat, random.Random(seed), iterations=iterations)
        assert dump(state) == original, "the search must not change the state"
        world = state.determinize(seat, rng)
        imagined = search(world, seat, random.Random(seed), iterations=iterations)
        assert [(c.action, c.visits, c.win_rate) for c in real.choices] == \
            [(c.action, c.visits, c.win_rate) for c in imagined.choices], \
            f"the strong AI of seat {seat} decides on what it cannot know"
