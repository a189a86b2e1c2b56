"""The service the adapters call: one class assembled from use-case modules, each with one job.

- ``lobby``: tables, seats, AI seats, start and abort; ``play``: moves, buttons, views, resigning; ``commit``: the
  commit of a move and the messages that tell it; ``timers``: turn deadlines and idle tables; ``ai_turns``: strong
  AIs think in a pool, outside any transaction; ``hints``: /hint; ``outbox``: what must be said, and pictures;
  ``chat``: a chat's games, rules, help, settings and the adapters' bookkeeping; ``leagues``: ratings.
- ``lifecycle``: which command is allowed in which status, and by whom — one table.
- ``base``: the database, the games in memory (hints, never the truth), finding the game meant.

One game, one writer: a per-game asyncio lock in the process and the ``version`` check of every write across
processes. A move (snapshot + log row + its messages in the outbox) is committed before any message about it
is returned.
"""
from __future__ import annotations

import asyncio

from storage import Database, open_database
from storage.group_commit import GroupCommit
from bot.service.ai_turns import AITurns
from bot.service.base import ServiceBase
from bot.service.chat import ChatCommands
from bot.service.errors import answers_errors
from bot.service.flood import FloodGuard
from bot.service.hints import HintCommands
from bot.service.leagues import LeagueCommands
from bot.service.lobby import LobbyCommands
from bot.service.outbox import DeliveryCommands
from bot.service.play import PlayCommands
from bot.service.timers import TimerCommands


class Service(LobbyCommands, PlayCommands, TimerCommands, AITurns, HintCommands, ChatCommands, DeliveryCommands,
              LeagueCommands, ServiceBase):
    leaderboard = answers_errors(LeagueCommands.leaderboard)
    stats = answers_errors(LeagueCommands.stats)
    history = answers_errors(LeagueCommands.history)
    new_season = answers_errors(LeagueCommands.new_season)

    def __init__(self, db: Database, *, pictures: bool = False, picture_workers: int | None = None,
                 warm_pictures: bool = True):
        ServiceBase.__init__(self, db, pictures=pictures)
        self._init_delivery(picture_workers, warm_pictures)
        self._init_ai()
        self._timer_wakeup = asyncio.Event()
        self._group = GroupCommit(db)  # concurrent moves share one transaction (see storage/group_commit.py)

    async def close(self) -> None:
        """End what runs in the background before the database closes under it: the loops, the AI jobs, the
        deliveries, and the group commit's batch in flight (its movers get their answer)."""
        await self._end_loops()
        await self.close_ai()
        await self.close_delivery()
        await self._group.wait_idle()
        await self.db.close()


async def build_service(database_url: str | None = None, *, pictures: bool = False,
                        flood_guard: bool = False, picture_workers: int | None = None,
                        warm_pictures: bool = True) -> Service:
    """Open (and migrate) the database, resume every active game; the fixed entry point for all adapters.
    ``pictures``: send board and hand pictures with the text (chat platforms); ``flood_guard``: answer a person
    who floods a chat with "slow down" (the chat platforms); ``picture_workers``: processes drawing pictures
    (default a core each but the event loop's; they start on the first picture), ``warm_pictures``: each first
    draws a few pictures of every game so its caches are warm (tests pass ``picture_workers=1,
    warm_pictures=False``)."""
    from bot.settings import DEFAULT_DATABASE_URL

    db = await open_database(database_url or DEFAULT_DATABASE_URL)
    service = Service(db, pictures=pictures, picture_workers=picture_workers, warm_pictures=warm_pictures)
    if flood_guard:
        service.flood = FloodGuard()
    await service.resume()
    return service
