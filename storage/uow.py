"""The unit of work: one session, one transaction, the repositories bound to it."""
from __future__ import annotations

import sqlite3
from functools import cached_property

from sqlalchemy.exc import DBAPIError

from storage import health
from storage.db import Database
from storage.repository import Chats, Games, Leagues, Outbox, Players, Slots, StaleVersion, Takebacks, Timers
from storage.repository.pages import Pages

__all__ = ["UnitOfWork", "StaleVersion"]


class UnitOfWork:
    """``async with UnitOfWork(db) as uow: ...; await uow.commit()`` — leaving without commit rolls back.

    The session is opened on first use: a move judged against the game in memory opens a unit of work that
    usually reads nothing (its write goes through the group commit), and a session costs more than the rest of
    such a call's bookkeeping."""

    def __init__(self, db: Database, *, readonly: bool = False):
        self.db = db
        self.readonly = readonly  # only reads: on SQLite it takes no write lock, so it never waits for a writer
        self._session = None

    async def __aenter__(self) -> "UnitOfWork":
        return self

    async def __aexit__(self, kind, error, _traceback) -> None:
        if self._session is not None:
            await self._session.close()  # rolls back what was not committed; loaded objects stay readable
        if isinstance(error, (DBAPIError, sqlite3.Error, OSError)):
            # disk full, read-only, file gone: said precisely (health.py); a busy database is the caller's to retry
            found = health.unavailable(error, busy=False)
            if found is not None:
                raise found from error

    @property
    def session(self):
        if self._session is None:
            db = self.db
            makers = db.read_sessions if self.readonly and db.read_sessions is not None else db.sessions
            self._session = makers()
        return self._session

    def in_transaction(self) -> bool:
        """A transaction is open (a read or write began one); False when the session was never used."""
        return self._session is not None and self._session.in_transaction()

    @cached_property
    def players(self) -> Players:
        return Players(self.session)

    @cached_property
    def chats(self) -> Chats:
        return Chats(self.session)

    @cached_property
    def games(self) -> Games:
        return Games(self.session)

    @cached_property
    def timers(self) -> Timers:
        return Timers(self.session)

    @cached_property
    def takebacks(self) -> Takebacks:
        return Takebacks(self.session)

    @cached_property
    def slots(self) -> Slots:
        return Slots(self.session)

    @cached_property
    def leagues(self) -> Leagues:
        return Leagues(self.session)

    @cached_property
    def pages(self) -> Pages:
        """The web pages' reads."""
        return Pages(self.session)

    @cached_property
    def outbox(self) -> Outbox:
        return Outbox(self.session)

    async def commit(self) -> None:
        if self._session is not None:
            await self._session.commit()

    async def rollback(self) -> None:
        if self._session is not None:
            await self._session.rollback()
