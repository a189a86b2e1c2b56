"""Issue 20: every command in every game status, named by number or not, by every kind of person — on SQLite and
PostgreSQL. A refused command answers with a reason and changes nothing stored; an allowed one is not refused
for its status or rights. The expected matrix is written here again, independently of ``lifecycle.TABLE``."""
from __future__ import annotations

import itertools

import pytest
from sqlalchemy import select

from bot.service import ChatRef, UserRef, build_service
from storage import UnitOfWork
from storage.models import GameRow, Move, OutboxMessage, Rating, Seat, Timer

ALICE = UserRef("discord", "1", "Alice")  # the creator, seated
BOB = UserRef("discord", "2", "Bob")  # seated
CAROL = UserRef("discord", "3", "Carol")  # in the chat, not seated
MOD = UserRef("discord", "4", "Mod")  # an admin of the game's server, not seated
OTHER_GUILD = ChatRef("discord", "elsewhere", "guild-other", "other")

# (command, status) → who may: c = creator, s = seated, o = outsider, a = admin of the game's chat
EXPECTED = {
    ("join", "lobby"): "oa",  # the creator and seated players already sit: refused for that, not for status
    ("leave", "lobby"): "cs",
    ("add_ai", "lobby"): "csa",
    ("start", "lobby"): "cs",
    ("move", "active"): "cs",
    ("hand", "active"): "cs",
    ("resign", "active"): "cs",
    ("abort", "lobby"): "ca",
    ("abort", "active"): "ca",
    ("board", "lobby"): "csoa",
    ("board", "active"): "csoa",
    ("board", "finished"): "csoa",
}
COMMANDS = ["join", "leave", "add_ai", "start", "move", "hand", "resign", "abort", "board"]
STATUSES = ["lobby", "active", "finished", "aborted"]
# who: (user, is_admin, chat) — the last is Bob, seated, admin of another server, typing there by number
ACTORS = {"c": (ALICE, False, None), "s": (BOB, False, None), "o": (CAROL, False, None), "a": (MOD, True, None),
          "x": (BOB, True, OTHER_GUILD)}


@pytest.fixture
async def service(database_url):
    svc = await build_service(database_url)
    svc.ctx.lobby_limits = (1000, 1000)  # Alice opens a table for every allowed cell
    yield svc
    await svc.close()


async def world(service, status: str, chat: ChatRef) -> int:
    """A game of the toy in ``status`` in ``chat``: Alice created it, Bob sits at it."""
    gid = (await service.create_lobby(chat, ALICE, "toy", seed=3))[0].game_id
    await service.join(chat, BOB, gid)
    if status == "aborted":
        await service.abort(chat, ALICE, gid)
    if status in ("active", "finished"):
        await service.start(chat, ALICE, gid)
    if status == "finished":
        for _ in range(20):
            for user in (ALICE, BOB):
                choices = await service.choices(user, gid)
                if isinstance(choices, list) and choices and isinstance(choices[0], tuple):
                    await service.act(chat, user, choices[0][1], game_id=gid)
        async with UnitOfWork(service.db) as uow:
            assert (await uow.games.get(gid)).status == "finished"
    return gid


async def snapshot(service) -> list:
    async with UnitOfWork(service.db) as uow:
        rows = []
        for model in (GameRow, Seat, Move, Timer, Rating, OutboxMessage):
            for row in await uow.session.scalars(select(model).order_by(model.id)):
                rows.append((model.__name__, tuple(sorted((k, repr(v)) for k, v in vars(row).items()
                                                          if not k.startswith("_") and k not in ("player", "seats")))))
        return rows


async def run(service, command: str, gid: int | None, user: UserRef, is_admin: bool, chat: ChatRef):
    if command == "join":
        return await service.join(chat, user, gid)
    if command == "leave":
        return await service.leave(chat, user, gid)
    if command == "add_ai":
        return await service.add_ai(chat, user, "random", game_id=gid, is_admin=is_admin)
    if command == "start":
        return await service.start(chat, user, gid)
    if command == "move":
        return await service.act(chat, user, "keep 1 2", game_id=gid)
    if command == "hand":
        return await service.show_private(user, game_id=gid, chat=chat)
    if command == "resign":
        return await service.resign(chat, user, gid)
    if command == "abort":
        return await service.abort(chat, user, gid, is_admin=is_admin)
    return await service.show_board(chat, game_id=gid, user=user)


LIFECYCLE_WORDS = ("already running", "is over", "was aborted", "has not started", "not playing", "no seat",
                   "only the creator", "only a seated", "only a player", "no open game")


@pytest.mark.parametrize("status", STATUSES)
async def test_every_command_in_every_status_by_everyone(service, status):
    counter = itertools.count()
    shared_chat = ChatRef("discord", f"shared-{status}", "guild1", "general")
    shared = await world(service, status, shared_chat)
    for command, who, by_number in itertools.product(COMMANDS, "csoax", (True, False)):
        if who == "x" and not by_number:
            continue  # from another server a game can only be named by its number
        user, is_admin, chat = ACTORS[who]
        # Bob typing in another server has a seated player's rights there, never an admin's
        allowed = (who if who != "x" else "s") in EXPECTED.get((command, status), "")
        if command == "join" and who in "cs":
            allowed = False
        if not allowed:
            before = await snapshot(service)
            out = await run(service, command, shared if by_number else None, user, is_admin, chat or shared_chat)
            assert out and out[0].kind == "error", (command, status, who, by_number, out)
            assert await snapshot(service) == before, (command, status, who, by_number)
            continue
        chat = ChatRef("discord", f"w{status}{next(counter)}", "guild1", "general")
        gid = await world(service, status, chat)
        out = await run(service, command, gid if by_number else None, user, is_admin, chat)
        errors = [m.text for m in out if m.kind == "error"]
        assert not any(w in e.lower() for e in errors for w in LIFECYCLE_WORDS), (command, status, who, errors)
