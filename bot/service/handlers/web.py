"""``/web``: the link to the chat's web pages, and that link for the other answers that point to it
(``/leaderboard``, ``/history``, the end of a game) when the chat turned its pages on (``/settings web=on``)."""
from __future__ import annotations

from bot.i18n import _
from bot.service import commands as c
from bot.service.chat_settings import web_link
from bot.service.context import Context
from bot.service.messages import Message


def link_line(ctx: Context, settings: dict | None, path: str = "") -> str:
    """``"\\n\\n🌐 <link>"`` to append to an answer, or ``""`` when the chat shows no pages."""
    link = web_link(ctx.web_base_url, settings, path)
    return "\n\n" + _("🌐 On the web: {link}", link=link) if link else ""


async def show_web(ctx: Context, command: c.ShowWeb) -> list[Message]:
    chat = command.chat
    if chat is None:
        return [Message(_("/web gives the link to a group's or channel's pages: ask there."), user=command.user)]
    async with ctx.uow(readonly=True) as uow:
        row = await uow.chats.find(chat.platform, chat.id)
        settings = row.settings if row is not None else None
    link = web_link(ctx.web_base_url, settings)
    if link is None:
        text = _("This chat's league is not on the web. An admin can publish it with /settings web=on (and "
                 "remove it again with /settings web=off).")
    else:
        text = _("🌐 This chat's league, its players and its games: {link}", link=link)
        if not ctx.web_base_url:
            text += "\n" + _("(This bot does not know its web address: the path is on the server running "
                             "python -m bot web.)")
        text += "\n" + _("Hide your own name there with /settings myweb=hidden.")
    return [Message(text, chat=chat, user=command.user)]
