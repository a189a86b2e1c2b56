"""The service layer: lobbies, seats, turns, timers. Adapters call it and deliver the messages it returns.

One game, one writer: a per-game asyncio lock in the process and the ``version``
check of ``Games.save_state`` across processes. A move (snapshot + log row) is
committed before any message about it is returned. Public text comes only from
``view(None)`` and public events; private text only from ``view(seat)`` and the
events whose audience holds that seat.
"""
from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import random
import re
import secrets
from collections import OrderedDict, defaultdict
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone

import rules
from rules.ai import make_player
from rules.api import Game, IllegalAction, State
from storage import Database, StaleVersion, UnitOfWork, open_database
from storage.group_commit import GroupCommit, MoveWrite, write_one
from storage.models import Chat, GameRow, Seat, Timer
from bot.render import boards
from bot.service import picker
from bot.service.leagues import LeagueCommands
from bot.service.chat_settings import DEFAULT_SETTINGS, describe_settings, parse_settings
from bot.service.live import LiveGame, LiveSeat, load_live, seat_name
from bot.service.messages import Button, ChatRef, Menu, Message, UserRef
from bot.service.texts import HELP_TEXT, game_list_text

log = logging.getLogger(__name__)

OPEN = ("lobby", "active")
AI_STEP_CAP = 5000
PICTURE_CACHE = 256  # recently drawn pictures kept (a re-sent board or hand is not drawn again)


class ServiceError(Exception):
    """A friendly refusal: the text goes back to the person, nothing changed."""


def answers_errors(method):
    """Turn a refusal into one reply to the caller; never let a traceback reach a chat."""

    @functools.wraps(method)
    async def wrapper(self, *args, **kwargs):
        try:
            return await self._draw_pictures(await method(self, *args, **kwargs))
        except (ServiceError, IllegalAction) as e:
            return [self._reply(args, kwargs, str(e), kind="error")]
        except StaleVersion:
            return [self._reply(args, kwargs, "Someone else moved at the same moment; please try again.",
                                kind="error")]
        except Exception:
            log.exception("service error in %s", method.__name__)
            return [self._reply(args, kwargs, "Sorry, something went wrong on my side. Nothing was changed.",
                                kind="error")]

    return wrapper


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _hash(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:32]


