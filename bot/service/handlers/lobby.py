"""Tables: opening one, taking and leaving seats, AI seats, starting, aborting.

Every command names its rule in the lifecycle table (``lifecycle.py``) and is judged against the game row as
stored, locked for the transaction, so two clicks at once are applied one after the other.
"""
from __future__ import annotations

import random
import secrets

from sqlalchemy.exc import IntegrityError

import rules
from rules.ai import make_player
from storage import UnitOfWork
from storage.models import GameRow
from bot import i18n
from bot.i18n import L, _
from bot.service import ai_seats, commands as c, lifecycle, places, telling
from bot.service.chat_settings import effective
from bot.service.clocks import parse_clock
from bot.service.context import Context
from bot.service.errors import ServiceError, clean
from bot.service.finding import find_game, game_meant, permitted
from bot.service.languages import chat_language
from bot.service.live import seat_names
from bot.service.messages import OWN_TABLES, ChatRef, Message, UserRef
from bot.service.options import parse_options
from bot.service.outbox import outbox_rows
from bot.service.recording import record
from bot.service.rows import chat_ref, chat_row, is_user


async def lobby_message(ctx: Context, uow: UnitOfWork, row: GameRow, note: str | L = "") -> Message:
    """The table as its chat sees it, in the chat's language (``note`` may be an ``L``, said in it too)."""
    stored = await uow.chats.get(row.chat_id)
    chat = chat_ref(stored)
    needs_dm = chat.platform in ctx.dm_required
    names = seat_names(row.seats, chat_language(stored.settings))
    seats = [(names[s.position], needs_dm and s.player is not None and not s.player.dm_ok) for s in row.seats]
    with i18n.using(chat_language(stored.settings)):
        return telling.lobby_message(row, chat, seats, str(note))


async def _changed(ctx: Context, uow: UnitOfWork, row: GameRow, note: str | L,
                   extra: list[Message] = ()) -> list[Message]:
    """Commit a lobby change with its messages in the outbox."""
    await uow.games.touch(row)
    await uow.games.flush()
    row = await uow.games.get(row.id)
    out = [await lobby_message(ctx, uow, row, note), *extra]
    await uow.outbox.add(outbox_rows(ctx, out))
    await uow.commit()
    return out


async def _lobby_row(ctx: Context, uow: UnitOfWork, chat: ChatRef, user: UserRef, game_id, command: str,
                     is_admin: bool = False) -> GameRow:
    row = await find_game(ctx, uow, chat, user, game_id, command, mine=command != "join")
    row = await uow.games.lock(row.id)  # the stored row, locked: concurrent clicks queue here
    await permitted(uow, command, row, user, chat, is_admin)
    return row


async def create_lobby(ctx: Context, command: c.CreateLobby) -> list[Message]:
    chat, user = command.chat, command.user
    game = rules.get_game(clean(command.game, 40).strip())
    typed = clean(command.options).split()
    clock = next((t.partition("=")[2] for t in typed if t.lower().startswith("clock=")), None)
    options = parse_options(game, " ".join(t for t in typed if not t.lower().startswith("clock=")))
    async with ctx.uow() as uow:
        stored = await chat_row(uow, chat)
        control = parse_clock(clock if clock is not None else effective(stored.settings)["clock"])
        player = await uow.players.get_or_create(user.platform, user.id, user.name, user.locale)
        if chat.platform not in OWN_TABLES:
            per_chat, per_person = ctx.lobby_limits
            if await uow.games.open_count(chat_id=stored.id) >= per_chat:
                raise ServiceError(_("This chat already has {limit} open tables: join one, or /abort one you "
                                     "opened, before opening another.", limit=per_chat))
            if await uow.games.open_count(created_by=player.id) >= per_person:
                raise ServiceError(_("You already have {limit} open tables: start or /abort one of them "
                                     "first.", limit=per_person))
        row = GameRow(chat_id=stored.id, game=game.name, options=options,
                      seed=secrets.randbits(62) if command.seed is None else command.seed,
                      status="lobby", created_by=player.id, version=0, clocks=control)
        await uow.games.add(row)
        await uow.games.add_seat(row, position=0, player_id=player.id)
        return await _changed(ctx, uow, row, L("{name} opened a table of {game}.", name=user.name, game=game.title))


