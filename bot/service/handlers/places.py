"""What the adapters report about a game's own place (``bot/service/places.py``): opened, gone mid-game, or to
be closed a while after the game ended — a timer (``CLOSE``), so a restart in between loses nothing."""
from __future__ import annotations

import dataclasses
from datetime import timedelta

from sqlalchemy.exc import IntegrityError

from storage import UnitOfWork
from bot import i18n
from bot.i18n import _
from bot.service import commands as c
from bot.service.context import Context
from bot.service.languages import chat_language
from bot.service.messages import Message
from bot.service.outbox import outbox_rows
from bot.service.places import LOST, at_key, game_at, game_chat, place_key

CLOSE = "close"  # the timer that closes a finished game's place (seat -1: it is nobody's turn)


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


async def close_later(ctx: Context, command: c.ClosePlaceLater) -> list[Message]:
    """Close a finished game's place ``after`` seconds from now, by whichever process serves its chat then (the
    timer fires ``close_due``). Asked again — the place was opened again by a command used in it — the new time
    replaces the old one."""
    async with ctx.uow() as uow:
        game_id = command.game_id if command.game_id is not None else await game_at(uow, command.chat)
        game = await uow.games.get(game_id) if game_id is not None else None
        if game is None or game.status not in ("finished", "aborted"):
            return []
        await uow.timers.clear(game_id, kinds=(CLOSE,))
        await uow.timers.add(game_id, [{"seat": -1, "kind": CLOSE, "version": game.version,
                                        "due_at": ctx.now() + timedelta(seconds=command.after)}])
        await uow.commit()
    ctx.wake_timers()
    return []


async def close_due(ctx: Context, uow: UnitOfWork, game_id: int) -> list[Message]:
    """The ``CLOSE`` timer of a game (taken, in ``uow``): a ``close`` message to the game's place, which the
    adapter carries out (nothing is posted); none when the place was lost meanwhile."""
    game = await uow.games.get(game_id)
    chat = await game_chat(uow, await uow.chats.get(game.chat_id), game_id) if game is not None else None
    out = [Message("", chat=chat, game_id=game_id, kind="close")] if chat is not None and chat.place else []
    await uow.outbox.add(outbox_rows(ctx, out))
    await uow.commit()
    return out


def _readdress(ctx: Context, platform: str, game_id: int, place: str | None) -> None:
    live = ctx.games.loaded(game_id)
    if live is not None and live.chat.platform == platform:
        live.chat = dataclasses.replace(live.chat, place=place)
