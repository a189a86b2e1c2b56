"""The strong AI: repeatable for a seed and an iteration cap, always legal, stops by its cap, hints, names."""
from __future__ import annotations

import json
import pickle
import random

import pytest

from rules import GAMES, IllegalAction
from rules.ai import GreedyPlayer, StrongPlayer, advise, ai_name, hint, make_player, think
from rules.ai.search import rank_rewards, search
from tests.toygame import TOY

GAME_CONFIGS = [("troubadour", 2), ("guyenne", 2), ("list_und_tuecke", 4), ("kardinal", 2), ("koenig_artus", 4)]


def midgame(name: str, n: int, seed: int = 4, moves: int = 12):
    """A state some greedy moves into a game, with a seat to act."""
    game = GAMES[name]
    state = game.new_game(n, seed=seed)
    greedy = GreedyPlayer(seed)
    for _ in range(moves):
        seat = state.to_act()[0]
        state.apply(seat, greedy.choose(state, seat))
    return state


@pytest.mark.parametrize(("name", "n"), GAME_CONFIGS)
def test_same_seed_and_iterations_same_decision(name, n):
    state = midgame(name, n)
    seat = state.to_act()[0]
    runs = [search(state, seat, random.Random(9), iterations=30) for _ in range(2)]
    assert [(c.action, c.visits, c.win_rate) for c in runs[0].choices] == \
        [(c.action, c.visits, c.win_rate) for c in runs[1].choices]
    assert runs[0].iterations == 30
    one = make_player("strong", seed=3, budget=None, iterations=20).choose(state, seat)
    assert one == make_player("strong", seed=3, budget=None, iterations=20).choose(state, seat)


@pytest.mark.parametrize(("name", "n"), GAME_CONFIGS)
def test_strong_plays_a_game_to_its_end_with_legal_actions(name, n):
    """Every decision is one of the seat's legal actions (apply would raise otherwise); the game ends."""
    game = GAMES[name]
    state = game.new_game(n, seed=7)
    players = [StrongPlayer(s, budget=None, iterations=4) for s in range(n)]
    for _ in range(3000):
        if state.is_over():
            break
        seat = state.to_act()[0]
        action = players[seat].choose(state, seat)
        assert action in state.legal_actions(seat)
        state.apply(seat, action)
    assert state.is_over()


def test_the_iteration_cap_stops_the_search_before_a_long_budget():
    state = midgame("kardinal", 2)
    seat = state.to_act()[0]
    player = StrongPlayer(1, budget=3600.0, iterations=7)
    player.choose(state, seat)
    assert player.last_iterations == 7


def test_the_budget_stops_the_search_without_a_cap():
    """A tiny budget ends the search after very few iterations (counted, not timed)."""
    state = midgame("kardinal", 2)
    seat = state.to_act()[0]
    player = StrongPlayer(1, budget=0.0)
    action = player.choose(state, seat)
    assert player.last_iterations == 1 and action in state.legal_actions(seat)


def test_a_forced_move_needs_no_search():
    state = TOY.new_game(2, seed=1)
    for seat in (0, 1):
        state.apply(seat, state.legal_actions(seat)[0])
    while len(state.legal_actions(state.to_act()[0])) != 1:
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    seat = state.to_act()[0]
    result = search(state, seat, random.Random(1), iterations=50)
    assert result.iterations == 0 and result.best.action == state.legal_actions(seat)[0]


def test_strong_needs_a_budget_or_a_cap():
    with pytest.raises(ValueError):
        StrongPlayer(1, budget=None, iterations=None)
    with pytest.raises(IllegalAction):
        make_player("grandmaster")


def test_strong_finds_the_only_reply_that_saves_the_toy_game():
    """Seat 0 led 7 and keeps 9; seat 1 holds 5 and 8: 8 takes this trick and ties the game, 5 loses both."""
    state = TOY.from_json({"n": 2, "seed": 1, "counter": 1, "hands": [[1, 2, 7, 9], [3, 4, 5, 8]],
                           "kept": [[9], [5, 8]], "trick": [[0, 7]], "points": [0, 0], "leader": 0,
                           "tricks_done": 0})
    result = search(state, 1, random.Random(2), iterations=50)
    assert result.best.action == {"type": "play", "card": 8}
    assert result.best.win_rate == pytest.approx(0.5, abs=0.05) and result.choices[1].win_rate < 0.05


@pytest.mark.parametrize(("name", "n"), GAME_CONFIGS)
def test_advice_gives_two_distinct_legal_actions_and_win_rates(name, n):
    state = midgame(name, n)
    seat = state.to_act()[0]
    advice = advise(state, seat, seed=5, budget=None, iterations=40)
    legal = state.legal_actions(seat)
    assert advice.action in legal
    if len(state.ai_actions(seat)) > 1:
        assert advice.runner_up in legal and advice.runner_up != advice.action
        assert 0.0 <= advice.runner_up_win_rate <= 1.0
    assert 0.0 <= advice.win_rate <= 1.0
    assert advice == advise(state, seat, seed=5, budget=None, iterations=40)


