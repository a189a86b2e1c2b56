"""Refusals (``ServiceError``: the bus turns one into a friendly reply), and input from chats made safe.

Input from chats is also made safe here: numbers typed by people (``²``, thirty digits, ``#12``), and text with
NUL characters (PostgreSQL refuses them) or longer than a column holds.
"""
from __future__ import annotations

from bot import i18n
from bot.i18n import _
from bot.service.messages import ChatRef, UserRef
from storage import StorageUnavailable, health

MAX_GAME_NUMBER = 2 ** 31 - 1  # the games table's Integer key
NAME_LENGTH = 100  # players.name
TITLE_LENGTH = 200  # chats.title
TEXT_LENGTH = 2000  # a typed move, options or settings: longer is never meaningful


class ServiceError(Exception):
    """A friendly refusal: the text goes back to the person, nothing changed."""

    conceal = False  # the refusal's ``Message.conceal``


class SecretRefused(ServiceError):
    """A secret move typed where the table reads it: refused, and the adapter removes (or asks the person to
    remove) the message that shows it."""

    conceal = True


def clean(text: str | None, limit: int = TEXT_LENGTH) -> str:
    """Text as the database can store it: no NUL characters, at most ``limit`` characters."""
    return (text or "").replace("\x00", "")[:limit]


def game_number(value) -> int | None:
    """A game number as people type it (``12``, ``#12``), or None for none; refuses what cannot be one."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ServiceError(_("A game number is a whole number, e.g. 12."))
    if isinstance(value, int):
        number = value
    else:
        text = str(value).strip().lstrip("#")
        if not (text.isascii() and text.isdigit()):
            raise ServiceError(_("“{text}” is not a game number; write it like 12.", text=clean(str(value), 20)))
        if len(text) > 10:
            raise ServiceError(_("There is no game with such a large number."))
        number = int(text)
    if not 0 < number <= MAX_GAME_NUMBER:
        raise ServiceError(_("There is no game #{number}.", number=number) if number > 0
                           else _("Game numbers start at 1."))
    return number


def safe_user(user: UserRef | None) -> UserRef | None:
    if user is None:
        return None
    return UserRef(user.platform, clean(user.id, 64), clean(user.name, NAME_LENGTH) or clean(user.id, 64),
                   i18n.supported(user.locale))


def safe_chat(chat: ChatRef | None) -> ChatRef | None:
    if chat is None:
        return None
    return ChatRef(chat.platform, clean(chat.id, 64), clean(chat.league, 48) if chat.league else None,
                   clean(chat.title, TITLE_LENGTH) if chat.title else None, i18n.supported(chat.locale),
                   clean(chat.place, 32) if chat.place else None)


def unavailable_text(error: StorageUnavailable) -> str:
    """What people are told when nothing can be stored (the cause is logged once a minute by storage)."""
    if error.reason == health.FULL:
        return _("The bot cannot store moves right now (the disk is full); nothing was changed.")
    if error.reason == health.READ_ONLY:
        return _("The bot cannot store moves right now (the database is read-only); nothing was changed.")
    if error.reason == health.GONE:
        return _("The bot cannot store moves right now (its database file was deleted or replaced); nothing was "
                 "changed.")
    return _("The bot cannot store moves right now (the database is busy); nothing was changed. Please try "
             "again in a minute.")
