"""Issue 36 on Discord, the second pass: superseded boards lose their buttons, one ephemeral hand for a person
whose DMs are closed, and whole games that leave the channel clean."""
from __future__ import annotations

from tests.discord_adapter.fake_discord import FakeDiscord
from tests.discord_adapter.test_chat import two_player_game
from tests.discord_adapter.test_discord import components

text = FakeDiscord.text


def boards_shown(dc) -> list[dict]:
    return [m for m in dc.api.channel_messages() if "To act" in text(m) or "is over" in text(m)]


async def test_a_board_asked_for_again_leaves_the_old_one_without_buttons(dc):
    await two_player_game(dc)
    old = boards_shown(dc)[-1]
    assert components(old)
    await dc.slash(dc.bob, "board")
    shown = boards_shown(dc)
    assert len(shown) == 2 and shown[0]["id"] == old["id"]
    assert components(shown[0]) == [] and [c["label"] for c in components(shown[1])] == ["🂠 My hand"]
