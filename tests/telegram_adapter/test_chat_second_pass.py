"""Issue 36 on Telegram, the second pass: a group upgraded to a supergroup, a person who blocked the bot, and
the leftovers (stale buttons, readable secret moves)."""
from __future__ import annotations

import logging

from tests.telegram_adapter.conftest import ALICE, BOB, GROUP
from tests.telegram_adapter.test_chat import two_player_game, turn_lines
from tests.telegram_adapter.test_telegram import buttons, choose, mover_of

SUPER = -100500


async def play_moves(tg, count: int) -> None:
    api = tg.api
    for _ in range(count):
        mover = await mover_of(tg)
        message = api.last_with_keyboard(mover["id"])
        await tg.press(mover, mover["id"], message, choose(message))
        await tg.idle()


async def test_after_the_upgrade_to_a_supergroup_the_turn_line_and_board_follow_without_piling_up(tg, caplog):
    await two_player_game(tg)
    api = tg.api
    await api.wait_for(lambda: turn_lines(api))
    api.migrate(GROUP, SUPER)
    await tg.idle()
    caplog.set_level(logging.INFO)
    await play_moves(tg, 10)
    lines = [m for m in api.bot_messages(SUPER) if "your turn" in m["text"]]
    assert len(lines) == 1  # the newest only: none piles up in the new chat
    boards = [m for m in api.bot_messages(SUPER) if "photo" in m]
    assert len(boards) == 1
    assert not [r for r in caplog.records if "upgraded to a supergroup" in r.getMessage()]
