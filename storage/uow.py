"""The unit of work: one session, one transaction, the repositories bound to it."""
from __future__ import annotations

from storage.db import Database
from storage.repository import Chats, Games, Leagues, Players, Slots, StaleVersion, Timers

__all__ = ["UnitOfWork", "StaleVersion"]


class UnitOfWork:
    """``async with UnitOfWork(db) as uow: ...; await uow.commit()`` — leaving without commit rolls back."""

    def __init__(self, db: Database):
        self.db = db

    async def __aenter__(self) -> "UnitOfWork":
        self.session = self.db.sessions()
        self.players = Players(self.session)
        self.chats = Chats(self.session)
        self.games = Games(self.session)
        self.timers = Timers(self.session)
        self.slots = Slots(self.session)
        self.leagues = Leagues(self.session)
        return self

    async def __aexit__(self, *exc) -> None:
        await self.session.close()  # rolls back what was not committed; loaded objects stay readable

    async def commit(self) -> None:
        await self.session.commit()

    async def rollback(self) -> None:
        await self.session.rollback()
