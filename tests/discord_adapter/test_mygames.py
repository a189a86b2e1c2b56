"""``/mygames`` on Discord: the person's games with whose turn it is, and jump links to their boards."""
from __future__ import annotations

import re

from tests.discord_adapter.fake_discord import CHANNEL_ID, GUILD_ID, OTHER_CHANNEL_ID
from tests.discord_adapter.test_discord import board, button, open_table, text


async def test_mygames_answers_privately_with_turns_and_jump_links(dc):
    api = dc.api
    _, lobby = await open_table(dc)
    await dc.click(dc.bob, lobby, button(lobby, "Join"))
    await dc.click(dc.alice, api.messages[int(lobby["id"])], button(api.messages[int(lobby["id"])], "Start"))
    game_board = board(dc)
    await dc.slash(dc.bob, "new", game="kardinal", channel_id=OTHER_CHANNEL_ID)  # Bob's lobby, not Alice's
    record = await dc.slash(dc.alice, "mygames", channel_id=OTHER_CHANNEL_ID)
    answer = dc.answers(record)
    assert len(answer) == 1 and re.match(r"Your game \(1\) — (1 waits|none waits) for you:", answer[0])
    assert re.search(r"[▶•] #1 König Artus Tafelrunde in .+ — (your turn|to act: Bob) · last move just now",
                     answer[0])
    assert "#2" not in answer[0]
    shown = api.messages[record.original_id]
    links = [c for row in shown["components"] for c in row["components"]]
    assert links == [{"type": 2, "style": 5, "disabled": False, "label": "#1 König Artus Tafelrunde",
                      "url": f"https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{game_board['id']}"}]

    record = await dc.slash(dc.carol, "mygames")  # someone without games is told how to start one
    assert "You sit in no running game" in dc.answers(record)[0]