async def join(ctx: Context, command: c.Join) -> list[Message]:
    for attempt in (1, 2):
        try:
            return await _join(ctx, command)
        except IntegrityError:  # PostgreSQL: another join took the same position at the same moment
            if attempt == 2:
                raise ServiceError(_("Several people joined at once; please press Join again.")) from None


async def _join(ctx: Context, command: c.Join) -> list[Message]:
    chat, user = command.chat, command.user
    async with ctx.uow() as uow:
        row = await _lobby_row(ctx, uow, chat, user, command.game_id, "join")
        game = rules.get_game(row.game)
        if any(is_user(s, user) for s in row.seats):
            raise ServiceError(_("You already have a seat at table #{id}.", id=row.id))
        if len(row.seats) >= game.max_players:
            raise ServiceError(_("Table #{id} is full ({seats} seats).", id=row.id, seats=game.max_players))
        player = await uow.players.get_or_create(user.platform, user.id, user.name, user.locale)
        position = max((s.position for s in row.seats), default=-1) + 1
        await uow.games.add_seat(row, position=position, player_id=player.id)
        where = chat_ref(await uow.chats.get(row.chat_id))
        extra = []
        if where.platform in ctx.dm_required and not player.dm_ok:
            extra.append(Message(_("{name}, open a private chat with me so I can send you your hand.", name=user.name),
                                 chat=where, user=user, game_id=row.id, kind="dm_needed"))
        return await _changed(ctx, uow, row, L("{name} joined.", name=user.name), extra)


async def leave(ctx: Context, command: c.Leave) -> list[Message]:
    chat, user = command.chat, command.user
    async with ctx.uow() as uow:
        row = await _lobby_row(ctx, uow, chat, user, command.game_id, "leave")
        seat = next(s for s in row.seats if is_user(s, user))
        await uow.games.remove_seat(seat)
        humans = [s for s in row.seats if s.player is not None and s is not seat]
        if not humans:
            await uow.games.save_state(row, {}, status="aborted")
            stored = await uow.chats.get(row.chat_id)
            with i18n.using(chat_language(stored.settings)):
                text = _("Table #{id} is closed: everyone left.", id=row.id)
            out = [Message(text, chat=chat_ref(stored), slot=f"lobby:{row.id}", game_id=row.id, kind="lobby")]
            await uow.outbox.add(outbox_rows(ctx, out))
            await uow.commit()
            return out
        return await _changed(ctx, uow, row, L("{name} left.", name=user.name))


async def add_ai(ctx: Context, command: c.AddAI) -> list[Message]:
    level, game_id = clean(command.level or "greedy", 20).strip().lower(), command.game_id
    if level.isascii() and level.isdigit() and game_id is None:
        level, game_id = "greedy", level
    make_player(level)  # validates the level: IllegalAction names the levels
    async with ctx.uow() as uow:
        row = await _lobby_row(ctx, uow, command.chat, command.user, game_id, "add_ai", command.is_admin)
        game = rules.get_game(row.game)
        if len(row.seats) >= game.max_players:
            raise ServiceError(_("Table #{id} is full ({seats} seats).", id=row.id, seats=game.max_players))
        position = max((s.position for s in row.seats), default=-1) + 1
        stored = await uow.chats.get(row.chat_id)
        seat = await uow.games.add_seat(row, position=position, ai_level=level, resigned=False)
        name = seat_names([*row.seats, seat], chat_language(stored.settings))[seat.position]
        return await _changed(ctx, uow, row, L("{name} sat down (AI, {level}).", name=name, level=level))


