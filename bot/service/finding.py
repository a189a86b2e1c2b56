"""Which game a command means, and whether the asker may use the command on it (the lifecycle table).

A number names a game directly, and so does a game's own place (thread, topic) a command is typed in; without
one, of the games of the chat (or, in a private chat, of the person)
in which the command can be used, the running game the asker sits in, else the only running game, else the
newest; the asker is asked for the number only when several are equally likely, and told where it goes.
Refusals say what there is instead.
"""
from __future__ import annotations

import re

import rules
from storage import UnitOfWork
from storage.models import GameRow
from bot.i18n import _
from bot.service import lifecycle
from bot.service.context import Context
from bot.service.errors import ServiceError, game_number
from bot.service.live import LiveGame
from bot.service.messages import OWN_TABLES, ChatRef, UserRef
from bot.service.places import game_at
from bot.service.rows import is_user, seat_of

_NUMBERED = re.compile(r"^\s*#?(\d{1,10})\s+(\S.*)$", re.S)
# where a game's number goes in each command (the rest: ``/<command> <number>``)
_EXAMPLES = {"move": "/move {n} …", "log": "/log #{n}", "add_ai": "/addai {n}"}


async def actor(uow: UnitOfWork, row: GameRow, user: UserRef | None, chat: ChatRef | None,
                is_admin: bool) -> lifecycle.Actor:
    """The asker's roles in ``row``. Admin rights count only where the command was typed in the game's own
    chat (Discord: its server; a console runs its own games)."""
    seated = seat_of(row, user) is not None if user else False
    creator = False
    if user is not None:
        player = await uow.players.find(user.platform, user.id)
        creator = player is not None and player.id == row.created_by
    admin = False
    if is_admin and chat is not None:
        game_chat = await uow.chats.get(row.chat_id)
        admin = game_chat is not None and chat.platform == game_chat.platform and \
            chat.league_key == game_chat.league
    return lifecycle.Actor(seated=seated, creator=creator, admin=admin)


async def permitted(uow: UnitOfWork, command: str, row: GameRow, user: UserRef | None,
                    chat: ChatRef | None = None, is_admin: bool = False) -> lifecycle.Actor:
    """Check the lifecycle table for ``command`` on ``row``; the refusal says why."""
    who = await actor(uow, row, user, chat, is_admin)
    lifecycle.check(command, row.id, row.status, who)
    return who


async def game_meant(ctx: Context, chat: ChatRef | None, user: UserRef, game_id, command: str) -> int:
    """The number of the game a command means, found outside any write transaction. A command that writes
    to a game takes the game's lock first and its transaction second, as a move does: a move holds the lock
    while its write waits for the process's one SQLite writer connection, so the other order deadlocked."""
    async with ctx.uow(readonly=True) as uow:
        return (await find_game(ctx, uow, chat, user, game_id, command, mine=True)).id


async def find_game(ctx: Context, uow: UnitOfWork, chat: ChatRef | None, user: UserRef | None, game_id, command: str,
                    *, mine: bool = True) -> GameRow:
    """The game meant: by number (any status — the lifecycle check judges it); without one, of the games of
    this chat (or, in a private chat, of this person) in which ``command`` can be used: the running game the
    asker sits in, else the only running one, else the only open table (the asker's own first), else the
    newest finished one. Only several equally likely games are a question. ``mine``: prefer the asker's own
    games (not for /join)."""
    number = game_number(game_id)
    if number is None and chat is not None and chat.place:  # typed in a game's own thread or topic: that game
        number = await game_at(uow, chat)
    if number is not None:
        row = await uow.games.get(number)
        if row is None:
            raise ServiceError(_("There is no game #{number}.", number=number))
        await _check_here(ctx, uow, row, chat, user)
        return row
    statuses = lifecycle.allowed_statuses(command)
    found = await candidates(uow, chat, user, statuses)
    if not found:
        # nothing in a status the command works in: say what there is instead
        others = await candidates(uow, chat, user, (lifecycle.LOBBY, lifecycle.ACTIVE))
        if others:
            lifecycle.check(command, others[0].id, others[0].status, lifecycle.Actor(True, True, True))
        if chat is not None:
            raise ServiceError(_("There is no open game in this chat. Start one with /new <game> — see /help."))
        raise ServiceError(_("There is no open game for you. Start one with /new <game> — see /help."))
    if command == "abort":  # it ends a game: several candidates are always a question
        return await _one_of(ctx, uow, found, user, command, mine)
    for status in (lifecycle.ACTIVE, lifecycle.LOBBY):  # a running game first, then an open table
        games = [g for g in found if g.status == status]
        if games:
            return await _one_of(ctx, uow, games, user, command, mine)
    return max(found, key=lambda g: g.id)  # none running or open: the newest


async def _check_here(ctx: Context, uow: UnitOfWork, row: GameRow, chat: ChatRef | None,
                      user: UserRef | None) -> None:
    """A game named by number is answered in its own chat, or privately to one of its players — never in
    another group, where its board, log or refusals would show what is not that group's (a player asking
    there included)."""
    platform = chat.platform if chat is not None else user.platform if user is not None else None
    if platform in OWN_TABLES:
        return
    if chat is None:
        here = any(is_user(s, user) for s in row.seats)
    else:
        chat_row = await uow.chats.find(chat.platform, chat.id)
        here = chat_row is not None and chat_row.id == row.chat_id
    if not here:
        raise ServiceError(_("Game #{number} is played in another chat.", number=row.id))


