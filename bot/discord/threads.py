"""A game's own public thread in its channel (``bot/service/places.py``).

When a game starts the service asks for a place (a ``home`` message naming it and its seated people): here a
public thread is started from the lobby message, named ``<Game> #<id> — <players>``, the people added, and the
thread reported (``PlaceOpened``); every public message of the game then goes to the thread, and the channel
keeps one status line per game (whose turn, a link to the thread) edited as the turn changes. At the end the
result is posted once in the channel too, and the thread archived and locked after ``grace`` seconds (a timer of
the service's: ``ClosePlaceLater``, carried out here when its ``close`` message comes); a command used in it later
reopens it, and the grace begins again.

Without Create Public Threads / Send Messages in Threads, or at Discord's thread limit, the game runs in the
channel as ever and the channel is told once which permission is missing. A thread deleted or archived mid-game
(10003, 50083): the game goes back to the channel, which the service tells once (``PlaceLost``).
"""
from __future__ import annotations

import dataclasses
import logging

import discord

from bot import i18n
from bot.discord.format import payload
from bot.i18n import _
from bot.service import ChatRef, Message, Service
from bot.known_places import KnownPlaces
from bot.service.commands import ClosePlaceLater, PlaceOpened

log = logging.getLogger(__name__)
PLATFORM = "discord"
KEPT_IN_CHANNEL = ("lobby", "home")
GONE = (10003, 50083, 50001)  # Unknown Channel, Thread is archived, Missing Access
MISSING_PERMISSIONS, THREAD_LIMIT = 50013, (160006, 30033)
DEFAULT_GRACE = 300.0  # seconds a finished game's thread stays open (DISCORD_THREAD_GRACE)


