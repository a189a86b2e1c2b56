"""Playing: moves typed or picked, the private view, the board, resigning.

A move is judged against the in-memory picture of the game; a refusal is given only after checking that the
picture is the stored version (another process may have moved). The move's snapshot, log rows, timer changes
and the messages that tell it (the outbox) are written in one transaction before any message is returned
(bot/service/commit.py).
"""
from __future__ import annotations

import re

from rules.api import IllegalAction
from storage import StaleVersion, UnitOfWork
from bot import i18n
from bot.i18n import _
from bot.service import languages, lifecycle, picker, views
from bot.service.commit import CommitCommands
from bot.service.errors import ServiceError, answers_errors, game_number
from bot.service.live import LOG_KEPT, LiveGame, LiveSeat, load_live
from bot.service.messages import Button, ChatRef, Message, UserRef

_NUMBERED = re.compile(r"^\s*#?(\d{1,10})\s+(\S.*)$", re.S)
# How often a move another process's commit overtook is judged again before the person is asked to retry: in a
# simultaneous phase every seat may move at once from another process, and three tries lost all three to
# four processes (seen once in the multi-process test on PostgreSQL); each try reads the game anew.
JUDGED_AGAIN = 8


class PlayCommands(CommitCommands):
    # ------------------------------------------------------------------ which game
    async def _active(self, uow: UnitOfWork, chat: ChatRef | None, user: UserRef, game_id, command: str,
                      *, fresh: bool = False) -> LiveGame:
        """The active game meant by this call, checked against the lifecycle table. No database read when it
        is known by number and loaded (unless ``fresh``: the answer may refuse, so it must be the stored one)."""
        number = game_number(game_id)
        live = self._live_games.get(number) if number is not None else None
        if live is None or not (chat is None or chat.platform == "console" or
                                (chat.platform, chat.id) == (live.chat.platform, live.chat.id) or
                                live.seat_of(user) is not None):
            row = await self.find_game(uow, chat, user, number, command, mine=True)
            await self.permitted(uow, command, row, user, chat)
            live = await self._live(uow, row.id)
            if live is None:  # it ended since it was found (another process's move or /abort)
                raise ServiceError(_("Game #{id} is over.", id=row.id))
        if fresh:
            live = await self.fresh_live(uow, live.id)
            if live is None:
                row = await uow.games.get(number or 0)
                raise ServiceError(_("Game #{id} is not running.", id=number) if row is None else
                                   _("Game #{id} is over.", id=row.id))
        if live.seat_of(user) is None:
            raise ServiceError(_("You are not playing in game #{id}.", id=live.id))
        return live

    async def _game_for_private_move(self, uow: UnitOfWork, user: UserRef) -> int | None:
        """In a private chat with several games: the one where it is this person's turn, when only one is."""
        player = await uow.players.find(user.platform, user.id)
        if player is None:
            return None
        mine = []
        for row in await uow.games.of_player(player.id, (lifecycle.ACTIVE,)):
            live = await self._live(uow, row.id)
            seat = live.seat_of(user) if live else None
            if seat is not None and seat.seat in live.state.to_act():
                mine.append(row.id)
        return mine[0] if len(mine) == 1 else None

    async def _split_number(self, uow: UnitOfWork, chat: ChatRef | None, user: UserRef, move: str,
                            game_id) -> tuple[str, int | None]:
        """``/move 2 trio JS QS KS`` and ``/move #2 …``: a leading game number of the person's is taken as
        such (a notation may start with a number too, so only a number of one of their running games)."""
        found = _NUMBERED.match(move)
        if game_id is not None or not found:
            return move, game_number(game_id)
        number, rest = int(found.group(1)), found.group(2)
        if move.lstrip().startswith("#"):
            return rest, game_number(number)
        row = await uow.games.get(number)
        if row is not None and row.status == lifecycle.ACTIVE and self._seat_of(row, user) is not None:
            player = await uow.players.find(user.platform, user.id)
            if len(await uow.games.of_player(player.id, (lifecycle.ACTIVE,))) > 1:
                return rest, number
        return move, None

    # ------------------------------------------------------------------ moves
    @answers_errors
    async def act(self, chat: ChatRef | None, user: UserRef, move, game_id: int | None = None,
                  version: int | None = None) -> list[Message]:
        """Apply a typed notation (str) or an action dict for ``user``'s seat."""
        if isinstance(move, str):
            move = move.strip().removeprefix("/move").strip()
            if not move:
                raise ServiceError(_("Which move? Type it after /move, e.g. /move R10 — /hand shows your choices."))
        for attempt in range(1, JUDGED_AGAIN + 1):
            try:
                async with self._uow(readonly=True) as uow:  # the write goes through the group commit
                    if isinstance(move, str):
                        move, game_id = await self._split_number(uow, chat, user, move, game_id)
                    if game_id is None and chat is None:
                        game_id = await self._game_for_private_move(uow, user)
                    live = await self._active(uow, chat, user, game_id, "move")
                    if isinstance(move, str) and chat is not None and chat.platform != "console":
                        _refuse_secret(live, user, move)
                    return await self._act_live(uow, live.id, user, move, version)
            except StaleVersion:  # another process moved first: re-read the game and judge the move again
                if attempt == JUDGED_AGAIN:
                    raise

    async def _act_live(self, uow: UnitOfWork, game_id: int, user: UserRef, move, version: int | None,
                        *, checked: bool = False) -> list[Message]:
        if uow.in_transaction():  # hold no connection while waiting for the game
            await uow.rollback()
        async with self.lock_for(game_id):
            fresh = checked or game_id in self.shared_games
            live = await (self.fresh_live(uow, game_id) if fresh else self._live(uow, game_id))
            if live is None:
                raise ServiceError(_("Game #{id} is over.", id=game_id))
            try:
                return await self._judge_and_commit(uow, live, user, move, version)
            except (ServiceError, IllegalAction):
                if checked:
                    raise
            # a refusal: judge again against the stored version (this copy may be older than the database)
        return await self._act_live(uow, game_id, user, move, version, checked=True)

    async def _judge_and_commit(self, uow: UnitOfWork, live: LiveGame, user: UserRef, move,
                                version: int | None) -> list[Message]:
        seat_row = live.seat_of(user)
        if seat_row is None:
            raise ServiceError(_("You are not playing in game #{id}.", id=live.id))
        if version is not None and version != live.version:
            return self._stale(live, seat_row, version)
        state = live.state
        seat = seat_row.seat
        if seat not in state.to_act():
            raise ServiceError(_("It is not your turn — waiting for {names}.", names=views.waiting(live, state)))
        action = live.game.parse_action(state, seat, move) if isinstance(move, str) else move
        work = state.clone()
        batch = [(seat, action, work.apply(seat, action), "player")]
        batch += self._ai_moves(live, work)
        if uow.in_transaction():  # a read loaded the game: give the connection back first
            await uow.rollback()
        return await self._commit(uow, live, work, batch, actor=seat, grouped=True)

    def _stale(self, live: LiveGame, seat_row: LiveSeat | None, version: int) -> list[Message]:
        out = [Message(_("This board is out of date — here is the current one."),
                       user=seat_row.user if seat_row else None, kind="error", game_id=live.id)]
        if seat_row is not None:
            out.append(views.private_message(live, seat_row, live.state, live.version, [], self.pictures))
        return out

    # ------------------------------------------------------------------ buttons and menus
    @answers_errors
    async def press(self, user: UserRef, data: str, chat: ChatRef | None = None,
                    is_admin: bool = False) -> list[Message]:
        """A button was pressed. Forged or stale data is answered, never applied."""
        kind, _sep, rest = (data or "").partition(":")
        parts = rest.split(":")
        try:
            game_id = game_number(parts[0])
        except ServiceError:
            game_id = None
        if game_id is None:
            raise ServiceError(_("That button is not one of mine."))
        if kind == "p":
            if len(parts) != 3 or not (parts[1].isascii() and parts[1].isdigit()) or len(parts[1]) > 10:
                raise ServiceError(_("That button is not one of mine."))
            return await self._press_picker(user, game_id, int(parts[1]), parts[2])
        if kind in ("j", "l", "s", "a"):
            if chat is None:
                return [Message(_("That button only works in the game's chat."), user=user, kind="error")]
            if kind == "a":
                return await self.add_ai(chat, user, "greedy", game_id=game_id, is_admin=is_admin)
            return await {"j": self.join, "l": self.leave, "s": self.start}[kind](chat, user, game_id=game_id)
        if kind == "h":
            return await self.show_private(user, game_id=game_id)
        if (kind == "r" and len(parts) == 3 and parts[1].isascii() and parts[1].isdigit()) or \
                (kind == "rc" and len(parts) == 2):
            return await self._press_resign(user, chat, kind, game_id, parts)
        raise ServiceError(_("That button is not one of mine."))

    async def _press_picker(self, user: UserRef, game_id: int, version: int, path: str) -> list[Message]:
        async with self._uow(readonly=True) as uow:
            live = await self._live(uow, game_id)
            if live is None or version != live.version or live.seat_of(user) is None or \
                    live.seat_of(user).seat not in live.state.to_act():
                live = await self.fresh_live(uow, game_id)  # about to refuse: judge by the stored game
            if live is None:
                row = await uow.games.get(game_id)
                if row is None:
                    raise ServiceError(_("That button is not one of mine."))
                raise ServiceError(_("Game #{id} is over.", id=row.id) if row.status != "lobby"
                                   else _("Game #{id} has not started.", id=row.id))
            seat_row = live.seat_of(user)
            if seat_row is None:
                raise ServiceError(_("You are not playing in game #{id}.", id=live.id))
            if version != live.version:
                return self._stale(live, seat_row, version)
            state = live.state
            if seat_row.seat not in state.to_act():
                raise ServiceError(_("It is not your turn — waiting for {names}.", names=views.waiting(live, state)))
            level = picker.resolve(live.game, state.legal_actions(seat_row.seat), path)
            if level.action is None:
                return [views.private_message(live, seat_row, state, live.version, [], self.pictures, path=path)]
            return await self._act_live(uow, live.id, user, level.action, version)

    @answers_errors
    async def choose(self, user: UserRef, data: str, values: list[str], chat: ChatRef | None = None) -> list[Message]:
        """A menu (``Message.menu``) was submitted with ``values``: the same as pressing the matching button."""
        base, _sep, kind = (data or "").rpartition("|")
        parts = base.split(":")
        if kind not in ("s", "m") or len(parts) != 4 or parts[0] != "p" or \
                not all(isinstance(v, str) and v.isascii() and v.isdigit() and int(v) < 64 for v in values):
            raise ServiceError(_("That menu is not one of mine."))
        if kind == "s":
            if len(values) != 1:
                raise ServiceError(_("Choose one option."))
            token = values[0]
        else:
            token = f"d{sum(1 << int(v) for v in set(values)):x}"
        return await self.press(user, ":".join(parts[:3]) + ":" + picker.extend(parts[3], token), chat=chat)

    # ------------------------------------------------------------------ looking
    @answers_errors
    async def show_private(self, user: UserRef, game_id: int | None = None, chat: ChatRef | None = None) -> list[Message]:
        """The person's own view with their picker (/hand, the My hand button): always posted anew, so the
        person sees it answered."""
        async with self._uow(readonly=True) as uow:
            live = await self._active(uow, chat, user, game_id, "hand", fresh=True)
            seat_row = live.seat_of(user)
            message = views.private_message(live, seat_row, live.state, live.version, [], self.pictures)
            message.fresh = True
            return [message]

    @answers_errors
    async def show_board(self, chat: ChatRef, game_id: int | None = None, user: UserRef | None = None) -> list[Message]:
        async with self._uow(readonly=True) as uow:
            row = await self.find_game(uow, chat, user, game_id, "board")
            await self.permitted(uow, "board", row, user, chat)
            if row.status == lifecycle.LOBBY:
                return [await self.lobby_message(uow, row)]
            if row.status == lifecycle.ACTIVE:
                live = await self.fresh_live(uow, row.id)
                return [views.board_message(live, live.state, self.pictures, fresh=True)]
            chat_row = await uow.chats.get(row.chat_id)
            recent = await uow.games.last_moves(row.id, LOG_KEPT)
            live = load_live(row, chat_row, self.chat_ref(chat_row), 0, recent, set())
            return [views.board_message(live, live.state, self.pictures, fresh=True)]

    @answers_errors
    async def choices(self, user: UserRef, game_id: int | None = None) -> list[tuple[str, str]]:
        """(label, notation) of every legal action of ``user`` now — the console's numbered menu; actions that read
        the same (Guyenne's answer ``5 4`` with either 5) are offered once."""
        async with self._uow(readonly=True) as uow:
            live = await self._active(uow, None, user, game_id, "hand", fresh=True)
            seat_row = live.seat_of(user)
            game = live.game
            menu: dict[str, str] = {}
            for action in live.state.legal_actions(seat_row.seat):
                menu.setdefault(game.describe_action(action), game.format_action(action))
            return list(menu.items())

    # ------------------------------------------------------------------ leaving a running game
    @answers_errors
    async def resign(self, chat: ChatRef | None, user: UserRef, game_id: int | None = None,
                     confirmed: bool = True) -> list[Message]:
        """Leave a running game; an AI plays the seat. ``confirmed=False`` (``/resign`` typed without ``yes``)
        only asks, with a Yes button (``r:<game>:<version>:<person>``) and a Cancel button (``rc:<game>:<person>``)."""
        if not confirmed:
            async with self._uow(readonly=True) as uow:
                live = await self._active(uow, chat, user, game_id, "resign", fresh=True)
                return [_resign_question(live, user, chat)]
        return await self._resign(chat, user, game_id)

    async def _press_resign(self, user: UserRef, chat: ChatRef | None, kind: str, game_id: int,
                            parts: list[str]) -> list[Message]:
        """The confirmation's buttons: only the person asked may press them; a question the game has moved on
        from is asked again rather than acted on."""
        owner = parts[-1]
        if owner != user.id:
            raise ServiceError(_("That button belongs to someone else's question; type /resign to leave your own "
                                 "game."))
        if kind == "rc":
            return [_resign_answer(game_id, user, chat, _("You play on in game #{id}; nothing changed.", id=game_id))]
        version = parts[1]
        async with self._uow(readonly=True) as uow:
            live = await self._active(uow, None, user, game_id, "resign", fresh=True)
            if version != str(live.version):
                question = _resign_question(live, user, chat)
                question.text = _("The game has moved on since I asked.") + " " + question.text
                return [question]
        out = await self._resign(chat, user, game_id)
        return [_resign_answer(game_id, user, chat, _("You resigned from game #{id}; an AI plays your seat.",
                                                      id=game_id))] + out

    async def _resign(self, chat: ChatRef | None, user: UserRef, game_id: int | None) -> list[Message]:
        async with self._uow(readonly=True) as uow:
            game_id = (await self._active(uow, chat, user, game_id, "resign")).id
        async with self.lock_for(game_id):
            async with self._uow() as uow:
                row = await uow.games.lock(game_id)
                await self.permitted(uow, "resign", row, user, chat)
                seat_row = self._seat_of(row, user)
                seat_row.resigned = True
                await uow.session.flush()
                self.forget(row.id)
                humans = [s for s in row.seats if s.player is not None and not s.resigned]
                if not humans:
                    await uow.games.save_state(row, row.state, status="aborted")
                    await uow.timers.clear(row.id)
                    chat_row = await uow.chats.get(row.chat_id)
                    chat_ref = self.chat_ref(chat_row)
                    with i18n.using(languages.chat_language(chat_row.settings)):
                        text = _("{name} resigned; no human is left, so game #{id} ends unrated.", name=user.name,
                                 id=row.id)
                        ended = _("Game #{id} has ended.", id=row.id)
                    out = [Message(text, chat=chat_ref, game_id=row.id, kind="result")]
                    out += self._closed_hands(row, ended)
                    await uow.outbox.add(self.outbox_rows(out))
                    await uow.commit()
                    return out
                live = await self._live(uow, row.id)
                work = live.state.clone()
                with i18n.using(languages.of_live_chat(live)):
                    text = _("🏳 {name} resigned from game #{id}; an AI plays their seat.", name=user.name, id=row.id)
                note = Message(text, chat=live.chat, game_id=row.id, kind="notice")
                closed = self._closed_hands(row, _("You resigned from game #{id}; an AI plays your seat.",
                                                   id=row.id), only=user)
                return await self._commit(uow, live, work, self._ai_moves(live, work), notes=[note] + closed)

    def _closed_hands(self, row, text: str, only: UserRef | None = None) -> list[Message]:
        """The last word in each person's private slot of a game they no longer play: no buttons left."""
        out = []
        for seat in row.seats:
            user = self.user_ref(seat)
            if user is not None and (only is None or (user.platform, user.id) == (only.platform, only.id)):
                out.append(Message(text, user=user, slot=f"hand:{row.id}", game_id=row.id, kind="hand"))
        return out


