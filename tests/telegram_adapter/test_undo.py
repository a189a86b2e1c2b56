"""Taking moves back on Telegram (issue 42): the real python-telegram-bot against the fake Bot API — the Undo
button under the mover's own hand, the restored board and hand, a stale Undo refused as out of date, and the
Accept / Decline buttons of a takeback by consent (declined, expired, accepted)."""
from __future__ import annotations

from datetime import timedelta

from tests.telegram_adapter.conftest import ALICE, BOB, GROUP
from tests.telegram_adapter.test_telegram import buttons, choose, mover_of, open_private_chats

UNDO = "↩ Undo my move"


def undo_button(message: dict | None) -> dict | None:
    return next((b for b in buttons(message or {}) if b["text"] == UNDO), None)


async def kardinal(tg):
    tg.api.group(GROUP)
    await tg.say(ALICE, GROUP, "/new kardinal")
    await tg.say(BOB, GROUP, "/join")
    await open_private_chats(tg, ALICE, BOB)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "starts"))
    return await mover_of(tg)


async def move_once(tg, mover) -> dict:
    """The mover presses through the picker until a move is made: their hand then shows the Undo button."""
    api = tg.api
    for _ in range(12):
        message = api.last_with_keyboard(mover["id"])
        if undo_button(message):
            return message
        answer = await tg.press(mover, mover["id"], message, choose(message))
        assert not answer.get("text"), answer
        await tg.idle()
    raise AssertionError("no move was made")


async def test_the_undo_button_restores_board_and_hand_and_goes_stale(tg):
    api = tg.api
    mover = await kardinal(tg)
    await tg.idle()
    hand_before = api.last_with_keyboard(mover["id"])["text"]
    board = next(m for m in api.bot_messages(GROUP) if m["text"].startswith("#1 Kardinal"))
    board_before = board["text"]
    moved = await move_once(tg, mover)
    assert next(m for m in api.bot_messages(GROUP) if m["message_id"] == board["message_id"])["text"] != board_before
    other = BOB if mover is ALICE else ALICE
    assert not undo_button(api.last_with_keyboard(other["id"]))  # only on the mover's own hand
    stale = dict(moved, reply_markup=moved["reply_markup"])

    before = tg.snapshot()
    answer = await tg.press(mover, mover["id"], moved, undo_button(moved)["callback_data"])
    assert not answer.get("text"), answer
    told = await tg.changed(before, GROUP, "took back their last move")
    await tg.idle()
    assert sum("took back their last move" in (m.get("text") or "") for m in api.bot_messages(GROUP)) == 1
    assert told["text"].count("took back") == 1
    restored = api.last_with_keyboard(mover["id"])
    assert restored["text"] == hand_before and not undo_button(restored)  # the same view, the picker back
    board = next(m for m in api.bot_messages(GROUP) if m["message_id"] == board["message_id"])
    assert board["text"] == board_before  # the board as it was, edited back

    again = await tg.press(mover, mover["id"], stale, undo_button(stale)["callback_data"])
    assert "out of date" in again["text"]
    picker = await tg.press(mover, mover["id"], stale, choose(stale) or "p:1:1:")
    assert "out of date" in picker["text"]


async def play_turn(tg, mover):
    """The mover plays until the turn passes to the other person."""
    api = tg.api
    other = BOB if mover is ALICE else ALICE
    for _ in range(30):
        if await mover_of(tg) is other:
            return
        message = api.last_with_keyboard(mover["id"])
        await tg.press(mover, mover["id"], message, choose(message))
        await tg.idle()
    raise AssertionError("the turn did not pass")


async def test_takeback_by_consent_declined_expired_and_accepted(tg):
    api = tg.api
    first = await kardinal(tg)
    second = BOB if first is ALICE else ALICE
    await play_turn(tg, first)
    await play_turn(tg, second)
    await tg.idle()

    async def ask() -> dict:
        before = tg.snapshot()
        await tg.say(first, GROUP, "/undo")
        return await tg.changed(before, GROUP, "asks to take back")

    def answer_button(question, word):
        return next(b["callback_data"] for b in buttons(question) if word in b["text"])

    question = await ask()
    assert answer_button(question, "Accept").startswith("ty:")
    mine = await tg.press(first, GROUP, question, answer_button(question, "Accept"))
    assert "not yours" in mine["text"]
    before = tg.snapshot()
    await tg.press(second, GROUP, question, answer_button(question, "Decline"))
    declined = await tg.changed(before, GROUP, "declined")
    assert not buttons(declined)  # the question became its answer: no buttons left behind

    question = await ask()
    clock = tg.service.ctx.clock
    tg.service.ctx.clock = lambda: clock() + timedelta(minutes=11)
    try:
        before = tg.snapshot()
        await tg.press(second, GROUP, question, answer_button(question, "Accept"))
        await tg.changed(before, GROUP, "expired")
    finally:
        tg.service.ctx.clock = clock

    question = await ask()
    before = tg.snapshot()
    await tg.press(second, GROUP, question, answer_button(question, "Accept"))
    await tg.changed(before, GROUP, "By everyone")
    await tg.idle()
    assert await mover_of(tg) is first  # the turn came back to the asker, their picker with it
    assert sum("By everyone" in m["text"] for m in api.bot_messages(GROUP)) == 1  # told once
