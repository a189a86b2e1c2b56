"""Records on the console (issue #41): ``play --record FILE`` saves the record, ``replay FILE|GAME_ID`` steps
through it with typed keys; bad sources and keys are answered."""
from __future__ import annotations

import io
import json

from bot.console import play as play_console
from bot.console.replay import replay as replay_console
from bot.service.replay import Replay


async def played(tmp_path, lines: list[str], game: str = "koenig_artus") -> tuple[str, str]:
    out = io.StringIO()
    path = tmp_path / "game.json"
    code = await play_console(game, 2, 1, "", f"sqlite+aiosqlite:///{tmp_path}/console.db", False, out=out,
                              inp=io.StringIO("".join(line + "\n" for line in lines)), record=str(path))
    assert code == 0 and "Traceback" not in out.getvalue()
    return out.getvalue(), str(path)


async def stepped(tmp_path, source: str, keys: list[str], lang: str | None = None) -> tuple[str, int]:
    out = io.StringIO()
    code = await replay_console(source, f"sqlite+aiosqlite:///{tmp_path}/console.db", out=out,
                                inp=io.StringIO("".join(key + "\n" for key in keys)), lang=lang)
    assert "Traceback" not in out.getvalue()
    return out.getvalue(), code


async def test_a_finished_console_game_is_saved_and_replayed_from_its_file(tmp_path):
    text, path = await played(tmp_path, ["1"] * 600 + ["quit"])
    assert "is over" in text and "The record of game #1 is saved" in text
    record = json.loads(open(path, encoding="utf-8").read())
    assert record["audience"] == "all" and Replay(record).state(Replay(record).steps).is_over()
    shown, code = await stepped(tmp_path, path, ["", "n", "p", "5", "a", "s 2", "t", "999", "s 7", "x", "q"])
    assert code == 0
    assert "step 0 of" in shown and "step 1 of" in shown and "step 2 of" in shown and "step 5 of" in shown
    assert "seen as: everything" in shown and f"seen as: {record['players'][1]['name']}" in shown
    assert f"Steps go from 0 to {Replay(record).steps}." in shown
    assert "This record can be seen as: t, s 1, s 2, a." in shown  # "s 7": no such seat
    assert "(Enter/n next" in shown


async def test_a_running_console_game_is_replayed_by_number_as_you_knew_it(tmp_path):
    await played(tmp_path, ["1"] * 6 + ["quit"])
    shown, code = await stepped(tmp_path, "1", ["a", "6", "q"])
    assert code == 0
    assert "This record can be seen as: t, s 2." in shown or "This record can be seen as: t, s 1." in shown
    assert "step 6 of" in shown and "seen as: everything" not in shown


async def test_bad_sources_are_answered(tmp_path):
    (tmp_path / "junk.json").write_text('{"format": "something else"}')
    (tmp_path / "new.json").write_text('{"format": "herald-record", "version": 99, "players": [], "steps": []}')
    for source, reason in [(str(tmp_path / "none.json"), "No such file"), (str(tmp_path / "junk.json"),
                           "not a Herald game record"), (str(tmp_path / "new.json"), "version 99"),
                           ("42", "There is no game #42")]:
        shown, code = await stepped(tmp_path, source, ["q"])
        assert code == 2 and reason in shown
