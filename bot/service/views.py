"""The messages that show a game: the lobby, the public board, a person's own view with the move picker.

Pure: built from a ``LiveGame`` and a state, no I/O. Public text comes only from ``view(None)`` and public
events; a person's text only from ``view(seat)`` and the events whose audience holds that seat.
"""
from __future__ import annotations

import re

import rules
from rules.api import Event, Game, State
from rules.lang import reading
from bot import i18n
from bot.render import boards
from bot.service import languages, narration, picker
from bot.service.ai_seats import thinking_seats
from bot.i18n import N_, _, translate
from bot.service.languages import in_chat_language
from bot.service.live import LiveGame, LiveSeat
from bot.service.messages import Button, ChatRef, Menu, Message


_PLAYER = re.compile(r"\{P(\d+)\}")


def substitute(text: str, names: list[str]) -> str:
    """``{P1}`` … in an engine's text replaced by the seats' names (an unknown seat is left as it is)."""
    if "{P" not in text:  # most lines name nobody (a hot spot: every view of every move passes here)
        return text
    if not any("{P" in n for n in names):  # one str.replace a seat: a view names seats dozens of times
        for i, n in enumerate(names):
            text = text.replace(f"{{P{i + 1}}}", n)
        return text
    # a name that itself reads like a placeholder: one pass, so a substituted name is never substituted again

    def name(match: re.Match) -> str:
        i = int(match.group(1)) - 1
        return names[i] if 0 <= i < len(names) else match.group(0)

    return _PLAYER.sub(name, text)


def waiting(live: LiveGame, state: State) -> str:
    return ", ".join(live.names[s] for s in state.to_act())


def lobby_message(row, chat: ChatRef, seat_names: list[tuple[str, bool]], note: str = "") -> Message:
    """``seat_names``: (name, must open a private chat first) per seat in join order."""
    game = rules.get_game(row.game)
    lines = [_("🏰 {game} — table #{id}", game=game.title, id=row.id)]
    if row.options and row.options != game.default_options():
        lines.append(_("Options: {options}", options=", ".join(f"{k}={v}" for k, v in row.options.items())))
    lines.append(_("Seats ({seated}/{most}, needs {least}):", seated=len(seat_names), most=game.max_players,
                   least=game.min_players))
    for i, (name, needs_dm) in enumerate(seat_names):
        warning = "  " + _("⚠ must open a private chat with me first") if needs_dm else ""
        lines.append(f"  {i + 1}. {name}{warning}")
    if note:
        lines += ["", note]
    lines.append(_("Join with the buttons or /join, add an AI with /addai, then /start."))
    gid = row.id
    buttons = [[Button(_("Join"), f"j:{gid}", "success"), Button(_("Leave"), f"l:{gid}"),
                Button(_("Add AI"), f"a:{gid}"), Button(_("Start"), f"s:{gid}", "primary")]]
    return Message("\n".join(lines), chat=chat, buttons=buttons, slot=f"lobby:{gid}", game_id=gid, kind="lobby")


def picture(live: LiveGame, view: dict, pictures: bool, lang: str) -> tuple | None:
    """What to draw for ``view`` when the chat wants pictures (drawn at delivery, its labels in ``lang``, the
    language of its message), else None."""
    if not pictures or live.settings.get("pictures", "on") != "on" or not boards.wants_picture(live.game.name, view):
        return None
    return live.game.name, view, list(live.names), lang


def board_message(live: LiveGame, state: State, pictures: bool, fresh: bool = False,
                  view: dict | None = None) -> Message:
    """The public board (from ``view(None)`` only), rendered when sent. ``view``: ``state.view(None)`` when the
    caller built it already (a view is built once per move)."""
    view = state.view(None) if view is None else view
    over = state.is_over()
    lang = languages.of_live_chat(live)
    recipe = {"render": "board", "lang": lang, "game": live.game.name, "id": live.id,
              "view": view, "names": list(live.names), "recent": [event.to_json() for event in live.recent],
              "over": over, "waiting": "" if over else waiting(live, state),
              "thinking": [live.names[s] for s in thinking_seats(live, state)]}
    return Message("", chat=live.chat, slot=f"board:{live.id}", game_id=live.id, kind="board", fresh=fresh,
                   picture=picture(live, view, pictures, lang), image_name=f"board-{live.id}.png", recipe=recipe)


