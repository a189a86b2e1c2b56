"""Moves: typed in the game's notation, or picked step by step with the picker's buttons.

A move is judged against the game in memory; a refusal is given only after checking that this copy is the
stored version (another process may have moved). A move another process's commit overtook is judged again
against the stored game. The move's snapshot, log rows, timers and messages are written in one transaction
before any message is returned (``recording.record``).
"""
from __future__ import annotations

from rules.api import IllegalAction
from storage import StaleVersion
from bot.i18n import _
from bot.service import ai_seats, commands as c, picker, telling
from bot.service.context import Context
from bot.service.errors import SecretRefused, ServiceError
from bot.service.finding import active, game_for_private_move, split_number
from bot.service.live import LiveGame, LiveSeat
from bot.service.messages import OWN_TABLES, Message, UserRef
from bot.service.recording import record

# How often a move another process's commit overtook is judged again before the person is asked to retry: in a
# simultaneous phase every seat may move at once from another process, and three tries lost all three to
# four processes (seen once in the multi-process test on PostgreSQL); each try reads the game anew.
JUDGED_AGAIN = 8


async def make_move(ctx: Context, command: c.MakeMove) -> list[Message]:
    """Apply a typed notation (str) or an action dict for the asker's seat."""
    chat, user, move, game_id = command.chat, command.user, command.move, command.game_id
    if isinstance(move, str):
        move = move.strip().removeprefix("/move").strip()
        if not move:
            raise ServiceError(_("Which move? Type it after /move, e.g. /move R10 — /hand shows your choices."))
    for attempt in range(1, JUDGED_AGAIN + 1):
        try:
            async with ctx.uow(readonly=True) as uow:  # the write goes through the group commit
                if isinstance(move, str):
                    move, game_id = await split_number(uow, user, move, game_id)
                if game_id is None and chat is None:
                    game_id = await game_for_private_move(ctx, uow, user)
                live = await active(ctx, uow, chat, user, game_id, "move")
                if isinstance(move, str) and chat is not None and chat.platform not in OWN_TABLES:
                    _refuse_secret(live, user, move)
            return await play(ctx, live.id, user, move, command.version)
        except StaleVersion:  # another process moved first: re-read the game and judge the move again
            if attempt == JUDGED_AGAIN:
                raise


async def press_picker(ctx: Context, command: c.PressPicker) -> list[Message]:
    """A step of the move picker: the next choice, or — when the path names one action — the move itself."""
    user, game_id, version, path = command.user, command.game_id, command.version, command.path
    async with ctx.uow(readonly=True) as uow:
        live = await ctx.games.get(uow, game_id)
        if live is None or version != live.version or live.seat_of(user) is None or \
                live.seat_of(user).seat not in live.state.to_act():
            live = await ctx.games.fresh(uow, game_id)  # about to refuse: judge by the stored game
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
            return _stale(ctx, live, seat_row, version)
        state = live.state
        if seat_row.seat not in state.to_act():
            raise ServiceError(_("It is not your turn — waiting for {names}.", names=telling.waiting(live, state)))
        level = picker.resolve(live.game, state.legal_actions(seat_row.seat), path,
                               whole=live.chat is None or live.chat.platform not in OWN_TABLES)
        if level.action is None:
            return [telling.private_message(live, seat_row, state, live.version, ctx.pictures, path=path)]
    return await play(ctx, game_id, user, level.action, version)


async def play(ctx: Context, game_id: int, user: UserRef, move, version: int | None) -> list[Message]:
    """Judge the move under the game's lock and record it; a refusal is judged once more against the stored
    version (the copy in memory may be older than the database) before it is given."""
    async with ctx.games.lock_for(game_id):
        async with ctx.uow(readonly=True) as uow:
            fresh = game_id in ctx.games.shared
            live = await (ctx.games.fresh(uow, game_id) if fresh else ctx.games.get(uow, game_id))
            if live is None:
                raise ServiceError(_("Game #{id} is over.", id=game_id))
            if not fresh:
                try:
                    return await _judge_and_record(ctx, uow, live, user, move, version)
                except (ServiceError, IllegalAction):
                    live = await ctx.games.fresh(uow, game_id)  # about to refuse: judge by the stored game
                    if live is None:
                        raise ServiceError(_("Game #{id} is over.", id=game_id)) from None
            return await _judge_and_record(ctx, uow, live, user, move, version)


async def _judge_and_record(ctx: Context, uow, live: LiveGame, user: UserRef, move,
                            version: int | None) -> list[Message]:
    seat_row = live.seat_of(user)
    if seat_row is None:
        raise ServiceError(_("You are not playing in game #{id}.", id=live.id))
    if version is not None and version != live.version:
        return _stale(ctx, live, seat_row, version)
    state = live.state
    seat = seat_row.seat
    if seat not in state.to_act():
        raise ServiceError(_("It is not your turn — waiting for {names}.", names=telling.waiting(live, state)))
    action = live.game.parse_action(state, seat, move) if isinstance(move, str) else move
    work = state.clone()
    batch = [(seat, action, work.apply(seat, action), "player")]
    # the Undo button: a move that told nobody anything, with nobody moving after it at once
    undoable = live.settings.get("undo", "free") == "free" and work.undo_refusal(seat, batch[0][2], state) is None
    batch += ai_seats.inline_moves(live, work)
    if uow.in_transaction():  # a read loaded the game: give the connection back before the write waits
        await uow.rollback()
    return await record(ctx, live, work, batch, actor=seat, undoable=undoable and len(batch) == 1)


def _stale(ctx: Context, live: LiveGame, seat_row: LiveSeat | None, version: int) -> list[Message]:
    out = [Message(_("This board is out of date — here is the current one."),
                   user=seat_row.user if seat_row else None, kind="error", game_id=live.id)]
    if seat_row is not None:
        out.append(telling.private_message(live, seat_row, live.state, live.version, ctx.pictures))
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
        raise SecretRefused(_("That move is secret: make it privately, in my private chat (type it there, or use "
                              "the buttons of /hand), so the table does not read it. Nothing was played."))
