"""Takeback requests: moves taken back by consent, asked of the others and answered by each (``/undo``)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import Takeback


class Takebacks:
    def __init__(self, session: AsyncSession):
        self.session = session

    async def ask(self, game_id: int, seat: int, version: int, first_seq: int, waiting: list[int],
                  asked_at: datetime, due_at: datetime) -> Takeback:
        """A new open request; an older open one of the game is closed (one question at a time)."""
        await self.session.execute(update(Takeback).where(Takeback.game_id == game_id, Takeback.status == "open")
                                   .values(status="replaced"))
        row = Takeback(game_id=game_id, seat=seat, version=version, first_seq=first_seq, waiting=sorted(waiting),
                       status="open", asked_at=asked_at, due_at=due_at)
        self.session.add(row)
        await self.session.flush()
        return row

    async def get(self, request_id: int) -> Takeback | None:
        return await self.session.get(Takeback, request_id, populate_existing=True)

    async def answer(self, row: Takeback, seat: int, accepted: bool) -> None:
        """``seat`` accepts (no longer waited for) or declines (the request is closed)."""
        if accepted:
            row.waiting = [s for s in row.waiting if s != seat]
        else:
            row.status = "declined"
        await self.session.flush()

    async def close(self, row: Takeback, status: str) -> None:
        row.status = status
        await self.session.flush()

    async def open_of(self, game_id: int) -> list[Takeback]:
        rows = await self.session.scalars(select(Takeback).where(Takeback.game_id == game_id,
                                                                 Takeback.status == "open"))
        return list(rows)
