"""What every handler shares, handed to it explicitly: the database, the games in memory, the group commit, the
clock, and the process's few settings. A handler is a plain function of a command and this context; nothing
is shared through ``self``.
"""
from __future__ import annotations

import asyncio
import os
import socket
import uuid
import itertools
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Callable

from storage import Database, UnitOfWork
from storage.repository.timers import Served
from storage.group_commit import GroupCommit
from bot.service.flood import FloodGuard
from bot.service.languages import Languages
from bot.service.live_games import LiveGames
from bot.service.thinking import Thinking

LOBBY_LIMITS = (5, 3)  # open tables at most per chat, and opened by one person anywhere
DELIVERY_LEASE = timedelta(seconds=15)  # a message its process did not mark sent by then is sent by another
TIMER_LEASE = timedelta(seconds=60)  # a timer claim older than this belonged to a process that died


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


class OutboxKeys:
    """Keys of outbox rows: a random prefix per process and a counter (a uuid4 per message cost a system call)."""

    def __init__(self) -> None:
        self._prefix = uuid.uuid4().hex[:20]
        self._count = itertools.count()

    def next(self) -> str:
        return f"{self._prefix}{next(self._count):x}"


@dataclass
class Context:
    """The explicit context of the handlers.

    ``serves``: the platforms whose messages this process sends itself (None: every platform, as in one
    process); ``dm_required``: platforms where a person must open a private chat before a game starts
    (a Telegram bot cannot write first) — where a chat is one person's own table (the console) is
    ``messages.OWN_TABLES``; ``homes``: platforms whose adapters give a game its own place (a thread, a forum topic:
    ``places.py``); ``pictures``: draw boards and hands (the chat platforms); ``shards``: (shard count, the Discord
    shards this process connects) when it connects only some (None: every guild). The timers and AI turns this
    process claims are those of ``served``: chats of the platforms it serves, and of its shards' guilds.
    """

    db: Database
    group: GroupCommit
    games: LiveGames
    languages: Languages = field(default_factory=Languages)
    clock: Callable[[], datetime] = utc_now
    pictures: bool = False
    flood: FloodGuard | None = None
    serves: set[str] | None = None
    shards: tuple[int, frozenset[int]] | None = None
    dm_required: frozenset[str] = frozenset({"telegram"})
    homes: set[str] = field(default_factory=set)  # platforms whose adapter gives a game a place: they add themselves
    lobby_limits: tuple[int, int] = LOBBY_LIMITS
    delivery_lease: timedelta = DELIVERY_LEASE
    timer_lease: timedelta = TIMER_LEASE
    pending_after: float = 5.0  # seconds a write may wait behind a stuck database before "still pending"
    ai_iterations: int | None = None  # a cap on the strong AI's search (tests: small and repeatable)
    web_base_url: str | None = None  # where the web process is reached (WEB_BASE_URL): the bots link to it
    process_id: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}")
    thinking: Thinking = field(default_factory=Thinking)
    outbox_keys: OutboxKeys = field(default_factory=OutboxKeys)
    timer_wakeup: asyncio.Event = field(default_factory=asyncio.Event)
    # platform → (league, chat id, message id[, the game's place]) → a link to that message; registered by each
    # adapter (``/mygames``)
    link_makers: dict[str, Callable[..., str | None]] = field(default_factory=dict)

    def uow(self, readonly: bool = False) -> UnitOfWork:
        """A unit of work; ``readonly`` ones never take SQLite's write lock."""
        return UnitOfWork(self.db, readonly=readonly)

    @property
    def served(self) -> Served:
        """The games this process works on (timers, AI turns): its platforms' and its Discord shards'."""
        serves_discord = self.serves is None or "discord" in self.serves
        return Served(None if self.serves is None else frozenset(self.serves),
                      self.shards if serves_discord else None)

    def now(self) -> datetime:
        return self.clock()

    def wake_timers(self) -> None:
        """A commit wrote a timer due now (a thinking AI's job): the timer loop looks at once."""
        self.timer_wakeup.set()
