"""Stored rows read as the references the service speaks in (``ChatRef``, ``UserRef``), and who sits where."""
from __future__ import annotations

from bot import i18n
from bot.service.messages import ChatRef, UserRef
from storage import UnitOfWork
from storage.models import Chat, GameRow, Seat


def chat_ref(row: Chat) -> ChatRef:
    league = row.league.partition(":")[2]
    # the chat's language rides along, so adapters can say their own few words in it (a button's label)
    return ChatRef(row.platform, row.external_id, league or None, row.title,
                   i18n.supported((row.settings or {}).get("language")))


def user_ref(seat: Seat) -> UserRef | None:
    if seat.player is None:
        return None
    return UserRef(seat.player.platform, seat.player.external_id, seat.player.name)


def is_user(seat: Seat, user: UserRef | None) -> bool:
    return user is not None and seat.player is not None and seat.player.platform == user.platform \
        and seat.player.external_id == user.id


def seat_of(row: GameRow, user: UserRef) -> Seat | None:
    """The person's seat in ``row`` (not one they resigned)."""
    return next((s for s in row.seats if is_user(s, user) and not s.resigned), None)


async def chat_row(uow: UnitOfWork, chat: ChatRef) -> Chat:
    """The chat's row; a new chat speaks its server's (Discord) or first person's (Telegram) language."""
    lang = i18n.supported(chat.locale)
    first = {"language": lang} if lang and lang != i18n.DEFAULT else None
    return await uow.chats.get_or_create(chat.platform, chat.id, chat.league_key, chat.title, first)
