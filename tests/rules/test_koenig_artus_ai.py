"""König Artus's hook for the strong AI (rules.koenig_artus.ai): each seat's chance to reach King Arthur first,
read where the search cuts a rollout short; the search stays repeatable and blind to what its seat cannot know."""
from __future__ import annotations

import random

import pytest

import rules
from rules.ai import GreedyPlayer, make_player
from rules.ai.search import search
from rules.koenig_artus.ai import needs, win_chances
from tests.rules import conformance as kit
from tests.rules.test_koenig_artus import table

GAME = rules.get_game("koenig_artus")


def test_the_chances_sum_to_one_and_the_pawn_ahead_is_favoured():
    state = table(4, {p: "red-1 yellow-2" for p in range(4)}, pos=[9, 6, 5, 2])
    chances = state.ai_rewards()
    assert chances is not None and sum(chances) == pytest.approx(1.0)
    assert chances[0] > chances[1] == pytest.approx(chances[2])  # 5 jumps 6 and 9: both need 20 tricks
    assert chances[2] > chances[3]


def test_a_field_near_king_arthur_is_worth_more_than_one_at_the_start():
    """Why the default cut (gain in ``evaluate``, 10 a field of lead everywhere) misread the 4-player race."""
    hands = {p: "red-1" for p in range(4)}
    start = win_chances(table(4, hands, pos=[6, 3, 2, 1]))[0] - win_chances(table(4, hands, pos=[5, 3, 2, 1]))[0]
    late = win_chances(table(4, hands, pos=[25, 22, 21, 20]))[0] - win_chances(table(4, hands, pos=[24, 22, 21, 20]))[0]
    assert late > 2 * start > 0


def test_strong_cards_in_hand_count_as_tricks_to_come():
    state = table(4, {0: "knight-1 shield-1 knight-2", 1: "red-1 red-2 red-3", 2: "blue-1 blue-2 blue-3",
                      3: "green-1 green-2 green-3"}, pos=[3, 4, 5, 6])
    assert win_chances(state)[0] > max(win_chances(state)[1:])


def test_needs_jump_the_pawns_ahead_and_a_won_game_is_certain():
    assert needs([0, 3, 5, 26], 27) == [24, 22, 21, 1]
    state = table(4, {p: "red-1" for p in range(4)}, pos=[27, 3, 4, 5])
    state.winner, state.phase = 0, "over"
    assert win_chances(state) == [1.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize("n", [2, 4, 6])
def test_the_search_with_the_hook_is_repeatable_and_reads_only_its_seat(n):
    """Same seed and iteration cap, same decision; the same in the state and in any world its seat may imagine."""
    state = GAME.new_game(n, seed=4)
    greedy = GreedyPlayer(4)
    rng = random.Random(2)
    for step in range(60):
        seat = state.to_act()[0]
        if step % 10 == 9:
            kit.check_strong_sees_only_its_seat(state, rng, iterations=12)
            runs = [search(state, seat, random.Random(9), iterations=25) for _ in range(2)]
            assert [(c.action, c.visits, c.win_rate) for c in runs[0].choices] == \
                [(c.action, c.visits, c.win_rate) for c in runs[1].choices]
            assert make_player("strong", seed=3, budget=None, iterations=20).choose(state, seat) in \
                state.legal_actions(seat)
        state.apply(seat, greedy.choose(state, seat))