class Service(LeagueCommands):
    leaderboard = answers_errors(LeagueCommands.leaderboard)
    stats = answers_errors(LeagueCommands.stats)
    history = answers_errors(LeagueCommands.history)
    new_season = answers_errors(LeagueCommands.new_season)

    def __init__(self, db: Database, *, pictures: bool = False):
        self.db = db
        self.pictures = pictures  # draw board and hand pictures (the chat platforms); the console shows text
        self._drawn: OrderedDict[str, bytes | None] = OrderedDict()  # recent pictures by what they show
        # one drawing thread: pictures are drawn off the event loop, one at a time (fonts are not thread-safe)
        self._painter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures")
        self._locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._live_games: dict[int, LiveGame] = {}
        self.dm_required_platforms: set[str] = {"telegram"}
        self._timer_wakeup = asyncio.Event()
        self._group = GroupCommit(db)  # concurrent moves share one transaction (see storage/group_commit.py)

    # ------------------------------------------------------------------ helpers
    def _reply(self, args, kwargs, text: str, kind: str = "info") -> Message:
        chat = kwargs.get("chat") or next((a for a in args if isinstance(a, ChatRef)), None)
        user = kwargs.get("user") or next((a for a in args if isinstance(a, UserRef)), None)
        return Message(text=text, chat=chat, user=user, kind=kind)

    def _uow(self) -> UnitOfWork:
        return UnitOfWork(self.db)

    async def _chat_row(self, uow: UnitOfWork, chat: ChatRef) -> Chat:
        return await uow.chats.get_or_create(chat.platform, chat.id, chat.league_key, chat.title)

    @staticmethod
    def chat_ref(row: Chat) -> ChatRef:
        platform, _, league = row.league.partition(":")
        return ChatRef(row.platform, row.external_id, league or None, row.title)

    @staticmethod
    def user_ref(seat: Seat) -> UserRef | None:
        if seat.player is None:
            return None
        return UserRef(seat.player.platform, seat.player.external_id, seat.player.name)

    @staticmethod
    def _is_user(seat: Seat, user: UserRef) -> bool:
        return seat.player is not None and seat.player.platform == user.platform and seat.player.external_id == user.id

    @staticmethod
    def seat_name(seat: Seat) -> str:
        return seat_name(seat.player.name if seat.player else None, seat.resigned, seat.position)

    @staticmethod
    def substitute(text: str, names: list[str]) -> str:
        def name(match: re.Match) -> str:
            i = int(match.group(1)) - 1
            return names[i] if 0 <= i < len(names) else match.group(0)

        return re.sub(r"\{P(\d+)\}", name, text)

    def _seat_of(self, row: GameRow, user: UserRef) -> Seat | None:
        return next((s for s in row.seats if self._is_user(s, user) and not s.resigned), None)

    async def _find_game(self, uow: UnitOfWork, chat: ChatRef | None, user: UserRef | None, game_id: int | None,
                         statuses: tuple[str, ...] = OPEN) -> GameRow:
        """The game meant: by number, else the only one of this chat (or of this person) in ``statuses``."""
        if game_id is not None:
            row = await uow.games.get(int(game_id))
            if row is None:
                raise ServiceError(f"There is no game #{game_id}.")
            if chat is not None and chat.platform != "console":
                chat_row = await uow.chats.find(chat.platform, chat.id)
                if chat_row is None or chat_row.id != row.chat_id:
                    if user is None or not any(self._is_user(s, user) for s in row.seats):
                        raise ServiceError(f"Game #{game_id} is not played in this chat.")
            return row
        candidates: list[GameRow] = []
        if chat is not None:
            chat_row = await uow.chats.find(chat.platform, chat.id)
            if chat_row is not None:
                candidates = await uow.games.in_chat(chat_row.id, statuses)
            if user is not None and len(candidates) > 1:
                mine = [g for g in candidates if any(self._is_user(s, user) for s in g.seats)]
                if len(mine) == 1:
                    return mine[0]
        elif user is not None:
            player = await uow.players.find(user.platform, user.id)
            if player is not None:
                candidates = await uow.games.of_player(player.id, statuses)
        if not candidates and chat is not None and "lobby" not in statuses:
            chat_row = await uow.chats.find(chat.platform, chat.id)
            waiting = await uow.games.in_chat(chat_row.id, ("lobby",)) if chat_row is not None else []
            if waiting:
                raise ServiceError(f"Game #{waiting[0].id} has not started yet — /join, then /start it.")
        if not candidates:
            where = "in this chat" if chat is not None else "for you"
            raise ServiceError(f"There is no open game {where}. Start one with /new <game> — see /help.")
        if len(candidates) > 1:
            listing = ", ".join(f"#{g.id} {rules.get_game(g.game).title}" for g in candidates)
            raise ServiceError(f"Several games are open ({listing}): add the number, e.g. `{candidates[0].id}`.")
        return candidates[0]

    # ------------------------------------------------------------------ lobby
    @answers_errors
    async def create_lobby(self, chat: ChatRef, user: UserRef, game_name: str, options_text: str = "",
                           seed: int | None = None) -> list[Message]:
        game = rules.get_game(game_name)
        options = parse_options(game, options_text)
        async with self._uow() as uow:
            chat_row = await self._chat_row(uow, chat)
            player = await uow.players.get_or_create(user.platform, user.id, user.name)
            row = GameRow(chat_id=chat_row.id, game=game.name, options=options,
                          seed=secrets.randbits(62) if seed is None else seed,
                          status="lobby", created_by=player.id, version=0)
            await uow.games.add(row)
            uow.session.add(Seat(game_id=row.id, position=0, player_id=player.id))
            await uow.commit()
            row = await uow.games.get(row.id)
            return [self._lobby_message(row, chat, note=f"{user.name} opened a table of {game.title}.")]

    def _lobby_message(self, row: GameRow, chat: ChatRef, note: str = "") -> Message:
        game = rules.get_game(row.game)
        lines = [f"🏰 {game.title} — table #{row.id}"]
        if row.options and row.options != game.default_options():
            lines.append("Options: " + ", ".join(f"{k}={v}" for k, v in row.options.items()))
        lines.append(f"Seats ({len(row.seats)}/{game.max_players}, needs {game.min_players}):")
        for s in row.seats:
            flag = ""
            if s.player is not None and chat.platform in self.dm_required_platforms and not s.player.dm_ok:
                flag = "  ⚠ must open a private chat with me first"
            lines.append(f"  {s.position + 1}. {self.seat_name(s)}{flag}")
        if note:
            lines.append("")
            lines.append(note)
        lines.append("Join with the buttons or /join, add an AI with /addai, then /start.")
        gid = row.id
        buttons = [[Button("Join", f"j:{gid}", "success"), Button("Leave", f"l:{gid}"),
                    Button("Add AI", f"a:{gid}"), Button("Start", f"s:{gid}", "primary")]]
        return Message("\n".join(lines), chat=chat, buttons=buttons, slot=f"lobby:{gid}", game_id=gid, kind="lobby")

    @answers_errors
    async def join(self, chat: ChatRef, user: UserRef, game_id: int | None = None) -> list[Message]:
        async with self._uow() as uow:
            row = await self._find_game(uow, chat, None, game_id, ("lobby",))
            game = rules.get_game(row.game)
            if any(self._is_user(s, user) for s in row.seats):
                raise ServiceError(f"You already have a seat at table #{row.id}.")
            if len(row.seats) >= game.max_players:
                raise ServiceError(f"Table #{row.id} is full ({game.max_players} seats).")
            player = await uow.players.get_or_create(user.platform, user.id, user.name)
            position = max((s.position for s in row.seats), default=-1) + 1
            uow.session.add(Seat(game_id=row.id, position=position, player_id=player.id))
            await uow.commit()
            row = await uow.games.get(row.id)
            chat_ref = self.chat_ref(await uow.chats.get(row.chat_id))
            out = [self._lobby_message(row, chat_ref, note=f"{user.name} joined.")]
            if chat_ref.platform in self.dm_required_platforms and not player.dm_ok:
                out.append(Message(f"{user.name}, open a private chat with me so I can send you your hand.",
                                   chat=chat_ref, user=user, game_id=row.id, kind="dm_needed"))
            return out

    @answers_errors
    async def leave(self, chat: ChatRef, user: UserRef, game_id: int | None = None) -> list[Message]:
        async with self._uow() as uow:
            row = await self._find_game(uow, chat, user, game_id, ("lobby",))
            seat = next((s for s in row.seats if self._is_user(s, user)), None)
            if seat is None:
                raise ServiceError(f"You have no seat at table #{row.id}.")
            await uow.session.delete(seat)
            humans = [s for s in row.seats if s.player is not None and s is not seat]
            chat_ref = self.chat_ref(await uow.chats.get(row.chat_id))
            if not humans:
                row.status = "aborted"
                row.finished_at = _now()
                await uow.commit()
                return [Message(f"Table #{row.id} is closed: everyone left.", chat=chat_ref, slot=f"lobby:{row.id}",
                                game_id=row.id, kind="lobby")]
            await uow.commit()
            row = await uow.games.get(row.id)
            return [self._lobby_message(row, chat_ref, note=f"{user.name} left.")]

    @answers_errors
    async def add_ai(self, chat: ChatRef, user: UserRef, level: str = "greedy",
                     game_id: int | None = None) -> list[Message]:
        level = (level or "greedy").strip().lower()
        make_player(level)  # validates the level
        async with self._uow() as uow:
            row = await self._find_game(uow, chat, user, game_id, ("lobby",))
            game = rules.get_game(row.game)
            if len(row.seats) >= game.max_players:
                raise ServiceError(f"Table #{row.id} is full ({game.max_players} seats).")
            position = max((s.position for s in row.seats), default=-1) + 1
            uow.session.add(Seat(game_id=row.id, position=position, ai_level=level))
            await uow.commit()
            row = await uow.games.get(row.id)
            return [self._lobby_message(row, self.chat_ref(await uow.chats.get(row.chat_id)),
                                        note=f"An AI ({level}) sat down.")]

    @answers_errors
    async def start(self, chat: ChatRef, user: UserRef, game_id: int | None = None) -> list[Message]:
        async with self._uow() as uow:
            row = await self._find_game(uow, chat, user, game_id, OPEN)
            if row.status == "active":
                raise ServiceError(f"Game #{row.id} is already running. /board shows it.")
            async with self._locks[row.id]:
                chat_ref = self.chat_ref(await uow.chats.get(row.chat_id))
                player = await uow.players.find(user.platform, user.id)
                if not any(self._is_user(s, user) for s in row.seats) and (player is None or
                                                                            player.id != row.created_by):
                    raise ServiceError("Only a seated player can start the game: /join first.")
                game = rules.get_game(row.game)
                n = len(row.seats)
                if n < game.min_players:
                    raise ServiceError(f"{game.title} needs at least {game.min_players} players; "
                                       f"{n} seated. /join or /addai.")
                if chat_ref.platform in self.dm_required_platforms:
                    waiting = [s.player.name for s in row.seats if s.player is not None and not s.player.dm_ok]
                    if waiting:
                        raise ServiceError("Waiting for " + ", ".join(waiting) +
                                           " to open a private chat with me (tap the link), so I can send hands.")
                state = game.new_game(n, seed=row.seed, options=dict(row.options))
                order = list(range(n))
                random.Random(row.seed).shuffle(order)  # random seating [every game: seats drawn at the table]
                for s, engine_seat in zip(sorted(row.seats, key=lambda s: s.position), order):
                    s.seat = engine_seat
                await uow.games.save_state(row, state.to_json(), status="active")
                await uow.commit()
                self.forget(row.id)
                live = await self._live(uow, row.id)
                names = live.names
                note = Message(f"🏁 Game #{row.id} of {game.title} starts. Seats: " +
                               ", ".join(f"{i + 1}. {n}" for i, n in enumerate(names)), chat=live.chat,
                               slot=f"lobby:{row.id}", game_id=row.id, kind="lobby")
                work = live.state.clone()
                return await self._commit(uow, live, work, self._ai_moves(live, work), notes=[note], started=True)

    # ------------------------------------------------------------------ playing
    async def _live(self, uow: UnitOfWork, game_id: int) -> LiveGame | None:
        """The in-memory picture of an active game (loaded once; dropped when another writer moved)."""
        live = self._live_games.get(game_id)
        if live is not None:
            return live
        row = await uow.games.get(game_id)
        if row is None or row.status != "active":
            return None
        chat_row = await uow.chats.get(row.chat_id)
        recent = [m.events for m in await uow.games.last_moves(row.id, 12)]
        live = load_live(row, chat_row, self.chat_ref(chat_row), await uow.games.move_count(row.id), recent,
                         await uow.timers.seats_with_timers(row.id))
        self._live_games[game_id] = live
        return live

    def forget(self, game_id: int) -> None:
        self._live_games.pop(game_id, None)

    async def _active(self, uow: UnitOfWork, chat: ChatRef | None, user: UserRef | None,
                      game_id: int | None) -> LiveGame:
        """The active game meant by this call; no database read when it is known by number and loaded."""
        if game_id is not None:
            live = self._live_games.get(int(game_id))
            if live is not None and (chat is None or chat.platform == "console" or
                                     (chat.platform, chat.id) == (live.chat.platform, live.chat.id) or
                                     (user is not None and live.seat_of(user) is not None)):
                return live
        row = await self._find_game(uow, chat, user, game_id, ("active",))
        if row.status != "active":
            raise ServiceError(f"Game #{row.id} is over." if row.status == "finished"
                               else f"Game #{row.id} is not running.")
        live = await self._live(uow, row.id)
        if live is None:
            raise ServiceError(f"Game #{row.id} is not running.")
        return live

    @answers_errors
    async def act(self, chat: ChatRef | None, user: UserRef, move, game_id: int | None = None,
                  version: int | None = None) -> list[Message]:
        """Apply a typed notation (str) or an action dict for ``user``'s seat."""
        for attempt in (1, 2):
            try:
                async with self._uow() as uow:
                    live = await self._active(uow, chat, user, game_id)
                    return await self._act_live(uow, live.id, user, move, version)
            except StaleVersion:  # another process moved first: re-read the game and judge the move again
                if attempt == 2:
                    raise

    async def _act_live(self, uow: UnitOfWork, game_id: int, user: UserRef, move,
                        version: int | None) -> list[Message]:
        async with self._locks[game_id]:
            live = await self._live(uow, game_id)
            if live is None:
                raise ServiceError(f"Game #{game_id} is over.")
            seat_row = live.seat_of(user)
            if seat_row is None:
                raise ServiceError(f"You are not playing in game #{live.id}.")
            if version is not None and version != live.version:
                return self._stale(live, seat_row)
            state = live.state
            seat = seat_row.seat
            if seat not in state.to_act():
                raise ServiceError(f"It is not your turn — waiting for {self._waiting(live, state)}.")
            action = live.game.parse_action(state, seat, move) if isinstance(move, str) else move
            work = state.clone()
            batch = [(seat, action, work.apply(seat, action), "player")]
            batch += self._ai_moves(live, work)
            if uow.session.in_transaction():  # a read loaded the game: give the connection back first
                await uow.rollback()
            return await self._commit(uow, live, work, batch, actor=seat, grouped=True)

    def _ai_moves(self, live: LiveGame, state: State, only_seat: int | None = None) -> list[tuple]:
        """AI seats (and resigned ones) act until a human is to act or the game ends. Pure: no I/O."""
        done: list[tuple] = []
        for _ in range(AI_STEP_CAP):
            if state.is_over():
                break
            acting = [s for s in state.to_act() if live.seats[s].is_ai]
            if not acting:
                break
            seat = acting[0]
            ai = make_player(live.seats[seat].ai_level or "greedy", seed=live.seed ^ (live.moves + len(done)))
            action = ai.choose(state, seat)
            done.append((seat, action, state.apply(seat, action), "ai"))
        return done

    async def _commit(self, uow: UnitOfWork, live: LiveGame, work: State, batch: list[tuple],
                      actor: int | None = None, notes: list[Message] | None = None,
                      started: bool = False, grouped: bool = False) -> list[Message]:
        """Write snapshot (version-checked) + moves + timers (+ ratings at the end), commit, then speak.

        ``grouped``: the caller holds no uncommitted writes, so the writes join the group commit
        (shared with other games' concurrent moves); otherwise they complete ``uow``'s transaction.
        """
        over = work.is_over()
        write = MoveWrite(
            live.id, live.version, work.to_json(),
            [{"seq": live.moves + i, "seat": s, "action": a, "events": [e.to_json() for e in ev], "by": by}
             for i, (s, a, ev, by) in enumerate(batch)],
            status="finished" if over else "active")
        if over:
            async def end(w: UnitOfWork) -> list[Message]:
                await w.timers.clear(live.id)
                return await self._finish(w, live, work)

            write.then = end
        else:
            write.drop_timer_seats, write.new_timers = self._timer_changes(live, work)
        try:
            if grouped:
                new_version, finish = await self._group.run(write)
            else:
                new_version, finish = await write_one(uow, write)
                await uow.commit()
        except BaseException:
            self.forget(live.id)  # the picture may be ahead of the database: reload next time
            raise
        finish = finish or []
        live.version, live.state, live.moves = new_version, work, live.moves + len(batch)
        for _, _, events, _ in batch:
            live.remember_public(events)
        if over:
            live.status = "finished"
            self.forget(live.id)
        self._timer_wakeup.set()
        return (notes or []) + self._change_messages(live, work, batch, actor, started) + finish

    def _change_messages(self, live: LiveGame, state: State, batch: list[tuple], actor: int | None,
                         started: bool = False) -> list[Message]:
        """The board, and each person's view where it changed (or where they learnt something privately)."""
        out = [self._board_message(live, state, fresh=started)]
        private_lines: dict[int, list[str]] = defaultdict(list)
        for _, _, events, _ in batch:
            for event in events:
                if event.audience is not None:
                    line = live.game.describe_event(event)
                    if line:
                        for s in event.audience:
                            private_lines[s].append(self.substitute(line, live.names))
        for s in live.humans():
            digest = _hash(state.view(s.seat))
            if digest == live.view_hashes.get(s.seat) and not private_lines.get(s.seat) and s.seat != actor:
                continue
            live.view_hashes[s.seat] = digest
            out.append(self._private_message(live, s, state, private_lines.get(s.seat, [])))
        return out

    def _waiting(self, live: LiveGame, state: State) -> str:
        return ", ".join(live.names[s] for s in state.to_act())

    def _board_message(self, live: LiveGame, state: State, fresh: bool = False) -> Message:
        names = live.names
        text = self.substitute(live.game.render_view(state.view(None)), names)
        header = f"#{live.id} {live.game.title}"
        if live.recent:
            header += "\n" + "\n".join("· " + self.substitute(l, names) for l in live.recent)
        text = header + "\n\n" + text
        if not state.is_over():
            text += f"\n\n⏳ To act: {self._waiting(live, state)}"
        buttons = [] if state.is_over() else [[Button("🂠 My hand", f"h:{live.id}", "primary")]]
        return Message(text, chat=live.chat, buttons=buttons, slot=f"board:{live.id}", game_id=live.id,
                       kind="board", fresh=fresh, picture=self._picture(live, state.view(None)),
                       image_name=f"board-{live.id}.png")

    def _picture(self, live: LiveGame, view: dict) -> tuple | None:
        """What to draw for ``view`` when the chat wants pictures (drawn by ``_draw_pictures``), else None."""
        if not self.pictures or live.settings.get("pictures", "on") != "on" or \
                not boards.wants_picture(live.game.name, view):
            return None
        return live.game.name, view, list(live.names)

    async def _draw_pictures(self, messages):
        """Draw the pictures the messages ask for, off the event loop; a picture already drawn is reused."""
        if not isinstance(messages, list):
            return messages
        for message in messages:
            if not isinstance(message, Message) or message.picture is None:
                continue
            request, message.picture = message.picture, None
            key = _hash(boards.picture_key(*request))
            if key in self._drawn:
                self._drawn.move_to_end(key)
            else:
                loop = asyncio.get_running_loop()
                self._drawn[key] = await loop.run_in_executor(self._painter, boards.picture, *request)
                if len(self._drawn) > PICTURE_CACHE:
                    self._drawn.popitem(last=False)
            message.image = self._drawn[key]
        return messages

    def _private_message(self, live: LiveGame, seat_row: LiveSeat, state: State, lines: list[str],
                         path: str = "", note: str = "") -> Message:
        """A person's own view (from ``view(seat)`` only) with the move picker when they are to act."""
        seat = seat_row.seat
        text = self.substitute(live.game.render_view(state.view(seat)), live.names)
        head = [f"#{live.id} {live.game.title} — your view (seat {seat + 1})"]
        if note:
            head.append(note)
        head.extend(lines[-8:])
        buttons: list[list[Button]] = []
        menu = None
        if seat in state.to_act() and not state.is_over():
            level = picker.resolve(live.game, state.legal_actions(seat), path)
            buttons = self._picker_buttons(live, level, path)
            menu = self._picker_menu(live, level, path)
            if level.chosen:
                head.append("Chosen so far: " + " → ".join(level.chosen))
        return Message("\n".join(head) + "\n\n" + text, user=seat_row.user, buttons=buttons,
                       slot=f"hand:{live.id}", game_id=live.id, kind="hand", menu=menu,
                       picture=self._picture(live, state.view(seat)), image_name=f"hand-{live.id}.png")

    @staticmethod
    def _picker_buttons(live: LiveGame, level: picker.PickerLevel, path: str) -> list[list[Button]]:
        prefix = f"p:{live.id}:{live.version}:"
        if level.action is not None:  # one action left: a single button confirms it
            return [[Button(live.game.describe_action(level.action)[:40], prefix + path, "primary")]]
        flat = [Button(label[:40], prefix + level.data_for(path, token)) for label, token in level.shown()]
        per_row = 4 if all(len(b.label) <= 6 for b in flat) else (2 if all(len(b.label) <= 16 for b in flat) else 1)
        rows = [flat[i:i + per_row] for i in range(0, len(flat), per_row)]
        controls = []
        if level.page > 0:
            controls.append(Button("◀ Previous", prefix + level.data_for(path, f"n{level.page - 1}")))
        if level.page + 1 < level.pages:
            controls.append(Button(f"More ▶ ({level.page + 2}/{level.pages})",
                                   prefix + level.data_for(path, f"n{level.page + 1}")))
        if level.multi and level.can_finish:
            mask = sum(1 << i for i, (label, _) in enumerate(level.options) if label.startswith("✔ "))
            controls.append(Button("✅ Done", prefix + level.data_for(path, f"d{mask:x}"), "success"))
        if path:
            controls.append(Button("↩ Back", prefix + picker.parent(path)))
        if controls:
            rows.append(controls)
        return rows

    @staticmethod
    def _picker_menu(live: LiveGame, level: picker.PickerLevel, path: str) -> Menu | None:
        """The same choice as one menu (Discord's select): option values are picker tokens or item numbers."""
        if level.action is not None:
            return None
        prefix = f"p:{live.id}:{live.version}:"
        base = picker.parent(path) if level.has_token else path
        what = str(level.key or "move").replace("_", " ")
        controls = []
        if level.multi:
            options = [(label.removeprefix("✔ "), str(i)) for i, (label, _) in enumerate(level.options)]
            data, placeholder = prefix + base + "|m", f"Choose the {what} …"
        else:
            options = level.shown()
            data, placeholder = prefix + base + "|s", f"Choose a {what} …"
            if level.page > 0:
                controls.append(Button("◀ Previous", prefix + level.data_for(path, f"n{level.page - 1}")))
            if level.page + 1 < level.pages:
                controls.append(Button(f"More ▶ ({level.page + 2}/{level.pages})",
                                       prefix + level.data_for(path, f"n{level.page + 1}")))
        if base:  # a choice was made before this one
            controls.append(Button("↩ Back", prefix + picker.parent(base)))
        low, high = level.sizes if level.multi else (1, 1)
        return Menu(data, [(label[:100], value) for label, value in options][:25], level.multi, low,
                    min(high, len(options), 25), placeholder[:150], controls)

    @answers_errors
    async def choose(self, user: UserRef, data: str, values: list[str], chat: ChatRef | None = None) -> list[Message]:
        """A menu (``Message.menu``) was submitted with ``values``: the same as pressing the matching button."""
        base, _, kind = (data or "").rpartition("|")
        parts = base.split(":")
        if kind not in ("s", "m") or len(parts) != 4 or parts[0] != "p" or \
                not all(isinstance(v, str) and v.isdigit() and int(v) < 64 for v in values):
            raise ServiceError("That menu is not one of mine.")
        if kind == "s":
            if len(values) != 1:
                raise ServiceError("Choose one option.")
            token = values[0]
        else:
            token = f"d{sum(1 << int(v) for v in set(values)):x}"
        return await self.press(user, ":".join(parts[:3]) + ":" + picker.extend(parts[3], token), chat=chat)

    def _stale(self, live: LiveGame, seat_row: LiveSeat | None) -> list[Message]:
        out = [Message("This board is out of date — here is the current one.",
                       user=seat_row.user if seat_row else None, kind="error", game_id=live.id)]
        if seat_row is not None:
            out.append(self._private_message(live, seat_row, live.state, []))
        return out

    @answers_errors
    async def show_private(self, user: UserRef, game_id: int | None = None, chat: ChatRef | None = None) -> list[Message]:
        """The person's own view with their picker (/hand, the My hand button)."""
        async with self._uow() as uow:
            live = await self._active(uow, chat, user, game_id)
            seat_row = live.seat_of(user)
            if seat_row is None:
                raise ServiceError(f"You are not playing in game #{live.id}.")
            return [self._private_message(live, seat_row, live.state, [])]

    @answers_errors
    async def show_board(self, chat: ChatRef, game_id: int | None = None, user: UserRef | None = None) -> list[Message]:
        async with self._uow() as uow:
            row = await self._find_game(uow, chat, user, game_id, ("active", "finished") if game_id else ("active",))
            if row.status == "lobby":
                return [self._lobby_message(row, self.chat_ref(await uow.chats.get(row.chat_id)))]
            if row.status == "active":
                live = await self._live(uow, row.id)
                return [self._board_message(live, live.state, fresh=True)]
            chat_row = await uow.chats.get(row.chat_id)
            recent = [m.events for m in await uow.games.last_moves(row.id, 12)]
            live = load_live(row, chat_row, self.chat_ref(chat_row), 0, recent, set())
            return [self._board_message(live, live.state, fresh=True)]

    @answers_errors
    async def choices(self, user: UserRef, game_id: int | None = None) -> list[tuple[str, str]]:
        """(label, notation) of every legal action of ``user`` now — the console's numbered menu; actions that read
        the same (Guyenne's answer ``5 4`` with either 5) are offered once."""
        async with self._uow() as uow:
            live = await self._active(uow, None, user, game_id)
            seat_row = live.seat_of(user)
            if seat_row is None:
                return []
            game = live.game
            menu: dict[str, str] = {}
            for action in live.state.legal_actions(seat_row.seat):
                menu.setdefault(game.describe_action(action), game.format_action(action))
            return list(menu.items())

    @answers_errors
    async def press(self, user: UserRef, data: str, chat: ChatRef | None = None,
                    is_admin: bool = False) -> list[Message]:
        """A button was pressed. Forged or stale data is answered, never applied."""
        kind, _, rest = (data or "").partition(":")
        parts = rest.split(":")
        try:
            game_id = int(parts[0])
        except (ValueError, IndexError):
            raise ServiceError("That button is not one of mine.") from None
        if kind == "p":
            if len(parts) != 3 or not parts[1].isdigit():
                raise ServiceError("That button is not one of mine.")
            return await self._press_picker(user, game_id, int(parts[1]), parts[2])
        handlers = {"j": self.join, "l": self.leave, "s": self.start}
        if kind in handlers:
            return await handlers[kind](chat, user, game_id=game_id) if chat else await self._no_chat(user)
        if kind == "a":
            return await self.add_ai(chat, user, "greedy", game_id=game_id) if chat else await self._no_chat(user)
        if kind == "h":
            return await self.show_private(user, game_id=game_id)
        raise ServiceError("That button is not one of mine.")

    async def _no_chat(self, user: UserRef) -> list[Message]:
        return [Message("That button only works in the game's chat.", user=user, kind="error")]

    async def _press_picker(self, user: UserRef, game_id: int, version: int, path: str) -> list[Message]:
        async with self._uow() as uow:
            live = await self._live(uow, game_id)
            if live is None:
                row = await uow.games.get(game_id)
                if row is None:
                    raise ServiceError("That button is not one of mine.")
                raise ServiceError(f"Game #{row.id} is over." if row.status != "lobby"
                                   else f"Game #{row.id} has not started.")
            seat_row = live.seat_of(user)
            if seat_row is None:
                raise ServiceError(f"You are not playing in game #{live.id}.")
            if version != live.version:
                return self._stale(live, seat_row)
            state = live.state
            if seat_row.seat not in state.to_act():
                raise ServiceError(f"It is not your turn — waiting for {self._waiting(live, state)}.")
            level = picker.resolve(live.game, state.legal_actions(seat_row.seat), path)
            if level.action is None:
                return [self._private_message(live, seat_row, state, [], path=path)]
            return await self._act_live(uow, live.id, user, level.action, version)

    @answers_errors
    async def resign(self, chat: ChatRef | None, user: UserRef, game_id: int | None = None) -> list[Message]:
        async with self._uow() as uow:
            live = await self._active(uow, chat, user, game_id)
            async with self._locks[live.id]:
                row = await uow.games.get(live.id)
                seat_row = next((s for s in row.seats if self._is_user(s, user) and not s.resigned), None)
                if seat_row is None:
                    raise ServiceError(f"You are not playing in game #{row.id}.")
                seat_row.resigned = True
                await uow.session.flush()
                self.forget(row.id)
                humans = [s for s in row.seats if s.player is not None and not s.resigned]
                if not humans:
                    await uow.games.save_state(row, row.state, status="aborted")
                    await uow.timers.clear(row.id)
                    await uow.commit()
                    return [Message(f"{user.name} resigned; no human is left, so game #{row.id} ends unrated.",
                                    chat=live.chat, game_id=row.id, kind="result")]
                live = await self._live(uow, row.id)
                work = live.state.clone()
                note = Message(f"🏳 {user.name} resigned from game #{row.id}; an AI plays their seat.",
                               chat=live.chat, game_id=row.id, kind="notice")
                return await self._commit(uow, live, work, self._ai_moves(live, work), notes=[note])

    @answers_errors
    async def abort(self, chat: ChatRef, user: UserRef, game_id: int | None = None,
                    is_admin: bool = False) -> list[Message]:
        async with self._uow() as uow:
            row = await self._find_game(uow, chat, user, game_id, OPEN)
            async with self._locks[row.id]:
                await uow.session.refresh(row)
                player = await uow.players.find(user.platform, user.id)
                if not is_admin and (player is None or player.id != row.created_by):
                    raise ServiceError("Only the game's creator or a server/group admin can abort it.")
                chat_ref = self.chat_ref(await uow.chats.get(row.chat_id))
                was = row.status
                await uow.games.save_state(row, row.state or {}, status="aborted")
                await uow.timers.clear(row.id)
                await uow.commit()
                self.forget(row.id)
                what = "Table" if was == "lobby" else "Game"
                return [Message(f"🛑 {what} #{row.id} was aborted by {user.name}.", chat=chat_ref,
                                slot=f"{'lobby' if was == 'lobby' else 'board'}:{row.id}", game_id=row.id,
                                kind="result")]

    async def _finish(self, uow: UnitOfWork, live: LiveGame, state: State) -> list[Message]:
        """Record the result and rate the game, inside the transaction that ends it."""
        names = live.names
        ranking = state.ranking()
        scores = state.scores()
        resigned = sorted(s.seat for s in live.seats if s.resigned)
        result = {"ranking": ranking, "scores": scores, "names": names, "resigned": resigned}
        row = await uow.games.get(live.id)
        row.result = result
        lines = [f"🏆 Game #{live.id} is over."]
        for seat in sorted(range(len(names)), key=lambda s: (ranking[s], s)):
            lines.append(f"{ranking[seat]}. {names[seat]} — {scores[seat]:g}" +
                         (" (resigned)" if seat in resigned else ""))
        out = [Message("\n".join(lines), chat=live.chat, game_id=live.id, kind="result")]
        out.extend(await self.rate_finished(uow, row, state, live.chat))
        return out

    # ------------------------------------------------------------------ timers
    def _timer_changes(self, live: LiveGame, state: State) -> tuple[set[int], list[dict]]:
        """Each human to act has a deadline from when their turn began; others' timers are dropped."""
        to_act = {s for s in state.to_act() if not live.seats[s].is_ai}
        leaving = live.timer_seats - to_act
        live.timer_seats -= leaving
        seconds = live.turn_timer
        if seconds <= 0:
            return leaving, []
        now = _now()
        new: list[dict] = []
        for seat in sorted(to_act - live.timer_seats):
            new.append({"seat": seat, "kind": "remind", "version": live.version,
                        "due_at": now + timedelta(seconds=seconds / 2)})
            new.append({"seat": seat, "kind": "autoplay", "version": live.version,
                        "due_at": now + timedelta(seconds=seconds)})
            live.timer_seats.add(seat)
        return leaving, new

    async def run_timers(self, now: datetime | None = None) -> list[Message]:
        """Fire every due timer: remind at half time, then an AI plays the turn."""
        now = now or _now()
        out: list[Message] = []
        async with self._uow() as uow:
            due = await uow.timers.due(now)
            jobs = [(t.id, t.game_id, t.seat, t.kind) for t in due]
        for timer_id, game_id, seat, kind in jobs:
            try:
                out.extend(await self._fire_timer(timer_id, game_id, seat, kind))
            except StaleVersion:
                continue
            except Exception:
                log.exception("timer %s failed", timer_id)
        return await self._draw_pictures(out)

    async def _fire_timer(self, timer_id: int, game_id: int, seat: int, kind: str) -> list[Message]:
        async with self._locks[game_id]:
            async with self._uow() as uow:
                timer = await uow.session.get(Timer, timer_id)
                if timer is None:
                    return []
                await uow.timers.delete(timer)
                live = await self._live(uow, game_id)
                state = live.state if live else None
                if live is None or seat not in state.to_act() or live.seats[seat].is_ai:
                    await uow.commit()
                    return []
                user = live.seats[seat].user
                if kind == "remind":
                    await uow.commit()
                    return [Message(f"⏳ Game #{live.id}: half of your turn time is gone. An AI will play for "
                                    f"you when it runs out.", user=user, game_id=live.id, kind="notice")]
                await uow.timers.drop_seats(live.id, {seat})
                live.timer_seats.discard(seat)
                work = state.clone()
                ai = make_player("greedy", seed=live.seed ^ live.version)
                batch = []
                while seat in work.to_act() and not work.is_over() and len(batch) < 200:
                    action = ai.choose(work, seat)
                    batch.append((seat, action, work.apply(seat, action), "timer"))
                batch += self._ai_moves(live, work)
                note = Message(f"⌛ {user.name}'s time ran out in game #{live.id}; an AI played their turn.",
                               chat=live.chat, game_id=live.id, kind="notice")
                return await self._commit(uow, live, work, batch, notes=[note])

    async def next_timer_due(self) -> datetime | None:
        async with self._uow() as uow:
            due = await uow.timers.next_due()
            return _aware(due) if due else None

    async def timer_loop(self, deliver, max_sleep: float = 30.0) -> None:
        """Run forever: fire due timers and hand their messages to ``deliver`` (an async callable)."""
        while True:
            try:
                messages = await self.run_timers()
                if messages:
                    await deliver(messages)
                due = await self.next_timer_due()
                delay = max_sleep if due is None else max(0.05, min(max_sleep, (due - _now()).total_seconds()))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("timer loop")
                delay = max_sleep
            self._timer_wakeup.clear()
            try:
                await asyncio.wait_for(self._timer_wakeup.wait(), timeout=delay)
            except asyncio.TimeoutError:
                pass

    # ------------------------------------------------------------------ chat-level
    @answers_errors
    async def games(self, chat: ChatRef, user: UserRef | None = None) -> list[Message]:
        async with self._uow() as uow:
            chat_row = await uow.chats.find(chat.platform, chat.id)
            rows = await uow.games.in_chat(chat_row.id, OPEN) if chat_row else []
            if not rows:
                return [Message("No games here yet. Open one with /new <game>:\n" + game_list_text(), chat=chat)]
            lines = ["Games in this chat:"]
            for row in rows:
                game = rules.get_game(row.game)
                if row.status == "lobby":
                    lines.append(f"#{row.id} {game.title} — lobby, {len(row.seats)}/{game.max_players} seated")
                else:
                    live = await self._live(uow, row.id)
                    lines.append(f"#{row.id} {game.title} — playing; to act: "
                                 + self._waiting(live, live.state))
            return [Message("\n".join(lines), chat=chat)]

    @answers_errors
    async def rules_text(self, chat: ChatRef | None, game_name: str = "", user: UserRef | None = None) -> list[Message]:
        if not game_name.strip():
            return [Message("Which game? /rules <game>:\n" + game_list_text(), chat=chat, user=user)]
        game = rules.get_game(game_name)
        return [Message(f"📜 {game.title}\n\n{game.rules_summary()}", chat=chat, user=user)]

    def help(self, chat: ChatRef | None = None, user: UserRef | None = None) -> list[Message]:
        return [Message(HELP_TEXT + "\n\nGames:\n" + game_list_text(), chat=chat, user=user)]

    @answers_errors
    async def settings(self, chat: ChatRef, user: UserRef, text: str = "", is_admin: bool = False) -> list[Message]:
        async with self._uow() as uow:
            chat_row = await self._chat_row(uow, chat)
            current = {**DEFAULT_SETTINGS, **(chat_row.settings or {})}
            if not text.strip():
                await uow.commit()
                return [Message(describe_settings(current), chat=chat, user=user)]
            if not is_admin:
                raise ServiceError("Only admins of this server/group can change settings.")
            changes = parse_settings(text)
            chat_row.settings = {**(chat_row.settings or {}), **changes}
            await uow.commit()
            for live in self._live_games.values():
                if live.chat_db_id == chat_row.id:
                    live.settings = {**DEFAULT_SETTINGS, **chat_row.settings}
            return [Message("✅ Settings saved.\n" + describe_settings({**current, **changes}), chat=chat, user=user)]

    async def chat_settings(self, chat: ChatRef) -> dict:
        async with self._uow() as uow:
            row = await uow.chats.find(chat.platform, chat.id)
            return {**DEFAULT_SETTINGS, **((row.settings or {}) if row else {})}

    # ------------------------------------------------------------------ adapter bookkeeping
    async def dm_opened(self, user: UserRef) -> list[Message]:
        """The person can now receive private messages (Telegram: they pressed Start in the private chat)."""
        async with self._uow() as uow:
            player = await uow.players.get_or_create(user.platform, user.id, user.name)
            player.dm_ok = True
            lobbies = await uow.games.of_player(player.id, ("lobby",))
            out = []
            for row in lobbies:
                chat_ref = self.chat_ref(await uow.chats.get(row.chat_id))
                out.append(self._lobby_message(row, chat_ref, note=f"{user.name} can now get private messages."))
            await uow.commit()
        return out

    async def dm_failed(self, user: UserRef, game_id: int | None) -> list[Message]:
        """A private message could not be delivered: tell the game's chat, once per person."""
        async with self._uow() as uow:
            player = await uow.players.find(user.platform, user.id)
            if player is None:
                return []
            already = player.dm_ok is False
            player.dm_ok = False
            await uow.commit()
            if already or game_id is None:
                return []
            row = await uow.games.get(game_id)
            if row is None:
                return []
            chat_ref = self.chat_ref(await uow.chats.get(row.chat_id))
        return [Message(f"⚠ I cannot send private messages to {user.name}. Please allow direct messages from "
                        f"server members (or start a private chat with me); meanwhile use /hand or the "
                        f"“My hand” button here.", chat=chat_ref, game_id=game_id, kind="notice")]

    async def dm_delivered(self, user: UserRef) -> None:
        async with self._uow() as uow:
            player = await uow.players.find(user.platform, user.id)
            if player is not None and player.dm_ok is not True:
                player.dm_ok = True
                await uow.commit()

    async def delivered(self, outbox_ids: list[int]) -> None:
        """Messages of the outbox were sent (or superseded by a newer one for their slot): never resend them."""
        ids = [i for i in outbox_ids if i is not None]
        if not ids:
            return
        # the outbox lands with the multi-process work (issue 21); until then nothing is stored to mark

    async def remember_message(self, platform: str, slot: str, chat_id: str, message_id: str) -> None:
        async with self._uow() as uow:
            await uow.slots.put(platform, slot, chat_id, message_id)
            await uow.commit()

    async def message_for_slot(self, platform: str, slot: str) -> tuple[str, str] | None:
        async with self._uow() as uow:
            row = await uow.slots.get(platform, slot)
            return (row.chat_external_id, row.message_id) if row else None

    async def migrate_chat(self, platform: str, old_id: str, new_id: str) -> None:
        """A chat changed its id (Telegram group → supergroup): its games and league stay."""
        async with self._uow() as uow:
            chat = await uow.chats.find(platform, old_id)
            if chat is not None and await uow.chats.find(platform, new_id) is None:
                await uow.chats.move(chat, new_id)
                await uow.commit()

    async def games_of(self, user: UserRef, statuses: tuple[str, ...] = ("active",)) -> list[int]:
        """Ids of the person's games in ``statuses``, oldest first."""
        async with self._uow() as uow:
            player = await uow.players.find(user.platform, user.id)
            return [g.id for g in await uow.games.of_player(player.id, statuses)] if player else []

    async def active_game_ids(self) -> list[int]:
        async with self._uow() as uow:
            return [g.id for g in await uow.games.with_status(("active",))]

    async def resume(self) -> int:
        """Load every active game (checks its snapshot) so the first move after a restart is fast."""
        count = 0
        async with self._uow() as uow:
            for row in await uow.games.with_status(("active",)):
                await self._live(uow, row.id)
                count += 1
        return count

    async def close(self) -> None:
        self._painter.shutdown(wait=True)
        await self.db.close()


