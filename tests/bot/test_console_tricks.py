"""Issue 37, item 2: the line closing a trick in your private box names every card of the trick — those played
before yours, yours, and those after — in every language (it said "🤖 Sir Greedy wins the trick: pawn 0 → 1."
with no card, and in French, when your card came last, no listing at all); König Artus's trick led by a Knight or
a Shield says so in the reader's language (it said "supertrump" in nl, de and fr)."""
from __future__ import annotations

import pytest

import rules
from bot import i18n
from tests.bot.console_told import told_report

WORD = {"en": "Trick", "nl": "Slag", "de": "Stich", "fr": "Pli"}


@pytest.mark.parametrize("lang", ["en", "nl", "de", "fr"])
@pytest.mark.parametrize("game,players", [("koenig_artus", 3), ("list_und_tuecke", 4)])
async def test_every_trick_is_closed_by_one_line_with_all_its_cards(tmp_path, monkeypatch, lang, game, players):
    report = await told_report(monkeypatch, f"sqlite+aiosqlite:///{tmp_path}/tricks.db", game, players, 1, "", lang)
    assert report.over
    closing = [line[2:] for line in report.text.splitlines()
               if line.startswith("│ " + WORD[lang]) and " → " in line]
    tricks = report.kinds["trick_won"] + report.kinds["trick_resolved"]
    assert tricks > 10 and len(closing) == tricks, (len(closing), tricks)
    for line in closing:
        cards = line.split(" → ")[0]
        assert cards.count(" · ") == players - 1, line  # every seat's card, the reader's own among them


@pytest.mark.parametrize("lang,word", [("en", "supertrump"), ("nl", "supertroef"), ("de", "Supertrumpf"),
                                       ("fr", "super-atout")])
def test_a_trick_led_by_a_knight_names_it_in_the_readers_language(lang, word):
    game = rules.get_game("koenig_artus")
    state = game.new_game(3, seed=1)
    view = dict(state.view(None), led="supertrump", trick=[[0, "knight-1"]])
    with i18n.using(lang):
        text = game.render_view(view)
    line = next(line for line in text.splitlines() if "🐴" in line)
    assert word in line and (lang == "en" or "supertrump" not in line), line
