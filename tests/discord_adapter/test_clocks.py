"""Time banks, /away and /notify on Discord (the real discord.py against the fake Discord), with the service's
clock under the test's control: the banks on the board, /notify and /away answered privately, a reminder DM'd
at its time and nothing in quiet hours."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from tests.discord_adapter.test_discord import board, button, open_table, text
from tests.clock import Clock

EVE = datetime(2026, 10, 24, 18, 0, tzinfo=timezone.utc)  # 20:00 in Amsterdam, the night summer time ends


async def fire_timers(dc) -> None:
    await dc.bot.adapter.deliver(await dc.service.run_timers())
    await dc.idle()


async def test_banks_on_the_board_away_and_notify_privately_reminder_dmd_in_its_time(dc):
    api = dc.api
    dc.service.ctx.clock = clock = Clock(EVE)
    alice = int(dc.alice["id"])
    record = await dc.slash(dc.alice, "notify", change="quiet=22-8 tz=Europe/Amsterdam remind=2h every=off")
    assert any("quiet = 22-8" in text(m) for m in api.dms(alice)), dc.answers(record)
    assert not any("notifications" in text(m) for m in api.channel_messages())
    _, lobby = await open_table(dc, game="toy", options="clock=1d+1h")
    assert "clock=1d+1h" in text(lobby)
    await dc.click(dc.bob, lobby, button(lobby, "Join"))
    lobby = api.messages[int(lobby["id"])]
    await dc.click(dc.alice, lobby, button(lobby, "Start"))
    shown = text(board(dc))
    ends = int((EVE + timedelta(days=1)).timestamp())  # the running banks: Discord's own countdown to their end
    assert "Time left: " in shown and f"Alice <t:{ends}:R> ⏳" in shown and f"Bob <t:{ends}:R> ⏳" in shown
    clock.moment = EVE + timedelta(minutes=5)
    mine = dc.answers(await dc.slash(dc.alice, "mygames"))  # her running bank, counting down by itself
    assert len(mine) == 1 and f"your time bank: <t:{ends}:R> ⏳" in mine[0], mine
    clock.moment = EVE

    record = await dc.slash(dc.bob, "away", time="12h")
    assert any("You are away" in text(m) for m in api.dms(int(dc.bob["id"])))
    told = [text(m) for m in api.channel_messages() if "is away" in text(m)]
    assert len(told) == 1 and "Bob is away until Sunday 25 October, 06:00 (UTC)" in told[0]

    # Alice's reminder: due at 20:00 UTC (22:00 in Amsterdam, quiet): nothing; at 07:00 UTC the next day: a DM
    before = len(api.dms(alice))
    clock.moment = EVE + timedelta(hours=2)
    await fire_timers(dc)
    assert len(api.dms(alice)) == before
    clock.moment = datetime(2026, 10, 25, 7, 0, tzinfo=timezone.utc)
    await fire_timers(dc)
    reminders = [text(m) for m in api.dms(alice)[before:]]
    assert len(reminders) == 1 and "waiting for your move" in reminders[0]


async def test_quiet_hours_without_a_zone_ask_for_it_once_and_a_tap_saves_it(dc):
    api = dc.api
    alice = int(dc.alice["id"])
    await dc.slash(dc.alice, "notify", change="quiet=23-7")
    asked = [m for m in api.dms(alice) if "Which time zone" in text(m)]
    assert len(asked) == 1 and "quiet = 23-7" in text(asked[0])
    await dc.click(dc.alice, asked[0], button(asked[0], "Europe/Berlin"))
    assert any("tz = Europe/Berlin" in text(m) and "✅" in text(m) for m in api.dms(alice)[-2:])
    await dc.slash(dc.alice, "notify", change="quiet=22-7")
    assert len([m for m in api.dms(alice) if "Which time zone" in text(m)]) == 1  # asked once
