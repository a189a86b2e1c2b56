"""The service as its callers hold it: the handlers' context, the bus, and the delivery's few stores.

- ``handle(command)`` is the one way in (the adapters): the bus runs the command's handler and returns what
  it makes the bot say — boards and hands as recipes, not yet rendered.
- ``finish(messages)`` is the delivery step: render and draw just before sending (``Delivery``'s prepare).
- ``ask(command)`` is both at once: a reply finished when it leaves (the console, tests and benches); the
  named calls below (``act``, ``join``, …) each build one command and ``ask`` it.
- ``marks`` (outbox rows held and delivered) and ``slots`` (which platform message shows a slot) are the stores an
  adapter's outbound half reports to.
"""
from __future__ import annotations

import asyncio
from datetime import datetime

from storage import Database, open_database
from storage.group_commit import GroupCommit
from bot.render.pool import PicturePool
from bot.settings import DEFAULT_DATABASE_URL
from bot.service import bus, commands as c, finding, outbox, rendering
from bot.service.context import Context
from bot.service.flood import FloodGuard
from bot.service.handlers import people, timers
from bot.service.handlers.settings import chat_settings
from bot.service.live_games import DEFAULT_SIZE, LiveGames
from bot.service.messages import ChatRef, Message, UserRef


class Service:
    def __init__(self, ctx: Context, *, picture_workers: int | None = None, warm_pictures: bool = True):
        self.ctx = ctx
        # pictures are drawn in worker processes (a core each but the loop's), never on the event loop; they
        # start on the first picture, so a service without pictures never starts them
        self.pictures_pool = PicturePool(picture_workers, warm=warm_pictures)
        self.marks = outbox.DeliveryMarks(ctx)
        self.slots = outbox.SlotStore(ctx)
        self._loops: set[asyncio.Task] = set()

    @property
    def db(self) -> Database:
        return self.ctx.db

    # ---------------------------------------------------------------- in and out
    async def handle(self, command: c.Command) -> list[Message]:
        return await bus.handle(self.ctx, command)

    async def finish(self, messages: list[Message]) -> list[Message]:
        return await rendering.finish(messages, self.pictures_pool)

    async def finish_one(self, message: Message) -> None:
        """``finish`` for one message: a ``Delivery``'s prepare, just before it sends."""
        await rendering.finish([message], self.pictures_pool)

    async def ask(self, command: c.Command) -> list[Message]:
        """Handle the command and return its reply finished (rendered, pictures drawn)."""
        out = await self.handle(command)
        if any(not isinstance(m, Message) for m in out):  # ``ListChoices``: (label, notation) pairs
            return out
        return await self.finish(out)

    async def delivered(self, outbox_ids: list[str]) -> None:
        await self.marks.delivered(outbox_ids)

    async def flush_delivered(self) -> None:
        await self.marks.flush()

    # ---------------------------------------------------------------- the loops
    def _count_loop(self) -> None:
        """Count the calling task among the loops that ``close`` ends before the database closes."""
        task = asyncio.current_task()
        if task is not None:
            self._loops.add(task)
            task.add_done_callback(self._loops.discard)

    async def timer_loop(self, deliver, max_sleep: float = 30.0) -> None:
        """Fire due timers forever, handing their messages to ``deliver`` (an adapter's, which finishes them)."""
        self._count_loop()
        await timers.timer_loop(self.ctx, deliver, max_sleep)

    async def outbox_loop(self, deliver, platforms: list[str], interval: float = 1.0) -> None:
        """Deliver forever what this process's platforms are owed from the outbox."""
        self._count_loop()
        await outbox.outbox_loop(self.ctx, deliver, platforms, self.marks, interval)

    async def run_timers(self, moment: datetime | None = None, *, deliver=None) -> list[Message]:
        return await self.finish(await timers.run_timers(self.ctx, moment, deliver=deliver))

    async def next_timer_due(self) -> datetime | None:
        return await timers.next_timer_due(self.ctx)

    async def claim_outbox(self, platforms: list[str], limit: int = 100) -> list[Message]:
        return await self.finish(await outbox.claim(self.ctx, platforms, limit))

    async def pending_outbox(self, platform: str | None = None) -> list[Message]:
        return await self.finish(await outbox.pending(self.ctx, platform))

    async def close(self) -> None:
        """End what runs in the background before the database closes under it: the loops, the AI jobs, the
        delivered marks, the pictures, and the group commit's batch in flight (its movers get their answer)."""
        loops = [task for task in self._loops if task is not asyncio.current_task()]
        for task in loops:
            task.cancel()
        if loops:  # a loop cancelled inside a transaction rolls back on a connection that is still open
            await asyncio.gather(*loops, return_exceptions=True)
        await self.ctx.thinking.close()
        await self.marks.close()
        await self.pictures_pool.aclose()
        await self.ctx.group.wait_idle()
        await self.ctx.db.close()

    # ---------------------------------------------------------------- named calls: one command each, finished
    async def create_lobby(self, chat: ChatRef, user: UserRef, game_name: str, options_text: str = "",
                           seed: int | None = None) -> list[Message]:
        return await self.ask(c.CreateLobby(user, chat, game_name, options_text, seed))

    async def join(self, chat, user, game_id=None):
        return await self.ask(c.Join(user, chat, game_id))

    async def leave(self, chat, user, game_id=None):
        return await self.ask(c.Leave(user, chat, game_id))

    async def add_ai(self, chat, user, level="greedy", game_id=None, is_admin=False):
        return await self.ask(c.AddAI(user, chat, level, game_id, is_admin))

    async def start(self, chat, user, game_id=None):
        return await self.ask(c.Start(user, chat, game_id))

    async def abort(self, chat, user, game_id=None, is_admin=False):
        return await self.ask(c.Abort(user, chat, game_id, is_admin))

    async def act(self, chat, user, move, game_id=None, version=None):
        return await self.ask(c.MakeMove(user, chat, move, game_id, version))

    async def press(self, user, data, chat=None, is_admin=False):
        return await self.ask(c.PressButton(user, chat, data, None, is_admin))

    async def choose(self, user, data, values, chat=None):
        return await self.ask(c.PressButton(user, chat, data, tuple(values)))

    async def show_private(self, user, game_id=None, chat=None):
        return await self.ask(c.ShowHand(user, chat, game_id))

    async def show_board(self, chat, game_id=None, user=None):
        return await self.ask(c.ShowBoard(user, chat, game_id))

    async def choices(self, user, game_id=None):
        return await self.ask(c.ListChoices(user, None, game_id))

    async def resign(self, chat, user, game_id=None, confirmed=True):
        return await self.ask(c.Resign(user, chat, game_id, confirmed))

    async def undo(self, chat, user, game_id=None, version=None):
        return await self.ask(c.TakeBack(user, chat, game_id, version))

    async def hint(self, chat, user, game_id=None):
        return await self.ask(c.Hint(user, chat, game_id))

    async def games(self, chat, user=None):
        return await self.ask(c.ShowGames(user, chat))

    async def rules_text(self, chat, game_name="", user=None):
        return await self.ask(c.ShowRules(user, chat, game_name))

    async def help(self, chat=None, user=None, text=""):
        return await self.ask(c.ShowHelp(user, chat, text))

    async def log(self, chat, user, text="", game_id=None):
        return await self.ask(c.ShowLog(user, chat, text, game_id))

    async def settings(self, chat, user, text="", is_admin=False):
        return await self.ask(c.ChangeSettings(user, chat, text, is_admin))

    async def away(self, chat, user, text=""):
        return await self.ask(c.GoAway(user, chat, text))

    async def back(self, chat, user):
        return await self.ask(c.ComeBack(user, chat))

    async def notify(self, chat, user, text=""):
        return await self.ask(c.ChangeNotify(user, chat, text))

    async def leaderboard(self, chat, user=None, text=""):
        return await self.ask(c.ShowLeaderboard(user, chat, text))

    async def stats(self, chat, user=None, text=""):
        return await self.ask(c.ShowStats(user, chat, text))

    async def history(self, chat, user=None, text=""):
        return await self.ask(c.ShowHistory(user, chat, text))

    async def web(self, chat, user=None):
        return await self.ask(c.ShowWeb(user, chat))

    async def new_season(self, chat, user, text="", is_admin=False):
        return await self.ask(c.NewSeason(user, chat, text, is_admin))

    async def dm_opened(self, user):
        return await self.ask(c.PrivateChatOpened(user, None))

    async def dm_failed(self, user, game_id):
        return await self.ask(c.PrivateChatFailed(user, None, game_id))

    async def dm_delivered(self, user):
        await self.handle(c.PrivateChatDelivered(user, None))

    async def migrate_chat(self, platform, old_id, new_id):
        await self.handle(c.ChatMoved(None, None, platform, old_id, new_id))

    async def chat_settings(self, chat: ChatRef) -> dict:
        return await chat_settings(self.ctx, chat)

    async def language_of(self, user: UserRef, chat: ChatRef | None) -> str:
        """The language ``user`` is answered in (in ``chat``, or privately when None)."""
        return await self.ctx.languages.of_asker(self.ctx, user, chat)

    async def active_game_ids(self) -> list[int]:
        return await finding.active_game_ids(self.ctx)

    async def games_of(self, user: UserRef, statuses: tuple[str, ...] = ("active",)) -> list[int]:
        return await people.games_of(self.ctx, user, statuses)


