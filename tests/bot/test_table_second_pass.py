"""Issue 37, read again at the table (the console, whole games in four languages): what a player still read wrong."""
from __future__ import annotations

import io

import pytest

from bot.console import play as play_console


async def _console(tmp_path, game, players, lines, lang):
    out = io.StringIO()
    await play_console(game, players, 5, "", f"sqlite+aiosqlite:///{tmp_path}/c.db", False, out=out,
                       inp=io.StringIO("".join(line + "\n" for line in lines)), lang=lang)
    return out.getvalue()


@pytest.mark.parametrize("game,players", [("koenig_artus", 3), ("kardinal", 3), ("troubadour", 3)])
async def test_dutch_never_says_jij_is_aan_de_beurt(tmp_path, game, players):
    """'Jij is aan de beurt' (item 4 of the issue) was still printed: the Dutch line put the reader's name 'Jij'
    before a third-person verb. It reads 'aan de beurt: Jij' now, whoever it names."""
    text = await _console(tmp_path, game, players, ["1"] * 12 + ["board", "quit"], "nl")
    assert "aan de beurt: Jij" in text.replace("Aan de beurt: Jij", "aan de beurt: Jij")
    assert "Jij is aan de beurt" not in text


async def test_your_own_turn_is_said_once_in_your_view(tmp_path):
    """König Artus said 'You to play.' above 'Your turn: e.g. /move R1' in your own view."""
    text = await _console(tmp_path, "koenig_artus", 3, ["1"] * 3 + ["quit"], "en")
    boxes = text.split("┌─")[1:]
    mine = [box for box in boxes if "Your turn" in box]
    assert mine and not any("You to play." in box for box in mine)


async def test_the_rules_keep_their_table_rows_apart_from_the_paragraph_below(tmp_path, monkeypatch):
    """Guyenne's rules on the console joined 'Teams (3–4 players, …' onto the table row above it: '… name who
    opens Teams (3–4 players,'."""
    monkeypatch.setenv("COLUMNS", "100")
    text = await _console(tmp_path, "guyenne", 2, ["rules", "quit"], "en")
    assert "name who opens Teams" not in text and "\nTeams (3–4 players, mode=teams)" in text
    assert "\nTwo sets (3–4 players, mode=two_sets)" in text


def test_a_fitted_line_never_starts_with_french_punctuation_or_splits_an_example():
    """French lines broke before ' :' ('→ atout 🟦 bleu\\n   : Sire Glouton …'), inside 'p. ex.', between
    '/move' and its move, and between a colour's square and its name."""
    from bot.console.screen import fit
    line = ("│ Pli : 🤖 Baron Magot 🟦B12 · 🤖 Dame Rafle 🟨Y8 · toi 🟥R4 · 🤖 Sire Glouton 🟨Y1 → atout "
            "🟦 bleu : 🤖 Baron Magot a la plus haute carte et en choisit 2, la plus basse : 🤖 Sire Glouton. "
            "(tape p. ex. /move R2)")
    for columns in range(40, 120):
        lines = fit(line, columns).split("\n")
        assert " ".join(part.lstrip("│ ").strip() for part in lines) == line.lstrip("│ ")
        for part in lines[1:]:
            body = part.lstrip("│ ")
            assert not body.startswith((":", ";", "ex.", "R2)", "bleu")), (columns, lines)


def test_french_puts_its_space_before_the_colon_of_a_tie_break():
    """'🤖 Sire Glouton K♠ vs 🤖 Dame Rafle J♠: …' lacked French's space before ':'."""
    import rules
    from bot.i18n import using
    from bot.service.narration import narrate
    from rules.api import Event

    rules.load_games()
    event = Event("rps_revealed", {"seats": [1, 2], "nobles": ["KS", "JS"], "first": 1, "games": 1})
    with using("fr"):
        line = narrate(rules.get_game("troubadour"), [event], 0, ["Ann", "Bob", "Cy"])[0]
    assert line.startswith("Bob K♠ vs Cy J♠ : Bob joue avant Cy"), line
    english = narrate(rules.get_game("troubadour"), [event], 0, ["Ann", "Bob", "Cy"])[0]
    assert english.startswith("Bob K♠ vs Cy J♠: "), english


async def test_kardinal_confirms_your_build_above_the_board_it_led_to(tmp_path, monkeypatch):
    """The console printed the new town first and 'You build a 🟦 blue house at L13.' under it (between the board
    and the menu): what happened comes first, then the table it left."""
    monkeypatch.setenv("COLUMNS", "200")  # whole lines
    text = await _console(tmp_path, "kardinal", 3, ["1", "1", "quit"], "en")
    built = text.index("📢 You build a 🟦 blue house at L13.")
    assert "📢 Kardinal ·" in text[built:] and "Last built: 🟦 blue house" in text[built:]
    assert "Last built: 🟦 blue house" not in text[:built]
