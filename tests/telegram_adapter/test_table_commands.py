"""Issue 23/22 commands on Telegram: /resign asks first (buttons, /resign yes), /help <game>, /log."""
from __future__ import annotations

from tests.telegram_adapter.conftest import ALICE, BOB, GROUP
from tests.telegram_adapter.test_telegram import buttons, open_private_chats


async def _game(tg):
    tg.api.group(GROUP)
    await tg.say(ALICE, GROUP, "/new kardinal")
    await tg.say(BOB, GROUP, "/join")
    await open_private_chats(tg, ALICE, BOB)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "To act"))


async def test_resign_asks_with_buttons_cancel_keeps_the_seat_and_yes_resigns(tg):
    api = tg.api
    await _game(tg)
    question = await tg.say(BOB, GROUP, "/resign", expect=(GROUP, "Resign from game"))
    yes, cancel = buttons(question)
    assert yes["callback_data"].startswith("r:") and cancel["callback_data"].startswith("rc:")
    assert not any("resigned" in m["text"] for m in api.bot_messages(GROUP))
    foreign = await tg.press(ALICE, GROUP, question, yes["callback_data"])
    assert "someone else" in foreign["text"]
    before = tg.snapshot()
    await tg.press(BOB, GROUP, question, cancel["callback_data"])
    answered = await tg.changed(before, GROUP, "play on")
    # the question itself (edited, not a new message) becomes its answer: no buttons are left to press
    assert answered["message_id"] == question["message_id"] and not buttons(answered)
    question = await tg.say(BOB, GROUP, "/resign", expect=(GROUP, "Resign from game"))
    yes, cancel = buttons(question)
    before = tg.snapshot()
    await tg.press(BOB, GROUP, question, yes["callback_data"])
    await tg.changed(before, GROUP, "Bob resigned")
    answered = await tg.changed(before, GROUP, "You resigned")
    assert answered["message_id"] == question["message_id"] and not buttons(answered)
    await tg.idle()


async def test_resign_yes_skips_the_question_and_help_names_the_game(tg):
    await _game(tg)
    reply = await tg.say(ALICE, GROUP, "/help", expect=(GROUP, "Kardinal in short"))
    assert "Game #1" in reply["text"]
    await tg.say(ALICE, GROUP, "/help troubadour", expect=(GROUP, "Troubadour in short"))
    await tg.say(BOB, GROUP, "/resign yes", expect=(GROUP, "Bob resigned"))
    await tg.idle()