async def build_service(database_url: str | None = None, *, pictures: bool = False,
                        flood_guard: bool = False, picture_workers: int | None = None,
                        warm_pictures: bool = True, serves: set[str] | None = None,
                        shards: tuple[int, list[int] | None] | None = None,
                        games_in_memory: int = DEFAULT_SIZE) -> Service:
    """Open (and migrate) the database; the fixed entry point for all adapters. ``pictures``: send board and
    hand pictures with the text (chat platforms); ``flood_guard``: answer a person who floods a chat with "slow
    down" (the chat platforms); ``picture_workers``: processes drawing pictures (default a core each but the
    event loop's; they start on the first picture), ``warm_pictures``: each first draws a few pictures of every
    game so its caches are warm (tests pass ``picture_workers=1, warm_pictures=False``); ``serves``: the
    platforms this process sends to itself and whose timers and AI turns it claims (None: all; the others'
    messages wait in the outbox); ``shards``: (Discord's shard count, the shard ids this process connects) —
    it claims only the timers of those shards' guilds (None, or ids None: every guild); ``games_in_memory``:
    the most games kept in memory (the least recently used is dropped and read again when next used).

    No game is read at start: each is loaded when first used (timers and the outbox come from the database)."""
    db = await open_database(database_url or DEFAULT_DATABASE_URL)
    count, ids = shards or (None, None)
    ctx = Context(db=db, group=GroupCommit(db), games=LiveGames(games_in_memory), pictures=pictures,
                  flood=FloodGuard() if flood_guard else None, serves=serves,
                  shards=None if count is None or ids is None else (count, frozenset(ids)))
    return Service(ctx, picture_workers=picture_workers, warm_pictures=warm_pictures)