def private_message(live: LiveGame, seat_row: LiveSeat, state: State, version: int, lines: list[str],
                    pictures: bool, path: str = "", note: str = "", view: dict | None = None,
                    told: dict | None = None) -> Message:
    """A person's own view (from ``view(seat)`` only) with the move picker when they are to act, rendered when
    sent; the picker's buttons carry ``version``, the version of the game this view shows. The picker is
    derived from the state then (kept in memory with the recipe, not stored: a hand delivered from the outbox
    by another process gets the picker of the game as stored then, see ``Service.claim_outbox``). ``told``: events
    narrated under the view when it is rendered (``told_lines``), beside the ready ``lines``."""
    seat = seat_row.seat
    view = state.view(seat) if view is None else view  # ``view``: built by the caller already
    to_act = seat in state.to_act() and not state.is_over()
    lang = languages.of_live_seat(live, seat_row)
    recipe = {"render": "hand", "lang": lang, "game": live.game.name,
              "id": live.id, "view": view, "names": list(live.names), "seat": seat, "lines": list(lines),
              "note": note, "version": version, "path": path, "to_act": to_act, "state": state,
              "told": told}
    message = Message("", user=seat_row.user, slot=f"hand:{live.id}", game_id=live.id, kind="hand",
                      picture=picture(live, view, pictures, lang), image_name=f"hand-{live.id}.png", recipe=recipe)
    if path:
        message.render()  # a picker path from a button: a path that does not fit is refused now, not when sent
    return message


def render(recipe: dict) -> tuple[str, list[list[Button]], Menu | None]:
    """The text, buttons and menu of a message from its recipe (``board_message``, ``private_message``), in the
    language of its reader."""
    build = {"board": _render_board, "hand": _render_hand}[recipe["render"]]
    with i18n.using(recipe["lang"]):
        return build(rules.get_game(recipe["game"]), recipe)


def _render_board(game: Game, r: dict) -> tuple[str, list[list[Button]], Menu | None]:
    names = r["names"]
    text = substitute(game.render_view(r["view"]), names)
    header = f"#{r['id']} {game.title}"
    told = (game.describe_event(Event.from_json(event)) for event in r["recent"])  # in the chat's language
    lines = ["· " + substitute(line, names) for line in told if line]
    if lines:
        header += "\n" + "\n".join(lines)
    text = header + "\n\n" + text
    if not r["over"]:
        text += "\n\n" + _("⏳ To act: {names}", names=r["waiting"])
        for name in r["thinking"]:
            text += "\n" + _("{name} is thinking…", name=name)
    buttons = [] if r["over"] else [[Button(_("🂠 My hand"), f"h:{r['id']}", "primary")]]
    return text, buttons, None


def _render_hand(game: Game, r: dict) -> tuple[str, list[list[Button]], Menu | None]:
    seat, path, version = r["seat"], r["path"], r["version"]
    text = substitute(game.render_view(r["view"]), r["names"])
    head = [_("#{id} {game} — your view (seat {seat})", id=r["id"], game=game.title, seat=seat + 1)]
    if r["note"]:
        head.append(r["note"])
    head.extend(r["lines"])
    if r.get("told"):
        head.extend(told_lines(game, r["told"], seat, r["names"]))
    buttons: list[list[Button]] = []
    menu = None
    state = r.get("state")
    if r["to_act"] and state is not None:
        level = picker.resolve(game, state.legal_actions(seat), path)
        buttons = picker_buttons(game, r["id"], version, level, path)
        menu = picker_menu(game, r["id"], version, level, path)
        if level.chosen:
            head.append(_("Chosen so far: ") + " → ".join(level.chosen))
    return "\n".join(head) + "\n\n" + text, buttons, menu


def told_lines(game: Game, told: dict, seat: int, names: list[str]) -> list[str]:
    """The lines a hand tells beside the view, in the language current now (the reader's, see ``render``):
    ``{"since": [[seq, seat, [event…]], …], "ended": bool}`` — everything since the seat's last own move (its
    turn has come, or the game ended) — or ``{"events": [event…]}``, what the seat learnt privately."""
    if "since" in told:
        log = [(seq, mover, [Event.from_json(e) for e in events]) for seq, mover, events in told["since"]]
        return narration.since_last_turn(game, log, seat, names, ended=told.get("ended", False))
    with reading(seat):
        described = (game.describe_event(Event.from_json(e)) for e in told.get("events", []))
        return [substitute(line, names) for line in described if line]


