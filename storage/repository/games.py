"""Games and their move log: the snapshot written with a version check, the moves appended beside it."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import GameRow, Move, Seat, utcnow
from storage.repository.base import StaleVersion


class Games:
    def __init__(self, session: AsyncSession):
        self.session = session

    async def add(self, game: GameRow) -> GameRow:
        self.session.add(game)
        await self.session.flush()
        return game

    async def get(self, game_id: int) -> GameRow | None:
        return await self.session.get(GameRow, game_id, populate_existing=True)

    async def in_chat(self, chat_id: int, statuses: tuple[str, ...]) -> list[GameRow]:
        rows = await self.session.scalars(
            select(GameRow).where(GameRow.chat_id == chat_id, GameRow.status.in_(statuses)).order_by(GameRow.id))
        return list(rows)

    async def with_status(self, statuses: tuple[str, ...]) -> list[GameRow]:
        rows = await self.session.scalars(select(GameRow).where(GameRow.status.in_(statuses)).order_by(GameRow.id))
        return list(rows)

    async def of_player(self, player_id: int, statuses: tuple[str, ...]) -> list[GameRow]:
        # a subquery, not DISTINCT over the rows: PostgreSQL cannot compare JSON columns
        seated = select(Seat.game_id).where(Seat.player_id == player_id)
        rows = await self.session.scalars(
            select(GameRow).where(GameRow.id.in_(seated), GameRow.status.in_(statuses)).order_by(GameRow.id))
        return list(rows)

    async def version_of(self, game_id: int) -> int | None:
        """The stored version of a game (None if there is none): a copy in memory is only as good as this."""
        return await self.session.scalar(select(GameRow.version).where(GameRow.id == game_id))

    async def open_count(self, chat_id: int | None = None, created_by: int | None = None) -> int:
        """Lobbies open in a chat, or opened by a person anywhere."""
        query = select(func.count()).select_from(GameRow).where(GameRow.status == "lobby")
        if chat_id is not None:
            query = query.where(GameRow.chat_id == chat_id)
        if created_by is not None:
            query = query.where(GameRow.created_by == created_by)
        return await self.session.scalar(query)

    async def idle_lobbies(self, before: datetime, limit: int = 50, served=None) -> list[GameRow]:
        """Lobbies untouched since ``before``; only those of the chats ``served`` (a ``timers.Served``; None:
        all), so a process closes only its own platform's and shards' tables."""
        query = select(GameRow).where(GameRow.status == "lobby", GameRow.updated_at < before)
        if served is not None and not served.everything:
            query = query.where(GameRow.id.in_(served.games()))
        return list(await self.session.scalars(query.order_by(GameRow.id).limit(limit)))

    async def lock(self, game_id: int) -> GameRow | None:
        """The game row, locked until commit (PostgreSQL; SQLite's IMMEDIATE transaction already is)."""
        query = select(GameRow).where(GameRow.id == game_id).execution_options(populate_existing=True)
        if self.session.bind.dialect.name == "postgresql":
            query = query.with_for_update()
        return await self.session.scalar(query)

    async def mark_hinted(self, game_id: int) -> bool | None:
        """Record that a hint was used in an active game: True the first time, False after; None when the game
        is no longer active (then nothing is written)."""
        games = GameRow.__table__
        done = await self.session.execute(update(games).where(games.c.id == game_id, games.c.status == "active",
                                                              games.c.hinted.is_(False)).values(hinted=True))
        if done.rowcount == 1:
            return True
        status = await self.session.scalar(select(GameRow.status).where(GameRow.id == game_id))
        return False if status == "active" else None

    async def note_hint(self, game_id: int, seat: int, moves: int) -> None:
        """Seat ``seat`` asked for a hint when the log held ``moves`` moves: its next move is made after a hint
        (``moves.hinted``). The game's row is locked first: two seats asking at once both stay noted."""
        row = await self.lock(game_id)
        if row is not None:
            row.hints = {**(row.hints or {}), str(seat): moves}
            await self.session.flush()

    async def was_hinted(self, game_id: int) -> bool:
        """Read from the database, not an object in the session: a hint may have been marked since it was loaded."""
        return bool(await self.session.scalar(select(GameRow.hinted).where(GameRow.id == game_id)))

    async def touch(self, game: GameRow) -> None:
        game.updated_at = utcnow()

    async def flush(self) -> None:
        """Send what was changed so far (a read after it sees it), inside the transaction."""
        await self.session.flush()

    async def add_seat(self, game: GameRow, **values) -> Seat:
        """A new seat at ``game``'s table (``position`` and ``player_id`` or ``ai_level``)."""
        seat = Seat(game_id=game.id, **values)
        self.session.add(seat)
        return seat

    async def remove_seat(self, seat: Seat) -> None:
        await self.session.delete(seat)

    async def resign(self, seat: Seat) -> None:
        """The seat's person left the running game (an AI plays it from now on)."""
        seat.resigned = True
        await self.session.flush()

    async def save_state(self, game: GameRow, state: dict, *, status: str | None = None,
                         result: dict | None = None) -> int:
        """Write a new snapshot if nobody else did since ``game.version`` was read; returns the new version."""
        values = _snapshot_values(game.version, state, status, result)
        outcome = await self.session.execute(
            update(GameRow).where(GameRow.id == game.id, GameRow.version == game.version).values(**values)
            .execution_options(synchronize_session=False))
        if outcome.rowcount != 1:
            raise StaleVersion(f"game {game.id} changed since version {game.version}")
        for key, value in values.items():
            setattr(game, key, value)
        return game.version

    async def save_version(self, game_id: int, version: int, state: dict, *, status: str | None = None,
                           result: dict | None = None) -> int:
        """Like ``save_state`` for a game known only by id and version (the service's in-memory picture).

        The hot path of every move: a plain Core statement on the table, with the ORM's bookkeeping
        left out, because nothing in the session holds this row.
        """
        games = GameRow.__table__
        values = _snapshot_values(version, state, status, result)
        outcome = await self.session.execute(
            update(games).where(games.c.id == game_id, games.c.version == version).values(**values))
        if outcome.rowcount != 1:
            raise StaleVersion(f"game {game_id} changed since version {version}")
        return version + 1

    async def append_moves(self, game_id: int, first_seq: int, moves: list[tuple[int, dict, list, str]]) -> None:
        """Log (seat, action, events, by) rows from ``first_seq`` on, in one statement."""
        if moves:
            now = utcnow()
            await self.session.execute(insert(Move.__table__), [
                {"game_id": game_id, "seq": first_seq + i, "seat": seat, "action": action, "events": events,
                 "by": by, "created_at": now} for i, (seat, action, events, by) in enumerate(moves)])

    async def log_move(self, game_id: int, seq: int, seat: int, action: dict, events: list, by: str) -> None:
        self.session.add(Move(game_id=game_id, seq=seq, seat=seat, action=action, events=events, by=by))
        await self.session.flush()

    async def moves(self, game_id: int) -> list[Move]:
        rows = await self.session.scalars(select(Move).where(Move.game_id == game_id).order_by(Move.seq))
        return list(rows)

    async def last_moves(self, game_id: int, limit: int) -> list[Move]:
        rows = await self.session.scalars(
            select(Move).where(Move.game_id == game_id).order_by(Move.seq.desc()).limit(limit))
        return list(reversed(list(rows)))

    async def move_count(self, game_id: int) -> int:
        return await self.session.scalar(select(func.count()).select_from(Move).where(Move.game_id == game_id))

    async def recent_finished(self, chat_ids: list[int], limit: int) -> list[GameRow]:
        rows = await self.session.scalars(
            select(GameRow).where(GameRow.chat_id.in_(chat_ids), GameRow.status == "finished")
            .order_by(GameRow.finished_at.desc(), GameRow.id.desc()).limit(limit))
        return list(rows)

    async def count_finished(self, chat_ids: list[int], since) -> int:
        """How many games of the chats finished since ``since``."""
        return await self.session.scalar(
            select(func.count()).select_from(GameRow).where(
                GameRow.chat_id.in_(chat_ids), GameRow.status == "finished", GameRow.finished_at >= since)) or 0


def _snapshot_values(version: int, state: dict, status: str | None, result: dict | None) -> dict:
    """The columns a new snapshot writes: the next version, the start time when a lobby starts (the only write
    that makes a game active), and the end time when the game ends."""
    values = {"state": state, "version": version + 1, "updated_at": utcnow()}
    if status is not None:
        values["status"] = status
        if status == "active":
            values["started_at"] = values["updated_at"]
        if status in ("finished", "aborted"):
            values["finished_at"] = utcnow()
    if result is not None:
        values["result"] = result
    return values
