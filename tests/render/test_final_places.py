"""Issue 36: the end-of-game picture names the places the result tells (a resigned seat last, as /history and
the ratings), not the engine's ranking — the AI that played on for a person who resigned may have won."""
from __future__ import annotations

import random

import pytest

from bot.render import boards
from bot.render.canvas import Canvas
from bot.service import ChatRef, UserRef, telling
from bot.service.live import LiveGame, LiveSeat
from rules import get_game
from rules.ai import RandomPlayer

NAMES = ["Alice", "Bob", "Carol", "Dave"]


def finished(name: str, seed: int, players: int = 3):  # the first ``players`` of NAMES
    game = get_game(name)
    state = game.new_game(players, seed=seed, options=game.default_options())
    player, rng = RandomPlayer(seed), random.Random(seed)
    while not state.is_over():
        seat = rng.choice(state.to_act())
        state.apply(seat, player.choose(state, seat))
    return game, state


def live_game(game, state, resigned: int | set[int]) -> LiveGame:
    resigned = resigned if isinstance(resigned, set) else {resigned}
    seats = [LiveSeat(s, s + 1, UserRef("telegram", str(s + 1), NAMES[s]), NAMES[s], None, s in resigned)
             for s in range(len(state.scores()))]
    return LiveGame(id=7, game=game, chat=ChatRef("telegram", "-5", "-5"), chat_db_id=1, created_by=1, seed=1,
                    status="active", version=3, state=state, seats=seats, moves=0, settings={"language": "en"})


@pytest.fixture
def drawn_texts(monkeypatch):
    """Every text the pictures draw (the real drawing runs; the texts are read on the way)."""
    texts: list[str] = []
    original = Canvas.text

    def text(self, xy, value, *args, **kwargs):
        texts.append(value)
        return original(self, xy, value, *args, **kwargs)
    monkeypatch.setattr(Canvas, "text", text)
    return texts


@pytest.mark.parametrize("name", ["troubadour", "koenig_artus"])
def test_the_final_picture_does_not_crown_the_seat_that_resigned(name, drawn_texts):
    game, state = finished(name, seed=3)
    winner = state.ranking().index(1)
    live = live_game(game, state, resigned=winner)
    board = telling.board_message(live, state, pictures=True)
    places = telling.final_places(live, state)
    assert board.picture is not None and board.recipe["view"]["places"] == places
    boards.draw(*board.picture[:3])
    final = drawn_texts[-1]
    assert NAMES[winner] not in final  # the engine's winner resigned: placed last
    first = [NAMES[s] for s, place in enumerate(places) if place == 1]
    if name == "troubadour" and len(first) > 1:  # shared first place: a draw, as the result's two "1."
        assert final == "Draw"
    else:
        assert first and all(n in final for n in first), final
    result = telling.result_message(live, state).text.splitlines()
    assert all(any(line.startswith("1. ") and n in line for line in result) for n in first)


def test_the_final_picture_of_list_und_tuecke_lists_the_results_places(drawn_texts):
    game, state = finished("list_und_tuecke", seed=4, players=4)
    winner = state.ranking().index(1)
    live = live_game(game, state, resigned=winner)
    board = telling.board_message(live, state, pictures=True)
    boards.draw(*board.picture[:3])
    final = next(t for t in drawn_texts if t.startswith("Final:"))
    assert final.endswith(f"4. {winner + 1} {NAMES[winner]} {board.recipe['view']['totals'][winner]}")


def test_the_final_picture_of_a_guyenne_team_game_crowns_the_army_that_stayed(drawn_texts):
    game = get_game("guyenne")
    for seed in range(30):
        state = game.new_game(4, seed=seed, options=dict(game.default_options(), mode="teams"))
        player, rng = RandomPlayer(seed), random.Random(seed)
        while not state.is_over():
            seat = rng.choice(state.to_act())
            state.apply(seat, player.choose(state, seat))
        view = state.view(None)
        if len(set(view["ranking"])) > 1:  # not a draw
            break
    members = view["members"]
    winners = next(a for a in (0, 1) if view["ranking"][members[a][0]] == 1)
    live = live_game(game, state, resigned=set(members[winners]))  # the winning army walked out, both of them
    board = telling.board_message(live, state, pictures=True)
    boards.draw(*board.picture[:3])
    final = next(t for t in drawn_texts if t.startswith("★") or t.startswith("Draw"))
    drawn_texts.clear()
    engine_view = {k: v for k, v in board.recipe["view"].items() if k != "places"}  # the engine's ranking alone
    boards.draw("guyenne", engine_view, board.picture[2])
    engine = next(t for t in drawn_texts if t.startswith("★") or t.startswith("Draw"))
    assert final.startswith("★") and final != engine  # the other army is crowned, as the result places it
