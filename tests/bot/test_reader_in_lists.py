"""The reader among several people named in one sentence: the verb agrees with "you" in each language.

"Ann et toi passent" is wrong French (Ann et toi passez), "Ann und du passen" wrong German (Ann und du passt) and
"Ann en jou passen" wrong Dutch (jij, the subject form): such a sentence is written in every language with the
reader as a subject (``rules.lang.ours``), never made from the third-person one."""
from __future__ import annotations

import pytest

import rules
from bot.i18n import using
from bot.service.narration import narrate
from rules.api import Event
from rules.lang import N_, ours, reading

rules.load_games()
NAMES = ["Ann", "Bob", "Cy", "Di"]


def _reinforcing(idle: list[int]) -> list[Event]:
    return [Event("placed", {"seat": 2, "castle": 4, "count": 1, "step": "reinforce"})] + \
        [Event("passed", {"seat": s}) for s in idle]


@pytest.mark.parametrize("language,line", [
    ("en", "Reinforcing: Cy +1 at castle 4 · Ann and you pass."),
    ("fr", "Renforts : Cy +1 au château 4 · Ann et toi passez."),
    ("de", "Verstärkung: Cy +1 an Burg 4 · Ann und du passt."),
    ("nl", "Versterken: Cy +1 bij kasteel 4 · Ann en jij passen."),
])
def test_two_who_pass_one_of_them_the_reader(language, line):
    game = rules.get_game("guyenne")
    with using(language):
        assert narrate(game, _reinforcing([1, 0]), 1, NAMES) == [line]


@pytest.mark.parametrize("language,line", [
    ("en", "Reinforcing: Cy +1 at castle 4 · Bob and Ann pass."),
    ("fr", "Renforts : Cy +1 au château 4 · Bob et Ann passent."),
    ("de", "Verstärkung: Cy +1 an Burg 4 · Bob und Ann passen."),
    ("nl", "Versterken: Cy +1 bij kasteel 4 · Bob en Ann passen."),
])
def test_the_same_line_of_others_and_on_the_table_stays_third_person(language, line):
    game = rules.get_game("guyenne")
    with using(language):
        assert narrate(game, _reinforcing([1, 0]), 3, NAMES) == [line]  # Di reads of the others
        assert narrate(game, _reinforcing([1, 0]), None, NAMES) == [line]  # the table


def test_ours_names_the_others_and_puts_the_reader_last():
    other, own = N_("{who} pass"), N_("{who} and you pass")
    # three or more are listed with commas and one "and" ("Cy and Ann and Di pass" read as a stutter)
    assert ours([0, 1, 2], other, own) == "{P1}, {P2} and {P3} pass"  # nobody reading: the public channel
    with reading(0):
        assert ours([0, 1, 2, 3], other, own) == "{P2}, {P3}, {P4} and you pass"
        assert ours([0, 1, 2], other, own) == "{P2}, {P3} and you pass"
        assert ours([1, 2], other, own) == "{P2} and {P3} pass"
        with using("fr"):
            assert ours([2, 0], other, own) == "{P3} et toi passez"
            assert ours([2, 1], other, own) == "{P3} et {P2} passent"
            assert ours([2, 1, 3], other, own) == "{P3}, {P2} et {P4} passent"
            assert ours([2, 1, 0], other, own) == "{P3}, {P2} et toi passez"


@pytest.mark.parametrize("language,own,other", [
    ("en", "Round 3: Cy and you open.", "Round 3: Ann and Cy open."),
    ("fr", "Manche 3 : Cy et toi ouvrez.", "Manche 3 : Ann et Cy ouvrent."),
    ("de", "Runde 3: Cy und du eröffnet.", "Runde 3: Ann und Cy eröffnen."),
    ("nl", "Spelronde 3: Cy en jij vallen aan.", "Spelronde 3: Ann en Cy vallen aan."),
])
def test_a_guyenne_round_two_teams_open_with_the_reader_among_them(language, own, other):
    game = rules.get_game("guyenne")
    event = Event("round_started", {"round": 3, "first": 0, "seats": [0, 2]})
    with using(language):
        assert narrate(game, [event], 0, NAMES) == [own]
        assert narrate(game, [event], 1, NAMES) == [other]
