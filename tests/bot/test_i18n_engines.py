"""The engines in every language (issue 26): each language writes its own line for the reader's own action
(``rules.lang.mine`` in a ``reading`` scope, no English grammar applied to Dutch), notation aliases where they are
unambiguous, refusals whose examples parse in the reader's words, and catalogs with every message translated."""
from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import rules
import rules.lang
from bot.i18n import using
from bot.service.narration import final_result_lines, narrate
from rules.api import Event, IllegalAction
from rules.lang import N_, mine, reading

LOCALE = Path(__file__).resolve().parents[2] / "bot" / "locale"
rules.load_games()


def test_mine_speaks_to_the_reader_and_of_everybody_else():
    other, own = N_("{who} plays {card}."), N_("You play {card}.")
    assert mine(0, other, own, card="R9") == "{P1} plays R9."  # nobody reading: the public channel
    with reading(0):
        assert mine(0, other, own, card="R9") == "You play R9."
        assert mine(1, other, own, card="R9") == "{P2} plays R9."
        with using("nl"):
            assert mine(0, other, own, card="R9") == "Je speelt R9."
            assert mine(1, other, own, card="R9") == "{P2} speelt R9."
    assert mine(0, other, own, card="R9") == "{P1} plays R9."


def test_narration_speaks_to_its_reader_in_its_language():
    game = rules.get_game("koenig_artus")
    events = [Event("card_played", {"seat": 0, "card": "red-9"}), Event("card_played", {"seat": 1, "card": "red-3"}),
              Event("trick_won", {"seat": 0, "from": 0, "to": 1})]
    names = ["Ann", "Bob"]
    assert narrate(game, events, 0, names) == ["Trick: You 🟥R9 · Bob 🟥R3 → you win the trick: pawn 0 → 1."]
    assert narrate(game, events, None, names) == ["Trick: Ann 🟥R9 · Bob 🟥R3 → Ann wins the trick: pawn 0 → 1."]
    with using("nl"):
        assert narrate(game, events, 0, names) == ["Slag: jij 🟥R9 · Bob 🟥R3 → je wint de slag: spelfiguur 0 → 1."]
        assert narrate(game, events[2:], 1, names) == ["Ann wint de slag: spelfiguur 0 → 1."]
        assert narrate(game, events[:1], 0, names, condense=False) == ["Je speelt 🟥R9."]
        assert final_result_lines(game, [27, 4], [1, 2], names, viewer=1) == ["1. Ann — 27 velden", "2. Jij — 4 velden"]


def test_a_private_view_speaks_to_its_seat_in_its_language():
    """(Kardinal: Guyenne's own view no longer repeats its phase line above "Your move — …", issue 23.)"""
    game = rules.get_game("kardinal")
    state = game.new_game(2, seed=3)
    seat = state.to_act()[0]
    with using("nl"):
        own = game.render_view(state.view(seat))
        public = game.render_view(state.view(None))
    assert "Je moet bouwen. Mogelijke bouwplaatsen:" in own
    assert f"{{P{seat + 1}}} moet bouwen. Mogelijke bouwplaatsen:" in public
    assert "You must build." in game.render_view(state.view(seat))  # English as before


@pytest.mark.parametrize("game,typed,english", [
    ("kardinal", "M14 rood huis", "M14 red house"),
    ("kardinal", "m14 groen hof oost", "m14 green courtyard east"),
    ("kardinal", "M14 rotes Haus", "M14 red house"),  # inflected, as the German board writes it
    ("kardinal", "m14 tour bleue", "m14 blue tower"),
    ("kardinal", "M14 paars huis", None),  # not a colour in any language: refused, not guessed
    ("koenig_artus", "rood-7", "red-7"),
    ("koenig_artus", "z7", "K7"),  # Dutch z(wart): the one local initial that clashes with none
    ("koenig_artus", "ridder", "knight"),
    ("koenig_artus", "rote-7", "red-7"),  # "die rote 7", as the German texts say it
    ("list_und_tuecke", "verberg blauw geel", "hide B Y"),
    ("list_und_tuecke", "cache bleue jaune", "hide B Y"),
])
def test_local_words_are_aliases_of_the_notation(game, typed, english):
    g = rules.get_game(game)
    state = g.new_game(g.min_players, seed=1)
    seat = state.to_act()[0]
    if english is None:
        with pytest.raises(IllegalAction):
            g.parse_action(state, seat, typed)
        return
    try:
        expected = g.parse_action(state, seat, english)
    except IllegalAction as refused:  # the state refuses it (wrong phase): the alias must be refused alike
        with pytest.raises(IllegalAction):
            g.parse_action(state, seat, typed)
        assert str(refused)
        return
    assert g.parse_action(state, seat, typed) == expected


@pytest.mark.parametrize("lang", ["nl", "de", "fr"])
def test_every_kardinal_building_as_the_board_names_it_is_a_move(lang):
    """A player copies what the board shows ("rotes Haus", "tour bleue"): it must read as that building."""
    from rules.kardinal.names import BUILDINGS

    game = rules.get_game("kardinal")
    state = game.new_game(2, seed=1)
    seat = state.to_act()[0]
    for (colour, kind), (name, _with_article) in BUILDINGS.items():
        with using(lang):
            shown = rules.lang.translate(name)
        assert shown != name, (lang, name)  # translated, so this checks the local words
        where = " N14" if kind == "courtyard" else ""  # a courtyard covers two cells
        typed = game.parse_action(state, seat, f"M14 {shown}{where}")
        assert typed == game.parse_action(state, seat, f"M14 {colour} {kind}{where}"), (lang, shown)


def test_kardinal_trump_and_colour_words_that_would_clash_are_not_aliases():
    from rules.kardinal.notation import COLOUR_WORDS, KIND_WORDS
    from rules.koenig_artus.cards import COLOUR_WORDS as ARTUS_COLOURS

    assert COLOUR_WORDS["g"] == 2 and "geel" in COLOUR_WORDS  # g stays green; geel only as a whole word
    assert KIND_WORDS["h"] == 0 and KIND_WORDS["hof"] == 2  # h stays house; hof only as a whole word
    assert ARTUS_COLOURS["g"] == "green" and ARTUS_COLOURS["z"] == "black"


def test_refusals_show_examples_that_parse_in_the_readers_words():
    game = rules.get_game("kardinal")
    state = game.new_game(2, seed=1)
    seat = state.to_act()[0]
    with using("nl"), pytest.raises(IllegalAction) as refused:
        game.parse_action(state, seat, "M14 paars huis")
    text = str(refused.value)
    assert text.startswith("Ik begrijp 'paars' niet.")
    example = text.split("`")[1]
    assert any(word in example.split() for word in ("rood", "geel", "groen", "blauw"))
    assert game.parse_action(state, seat, example)["type"] == "build"  # the Dutch example is a move
    with pytest.raises(IllegalAction) as english:
        game.parse_action(state, seat, "M14 purple house")
    assert "`" in str(english.value) and "rood" not in str(english.value)


@pytest.mark.parametrize("lang", ["nl", "de", "fr"])
def test_every_message_of_the_catalog_is_translated(lang):
    """Walks the catalog itself (test_i18n walks the code): no entry empty or fuzzy, plurals complete."""
    with open(LOCALE / lang / "LC_MESSAGES" / "herald.po", "rb") as handle:
        catalog = read_po(handle, locale=lang)
    missing = [m.id for m in catalog if m.id and (m.fuzzy or not all(
        m.string if isinstance(m.string, tuple) else [m.string]))]
    assert not missing, f"{len(missing)} untranslated in {lang}, e.g. {missing[:5]}"
