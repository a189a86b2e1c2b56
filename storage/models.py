"""The tables. Game state is a JSON snapshot plus an append-only move log; ``version`` guards every write."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import (JSON, false, BigInteger, Boolean, DateTime, Float, ForeignKey, Index, Integer, String,
                        UniqueConstraint)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Base(DeclarativeBase):
    type_annotation_map = {dict: JSON, list: JSON}


class Player(Base):
    """A person on one platform."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("platform", "external_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform: Mapped[str] = mapped_column(String(16))
    external_id: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(100))
    dm_ok: Mapped[bool | None] = mapped_column(Boolean, nullable=True)  # None: unknown yet
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)  # chosen: /settings mylanguage=de
    locale: Mapped[str | None] = mapped_column(String(8), nullable=True)  # last seen client language
    # /settings myweb=hidden: the web pages show "a player" instead of the name
    web_hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # /notify and /away: ping, reminders, quiet hours and time zone, digest; away periods (``bot/service/clocks.py``)
    notify: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Chat(Base):
    """A channel or group; also the league its games are rated in (see ``league``)."""

    __tablename__ = "chats"
    __table_args__ = (UniqueConstraint("platform", "external_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform: Mapped[str] = mapped_column(String(16))
    external_id: Mapped[str] = mapped_column(String(64))
    league: Mapped[str] = mapped_column(String(64))  # the Discord guild or the Telegram group
    title: Mapped[str | None] = mapped_column(String(200), nullable=True)
    settings: Mapped[dict] = mapped_column(JSON, default=dict)


class GameRow(Base):
    __tablename__ = "games"
    # a chat's finished games, newest first, without reading every game of the chat (the web pages, /history)
    __table_args__ = (Index("ix_games_chat_status_finished", "chat_id", "status", "finished_at"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(ForeignKey("chats.id"), index=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict] = mapped_column(JSON, default=dict)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)  # lobby, active, finished, aborted
    state: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_by: Mapped[int] = mapped_column(ForeignKey("players.id"))
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    # someone asked the strong AI for a hint during the game: it is never rated
    hinted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # when each seat last asked for a hint: {"seat": the number of logged moves then}; its next move is marked
    hints: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    result: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    # time banks (``clock=2d+12h`` at /new): the control and each seat's bank as of ``since``; None: a live game
    clocks: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)  # left the lobby
    seats: Mapped[list["Seat"]] = relationship(order_by="Seat.position", lazy="selectin",
                                               cascade="all, delete-orphan")


class Seat(Base):
    """A seat in a lobby or game. ``position`` is the join order; ``seat`` the engine seat once started."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "position"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    ai_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    resigned: Mapped[bool] = mapped_column(Boolean, default=False)
    view_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)  # last private view sent
    player: Mapped[Player | None] = relationship(lazy="joined")


class Move(Base):
    """Append-only log: seed + moves rebuild any game."""

    __tablename__ = "moves"
    # the unique (game_id, seq) index also finds a game's moves: no second index on game_id (migration 0005)
    __table_args__ = (UniqueConstraint("game_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict] = mapped_column(JSON)
    events: Mapped[list] = mapped_column(JSON, default=list)  # Event.to_json() of what the move caused
    by: Mapped[str] = mapped_column(String(16), default="player")  # player, ai, timer
    # taken back (``/undo``): it stays in the log, and the game is rebuilt from the seed and the moves not taken back
    taken_back: Mapped[bool] = mapped_column(Boolean, server_default=false())
    # made after its mover asked for a hint since their previous move (``/hint``; the record's "hint" flag)
    hinted: Mapped[bool] = mapped_column(Boolean, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Takeback(Base):
    """A request to take moves back by consent (``/undo`` when others acted since): the seats still to accept,
    valid for the game's ``version`` it was asked at and until ``due_at``; ``status`` open, accepted, declined."""

    __tablename__ = "takebacks"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)  # who asked
    version: Mapped[int] = mapped_column(Integer)
    first_seq: Mapped[int] = mapped_column(Integer)  # the asker's move: it and every move after it go
    waiting: Mapped[list] = mapped_column(JSON, default=list)  # seats that have not accepted yet
    status: Mapped[str] = mapped_column(String(16), default="open")
    asked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Timer(Base):
    """A turn deadline: ``remind`` at half time, then ``autoplay`` by an AI; or ``ai``: a strong AI seat is to act
    (the process that claims it thinks, outside any transaction, then commits the move). Valid only for
    ``version``. ``close`` (seat -1): a finished game's place is closed when it falls due."""

    __tablename__ = "timers"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    version: Mapped[int] = mapped_column(Integer)
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    # the process firing it (one only: an atomic claim); a claim older than the lease is taken over
    claimed_by: Mapped[str | None] = mapped_column(String(96), nullable=True)
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class OutboxMessage(Base):
    """A message that must reach a chat or person, written in the transaction of what it tells.

    The process that wrote it delivers it at once when it serves the platform (``claimed_by``); otherwise, or
    when that process died before marking it ``sent_at``, a delivery loop of a process serving the platform
    claims it after the lease and sends it then. Board and hand messages replace their slot, so a repeat is
    harmless.
    """

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_pending", "platform", "sent_at"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(32), unique=True)
    platform: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    slot: Mapped[str | None] = mapped_column(String(160), nullable=True)
    payload: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    claimed_by: Mapped[str | None] = mapped_column(String(96), nullable=True)
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class MessageSlot(Base):
    """Which platform message shows a game's lobby, board or a person's hand, so adapters can edit it."""

    __tablename__ = "message_slots"
    __table_args__ = (UniqueConstraint("platform", "slot"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform: Mapped[str] = mapped_column(String(16))
    slot: Mapped[str] = mapped_column(String(128))
    chat_external_id: Mapped[str] = mapped_column(String(64))
    message_id: Mapped[str] = mapped_column(String(64))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Rating(Base):
    """A player's current rating in one league, game and season (OpenSkill Plackett–Luce)."""

    __tablename__ = "ratings"
    __table_args__ = (UniqueConstraint("league", "game", "season", "player_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    league: Mapped[str] = mapped_column(String(64), index=True)
    game: Mapped[str] = mapped_column(String(32))
    season: Mapped[int] = mapped_column(Integer, default=1)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)


class RatingChange(Base):
    """One rated game's effect on one player, for history and charts."""

    __tablename__ = "rating_changes"
    # wins per player of a league's season (the web's standings) without reading the whole table
    __table_args__ = (UniqueConstraint("game_id", "player_id"),
                      Index("ix_rating_changes_season_place", "league", "game", "season", "place", "player_id"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    league: Mapped[str] = mapped_column(String(64))
    game: Mapped[str] = mapped_column(String(32))
    season: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Season(Base):
    """The current season number of a league (per game); absent means season 1."""

    __tablename__ = "seasons"
    __table_args__ = (UniqueConstraint("league", "game"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    league: Mapped[str] = mapped_column(String(64))
    game: Mapped[str] = mapped_column(String(32))
    number: Mapped[int] = mapped_column(Integer, default=1)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
