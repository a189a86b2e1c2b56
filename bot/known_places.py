"""Which place — a Discord thread, a Telegram forum topic — each game's public messages go to, as an adapter's
sending half knows it (the service stores it: ``bot/service/places.py``). One per adapter, held by its
``Threads`` or ``Topics``, which open the places and say what a missing right means on their platform."""
from __future__ import annotations

from bot.service import Message, Service
from bot.service.commands import PlaceLost
from bot.service.places import LOST, place_key


class KnownPlaces:
    def __init__(self, service: Service, platform: str, kept: tuple[str, ...]):
        self.service = service
        self.platform = platform
        self.kept = kept  # kinds of message that stay in the chat itself (the lobby, the ask for a place)
        self.games: dict[int, str | None] = {}  # game → its place (None: none, or lost)
        self.lost: set[tuple[str, str]] = set()  # (chat, place) gone: messages still addressed there go to the chat

    def place_of(self, message: Message) -> int | None:
        """The place a public message (or an answer in a chat) goes to; None: the chat itself."""
        chat = message.chat
        if chat is None or message.kind in self.kept:
            return None
        place = chat.place
        if place is None and message.game_id is not None:
            place = self.games.get(message.game_id)
        if place is None or (chat.id, place) in self.lost or not place.isdigit():
            return None
        return int(place)

    async def settled(self, game_id: int) -> bool:
        """Whether the game's place was settled already — here, before a restart or by another process: then none
        is opened. Otherwise it is noted as having none until the caller opens one."""
        if game_id in self.games:
            return True
        found = await self.service.slots.lookup(self.platform, place_key(game_id))
        if found is not None:
            self.games[game_id] = None if found[1] == LOST else found[1]
            return True
        self.games[game_id] = None
        return False

    async def gone(self, message: Message, place: int) -> list[Message]:
        """The place was deleted (or closed by someone): the game goes on in its chat; the service says so once."""
        self.lost.add((message.chat.id, str(place)))
        if message.game_id is None:
            return []
        self.games[message.game_id] = None
        return await self.service.handle(PlaceLost(None, message.chat, message.game_id))
