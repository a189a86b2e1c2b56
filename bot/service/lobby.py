"""Lobbies: opening a table, taking and leaving seats, AI seats, starting, aborting.

Every command names its rule in the lifecycle table (``lifecycle.py``) and is judged against the game row
as stored, locked for the transaction, so two clicks at once are applied one after the other.
"""
from __future__ import annotations

import random
import secrets

from sqlalchemy.exc import IntegrityError

import rules
from rules.ai import make_player
from storage import UnitOfWork
from storage.models import GameRow, Seat
from bot import i18n
from bot.i18n import L, _
from bot.service import lifecycle, views
from bot.service.errors import ServiceError, answers_errors, clean
from bot.service.languages import chat_language
from bot.service.live import seat_names
from bot.service.messages import ChatRef, Message, UserRef
from bot.service.options import parse_options

LOBBY_LIMITS = (5, 3)  # open tables at most per chat, and opened by one person anywhere


class LobbyCommands:
    async def lobby_message(self, uow: UnitOfWork, row: GameRow, note: str | L = "") -> Message:
        """The table as its chat sees it, in the chat's language (``note`` may be an ``L``, said in it too)."""
        chat_row = await uow.chats.get(row.chat_id)
        chat = self.chat_ref(chat_row)
        needs_dm = chat.platform in self.dm_required_platforms
        names = seat_names(row.seats, chat_language(chat_row.settings))
        seats = [(names[s.position], needs_dm and s.player is not None and not s.player.dm_ok) for s in row.seats]
        with i18n.using(chat_language(chat_row.settings)):
            return views.lobby_message(row, chat, seats, str(note))

    async def _lobby_changed(self, uow: UnitOfWork, row: GameRow, note: str | L,
                             extra: list[Message] = ()) -> list[Message]:
        """Commit a lobby change with its messages in the outbox."""
        await uow.games.touch(row)
        await uow.session.flush()
        row = await uow.games.get(row.id)
        out = [await self.lobby_message(uow, row, note), *extra]
        await uow.outbox.add(self.outbox_rows(out))
        await uow.commit()
        return out

    async def _lobby_row(self, uow: UnitOfWork, chat: ChatRef, user: UserRef, game_id, command: str,
                         is_admin: bool = False) -> GameRow:
        row = await self.find_game(uow, chat, user, game_id, command, mine=command != "join")
        row = await uow.games.lock(row.id)  # the stored row, locked: concurrent clicks queue here
        await self.permitted(uow, command, row, user, chat, is_admin)
        return row

    @answers_errors
    async def create_lobby(self, chat: ChatRef, user: UserRef, game_name: str, options_text: str = "",
                           seed: int | None = None) -> list[Message]:
        game = rules.get_game(clean(game_name, 40).strip())
        options = parse_options(game, clean(options_text))
        async with self._uow() as uow:
            chat_row = await self._chat_row(uow, chat)
            player = await uow.players.get_or_create(user.platform, user.id, user.name, user.locale)
            if chat.platform != "console":
                per_chat, per_person = self.lobby_limits
                if await uow.games.open_count(chat_id=chat_row.id) >= per_chat:
                    raise ServiceError(_("This chat already has {limit} open tables: join one, or /abort one you "
                                         "opened, before opening another.", limit=per_chat))
                if await uow.games.open_count(created_by=player.id) >= per_person:
                    raise ServiceError(_("You already have {limit} open tables: start or /abort one of them "
                                         "first.", limit=per_person))
            row = GameRow(chat_id=chat_row.id, game=game.name, options=options,
                          seed=secrets.randbits(62) if seed is None else seed,
                          status="lobby", created_by=player.id, version=0)
            await uow.games.add(row)
            uow.session.add(Seat(game_id=row.id, position=0, player_id=player.id))
            return await self._lobby_changed(uow, row, L("{name} opened a table of {game}.", name=user.name,
                                                         game=game.title))

    @answers_errors
    async def join(self, chat: ChatRef, user: UserRef, game_id: int | None = None) -> list[Message]:
        for attempt in (1, 2):
            try:
                return await self._join(chat, user, game_id)
            except IntegrityError:  # PostgreSQL: another join took the same position at the same moment
                if attempt == 2:
                    raise ServiceError(_("Several people joined at once; please press Join again.")) from None

    async def _join(self, chat: ChatRef, user: UserRef, game_id) -> list[Message]:
        async with self._uow() as uow:
            row = await self._lobby_row(uow, chat, user, game_id, "join")
            game = rules.get_game(row.game)
            if any(self._is_user(s, user) for s in row.seats):
                raise ServiceError(_("You already have a seat at table #{id}.", id=row.id))
            if len(row.seats) >= game.max_players:
                raise ServiceError(_("Table #{id} is full ({seats} seats).", id=row.id, seats=game.max_players))
            player = await uow.players.get_or_create(user.platform, user.id, user.name, user.locale)
            position = max((s.position for s in row.seats), default=-1) + 1
            uow.session.add(Seat(game_id=row.id, position=position, player_id=player.id))
            chat_ref = self.chat_ref(await uow.chats.get(row.chat_id))
            extra = []
            if chat_ref.platform in self.dm_required_platforms and not player.dm_ok:
                extra.append(Message(_("{name}, open a private chat with me so I can send you your hand.",
                                       name=user.name),
                                     chat=chat_ref, user=user, game_id=row.id, kind="dm_needed"))
            return await self._lobby_changed(uow, row, L("{name} joined.", name=user.name), extra)

    @answers_errors
    async def leave(self, chat: ChatRef, user: UserRef, game_id: int | None = None) -> list[Message]:
        async with self._uow() as uow:
            row = await self._lobby_row(uow, chat, user, game_id, "leave")
            seat = next(s for s in row.seats if self._is_user(s, user))
            await uow.session.delete(seat)
            humans = [s for s in row.seats if s.player is not None and s is not seat]
            if not humans:
                await uow.games.save_state(row, {}, status="aborted")
                chat_ref = self.chat_ref(await uow.chats.get(row.chat_id))
                with i18n.using(chat_language((await uow.chats.get(row.chat_id)).settings)):
                    text = _("Table #{id} is closed: everyone left.", id=row.id)
                out = [Message(text, chat=chat_ref, slot=f"lobby:{row.id}", game_id=row.id, kind="lobby")]
                await uow.outbox.add(self.outbox_rows(out))
                await uow.commit()
                return out
            return await self._lobby_changed(uow, row, L("{name} left.", name=user.name))

    @answers_errors
    async def add_ai(self, chat: ChatRef, user: UserRef, level: str = "greedy", game_id: int | None = None,
                     is_admin: bool = False) -> list[Message]:
        level = clean(level or "greedy", 20).strip().lower()
        if level.isascii() and level.isdigit() and game_id is None:
            level, game_id = "greedy", level
        make_player(level)  # validates the level: IllegalAction names the levels
        async with self._uow() as uow:
            row = await self._lobby_row(uow, chat, user, game_id, "add_ai", is_admin)
            game = rules.get_game(row.game)
            if len(row.seats) >= game.max_players:
                raise ServiceError(_("Table #{id} is full ({seats} seats).", id=row.id, seats=game.max_players))
            position = max((s.position for s in row.seats), default=-1) + 1
            seat = Seat(game_id=row.id, position=position, ai_level=level, resigned=False)
            chat_row = await uow.chats.get(row.chat_id)
            name = seat_names([*row.seats, seat], chat_language(chat_row.settings))[position]
            uow.session.add(seat)
            return await self._lobby_changed(uow, row, L("{name} sat down (AI, {level}).", name=name, level=level))

    @answers_errors
    async def start(self, chat: ChatRef, user: UserRef, game_id: int | None = None) -> list[Message]:
        game_id = await self._game_meant(chat, user, game_id, "start")
        async with self.lock_for(game_id):
            async with self._uow() as uow:
                row = await self._lobby_row(uow, chat, user, game_id, "start")
                chat_ref = self.chat_ref(await uow.chats.get(row.chat_id))
                game = rules.get_game(row.game)
                n = len(row.seats)
                if n < game.min_players:
                    raise ServiceError(_("{game} needs at least {least} players; {n} seated. /join or /addai.",
                                         game=game.title, least=game.min_players, n=n))
                if chat_ref.platform in self.dm_required_platforms:
                    waiting = [s.player.name for s in row.seats if s.player is not None and not s.player.dm_ok]
                    if waiting:
                        raise ServiceError(_("Waiting for {names} to open a private chat with me (tap the link), "
                                             "so I can send hands.", names=", ".join(waiting)))
                state = game.new_game(n, seed=row.seed, options=dict(row.options))
                order = list(range(n))
                random.Random(row.seed).shuffle(order)  # random seating [every game: seats drawn at the table]
                for s, engine_seat in zip(sorted(row.seats, key=lambda s: s.position), order):
                    s.seat = engine_seat
                await uow.games.save_state(row, state.to_json(), status="active")
                await uow.commit()
                self.forget(row.id)
                live = await self._live(uow, row.id)
                with i18n.using(chat_language(live.settings)):
                    text = _("🏁 Game #{id} of {game} starts. Seats: {seats}", id=row.id, game=game.title,
                             seats=", ".join(f"{i + 1}. {n}" for i, n in enumerate(live.names)))
                note = Message(text, chat=live.chat, slot=f"lobby:{row.id}", game_id=row.id, kind="lobby")
                work = live.state.clone()
                return await self._commit(uow, live, work, self._ai_moves(live, work), notes=[note], started=True)

    @answers_errors
    async def abort(self, chat: ChatRef, user: UserRef, game_id: int | None = None,
                    is_admin: bool = False) -> list[Message]:
        game_id = await self._game_meant(chat, user, game_id, "abort")
        async with self.lock_for(game_id):
            async with self._uow() as uow:
                row = await uow.games.lock(game_id)
                await self.permitted(uow, "abort", row, user, chat, is_admin)
                chat_ref = self.chat_ref(await uow.chats.get(row.chat_id))
                was = row.status
                await uow.games.save_state(row, row.state or {}, status="aborted")
                await uow.timers.clear(row.id)
                chat_row = await uow.chats.get(row.chat_id)
                with i18n.using(chat_language(chat_row.settings)):
                    text = _("🛑 Table #{id} was aborted by {name}.", id=row.id, name=user.name) \
                        if was == lifecycle.LOBBY else _("🛑 Game #{id} was aborted by {name}.", id=row.id,
                                                         name=user.name)
                out = [Message(text, chat=chat_ref,
                               slot=f"{'lobby' if was == lifecycle.LOBBY else 'board'}:{row.id}", game_id=row.id,
                               kind="result")]
                if was == lifecycle.ACTIVE:
                    with i18n.using(chat_language(chat_row.settings)):
                        closed = _("🛑 Game #{id} was aborted by {name}.", id=row.id, name=user.name)
                    out += self._closed_hands(row, closed)
                await uow.outbox.add(self.outbox_rows(out))
                await uow.commit()
                self.forget(row.id)
                return out
