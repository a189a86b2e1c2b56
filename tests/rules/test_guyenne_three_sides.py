"""Guyenne with two sets and three players (issue 37, item 11): two English *or* two French armies, drawn
(the seed: « il y aura donc 2 joueurs anglais ou 2 joueurs français à 3 joueurs »); a stored game keeps its deal."""
from __future__ import annotations

import rules

rules.load_games()
GAME = rules.get_game("guyenne")


def _sides(seed: int, players: int = 3) -> list[str]:
    return list(GAME.new_game(players, seed=seed, options={"mode": "two_sets"}).sides)


def test_three_players_double_either_side_drawn_by_the_seed():
    doubled = set()
    for seed in range(40):
        sides = _sides(seed)
        assert sorted(sides) in (["E", "E", "F"], ["E", "F", "F"]), sides
        doubled.add(max("EF", key=sides.count))
        assert _sides(seed) == sides  # the same seed, the same deal
    assert doubled == {"E", "F"}


def test_four_players_are_two_english_and_two_french():
    assert all(sorted(_sides(seed, 4)) == ["E", "E", "F", "F"] for seed in range(10))


def test_a_stored_game_keeps_its_sides():
    state = GAME.new_game(3, seed=7, options={"mode": "two_sets"})
    data = state.to_json()
    assert list(GAME.from_json(data).sides) == list(state.sides)
    old = dict(data, sides=["E", "F", "E"])  # a game stored when three players always had two English armies
    assert list(GAME.from_json(old).sides) == ["E", "F", "E"]
