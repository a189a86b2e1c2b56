"""What a chat asks about itself: its games (``/games``), a game's rules (``/rules``), and help (``/help``)."""
from __future__ import annotations

from datetime import timedelta

import rules
from bot.i18n import _, ngettext
from bot.service import commands as c, lifecycle, telling
from bot.service.context import Context
from bot.service.errors import clean
from bot.service.finding import candidates
from bot.service.messages import Message
from bot.service.rows import seat_of
from bot.service.texts import game_list_text, help_text

RECENTLY = timedelta(days=7)  # /games counts the games finished in this stretch (/history lists them)


async def show_games(ctx: Context, command: c.ShowGames) -> list[Message]:
    chat, user = command.chat, command.user
    async with ctx.uow(readonly=True) as uow:
        chat_row = await uow.chats.find(chat.platform, chat.id)
        rows = await uow.games.in_chat(chat_row.id, (lifecycle.LOBBY, lifecycle.ACTIVE)) if chat_row else []
        finished = await uow.games.count_finished([chat_row.id], ctx.now() - RECENTLY) if chat_row else 0
        if not rows:
            text = _("No game is open here. Open one with /new <game>:") + "\n" + game_list_text()
            if finished:
                text = ngettext("No game is open here; {n} finished recently (/history). Open one with "
                                "/new <game>:", "No game is open here; {n} finished recently (/history). "
                                "Open one with /new <game>:", finished) + "\n" + game_list_text()
            return [Message(text, chat=chat, user=user)]
        lines = [_("Games in this chat:")]
        for row in rows:
            game = rules.get_game(row.game)
            if row.status == lifecycle.LOBBY:
                lines.append(_("#{id} {game} — lobby, {seated}/{most} seated", id=row.id, game=game.title,
                               seated=len(row.seats), most=game.max_players))
            else:
                live = await ctx.games.fresh(uow, row.id)
                lines.append(_("#{id} {game} — playing; to act: {names}", id=row.id, game=game.title,
                               names=telling.waiting(live, live.state)))
        return [Message("\n".join(lines), chat=chat, user=user)]


async def show_rules(ctx: Context, command: c.ShowRules) -> list[Message]:
    chat, user = command.chat, command.user
    if not command.game.strip():
        return [Message(_("Which game? /rules <game>:") + "\n" + game_list_text(), chat=chat, user=user)]
    game = rules.get_game(clean(command.game, 40).strip())
    return [Message(f"📜 {game.title}\n\n{game.rules_summary()}", chat=chat, user=user)]


async def show_help(ctx: Context, command: c.ShowHelp) -> list[Message]:
    """``/help``: how Herald works and the games; ``/help <game>``: that game's own help; in a chat (or,
    privately, for a person) with one running game, that game's help follows the general text."""
    chat, user = command.chat, command.user
    name = clean(command.text or "", 40).strip().lstrip("#")
    if name and not name.isdigit():
        game = rules.get_game(name)
        return [Message(f"❓ {game.title}\n\n{game.help_text()}\n\n" + _("The full rules: /rules {name}",
                                                                          name=game.name), chat=chat, user=user)]
    general = help_text() + "\n\n" + _("Games (/help <game> for one):") + "\n" + game_list_text()
    async with ctx.uow(readonly=True) as uow:
        running = await candidates(uow, chat, user, (lifecycle.ACTIVE,))
        if name.isdigit():
            running = [g for g in running if g.id == int(name)]
        elif len(running) > 1 and user is not None:
            running = [g for g in running if seat_of(g, user) is not None] or running
    if len(running) == 1:
        game = rules.get_game(running[0].game)
        return [Message(_("❓ Game #{id} — {game}", id=running[0].id, game=game.title) +
                        f"\n\n{game.help_text()}\n\n" + help_text(), chat=chat, user=user)]
    return [Message(general, chat=chat, user=user)]
