"""Console play end to end: the real service on a SQLite file, input from a script of typed lines."""
from __future__ import annotations

import io

from bot.console import play as play_console
from bot.console.play import YOU
from bot.service import build_service


async def run(tmp_path, lines: list[str], **kwargs) -> str:
    out = io.StringIO()
    code = await play_console(kwargs.pop("game", "toy"), kwargs.pop("players", 3), kwargs.pop("seed", 5),
                              "", f"sqlite+aiosqlite:///{tmp_path}/console.db", kwargs.pop("resume", False),
                              out=out, inp=io.StringIO("".join(line + "\n" for line in lines)))
    text = out.getvalue()
    assert "Traceback" not in text
    return text, code


async def test_full_game_by_menu_numbers(tmp_path):
    text, code = await run(tmp_path, ["1"] * 10)
    assert code == 0
    assert "🔒 only you see this" in text  # the private view is marked apart
    assert "your move>" in text
    assert "is over" in text
    service = await build_service(f"sqlite+aiosqlite:///{tmp_path}/console.db")
    try:
        assert await service.games_of(YOU, ("finished",)) == [1]
    finally:
        await service.close()


async def test_bad_input_is_answered_and_changes_nothing(tmp_path):
    text, _ = await run(tmp_path, ["banana", "99", "quit"])
    assert "⚠" in text  # the notation error
    assert "Choose a number from 1 to" in text
    assert "is saved" in text
    service = await build_service(f"sqlite+aiosqlite:///{tmp_path}/console.db")
    try:
        choices = await service.choices(YOU, game_id=1)
        assert len(choices) == 6  # still choosing 2 of 4 cards: nothing was applied
    finally:
        await service.close()


async def test_unknown_game_and_bad_player_count(tmp_path):
    text, code = await run(tmp_path, [], game="chess")
    assert code == 2 and "toy" in text
    text, code = await run(tmp_path, [], players=9)
    assert code == 2 and "players" in text


async def test_quit_then_resume_continues_the_same_game(tmp_path):
    text, _ = await run(tmp_path, ["1", "quit"])
    assert "play --resume" in text
    text, code = await run(tmp_path, ["board", "hand", "help"] + ["1"] * 6, resume=True)
    assert "Resuming game #1." in text
    assert "is over" in text and code == 0
    service = await build_service(f"sqlite+aiosqlite:///{tmp_path}/console.db")
    try:
        assert await service.games_of(YOU, ("finished",)) == [1]
        assert await service.games_of(YOU) == []
    finally:
        await service.close()


async def test_resume_without_a_game(tmp_path):
    text, code = await run(tmp_path, [], resume=True)
    assert code == 2 and "No game of yours to resume" in text
