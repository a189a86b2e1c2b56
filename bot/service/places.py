"""A game's own place inside its chat: a Discord thread, a Telegram forum topic. Platform-neutral.

When a game starts the service asks for one (a ``home`` message: the place's name, nothing to post); the adapter
creates it where the platform and the bot's rights allow, and reports it (``PlaceOpened``); from then on the
game's chat reference carries it (``ChatRef.place``), so every public message of the game goes there, and a
command typed there means that game. A place that disappears mid-game is reported (``PlaceLost``) and the game
goes on in the chat itself.

Stored as slot rows of the platform, so a restart or another process never opens a second one:
``place:<game>`` → (chat, place; ``LOST`` once it is gone) and ``game-at:<chat>:<place>`` → (chat, game).
"""
from __future__ import annotations

import dataclasses

import rules
from storage import UnitOfWork
from storage.models import Chat
from bot.service.messages import ChatRef, Message, UserRef
from bot.service.rows import chat_ref

LOST = "-"  # the game had a place and lost it: it stays in its chat, none is opened again
NAME_LIMIT = 100  # Discord's limit for a thread's name (a Telegram topic takes 128)


def place_key(game_id: int) -> str:
    return f"place:{game_id}"


def at_key(chat_id: str, place: str) -> str:
    return f"game-at:{chat_id}:{place}"


async def place_of(uow: UnitOfWork, platform: str, game_id: int) -> str | None:
    """The game's place (None: it has none, or lost it)."""
    row = await uow.slots.get(platform, place_key(game_id))
    return row.message_id if row is not None and row.message_id != LOST else None


async def game_chat(uow: UnitOfWork, chat_row: Chat, game_id: int) -> ChatRef:
    """The game's chat as its public messages address it: with the game's place, when it has one."""
    chat = chat_ref(chat_row)
    place = await place_of(uow, chat.platform, game_id)
    return dataclasses.replace(chat, place=place) if place else chat


async def game_at(uow: UnitOfWork, chat: ChatRef) -> int | None:
    """The game whose place a command was typed in (None: the chat itself, or a place of no game)."""
    if not chat.place:
        return None
    row = await uow.slots.get(chat.platform, at_key(chat.id, chat.place))
    return int(row.message_id) if row is not None and row.message_id.isdigit() else None


def home_request(game_id: int, game: str, names: list[str], chat: ChatRef, people: list[UserRef]) -> Message:
    """The ask for a place of the game's own, named ``<Game> #<id> — <players>`` (cut to ``NAME_LIMIT``), for
    ``people`` (added to it where the platform asks); adapters that cannot give one post nothing."""
    name = f"{rules.get_game(game).title} #{game_id} — {', '.join(names)}"
    if len(name) > NAME_LIMIT:
        name = name[:NAME_LIMIT - 1] + "…"
    return Message(name, chat=dataclasses.replace(chat, place=None), game_id=game_id, kind="home",
                   mentions=list(people))
