"""A league to look at: a chat that turned its pages on, rated toy games among three people, one finished and one
running game of List und Tücke (hidden hands), played through the real service on a real database."""
from __future__ import annotations

import socket
from dataclasses import dataclass

from aiohttp import web

from bot.service import ChatRef, UserRef, build_service
from bot.web.app import make_app
from rules import get_game
from storage import UnitOfWork, open_database

CHAT = ChatRef("discord", "chan1", "guild1", "Round Table")
ALICE, BOB, CAROL = UserRef("discord", "1", "Alice"), UserRef("discord", "2", "Bob"), UserRef("discord", "3", "Carol")
DAVE = UserRef("discord", "4", "Dave <b>&amp;")  # a name that must be escaped
PEOPLE = (ALICE, BOB, CAROL, DAVE)
TOY_PEOPLE = (ALICE, BOB, CAROL)
HIDDEN_GAME = "list_und_tuecke"


@dataclass
class League:
    slug: str
    toy_games: list[int]
    finished: int  # a finished List und Tücke game
    running: int  # a running one
    players: dict[str, int]  # name → players.id


async def play(service, gid: int, until_over: bool = True, moves: int | None = None) -> None:
    """Each person plays their first legal action (AI seats answer inline) until the game ends, or ``moves``."""
    done = 0
    while moves is None or done < moves:
        async with UnitOfWork(service.db) as uow:
            row = await uow.games.get(gid)
        if row.status != "active":
            return
        game = get_game(row.game)
        state = game.from_json(row.state)
        users = {s.seat: next(u for u in PEOPLE if u.id == s.player.external_id)
                 for s in row.seats if s.player is not None}
        seat = next(s for s in state.to_act() if s in users)
        out = await service.act(CHAT, users[seat], state.legal_actions(seat)[0], game_id=gid)
        assert not [m for m in out if m.kind == "error"], [m.text for m in out]
        done += 1


async def new_game(service, name: str, seed: int, people=PEOPLE) -> int:
    gid = (await service.create_lobby(CHAT, people[0], name, seed=seed))[0].game_id
    for user in people[1:]:
        await service.join(CHAT, user, game_id=gid)
    await service.start(CHAT, people[0], game_id=gid)
    return gid


async def build_league(url: str, toy_games: int = 4) -> League:
    service = await build_service(url)
    try:
        await service.settings(CHAT, ALICE, "web=on", is_admin=True)
        toys = []
        for seed in range(toy_games):
            toys.append(await new_game(service, "toy", seed + 1, TOY_PEOPLE))
            await play(service, toys[-1])
        finished = await new_game(service, HIDDEN_GAME, 5)
        await play(service, finished)
        running = await new_game(service, HIDDEN_GAME, 6)
        await play(service, running, moves=4)
        async with UnitOfWork(service.db) as uow:
            chat = await uow.chats.find(CHAT.platform, CHAT.id)
            players = {u.name: (await uow.players.find(u.platform, u.id)).id for u in PEOPLE}
        return League(chat.settings["web_slug"], toys, finished, running, players)
    finally:
        await service.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Site:
    """The web app on a real port of this machine (a browser can open it), on its own read-only connection."""

    def __init__(self, url: str):
        self.url = url

    async def __aenter__(self) -> "Site":
        self.db = await open_database(self.url, migrate=False)
        self.runner = web.AppRunner(make_app(self.db))
        await self.runner.setup()
        port = free_port()
        await web.TCPSite(self.runner, "127.0.0.1", port).start()
        self.base = f"http://127.0.0.1:{port}"
        return self

    async def __aexit__(self, *_exc) -> None:
        await self.runner.cleanup()
        await self.db.close()