async def start(ctx: Context, command: c.Start) -> list[Message]:
    chat, user = command.chat, command.user
    game_id = await game_meant(ctx, chat, user, command.game_id, "start")
    async with ctx.games.lock_for(game_id):
        async with ctx.uow() as uow:
            row = await _lobby_row(ctx, uow, chat, user, game_id, "start")
            where = chat_ref(await uow.chats.get(row.chat_id))
            game = rules.get_game(row.game)
            n = len(row.seats)
            if n < game.min_players:
                raise ServiceError(_("{game} needs at least {least} players; {n} seated. /join or /addai.",
                                     game=game.title, least=game.min_players, n=n))
            if where.platform in ctx.dm_required:
                waiting = [s.player.name for s in row.seats if s.player is not None and not s.player.dm_ok]
                if waiting:
                    raise ServiceError(_("Waiting for {names} to open a private chat with me (tap the link), so I "
                                         "can send hands.", names=", ".join(waiting)))
            state = game.new_game(n, seed=row.seed, options=dict(row.options))
            order = list(range(n))
            random.Random(row.seed).shuffle(order)  # random seating [every game: seats drawn at the table]
            for s, engine_seat in zip(sorted(row.seats, key=lambda s: s.position), order):
                s.seat = engine_seat
            await uow.games.save_state(row, state.to_json(), status="active")
            await uow.commit()
            ctx.games.forget(row.id)
            live = await ctx.games.get(uow, row.id)
            with i18n.using(chat_language(live.settings)):
                text = _("🏁 Game #{id} of {game} starts. Seats: {seats}", id=row.id, game=game.title,
                         seats=", ".join(f"{i + 1}. {n}" for i, n in enumerate(live.names)))
            note = Message(text, chat=live.chat, slot=f"lobby:{row.id}", game_id=row.id, kind="lobby")
            notes = [note]
            if where.platform in ctx.homes and live.settings.get("threads", "on") == "on":
                notes.insert(0, places.home_request(row.id, row.game, live.names, live.chat,
                                                        [s.user for s in live.humans()]))  # before the board
                live.asked_home = True  # (the first status line goes with the start: the place is not known yet)
            work = live.state.clone()
            return await record(ctx, live, work, ai_seats.inline_moves(live, work), uow=uow, notes=notes,
                                started=True)


async def abort(ctx: Context, command: c.Abort) -> list[Message]:
    chat, user = command.chat, command.user
    game_id = await game_meant(ctx, chat, user, command.game_id, "abort")
    async with ctx.games.lock_for(game_id):
        async with ctx.uow() as uow:
            row = await uow.games.lock(game_id)
            await permitted(uow, "abort", row, user, chat, command.is_admin)
            stored = await uow.chats.get(row.chat_id)
            was = row.status
            await uow.games.save_state(row, row.state or {}, status="aborted")
            await uow.timers.clear(row.id)
            lobby = was == lifecycle.LOBBY
            with i18n.using(chat_language(stored.settings)):
                text = _("🛑 Table #{id} was aborted by {name}.", id=row.id, name=user.name) if lobby \
                    else _("🛑 Game #{id} was aborted by {name}.", id=row.id, name=user.name)
            where = await places.game_chat(uow, stored, row.id)  # a game's end is told in its place too
            out = [Message(text, chat=where, slot=f"{'lobby' if lobby else 'board'}:{row.id}", game_id=row.id,
                           kind="result")]
            if was == lifecycle.ACTIVE:
                with i18n.using(chat_language(stored.settings)):
                    closed = _("🛑 Game #{id} was aborted by {name}.", id=row.id, name=user.name)
                out += telling.closed_hands(row, closed) + [telling.turn_retired(chat_ref(stored), row.id)]
            await uow.outbox.add(outbox_rows(ctx, out))
            await uow.commit()
            ctx.games.forget(row.id)
            return out
