"""Time banks (``clock=`` at /new, ``bot/service/clocks.py``) on a real SQLite file, with the toy game and a
controllable clock (``ctx.clock``): no sleeps."""
from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta, timezone

import pytest

from bot.service import ChatRef, UserRef, build_service, clocks, commands as c
from storage import UnitOfWork
from tests.clock import Clock

CHAT = ChatRef("discord", "chan1", "guild1", "general")
ALICE = UserRef("discord", "1", "Alice")
BOB = UserRef("discord", "2", "Bob")
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
H = 3600


@pytest.fixture
async def service(database_url):
    svc = await build_service(database_url)
    svc.ctx.clock = Clock(T0)
    yield svc
    await svc.close()


async def row_of(service, gid):
    async with UnitOfWork(service.db) as uow:
        return await uow.games.get(gid)


async def seats(service, gid) -> dict[str, int]:
    row = await row_of(service, gid)
    return {s.player.external_id: s.seat for s in row.seats if s.player}


async def banks(service, gid) -> dict[int, float]:
    return {int(k): v for k, v in (await row_of(service, gid)).clocks["left"].items()}


async def clocked_game(service, clock="1d+1h", seed=7):
    lobby = await service.create_lobby(CHAT, ALICE, "toy", f"clock={clock}", seed=seed)
    gid = lobby[0].game_id
    assert "clock=" + clock in lobby[0].text
    await service.join(CHAT, BOB)
    started = await service.start(CHAT, ALICE)
    return gid, started


async def keep(service, gid, user, chat=CHAT):
    row = await row_of(service, gid)
    hand = row.state["hands"][(await seats(service, gid))[user.id]]
    out = await service.act(chat, user, f"keep {hand[0]} {hand[1]}", game_id=gid)
    assert not [m for m in out if m.kind == "error"], out
    return out


async def test_simultaneous_phase_charges_everyone_and_increments_cap(service):
    gid, started = await clocked_game(service)
    board = [m for m in await service.finish(started) if m.kind == "board"][-1]
    assert "Time left: " in board.text and "1d ⏳" in board.text  # both banks full, both running
    seat = await seats(service, gid)
    a, b = seat["1"], seat["2"]
    service.ctx.clock.at(2)
    await keep(service, gid, ALICE)
    left = await banks(service, gid)
    assert left[a] == 86400 - 2 * H + H  # charged 2h, then the increment
    assert left[b] == 86400 - 2 * H  # Bob's bank ran too: both had to act at once
    service.ctx.clock.at(5)
    out = await keep(service, gid, BOB)
    left = await banks(service, gid)
    assert left[a] == 86400 - H  # not charged while Bob chose
    assert left[b] == 86400 - 5 * H + H
    row = await row_of(service, gid)
    to_act = row.clocks["charged"]
    assert len(to_act) == 1
    board = [m for m in await service.finish(out) if m.kind == "board"][-1]
    assert "23h" in board.text and "20h" in board.text


async def test_bank_only_runs_on_its_turn_and_is_capped(service):
    gid, _ = await clocked_game(service, "2h+1h")
    seat = await seats(service, gid)
    service.ctx.clock.at(0.5)
    await keep(service, gid, ALICE)
    await keep(service, gid, BOB)
    left = await banks(service, gid)
    assert left[seat["1"]] == min(4 * H, 2 * H - 0.5 * H + H)
    row = await row_of(service, gid)
    (first,) = row.clocks["charged"]
    other = 1 - first
    before = left[other]
    service.ctx.clock.at(1.5)
    user = ALICE if seat["1"] == first else BOB
    card = row.state["kept"][first][0]
    await service.act(CHAT, user, f"play {card}", game_id=gid)
    left = await banks(service, gid)
    assert left[other] == before  # waiting for another's move costs nothing
    assert left[first] == min(4 * H, (2 * H - 0.5 * H + H) - H + H)  # the cap: twice the bank at most


