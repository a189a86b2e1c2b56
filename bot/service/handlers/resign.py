"""Leaving a running game: ``/resign`` asks first (Yes and Cancel buttons only the asker may press), ``/resign
yes`` does not; an AI plays the seat from then on, and a game with no person left ends unrated."""
from __future__ import annotations

from bot import i18n
from bot.i18n import _
from bot.service import ai_seats, buttons as codes, commands as c, languages, places, telling
from bot.service.context import Context
from bot.service.errors import ServiceError
from bot.service.finding import active, permitted
from bot.service.live import LiveGame
from bot.service.messages import OWN_TABLES, Button, ChatRef, Message, UserRef
from bot.service.outbox import outbox_rows
from bot.service.recording import record
from bot.service.rows import chat_ref, seat_of


async def resign(ctx: Context, command: c.Resign) -> list[Message]:
    """Leave a running game; an AI plays the seat. Unconfirmed (``/resign`` without ``yes``) it only asks."""
    if not command.confirmed:
        async with ctx.uow(readonly=True) as uow:
            live = await active(ctx, uow, command.chat, command.user, command.game_id, "resign", fresh=True)
            return [_question(live, command.user, command.chat)]
    return await _resign(ctx, command.chat, command.user, command.game_id)


async def confirm(ctx: Context, command: c.ConfirmResign) -> list[Message]:
    """Yes: only the person asked may press it; a question the game has moved on from is asked again."""
    user, chat, game_id = command.user, command.chat, command.game_id
    _check_owner(command.owner, user)
    async with ctx.uow(readonly=True) as uow:
        live = await active(ctx, uow, None, user, game_id, "resign", fresh=True)
        if command.version != str(live.version):
            question = _question(live, user, chat)
            question.text = _("The game has moved on since I asked.") + " " + question.text
            return [question]
    out = await _resign(ctx, chat, user, game_id)
    return [_answer(game_id, user, chat, _("You resigned from game #{id}; an AI plays your seat.", id=game_id))] + out


async def cancel(ctx: Context, command: c.CancelResign) -> list[Message]:
    _check_owner(command.owner, command.user)
    return [_answer(command.game_id, command.user, command.chat,
                    _("You play on in game #{id}; nothing changed.", id=command.game_id))]


def _check_owner(owner: str, user: UserRef) -> None:
    if owner != user.id:
        raise ServiceError(_("That button belongs to someone else's question; type /resign to leave your own game."))


async def _resign(ctx: Context, chat: ChatRef | None, user: UserRef, game_id) -> list[Message]:
    async with ctx.uow(readonly=True) as uow:
        game_id = (await active(ctx, uow, chat, user, game_id, "resign")).id
    async with ctx.games.lock_for(game_id):
        async with ctx.uow() as uow:
            row = await uow.games.lock(game_id)
            await permitted(uow, "resign", row, user, chat)
            await uow.games.resign(seat_of(row, user))
            ctx.games.forget(row.id)
            humans = [s for s in row.seats if s.player is not None and not s.resigned]
            if not humans:
                await uow.games.save_state(row, row.state, status="aborted")
                await uow.timers.clear(row.id)
                stored = await uow.chats.get(row.chat_id)
                with i18n.using(languages.chat_language(stored.settings)):
                    if chat is not None and chat.platform in OWN_TABLES:  # the table is the asker's own
                        text = _("You resigned; no other person plays, so game #{id} ends unrated.", id=row.id)
                    else:
                        text = _("{name} resigned; no human is left, so game #{id} ends unrated.", name=user.name,
                                 id=row.id)
                    ended = _("Game #{id} has ended.", id=row.id)
                where = await places.game_chat(uow, stored, row.id)  # told in the game's place too
                out = [Message(text, chat=where, slot=f"board:{row.id}", game_id=row.id,
                               kind="result")]  # in place of the board, as an abort: no button stays live
                out += telling.closed_hands(row, ended) + [telling.turn_retired(chat_ref(stored), row.id)]
                await uow.outbox.add(outbox_rows(ctx, out))
                await uow.commit()
                return out
            live = await ctx.games.get(uow, row.id)
            work = live.state.clone()
            with i18n.using(languages.of_live_chat(live)):
                text = _("🏳 {name} resigned from game #{id}; an AI plays their seat.", name=user.name, id=row.id)
            note = Message(text, chat=live.chat, game_id=row.id, kind="notice")
            closed = telling.closed_hands(row, _("You resigned from game #{id}; an AI plays your seat.", id=row.id),
                                          only=user)
            return await record(ctx, live, work, ai_seats.inline_moves(live, work), uow=uow, notes=[note] + closed)


def _question(live: LiveGame, user: UserRef, chat: ChatRef | None) -> Message:
    """Are you sure? — answered by buttons that only the asker may press (``/resign yes`` skips the question)."""
    others = [s for s in live.seats if not s.is_ai and s.user != user]
    if others:
        text = _("Resign from game #{id} ({game})? An AI takes over your seat and the game counts as lost for you. "
                 "(/resign yes skips this question.)", id=live.id, game=live.game.title)
    else:  # what _resign does then: say it before, not only after
        text = _("Resign from game #{id} ({game})? No other person plays, so the game ends at once, unrated. "
                 "(/resign yes skips this question.)", id=live.id, game=live.game.title)
    rows = [[Button(_("🏳 Yes, resign"), codes.resign_yes(live.id, live.version, user.id), "danger"),
             Button(_("Cancel"), codes.resign_cancel(live.id, user.id))]]
    return Message(text, chat=chat, user=user, buttons=rows, game_id=live.id, kind="confirm",
                   slot=_slot(live.id, user))


def _slot(game_id: int, user: UserRef) -> str:
    """The question's slot: its answer replaces it (Telegram edits the message, Discord the ephemeral one
    clicked), so no buttons stay behind once it is answered."""
    return f"resign:{game_id}:{user.id}"


def _answer(game_id: int, user: UserRef, chat: ChatRef | None, text: str) -> Message:
    """What a resign question becomes once answered: its verdict, without buttons."""
    return Message(text, chat=chat, user=user, game_id=game_id, kind="confirm", slot=_slot(game_id, user))
