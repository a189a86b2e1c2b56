"""The conformance kit for every registered game, every player count and every variant."""
from __future__ import annotations

import json
import random

import pytest

from rules import GAMES, IllegalAction
from rules.ai import GreedyPlayer, RandomPlayer
from tests.rules import conformance as kit

CONFIGS = [(name, n, options) for name, game in sorted(GAMES.items()) for n, options in game.configurations()]
IDS = [f"{name}-{n}p-" + ",".join(f"{k}={v}" for k, v in sorted(opts.items())) for name, n, opts in CONFIGS]


@pytest.mark.parametrize(("name", "n", "options"), CONFIGS, ids=IDS)
def test_thorough_playout(name, n, options):
    """One random playout checked at every step: invariants, round trips, every action, junk, no leak."""
    game = GAMES[name]
    rng = random.Random(1)
    redrew = []
    replay = []
    foresaw, turns = [], random.Random(2)

    def on_step(before, after, seat, action, events):
        kit.check_invariants(game, before)
        kit.check_roundtrips(game, before)
        kit.check_all_actions_apply(game, before)
        kit.check_junk_rejected(game, before)
        redrew.append(kit.check_no_leak(before, rng))
        kit.check_ai_values(before, rng)
        kit.check_events(after, events)
        foresaw.append(kit.check_next_to_act(before, turns))
        replay.append((seat, action, kit.dump(after)))

    state, log = kit.playout(game, n, options, 11, RandomPlayer, cap=600, on_step=on_step)
    kit.check_invariants(game, state)
    kit.check_no_leak(state, rng)
    if game.has_hidden_information:
        assert any(redrew), "determinize never re-drew anything hidden"
    assert any(foresaw), "next_to_act never named the next seat: nobody gets a heads-up"

    rebuilt = game.new_game(n, seed=11, options=options)
    for seat, action, expected in replay:
        rebuilt.apply(seat, action)
        assert kit.dump(rebuilt) == expected, "same seed + same actions must give identical states"


@pytest.mark.parametrize(("name", "n", "options"), CONFIGS, ids=IDS)
def test_playouts_finish(name, n, options):
    """Random and greedy playouts over several seeds; most greedy ones reach the end."""
    game = GAMES[name]
    finished = 0
    for seed in range(kit.SEEDS):
        state, _ = kit.playout(game, n, options, 1000 + seed, RandomPlayer)
        kit.check_invariants(game, state)
        state, log = kit.playout(game, n, options, 2000 + seed, GreedyPlayer)
        kit.check_invariants(game, state)
        if state.is_over():
            finished += 1
            json.dumps(state.scores())
    assert finished >= max(1, (kit.SEEDS * 3) // 4), f"only {finished}/{kit.SEEDS} greedy playouts finished"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_game_description(name):
    game = GAMES[name]
    assert game.name == name and game.title
    assert 1 <= game.min_players <= game.max_players
    assert len(game.rules_summary()) > 200
    json.dumps(game.default_options())
    for n, options in game.configurations():
        assert game.min_players <= n <= game.max_players
    with pytest.raises(IllegalAction):
        game.new_game(game.max_players + 1, seed=1)
    with pytest.raises(IllegalAction):
        game.new_game(game.min_players - 1, seed=1)


@pytest.mark.parametrize(("name", "n", "options"), CONFIGS, ids=IDS)
def test_strong_ai_reads_only_its_seat(name, n, options):
    """Along a greedy playout, the strong AI's search is the same in the state and in a determinization of it."""
    game = GAMES[name]
    rng = random.Random(5)
    steps = []

    def on_step(before, after, seat, action, events):
        steps.append(before)

    kit.playout(game, n, options, 21, GreedyPlayer, cap=400, on_step=on_step)
    for state in steps[::max(1, len(steps) // 12)]:
        kit.check_strong_sees_only_its_seat(state, rng)
