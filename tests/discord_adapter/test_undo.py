"""Taking moves back on Discord (issue 42): the real discord.py against the fake — the Undo button in the mover's
DM, the board and hand restored, a stale Undo refused as out of date, and /undo answered by consent buttons in
the channel."""
from __future__ import annotations

from tests.discord_adapter.fake_discord import FakeDiscord
from tests.discord_adapter.test_discord import act, components, latest_picker, open_table

text = FakeDiscord.text
UNDO = "↩ Undo my move"


def undo_id(message: dict | None) -> str | None:
    return next((c["custom_id"] for c in components(message or {}) if c["type"] == 2 and c.get("label") == UNDO),
                None)


def board_text(dc) -> str:
    return next(text(m) for m in dc.api.channel_messages() if text(m).startswith("#1 Kardinal"))


async def kardinal(dc):
    await open_table(dc, "kardinal")
    await dc.slash(dc.bob, "join")
    await dc.slash(dc.alice, "start")
    await dc.wait_for(lambda: latest_picker(dc, dc.alice) or latest_picker(dc, dc.bob))
    return dc.alice if latest_picker(dc, dc.alice) else dc.bob


async def test_the_undo_button_and_a_takeback_by_consent(dc):
    api = dc.api
    mover = await kardinal(dc)
    other = dc.bob if mover is dc.alice else dc.alice
    hand_before, board_before = text(latest_picker(dc, mover)), board_text(dc)
    for _ in range(12):  # press through the picker until a move is made
        message = latest_picker(dc, mover)
        if undo_id(message):
            break
        await act(dc, mover, message)
    stale = latest_picker(dc, mover)
    assert undo_id(stale) and not undo_id(latest_picker(dc, other))
    assert board_text(dc) != board_before

    await dc.click(mover, stale, undo_id(stale))
    await dc.wait_for(lambda: any("took back their last move" in text(m) for m in api.channel_messages()))
    await dc.wait_for(lambda: text(latest_picker(dc, mover) or {"content": "", "embeds": []}) == hand_before)
    await dc.wait_for(lambda: board_text(dc) == board_before)
    assert sum("took back their last move" in text(m) for m in api.channel_messages()) == 1
    # the person who pressed Undo is at the phone: their hand is edited in place (no second ping), and the old
    # Undo button is gone from it (on Telegram a press of an old one is answered "out of date")
    shown = api.messages[int(stale["id"])]
    assert shown.get("deleted") or not undo_id(shown)

    # the mover finishes the turn, the other moves, the mover asks: the other accepts in the channel
    for _ in range(30):
        if latest_picker(dc, other):
            break
        await act(dc, mover, latest_picker(dc, mover))
    for _ in range(12):  # the other person makes one whole move (their newest hand then offers Undo)
        if undo_id(api.dms(int(other["id"]))[-1]):
            break
        await act(dc, other, latest_picker(dc, other))
    await dc.slash(mover, "undo")
    await dc.wait_for(lambda: any("asks to take back" in text(m) for m in api.channel_messages()))
    question = next(m for m in api.channel_messages() if "asks to take back" in text(m))
    accept = next(c["custom_id"] for c in components(question) if c.get("label") == "✅ Accept")
    await dc.click(other, question, accept)
    await dc.wait_for(lambda: any("By everyone" in text(m) for m in api.channel_messages()))
    await dc.wait_for(lambda: latest_picker(dc, mover) and not latest_picker(dc, other))
