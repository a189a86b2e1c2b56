"""Leagues: ratings, rating changes, seasons, and the players and finished games a league's tables show."""
from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import Chat, GameRow, Player, Rating, RatingChange, Season, Seat, utcnow

LONGEST_NAME = 200  # characters: more than any platform's display names (Telegram's first and last: 129)


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
        """Players of this league whose name contains ``part``, case-insensitive (``/stats Robert``), by name.
        A part longer than any platform's names contains none: it is not searched (SQLite refuses LIKE
        patterns over 50,000 bytes)."""
        if len(part) > LONGEST_NAME:
            return []
        pattern = "%" + part.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        # a subquery, not DISTINCT over the rows: PostgreSQL cannot compare JSON columns (``players.notify``)
        seated = select(Seat.player_id).join(GameRow, GameRow.id == Seat.game_id).where(GameRow.chat_id.in_(chat_ids))
        rows = await self.session.scalars(
            select(Player).where(Player.id.in_(seated), Player.platform == platform,
                                 func.lower(Player.name).like(pattern, escape="\\"))
            .order_by(Player.name, Player.id).limit(limit))
        return list(rows)

    async def find_player_by_name(self, platform: str, name: str, chat_ids: list[int]) -> Player | None:
        """A player of this league (seated in one of its games) by name, case-insensitive."""
        return await self.session.scalar(
            select(Player).join(Seat, Seat.player_id == Player.id).join(GameRow, GameRow.id == Seat.game_id)
            .where(Player.platform == platform, func.lower(Player.name) == name.lower(),
                   GameRow.chat_id.in_(chat_ids)).limit(1))
