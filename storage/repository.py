"""Repositories: the only place that writes SQL. Each works inside one unit of work's session."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import (Chat, GameRow, MessageSlot, Move, OutboxMessage, Player, Rating, RatingChange, Season,
                            Seat, Timer, utcnow)


class StaleVersion(Exception):
    """Another writer changed the game since it was read: nothing was written."""


async def insert_if_absent(session: AsyncSession, model, **values) -> None:
    """INSERT … ON CONFLICT DO NOTHING: of two processes creating the same row at once, one wins, neither fails."""
    dialect = session.bind.dialect.name
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as dialect_insert
    else:
        from sqlalchemy.dialects.sqlite import insert as dialect_insert
    await session.execute(dialect_insert(model.__table__).values(**values).on_conflict_do_nothing())


class Players:
    def __init__(self, session: AsyncSession):
        self.session = session

    async def get_or_create(self, platform: str, external_id: str, name: str, locale: str | None = None) -> Player:
        """The person's row; ``locale`` (their client's language, when the platform says) is remembered, so their
        private messages speak it when they did not choose a language themselves."""
        player = await self.find(platform, external_id)
        if player is None:  # two first commands of one person at once must not collide
            await insert_if_absent(self.session, Player, platform=platform, external_id=external_id, name=name,
                                   created_at=utcnow(), locale=locale)
            player = await self.find(platform, external_id)
        else:
            if name and player.name != name:
                player.name = name
            if locale and player.locale != locale:
                player.locale = locale
        return player

    async def find(self, platform: str, external_id: str) -> Player | None:
        return await self.session.scalar(
            select(Player).where(Player.platform == platform, Player.external_id == external_id))

    async def get(self, player_id: int) -> Player | None:
        return await self.session.get(Player, player_id)


class Chats:
    def __init__(self, session: AsyncSession):
        self.session = session

    async def get_or_create(self, platform: str, external_id: str, league: str, title: str | None,
                            settings: dict | None = None) -> Chat:
        """The chat's row; ``settings`` are those a new chat starts with (e.g. the language of its server)."""
        chat = await self.find(platform, external_id)
        if chat is None:
            await insert_if_absent(self.session, Chat, platform=platform, external_id=external_id, league=league,
                                   title=title, settings=settings or {})
            chat = await self.find(platform, external_id)
        elif title and chat.title != title:
            chat.title = title
        return chat

    async def find(self, platform: str, external_id: str) -> Chat | None:
        return await self.session.scalar(
            select(Chat).where(Chat.platform == platform, Chat.external_id == external_id))

    async def get(self, chat_id: int) -> Chat | None:
        return await self.session.get(Chat, chat_id)

    async def move(self, chat: Chat, new_external_id: str) -> None:
        """A Telegram group became a supergroup: same chat, new id — and its league (ratings, rating history and
        seasons are keyed by the league) moves with it when the league was named after the old id."""
        old_league = f"{chat.platform}:{chat.external_id}"
        chat.external_id = new_external_id
        if chat.league == old_league:
            new_league = f"{chat.platform}:{new_external_id}"
            chat.league = new_league
            for table in (Rating, RatingChange, Season):
                await self.session.execute(update(table).where(table.league == old_league)
                                           .values(league=new_league).execution_options(synchronize_session=False))


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

    async def idle_lobbies(self, before: datetime, limit: int = 50) -> list[GameRow]:
        return list(await self.session.scalars(
            select(GameRow).where(GameRow.status == "lobby", GameRow.updated_at < before)
            .order_by(GameRow.id).limit(limit)))

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

    async def was_hinted(self, game_id: int) -> bool:
        """Read from the database, not an object in the session: a hint may have been marked since it was loaded."""
        return bool(await self.session.scalar(select(GameRow.hinted).where(GameRow.id == game_id)))

    async def touch(self, game: GameRow) -> None:
        game.updated_at = utcnow()

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


