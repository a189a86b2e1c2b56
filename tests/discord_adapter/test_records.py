"""Records and replays on Discord (issue #41): /record sends two attachments by DM, /replay posts a step whose
buttons edit it in place (also after a restart), bad input gets a clear answer."""
from __future__ import annotations

import json

from bot.service.replay import Replay
from tests.discord_adapter.fake_discord import FakeDiscord
from tests.discord_adapter.test_discord import button, open_table, play_to_the_end

text = FakeDiscord.text


async def finished_game(dc) -> None:
    """Alice plays a game of Mit List und Tücke against three AIs to the end (game #1)."""
    await open_table(dc, game="list_und_tuecke")
    for _ in range(3):
        await dc.slash(dc.alice, "addai")
    await dc.slash(dc.alice, "start")
    await play_to_the_end(dc, [dc.alice])


def replays(dc) -> list[dict]:
    return [m for m in dc.api.channel_messages() if "📼" in text(m)]


async def test_record_arrives_by_dm_as_two_files(dc):
    await finished_game(dc)
    record = await dc.slash(dc.bob, "record", table=1)
    assert any("I sent you the record of game #1 privately" in a for a in dc.answers(record))
    await dc.idle()
    sent = [m for m in dc.api.dms(int(dc.bob["id"])) if m["attachments"]]
    assert len(sent) == 1 and "every hidden card shown" in text(sent[0])
    files = {a["filename"]: a["data"] for a in sent[0]["attachments"]}
    assert sorted(files) == ["herald-game-1.json", "herald-game-1.txt"]
    assert not [m for m in dc.api.channel_messages() if m["attachments"] and "herald-game" in
                m["attachments"][0]["filename"]]  # nothing of it in the channel
    whole = json.loads(files["herald-game-1.json"])
    assert whole["audience"] == "all" and Replay(whole).state(Replay(whole).steps).is_over()
    assert "As Alice saw it:" in files["herald-game-1.txt"].decode()


async def test_replay_buttons_edit_in_place_and_work_after_a_restart(dc):
    await finished_game(dc)
    await dc.slash(dc.bob, "replay", table=1, step=2)
    [shown] = replays(dc)
    assert "step 2 of" in text(shown) and "seen as: the table" in text(shown)
    assert shown["attachments"] and shown["attachments"][0]["filename"].endswith(".png")
    forward = button(shown, "▶")
    await dc.click(dc.carol, shown, forward)
    [edited] = replays(dc)
    assert edited["id"] == shown["id"] and "step 3 of" in text(edited) and edited["edits"] >= 1
    await dc.stop_bot()
    await dc.start_bot()  # a new process: the old message's buttons still step
    await dc.click(dc.alice, edited, button(edited, "🔓 All"))
    [everything] = replays(dc)
    assert everything["id"] == shown["id"] and "seen as: everything" in text(everything)
    assert "— Alice —" in text(everything)


async def test_bad_replays_are_answered_clearly(dc):
    await finished_game(dc)
    record = await dc.slash(dc.bob, "replay", table=1, step=9999)
    assert any("there is no step 9999" in a for a in dc.answers(record))
    record = await dc.slash(dc.bob, "replay", table=77)
    assert any("There is no game #77" in a for a in dc.answers(record))
    record = await dc.slash(dc.bob, "replay", table=1, seat="9")
    assert any("There is no seat 9" in a for a in dc.answers(record))
    assert not replays(dc)


async def test_record_to_closed_dms_is_told_and_then_refused_clearly(dc):
    """Bob's DMs are closed: the first /record cannot arrive and the channel is told; asked again, the answer
    says so at once instead of claiming it was sent."""
    await finished_game(dc)
    dc.api.closed_dms.add(int(dc.bob["id"]))
    await dc.slash(dc.bob, "record", table=1)
    await dc.idle()
    [told] = [text(m) for m in dc.api.channel_messages() if "I cannot send private messages to Bob" in text(m)]
    assert "then ask again" in told and "/hand" not in told  # Bob has no hand in the game: no talk of one
    again = await dc.slash(dc.bob, "record", table=1)
    said = dc.answers(again)
    assert any("I did not send the record of game #1" in a for a in said)
    assert not any("I sent you the record" in a for a in said)
    assert not [m for m in dc.api.messages.values() if m.get("attachments") and "herald-game" in
                m["attachments"][0]["filename"]]
