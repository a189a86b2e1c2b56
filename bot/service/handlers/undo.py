"""Taking moves back: ``/undo``, the Undo button under the mover's own hand, and takebacks by consent (issue 42).

Free: the asker's last move goes when nobody has acted since and the engine says it told nobody anything new
(``State.undo_refusal``: nothing left to chance, nothing hidden shown); a turn of several steps goes back one step
per undo. Otherwise, where the chat allows it (``/settings undo=free|consent|off``) and the game is not rated, the
other people are asked with Accept / Decline buttons, and the moves go only when all of them accept within
``TAKEBACK_SECONDS``; AI seats accept, since a request is never made across a move that told anything (the answer
then says why). Taking back is the game played again from its seed without those moves (``rules.undo.rebuild``),
written version-checked like any move: it races the next move and only one wins. The moves stay in the log,
marked taken back; board, hands and turn line are sent again, and the chat is told once.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import NamedTuple

from rules.api import State
from rules.undo import rebuild
from storage import StaleVersion
from bot import i18n
from bot.i18n import _
from bot.service import buttons as codes, commands as c, languages
from bot.service.context import Context
from bot.service.errors import ServiceError
from bot.service.finding import active
from bot.service.live import LiveGame
from bot.service.messages import Button, Message, UserRef
from bot.service.outbox import outbox_rows
from bot.service.recording import record

TAKEBACK_SECONDS = 600  # how long the others have to accept a takeback
BUTTON_SECONDS = 300  # how long the Undo button under the mover's hand works (/undo has no limit)


class Logged(NamedTuple):
    """A move of the log as read (the rows themselves expire with their transaction)."""

    seq: int
    seat: int
    action: dict
    by: str
    created_at: datetime
    hinted: bool = False  # made after a hint: taken back, the hint waits for the seat's next move again


@dataclass
class Plan:
    """What an undo would do: the moves that go (stored rows, the asker's first), the state before them, and the
    people who must agree (empty: it is free)."""

    rows: list
    before: State
    asked: list[int]
    since: int  # moves made since the asker's


async def undo(ctx: Context, command: c.TakeBack) -> list[Message]:
    """``/undo`` or the Undo button (``command.version``: the game version the button was drawn for)."""
    async with ctx.uow(readonly=True) as uow:
        game_id = (await active(ctx, uow, command.chat, command.user, command.game_id, "move")).id
    try:
        return await _undo(ctx, command, game_id)
    except StaleVersion:  # the next move was written first: judged again, the answer says why it is too late
        return await _undo(ctx, command, game_id)


async def _undo(ctx: Context, command: c.TakeBack, game_id: int) -> list[Message]:
    async with ctx.games.lock_for(game_id):
        async with ctx.uow(readonly=True) as uow:
            live = await ctx.games.fresh(uow, game_id)  # judged against the stored version: it may refuse
            if live is None:
                raise ServiceError(_("Game #{id} is over.", id=game_id))
            seat_row = live.seat_of(command.user)
            if seat_row is None:
                raise ServiceError(_("You are not playing in game #{id}.", id=game_id))
            if command.version is not None and command.version != live.version:
                raise ServiceError(_("This board is out of date — the game has moved on since; nothing was "
                                     "taken back."))
            mode = live.settings.get("undo", "free")
            if mode == "off":
                raise ServiceError(_("Taking moves back is switched off in this chat (an admin can change it: "
                                     "/settings undo=free)."))
            row = await uow.games.get(game_id)
            plan = _plan(live, row, await uow.games.moves(game_id), seat_row.seat, consent=mode == "consent")
            if command.version is not None and _older_than(plan.rows[0].created_at, ctx.now(), BUTTON_SECONDS):
                raise ServiceError(_("That Undo button has expired; type /undo to take the move back."))
            if (plan.asked or plan.since) and row.rated:
                raise ServiceError(_("Others have moved since (or the chat asks everyone first), and in a rated "
                                     "game moves are taken back only while nobody has: the move stands."))
            if plan.asked:
                if uow.in_transaction():
                    await uow.rollback()
                return await _ask(ctx, live, command.user, seat_row.seat, plan)
            if uow.in_transaction():  # the write goes through the group commit
                await uow.rollback()
        return await _take_back(ctx, live, seat_row.seat, plan, seat_row.name, by_consent=False)


def _plan(live: LiveGame, row, logged: list, seat: int, consent: bool) -> Plan:
    """The moves an undo by ``seat`` takes back — its own last one and any made since — refused with the
    engine's reason if one of them told anything; the others to ask when any acted since (or ``consent``)."""
    moves = [Logged(m.seq, m.seat, m.action, m.by, m.created_at, m.hinted) for m in logged if not m.taken_back]
    mine = [k for k, m in enumerate(moves) if m.seat == seat and m.by == "player"]
    if not mine:
        raise ServiceError(_("You have no move to take back in game #{id}.", id=live.id))
    first = mine[-1]
    before = rebuild(live.game, len(live.seats), live.seed, row.options, ((m.seat, m.action) for m in moves[:first]))
    state = before.clone()
    for move in moves[first:]:
        prior = state.clone()
        reason = state.undo_refusal(move.seat, state.apply(move.seat, move.action), prior)
        if reason:
            if move is moves[first]:
                raise ServiceError(reason)
            raise ServiceError(_("A move made since yours cannot be taken back: {reason}", reason=reason))
    if state.to_json() != live.state.to_json():  # the log does not rebuild the stored game: never guess
        raise ServiceError(_("Game #{id} cannot be rebuilt from its moves, so nothing can be taken back.",
                             id=live.id))
    since = len(moves) - first - 1
    # the people at the table are asked when anyone moved since (AI seats accept what told nothing)
    asked = [s.seat for s in live.humans() if s.seat != seat] if (since or consent) else []
    return Plan(moves[first:], before, asked, since)


async def _take_back(ctx: Context, live: LiveGame, seat: int, plan: Plan, name: str, by_consent: bool,
                     uow=None, notes: list[Message] | None = None) -> list[Message]:
    """Write the state before ``plan.rows`` (version-checked), mark them taken back, tell everybody once."""
    gone = {m.seq for m in plan.rows}
    live.hinted_seats |= {m.seat for m in plan.rows if m.hinted}
    kept = [entry for entry in live.log if entry[0] not in gone]
    live.log.clear()
    live.recent.clear()
    for seq, mover, events in kept:  # the board's last lines and what each person is told forget the moves
        live.remember(seq, mover, events)
    with i18n.using(languages.of_live_chat(live)):
        if by_consent:
            text = _("↩ By everyone's consent, {name} took back their move in game #{id}, and the moves made since.",
                     name=name, id=live.id)
        elif len(plan.rows) > 1:  # only AI seats moved since: they accept what told nothing
            text = _("↩ {name} took back their last move in game #{id}, and the AI moves made since.", name=name,
                     id=live.id)
        else:
            text = _("↩ {name} took back their last move in game #{id}.", name=name, id=live.id)
    note = Message(text, chat=live.chat, game_id=live.id, kind="notice", slot=_slot(live.id))
    return await record(ctx, live, plan.before.clone(), [], actor=seat, uow=uow, notes=(notes or []) + [note],
                        taken_back=sorted(gone))


async def _ask(ctx: Context, live: LiveGame, user: UserRef, seat: int, plan: Plan) -> list[Message]:
    """Ask the others: a takeback request stored with the version it is for, and the question in the chat."""
    now = ctx.now()
    async with ctx.uow() as uow:
        request = await uow.takebacks.ask(live.id, seat, live.version, plan.rows[0].seq, plan.asked, now,
                                          now + timedelta(seconds=TAKEBACK_SECONDS))
        question = _question(live, user.name, request.id, plan.asked, plan.since)
        reply = Message(_("I asked the others whether you may take your move back in game #{id}.", id=live.id),
                        chat=live.chat, user=user, kind="notice", game_id=live.id)
        await uow.outbox.add(outbox_rows(ctx, [question]))
        await uow.commit()
    return [question, reply]


def _question(live: LiveGame, name: str, request_id: int, waiting: list[int], since: int,
              accepted: list[int] = ()) -> Message:
    with i18n.using(languages.of_live_chat(live)):
        text = _("↩ {name} asks to take back their last move in game #{id} ({since} moves made since). {names}: "
                 "do you agree? All must accept within {minutes} minutes.", name=name, id=live.id, since=since,
                 names=", ".join(live.names[s] for s in waiting), minutes=TAKEBACK_SECONDS // 60)
        if accepted:
            text += "\n" + _("Accepted: {names}.", names=", ".join(live.names[s] for s in accepted))
        rows = [[Button(_("✅ Accept"), codes.takeback_answer(live.id, request_id, True), "success"),
                 Button(_("✖ Decline"), codes.takeback_answer(live.id, request_id, False), "danger")]]
    return Message(text, chat=live.chat, buttons=rows, game_id=live.id, kind="confirm", slot=_slot(live.id))


async def answer(ctx: Context, command: c.AnswerTakeback) -> list[Message]:
    """Accept or Decline on a takeback request: the last acceptance takes the moves back (if the game has not
    moved on and the time is not up); a Decline ends the request."""
    game_id = command.game_id
    async with ctx.games.lock_for(game_id):
        async with ctx.uow() as uow:
            live = await ctx.games.fresh(uow, game_id)
            request = await uow.takebacks.get(command.request_id)
            if live is None or request is None or request.game_id != game_id:
                raise ServiceError(_("That request is no longer open."))
            seat_row = live.seat_of(command.user)
            if seat_row is None or seat_row.seat not in request.waiting:
                raise ServiceError(_("That question is not yours to answer (or you answered it already)."))
            if request.status != "open":
                raise ServiceError(_("That request is no longer open."))
            lang = languages.of_live_chat(live)
            if _older_than(request.due_at, ctx.now(), 0):
                await uow.takebacks.close(request, "expired")
                with i18n.using(lang):
                    text = _("⌛ The request to take back a move in game #{id} expired; the move stands.", id=game_id)
                return await _closing(ctx, uow, live, text)
            if request.version != live.version:
                await uow.takebacks.close(request, "stale")
                with i18n.using(lang):
                    text = _("The game has moved on since the request to take back a move in game #{id}: it is out "
                             "of date, and the move stands.", id=game_id)
                return await _closing(ctx, uow, live, text)
            asker = live.seats[request.seat]
            if not command.accept:
                await uow.takebacks.answer(request, seat_row.seat, False)
                with i18n.using(lang):
                    text = _("✖ {name} declined: {asker}'s move in game #{id} stands.", name=seat_row.name,
                             asker=asker.name, id=game_id)
                return await _closing(ctx, uow, live, text)
            await uow.takebacks.answer(request, seat_row.seat, True)
            if request.waiting:
                done = [s for s in _asked_of(live, request.seat) if s not in request.waiting]
                logged = await uow.games.moves(game_id)
                since = len([m for m in logged if m.seq > request.first_seq and not m.taken_back])
                question = _question(live, asker.name, request.id, request.waiting, since, done)
                await uow.outbox.add(outbox_rows(ctx, [question]))
                await uow.commit()
                return [question]
            await uow.takebacks.close(request, "accepted")
            row = await uow.games.get(game_id)
            plan = _plan(live, row, await uow.games.moves(game_id), request.seat, consent=True)
            if plan.rows[0].seq != request.first_seq:
                raise ServiceError(_("That request is no longer open."))
            return await _take_back(ctx, live, request.seat, plan, asker.name, by_consent=True, uow=uow)


async def _closing(ctx: Context, uow, live: LiveGame, text: str) -> list[Message]:
    """The request's question replaced by its end (no buttons left), stored with it."""
    out = [Message(text, chat=live.chat, game_id=live.id, kind="notice", slot=_slot(live.id))]
    await uow.outbox.add(outbox_rows(ctx, out))
    await uow.commit()
    return out


def _asked_of(live: LiveGame, seat: int) -> list[int]:
    return [s.seat for s in live.humans() if s.seat != seat]


def _slot(game_id: int) -> str:
    """The request's message: its answers replace it, so no buttons stay behind."""
    return f"takeback:{game_id}"


def _older_than(moment: datetime, now: datetime, seconds: float) -> bool:
    """``moment`` lies more than ``seconds`` before ``now`` (SQLite gives naive UTC times back)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    if now.tzinfo is None:
        now = now.replace(tzinfo=timezone.utc)
    return now - moment > timedelta(seconds=seconds)
