"""The console on a real terminal (issue 37, item 6): text fitted to the terminal's width at spaces, never inside
a word; Ctrl-C quits at once, without waiting for Enter."""
from __future__ import annotations

import io
import os
import signal
import subprocess
import sys

import pytest

from bot import i18n
from bot.console import play as play_console
from bot.console.screen import cells, fit
from bot.console.words import HELP


async def _console(tmp_path, lines, lang="en", game="troubadour", players=3):
    out = io.StringIO()
    await play_console(game, players, 1, "", f"sqlite+aiosqlite:///{tmp_path}/c.db", False, out=out,
                       inp=io.StringIO("".join(line + "\n" for line in lines)), lang=lang)
    return out.getvalue()


@pytest.mark.parametrize("columns", [80, 100])
@pytest.mark.parametrize("lang", ["en", "de"])
async def test_every_line_fits_the_terminal_and_no_word_is_cut(tmp_path, monkeypatch, columns, lang):
    monkeypatch.setenv("COLUMNS", str(columns))
    text = await _console(tmp_path, ["help", "1", "log", "quit"], lang)
    for line in text.splitlines():
        assert cells(line.removeprefix(_prompt(lang))) <= columns or " " not in line.strip(), line
    with i18n.using(lang):
        help_text = i18n.translate(HELP)
    start = text.index(help_text.split()[0] + " " + help_text.split()[1])
    printed = text[start:].split()[:len(help_text.split())]
    assert printed == help_text.split()  # the same words, none broken in two


def _prompt(lang: str) -> str:
    with i18n.using(lang):
        return i18n._("your move> ")


def test_fit_cuts_at_spaces_and_indents_the_continuation():
    line = "│ · Trick: 🤖 Sir Greedy 🟩G6 · 🤖 Baron Hoard 🟨Y2 · 🤖 Lady Grasp 🟥R3 · You 🟩G12 → you win"
    fitted = fit(line, 40).splitlines()
    assert all(cells(part) <= 40 for part in fitted)
    assert all(part.startswith("│ ") for part in fitted)
    assert " ".join(" ".join(fitted).replace("│", "").split()) == " ".join(line.replace("│", "").split())
    assert fit("a" * 50 + " b", 20).splitlines() == ["a" * 50, "  b"]  # a long word stays whole


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child")
def test_ctrl_c_quits_while_waiting_for_a_line(tmp_path):
    env = dict(os.environ, COLUMNS="100")
    proc = subprocess.Popen([sys.executable, "-m", "bot", "play", "kardinal", "--players", "2", "--seed", "1",
                             "--db", str(tmp_path / "c.db")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=env)
    seen = b""
    while b"your move>" not in seen:
        chunk = proc.stdout.read1(4096)
        assert chunk, seen.decode(errors="replace")
        seen += chunk
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=120)  # stdin stays open: no Enter is ever typed
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("Ctrl-C did not quit the console while it waited for a line")
    finally:
        proc.stdin.close()
    rest = proc.stdout.read()
    assert b"Traceback" not in rest
    assert b"saved" in rest


# ---------------------------------------------------------------- the language of a console game (item 5)
async def _play(tmp_path, lines, **kwargs):
    out = io.StringIO()
    await play_console(kwargs.pop("game", "koenig_artus"), 3, 1, "", f"sqlite+aiosqlite:///{tmp_path}/c.db",
                       kwargs.pop("resume", False), out=out,
                       inp=io.StringIO("".join(line + "\n" for line in lines)), **kwargs)
    return out.getvalue()


async def test_a_resumed_game_keeps_its_language_and_its_ai_names(tmp_path):
    dutch = await _play(tmp_path, ["quit"], lang="nl")
    assert "Vrouwe Graai" in dutch and "Taal: Nederlands" in dutch  # the choice is said, and that it is remembered
    english = await _play(tmp_path, ["quit"], lang="en")
    assert "Lady Grasp" in english and "Vrouwe Graai" not in english
    first = await _play(tmp_path, ["quit"], resume=True, game_id=1)  # started in Dutch, after an English game
    assert "Spel #1 gaat verder." in first and "Vrouwe Graai" in first and "Lady Grasp" not in first
    second = await _play(tmp_path, ["quit"], resume=True, game_id=2, lang="de")  # --lang does not rename it
    assert "Resuming game #2." in second and "Lady Grasp" in second and "Dame Griff" not in second


async def test_a_remembered_language_is_said_when_a_new_game_starts(tmp_path):
    await _play(tmp_path, ["quit"], lang="de")
    later = await _play(tmp_path, ["quit"])
    assert later.splitlines()[0].startswith("Sprache: Deutsch, gemerkt")
    assert "Dame Griff" in later