async def claim_rows(session: AsyncSession, model, conditions: list, order, me: str, now: datetime,
                     lease_before: datetime, limit: int) -> list:
    """Rows of ``model`` matching ``conditions`` that nobody holds (never claimed, or claimed before the lease:
    that process died), claimed for process ``me``. Each row goes to exactly one process: ``FOR UPDATE SKIP
    LOCKED`` on PostgreSQL; SQLite's write transaction is exclusive. Commit to make the claim visible."""
    query = (select(model).where(*conditions, (model.claimed_at.is_(None)) | (model.claimed_at < lease_before))
             .order_by(order).limit(limit))
    if session.bind.dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    rows = list(await session.scalars(query))
    for row in rows:
        row.claimed_by, row.claimed_at = me, now
    return rows


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

    async def clear(self, game_id: int, kinds: tuple[str, ...] | None = None) -> None:
        """Drop the game's timers (only those of ``kinds`` when given)."""
        query = delete(Timer).where(Timer.game_id == game_id)
        if kinds is not None:
            query = query.where(Timer.kind.in_(kinds))
        await self.session.execute(query)

    async def release(self, timer_id: int, me: str) -> None:
        """Give a claimed timer back unfired, so that the next round (of any process) fires it at once."""
        await self.session.execute(update(Timer).where(Timer.id == timer_id, Timer.claimed_by == me)
                                   .values(claimed_by=None, claimed_at=None))

    async def claim_due(self, now: datetime, me: str, lease_before: datetime, limit: int = 50) -> list[Timer]:
        """Claim due timers for process ``me``: each is claimed by exactly one process (``FOR UPDATE SKIP
        LOCKED`` on PostgreSQL; SQLite's write transaction is exclusive). A claim older than the lease (its
        process died) is taken over. Commit to make the claim visible."""
        return await claim_rows(self.session, Timer, [Timer.due_at <= now], Timer.due_at, me, now, lease_before,
                                limit)

    async def take(self, timer_id: int, me: str) -> bool:
        """Delete a timer this process claimed; False when it is gone or another process took it over."""
        done = await self.session.execute(delete(Timer).where(Timer.id == timer_id, Timer.claimed_by == me))
        return done.rowcount == 1

    async def next_due(self) -> datetime | None:
        """The next unclaimed deadline (a claimed one is fired by its process, or taken over after its lease)."""
        return await self.session.scalar(select(func.min(Timer.due_at)).where(Timer.claimed_at.is_(None)))

    async def of_game(self, game_id: int) -> list[Timer]:
        return list(await self.session.scalars(select(Timer).where(Timer.game_id == game_id).order_by(Timer.due_at)))


class Outbox:
    """Messages to deliver, written with what they tell (see ``OutboxMessage``)."""

    def __init__(self, session: AsyncSession):
        self.session = session

    async def add(self, rows: list[dict]) -> None:
        if rows:
            await self.session.execute(insert(OutboxMessage.__table__), rows)

    async def mark_sent(self, keys: list[str], when: datetime) -> None:
        if keys:
            table = OutboxMessage.__table__
            await self.session.execute(update(table).where(table.c.key.in_(keys)).values(sent_at=when))

    async def claim(self, platforms: list[str], me: str, now: datetime, lease_before: datetime,
                    limit: int = 100) -> list[OutboxMessage]:
        """Unsent messages of ``platforms`` nobody holds (never claimed, or the claim is older than the lease),
        oldest first, claimed for ``me``. Commit to make the claim visible."""
        return await claim_rows(self.session, OutboxMessage,
                                [OutboxMessage.platform.in_(platforms), OutboxMessage.sent_at.is_(None)],
                                OutboxMessage.id, me, now, lease_before, limit)

    async def pending(self, platform: str | None = None) -> list[OutboxMessage]:
        query = select(OutboxMessage).where(OutboxMessage.sent_at.is_(None)).order_by(OutboxMessage.id)
        if platform is not None:
            query = query.where(OutboxMessage.platform == platform)
        return list(await self.session.scalars(query))

    async def purge_sent(self, before: datetime) -> None:
        await self.session.execute(delete(OutboxMessage).where(OutboxMessage.sent_at < before))


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


