"""Time banks, /away and /notify on Telegram (the real python-telegram-bot against the fake Bot API), with the
service's clock under the test's control: the banks on the board, answers in the private chat, a reminder sent
privately at its time and nothing in quiet hours."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from tests.telegram_adapter.conftest import ALICE, BOB, GROUP
from tests.telegram_adapter.test_telegram import open_private_chats
from tests.clock import Clock

EVE = datetime(2026, 10, 24, 18, 0, tzinfo=timezone.utc)  # 20:00 in Amsterdam, the night summer time ends


async def test_banks_on_the_board_away_and_notify_privately_reminder_held_in_quiet_hours(tg):
    api = tg.api
    tg.service.ctx.clock = clock = Clock(EVE)
    api.group(GROUP, "North")
    await open_private_chats(tg, ALICE, BOB)
    reply = await tg.say(ALICE, GROUP, "/notify quiet=22-8 tz=Europe/Amsterdam remind=3h every=off",
                         expect=(ALICE["id"], "Your notifications"))
    assert "quiet = 22-8" in reply["text"] and "tz = Europe/Amsterdam" in reply["text"]
    await tg.idle()
    assert not any("notifications" in m["text"] for m in api.bot_messages(GROUP))  # said privately only
    await tg.say(ALICE, GROUP, "/new toy clock=3d+12h", expect=(GROUP, "clock=3d+12h"))
    await tg.say(BOB, GROUP, "/join", expect=(GROUP, "Bob"))
    board = await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "Time left"))
    assert "Alice 3d ⏳" in board["text"] and "Bob 3d ⏳" in board["text"]
    await tg.idle()

    away = await tg.say(BOB, GROUP, "/away 2d", expect=(GROUP, "Bob is away until"))
    assert "Monday 26 October, 18:00" in away["text"]
    await tg.idle()
    mine = [m["text"] for m in api.bot_messages(BOB["id"]) if "You are away" in m["text"]]
    assert len(mine) == 1 and "12d" in mine[0]

    # Alice's reminder falls due at 21:00 UTC, 23:00 in Amsterdam: held until 08:00 there (07:00 UTC, winter time)
    before = len(api.bot_messages(ALICE["id"]))
    clock.moment = EVE + timedelta(hours=3)
    await tg.adapter.deliver(await tg.service.run_timers())
    await tg.idle()
    assert len(api.bot_messages(ALICE["id"])) == before
    clock.moment = datetime(2026, 10, 25, 7, 0, tzinfo=timezone.utc)
    await tg.adapter.deliver(await tg.service.run_timers())
    await tg.idle()
    reminders = [m["text"] for m in api.bot_messages(ALICE["id"])[before:]]
    assert len(reminders) == 1 and "waiting for your move" in reminders[0] and "2d 11h" in reminders[0]
