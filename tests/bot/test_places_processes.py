"""A game's own place (thread, topic) with two processes on one database: the process that did not open the
place learns it without a restart — within the time it trusts a game's chat settings — so its messages of the
game go there and the channel's status line follows the turns; a finished game's place is closed after its grace
by one process, whichever fires the timer."""
from __future__ import annotations

import dataclasses
from datetime import timedelta

import rules
from bot.service import ChatRef, UserRef, build_service, commands as c
from bot.service.context import utc_now
from storage import UnitOfWork

CHAT = ChatRef("discord", "chan1", "guild1", "general")
ALICE = UserRef("discord", "1", "Alice")
BOB = UserRef("discord", "2", "Bob")
PEOPLE = {"1": ALICE, "2": BOB}


async def move(service, gid):
    """The move of the first seat to act: the toy's secret choice privately, a card in the channel."""
    async with UnitOfWork(service.db) as uow:
        row = await uow.games.get(gid)
    seat = rules.get_game("toy").from_json(row.state).to_act()[0]
    person = PEOPLE[next(s.player.external_id for s in row.seats if s.seat == seat)]
    kept = row.state["kept"][seat]
    if kept:
        return await service.act(CHAT, person, f"play {kept[0]}", game_id=gid)
    return await service.act(None, person, "keep " + " ".join(map(str, row.state["hands"][seat][:2])), game_id=gid)


async def test_the_other_process_learns_the_place_a_game_was_given(database_url):
    first, second = await build_service(database_url), await build_service(database_url)
    first.ctx.homes.add("discord")  # as the Discord adapter does: its games get threads
    second.ctx.homes.add("discord")
    try:
        lobby = await first.create_lobby(CHAT, ALICE, "toy", seed=3)
        gid = lobby[0].game_id
        await first.join(CHAT, BOB, game_id=gid)
        started = await first.start(CHAT, ALICE, game_id=gid)
        assert [m.kind for m in started if m.kind == "home"] == ["home"]
        out = await move(second, gid)  # the second process reads the game before its place is known
        assert not [m for m in out if m.kind == "error"], out
        await first.handle(c.PlaceOpened(None, CHAT, gid, "777"))  # the first one's adapter opened a thread
        live = second.ctx.games.loaded(gid)
        live.settings_read -= 3600  # as after the time a game trusts its chat's settings
        out = await move(second, gid)
        public = [m for m in out if m.chat is not None and not m.is_private and m.game_id == gid]
        assert public and {m.chat.place for m in public if m.kind == "board"} == {"777"}, \
            [(m.kind, m.chat) for m in public]
    finally:
        await first.close()
        await second.close()


async def test_a_finished_games_place_is_closed_after_the_grace_once_by_one_of_two_processes(database_url):
    first, second = await build_service(database_url), await build_service(database_url)
    first.ctx.homes.add("discord")
    try:
        lobby = await first.create_lobby(CHAT, ALICE, "toy", seed=3)
        gid = lobby[0].game_id
        await first.join(CHAT, BOB, game_id=gid)
        await first.start(CHAT, ALICE, game_id=gid)
        await first.handle(c.PlaceOpened(None, CHAT, gid, "777"))
        there = dataclasses.replace(CHAT, place="777")  # a command used in the thread names its game
        await first.handle(c.ClosePlaceLater(None, there, None, 60))
        assert await closing(first, gid) == [], "a running game's place stays open"
        for _ in range(50):
            async with UnitOfWork(first.db) as uow:
                if (await uow.games.get(gid)).status != "active":
                    break
            await move(first, gid)
        await first.handle(c.ClosePlaceLater(None, there, None, 60))
        await first.handle(c.ClosePlaceLater(None, there, None, 120))  # reopened later: the new time stands
        assert len(await closing(first, gid)) == 1
        assert [m for m in await second.run_timers(utc_now() + timedelta(seconds=90)) if m.kind == "close"] == []
        due = utc_now() + timedelta(seconds=121)
        fired = await first.run_timers(due) + await second.run_timers(due)
        assert [(m.kind, m.chat.place, m.game_id, m.text) for m in fired] == [("close", "777", gid, "")]
        assert await closing(first, gid) == []
        stored = [m.chat.place for m in await first.pending_outbox("discord") if m.kind == "close"]
        assert stored == ["777"]  # for whichever Discord process delivers it
    finally:
        await first.close()
        await second.close()


async def closing(service, gid) -> list:
    """The game's timers that close its place."""
    async with UnitOfWork(service.db) as uow:
        return [t for t in await uow.timers.of_game(gid) if t.kind == "close"]
