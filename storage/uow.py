"""The unit of work: one session, one transaction, the repositories bound to it."""
from __future__ import annotations

from storage.db import Database
from storage.repository import Chats, Games, Leagues, Outbox, Players, Slots, StaleVersion, Timers

__all__ = ["UnitOfWork", "StaleVersion"]


class UnitOfWork:
    """``async with UnitOfWork(db) as uow: ...; await uow.commit()`` — leaving without commit rolls back."""

    def __init__(self, db: Database, *, readonly: bool = False):
        self.db = db
        self.readonly = readonly  # only reads: on SQLite it takes no write lock, so it never waits for a writer

    async def __aenter__(self) -> "UnitOfWork":
        makers = self.db.read_sessions if self.readonly and self.db.read_sessions is not None else self.db.sessions
        self.session = makers()
        self.players = Players(self.session)
        self.chats = Chats(self.session)
        self.games = Games(self.session)
        self.timers = Timers(self.session)
        self.slots = Slots(self.session)
        self.leagues = Leagues(self.session)
        self.outbox = Outbox(self.session)
        return self

    async def __aexit__(self, *exc) -> None:
        await self.session.close()  # rolls back what was not committed; loaded objects stay readable

    async def commit(self) -> None:
        await self.session.commit()

    async def rollback(self) -> None:
        await self.session.rollback()
