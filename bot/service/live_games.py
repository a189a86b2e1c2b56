"""The games in memory: a picture of each active game, its lock, and which games other processes write.

The database is the only truth. A ``LiveGame`` lets a move cost a few writes and no reads, but it is a hint:
every write is version-checked, and any answer that refuses a person is decided again against the stored
version (``fresh``) before it is given.
"""
from __future__ import annotations

import asyncio
import time
import weakref

from storage import UnitOfWork
from bot.service.chat_settings import effective
from bot.service.live import LOG_KEPT, LiveGame, load_live
from bot.service.places import game_chat

SETTINGS_TTL = 30.0  # seconds a game in memory trusts its chat's settings and its lack of a place of its own (a
# change in another process shows then)


class RecentlyShared:
    """Games another process wrote lately (a write of ours met a newer version). A move in such a game reads
    the stored version before it is judged — one small query instead of a failed write and a second try; a
    game only this process plays is judged on its copy in memory, with no read at all."""

    def __init__(self, size: int = 4096):
        self.size = size
        self._games: dict[int, None] = {}

    def note(self, game_id: int) -> None:
        self._games.pop(game_id, None)
        self._games[game_id] = None
        if len(self._games) > self.size:
            self._games.pop(next(iter(self._games)))

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._games


DEFAULT_SIZE = 2000  # games kept in memory by default (about 32 KB each); the setting GAMES_IN_MEMORY (bot/settings.py) sets it


class LiveGames:
    """Active games in memory, loaded when first used; one asyncio lock per game (one writer per game in a
    process).

    At most ``size`` games stay in memory: the least recently used one is dropped when another is loaded, and
    touched again it is read once more (its first move pays one read). A game whose lock someone holds or waits
    for is never dropped (a move in flight keeps its copy); dropping is harmless anyway, since the stored
    version stays the truth and every write is version-checked."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        if size < 1:
            raise ValueError(f"the games kept in memory must be at least 1, not {size}")
        self.size = size
        self._games: dict[int, LiveGame] = {}  # least recently used first
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.shared = RecentlyShared()
        self.loads = 0  # games read from the database (a bench's and a test's count)

    def lock_for(self, game_id: int) -> asyncio.Lock:
        """The in-process lock of one game; it lives while someone holds or waits for it."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def loaded(self, game_id: int) -> LiveGame | None:
        """The game if it is in memory (no read)."""
        return self._games.get(game_id)

    def all(self) -> list[LiveGame]:
        return list(self._games.values())

    def __len__(self) -> int:
        return len(self._games)

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._games

    def clear(self) -> None:
        """Forget every game (a bench measuring loads)."""
        self._games.clear()

    def locks_held(self) -> int:
        """Locks alive now: one per game someone holds or waits for, never one per game ever played."""
        return len(self._locks)

    async def get(self, uow: UnitOfWork, game_id: int) -> LiveGame | None:
        """The in-memory picture of an active game (loaded when not in memory; dropped when another writer
        moved)."""
        live = self._games.pop(game_id, None)
        if live is not None:
            self._games[game_id] = live  # the most recently used now
            if time.monotonic() - live.settings_read > SETTINGS_TTL:  # another process may have changed them
                row = await uow.chats.get(live.chat_db_id)
                live.settings, live.settings_read = effective(row.settings), time.monotonic()
                if live.chat.place is None:  # or opened the game's thread or topic since this one loaded it
                    live.chat = await game_chat(uow, row, game_id)
            return live
        row = await uow.games.get(game_id)
        if row is None or row.status != "active":
            return None
        chat = await uow.chats.get(row.chat_id)
        recent = await uow.games.last_moves(row.id, LOG_KEPT)
        moves = recent[-1].seq + 1 if recent else 0  # the log's seqs run 0, 1, …: no count query (a round trip)
        live = load_live(row, chat, await game_chat(uow, chat, row.id), moves, recent,
                         await uow.timers.seats_with_timers(row.id))
        self.loads += 1
        self._games.pop(game_id, None)  # (another task may have loaded it while this one read)
        self._games[game_id] = live
        self._evict(keep=game_id)
        return live

    def _evict(self, keep: int) -> None:
        """Drop the least recently used games beyond ``size``, passing over ``keep`` (just loaded) and those
        whose lock is held or waited for (they stay, over the size, until a later load finds them free)."""
        over = len(self._games) - self.size
        if over <= 0:
            return
        dropped = []
        for game_id in self._games:  # least recently used first
            if game_id != keep and game_id not in self._locks:  # nobody holds or waits for its lock: no move in flight
                dropped.append(game_id)
                if len(dropped) == over:
                    break
        for game_id in dropped:
            del self._games[game_id]

    async def fresh(self, uow: UnitOfWork, game_id: int) -> LiveGame | None:
        """The picture of the game as stored now: reloaded when another process wrote since it was loaded."""
        live = self._games.get(game_id)
        if live is not None:
            stored = await uow.games.version_of(game_id)
            if stored is None or stored != live.version:
                self.forget(game_id)
        return await self.get(uow, game_id)

    def forget(self, game_id: int) -> None:
        self._games.pop(game_id, None)
