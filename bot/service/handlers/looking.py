"""Looking at a game: your own view (``/hand``), the board (``/board``), your choices (the console's menu) and
the log (``/log``). Nothing here writes."""
from __future__ import annotations

import re

from rules.api import Event
from bot.i18n import _, ngettext
from bot.service import commands as c, lifecycle, narration, telling
from bot.service.context import Context
from bot.service.errors import ServiceError, clean
from bot.service.finding import active, find_game, permitted
from bot.service.handlers.lobby import lobby_message
from bot.service.handlers.people import remedy
from bot.service.live import LOG_KEPT, load_live
from bot.service.messages import OWN_TABLES, Message
from bot.service.rows import chat_ref, seat_of

LOG_PAGE = 15  # /log without a number: the last lines that fit a phone screen
LOG_MOST = 200
LOG_CHARS = 1900  # within a Discord message (2000) and a Telegram one (4096)
_LOG_ARGS = re.compile(r"^\s*(?:#(?P<game>\d{1,10})\s*)?(?P<n>\d{1,6})?\s*(?:#(?P<game2>\d{1,10}))?\s*$")


async def show_hand(ctx: Context, command: c.ShowHand) -> list[Message]:
    """The person's own view with their picker (/hand, the My hand button): always posted anew, so the person
    sees it answered; asked for in a group, it also notifies them (it is at the bottom of their private chat)."""
    async with ctx.uow(readonly=True) as uow:
        live = await active(ctx, uow, command.chat, command.user, command.game_id, "hand", fresh=True)
        seat = live.seat_of(command.user)
        message = telling.private_message(live, seat, live.state, live.version, ctx.pictures)
        message.fresh = True
        message.ping = command.chat is not None
    if command.chat is not None and seat.dm_ok is False:  # known to fail: say how to open it (and still try)
        text = "🔒 " + remedy(ctx, command.user.platform, command.user.name)
        if command.user.platform not in ctx.dm_required:  # the hand is shown where it was asked for: said in it
            message.recipe["note"] = text
            return [message]
        return [Message(text, chat=command.chat, user=command.user, game_id=live.id, kind="dm_needed"), message]
    return [message]


async def show_board(ctx: Context, command: c.ShowBoard) -> list[Message]:
    chat, user = command.chat, command.user
    async with ctx.uow(readonly=True) as uow:
        row = await find_game(ctx, uow, chat, user, command.game_id, "board")
        await permitted(uow, "board", row, user, chat)
        if row.status == lifecycle.LOBBY:  # (asked for: posted anew at the bottom of the chat, as the board is)
            lobby = await lobby_message(ctx, uow, row)
            lobby.fresh = True
            return [lobby]
        if row.status == lifecycle.ACTIVE:
            live = await ctx.games.fresh(uow, row.id)
            return [telling.board_message(live, live.state, ctx.pictures, fresh=True)]
        chat_row = await uow.chats.get(row.chat_id)
        recent = await uow.games.last_moves(row.id, LOG_KEPT)
        live = load_live(row, chat_row, chat_ref(chat_row), 0, recent, set())
        return [telling.board_message(live, live.state, ctx.pictures, fresh=True)]


async def list_choices(ctx: Context, command: c.ListChoices) -> list[tuple[str, str]]:
    """(label, notation) of every legal action of the asker now — the console's numbered menu; actions that read
    the same (Guyenne's answer ``5 4`` with either 5) are offered once."""
    async with ctx.uow(readonly=True) as uow:
        live = await active(ctx, uow, None, command.user, command.game_id, "hand", fresh=True)
        game = live.game
        menu: dict[str, str] = {}
        for action in live.state.legal_actions(live.seat_of(command.user).seat):
            menu.setdefault(game.describe_action(action), game.format_action(action))
        return list(menu.items())


async def show_log(ctx: Context, command: c.ShowLog) -> list[Message]:
    """``/log [n] [#game]``: the last ``n`` lines of the game's whole public log, narrated, as an answer to the
    asker; and, to the asker alone (their private chat), what only their seat saw in that stretch."""
    chat, user = command.chat, command.user
    found = _LOG_ARGS.match(clean(command.text or "", 40))
    if not found:
        raise ServiceError(_("Use /log [number of lines] [#game], e.g. /log 30 or /log 30 #12."))
    count = min(max(int(found.group("n") or LOG_PAGE), 1), LOG_MOST)
    game_id = command.game_id if command.game_id is not None else (found.group("game") or found.group("game2"))
    async with ctx.uow(readonly=True) as uow:
        row = await find_game(ctx, uow, chat, user, game_id, "log")
        await permitted(uow, "log", row, user, chat)
        chat_row = await uow.chats.get(row.chat_id)
        live = load_live(row, chat_row, chat_ref(chat_row), 0, [], set())
        moves = await uow.games.moves(row.id)
        seat = seat_of(row, user) if user is not None else None
    game, names = live.game, live.names
    entries = [(m.seq, Event.from_json(e)) for m in moves for e in m.events]
    back = {m.seq for m in moves if m.taken_back}  # taken back (/undo): still in the log, marked
    if seat is not None and seat.seat is not None and chat is not None and chat.platform in OWN_TABLES:
        # one person's own table (the console): the public events spoken to them ("You take", "Du hast …")
        lines = narration.narrate_lines(game, [(s, e) for s, e in entries if e.audience is None], seat.seat, names)
    else:
        lines = narration.narrate_lines(game, entries, None, names)
    public = [line.text + (" " + _("(taken back)") if line.seq in back else "") for line in lines]
    shown, skipped = _page(public, count)
    if skipped:
        head = _("📜 #{id} {game} — the log, the last {shown} of {total}", id=row.id, game=game.title,
                 shown=_lines(len(shown)), total=len(public)) + \
            _(" (/log {n} for more)", n=min(len(public), LOG_MOST))
    else:
        head = _("📜 #{id} {game} — the log, {lines}", id=row.id, game=game.title, lines=_lines(len(public)))
    body = "\n".join("· " + line for line in shown) if shown else _("Nothing has happened yet.")
    out = [Message(head + "\n" + body, chat=chat, user=user, game_id=row.id, kind="log")]
    if seat is not None and seat.seat is not None:
        lines = narration.narrate_lines(game, entries, seat.seat, names)
        private = [line.text for line in lines if any(entries[k][1].audience is not None for k in line.events)]
        mine, cut = _page(private, count)
        if mine:
            title = ngettext("🔒 #{id} {game} — what only you saw (the last {n}):",
                             "🔒 #{id} {game} — what only you saw (the last {n}):", len(mine), id=row.id,
                             game=game.title) if cut else \
                _("🔒 #{id} {game} — what only you saw:", id=row.id, game=game.title)
            out.append(Message(title + "\n" + "\n".join("· " + line for line in mine), user=user,
                               game_id=row.id, kind="log"))
    return out


def _lines(n: int) -> str:
    return ngettext("{n} line", "{n} lines", n)


def _page(lines: list[str], count: int) -> tuple[list[str], bool]:
    """The last ``count`` lines that fit one message; whether older ones were left out."""
    shown, size = [], 0
    for line in reversed(lines[-count:]):
        size += len(line) + 3
        if size > LOG_CHARS and shown:
            break
        shown.append(line if len(line) <= LOG_CHARS else line[:LOG_CHARS - 1] + "…")
    shown.reverse()
    return shown, len(shown) < len(lines)
