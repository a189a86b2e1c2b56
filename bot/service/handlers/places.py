"""What the adapters report about a game's own place (``bot/service/places.py``): opened, or gone mid-game."""
from __future__ import annotations

import dataclasses

from sqlalchemy.exc import IntegrityError

from bot import i18n
from bot.i18n import _
from bot.service import commands as c
from bot.service.context import Context
from bot.service.languages import chat_language
from bot.service.messages import Message
from bot.service.places import LOST, at_key, place_key


async def place_opened(ctx: Context, command: c.PlaceOpened) -> list[Message]:
    """Store the game's place (the first one reported wins: two processes never give a game two), and let the
    game in memory address its public messages there."""
    chat, game_id = command.chat, command.game_id
    async with ctx.uow() as uow:
        if await uow.slots.get(chat.platform, place_key(game_id)) is not None:
            return []
        await uow.slots.put(chat.platform, place_key(game_id), chat.id, command.place)
        await uow.slots.put(chat.platform, at_key(chat.id, command.place), chat.id, str(game_id))
        try:
            await uow.commit()
        except IntegrityError:  # another process stored one at the same moment: theirs stands
            return []
    _readdress(ctx, chat.platform, game_id, command.place)
    return []


async def place_lost(ctx: Context, command: c.PlaceLost) -> list[Message]:
    """The game's place was deleted or closed by someone mid-game: the game goes on in its chat, which is told
    once."""
    chat, game_id = command.chat, command.game_id
    async with ctx.uow() as uow:
        row = await uow.slots.get(chat.platform, place_key(game_id))
        if row is None or row.message_id == LOST:
            return []
        await uow.slots.put(chat.platform, place_key(game_id), row.chat_external_id, LOST)
        game = await uow.games.get(game_id)
        stored = await uow.chats.get(game.chat_id) if game is not None else None
        await uow.commit()
    _readdress(ctx, chat.platform, game_id, None)
    if stored is None or game.status != "active":
        return []
    with i18n.using(chat_language(stored.settings)):
        text = _("⚠ The thread (or topic) of game #{id} is gone: the game goes on here.", id=game_id)
    return [Message(text, chat=dataclasses.replace(chat, place=None), game_id=game_id, kind="notice")]


def _readdress(ctx: Context, platform: str, game_id: int, place: str | None) -> None:
    live = ctx.games.loaded(game_id)
    if live is not None and live.chat.platform == platform:
        live.chat = dataclasses.replace(live.chat, place=place)
