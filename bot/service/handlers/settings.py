"""``/settings``: show or change a chat's settings (admins), and a person's own language (anyone, anywhere)."""
from __future__ import annotations

from bot import i18n
from bot.i18n import _
from bot.service import commands as c, lifecycle
from bot.service.chat_settings import (MYWEB, PERSONAL, describe_mine, describe_settings, effective, parse_settings,
                                       with_web_slug)
from bot.service.context import Context
from bot.service.errors import ServiceError, clean
from bot.service.handlers.web import link_line
from bot.service.messages import ChatRef, Message
from bot.service.rows import chat_row


async def change_settings(ctx: Context, command: c.ChangeSettings) -> list[Message]:
    """Show or change the chat's settings (admins), and the asker's own ``mylanguage`` (anyone, anywhere; in a
    private chat it is the only setting)."""
    chat, user = command.chat, command.user
    text = clean(command.text)
    changes = parse_settings(text) if text.strip() else {}
    mine = changes.pop(PERSONAL, None)
    myweb = changes.pop(MYWEB, None)
    async with ctx.uow() as uow:
        player = await uow.players.get_or_create(user.platform, user.id, user.name, user.locale)
        if mine is not None:
            player.language = mine
        if myweb is not None:  # the web pages read it on every page: "a player" from now on, or the name again
            player.web_hidden = myweb == "hidden"
        personal = mine is not None or myweb is not None
        chosen = player.language
        if mine is not None:  # the games in memory send their private texts in it from now on
            for live in ctx.games.all():
                seat = live.seat_of(user)
                if seat is not None:
                    seat.language = mine
        if chat is None:
            if changes:
                raise ServiceError(_("Only /settings mylanguage=… can be changed here; a chat's settings are "
                                     "changed in that chat."))
            await uow.commit()
            ctx.languages.forget(user=user)
            with i18n.using(chosen):
                return [Message((_("✅ Settings saved.") + "\n" if personal else "") + describe_mine(chosen),
                                user=user)]
        row = await chat_row(uow, chat)
        current = effective(row.settings)
        if changes and not command.is_admin:
            raise ServiceError(_("Only admins of this server/group can change settings."))
        if not changes:
            await uow.commit()
            ctx.languages.forget(user=user)
            with i18n.using(chosen):
                return [Message((_("✅ Settings saved.") + "\n" if personal else "") +
                                describe_settings(current, chosen), chat=chat, user=user)]
        row.settings = with_web_slug({**effective(row.settings), **changes})
        if changes.get("turn_timer") == 0:  # deadlines already set go too
            for game in await uow.games.in_chat(row.id, (lifecycle.ACTIVE,)):
                await uow.timers.clear(game.id, kinds=("remind", "autoplay"))  # AI jobs stay
        await uow.commit()
        ctx.languages.forget(user=user, chat=chat)
        for live in ctx.games.all():
            if live.chat_db_id == row.id:
                live.settings = effective(row.settings)
                if changes.get("turn_timer") == 0:
                    live.timer_seats.clear()
        with i18n.using(chosen or (changes.get("language") if not user.locale else None)):
            link = link_line(ctx, row.settings) if changes.get("web") == "on" else ""
            return [Message(_("✅ Settings saved.") + "\n" + describe_settings({**current, **changes}, chosen) + link,
                            chat=chat, user=user)]


async def chat_settings(ctx: Context, chat: ChatRef) -> dict:
    """The chat's settings in effect (the defaults where it set none)."""
    async with ctx.uow(readonly=True) as uow:
        row = await uow.chats.find(chat.platform, chat.id)
        return effective(row.settings if row else None)