def _refuse_secret(live: LiveGame, user: UserRef, move: str) -> None:
    """A secret move (the engine's ``State.is_secret``: a trio, cards placed face down) typed where the table reads
    it is refused, and nothing of it is shown: it belongs in the person's private chat."""
    seat_row = live.seat_of(user)
    if seat_row is None or seat_row.seat not in live.state.to_act():
        return  # the usual refusal says why
    try:
        action = live.game.parse_action(live.state, seat_row.seat, move)
    except IllegalAction:
        return  # the usual refusal explains the notation
    if live.state.is_secret(seat_row.seat, action):
        raise ServiceError(_("That move is secret: make it privately, in my private chat (type it there, or use "
                             "the buttons of /hand), so the table does not read it. Nothing was played."))


def _resign_question(live: LiveGame, user: UserRef, chat: ChatRef | None) -> Message:
    """Are you sure? — answered by buttons that only the asker may press (``/resign yes`` skips the question)."""
    text = _("Resign from game #{id} ({game})? An AI takes over your seat and the game counts as lost for you. "
             "(/resign yes skips this question.)", id=live.id, game=live.game.title)
    buttons = [[Button(_("🏳 Yes, resign"), f"r:{live.id}:{live.version}:{user.id}", "danger"),
                Button(_("Cancel"), f"rc:{live.id}:{user.id}")]]
    return Message(text, chat=chat, user=user, buttons=buttons, game_id=live.id, kind="confirm",
                   slot=_resign_slot(live.id, user))


def _resign_slot(game_id: int, user: UserRef) -> str:
    """The question's slot: its answer replaces it (Telegram edits the message, Discord the ephemeral one
    clicked), so no buttons stay behind once it is answered."""
    return f"resign:{game_id}:{user.id}"


def _resign_answer(game_id: int, user: UserRef, chat: ChatRef | None, text: str) -> Message:
    """What a resign question becomes once answered: its verdict, without buttons."""
    return Message(text, chat=chat, user=user, game_id=game_id, kind="confirm", slot=_resign_slot(game_id, user))