class Leagues:
    """Ratings, rating changes and seasons of a league (a Discord server or Telegram group, per platform)."""

    def __init__(self, session: AsyncSession):
        self.session = session

    async def season(self, league: str, game: str) -> int:
        row = await self.session.scalar(select(Season).where(Season.league == league, Season.game == game))
        return row.number if row else 1

    async def start_season(self, league: str, game: str) -> int:
        row = await self.session.scalar(select(Season).where(Season.league == league, Season.game == game)
                                        .with_for_update())
        if row is None:
            row = Season(league=league, game=game, number=2)
            self.session.add(row)
        else:
            row.number += 1
            row.started_at = utcnow()
        await self.session.flush()
        return row.number

    async def ratings(self, league: str, game: str, season: int, player_ids: list[int] | None = None,
                      lock: bool = False) -> list[Rating]:
        query = select(Rating).where(Rating.league == league, Rating.game == game, Rating.season == season)
        if player_ids is not None:
            query = query.where(Rating.player_id.in_(player_ids))
        if lock:  # PostgreSQL: two games ending at once update one rating one after the other
            query = query.with_for_update()
        return list(await self.session.scalars(query.order_by(Rating.id)))

    async def add_rating(self, rating: Rating) -> None:
        self.session.add(rating)
        await self.session.flush()

    async def add_change(self, change: RatingChange) -> None:
        self.session.add(change)

    async def games_rated(self, league: str) -> list[str]:
        return list(await self.session.scalars(select(Rating.game).where(Rating.league == league).distinct()
                                               .order_by(Rating.game)))

    async def changes_of_game(self, game_id: int) -> list[RatingChange]:
        return list(await self.session.scalars(select(RatingChange).where(RatingChange.game_id == game_id)))

    async def changes_of_player(self, league: str, player_id: int) -> list[RatingChange]:
        return list(await self.session.scalars(
            select(RatingChange).where(RatingChange.league == league, RatingChange.player_id == player_id)
            .order_by(RatingChange.id)))

    async def ratings_of_player(self, league: str, player_id: int) -> list[Rating]:
        return list(await self.session.scalars(
            select(Rating).where(Rating.league == league, Rating.player_id == player_id)
            .order_by(Rating.game, Rating.season)))

    async def chat_ids(self, platform: str, league: str) -> list[int]:
        return list(await self.session.scalars(select(Chat.id).where(Chat.platform == platform,
                                                                     Chat.league == league)))

    async def finished_games(self, chat_ids: list[int], limit: int | None = None) -> list[GameRow]:
        query = (select(GameRow).where(GameRow.chat_id.in_(chat_ids), GameRow.status == "finished")
                 .order_by(GameRow.finished_at.desc(), GameRow.id.desc()))
        if limit:
            query = query.limit(limit)
        return list(await self.session.scalars(query))

    async def players(self, ids: list[int]) -> dict[int, Player]:
        rows = await self.session.scalars(select(Player).where(Player.id.in_(ids)))
        return {p.id: p for p in rows}

    async def players_named_like(self, platform: str, part: str, chat_ids: list[int], limit: int = 10) -> list[Player]:
        """Players of this league whose name contains ``part``, case-insensitive (``/stats Robert``), by name."""
        pattern = "%" + part.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = await self.session.scalars(
            select(Player).join(Seat, Seat.player_id == Player.id).join(GameRow, GameRow.id == Seat.game_id)
            .where(Player.platform == platform, func.lower(Player.name).like(pattern, escape="\\"),
                   GameRow.chat_id.in_(chat_ids)).distinct().order_by(Player.name, Player.id).limit(limit))
        return list(rows)

    async def find_player_by_name(self, platform: str, name: str, chat_ids: list[int]) -> Player | None:
        """A player of this league (seated in one of its games) by name, case-insensitive."""
        return await self.session.scalar(
            select(Player).join(Seat, Seat.player_id == Player.id).join(GameRow, GameRow.id == Seat.game_id)
            .where(Player.platform == platform, func.lower(Player.name) == name.lower(),
                   GameRow.chat_id.in_(chat_ids)).limit(1))