def parse_options(game: Game, text: str) -> dict:
    """``key=value`` pairs (values typed like the defaults) over the game's default options."""
    options = dict(game.default_options())
    for token in (text or "").split():
        key, sep, value = token.partition("=")
        key = key.strip().lower()
        if not sep:
            matches = [k for k, v in options.items() if isinstance(v, str) and _allowed(game, k, value)]
            if len(matches) == 1:
                key, value = matches[0], token
            else:
                raise IllegalAction(f"Options are written key=value, e.g. {_example(game)}.")
        if key not in options:
            known = ", ".join(options) or "none"
            raise IllegalAction(f"{game.title} has no option {key!r}. Options: {known}.")
        default = options[key]
        options[key] = _coerce(key, value, default)
    return options


def _allowed(game: Game, key: str, value: str) -> bool:
    try:
        game.new_game(game.max_players, seed=0, options={**game.default_options(), key: value.lower()})
        return True
    except Exception:
        return False


def _example(game: Game) -> str:
    opts = game.default_options()
    return " ".join(f"{k}={v}" for k, v in list(opts.items())[:2]) or "(this game has no options)"


def _coerce(key: str, value: str, default):
    value = value.strip()
    if isinstance(default, bool):
        if value.lower() in ("1", "true", "yes", "on"):
            return True
        if value.lower() in ("0", "false", "no", "off"):
            return False
        raise IllegalAction(f"Option {key} takes on/off.")
    if isinstance(default, int):
        try:
            return int(value)
        except ValueError:
            raise IllegalAction(f"Option {key} takes a whole number.") from None
    if isinstance(default, list):
        try:
            return [int(v) for v in value.split(",") if v]
        except ValueError:
            raise IllegalAction(f"Option {key} takes numbers separated by commas, e.g. 3,7,11.") from None
    return value.lower()


async def build_service(database_url: str | None = None, *, pictures: bool = False) -> Service:
    """Open (and migrate) the database, resume every active game; the fixed entry point for all adapters.
    ``pictures``: send board and hand pictures with the text (chat platforms)."""
    from bot.settings import DEFAULT_DATABASE_URL

    db = await open_database(database_url or DEFAULT_DATABASE_URL)
    service = Service(db, pictures=pictures)
    await service.resume()
    return service