async def test_bank_at_zero_plays_the_ai_then_takes_over(service):
    gid, _ = await clocked_game(service, "1h")
    seat = await seats(service, gid)
    service.ctx.clock.at(0.25)
    await keep(service, gid, ALICE)  # Alice chose: Bob's bank runs on
    async with UnitOfWork(service.db) as uow:
        timers = {(t.seat, t.kind): t.due_at for t in await uow.timers.of_game(gid)}
    assert (seat["2"], "bank") in timers
    assert await service.run_timers(service.ctx.clock.at(0.9)) == []
    out = await service.run_timers(service.ctx.clock.at(1.0))
    assert any("bank ran out" in m.text and "Bob" in m.text for m in out if m.kind == "notice")
    row = await row_of(service, gid)
    assert row.clocks["outs"] == {str(seat["2"]): 1}
    assert not next(s for s in row.seats if s.seat == seat["2"]).resigned
    # the play phase: whoever is to act; run every bank out until Bob's second turn in a row has timed out
    for hours in range(2, 12):
        row = await row_of(service, gid)
        if row.status != "active" or next(s for s in row.seats if s.seat == seat["2"]).resigned:
            break
        (first,) = row.clocks["charged"]
        if first == seat["1"]:
            card = row.state["kept"][first][0]
            service.ctx.clock.at(hours)
            await service.act(CHAT, ALICE, f"play {card}", game_id=gid)
        else:
            out = await service.run_timers(service.ctx.clock.at(hours + 0.99))
    row = await row_of(service, gid)
    bob = next(s for s in row.seats if s.seat == seat["2"])
    assert bob.resigned  # an AI plays the seat for good
    assert any("second turn in a row" in m.text for m in out)


OTHER = ChatRef("discord", "chan2", "guild1", "other")


async def game_in(service, chat, clock="1d+1h", seed=7):
    lobby = await service.create_lobby(chat, ALICE, "toy", f"clock={clock}", seed=seed)
    gid = lobby[0].game_id
    await service.join(chat, BOB, game_id=gid)
    await service.start(chat, ALICE, game_id=gid)
    return gid


async def test_away_stops_the_banks_in_every_game_and_tells_each_table_once(service):
    first = await game_in(service, CHAT)
    second = await game_in(service, OTHER)
    service.ctx.clock.at(1)
    out = await service.away(CHAT, ALICE, "10h")
    notices = [m for m in out if m.kind == "notice" and m.chat is not None]
    assert sorted(m.chat.id for m in notices) == ["chan1", "chan2"]
    assert all("Alice is away until Monday 2 March, 20:00 (UTC)" in m.text for m in notices)
    private = [m for m in out if m.is_private]
    assert len(private) == 1 and "You are away" in private[0].text and "13d 14h" in private[0].text
    service.ctx.clock.at(20)
    await keep(service, first, ALICE)
    await keep(service, second, BOB, OTHER)
    for gid in (first, second):
        seat = await seats(service, gid)
        left = await banks(service, gid)
        row = await row_of(service, gid)
        if gid == first:
            assert left[seat["1"]] == 86400 - 10 * H + H  # 20h charged, 10h of them away
        else:
            assert seat["1"] in row.clocks["charged"]
            async with UnitOfWork(service.db) as uow:
                player = await uow.players.find("discord", "1")
            assert clocks.remaining(row.clocks, seat["1"], T0 + timedelta(hours=20),
                                    clocks.periods_of(player.notify)) == 86400 - 10 * H
            assert left[seat["2"]] == 86400 - 20 * H + H  # Bob was not away


async def test_away_allowance_holds(service):
    assert "You are away" in (await service.away(CHAT, ALICE, "10d"))[-1].text
    service.ctx.clock.at(48)
    refused = await service.away(CHAT, ALICE, "13d")
    assert refused[0].kind == "error" and "14d" in refused[0].text and "12d" in refused[0].text
    assert "You are away" in (await service.away(CHAT, ALICE, "12d"))[-1].text
    assert (await service.away(CHAT, ALICE, "15d"))[0].kind == "error"
    assert (await service.away(CHAT, ALICE, "soon"))[0].kind == "error"
    service.ctx.clock.at(50)
    assert "Welcome back" in (await service.back(CHAT, ALICE))[-1].text
    assert (await service.back(CHAT, ALICE))[0].kind == "error"


