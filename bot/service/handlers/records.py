"""``/record`` and ``/replay``: a game's record sent privately, and a finished game stepped through in the chat.

``/record [#game]`` sends the asker the record (JSON) and the text record of a game of this chat (or, privately,
one they played): the whole game once it is over (unless the chat set ``reveal_after_end=off``), else what the
asker may know (``records.audience_for``). ``/replay #game [step] [seat|all]`` posts one step of a finished
game — its picture, the narration of its move, ◀ ▶ and a seat switcher — and each press edits that message in
place (its slot). Everything a button needs is in its code (game, step, viewer), so buttons of a replay posted
before a restart still work.
"""
from __future__ import annotations

import asyncio
import json
import logging

from bot import i18n
from bot.i18n import _
from bot.render import boards
from bot.service import buttons as codes, commands as c
from bot.service.chat_settings import effective
from bot.service.context import Context
from bot.service.errors import ServiceError, clean
from bot.service.finding import find_game, permitted
from bot.service.languages import chat_language
from bot.service.messages import Button, Message
from bot.service.record_text import step_text, text_record
from bot.service.records import ALL, PUBLIC, RecordError, StoredGame, audience_for, build_record, load_game
from bot.service.replay import Replay

log = logging.getLogger(__name__)
NAME_IN_BUTTON = 16  # a seat's name on the switcher, cut to this
SEAT_WORDS = ("seat", "s", "stoel", "plaats", "platz", "sitz", "siège", "siege", "place")  # /replay #12 5 seat 2


async def _stored(ctx: Context, command: c.Command, game_id,
                  what: str) -> tuple[StoredGame, int | None, dict, bool | None]:
    """The game meant, checked for ``what``, with the asker's player id, the game's chat settings and whether
    private messages reach the asker (None: not known)."""
    async with ctx.uow(readonly=True) as uow:
        row = await find_game(ctx, uow, command.chat, command.user, game_id, what)
        if what == "replay" and row.status == "active":
            raise ServiceError(_("Game #{id} is still running: a replay is for a finished game. /record sends "
                                 "you your own record so far.", id=row.id))
        await permitted(uow, what, row, command.user, command.chat)
        stored = await load_game(uow, row.id)
        player = await uow.players.find(command.user.platform, command.user.id) if command.user else None
        chat = await uow.chats.get(row.chat_id)
    if stored is None:
        raise ServiceError(_("Game #{id} has no record.", id=row.id))
    return (stored, player.id if player is not None else None, effective(chat.settings if chat else None),
            player.dm_ok if player is not None else None)


async def send_record(ctx: Context, command: c.SendRecord) -> list[Message]:
    user = command.user
    stored, player_id, _settings, dm_ok = await _stored(ctx, command, command.game_id, "record")
    closed = _private_chat_closed(ctx, command, stored.id, dm_ok)
    if closed is not None:
        return [closed]
    audience = audience_for(stored, player_id)

    def made() -> tuple[bytes, bytes]:  # a long game takes a moment: off the event loop (in the asker's language)
        record = build_record(stored, audience)
        return json.dumps(record, ensure_ascii=False, indent=1).encode(), text_record(record).encode()

    try:
        data, text = await asyncio.to_thread(made)
    except RecordError:
        log.exception("the record of game %s does not rebuild", stored.id)
        raise ServiceError(_("The record of game #{id} could not be rebuilt; nothing was sent.", id=stored.id))
    if audience == ALL:
        note = _("📜 The record of game #{id}: the whole game, every hidden card shown.", id=stored.id)
    elif audience == PUBLIC:
        note = _("📜 The record of game #{id}: what the table saw.", id=stored.id)
    else:
        note = _("📜 The record of game #{id}: what you knew (other players' hidden cards stay hidden).",
                 id=stored.id)
    name = f"herald-game-{stored.id}"
    out = [Message(note, user=user, game_id=stored.id, kind="record",
                   files=[(f"{name}.json", data), (f"{name}.txt", text)])]
    if command.chat is not None:
        out.append(Message(_("📜 I sent you the record of game #{id} privately.", id=stored.id), chat=command.chat,
                           user=user, game_id=stored.id))
    return out


def _private_chat_closed(ctx: Context, command: c.SendRecord, game_id: int, dm_ok: bool | None) -> Message | None:
    """Asked in a group by a person whom private messages do not reach (where a bot cannot write first: one
    who never opened the private chat): the answer that says how to open it, instead of files that would not
    arrive under a "sent" that would not be true. None: send."""
    if command.chat is None or dm_ok is True:
        return None
    name = command.user.name
    if command.chat.platform in ctx.dm_required:  # the adapter adds the button that opens the private chat
        text = _("🔒 {name}, records come in a private chat with me, which is not open yet: open it with the "
                 "button below, press Start, then ask again with /record {id}.", name=name, id=game_id)
        return Message(text, chat=command.chat, user=command.user, game_id=game_id, kind="dm_needed")
    if dm_ok is False:
        text = _("🔒 {name}, I cannot send you private messages, so I did not send the record of game #{id}: "
                 "allow direct messages from server members (or start a private chat with me) and ask again.",
                 name=name, id=game_id)
        return Message(text, chat=command.chat, user=command.user, game_id=game_id, kind="dm_failed")
    return None


