"""/hint through the real service (SQLite file and PostgreSQL): private, refused when off or not one's turn, and a
game in which a hint was used is unrated (no rating change, told to the table once)."""
from __future__ import annotations

import asyncio

import pytest

from bot.service import ChatRef, UserRef
from storage import UnitOfWork
from tests.bot.test_ai_turns import GUARD, make_service, pool  # noqa: F401  (the shared worker)

CHAT = ChatRef("discord", "chan1", "guild1", "general")
ALICE = UserRef("discord", "1", "Alice")
BOB = UserRef("discord", "2", "Bob")
CAROL = UserRef("discord", "3", "Carol")


@pytest.fixture
async def service(database_url, pool):  # noqa: F811
    svc = await make_service(database_url, pool)
    yield svc
    await svc.close()


async def human_game(service, seed=7):
    gid = (await service.create_lobby(CHAT, ALICE, "toy", seed=seed))[0].game_id
    await service.join(CHAT, BOB, game_id=gid)
    await service.start(CHAT, ALICE, game_id=gid)
    return gid


async def finish(service, gid):
    for _ in range(20):
        async with UnitOfWork(service.db) as uow:
            row = await uow.games.get(gid)
        if row.status != "active":
            return row
        for user in (ALICE, BOB):
            choices = await service.choices(user, game_id=gid)
            if isinstance(choices, list) and choices:
                await service.act(CHAT, user, choices[0][1], game_id=gid)
    raise AssertionError("the game did not end")


async def test_a_hint_is_private_and_makes_the_game_unrated(service):
    gid = await human_game(service)
    out = await asyncio.wait_for(service.hint(CHAT, ALICE, gid), GUARD)
    private = [m for m in out if m.kind == "hint"]
    assert len(private) == 1 and private[0].is_private and private[0].user == ALICE
    assert private[0].text.startswith(f"💡 Game #{gid}: I would play ") and "/move keep " in private[0].text
    assert "% to win; next best " in private[0].text and "\n" not in private[0].text
    public = [m for m in out if m.chat is not None]
    assert [m.text for m in public] == [f"Game #{gid} is unrated: a hint was used."]
    assert "I would play" not in "".join(m.text for m in await service.pending_outbox())  # never stored

    again = await asyncio.wait_for(service.hint(CHAT, BOB, gid), GUARD)  # the table is told once
    assert [m.kind for m in again] == ["hint"]

    row = await finish(service, gid)
    assert row.status == "finished" and row.rated is False and row.hinted is True
    async with UnitOfWork(service.db) as uow:
        assert await uow.leagues.changes_of_game(gid) == []
        assert await uow.leagues.ratings("discord:guild1", "toy", 1) == []
    history = await service.history(CHAT, ALICE)
    assert f"#{gid} Duel of Cards · not rated" in history[0].text


async def test_the_same_game_without_a_hint_is_rated(service):
    gid = await human_game(service)
    row = await finish(service, gid)
    assert row.rated is True and row.hinted is False
    async with UnitOfWork(service.db) as uow:
        assert len(await uow.leagues.changes_of_game(gid)) == 2


async def test_hints_are_refused_when_off_or_not_ones_turn(service):
    gid = await human_game(service)
    await service.settings(CHAT, ALICE, "hints=off", is_admin=True)
    off = await service.hint(CHAT, ALICE, gid)
    assert [m.kind for m in off] == ["error"] and "turned off" in off[0].text
    await service.settings(CHAT, ALICE, "hints=on", is_admin=True)

    outsider = await service.hint(CHAT, CAROL, gid)
    assert outsider[0].kind == "error" and "not playing" in outsider[0].text
    choices = await service.choices(ALICE, game_id=gid)
    await service.act(CHAT, ALICE, choices[0][1], game_id=gid)  # Alice chose; Bob has not
    waiting = await service.hint(CHAT, ALICE, gid)
    assert waiting[0].kind == "error" and "not your turn" in waiting[0].text
    assert service.ctx.thinking.pool.calls == 0
    async with UnitOfWork(service.db) as uow:
        assert (await uow.games.get(gid)).hinted is False  # refusals change nothing

    finished = await finish(service, gid)
    over = await service.hint(CHAT, ALICE, gid)
    assert over[0].kind == "error" and finished.rated is True