class Threads:
    """Which thread each game lives in, for the Discord adapter's sending half (the adapter holds one)."""

    def __init__(self, service: Service, bot: discord.Client, grace: float = DEFAULT_GRACE):
        self.service = service
        self.bot = bot
        self.grace = grace
        self.places = KnownPlaces(service, PLATFORM, KEPT_IN_CHANNEL)  # game → its thread
        self.names: dict[int, str] = {}  # game → its thread's name (the status line starts with it)
        self.told: set[str] = set()  # channels told which permission is missing
        self.finished: set[int] = set()  # threads of games that ended (archived by us: no fallback for them)

    def thread_of(self, message: Message) -> int | None:
        return self.places.place_of(message)

    # ------------------------------------------------------------------ opening
    async def open(self, message: Message) -> list[Message]:
        """A game's ``home`` request: its thread (unless it has one: a restart, another process); the
        channel's notice when the bot may not open one."""
        chat, game_id = message.chat, message.game_id
        if await self.places.settled(game_id):
            return []
        missing = self._missing(int(chat.id))
        lobby = await self.service.slots.lookup(PLATFORM, f"lobby:{game_id}")
        if missing is None and lobby is not None and lobby[0] == chat.id:
            try:
                made = await self.bot.http.start_thread_with_message(
                    int(chat.id), int(lobby[1]), name=message.text[:100], auto_archive_duration=1440)
                thread = int(made["id"])
            except discord.HTTPException as error:
                log.info("no thread for game %s: %s", game_id, error)
                missing = "Create Public Threads" if error.code == MISSING_PERMISSIONS else \
                    "limit" if error.code in THREAD_LIMIT else None
                if missing is None:
                    return []
            else:
                await self._add(thread, message.mentions)
                self.places.games[game_id] = str(thread)
                self.names[game_id] = message.text
                await self.service.handle(PlaceOpened(None, chat, game_id, str(thread)))
                return []
        return self._told(message, missing) if missing else []

    async def _add(self, thread: int, people) -> None:
        """The seated people join the thread (it shows in their list); one who cannot be added still plays."""
        for person in people:
            try:
                await self.bot.http.add_user_to_thread(thread, int(person.id))
            except discord.HTTPException as error:
                log.info("could not add %s to the thread %s: %s", person.id, thread, error)

    def _missing(self, channel_id: int) -> str | None:
        """The permission the bot lacks in the channel to give a game a thread (None: it has both)."""
        channel = self.bot.get_channel(channel_id)
        if not isinstance(channel, discord.abc.GuildChannel):
            return None  # not in the cache: tried, and a refusal says
        allowed = channel.permissions_for(channel.guild.me)
        if not allowed.create_public_threads:
            return "Create Public Threads"
        if not allowed.send_messages_in_threads:
            return "Send Messages in Threads"
        return None

    def _told(self, message: Message, missing: str) -> list[Message]:
        """Once per channel: why its games are played in the channel itself, in the channel's language."""
        if message.chat.id in self.told:
            return []
        self.told.add(message.chat.id)
        with i18n.using(message.chat.locale):
            if missing == "limit":
                text = _("ℹ This server has reached Discord's limit of active threads: games are played here "
                         "in the channel until some threads are archived.")
            else:
                text = _("ℹ I would give each game its own thread, but I lack the “{permission}” permission in "
                         "this channel, so games are played here. An admin can grant it (or turn this off with "
                         "/settings threads=off).", permission=missing)
        return [Message(text, chat=message.chat, kind="notice")]

    # ------------------------------------------------------------------ during and after
    async def gone(self, message: Message, thread: int) -> list[Message]:
        """The thread was deleted or archived by someone: the game goes on in the channel, told once."""
        return await self.places.gone(message, thread)

    async def told_in_channel(self, message: Message, thread: int, files) -> None:
        """What the channel learns of a game played in its thread: the turn on its status line (edited in place,
        with a link to the thread), the result once (and the thread is then archived after the grace)."""
        if message.kind == "turn":
            name = self.names.get(message.game_id)
            content = payload(f"{name}\n{message.text}" if name else message.text, f" → <#{thread}>")
            await self._status_line(int(message.chat.id), f"status:{message.game_id}", content)
        elif message.kind == "result":
            channel = self.bot.get_partial_messageable(int(message.chat.id), type=discord.ChannelType.text)
            content = payload(message.text)
            await channel.send(content["content"], embed=content["embed"], files=files(message))
            await self.ended(message, thread)

    async def _status_line(self, channel_id: int, slot: str, content: dict) -> None:
        channel = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.text)
        found = await self.service.slots.lookup(PLATFORM, slot)
        if found is not None and found[0] == str(channel_id):
            try:
                await channel.get_partial_message(int(found[1])).edit(**content)
                return
            except discord.NotFound:
                pass
        sent = await channel.send(content["content"], embed=content["embed"])
        await self.service.slots.remember(PLATFORM, slot, str(channel_id), str(sent.id))

    async def ended(self, message: Message, thread: int) -> None:
        """The game is over: its thread is archived and locked after the grace — a timer of the service's, so a
        restart or another process closes it all the same (``closed``)."""
        self.finished.add(thread)
        chat = dataclasses.replace(message.chat, place=str(thread))
        await self.service.handle(ClosePlaceLater(None, chat, message.game_id, self.grace))

    async def closed(self, message: Message, pace) -> None:
        """The service's ``close`` of a finished game's thread (its grace is over): archived and locked — archived
        only, without Manage Threads."""
        thread = int(message.chat.place)
        self.finished.add(thread)
        try:
            await pace()
            await self.bot.http.edit_channel(thread, archived=True, locked=True)
            return
        except discord.HTTPException as error:
            if error.code != MISSING_PERMISSIONS:
                log.info("could not archive the thread %s: %s", thread, error)
                return
        try:  # locking needs Manage Threads; the bot started the thread, so it may still archive it
            await pace()
            await self.bot.http.edit_channel(thread, archived=True)
        except discord.HTTPException as error:
            log.info("could not archive the thread %s: %s", thread, error)

    async def reopen(self, channel, chat: ChatRef | None) -> None:
        """A command used in a finished game's archived thread: it opens again (and closes after the grace)."""
        if not isinstance(channel, discord.Thread) or not channel.archived or chat is None:
            return
        try:
            await channel.edit(archived=False, locked=False)
        except discord.HTTPException as error:
            log.info("could not reopen the thread %s: %s", channel.id, error)
            return
        self.finished.add(channel.id)
        await self.service.handle(ClosePlaceLater(None, chat, None, self.grace))  # ``chat.place``: this thread
