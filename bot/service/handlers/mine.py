"""``/mygames``: every game a person sits in on their platform, across servers and groups — theirs to act first.

Links to a game's board are made by the adapter that registered a link maker for its platform
(``ctx.link_makers``): the service knows the stored message (and the game's own place, a thread or topic), not
how a platform addresses it.
"""
from __future__ import annotations

from datetime import datetime

import rules
from bot.i18n import _, ngettext
from bot.service import clocks, commands as c, lifecycle, places, telling
from bot.service.context import Context, aware
from bot.service.messages import Button, Message
from bot.service.rows import seat_of

MOST_SHOWN = 20  # lines in one answer; more are counted, not listed
MOST_LINKS = 10  # link buttons under the answer (Discord takes 25 components; a phone shows ten well)


def ago(then: datetime, now: datetime) -> str:
    """How long ago, in the reader's language, to the unit that matters."""
    seconds = max(0, int((now - aware(then)).total_seconds()))
    if seconds < 60:
        return _("just now")
    if seconds < 3600:
        return ngettext("{n} minute ago", "{n} minutes ago", seconds // 60)
    if seconds < 86400:
        return ngettext("{n} hour ago", "{n} hours ago", seconds // 3600)
    return ngettext("{n} day ago", "{n} days ago", seconds // 86400)


async def show_my_games(ctx: Context, command: c.ShowMyGames) -> list[Message]:
    user, chat = command.user, command.chat
    now = ctx.clock()
    entries = []  # (mine to act, newest first key, line, link)
    async with ctx.uow(readonly=True) as uow:
        player = await uow.players.find(user.platform, user.id)
        rows = await uow.games.of_player(player.id, (lifecycle.LOBBY, lifecycle.ACTIVE)) if player else []
        periods = clocks.periods_of(player.notify) if player else []  # the asker's away periods stop their banks
        for row in rows:
            seat = seat_of(row, user)
            if seat is None:  # resigned from it
                continue
            game = rules.get_game(row.game)
            chat_row = await uow.chats.get(row.chat_id)
            where = (chat_row.title if chat_row else None) or _("a private table")
            mine, times = False, []  # times: [said, epoch] of a running bank (``Message.times``)
            if row.status == lifecycle.LOBBY:
                line = _("#{id} {game} in {where} — lobby, {seated}/{most} seated", id=row.id, game=game.title,
                         where=where, seated=len(row.seats), most=game.max_players)
            else:
                live = await ctx.games.fresh(uow, row.id)
                mine = seat.seat in live.state.to_act()
                state = _("your turn") if mine else _("to act: {names}", names=telling.waiting(live, live.state))
                line = _("#{id} {game} in {where} — {state} · last move {ago}", id=row.id, game=game.title,
                         where=where, state=state, ago=ago(row.updated_at, now))
                if live.clocks and "left" in live.clocks:  # a time bank: the asker's, as it stands now
                    said = clocks.spoken(clocks.remaining(live.clocks, seat.seat, now, periods))
                    if seat.seat in live.clocks.get("charged", []):  # running: Discord counts it down by itself
                        said += " ⏳"
                        times.append([said, int(clocks.runs_out(live.clocks, seat.seat, periods).timestamp())])
                    line += " · " + _("your time bank: {left}", left=said)
            link = await _link(ctx, uow, user.platform, row, chat_row)
            entries.append((not mine, -aware(row.updated_at).timestamp(), ("▶ " if mine else "• ") + line,
                            (row.id, game.title, link), times))
    if not entries:
        text = _("You sit in no running game. Open one with /new <game> in a group or channel, or join a table "
                 "there with /join.")
        return [Message(text, chat=chat, user=user)]
    entries.sort(key=lambda e: e[:2])
    waiting_on_me = sum(1 for e in entries if not e[0])
    waiting = ngettext("{n} waits for you", "{n} wait for you", waiting_on_me) if waiting_on_me else \
        _("none waits for you")
    head = ngettext("Your game ({n}) — {waiting}:", "Your games ({n}) — {waiting}:", len(entries), waiting=waiting)
    lines = [head] + [e[2] for e in entries[:MOST_SHOWN]]
    if len(entries) > MOST_SHOWN:
        lines.append(_("… and {n} more.", n=len(entries) - MOST_SHOWN))
    links = [(gid, title, url) for _mine, _when, _line, (gid, title, url), _t in entries if url][:MOST_LINKS]
    buttons = [[Button(f"#{gid} {title}", "", url=url)] for gid, title, url in links]
    times = [said_at for entry in entries[:MOST_SHOWN] for said_at in entry[4]]  # in the order of the lines
    return [Message("\n".join(lines), chat=chat, user=user, buttons=buttons, times=times)]


async def _link(ctx: Context, uow, platform: str, row, chat_row) -> str | None:
    """A link to the game's board (its lobby before the start), where the platform's adapter can make one."""
    maker = ctx.link_makers.get(platform)
    if maker is None or chat_row is None:
        return None
    kind = "lobby" if row.status == lifecycle.LOBBY else "board"
    slot = await uow.slots.get(platform, f"{kind}:{row.id}")
    if slot is None or not slot.chat_external_id or slot.message_id in ("", "-"):
        return None
    place = await places.place_of(uow, platform, row.id) if kind == "board" else None
    if place:  # the board in the game's own thread or topic: the link opens it there
        return maker(chat_row.league.partition(":")[2], slot.chat_external_id, slot.message_id, place)
    return maker(chat_row.league.partition(":")[2], slot.chat_external_id, slot.message_id)
