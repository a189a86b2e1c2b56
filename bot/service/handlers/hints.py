"""``/hint``: a person asks the strong AI, privately, what it would play and why — and the game is then unrated.

The hint is searched in the AI pool from the person's own view (``rules.ai.advise`` samples only worlds their
seat may know), with the chat's ``ai_time``, holding no lock or transaction meanwhile. It is given only after
the game is marked ``hinted`` in the database (so the transaction that ends the game sees it and rates nothing);
the table is told once, without the hint, that the game is unrated. The seat's next move is stored as made after
a hint (``games.hints``, ``moves.hinted``: the record's flag). A chat setting (``hints=off``) refuses hints.
"""
from __future__ import annotations

import logging

from bot import i18n
from bot.i18n import _
from bot.service import ai_seats, commands as c, languages, telling
from bot.service.context import Context
from bot.service.errors import ServiceError
from bot.service.finding import active
from bot.service.messages import Message
from bot.service.outbox import outbox_rows

log = logging.getLogger(__name__)


def percent(rate: float) -> str:
    return f"{round(100 * rate)}%"


def hint_line(game, game_id: int, advice: dict) -> str:
    """One line: the move (as the picker names it and as typed), the win estimate, the runner-up."""
    action = advice["action"]
    line = _("💡 Game #{id}: I would play {move} (/move {notation})", id=game_id, move=game.describe_action(action),
             notation=game.format_action(action))
    if advice.get("runner_up") is None:
        return line + _(" — it is your only sensible move.")
    return line + _(": about {rate} to win; next best {move} ({other}).", rate=percent(advice["win_rate"]),
                    move=game.describe_action(advice["runner_up"]), other=percent(advice["runner_up_win_rate"]))


async def hint(ctx: Context, command: c.Hint) -> list[Message]:
    user = command.user
    async with ctx.uow(readonly=True) as uow:
        live = await active(ctx, uow, command.chat, user, command.game_id, "hint", fresh=True)
    if live.settings.get("hints", "on") != "on":
        raise ServiceError(_("Hints are turned off in this chat (an admin can turn them on: /settings hints=on)."))
    seat = live.seat_of(user).seat
    state = live.state
    if seat not in state.to_act():
        raise ServiceError(_("It is not your turn — waiting for {names}. Ask for a hint when it is.",
                             names=telling.waiting(live, state)))
    asked = live.moves  # the log's length when asked: the seat's next move is made after a hint
    seed = (live.seed ^ (live.moves * 1_000_003 + 7919 * (seat + 1))) & (2 ** 62 - 1)
    try:
        advice = await ctx.thinking.pool.hint(live.game.name, state.to_json(), seat, seed, ai_seats.ai_time(live),
                                              ctx.ai_iterations)
    except Exception:
        log.exception("a hint failed in game %s", live.id)
        raise ServiceError(_("I could not think of a hint just now; please try again.")) from None
    async with ctx.uow() as uow:
        first = await uow.games.mark_hinted(live.id)
        if first is None:
            raise ServiceError(_("Game #{id} is over.", id=live.id))
        await uow.games.note_hint(live.id, seat, asked)
        out = [Message(hint_line(live.game, live.id, advice), user=user, game_id=live.id, kind="hint")]
        if first:
            with i18n.using(languages.of_live_chat(live)):
                text = _("Game #{id} is unrated: a hint was used.", id=live.id)
            notice = Message(text, chat=live.chat, game_id=live.id, kind="notice")
            await uow.outbox.add(outbox_rows(ctx, [notice]))
            out.append(notice)
        await uow.commit()
    _note_in_memory(ctx, live.id, seat, asked)
    return out


def _note_in_memory(ctx: Context, game_id: int, seat: int, asked: int) -> None:
    """The game in memory learns the hint too (a copy loaded later reads it from ``games.hints``) — unless the
    seat moved while the hint was thought out: that move was not made after it."""
    live = ctx.games.loaded(game_id)
    if live is not None and not any(mover == seat and seq >= asked for seq, mover, _events in live.log):
        live.hinted_seats.add(seat)
