"""Issue 36 leftover: a finished game's board and views crown whom the result crowns. The service adds
``places`` (resigned seats last) to a finished view; every engine's text names the winner from them, so a seat
that resigned is never called the winner (through the adapters: tests/*_adapter/test_result_caption.py)."""
from __future__ import annotations

import pytest

import rules
from bot.i18n import using
from bot.service.leagues import places_with_resigns
from rules.ai.levels import make_player
from rules.lang import reading

rules.load_games()
NAMES = ["Ann", "Bob", "Cy"]


def finished(title: str, players: int, seed: int):
    game = rules.get_game(title)
    state = game.new_game(players, seed=seed)
    ais = [make_player("greedy", seed=seed + s) for s in range(players)]
    for _ in range(5000):
        if state.is_over():
            return game, state
        seat = state.to_act()[0]
        state.apply(seat, ais[seat].choose(state, seat))
    raise AssertionError("the game did not end")


def crown(game, state, resigned: set[int], reader: int | None = None) -> str:
    """The 🏆 line of the finished view as the service passes it (with the result's places)."""
    view = dict(state.view(reader), places=places_with_resigns(state.ranking(), resigned))
    with reading(reader):
        text = game.render_view(view)
    for i, name in enumerate(NAMES):
        text = text.replace(f"{{P{i + 1}}}", name)
    return next(line for line in text.splitlines() if line.startswith("🏆"))


CASES = [  # (title, players, seed, the engine's winner line, the line once that winner resigned)
    ("kardinal", 3, 0, "🏆 Ann wins!", "🏆 Bob wins!"),
    ("koenig_artus", 3, 0, "🏆 Winner: Ann, first to King Arthur's field!", "🏆 Bob and Cy win!"),
    ("troubadour", 2, 0, "🏆 Winner: Bob, all four castles complete!", "🏆 Ann wins!"),
    ("guyenne", 2, 0, "🏆 Ann 🟦F wins on points: 6–5 (unspent cards 1–0).",
     "🏆 Bob 🟥E wins: the other side resigned (6–5)."),
]


@pytest.mark.parametrize("title, players, seed, engines, results", CASES)
def test_a_winner_on_the_table_who_resigned_is_not_crowned(title, players, seed, engines, results):
    game, state = finished(title, players, seed)
    winner = state.ranking().index(1)
    assert crown(game, state, set()) == engines  # nobody resigned: the engine's winner, in its words
    assert crown(game, state, {winner}) == results  # the winner resigned: the best of those who stayed
    assert crown(game, state, {s for s in range(players) if s != winner}) == engines  # the others resigned


def test_the_crowned_reader_is_spoken_to_in_their_language():
    game, state = finished("troubadour", 2, 0)  # Bob completed four castles first, then resigned: Ann wins
    assert crown(game, state, {1}, reader=0) == "🏆 You win!"
    with using("de"):
        assert crown(game, state, {1}, reader=0) == "🏆 Du gewinnst!"
        assert crown(game, state, {1}) == "🏆 Ann gewinnt!"