async def test_away_delays_the_bank_timer_and_back_brings_it_forward(service):
    gid = await game_in(service, CHAT, "1h")
    await keep(service, gid, ALICE)
    await service.away(CHAT, BOB, "5h")
    assert await service.run_timers(service.ctx.clock.at(1)) == []  # Bob is away: his bank stopped
    assert (await row_of(service, gid)).clocks["outs"] == {}
    service.ctx.clock.at(3)
    await service.back(CHAT, BOB)
    async with UnitOfWork(service.db) as uow:
        due = {t.kind: t.due_at for t in await uow.timers.of_game(gid)}
    assert due["bank"].replace(tzinfo=timezone.utc) == T0 + timedelta(hours=3)  # looked at again now
    assert await service.run_timers(service.ctx.clock.at(3)) == []
    async with UnitOfWork(service.db) as uow:
        due = {t.kind: t.due_at for t in await uow.timers.of_game(gid)}
    assert due["bank"].replace(tzinfo=timezone.utc) == T0 + timedelta(hours=4)  # 1h bank, 3h of it away
    out = await service.run_timers(service.ctx.clock.at(4))
    assert any("bank ran out" in m.text for m in out)


# Europe/Amsterdam leaves summer time on Sunday 25 October 2026 at 03:00 (CEST, UTC+2) → 02:00 (CET, UTC+1)
EVE = datetime(2026, 10, 24, 18, 0, tzinfo=timezone.utc)  # 20:00 in Amsterdam


async def reminder_game(service, clock="3d"):
    service.ctx.clock.moment = EVE
    lobby = await service.create_lobby(CHAT, ALICE, "toy", f"clock={clock}", seed=7)
    gid = lobby[0].game_id
    await service.join(CHAT, BOB, game_id=gid)
    out = await service.start(CHAT, ALICE, game_id=gid)
    await keep(service, gid, BOB)
    return gid, out


def dms(messages, user):
    return [m for m in messages if m.is_private and m.user == user and m.kind == "notice"]


async def test_notify_is_answered_privately_and_refuses_bad_input(service):
    out = await service.notify(CHAT, ALICE, "quiet=22-8 tz=Europe/Amsterdam remind=2h every=6h")
    assert len(out) == 1 and out[0].is_private and "Saved" in out[0].text and "quiet = 22-8" in out[0].text
    bad = await service.notify(CHAT, ALICE, "tz=Amsterdam")
    assert bad[0].kind == "error" and "Europe/Amsterdam" in bad[0].text
    assert (await service.notify(CHAT, ALICE, "quiet=25-3"))[0].kind == "error"
    assert (await service.notify(CHAT, ALICE, "remind=10m"))[0].kind == "error"
    shown = await service.notify(None, ALICE)
    assert "tz = Europe/Amsterdam" in shown[0].text and "remind = 2h" in shown[0].text


async def test_reminders_fire_at_the_chosen_times(service):
    await service.notify(None, ALICE, "remind=2h every=3h")
    gid, _ = await reminder_game(service)
    at = lambda hours: EVE + timedelta(hours=hours)  # noqa: E731
    assert dms(await service.run_timers(at(1.9)), ALICE) == []
    first = dms(await service.run_timers(at(2)), ALICE)
    assert len(first) == 1 and "#%d" % gid in first[0].text and "2d 22h" in first[0].text
    assert dms(await service.run_timers(at(4.9)), ALICE) == []
    assert len(dms(await service.run_timers(at(5)), ALICE)) == 1
    assert len(dms(await service.run_timers(at(8)), ALICE)) == 1
    service.ctx.clock.moment = at(8.5)
    await keep(service, gid, ALICE)  # the turn is played: its reminders go; a new turn has its own
    alice_next = (await seats(service, gid))["1"] in (await row_of(service, gid)).clocks["charged"]
    assert dms(await service.run_timers(at(10.4)), ALICE) == []
    assert len(dms(await service.run_timers(at(11)), ALICE)) == (1 if alice_next else 0)


