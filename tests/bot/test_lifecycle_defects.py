"""Issue 20's defects, each as it was found: on SQLite and on PostgreSQL."""
from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

import pytest

from bot.service import ChatRef, UserRef, build_service
from bot.service.flood import FloodGuard
from storage import UnitOfWork

CHAT = ChatRef("telegram", "-100", "-100", "group")
DCHAT = ChatRef("discord", "chan", "guild", "general")
ALICE = UserRef("discord", "1", "Alice")
BOB = UserRef("discord", "2", "Bob")
TALICE = UserRef("telegram", "11", "Alice")
TBOB = UserRef("telegram", "12", "Bob")


@pytest.fixture
async def service(database_url):
    svc = await build_service(database_url)
    yield svc
    await svc.close()


def error(out) -> str:
    assert out and out[0].kind == "error", out
    return out[0].text


async def status_of(service, gid):
    async with UnitOfWork(service.db) as uow:
        row = await uow.games.get(gid)
        return row.status, len(row.seats), row.version


async def running(service, chat=DCHAT, a=ALICE, b=BOB):
    gid = (await service.create_lobby(chat, a, "toy", seed=5))[0].game_id
    await service.join(chat, b, gid)
    await service.start(chat, a, gid)
    return gid


async def finish(service, gid, chat=DCHAT, people=(ALICE, BOB)):
    for _ in range(20):
        for user in people:
            choices = await service.choices(user, gid)
            if isinstance(choices, list) and choices and isinstance(choices[0], tuple):
                await service.act(chat, user, choices[0][1], game_id=gid)


async def test_lobby_commands_refuse_games_that_are_not_lobbies(service):
    gid = await running(service)
    before = await status_of(service, gid)
    assert "already running" in error(await service.leave(DCHAT, BOB, gid))
    assert "already running — /join works only while the table is open" in error(
        await service.join(DCHAT, UserRef("discord", "3", "Carol"), gid))
    assert "already running" in error(await service.join(DCHAT, UserRef("discord", "3", "Carol")))  # no number
    assert "already running" in error(await service.add_ai(DCHAT, ALICE, "random", game_id=gid))
    assert "already running" in error(await service.press(ALICE, f"j:{gid}", chat=DCHAT))  # an old Join button
    assert await status_of(service, gid) == before
    board = await service.show_board(DCHAT, gid)
    assert board[0].kind == "board"
    await finish(service, gid)
    assert (await status_of(service, gid))[0] == "finished"
    done = await status_of(service, gid)
    assert "is over" in error(await service.start(DCHAT, ALICE, gid))
    assert "is over" in error(await service.abort(DCHAT, ALICE, gid, is_admin=True))
    assert await status_of(service, gid) == done
    history = await service.history(DCHAT, ALICE)
    assert f"#{gid}" in history[0].text
    lobby = (await service.create_lobby(DCHAT, ALICE, "toy"))[0].game_id
    await service.abort(DCHAT, ALICE, lobby)
    assert "was aborted" in error(await service.start(DCHAT, ALICE, lobby))
    assert (await status_of(service, lobby))[0] == "aborted"


async def test_a_persons_games_are_found_on_every_database(service):
    """PostgreSQL refused SELECT DISTINCT over JSON columns: dm_opened, and moves in a private chat, failed."""
    gid = (await service.create_lobby(CHAT, TALICE, "toy", seed=5))[0].game_id
    await service.join(CHAT, TBOB, gid)
    opened = await service.dm_opened(TALICE)
    assert [m.kind for m in opened] == ["lobby"] and "Alice can now get private messages" in opened[0].text
    await service.dm_opened(TBOB)
    started = await service.start(CHAT, TALICE, gid)
    assert any(m.kind == "board" for m in started)
    hand = await service.show_private(TALICE)  # a private chat: no chat, no number
    assert hand[0].kind == "hand" and hand[0].fresh
    choice = (await service.choices(TALICE, gid))[0][1]
    moved = await service.act(None, TALICE, choice)
    assert not any(m.kind == "error" for m in moved)
    assert await service.games_of(TALICE) == [gid]


