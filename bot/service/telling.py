"""Telling: what a change of a game makes the bot say, as messages — most of them recipes that the delivery
step renders just before sending (``rendering``).

One place turns a move's events into messages (``change_messages``): the public board (from ``view(None)``
only), each person's own view where it changed or where they learnt something privately (from ``view(seat)``
only; sent anew, with a ping, to whoever's turn has just come), and the group's turn line where it must ping.
The lobby, the result and the last word in a hand are told here too. Pure: no I/O.
"""
from __future__ import annotations

from collections import defaultdict

import rules
from rules.api import State
from bot.i18n import _
from bot.render import boards
from bot.service import buttons as codes, languages, narration, rendering
from bot.service.ai_seats import thinking_seats
from bot.service.clocks import board_clocks, describe as describe_clock, periods_of, runs_out, spoken
from bot.service.languages import in_chat_language
from bot.service.leagues import places_with_resigns
from bot.service.live import LiveGame, LiveSeat
from bot.service.messages import OWN_TABLES, Button, ChatRef, Message, UserRef
from bot.service.rows import user_ref


def waiting(live: LiveGame, state: State) -> str:
    return ", ".join(live.names[s] for s in state.to_act())


def lobby_message(row, chat: ChatRef, seat_names: list[tuple[str, bool]], note: str = "") -> Message:
    """The table before it starts. ``seat_names``: (name, must open a private chat first) per seat in join order."""
    game = rules.get_game(row.game)
    lines = [_("🏰 {game} — table #{id}", game=game.title, id=row.id)]
    if row.options and row.options != game.default_options():
        lines.append(_("Options: {options}", options=", ".join(f"{k}={v}" for k, v in row.options.items())))
    if row.clocks and row.clocks["inc"]:
        lines.append(_("Clock: each player has {bank}, plus {inc} after each move (clock={clock})",
                       bank=spoken(row.clocks["bank"]), inc=spoken(row.clocks["inc"]),
                       clock=describe_clock(row.clocks)))
    elif row.clocks:
        lines.append(_("Clock: each player has {bank} for the whole game (clock={clock})",
                       bank=spoken(row.clocks["bank"]), clock=describe_clock(row.clocks)))
    lines.append(_("Seats ({seated}/{most}, needs {least}):", seated=len(seat_names), most=game.max_players,
                   least=game.min_players))
    for i, (name, needs_dm) in enumerate(seat_names):
        warning = "  " + _("⚠ must open a private chat with me first") if needs_dm else ""
        lines.append(f"  {i + 1}. {name}{warning}")
    if note:
        lines += ["", note]
    lines.append(_("Join with the buttons or /join, add an AI with /addai, then /start."))
    gid = row.id
    rows = [[Button(_("Join"), codes.join(gid), "success"), Button(_("Leave"), codes.leave(gid)),
             Button(_("Add AI"), codes.add_ai(gid)), Button(_("Start"), codes.start(gid), "primary")]]
    return Message("\n".join(lines), chat=chat, buttons=rows, slot=f"lobby:{gid}", game_id=gid, kind="lobby")


def picture(live: LiveGame, view: dict, pictures: bool, lang: str) -> tuple | None:
    """What to draw for ``view`` when the chat wants pictures (drawn at delivery, its labels in ``lang``, the
    language of its message), else None."""
    if not pictures or live.settings.get("pictures", "on") != "on" or not boards.wants_picture(live.game.name, view):
        return None
    return live.game.name, view, list(live.names), lang


def board_message(live: LiveGame, state: State, pictures: bool, fresh: bool = False,
                  view: dict | None = None) -> Message:
    """The public board (from ``view(None)`` only), as a recipe. ``view``: ``state.view(None)`` when the caller
    built it already (a view is built once per move)."""
    view = state.view(None) if view is None else view
    over = state.is_over()
    if over:  # the picture draws the places the result tells (resigned seats last), not the engine's ranking
        view = dict(view, places=final_places(live, state))
    lang = languages.of_live_chat(live)
    recipe = {"render": "board", "lang": lang, "game": live.game.name, "id": live.id,
              "view": view, "names": list(live.names), "recent": [event.to_json() for event in live.recent],
              "over": over, "waiting": "" if over else waiting(live, state),
              "thinking": [live.names[s] for s in thinking_seats(live, state)],
              "clocks": [] if over else [[live.names[seat], left, running, _bank_end(live, seat) if running else None]
                                         for seat, left, running
                                         in board_clocks(live.clocks, [s.seat for s in live.humans()])]}
    return Message("", chat=live.chat, slot=f"board:{live.id}", game_id=live.id, kind="board", fresh=fresh,
                   picture=picture(live, view, pictures, lang), image_name=f"board-{live.id}.png", recipe=recipe)


