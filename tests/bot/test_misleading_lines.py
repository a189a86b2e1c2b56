"""Lines that said something else than what happens (issue 37, item 7)."""
from __future__ import annotations

import io
import random

import pytest

import rules
from bot.console import play as play_console
from bot.i18n import using
from bot.service import ChatRef, UserRef, build_service
from bot.service.narration import narrate
from rules.api import Event
from rules.lang import reading

rules.load_games()
NAMES = ["Ann", "Bob", "Cy"]


async def _console(tmp_path, game, players, lines, lang="en"):
    out = io.StringIO()
    await play_console(game, players, 1, "", f"sqlite+aiosqlite:///{tmp_path}/c.db", False, out=out,
                       inp=io.StringIO("".join(line + "\n" for line in lines)), lang=lang)
    return out.getvalue()


async def test_two_numbers_on_a_one_card_step_say_one_choice(tmp_path):
    text = await _console(tmp_path, "koenig_artus", 3, ["1 2", "quit"])
    assert "One choice at this step: type one number from 1 to" in text
    assert "Choose a number from 1 to" not in text


async def test_resign_on_the_console_says_the_game_ends_unrated(tmp_path):
    text = await _console(tmp_path, "koenig_artus", 3, ["resign", "y"])
    assert "No other person plays here, so the game ends, unrated. (y/n)" in text
    assert "An AI takes over your seat" not in text


async def test_the_resign_question_says_what_will_happen(database_url):
    service = await build_service(database_url)
    chat, ann, bob = ChatRef("discord", "c", "g", "t"), UserRef("discord", "1", "Ann"), UserRef("discord", "2", "Bob")
    try:
        await service.create_lobby(chat, ann, "toy", seed=1)
        await service.add_ai(chat, ann, "greedy")
        await service.start(chat, ann)
        alone = await service.resign(chat, ann, confirmed=False)
        assert "the game ends at once, unrated" in alone[0].text and "An AI takes over" not in alone[0].text
        await service.create_lobby(chat, ann, "toy", seed=2)
        await service.join(chat, bob)
        await service.start(chat, ann)
        together = await service.resign(chat, ann, game_id=2, confirmed=False)
        assert "An AI takes over your seat" in together[0].text
    finally:
        await service.close()


def test_koenig_artus_rules_do_not_name_a_field_the_track_may_not_have():
    text = rules.get_game("koenig_artus").rules_summary()
    assert "King Arthur's field (27)" not in text and "27 by default" in text


def test_list_und_tuecke_says_nothing_collected_not_no_cards():
    from rules.list_und_tuecke.text import board
    game = rules.get_game("list_und_tuecke")
    text = board(game.new_game(4, seed=1).view(None))
    assert "nothing collected" in text and "no cards" not in text


@pytest.mark.parametrize("reader,line", [
    (None, "Ann J♠ vs Bob Q♠: Bob plays before Ann."),
    (0, "You J♠ vs Bob Q♠: Bob plays before you."),
    (1, "Ann J♠ vs you Q♠: You play before Ann."),
])
def test_troubadour_tie_break_says_who_plays_before_whom(reader, line):
    game = rules.get_game("troubadour")
    event = Event("rps_revealed", {"seats": [0, 1], "nobles": ["JS", "QS"], "first": 1, "games": 1})
    assert narrate(game, [event], reader, NAMES) == [line]
    with using("nl"):
        assert narrate(game, [event], 0, NAMES)[0].endswith("Bob speelt vóór jou.")


def _guyenne_at(phase: str, seed: int):
    game = rules.get_game("guyenne")
    for s in range(seed, seed + 200):
        state, rng = game.new_game(2, seed=s, options={"level": "advanced"}), random.Random(s)
        for _ in range(400):
            if state.phase == phase:
                return game, state
            if state.is_over():
                break
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError(f"no {phase} reached")


def test_guyenne_names_the_castle_of_a_loss_and_whose_hands():
    game, state = _guyenne_at("losses", 1)
    seat = state.to_act()[0]
    castle = state.fights[state.fight_index]["castle"]
    with reading(seat):
        text = game.text.board(state.view(seat))
    assert f"Castle {castle}: remove your strongest card there" in text
    hands = next(line for line in text.splitlines() if " · hands " in line).split(" · hands ")[1]
    assert "{P1} " in hands and "{P2} " in hands  # whose hand each count is