async def test_rights_come_from_the_games_own_chat(service):
    gid = await running(service)
    elsewhere = ChatRef("discord", "other-chan", "other-guild", "x")
    assert "played in another chat" in error(await service.abort(elsewhere, BOB, gid, is_admin=True))
    assert (await status_of(service, gid))[0] == "active"
    lobby = (await service.create_lobby(DCHAT, ALICE, "toy"))[0].game_id
    carol = UserRef("discord", "3", "Carol")
    assert "Only a player" in error(await service.add_ai(DCHAT, carol, "random", game_id=lobby))
    out = await service.add_ai(DCHAT, UserRef("discord", "4", "Mod"), "random", game_id=lobby, is_admin=True)
    assert out[0].kind == "lobby"
    aborted = await service.abort(DCHAT, UserRef("discord", "4", "Mod"), gid, is_admin=True)
    assert aborted[0].kind == "result" and (await status_of(service, gid))[0] == "aborted"
    # the aborted game's pickers lose their buttons: each player's slot gets a last word without buttons
    hands = [m for m in aborted if m.kind == "hand"]
    assert sorted(m.user.id for m in hands) == ["1", "2"] and all(not m.buttons for m in hands)


@pytest.mark.parametrize("options, reason", [
    ("track=9999", "track is King Arthur's field"), ("swords=1,2,999", "Sword fields"),
    ("track=123456789012345678901234567890", "far too large")])
async def test_options_are_checked_at_new(service, options, reason):
    assert reason in error(await service.create_lobby(DCHAT, ALICE, "koenig_artus", options))


@pytest.mark.parametrize("options, reason", [("mode=nonsense", "mode is duel"), ("level=godlike", "level is basic")])
async def test_guyenne_options_are_checked_at_new(service, options, reason):
    assert reason in error(await service.create_lobby(DCHAT, ALICE, "guyenne", options))
    assert "max_rounds" in error(await service.create_lobby(DCHAT, ALICE, "troubadour", "max_rounds=-3"))
    async with UnitOfWork(service.db) as uow:
        assert await uow.games.with_status(("lobby",)) == []


async def test_settings_are_bounded_and_a_timer_switched_off_drops_deadlines(service):
    assert "between" in error(await service.settings(DCHAT, ALICE, "turn_timer=999999999", is_admin=True))
    assert "whole number" in error(await service.settings(DCHAT, ALICE, "turn_timer=999999999999", is_admin=True))
    assert "known: turn_timer" in error(await service.settings(DCHAT, ALICE, "hands=channel", is_admin=True))  # gone
    await service.settings(DCHAT, ALICE, "turn_timer=10m", is_admin=True)
    gid = await running(service)
    async with UnitOfWork(service.db) as uow:
        assert len(await uow.timers.of_game(gid)) == 4
    await service.settings(DCHAT, ALICE, "turn_timer=0", is_admin=True)
    async with UnitOfWork(service.db) as uow:
        assert await uow.timers.of_game(gid) == []
    assert await service.run_timers(datetime.now(timezone.utc) + timedelta(hours=2)) == []


@pytest.mark.parametrize("number", ["²", "1" * 30, str(2 ** 63), "-4", "#x"])
async def test_odd_numbers_get_a_clear_refusal(service, number):
    gid = await running(service)
    before = await status_of(service, gid)
    for call in (service.join(DCHAT, BOB, number), service.leave(DCHAT, BOB, number),
                 service.abort(DCHAT, ALICE, number), service.show_board(DCHAT, number),
                 service.press(ALICE, f"p:{number}:1:0"), service.press(ALICE, f"j:{number}", chat=DCHAT),
                 service.act(DCHAT, ALICE, "keep 1 2", game_id=number)):
        text = error(await call)
        assert "went wrong" not in text
    assert await status_of(service, gid) == before


async def test_nul_characters_and_long_names_are_stored_not_refused(service):
    long_name = "N" * 129
    odd = UserRef("discord", "77", long_name)
    gid = (await service.create_lobby(ChatRef("discord", "c\x00h", "g", "ti\x00tle"), odd, "toy"))[0].game_id
    async with UnitOfWork(service.db) as uow:
        row = await uow.games.get(gid)
        assert row.seats[0].player.name == "N" * 100
    out = await service.act(DCHAT, odd, "keep \x00 1 2")
    assert "went wrong" not in error(out)
    out = await service.create_lobby(DCHAT, ALICE, "toy", "speed\x00=3")
    assert "went wrong" not in error(out)


async def test_duplicate_leave_and_concurrent_joins(service):
    gid = (await service.create_lobby(DCHAT, ALICE, "toy"))[0].game_id
    await service.join(DCHAT, BOB, gid)
    first, second = await asyncio.gather(service.leave(DCHAT, BOB, gid), service.leave(DCHAT, BOB, gid))
    announced = [m for m in first + second if m.kind == "lobby" and "Bob left" in m.text]
    assert len(announced) == 1
    people = [UserRef("discord", str(10 + i), f"P{i}") for i in range(5)]
    results = await asyncio.gather(*[service.join(DCHAT, p, gid) for p in people])
    texts = [r[0].text for r in results]
    assert sum(1 for r in results if r[0].kind == "lobby") == 2  # toy seats 3: Alice and two more
    assert all("full" in t for r, t in zip(results, texts) if r[0].kind == "error"), texts
    assert (await status_of(service, gid))[1] == 3


