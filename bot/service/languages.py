"""Who reads which language: a chat's public texts speak the chat's ``language`` setting; an answer to a person,
and their private texts, speak the language they chose (``/settings mylanguage=de``), else their client's
(Discord ``interaction.locale``, Telegram ``language_code``), else the chat's.

What is stored is read at most every ``TTL`` seconds per person and chat (like a game's settings in memory), so a
move costs no extra read; a change made in this process is seen at once, one made in another within ``TTL``.
"""
from __future__ import annotations

import functools
import logging
import time

from bot import i18n

log = logging.getLogger(__name__)
TTL = 30.0


def chat_language(settings: dict | None) -> str:
    """The language of a chat's public texts, from its (stored or effective) settings."""
    return i18n.supported((settings or {}).get("language")) or i18n.DEFAULT


def person_language(player, fallback: str | None = None) -> str:
    """The language of a person's private texts: chosen, else their client's, else ``fallback`` (the chat's)."""
    if player is not None:
        chosen = i18n.supported(getattr(player, "language", None)) or i18n.supported(getattr(player, "locale", None))
        if chosen:
            return chosen
    return i18n.supported(fallback) or i18n.DEFAULT


def of_live_chat(live) -> str:
    """The language of an active game's public texts (its chat's setting, as the game in memory knows it)."""
    return chat_language(live.settings)


def of_live_seat(live, seat) -> str:
    """The language of a seat's private texts in an active game (a ``LiveSeat``): theirs, else the chat's."""
    return i18n.supported(getattr(seat, "language", None)) or of_live_chat(live)


def in_chat_language(build):
    """For a function ``build(live, …)`` that writes a game's public text: it writes it in the chat's language."""
    @functools.wraps(build)
    def wrapper(live, *args, **kwargs):
        with i18n.using(of_live_chat(live)):
            return build(live, *args, **kwargs)
    return wrapper


def in_seat_language(build):
    """For a function ``build(live, seat, …)`` (a ``LiveSeat``) that writes a person's private text."""
    @functools.wraps(build)
    def wrapper(live, seat, *args, **kwargs):
        with i18n.using(of_live_seat(live, seat)):
            return build(live, seat, *args, **kwargs)
    return wrapper


class Languages:
    """A small cache of people's chosen languages and chats' languages, read through the service's database."""

    def __init__(self, ttl: float = TTL):
        self.ttl = ttl
        self._people: dict[tuple[str, str], tuple[float, str | None, str | None]] = {}
        self._chats: dict[tuple[str, str], tuple[float, str]] = {}

    def forget(self, user=None, chat=None) -> None:
        if user is not None:
            self._people.pop((user.platform, user.id), None)
        if chat is not None:
            self._chats.pop((chat.platform, chat.id), None)

    async def of_asker(self, source, user, chat) -> str:
        """The language to answer ``user`` in (in ``chat``, or privately when None)."""
        try:
            chosen, seen = await self._person(source, user) if user is not None else (None, None)
            if chosen:
                return chosen
            client = i18n.supported(getattr(user, "locale", None)) or seen
            if client:
                return client
            if chat is not None:
                return await self.of_chat(source, chat)
        except Exception:  # a language is never worth a refused command
            log.exception("could not read the languages of %s in %s", user, chat)
        return i18n.DEFAULT

    async def of_chat(self, source, chat) -> str:
        key = (chat.platform, chat.id)
        cached = self._chats.get(key)
        if cached is not None and time.monotonic() - cached[0] < self.ttl:
            return cached[1]
        async with source.uow(readonly=True) as uow:
            row = await uow.chats.find(chat.platform, chat.id)
            lang = chat_language(row.settings if row is not None else {"language": chat.locale})
        self._chats[key] = (time.monotonic(), lang)
        return lang

    async def _person(self, source, user) -> tuple[str | None, str | None]:
        key = (user.platform, user.id)
        cached = self._people.get(key)
        if cached is not None and time.monotonic() - cached[0] < self.ttl:
            return cached[1], cached[2]
        async with source.uow(readonly=True) as uow:
            player = await uow.players.find(user.platform, user.id)
            chosen = i18n.supported(player.language) if player is not None else None
            seen = i18n.supported(player.locale) if player is not None else None
        self._people[key] = (time.monotonic(), chosen, seen)
        return chosen, seen
