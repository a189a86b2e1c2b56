"""Refusals, and the guard that turns every failure into one friendly reply (never a traceback in a chat).

Input from chats is also made safe here: numbers typed by people (``²``, thirty digits, ``#12``), and text with
NUL characters (PostgreSQL refuses them) or longer than a column holds.
"""
from __future__ import annotations

import asyncio
import contextvars
import functools
import logging

from rules.api import IllegalAction
from bot import i18n
from bot.i18n import _
from storage import StaleVersion, StorageUnavailable, health, writers
from storage.group_commit import watch as watch_writes
from bot.service.messages import ChatRef, Message, UserRef

log = logging.getLogger("bot.service")
PENDING_AFTER = 5.0  # seconds a command's write may wait for the database before its asker hears it is pending
_late: set[asyncio.Task] = set()  # commands answered "pending" that still run

MAX_GAME_NUMBER = 2 ** 31 - 1  # the games table's Integer key
NAME_LENGTH = 100  # players.name
TITLE_LENGTH = 200  # chats.title
TEXT_LENGTH = 2000  # a typed move, options or settings: longer is never meaningful


class ServiceError(Exception):
    """A friendly refusal: the text goes back to the person, nothing changed."""


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
                   clean(chat.title, TITLE_LENGTH) if chat.title else None, i18n.supported(chat.locale))


def _reply(args, kwargs, text: str, kind: str = "error") -> Message:
    chat = kwargs.get("chat") or next((a for a in args if isinstance(a, ChatRef)), None)
    user = kwargs.get("user") or next((a for a in args if isinstance(a, UserRef)), None)
    return Message(text=text, chat=chat, user=user, kind=kind)


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


class StillPending(Exception):
    """The command's write waits for the database longer than ``PENDING_AFTER``; it goes on in the background."""


async def _in_time(self, coroutine):
    """Run a command; if its write still waits for the database after ``PENDING_AFTER`` seconds while the
    writers' queue is stuck (another process frozen while it holds SQLite's writers, issue 34), raise
    StillPending and let it finish alone: the messages of a move are stored with it (the outbox) and told by
    the outbox loop once it is stored. Under mere load the person waits for the real answer, as before."""
    context = contextvars.copy_context()
    waiting = context.run(watch_writes)
    task = asyncio.get_running_loop().create_task(coroutine, context=context)
    after = getattr(self, "pending_after", PENDING_AFTER)
    try:
        while True:
            done, _pending = await asyncio.wait((task,), timeout=after)
            if done:
                return task.result()
            if waiting.writes and writers.stuck():  # a frozen process, not mere load: it may wait long
                _late.add(task)
                task.add_done_callback(_finished_late)
                raise StillPending
    except asyncio.CancelledError:
        task.cancel()
        raise


def _finished_late(task: asyncio.Task) -> None:
    _late.discard(task)
    if task.cancelled():
        return
    error = task.exception()
    if error is not None and not isinstance(error, (ServiceError, IllegalAction, StaleVersion, StorageUnavailable)):
        log.error("a command answered as pending failed: %r", error)


def answers_errors(method):
    """Turn a refusal into one reply to the caller; never let a traceback reach a chat.

    References are made safe first (names cut to what the database holds, NUL removed), so a strange name
    is stored whole, never refused with a database error. The method runs in the asker's language (their
    replies and refusals); it scopes public and others' private texts to their own languages itself.
    """

    @functools.wraps(method)
    async def wrapper(self, *args, **kwargs):
        args = tuple(safe_chat(a) if isinstance(a, ChatRef) else safe_user(a) if isinstance(a, UserRef) else a
                     for a in args)
        for key in ("chat", "user"):
            if key in kwargs:
                kwargs[key] = safe_chat(kwargs[key]) if key == "chat" else safe_user(kwargs[key])
        user = kwargs.get("user") or next((a for a in args if isinstance(a, UserRef)), None)
        chat = kwargs.get("chat") or next((a for a in args if isinstance(a, ChatRef)), None)
        guard = getattr(self, "flood", None)
        verdict = guard.allow(chat, user) if guard is not None and user is not None else True
        if verdict is None:
            return []
        languages = getattr(self, "languages", None)
        lang = await languages.of_asker(self, user, chat) if languages is not None else None
        with i18n.using(lang):
            if verdict is False:
                return [_reply(args, kwargs, _("🐢 Slow down a little, {name} — I will answer again in a few "
                                               "seconds. Nothing was changed.", name=user.name))]
            try:
                return await self.finish_messages(await _in_time(self, method(self, *args, **kwargs)))
            except (ServiceError, IllegalAction) as e:
                return [_reply(args, kwargs, str(e))]
            except StaleVersion:
                return [_reply(args, kwargs, _("Someone else moved at the same moment; please try again."))]
            except StillPending:
                return [_reply(args, kwargs, _("⏳ The database is slow to answer (another bot process holds it); "
                                               "your move is still pending and the table will be told once it "
                                               "is stored."), kind="notice")]
            except StorageUnavailable as e:  # its cause is logged by storage, once a minute
                return [_reply(args, kwargs, unavailable_text(e))]
            except Exception as e:
                found = health.unavailable(e)  # a driver's error the storage layer did not translate
                if found is not None:
                    return [_reply(args, kwargs, unavailable_text(found))]
                log.exception("service error in %s", method.__name__)
                return [_reply(args, kwargs, _("Sorry, something went wrong on my side. Nothing was changed."))]

    return wrapper
