"""What every use case of the service shares: the database, the in-memory games, finding the game meant.

The database is the only truth. ``LiveGame`` pictures of active games make a move cost a few writes and no
reads, but they are hints: every write is version-checked, and any answer that refuses a person is decided
again against the stored version (``fresh_live``) before it is given.
"""
from __future__ import annotations

import asyncio
import os
import socket
import time
import weakref
from datetime import datetime, timezone

import rules
from bot import i18n
from bot.i18n import _
from storage import Database, UnitOfWork
from storage.models import Chat, GameRow, Seat
from bot.service import lifecycle
from bot.service.chat_settings import effective
from bot.service.errors import ServiceError, game_number
from bot.service.languages import Languages
from bot.service.live import LOG_KEPT, LiveGame, load_live
from bot.service.messages import ChatRef, UserRef


SETTINGS_TTL = 30.0  # seconds a game in memory trusts its chat's settings (a change in another process shows)


def now() -> datetime:
    return datetime.now(timezone.utc)


def aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


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


class ServiceBase:
    def __init__(self, db: Database, *, pictures: bool = False):
        self.db = db
        self.pictures = pictures  # draw board and hand pictures (the chat platforms); the console shows text
        self.process_id = f"{socket.gethostname()}:{os.getpid()}:{id(self):x}"
        # the platforms whose messages this process delivers itself (None: every platform, as in one process)
        self.serves: set[str] | None = None
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._live_games: dict[int, LiveGame] = {}
        self.shared_games = RecentlyShared()
        self.dm_required_platforms: set[str] = {"telegram"}
        from bot.service.lobby import LOBBY_LIMITS

        self.lobby_limits = LOBBY_LIMITS
        self.languages = Languages()  # who reads which language (see languages.py)
        self.flood = None  # a FloodGuard where people command it (the chat platforms); tests and the console play fast
        self._loops: set[asyncio.Task] = set()  # the timer and outbox loops running, ended by ``close``

    def _running_loop(self) -> None:
        """Count the calling task among the service's loops, which ``close`` ends before the database closes."""
        task = asyncio.current_task()
        if task is not None:
            self._loops.add(task)
            task.add_done_callback(self._loops.discard)

    async def _end_loops(self) -> None:
        """Cancel the loops and wait for them: a loop cancelled inside a transaction rolls back on a connection
        that is still open. (Closing the database under it left a task that never finished cancelling, and the
        process never exited.)"""
        loops = [task for task in self._loops if task is not asyncio.current_task()]
        for task in loops:
            task.cancel()
        if loops:
            await asyncio.gather(*loops, return_exceptions=True)

    # ------------------------------------------------------------------ references
    def _uow(self, readonly: bool = False) -> UnitOfWork:
        """A unit of work; ``readonly`` ones never take SQLite's write lock."""
        return UnitOfWork(self.db, readonly=readonly)

    def lock_for(self, game_id: int) -> asyncio.Lock:
        """The in-process lock of one game; it lives while someone holds or waits for it."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def _chat_row(self, uow: UnitOfWork, chat: ChatRef) -> Chat:
        """The chat's row; a new chat speaks its server's (Discord) or first person's (Telegram) language."""
        lang = i18n.supported(chat.locale)
        first = {"language": lang} if lang and lang != i18n.DEFAULT else None
        return await uow.chats.get_or_create(chat.platform, chat.id, chat.league_key, chat.title, first)

    @staticmethod
    def chat_ref(row: Chat) -> ChatRef:
        league = row.league.partition(":")[2]
        # the chat's language rides along, so adapters can say their own few words in it (a button's label)
        return ChatRef(row.platform, row.external_id, league or None, row.title,
                       i18n.supported((row.settings or {}).get("language")))

    @staticmethod
    def user_ref(seat: Seat) -> UserRef | None:
        if seat.player is None:
            return None
        return UserRef(seat.player.platform, seat.player.external_id, seat.player.name)

    @staticmethod
    def _is_user(seat: Seat, user: UserRef | None) -> bool:
        return user is not None and seat.player is not None and seat.player.platform == user.platform \
            and seat.player.external_id == user.id

    def _seat_of(self, row: GameRow, user: UserRef) -> Seat | None:
        return next((s for s in row.seats if self._is_user(s, user) and not s.resigned), None)

    # ------------------------------------------------------------------ who is asking, which game is meant
    async def actor(self, uow: UnitOfWork, row: GameRow, user: UserRef | None, chat: ChatRef | None,
                    is_admin: bool) -> lifecycle.Actor:
        """The asker's roles in ``row``. Admin rights count only where the command was typed in the game's
        own chat (Discord: its server; a console runs its own games)."""
        seated = self._seat_of(row, user) is not None if user else False
        creator = False
        if user is not None:
            player = await uow.players.find(user.platform, user.id)
            creator = player is not None and player.id == row.created_by
        admin = False
        if is_admin and chat is not None:
            game_chat = await uow.chats.get(row.chat_id)
            admin = game_chat is not None and chat.platform == game_chat.platform and \
                chat.league_key == game_chat.league
        return lifecycle.Actor(seated=seated, creator=creator, admin=admin)

    async def permitted(self, uow: UnitOfWork, command: str, row: GameRow, user: UserRef | None,
                        chat: ChatRef | None = None, is_admin: bool = False) -> lifecycle.Actor:
        """Check the lifecycle table for ``command`` on ``row``; the refusal says why."""
        actor = await self.actor(uow, row, user, chat, is_admin)
        lifecycle.check(command, row.id, row.status, actor)
        return actor

    async def _game_meant(self, chat: ChatRef | None, user: UserRef, game_id, command: str) -> int:
        """The number of the game a command means, found outside any write transaction. A command that writes
        to a game takes the game's lock first and its transaction second, as a move does: a move holds the lock
        while its write waits for the process's one SQLite writer connection, so the other order deadlocked."""
        async with self._uow(readonly=True) as uow:
            return (await self.find_game(uow, chat, user, game_id, command, mine=True)).id

    async def find_game(self, uow: UnitOfWork, chat: ChatRef | None, user: UserRef | None, game_id,
                        command: str, *, mine: bool = False) -> GameRow:
        """The game meant: by number (any status — the lifecycle check judges it), else the only game of this
        chat (or, in a private chat, of this person) in which ``command`` can be used. ``mine``: prefer the
        asker's own games when the chat has several."""
        number = game_number(game_id)
        if number is not None:
            row = await uow.games.get(number)
            if row is None:
                raise ServiceError(_("There is no game #{number}.", number=number))
            if chat is not None and chat.platform != "console":
                chat_row = await uow.chats.find(chat.platform, chat.id)
                if (chat_row is None or chat_row.id != row.chat_id) and \
                        not any(self._is_user(s, user) for s in row.seats):
                    raise ServiceError(_("Game #{number} is not played in this chat.", number=number))
            return row
        statuses = lifecycle.allowed_statuses(command)
        candidates = await self._candidates(uow, chat, user, statuses)
        if len(candidates) > 1 and user is not None and (mine or chat is None):
            own = [g for g in candidates if self._seat_of(g, user) is not None]
            candidates = own or candidates
        if not candidates:
            # nothing in a status the command works in: say what there is instead
            others = await self._candidates(uow, chat, user, (lifecycle.LOBBY, lifecycle.ACTIVE))
            if others:
                lifecycle.check(command, others[0].id, others[0].status, lifecycle.Actor(True, True, True))
            if chat is not None:
                raise ServiceError(_("There is no open game in this chat. Start one with /new <game> — see /help."))
            raise ServiceError(_("There is no open game for you. Start one with /new <game> — see /help."))
        if len(candidates) > 1:
            listing = ", ".join(f"#{g.id} {rules.get_game(g.game).title}" for g in candidates[:8])
            raise ServiceError(_("Several games are open ({listing}): add the number, e.g. `{number}`.",
                                 listing=listing, number=candidates[0].id))
        return candidates[0]

    async def _candidates(self, uow: UnitOfWork, chat: ChatRef | None, user: UserRef | None,
                          statuses: tuple[str, ...]) -> list[GameRow]:
        if chat is not None:
            chat_row = await uow.chats.find(chat.platform, chat.id)
            return await uow.games.in_chat(chat_row.id, statuses) if chat_row is not None else []
        if user is not None:
            player = await uow.players.find(user.platform, user.id)
            if player is not None:
                return [g for g in await uow.games.of_player(player.id, statuses)
                        if self._seat_of(g, user) is not None]
        return []

    # ------------------------------------------------------------------ active games in memory
    async def _live(self, uow: UnitOfWork, game_id: int) -> LiveGame | None:
        """The in-memory picture of an active game (loaded once; dropped when another writer moved)."""
        live = self._live_games.get(game_id)
        if live is not None:
            if time.monotonic() - live.settings_read > SETTINGS_TTL:  # another process may have changed them
                chat_row = await uow.chats.get(live.chat_db_id)
                live.settings, live.settings_read = effective(chat_row.settings), time.monotonic()
            return live
        row = await uow.games.get(game_id)
        if row is None or row.status != "active":
            return None
        chat_row = await uow.chats.get(row.chat_id)
        recent = await uow.games.last_moves(row.id, LOG_KEPT)
        live = load_live(row, chat_row, self.chat_ref(chat_row), await uow.games.move_count(row.id), recent,
                         await uow.timers.seats_with_timers(row.id))
        self._live_games[game_id] = live
        return live

    async def fresh_live(self, uow: UnitOfWork, game_id: int) -> LiveGame | None:
        """The picture of the game as stored now: reloaded when another process wrote since it was loaded."""
        live = self._live_games.get(game_id)
        if live is not None:
            stored = await uow.games.version_of(game_id)
            if stored is None or stored != live.version:
                self.forget(game_id)
        return await self._live(uow, game_id)

    def forget(self, game_id: int) -> None:
        self._live_games.pop(game_id, None)
