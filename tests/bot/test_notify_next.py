"""``/notify next=on`` (a heads-up to the person after the one to act) and ``/notify where=mention`` (the turn
ping as a mention in the game's channel, the hand updated quietly), on a real SQLite file with the toy game and a
controllable clock: no sleeps."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from bot.service import ChatRef, UserRef, build_service
from storage import UnitOfWork
from tests.clock import Clock

CHAT = ChatRef("discord", "chan1", "guild1", "general")
ALICE = UserRef("discord", "1", "Alice")
BOB = UserRef("discord", "2", "Bob")
CAROL = UserRef("discord", "3", "Carol")
PEOPLE = {"1": ALICE, "2": BOB, "3": CAROL}
NOON = datetime(2026, 3, 2, 11, 0, tzinfo=timezone.utc)  # 12:00 in Amsterdam


@pytest.fixture
async def service(database_url):
    svc = await build_service(database_url)
    svc.ctx.clock = Clock(NOON)
    yield svc
    await svc.close()


async def row_of(service, gid):
    async with UnitOfWork(service.db) as uow:
        return await uow.games.get(gid)


async def table(service, people, clock="live"):
    """A started toy game of ``people``; returns (id, seat → person, what the start said)."""
    lobby = await service.create_lobby(CHAT, people[0], "toy", f"clock={clock}", seed=7)
    gid = lobby[0].game_id
    for person in people[1:]:
        await service.join(CHAT, person, game_id=gid)
    started = await service.start(CHAT, people[0], game_id=gid)
    row = await row_of(service, gid)
    return gid, {s.seat: PEOPLE[s.player.external_id] for s in row.seats if s.player}, started


async def move(service, gid, by_seat, seat):
    row = await row_of(service, gid)
    kept = row.state["kept"][seat]
    text = f"play {kept[0]}" if kept else "keep " + " ".join(map(str, row.state["hands"][seat][:2]))
    out = await service.act(CHAT, by_seat[seat], text, game_id=gid)
    assert not [m for m in out if m.kind == "error"], out
    return out


def heads_ups(messages):
    return [(m.user, m.text) for m in messages if m.kind == "notice" and m.is_private and "You are next" in m.text]


async def test_the_person_after_the_one_to_act_is_told_once_per_turn(service):
    for person in (ALICE, BOB, CAROL):
        await service.notify(None, person, "next=on")
    gid, by_seat, started = await table(service, [ALICE, BOB, CAROL])
    assert heads_ups(started) == []  # everyone chooses at once: no order
    said = []
    for seat in (0, 1):
        out = await move(service, gid, by_seat, seat)
        assert heads_ups(out) == []  # still the secret choice
    out = await move(service, gid, by_seat, 2)  # the last choice: the tricks begin with seat 0 to play
    assert (await row_of(service, gid)).state["leader"] == 0
    said += heads_ups(out)
    assert said == [(by_seat[1], f"⏭ You are next in game #{gid} (Duel of Cards): {by_seat[0].name} is to play.")]
    out = await move(service, gid, by_seat, 0)  # seat 1 to play: seat 2 is next
    assert [user for user, _text in heads_ups(out)] == [by_seat[2]]
    out = await move(service, gid, by_seat, 1)  # seat 2 ends the trick: its winner leads, not known before
    assert heads_ups(out) == []
    row = await row_of(service, gid)
    out = await move(service, gid, by_seat, 2)
    leader = (await row_of(service, gid)).state["leader"]
    told = f"⏭ You are next in game #{gid} (Duel of Cards): {by_seat[leader].name} is to play."
    assert row.state["leader"] == 0 and heads_ups(out) == [(by_seat[(leader + 1) % 3], told)]


async def test_off_by_default_and_dropped_in_quiet_hours(service):
    for hour, told in ((0, False), (3, True)):  # 12:00 in Amsterdam: quiet; 15:00: not
        service.ctx.clock.moment = NOON + timedelta(hours=hour)
        gid, by_seat, _ = await table(service, [ALICE, BOB, CAROL])
        await service.notify(None, by_seat[2], "next=on quiet=11-14 tz=Europe/Amsterdam")
        said = []
        for seat in (0, 1, 2, 0):  # the choices, then seat 0 plays: seat 1 to play, seat 2 is next
            said += heads_ups(await move(service, gid, by_seat, seat))
        assert [user for user, _text in said] == ([by_seat[2]] if told else [])  # the others did not ask
        async with UnitOfWork(service.db) as uow:
            assert {t.kind for t in await uow.timers.of_game(gid)} <= {"remind", "autoplay"}  # dropped, not held
        await service.notify(None, by_seat[2], "next=off quiet=off")


def pings(messages, user):
    """How ``user`` is pinged by ``messages``: their hand sent anew with a notification, or a mention."""
    return ([("dm", m.kind) for m in messages if m.ping and m.is_private and m.user == user]
            + [("mention", m.kind) for m in messages if m.ping and not m.is_private and user in m.mentions])


async def test_where_mention_pings_once_in_the_channel_and_the_hand_quietly(service):
    await service.notify(None, ALICE, "where=mention")
    gid, by_seat, started = await table(service, [ALICE, BOB])
    assert pings(started, ALICE) == [("mention", "turn")] and pings(started, BOB) == [("dm", "hand")]
    assert [m.ping for m in started if m.kind == "hand" and m.user == ALICE] == [False]  # shown, not notifying
    seat = {v.id: k for k, v in by_seat.items()}
    out = await move(service, gid, by_seat, seat["1"])
    assert pings(out, ALICE) == [] and pings(out, BOB) == []  # Bob still to choose: no new turn
    out = await move(service, gid, by_seat, seat["2"])  # the tricks: seat 0 first
    first = by_seat[0]
    assert pings(out, first) == ([("mention", "turn")] if first == ALICE else [("dm", "hand")])
    out = await move(service, gid, by_seat, 0)
    assert pings(out, by_seat[1]) == ([("mention", "turn")] if by_seat[1] == ALICE else [("dm", "hand")])


async def test_where_mention_in_quiet_hours_mentions_when_they_end(service):
    await service.notify(None, ALICE, "where=mention quiet=11-14 tz=Europe/Amsterdam remind=off")
    gid, by_seat, started = await table(service, [ALICE, BOB], clock="3d")
    assert pings(started, ALICE) == []
    assert await service.run_timers(NOON + timedelta(hours=1, minutes=59)) == []
    later = await service.run_timers(NOON + timedelta(hours=2))  # 14:00 in Amsterdam
    assert pings(later, ALICE) == [("mention", "notice")] and not [m for m in later if m.is_private]
    assert (await service.notify(None, ALICE, "where=here"))[0].kind == "error"