async def test_game_locks_are_not_kept_for_every_game(service):
    for _ in range(3):
        gid = await running(service)
        await finish(service, gid)
    assert service.ctx.games.locks_held() == 0


async def test_idle_lobbies_close_and_open_lobbies_are_bounded(service):
    ids = [(await service.create_lobby(DCHAT, ALICE, "toy"))[0].game_id for _ in range(3)]
    assert "You already have 3 open tables" in error(await service.create_lobby(DCHAT, ALICE, "toy"))
    bob_ids = [(await service.create_lobby(DCHAT, BOB, "toy"))[0].game_id for _ in range(2)]
    assert "already has 5 open tables" in error(await service.create_lobby(DCHAT, UserRef("discord", "9", "Z"), "toy"))
    closed = await service.run_timers(datetime.now(timezone.utc) + timedelta(days=1, minutes=1))
    assert sorted(m.game_id for m in closed) == sorted(ids + bob_ids)
    assert all("nobody started it for a day" in m.text for m in closed)
    assert (await service.create_lobby(DCHAT, ALICE, "toy"))[0].kind == "lobby"


async def test_a_process_closes_only_the_idle_lobbies_of_the_platforms_it_serves(service):
    """Issue 38: the idle-lobby sweep, like timers and AI turns, works only on the process's own platform: a
    Telegram process leaves a Discord table alone; the Discord process closes it."""
    gid = (await service.create_lobby(DCHAT, ALICE, "toy"))[0].game_id
    later = datetime.now(timezone.utc) + timedelta(days=1, minutes=1)
    service.ctx.serves = {"telegram"}
    assert await service.run_timers(later) == []
    service.ctx.serves = {"discord"}
    assert [m.game_id for m in await service.run_timers(later)] == [gid]


async def test_a_flooding_person_is_told_to_slow_down_and_nobody_else_is(database_url):
    clock = [0.0]
    service = await build_service(database_url)
    service.ctx.flood = FloodGuard(burst=5, rate=1.0, clock=lambda: clock[0])
    try:
        answers = [await service.games(DCHAT, ALICE) for _ in range(8)]
        assert [a[0].kind for a in answers[:5]] == ["info"] * 5
        assert "Slow down" in answers[5][0].text and answers[6] == [] and answers[7] == []
        assert (await service.games(DCHAT, BOB))[0].kind == "info"  # Bob, same chat: not slowed
        clock[0] += 2
        assert (await service.games(DCHAT, ALICE))[0].kind == "info"
    finally:
        await service.close()


async def first_move(service, gid):
    """(the person to move, a legal move of theirs) in a running two-player game."""
    for user in (ALICE, BOB):
        choices = await service.choices(user, gid)
        if choices and isinstance(choices[0], tuple):
            return user, choices[0][1]
    raise AssertionError("nobody is to move")


async def test_a_move_and_an_abort_of_the_same_game_at_once_do_not_deadlock(service):
    """The move holds the game's lock while its write waits for SQLite's one writer connection; /abort took that
    connection (a read in its write transaction) before waiting for the game's lock: the process froze until the
    pool gave up (two minutes, SQLite's write lock held for all processes). Now every command takes the lock
    first. The same for /resign (confirmed) and /start."""
    gid = await running(service)
    mover, move = await first_move(service, gid)
    moved, aborted = await asyncio.wait_for(asyncio.gather(
        service.act(DCHAT, mover, move, game_id=gid), service.abort(DCHAT, ALICE)), 30)
    assert [m for m in moved if m.kind != "error"], moved  # the move came first and was committed
    assert "was aborted by Alice" in aborted[0].text
    assert (await status_of(service, gid))[0] == "aborted"


async def test_a_move_and_a_resignation_of_the_same_game_at_once_do_not_deadlock(service):
    gid = await running(service)
    mover, move = await first_move(service, gid)
    other = BOB if mover is ALICE else ALICE
    moved, resigned = await asyncio.wait_for(asyncio.gather(
        service.act(DCHAT, mover, move, game_id=gid), service.resign(DCHAT, other, None)), 30)
    assert [m for m in moved if m.kind != "error"], moved
    assert any("resigned" in m.text for m in resigned), resigned
