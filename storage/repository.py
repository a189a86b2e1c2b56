"""Repositories: the only place that writes SQL. Each works inside one unit of work's session."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import Chat, GameRow, MessageSlot, Move, Player, Seat, Timer, utcnow


class StaleVersion(Exception):
    """Another writer changed the game since it was read: nothing was written."""


class Players:
    def __init__(self, session: AsyncSession):
        self.session = session

    async def get_or_create(self, platform: str, external_id: str, name: str) -> Player:
        player = await self.find(platform, external_id)
        if player is None:
            player = Player(platform=platform, external_id=external_id, name=name)
            self.session.add(player)
            await self.session.flush()
        elif name and player.name != name:
            player.name = name
        return player

    async def find(self, platform: str, external_id: str) -> Player | None:
        return await self.session.scalar(
            select(Player).where(Player.platform == platform, Player.external_id == external_id))

    async def get(self, player_id: int) -> Player | None:
        return await self.session.get(Player, player_id)


class Chats:
    def __init__(self, session: AsyncSession):
        self.session = session

    async def get_or_create(self, platform: str, external_id: str, league: str, title: str | None) -> Chat:
        chat = await self.find(platform, external_id)
        if chat is None:
            chat = Chat(platform=platform, external_id=external_id, league=league, title=title, settings={})
            self.session.add(chat)
            await self.session.flush()
        elif title and chat.title != title:
            chat.title = title
        return chat

    async def find(self, platform: str, external_id: str) -> Chat | None:
        return await self.session.scalar(
            select(Chat).where(Chat.platform == platform, Chat.external_id == external_id))

    async def get(self, chat_id: int) -> Chat | None:
        return await self.session.get(Chat, chat_id)

    async def move(self, chat: Chat, new_external_id: str) -> None:
        """A Telegram group became a supergroup: same chat, new id."""
        chat.external_id = new_external_id


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
        rows = await self.session.scalars(
            select(GameRow).join(Seat, Seat.game_id == GameRow.id)
            .where(Seat.player_id == player_id, GameRow.status.in_(statuses)).order_by(GameRow.id).distinct())
        return list(rows)

    async def save_state(self, game: GameRow, state: dict, *, status: str | None = None,
                         result: dict | None = None) -> int:
        """Write a new snapshot if nobody else did since ``game.version`` was read; returns the new version."""
        values = {"state": state, "version": game.version + 1, "updated_at": utcnow()}
        if status is not None:
            values["status"] = status
            if status in ("finished", "aborted"):
                values["finished_at"] = utcnow()
        if result is not None:
            values["result"] = result
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
        values = {"state": state, "version": version + 1, "updated_at": utcnow()}
        if status is not None:
            values["status"] = status
            if status in ("finished", "aborted"):
                values["finished_at"] = utcnow()
        if result is not None:
            values["result"] = result
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


class Timers:
    def __init__(self, session: AsyncSession):
        self.session = session

    async def replace(self, game_id: int, timers: list[Timer]) -> None:
        await self.session.execute(delete(Timer).where(Timer.game_id == game_id))
        self.session.add_all(timers)

    async def drop_seats(self, game_id: int, seats: set[int]) -> None:
        if seats:
            await self.session.execute(delete(Timer).where(Timer.game_id == game_id, Timer.seat.in_(seats)))

    async def seats_with_timers(self, game_id: int) -> set[int]:
        return set(await self.session.scalars(select(Timer.seat).where(Timer.game_id == game_id).distinct()))

    async def clear(self, game_id: int) -> None:
        await self.session.execute(delete(Timer).where(Timer.game_id == game_id))

    async def due(self, now: datetime, limit: int = 50) -> list[Timer]:
        query = select(Timer).where(Timer.due_at <= now).order_by(Timer.due_at).limit(limit)
        if self.session.bind.dialect.name == "postgresql":
            query = query.with_for_update(skip_locked=True)
        return list(await self.session.scalars(query))

    async def next_due(self) -> datetime | None:
        return await self.session.scalar(select(func.min(Timer.due_at)))

    async def delete(self, timer: Timer) -> None:
        await self.session.delete(timer)

    async def of_game(self, game_id: int) -> list[Timer]:
        return list(await self.session.scalars(select(Timer).where(Timer.game_id == game_id).order_by(Timer.due_at)))


class Slots:
    """Platform message ids of lobbies, boards and hands, keyed by a slot name like ``board:12``."""

    def __init__(self, session: AsyncSession):
        self.session = session

    async def get(self, platform: str, slot: str) -> MessageSlot | None:
        return await self.session.scalar(
            select(MessageSlot).where(MessageSlot.platform == platform, MessageSlot.slot == slot))

    async def put(self, platform: str, slot: str, chat_external_id: str, message_id: str) -> None:
        row = await self.get(platform, slot)
        if row is None:
            self.session.add(MessageSlot(platform=platform, slot=slot, chat_external_id=chat_external_id,
                                         message_id=message_id))
        else:
            row.chat_external_id, row.message_id, row.updated_at = chat_external_id, message_id, utcnow()

    async def drop(self, platform: str, slot: str) -> None:
        await self.session.execute(
            delete(MessageSlot).where(MessageSlot.platform == platform, MessageSlot.slot == slot))