def _viewer_of(replay: Replay, code: str | None):
    """"t" → None (the table), "a" → everything, "2" → seat 1; refused when this record does not allow it."""
    viewer = None if code in (None, "t") else ALL if code == "a" else int(code) - 1
    if not replay.game.has_hidden_information and viewer is not None:
        viewer = None  # every seat sees the table: nothing to switch
    if viewer not in replay.viewers():
        if viewer == ALL or isinstance(viewer, int) and 0 <= viewer < len(replay.names):
            raise ServiceError(_("Hidden cards stay hidden in this chat's replays (reveal_after_end=off)."))
        raise ServiceError(_("There is no seat {seat} in this game.", seat=code))
    return viewer


def _code_of(viewer) -> str:
    return "t" if viewer is None else "a" if viewer == ALL else str(viewer + 1)


def _parse_args(text: str, replay: Replay) -> tuple[int, str | None]:
    """``[step] [seat|all|table]`` after the game's number: the step (default: the last) and the viewer."""
    step, viewer = replay.steps, None
    seat_next = False
    for word in clean(text or "", 60).lower().split():
        word = word.lstrip("#")
        if word in ("all", "alles", "tout", "alle", "everything"):
            viewer = "a"
        elif word in ("table", "public", "tafel", "tisch"):
            viewer = "t"
        elif word in SEAT_WORDS:
            seat_next = True
        elif word.isascii() and word.lstrip("-").isdigit() and len(word) <= 7:
            if seat_next:
                viewer, seat_next = word, False
            else:
                step = int(word)
        else:
            raise ServiceError(_("Use /replay #game [step] [seat N|all], e.g. /replay #12 5 or /replay #12 5 all."))
    return step, viewer


async def show_replay(ctx: Context, command: c.ShowReplay) -> list[Message]:
    game_id = command.game_id
    text = command.text
    if game_id is None and text:  # "/replay #12 5": the number leads the text
        first, _sep, rest = text.strip().partition(" ")
        if first.lstrip("#").isdigit():
            game_id, text = first.lstrip("#"), rest
    if game_id is None:
        raise ServiceError(_("Which game? Use /replay #game [step], e.g. /replay #12 — /history lists the "
                             "finished games."))
    stored, player_id, settings, _dm_ok = await _stored(ctx, command, game_id, "replay")
    audience = audience_for(stored, player_id)
    if audience != ALL:  # a replay is shown to the chat: what the table saw
        audience = PUBLIC
    try:
        replay = Replay(await asyncio.to_thread(build_record, stored, audience))
    except RecordError:
        log.exception("the replay of game %s does not rebuild", stored.id)
        raise ServiceError(_("Game #{id} could not be rebuilt for a replay.", id=stored.id))
    if command.step is None:
        step, code = _parse_args(text, replay)
    else:
        step, code = command.step, command.viewer
    if not 0 <= step <= replay.steps:
        raise ServiceError(_("Game #{id} has steps 0 to {last}; there is no step {step}.", id=stored.id,
                             last=replay.steps, step=step))
    viewer = _viewer_of(replay, code)
    lang = chat_language(settings) if command.chat is not None else i18n.language()
    with i18n.using(lang):
        return [_replay_message(ctx, command, replay, stored.id, step, viewer, settings, lang)]


def _replay_message(ctx: Context, command: c.ShowReplay, replay: Replay, game_id: int, step: int, viewer,
                    settings: dict, lang: str) -> Message:
    """One step as a message: head, the move and its narration, the view as text (and as a picture), buttons."""
    game, names = replay.game, replay.names
    view = replay.view(step, viewer)
    shown = view["public"] if viewer == ALL else view
    picture = None
    if ctx.pictures and settings.get("pictures", "on") == "on" and boards.wants_picture(game.name, shown):
        picture = (game.name, shown, list(names), lang)
    code = _code_of(viewer)
    steps = [Button("⏮", codes.replay_step(game_id, 0, code)),
             Button("◀", codes.replay_step(game_id, max(step - 1, 0), code), "primary"),
             Button("▶", codes.replay_step(game_id, min(step + 1, replay.steps), code), "primary"),
             Button("⏭", codes.replay_step(game_id, replay.steps, code))]
    switch = []
    for choice in replay.viewers() if game.has_hidden_information else []:
        label = _("👁 Table") if choice is None else _("🔓 All") if choice == ALL else \
            f"{choice + 1}. {names[choice][:NAME_IN_BUTTON]}"
        if choice == viewer:
            label = "• " + label
        switch.append(Button(label, codes.replay_step(game_id, step, _code_of(choice))))
    rows = [steps] + [switch[i:i + 4] for i in range(0, len(switch), 4)] if len(switch) > 1 else [steps]
    private = command.chat is None
    return Message(step_text(replay, step, viewer, game_id), chat=command.chat, user=command.user if private else None, buttons=rows,
                   slot=f"replay:{game_id}", game_id=game_id, kind="replay", picture=picture,
                   image_name=f"replay-{game_id}-{step}.png")