def _bank_end(live: LiveGame, seat: int) -> int:
    """When the running bank of ``seat`` runs out (its person's away periods as known), as a Unix time."""
    return int(runs_out(live.clocks, seat, periods_of(live.seats[seat].notify)).timestamp())


def private_message(live: LiveGame, seat_row: LiveSeat, state: State, version: int, pictures: bool,
                    path: str = "", view: dict | None = None, told: dict | None = None) -> Message:
    """A person's own view (from ``view(seat)`` only) with the move picker when they are to act, as a recipe;
    the picker's buttons carry ``version``, the version of the game this view shows. The picker is derived from
    the state when rendered (kept in memory with the recipe, not stored: a hand delivered from the outbox by
    another process gets the picker of the game as stored then, see ``outbox.claim``). ``told``: events
    narrated under the view (``rendering.told_lines``)."""
    seat = seat_row.seat
    view = state.view(seat) if view is None else view  # ``view``: built by the caller already
    if state.is_over():  # as the board: who won is who the result says won (resigned seats last)
        view = dict(view, places=final_places(live, state))
    to_act = seat in state.to_act() and not state.is_over()
    lang = languages.of_live_seat(live, seat_row)
    recipe = {"render": "hand", "lang": lang, "game": live.game.name,
              "id": live.id, "view": view, "names": list(live.names), "seat": seat, "lines": [],
              "note": "", "version": version, "path": path, "to_act": to_act, "state": state,
              "told": told,
              # a chat platform: whole-move buttons (each picker step would be an answer and an edit)
              "whole": live.chat is None or live.chat.platform not in OWN_TABLES}
    message = Message("", user=seat_row.user, slot=f"hand:{live.id}", game_id=live.id, kind="hand",
                      picture=picture(live, view, pictures, lang), image_name=f"hand-{live.id}.png", recipe=recipe)
    if path:
        rendering.render(message)  # a picker path from a button: a path that does not fit is refused now
    return message


@in_chat_language
def turn_message(live: LiveGame, state: State, mention: frozenset | set = frozenset()) -> Message:
    """The group's one short line naming whose turn it is (posted anew, the previous one retired). It mentions —
    and so pings — only people whose private messages fail and the seats of ``mention`` (whose turn has just
    come and who want their ping here, ``/notify where=mention``): the others are pinged once, by their hand."""
    people = [live.seats[s] for s in state.to_act() if not live.seats[s].is_ai]
    text = _("🔔 #{id} {game}: your turn, {names}.", id=live.id, game=live.game.title,
             names=", ".join(p.name for p in people))
    return Message(text, chat=live.chat, slot=f"turn:{live.id}", game_id=live.id, kind="turn", ping=True,
                   mentions=[p.user for p in people if p.dm_ok is False or p.seat in mention])


def pinged_here(seat: LiveSeat) -> bool:
    """The person wants their turn ping as a mention in the game's channel, and private messages reach them (else
    they are mentioned anyway)."""
    return (seat.notify or {}).get("where") == "mention" and seat.dm_ok is not False


def turn_retired(chat: ChatRef, game_id: int) -> Message:
    """The group's turn line of a game that ended or was aborted goes: nobody's turn is left to name."""
    return Message("", chat=chat, slot=f"turn:{game_id}", game_id=game_id, kind="turn", retire=True)


