"""Issue 23 commands on Discord: /resign asks with buttons only the asker sees, /log answers ephemerally and
sends the asker's private lines by DM, /help <game>."""
from __future__ import annotations

from tests.discord_adapter.fake_discord import FakeDiscord
from tests.discord_adapter.test_discord import act, components, latest_picker, open_table

text = FakeDiscord.text


async def _game(dc, game="koenig_artus"):
    await open_table(dc, game)
    await dc.slash(dc.bob, "join")
    await dc.slash(dc.alice, "start")


async def test_resign_asks_ephemerally_and_the_buttons_decide(dc):
    api = dc.api
    await _game(dc)
    record = await dc.slash(dc.bob, "resign")
    [question] = dc.answers(record)
    assert "Resign from game #1" in question
    message = api.messages[record.followups[-1] if record.followups else record.original_id]
    labels = {c["label"]: c["custom_id"] for c in components(message) if c["type"] == 2}
    assert set(labels) == {"🏳 Yes, resign", "Cancel"}
    await dc.click(dc.bob, message, labels["Cancel"])
    # the question itself becomes its answer: no buttons are left to press
    await dc.wait_for(lambda: "play on" in text(api.messages[int(message["id"])]))
    assert components(api.messages[int(message["id"])]) == []
    assert not any("resigned" in text(m) for m in api.channel_messages())
    record = await dc.slash(dc.bob, "resign")
    message = api.messages[record.followups[-1] if record.followups else record.original_id]
    labels = {c["label"]: c["custom_id"] for c in components(message) if c["type"] == 2}
    await dc.click(dc.bob, message, labels["🏳 Yes, resign"])
    await dc.wait_for(lambda: any("Bob resigned" in text(m) for m in api.channel_messages()))
    await dc.wait_for(lambda: "You resigned" in text(api.messages[int(message["id"])]))
    assert components(api.messages[int(message["id"])]) == []


async def test_resign_confirm_yes_and_log_and_help(dc):
    api = dc.api
    await _game(dc, "guyenne")
    for _ in range(4):
        mover = dc.alice if latest_picker(dc, dc.alice) else dc.bob
        await act(dc, mover, latest_picker(dc, mover))
    dms_before = len(api.dms(int(dc.alice["id"])))
    record = await dc.slash(dc.alice, "log", lines=5)
    [log] = dc.answers(record)
    assert log.startswith("📜 #1 Guyenne — the log") and log.count("\n· ") <= 5
    private = api.dms(int(dc.alice["id"]))[dms_before:]
    assert any("what only you saw" in text(m) for m in private)  # her face-down cards, by DM only
    assert not any("what only you saw" in text(m) for m in api.channel_messages())
    [helped] = dc.answers(await dc.slash(dc.carol, "help", game="kardinal"))
    assert "Kardinal in short" in helped
    await dc.slash(dc.bob, "resign", confirm="yes")
    await dc.wait_for(lambda: any("Bob resigned" in text(m) for m in api.channel_messages()))
