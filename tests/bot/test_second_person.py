"""The reader addressed in their own language's second person (issue 37, item 4): a sentence about the reader is
written for the reader ("Du hast aufgegeben", "jij begint", "aan jou"), never a pronoun put into the
third-person sentence ("Du hat aufgegeben", "jou begint", "You takes"); French sets a space before ";"."""
from __future__ import annotations

import io
import re

import pytest

import rules
from bot.console import play as play_console
from bot.i18n import using
from bot.service.narration import narrate
from rules.api import Event
from rules.lang import reading

rules.load_games()
NAMES = ["Ann", "Bob", "Cy", "Di"]


@pytest.mark.parametrize("language,lines", [
    ("en", ["Bob hands 5 cards to you; you lead.", "You → Bob: 5 4 2 2 A."]),
    ("nl", ["Bob geeft 5 kaarten aan jou; jij begint.", "Jij → Bob: 5 4 2 2 A."]),
])
def test_guyenne_cards_handed_to_the_reader_and_back(language, lines):
    game = rules.get_game("guyenne")
    given = Event("given", {"seat": 1, "to": 0, "count": 5, "leader": 0})
    back = Event("given_cards", {"seat": 0, "to": 1, "cards": ["5", "4", "2", "2", "A"]}, audience=[0, 1])
    with using(language):
        told = [narrate(game, [given], 0, NAMES, condense=False)[0],
                narrate(game, [back], 0, NAMES, condense=False)[0]]
    assert told == lines


@pytest.mark.parametrize("language,own,other", [
    ("en", "Round 2: you deal, Bob leads.", "Round 2: Ann deals, Bob leads."),
    ("de", "Runde 2: Du gibst, Ausspiel Bob.", "Runde 2: Geber Ann, Ausspiel Bob."),
])
def test_list_und_tuecke_the_reader_deals(language, own, other):
    game = rules.get_game("list_und_tuecke")
    event = Event("round_started", {"round": 2, "dealer": 0, "leader": 1})
    with using(language):
        assert narrate(game, [event], 0, NAMES) == [own]
        assert narrate(game, [event], None, NAMES) == [other]


@pytest.mark.parametrize("game,language,head", [
    ("koenig_artus", "de", "Hand 1 · Stich 1/8 · Du gibst · Stapel"),
    ("list_und_tuecke", "de", "Runde 1/"),
])
def test_the_readers_own_view_says_you_deal_not_dealer_you(game, language, head):
    g = rules.get_game(game)
    state = g.new_game(4, seed=3, options={})
    dealer = state.view(None)["dealer"]
    with using(language), reading(dealer):
        text = g.text.board(state.view(dealer)).replace("{P%d}" % (dealer + 1), "Du")
    first = text.splitlines()[0]
    assert first.startswith(head) and "Geber Du" not in first and "Du gibst" in first


def test_french_sets_a_space_before_the_semicolon():
    game = rules.get_game("list_und_tuecke")
    events = [Event("cards_picked", {"seat": 1, "cards": ["R3", "G6"]}),
              Event("cards_received", {"seat": 2, "cards": ["Y2", "G12"]})]
    with using("fr"):
        line = narrate(game, events, None, NAMES)[0]
    assert " ; " in line and not re.search(r"\S;", line)


async def _console(tmp_path, game, players, lines, lang, options=""):
    out = io.StringIO()
    await play_console(game, players, 1, options, f"sqlite+aiosqlite:///{tmp_path}/c.db", False, out=out,
                       inp=io.StringIO("".join(line + "\n" for line in lines)), lang=lang)
    return out.getvalue()


async def test_the_console_log_speaks_to_you_in_english(tmp_path):
    text = await _console(tmp_path, "list_und_tuecke", 4, ["1"] * 14 + ["log 40", "quit"], "en")
    log = text[text.index("— the log"):]
    assert not re.search(r"\bYou (takes|is|gets|leads|wins|picks|plays|hides)\b", log)
    assert re.search(r"\b(You|you) (take|are|get|lead|pick|play|hide)\b", log)


@pytest.mark.parametrize("language,wrong,right", [
    ("de", "Du hat aufgegeben", "Du hast aufgegeben"),
    ("fr", "Toi a abandonné", "Tu as abandonné"),
    ("en", "You resigned; no human", "You resigned; no other person plays"),
])
async def test_resigning_on_the_console_is_told_to_you(tmp_path, language, wrong, right):
    text = await _console(tmp_path, "koenig_artus", 3, ["resign", "y"], language)
    assert wrong not in text and right in text


# ---------------------------------------------------------------- English inside translated lines (item 10)
@pytest.mark.parametrize("language,trump,hidden", [
    ("fr", "atout 🟩 vert", "🟦 bleu et 🟨 jaune"),
    ("en", "trump 🟩G", "🟦B and 🟨Y"),
])
def test_a_colour_standing_alone_is_named_in_the_language(language, trump, hidden):
    game = rules.get_game("list_und_tuecke")
    resolved = Event("trick_resolved", {"trump": "G", "high": 1, "low": 2, "pick": 2})
    hides = Event("colors_hidden", {"seat": 1, "colors": ["B", "Y"]})
    with using(language):
        lines = narrate(game, [resolved], None, NAMES) + narrate(game, [hides], None, NAMES)
    assert lines[0].startswith(trump) and hidden in lines[1]


async def test_the_console_menu_line_mixes_no_languages_and_the_help_says_commands_are_english(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")  # the menu line on one line
    text = await _console(tmp_path, "koenig_artus", 3, ["help", "quit"], "nl")
    menu = [line for line in text.splitlines() if "resign" in line and "quit" in line and "·" in line]
    assert menu and all("nummer" not in line and "een zet" not in line for line in menu)
    assert "De commando's" in text


@pytest.mark.parametrize("language,example", [("de", "/move trumpf "), ("fr", "/move atout "), ("nl", "/move troef ")])
def test_koenig_artus_names_trump_colours_in_the_language_and_its_example_parses(language, example):
    import random
    from rules.koenig_artus.notation import parse
    game = rules.get_game("koenig_artus")
    state, rng = game.new_game(3, seed=2), random.Random(2)
    while state.phase != "trump" or len(state.view(None)["slots"]) == 6:
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    seat = state.to_act()[0]
    with using(language), reading(seat):
        text = game.text.board(state.view(seat))
        line = next(line for line in text.splitlines() if example in line)
        typed = line.split(example)[1].split(".")[0]
        assert parse(state, seat, f"{example.split()[1]} {typed}")["type"] == "choose_trump"
    assert "yellow" not in line and "green" not in line and "purple" not in line