async def test_quiet_hours_hold_the_reminder_until_they_end_across_dst(service):
    await service.notify(None, ALICE, "remind=3h every=off quiet=22-8 tz=Europe/Amsterdam")
    gid, _ = await reminder_game(service)
    # due at 21:00 UTC = 23:00 CEST: quiet; they end at 08:00 CET on the 25th = 07:00 UTC (not 06:00: DST ended)
    assert dms(await service.run_timers(EVE + timedelta(hours=3)), ALICE) == []
    async with UnitOfWork(service.db) as uow:
        due = [t.due_at for t in await uow.timers.of_game(gid) if t.kind == "remind"]
    assert [d.replace(tzinfo=timezone.utc) for d in due] == [datetime(2026, 10, 25, 7, 0, tzinfo=timezone.utc)]
    assert dms(await service.run_timers(datetime(2026, 10, 25, 6, 30, tzinfo=timezone.utc)), ALICE) == []
    held = dms(await service.run_timers(datetime(2026, 10, 25, 7, 0, tzinfo=timezone.utc)), ALICE)
    assert len(held) == 1 and "waiting for your move" in held[0].text


async def test_a_turn_ping_in_quiet_hours_is_given_when_they_end(service):
    await service.notify(None, ALICE, "quiet=19-8 tz=Europe/Amsterdam remind=off")
    gid, started = await reminder_game(service)
    hands = [m for m in started if m.kind == "hand"]
    assert [m.ping for m in hands if m.user == ALICE] == [False]  # shown, without notifying
    assert [m.ping for m in hands if m.user == BOB] == [True]
    assert dms(await service.run_timers(datetime(2026, 10, 25, 6, 59, tzinfo=timezone.utc)), ALICE) == []
    pinged = dms(await service.run_timers(datetime(2026, 10, 25, 7, 0, tzinfo=timezone.utc)), ALICE)
    assert len(pinged) == 1 and "it is your turn" in pinged[0].text


async def test_ping_off_sends_the_hand_without_notifying(service):
    await service.notify(None, ALICE, "ping=off")
    gid, started = await reminder_game(service)
    assert [m.ping for m in started if m.kind == "hand" and m.user == ALICE] == [False]


async def test_two_processes_remind_once(database_url):
    first, second = await build_service(database_url), await build_service(database_url)
    try:
        for svc in (first, second):
            svc.ctx.clock = Clock(EVE)
        await first.notify(None, ALICE, "remind=1h every=off")
        gid, _ = await reminder_game(first)
        moment = EVE + timedelta(hours=1)
        import asyncio
        got = await asyncio.gather(first.run_timers(moment), second.run_timers(moment))
        assert len(dms(got[0], ALICE) + dms(got[1], ALICE)) == 1
        assert dms(await second.run_timers(moment + timedelta(hours=5)), ALICE) == []
    finally:
        await first.close()
        await second.close()


async def test_chat_default_clock_bad_input_and_mygames(service):
    refused = await service.create_lobby(CHAT, ALICE, "toy", "clock=banana")
    assert refused[0].kind == "error" and "clock=2d+12h" in refused[0].text
    assert (await service.create_lobby(CHAT, ALICE, "toy", "clock=40d"))[0].kind == "error"
    assert (await service.settings(CHAT, ALICE, "clock=soon", is_admin=True))[0].kind == "error"
    await service.settings(CHAT, ALICE, "clock=slow", is_admin=True)
    assert (await service.chat_settings(CHAT))["clock"] == "slow"
    lobby = await service.create_lobby(CHAT, ALICE, "toy", seed=3)
    assert "clock=7d+2d" in lobby[0].text
    gid = lobby[0].game_id
    await service.join(CHAT, BOB)
    await service.start(CHAT, ALICE)
    service.ctx.clock.at(5)
    mine = await service.ask(c.ShowMyGames(ALICE, None))
    assert f"#{gid} " in mine[0].text and "your time bank: 6d 19h ⏳" in mine[0].text  # her choice is due: running
    assert mine[0].text.startswith("Your game (1) — 1 waits for you:\n")
    started = (await row_of(service, gid)).clocks["since"]
    assert mine[0].times == [["6d 19h ⏳", int((datetime.fromisoformat(started) + timedelta(days=7)).timestamp())]]
    hands = (await row_of(service, gid)).state["hands"]
    await service.act(None, BOB, "keep " + " ".join(map(str, hands[(await seats(service, gid))[BOB.id]][:2])),
                      game_id=gid)
    bob = await service.ask(c.ShowMyGames(dataclasses.replace(BOB, locale="nl"), None))  # in his language
    assert bob[0].text.startswith("Jouw spel (1) — geen wacht op je:\n"), bob[0].text
    live = await service.create_lobby(CHAT, ALICE, "toy", "clock=live")
    assert "clock=" not in live[0].text and (await row_of(service, live[0].game_id)).clocks is None


