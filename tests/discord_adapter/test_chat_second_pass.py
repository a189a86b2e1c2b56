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


def hands_shown(dc, person) -> list[dict]:
    return [m for m in dc.api.ephemerals(int(person["id"])) if "your view" in text(m)]


async def test_a_person_with_closed_dms_keeps_one_ephemeral_hand(dc):
    api = dc.api
    api.closed_dms.add(int(dc.bob["id"]))
    await two_player_game(dc)
    for _ in range(3):
        record = await dc.slash(dc.bob, "hand")
        newest = api.messages[record.original_id]
        assert "your view" in text(newest) and "allow direct messages" in text(newest)  # the way to get DMs
        assert hands_shown(dc, dc.bob) == [newest]  # the older ones went
    for record in api.interactions.values():  # 15 minutes later: the older tokens are no longer valid
        record.created -= 1000
    for _ in range(2):
        record = await dc.slash(dc.bob, "hand")
        await dc.idle()
    assert len(hands_shown(dc, dc.bob)) == 2  # the one of the expired token stays …
    told = [m for m in api.ephemerals(int(dc.bob["id"])) if "out of date" in text(m)]
    assert len(told) == 1  # … and Bob is told so once
