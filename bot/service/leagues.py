"""League commands of the service (ratings, seasons, leaderboards, history). Placeholder until issue 10 lands."""
from __future__ import annotations

from bot.service.messages import ChatRef, Message, UserRef


class LeagueCommands:
    """Mixed into Service. ``rate_finished`` runs inside the transaction that ends a game."""

    async def rate_finished(self, uow, row, state, chat: ChatRef) -> list[Message]:
        return []

    async def leaderboard(self, chat: ChatRef, user: UserRef | None = None, text: str = "") -> list[Message]:
        return [Message("Leaderboards are coming soon.", chat=chat, user=user)]

    async def stats(self, chat: ChatRef, user: UserRef | None = None, text: str = "") -> list[Message]:
        return [Message("Stats are coming soon.", chat=chat, user=user)]

    async def history(self, chat: ChatRef, user: UserRef | None = None, text: str = "") -> list[Message]:
        return [Message("History is coming soon.", chat=chat, user=user)]