async def test_a_daily_digest_instead_of_pings_counts_the_games_that_wait(service):
    await service.notify(None, ALICE, "digest=on")
    first = await game_in(service, CHAT, "5d")
    second = await game_in(service, OTHER, "5d")
    third = await game_in(service, OTHER, "5d")
    await keep(service, third, ALICE, OTHER)  # Bob is to act there, not Alice
    async with UnitOfWork(service.db) as uow:
        kinds = {t.kind for g in (first, second) for t in await uow.timers.of_game(g)}
    assert "digest" in kinds
    assert dms(await service.run_timers(service.ctx.clock.at(23.9)), ALICE) == []  # no reminder after 12h
    digest = dms(await service.run_timers(service.ctx.clock.at(24)), ALICE)
    assert len(digest) == 1
    assert digest[0].text.splitlines() == ["📬 2 games wait for you:", f"• #{first} Duel of Cards",
                                           f"• #{second} Duel of Cards"]
    assert dms(await service.run_timers(service.ctx.clock.at(47.9)), ALICE) == []
    assert len(dms(await service.run_timers(service.ctx.clock.at(48)), ALICE)) == 1  # the next day's


async def test_digest_hides_the_turn_ping(service):
    await service.notify(None, ALICE, "digest=18")
    lobby = await service.create_lobby(CHAT, ALICE, "toy", "clock=3d", seed=7)
    await service.join(CHAT, BOB, game_id=lobby[0].game_id)
    started = await service.start(CHAT, ALICE, game_id=lobby[0].game_id)
    assert [m.ping for m in started if m.kind == "hand" and m.user == ALICE] == [False]
    assert (await service.notify(None, ALICE, "digest=25"))[0].kind == "error"


async def test_a_live_games_half_time_reminder_is_not_sent_in_quiet_hours(service):
    await service.settings(CHAT, ALICE, "turn_timer=600", is_admin=True)
    await service.notify(None, ALICE, "quiet=8-20 tz=Europe/Amsterdam")  # T0 is 10:00 in Amsterdam
    lobby = await service.create_lobby(CHAT, ALICE, "toy", seed=7)
    await service.join(CHAT, BOB, game_id=lobby[0].game_id)
    started = await service.start(CHAT, ALICE, game_id=lobby[0].game_id)
    assert [m.ping for m in started if m.kind == "hand" and m.user == ALICE] == [False]
    reminders = await service.run_timers(T0 + timedelta(seconds=301))
    assert [m.user for m in reminders if m.kind == "notice"] == [BOB]


async def test_away_until_a_day_of_the_week_in_the_persons_words_and_zone(service):
    """T0 is Monday 2 March 09:00 UTC. "/away vrijdag" (or "Freitag", "ven.", "fri") is until Friday 6 March
    starts in the person's zone; the day it is today means a week on."""
    await service.notify(None, ALICE, "tz=Europe/Amsterdam")
    told = await service.away(CHAT, ALICE, "vrijdag")
    assert "until Friday 6 March, 00:00 (Europe/Amsterdam)" in told[-1].text, told[-1].text
    async with UnitOfWork(service.db) as uow:
        notify = (await uow.players.find("discord", "1")).notify
    assert clocks.away_until(notify, T0) == datetime(2026, 3, 5, 23, 0, tzinfo=timezone.utc)
    await service.back(CHAT, ALICE)
    assert "until Monday 9 March, 00:00" in (await service.away(CHAT, BOB, "Mo."))[-1].text  # today: a week on
    await service.back(CHAT, BOB)
    for word in ("Freitag", "ven.", "fri"):
        assert "until Friday 6 March" in (await service.away(CHAT, ALICE, word))[-1].text
        await service.back(CHAT, ALICE)
    refused = await service.away(CHAT, ALICE, "someday")
    assert refused[0].kind == "error" and "/away friday" in refused[0].text