async def _one_of(ctx: Context, uow: UnitOfWork, games: list[GameRow], user: UserRef | None, command: str,
                  mine: bool) -> GameRow:
    """Of ``games`` (all running, or all open tables): the asker's own one (``mine``; of several, the one
    waiting for them), else the only one; else the asker is asked for the number, and told where it goes."""
    own = [g for g in games if mine and user is not None and seat_of(g, user) is not None]
    if len(own) > 1:
        waiting = [g for g in own if await _waits_for(ctx, uow, g, user)]
        own = waiting if len(waiting) == 1 else own
    pool = own or games
    if len(pool) == 1:
        return pool[0]
    pool = sorted(pool, key=lambda g: g.id)
    listing = ", ".join(f"#{g.id} {rules.get_game(g.game).title}" for g in pool[:8])
    example = _EXAMPLES.get(command, "/{command} {n}").format(command=command, n=pool[-1].id)
    if any(g.status == lifecycle.ACTIVE for g in pool):
        raise ServiceError(_("Several games are running ({listing}): which one? Add its number, e.g. "
                             "`{example}`.", listing=listing, example=example))
    raise ServiceError(_("Several tables are open ({listing}): which one? Add its number, e.g. `{example}`.",
                         listing=listing, example=example))


async def _waits_for(ctx: Context, uow: UnitOfWork, row: GameRow, user: UserRef) -> bool:
    """Whether it is ``user``'s turn in the running game ``row``."""
    if row.status != lifecycle.ACTIVE:
        return False
    live = await ctx.games.get(uow, row.id)
    seat = live.seat_of(user) if live is not None else None
    return seat is not None and seat.seat in live.state.to_act()


async def candidates(uow: UnitOfWork, chat: ChatRef | None, user: UserRef | None,
                     statuses: tuple[str, ...]) -> list[GameRow]:
    """The games of the chat (else, privately, of the person) in ``statuses``."""
    if chat is not None:
        chat_row = await uow.chats.find(chat.platform, chat.id)
        return await uow.games.in_chat(chat_row.id, statuses) if chat_row is not None else []
    if user is not None:
        player = await uow.players.find(user.platform, user.id)
        if player is not None:
            return [g for g in await uow.games.of_player(player.id, statuses) if seat_of(g, user) is not None]
    return []


async def active(ctx: Context, uow: UnitOfWork, chat: ChatRef | None, user: UserRef, game_id, command: str,
                 *, fresh: bool = False) -> LiveGame:
    """The active game meant by this call, checked against the lifecycle table. No database read when it is
    known by number and loaded (unless ``fresh``: the answer may refuse, so it must be the stored one)."""
    number = game_number(game_id)
    live = ctx.games.loaded(number) if number is not None else None
    if live is None or not (chat is None or chat.platform in OWN_TABLES or
                            (chat.platform, chat.id) == (live.chat.platform, live.chat.id)):
        row = await find_game(ctx, uow, chat, user, number, command, mine=True)
        await permitted(uow, command, row, user, chat)
        live = await ctx.games.get(uow, row.id)
        if live is None:  # it ended since it was found (another process's move or /abort)
            raise ServiceError(_("Game #{id} is over.", id=row.id))
    if fresh:
        live = await ctx.games.fresh(uow, live.id)
        if live is None:
            row = await uow.games.get(number or 0)
            raise ServiceError(_("Game #{id} is not running.", id=number) if row is None else
                               _("Game #{id} is over.", id=row.id))
    if live.seat_of(user) is None:
        raise ServiceError(_("You are not playing in game #{id}.", id=live.id))
    return live


async def game_for_private_move(ctx: Context, uow: UnitOfWork, user: UserRef) -> int | None:
    """In a private chat with several games: the one where it is this person's turn, when only one is."""
    player = await uow.players.find(user.platform, user.id)
    if player is None:
        return None
    mine = []
    for row in await uow.games.of_player(player.id, (lifecycle.ACTIVE,)):
        live = await ctx.games.get(uow, row.id)
        seat = live.seat_of(user) if live else None
        if seat is not None and seat.seat in live.state.to_act():
            mine.append(row.id)
    return mine[0] if len(mine) == 1 else None


async def split_number(uow: UnitOfWork, user: UserRef, move: str, game_id) -> tuple[str, int | None]:
    """``/move 2 trio JS QS KS`` and ``/move #2 …``: a leading game number of the person's is taken as such
    (a notation may start with a number too, so only a number of one of their running games)."""
    found = _NUMBERED.match(move)
    if game_id is not None or not found:
        return move, game_number(game_id)
    number, rest = int(found.group(1)), found.group(2)
    if move.lstrip().startswith("#"):
        return rest, game_number(number)
    row = await uow.games.get(number)
    if row is not None and row.status == lifecycle.ACTIVE and seat_of(row, user) is not None:
        player = await uow.players.find(user.platform, user.id)
        if len(await uow.games.of_player(player.id, (lifecycle.ACTIVE,))) > 1:
            return rest, number
    return move, None


async def active_game_ids(ctx: Context) -> list[int]:
    """Every active game's number (the operator's view)."""
    async with ctx.uow(readonly=True) as uow:
        return [g.id for g in await uow.games.with_status((lifecycle.ACTIVE,))]
