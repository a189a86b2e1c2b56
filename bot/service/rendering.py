"""Rendering: a message's recipe becomes its text, buttons and menu, in its reader's language — by a named call,
``render``, made by the delivery step just before the message is sent (``finish``), so a board superseded
before it is sent is never rendered, and its picture never drawn.

Public text comes only from ``view(None)`` and public events; a person's text only from ``view(seat)`` and
the events whose audience holds that seat (the recipe holds nothing else).
"""
from __future__ import annotations

import asyncio
import re

import rules
from rules.api import Event, Game
from rules.lang import reading
from bot import i18n
from bot.i18n import N_, _, translate
from bot.service import buttons as codes, narration, picker
from bot.service.clocks import spoken
from bot.service.messages import Button, Menu, Message

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


def render(message: Message) -> Message:
    """Fill ``text``, ``buttons`` and ``menu`` from the message's recipe (once; a message without one is left)."""
    if message.needs_rendering:
        recipe = message.recipe
        build = {"board": _board, "hand": _hand}[recipe["render"]]
        with i18n.using(recipe["lang"]):
            message.text, message.buttons, message.menu = build(rules.get_game(recipe["game"]), recipe)
            message.times = [[f" {spoken(entry[1])} ⏳", entry[3]] for entry in recipe.get("clocks") or []
                             if entry[2] and len(entry) > 3 and entry[3] is not None]
        message.rendered = True
    return message


async def finish(messages: list[Message], pictures) -> list[Message]:
    """Render the messages and draw the pictures they ask for (several at once, in ``pictures``, a
    ``PicturePool``): what a message needs just before it is sent. A picture that cannot be drawn leaves the
    text to go alone."""
    for message in messages:
        render(message)
    asking = [m for m in messages if m.picture is not None]
    if asking:
        drawn = await asyncio.gather(*(pictures.draw(*m.picture) for m in asking))
        for message, png in zip(asking, drawn):
            message.picture, message.image = None, png
    return messages


def _board(game: Game, r: dict) -> tuple[str, list[list[Button]], Menu | None]:
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
        if r.get("clocks"):  # time banks: ⏳ marks those running
            text += "\n" + time_left_line((name, left, running) for name, left, running, *_end in r["clocks"])
    rows = [] if r["over"] else [[Button(_("🂠 My hand"), codes.my_hand(r["id"]), "primary")]]
    return text, rows, None


def time_left_line(banks) -> str:
    """The board's line of time banks: ``banks`` as (name, seconds left, running); ⏳ marks those running."""
    return _("⏱ Time left: {banks}", banks=", ".join(
        f"{name} {spoken(left)}{' ⏳' if running else ''}" for name, left, running in banks))


def _hand(game: Game, r: dict) -> tuple[str, list[list[Button]], Menu | None]:
    seat, path, version = r["seat"], r["path"], r["version"]
    text = substitute(game.render_view(r["view"]), r["names"])
    head = [_("#{id} {game} — your view (seat {seat})", id=r["id"], game=game.title, seat=seat + 1)]
    if r["note"]:
        head.append(r["note"])
    head.extend(r["lines"])
    if r.get("told"):  # (a line the view below says too, the winner at the end, is said there only)
        shown = set(text.splitlines())
        head.extend(line for line in told_lines(game, r["told"], seat, r["names"]) if line not in shown)
    rows: list[list[Button]] = []
    menu = None
    state = r.get("state")
    if r["to_act"] and state is not None:
        level = picker.resolve(game, state.legal_actions(seat), path, whole=r.get("whole", True))
        rows = picker_buttons(game, r["id"], version, level, path)
        menu = picker_menu(game, r["id"], version, level, path)
        if level.chosen:
            head.append(_("Chosen so far: ") + " → ".join(level.chosen))
    if r.get("undo"):  # the move just made told nobody anything: it may be taken back while nobody moves
        rows = rows + [[Button(_("↩ Undo my move"), codes.undo(r["id"], version))]]
    return "\n".join(head) + "\n\n" + text, rows, menu


def told_lines(game: Game, told: dict, seat: int, names: list[str]) -> list[str]:
    """The lines a hand tells beside the view, in the language current now (the reader's, see ``render``):
    ``{"since": [[seq, seat, [event…]], …], "ended": bool}`` — everything since the seat's last own move (its
    turn has come, or the game ended) — or ``{"events": [event…]}``, what the seat learnt privately. Events the view
    restates (``Game.restated_by_view``: a hand as dealt) are not told twice."""
    def beside_the_view(events: list[dict]) -> list[Event]:  # what the view below does not show anyway
        return [event for event in map(Event.from_json, events) if event.kind not in game.restated_by_view]

    if "since" in told:
        log = [(seq, mover, beside_the_view(events)) for seq, mover, events in told["since"]]
        return narration.since_last_turn(game, log, seat, names, ended=told.get("ended", False))
    with reading(seat):
        described = (game.describe_event(event) for event in beside_the_view(told.get("events", [])))
        return [substitute(line, names) for line in described if line]


def picker_buttons(game: Game, game_id: int, version: int, level: picker.PickerLevel,
                   path: str) -> list[list[Button]]:
    prefix = codes.picker_prefix(game_id, version)
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
    prefix = codes.picker_prefix(game_id, version)
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


# ---------------------------------------------------------------- a board read by one seat (the console)
def board_news_for(recipe: dict, seat: int) -> list[tuple[str, str, bool]] | None:
    """The recent public events a board recipe tells, as (the channel's line, the line for ``seat``, whether
    it is about ``seat``): the same public events narrated for that reader, so a line about them is their own
    language's second person ("Du deckst 7♠ auf.", not "Du deckt"). None when the recipe holds no events."""
    if "recent" not in recipe or "game" not in recipe:
        return None
    game, names = rules.get_game(recipe["game"]), recipe.get("names") or []
    out = []
    with i18n.using(recipe.get("lang")):
        for data in recipe["recent"]:
            event = Event.from_json(data)
            text = game.describe_event(event)
            if not text:
                continue
            mine = narration.narrate(game, [event], seat, names, condense=False)
            about = event.data.get("seat") == seat and event.kind != "turn_started"
            out.append((substitute(text, names), mine[0] if mine else substitute(text, names), about))
    return out


def view_for(recipe: dict, seat: int) -> str | None:
    """The public view of a board recipe as ``seat`` reads it: its lines about them in their own language's
    second person ("Du musst bauen."); English turns what is left ("start player You"). None without a view."""
    game = rules.get_game(recipe["game"]) if "game" in recipe else None
    board = getattr(getattr(game, "text", None), "board", None)  # the game's text of a view, for any reader
    if board is None or "view" not in recipe:
        return None
    names = recipe.get("names") or []
    with i18n.using(recipe.get("lang")), reading(seat):
        text = board(recipe["view"])
        return narration.personal(text, seat, names) if i18n.language() == "en" else substitute(text, names)
