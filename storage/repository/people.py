"""Players and chats: rows created on a person's or chat's first command, renamed as they are."""
from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import Chat, Player, Rating, RatingChange, Season, utcnow
from storage.repository.base import insert_if_absent


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

    async def notify_of(self, player_ids: list[int]) -> dict[int, dict | None]:
        """Each player's notification settings and away periods (``players.notify``), by id."""
        if not player_ids:
            return {}
        rows = await self.session.execute(select(Player.id, Player.notify).where(Player.id.in_(player_ids)))
        return {player_id: notify for player_id, notify in rows}


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