@in_chat_language
def turn_message(live: LiveGame, state: State) -> Message:
    """The group's one short line naming whose turn it is (posted anew, the previous one retired). It mentions —
    and so pings — only people whose private messages fail: the others are pinged once, by their hand."""
    people = [live.seats[s] for s in state.to_act() if not live.seats[s].is_ai]
    text = _("🔔 #{id} {game}: your turn, {names}.", id=live.id, game=live.game.title,
             names=", ".join(p.name for p in people))
    return Message(text, chat=live.chat, slot=f"turn:{live.id}", game_id=live.id, kind="turn", ping=True,
                   mentions=[p.user for p in people if p.dm_ok is False])


def picker_buttons(game: Game, game_id: int, version: int, level: picker.PickerLevel,
                   path: str) -> list[list[Button]]:
    prefix = f"p:{game_id}:{version}:"
    if level.action is not None:  # one action left: a single button confirms it
        return [[Button(game.describe_action(level.action)[:40], prefix + path, "primary")]]
    flat = [Button(label[:40], prefix + level.data_for(path, token)) for label, token in level.shown()]
    per_row = 4 if all(len(b.label) <= 6 for b in flat) else (2 if all(len(b.label) <= 16 for b in flat) else 1)
    rows = [flat[i:i + per_row] for i in range(0, len(flat), per_row)]
    controls = _paging(prefix, level, path)
    if level.multi and level.can_finish:
        mask = sum(1 << i for i, (label, _data) in enumerate(level.options) if label.startswith("✔ "))
        controls.append(Button(_("✅ Done"), prefix + level.data_for(path, f"d{mask:x}"), "success"))
    if path:
        controls.append(Button(_("↩ Back"), prefix + picker.parent(path)))
    if controls:
        rows.append(controls)
    return rows


def _paging(prefix: str, level: picker.PickerLevel, path: str) -> list[Button]:
    controls = []
    if level.page > 0:
        controls.append(Button(_("◀ Previous"), prefix + level.data_for(path, f"n{level.page - 1}")))
    if level.page + 1 < level.pages:
        controls.append(Button(_("More ▶ ({page}/{pages})", page=level.page + 2, pages=level.pages),
                               prefix + level.data_for(path, f"n{level.page + 1}")))
    return controls


# the menu's placeholder per parameter an action names (a sentence each: "a {what}" cannot be said in every language)
PLACEHOLDERS = {"type": N_("Choose a move …"), "move": N_("Choose a move …"), "card": N_("Choose a card …"),
                "cards": N_("Choose the cards …"), "named_card": N_("Choose the card to name …"),
                "nobles": N_("Choose the nobles …"), "noble": N_("Choose a noble …"),
                "castle": N_("Choose a castle …"), "village": N_("Choose a village …"),
                "destination": N_("Choose where to …"), "position": N_("Choose a position …"),
                "target": N_("Choose an opponent …"), "club_jack": N_("Choose how to flip …"),
                "site": N_("Choose a building site …"), "building": N_("Choose a building …"),
                "color": N_("Choose a colour …"), "colors": N_("Choose the colours …"),
                "slots": N_("Choose the slots …"), "leader": N_("Choose who leads …"), "way": N_("Choose a direction …"),
                "suit": N_("Choose a suit …"), "start_castle": N_("Choose what the ace does …")}


def picker_menu(game: Game, game_id: int, version: int, level: picker.PickerLevel, path: str) -> Menu | None:
    """The same choice as one menu (Discord's select): option values are picker tokens or item numbers."""
    if level.action is not None:
        return None
    prefix = f"p:{game_id}:{version}:"
    base = picker.parent(path) if level.has_token else path
    controls = []
    placeholder = translate(PLACEHOLDERS.get(str(level.key or "type"), N_("Choose …")))
    if level.multi:
        options = [(label.removeprefix("✔ "), str(i)) for i, (label, _data) in enumerate(level.options)]
        data = prefix + base + "|m"
    else:
        options = level.shown()
        data = prefix + base + "|s"
        controls = _paging(prefix, level, path)
    if base:  # a choice was made before this one
        controls.append(Button(_("↩ Back"), prefix + picker.parent(base)))
    low, high = level.sizes if level.multi else (1, 1)
    return Menu(data, [(label[:100], value) for label, value in options][:25], level.multi, low,
                min(high, len(options), 25), placeholder[:150], controls)