def test_advice_refuses_a_seat_that_is_not_to_act():
    state = midgame("kardinal", 2)
    waiting = next(s for s in range(2) if s not in state.to_act())
    with pytest.raises(IllegalAction):
        advise(state, waiting, seed=1, iterations=5)


def test_think_and_hint_work_from_json_and_pickle():
    """What a process pool runs: JSON in, JSON out, picklable functions; same as deciding in process."""
    state = midgame("list_und_tuecke", 4)
    seat = state.to_act()[0]
    data = json.loads(json.dumps(state.to_json()))
    assert pickle.loads(pickle.dumps(think)) is think
    action = think("list_und_tuecke", data, seat, "strong", seed=8, budget=None, iterations=15)
    assert action == make_player("strong", seed=8, budget=None, iterations=15).choose(state, seat)
    assert think("list_und_tuecke", data, seat, "greedy", seed=8) in state.legal_actions(seat)
    advice = hint("list_und_tuecke", data, seat, seed=8, budget=None, iterations=15)
    json.dumps(advice)
    assert advice["action"] in state.legal_actions(seat)


def test_rank_rewards_count_rivals_only():
    assert rank_rewards([3.0, 1.0]) == [1.0, 0.0]
    assert rank_rewards([2.0, 2.0, 0.0]) == [0.75, 0.75, 0.0]
    # team mates (0, 2) are not rivals: each is judged against 1 and 3 only
    assert rank_rewards([5.0, 1.0, 5.0, 9.0], [[0, 2], [1, 3]]) == [0.5, 0.0, 0.5, 1.0]


def test_ai_names_say_the_level_and_differ_per_seat():
    for level in ("random", "greedy", "strong"):
        names = [ai_name(level, i) for i in range(14)]
        assert len(set(names)) == len(names)
        assert all(name.startswith("🤖 ") for name in names)
    assert ai_name("greedy", 0) == "🤖 Sir Greedy"
    assert ai_name("strong", 0) == "🤖 Strong Merlin"
    assert all("Strong" in ai_name("strong", i) for i in range(10))
    assert ai_name("greedy", 0) != ai_name("strong", 0)


def test_a_games_search_options_hook_sets_the_knobs_and_arguments_win():
    from rules.ai.search import CONFIDENCE, Search

    duel = GAMES["guyenne"].new_game(2, seed=1, options={**GAMES["guyenne"].default_options(), "mode": "duel"})
    seat = duel.to_act()[0]
    tuned = Search(duel, seat, random.Random(1))
    assert tuned.rollout_actions == 6 and tuned.cutoff == "gain" and tuned.confidence == CONFIDENCE
    assert Search(duel, seat, random.Random(1), rollout_actions=3, cutoff="rank").rollout_actions == 3
    teams = GAMES["guyenne"].new_game(4, seed=1, options={**GAMES["guyenne"].default_options(), "mode": "teams"})
    assert Search(teams, teams.to_act()[0], random.Random(1)).rollout_actions == 12
    plain = GAMES["kardinal"].new_game(2, seed=1)
    assert Search(plain, plain.to_act()[0], random.Random(1)).rollout_actions == 2  # the default: 2 per opponent


def troubadour_turn(villages: list[str]):
    """A Troubadour state in a turn, the active seat's villages replaced (card codes bottom→top, ``*`` face down)."""
    from rules.troubadour.snapshot import pile_of

    state = midgame("troubadour", 2, seed=3, moves=0)
    greedy = GreedyPlayer(3)
    while state.phase != "turn":
        seat = state.to_act()[0]
        state.apply(seat, greedy.choose(state, seat))
    seat = state.to_act()[0]
    state.villages[seat] = [pile_of(v) for v in villages]
    state.castles[seat] = [0, 0, 0, 0]
    state._prog[seat] = None
    return state, seat


def test_troubadour_ai_leaves_out_moves_that_only_relabel_villages():
    """Bench seed 3 looped to the 5000-action cap: the strong AI moved 8S 7H 6S between 9♦ and 9♥ for ever."""
    state, seat = troubadour_turn(["4S", "7D* 9D 8S 7H 6S", "7S* 9H", "AC* 10H 9C 8H 7C 6D", "8C* 3C"])
    legal = state.legal_actions(seat)
    assert {"type": "build_village", "card": "8S", "village": 3} in legal
    shortlist = state.ai_actions(seat)
    assert {"type": "build_village", "card": "8S", "village": 3} not in shortlist
    assert {"type": "end_turn"} in shortlist and all(a in legal for a in shortlist)
    state.villages[seat][2] = []  # a run on a face-down card uncovers it: kept; a whole village into an empty: not
    state.villages[seat][0] = []
    shortlist = state.ai_actions(seat)
    assert {"type": "build_village", "card": "9C", "village": 1} in shortlist
    state, seat = troubadour_turn(["", "7D* 9D", "8S", "AC* 10H", "3C"])
    assert {"type": "build_village", "card": "8S", "village": 1} in state.legal_actions(seat)
    assert {"type": "build_village", "card": "8S", "village": 1} not in state.ai_actions(seat)
    assert {"type": "build_village", "card": "8S", "village": 2} in state.ai_actions(seat)