def change_messages(live: LiveGame, state: State, version: int, batch: list[tuple], actor: int | None,
                    before: list[int], pictures: bool, started: bool = False,
                    undoable: bool = False) -> list[Message]:
    """What a batch of moves makes the bot say, one message per person at most — every one a platform call, so
    each has its reason:

    - the board (one edit in the group): the public news, whose turn it is ("To act"), for everyone;
    - a person's hand, where its reason holds: their turn has just come (posted anew: the one ping of the turn),
      they moved (the picker goes, or stays for their next step: edited in place, no ping — they are at the
      phone already), they hold a picker (its buttons carry the version), they learnt something privately, or
      what only they see changed (their cards); a change of the public table alone leaves the hand as it is —
      the board tells it, and their next turn brings a fresh hand;
    - the group's turn line only where it pings someone whose private messages fail (see ``turn_message``).

    Each view is built once: compared with the private part last shown (kept in ``live.shown_views``), stored
    as the message's recipe, drawn from. ``undoable``: the actor may take the move back freely, and their hand
    says so with an Undo button."""
    public = state.view(None)
    out = [board_message(live, state, pictures, fresh=started, view=public)]
    private_events: dict[int, list] = defaultdict(list)  # told in each reader's language, when rendered
    for _seat, _action, events, _by in batch:
        for event in events:
            if event.audience is not None:
                for s in event.audience:
                    private_events[s].append(event)
    to_act = [] if state.is_over() else state.to_act()
    turn_came = {s for s in to_act if s not in before}  # the mover who is still to act was not away: no ping
    mention = {s for s in turn_came if pinged_here(live.seats[s])}  # pinged in the channel, their hand quietly
    for s in live.humans():
        view = state.view(s.seat)  # built once: compared, rendered and drawn
        mine = private_part(view, public)
        untouched = to_act and s.seat not in to_act and s.seat not in before and s.seat != actor
        if untouched and mine == live.shown_views.get(s.seat) and not private_events.get(s.seat):
            continue  # nothing of theirs changed, no picker to add or take away: no call
        live.shown_views[s.seat] = mine
        if s.seat in turn_came or not to_act or (s.seat == actor and s.seat in to_act):
            # their turn, the end, or their next step: all they know since their last own move (what it set off)
            told = {"since": since_last_turn(live.log, s.seat), "ended": not to_act}
        else:  # what they learnt privately
            mine_told = private_events.get(s.seat)
            told = {"events": [event.to_json() for event in mine_told]} if mine_told else None
        message = private_message(live, s, state, version, pictures, view=view, told=told)
        message.ping = s.seat in turn_came and s.seat not in mention
        message.silent = s.seat in mention
        if undoable and s.seat == actor:
            message.recipe["undo"] = True
            message.lapsing = not message.recipe["to_act"]  # (a picker stays pressable)
        out.append(message)
    humans_to_act = [s for s in to_act if not live.seats[s].is_ai]
    if humans_to_act and (mention or set(humans_to_act) != {s for s in before if not live.seats[s].is_ai}):
        turn = turn_message(live, state, mention)
        if turn.mentions or live.chat.place is not None or (started and live.asked_home):
            # someone to act can only be reached here, or wants their ping here: the line pings them; or a game in
            # its own place (a thread): the chat's status line of the game says whose turn (edited in place)
            out.append(turn)
        elif live.turn_line:  # the last line names someone else: it goes (the board says whose turn it is)
            out.append(turn_retired(live.chat, live.id))
        live.turn_line = bool(turn.mentions)
    return out


def private_part(mine, public):
    """What of a seat's view the public view does not show (their cards, their secret choices): where the two
    differ, the seat's side. A change of the public table alone leaves it equal (the board tells that)."""
    if isinstance(mine, dict) and isinstance(public, dict):
        return {k: private_part(mine.get(k), public.get(k)) for k in mine.keys() | public.keys()
                if mine.get(k) != public.get(k)}
    if isinstance(mine, list) and isinstance(public, list) and len(mine) == len(public):
        return {i: private_part(a, b) for i, (a, b) in enumerate(zip(mine, public)) if a != b}
    return mine


def since_last_turn(log, seat: int) -> list[list]:
    """The moves of ``log`` (``(seq, seat, events)``, oldest first) after ``seat``'s move before its last one (all of
    them when it has none), as JSON: what ``narration.since_last_turn`` reads to tell the seat what it has not seen
    (and, of the moves before its last one, the cards of the trick its last card closed)."""
    moves = list(log)
    own = [k for k in range(len(moves)) if moves[k][1] == seat]
    start = own[-2] + 1 if len(own) > 1 else 0
    return [[seq, mover, [event.to_json() for event in events]] for seq, mover, events in moves[start:]]


def final_places(live: LiveGame, state: State) -> list[int]:
    """Each seat's place in the finished game: the engine's ranking, every resigned seat sharing last place
    (``leagues.places_with_resigns``) — told in the result, stored for /history and /stats, rated."""
    return places_with_resigns(state.ranking(), {s.seat for s in live.seats if s.resigned})


@in_chat_language
def result_message(live: LiveGame, state: State, link: str | None = None) -> Message:
    """The final result, sorted by place, in the chat's language: the places of ``final_places`` (those of
    /history and the ratings), so a seat that resigned is last whatever the AI that played it scored.
    ``link``: the game's web page, when the chat shows its games on the web."""
    resigned = sorted(s.seat for s in live.seats if s.resigned)
    lines = [_("🏆 Game #{id} is over.", id=live.id)]
    lines += narration.final_result_lines(live.game, state.scores(), final_places(live, state), live.names,
                                          resigned=resigned)
    if link:
        lines.append(_("🌐 The replay: {link}", link=link))
    return Message("\n".join(lines), chat=live.chat, game_id=live.id, kind="result")


def closed_hands(row, text: str, only: UserRef | None = None) -> list[Message]:
    """The last word in each person's private slot of a game they no longer play: no buttons left."""
    out = []
    for seat in row.seats:
        user = user_ref(seat)
        if user is not None and (only is None or (user.platform, user.id) == (only.platform, only.id)):
            out.append(Message(text, user=user, slot=f"hand:{row.id}", game_id=row.id, kind="hand"))
    return out
