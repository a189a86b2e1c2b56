"""The web pages' reads (``bot/web``): a chat by its public slug, wins per player, a player's finished games.

Only reads: the web process opens read-only units of work. The rest of what a page shows comes from the
``Leagues`` and ``Games`` repositories the bots use.
"""
from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import Chat, GameRow, Move, RatingChange, Seat


class Pages:
    def __init__(self, session: AsyncSession):
        self.session = session

    async def chat_by_slug(self, slug: str) -> Chat | None:
        """The chat that published its league under ``slug`` (``/settings web=on``); None when none did, or it
        turned the pages off since."""
        if not slug or len(slug) > 64:
            return None
        chat = await self.session.scalar(select(Chat).where(Chat.settings["web_slug"].as_string() == slug))
        if chat is None or (chat.settings or {}).get("web") != "on":
            return None
        return chat

    async def shown_of(self, platform: str) -> list[Chat]:
        """The chats of a platform that show their pages (the console's, to name at the web process's start)."""
        chats = await self.session.scalars(select(Chat).where(Chat.platform == platform))
        return [chat for chat in chats if (chat.settings or {}).get("web") == "on"
                and (chat.settings or {}).get("web_slug")]

    async def wins(self, league: str, game: str, season: int) -> dict[int, int]:
        """Rated games won (first place) per player in one season of a league's game."""
        rows = await self.session.execute(
            select(RatingChange.player_id, func.count()).where(
                RatingChange.league == league, RatingChange.game == game, RatingChange.season == season,
                RatingChange.place == 1).group_by(RatingChange.player_id))
        return {player_id: count for player_id, count in rows}

    async def finished_of_player(self, chat_id: int, player_id: int, limit: int) -> list[GameRow]:
        """The player's last finished games in one chat, newest first."""
        seated = select(Seat.game_id).where(Seat.player_id == player_id)
        return list(await self.session.scalars(
            select(GameRow).where(GameRow.chat_id == chat_id, GameRow.status == "finished", GameRow.id.in_(seated))
            .order_by(GameRow.finished_at.desc(), GameRow.id.desc()).limit(limit)))

    async def plays_in(self, chat_id: int, player_id: int) -> bool:
        """The player sat at a table of this chat (else their page does not exist there)."""
        return await self.session.scalar(
            select(func.count()).select_from(Seat).join(GameRow, GameRow.id == Seat.game_id)
            .where(GameRow.chat_id == chat_id, Seat.player_id == player_id)) > 0

    async def game_in(self, chat_id: int, game_id: int) -> GameRow | None:
        """A game of this chat (started: lobbies and aborted tables have no page)."""
        return await self.session.scalar(select(GameRow).where(
            GameRow.id == game_id, GameRow.chat_id == chat_id, GameRow.status.in_(("active", "finished"))))

    async def moves(self, game_id: int) -> list[Move]:
        return list(await self.session.scalars(select(Move).where(Move.game_id == game_id).order_by(Move.seq)))