def test_troubadour_ai_stops_moving_between_villages_in_a_long_turn():
    state, seat = troubadour_turn(["", "7D* 9D", "8S", "AC* 10H", "3C"])
    assert {"type": "build_village", "card": "8S", "village": 2} in state.ai_actions(seat)
    state.turn_actions = 40
    assert not [a for a in state.ai_actions(seat) if a["type"] == "build_village" and a.get("card") == "8S"]


@pytest.mark.parametrize(("n", "others"), [(2, [["JS", "QS", "KS"], ["JC", "QC", "KC"]]), (4, [["JC", "QC", "KC"]])])
def test_troubadour_trio_shortlist_adds_the_strong_ais_trios_and_greedy_keeps_its_favourite(n, others):
    state = GAMES["troubadour"].new_game(n, seed=5)
    seat = state.to_act()[0]
    shortlist = state.ai_actions(seat)
    favourite = shortlist[0]
    assert [a["nobles"] for a in shortlist[1:]] == others
    assert all(a in state.legal_actions(seat) for a in shortlist)
    for seed in range(5):
        assert GreedyPlayer(seed).choose(state, seat) == favourite



def troubadour_stuck(seat: int, villages: list[str], castles: list[int], stock: str = "", waste: str = ""):
    """A new two-player Troubadour game in which ``seat`` has the given villages and castles (top ranks S H D C) and
    a stock (bottom→top) that was all seen in public (recycled), so that the seat knows what it can flip."""
    from rules.troubadour.snapshot import pile_of

    state = GAMES["troubadour"].new_game(2, seed=171)
    state.stock[seat], state.waste[seat] = pile_of(stock) if stock else [], pile_of(waste) if waste else []
    state.seen[seat] = sum(1 << c for c in state.stock[seat])
    state.cuts[seat] = list(range(1, len(state.stock[seat])))
    state.villages[seat] = [pile_of(v) if v else [] for v in villages]
    state.castles[seat] = castles
    state._prog[seat] = None
    return state


def play_out(state, strong: int, actions: int = 300):
    """Strong (20 iterations) at ``strong`` against greedy, at most ``actions`` actions."""
    players = {strong: StrongPlayer(1, budget=None, iterations=20), 1 - strong: GreedyPlayer(0)}
    for _ in range(actions):
        if state.is_over():
            break
        seat = state.to_act()[0]
        state.apply(seat, players[seat].choose(state, seat))
    return state


def test_troubadour_ais_dig_when_nothing_is_left_to_flip():
    """Bench game 171 (Troubadour 2) ran to the 5000-action cap: from round 39 the strong seat had 31 castle cards,
    nothing left to flip, and its hearts castle waited for 2♥, face down under three cards. Only Q♥ (turning it up)
    and J♥ (taking it out) go on; the trios the AIs consider held no Q♥ (flips were still valued), so the strong AI
    attacked with the spades every round and never built again."""
    state = troubadour_stuck(1, ["10H", "8H", "3H 4H", "2H* 9H 7H 5H", "6H"], [10, 1, 10, 10])
    trios = [set(a["nobles"]) for a in state.ai_actions(1)]
    assert {"QH", "JH"} <= trios[0]  # the favourite digs; the clubs are worth nothing here
    assert {"QH", "JH"} <= set(GreedyPlayer(1).choose(state, 1)["nobles"])
    state = play_out(state, 1)
    assert state.is_over() and state.winner == 1


def test_troubadour_ais_dig_when_no_card_they_can_flip_fits():
    """Strong against strong, Troubadour 2 (game seed 1011, 6 iterations): a seat with spades and clubs complete
    had only red cards left; its recycled stock and waste (known to all) fitted nowhere, A♥ and 3♦ lay face down.
    It chose the spades for 40 rounds until the other seat's attacks happened to reshuffle its villages."""
    from rules.troubadour.ai import flips_are_useless

    state = troubadour_stuck(0, ["6D 4D", "AH* 3D* 2H", "10H 8D 6H", "9D 7H 5D", "5H"], [10, 0, 2, 10],
                             stock="7D 8H 9H", waste="3H 10D 4H")
    assert flips_are_useless(state, 0) and not flips_are_useless(state, 1)
    assert {"QH", "JH"} <= set(state.ai_actions(0)[0]["nobles"])
    state.seen[0] &= ~(1 << state.stock[0][0])  # a stock card never seen might fit: flipping may help
    assert not flips_are_useless(state, 0)
    state.seen[0] |= 1 << state.stock[0][0]
    state = play_out(state, 0)
    assert state.is_over() and state.winner == 0
