"""Button codes ↔ commands, in one place. A code is at most 64 bytes (Telegram's ``callback_data``).

    j:<game>  l:<game>  s:<game>  a:<game>     join, leave, start, add a greedy AI (the lobby's buttons)
    h:<game>                                   my hand (the board's button)
    p:<game>:<version>:<path>                  a step of the move picker (``bot.service.picker`` paths)
    p:<game>:<version>:<path>|s or |m          a menu of the picker (one option, or several: a mask)
    r:<game>:<version>:<person>                Yes to a resign question; rc:<game>:<person> its Cancel
    u:<game>:<version>                         Undo: take my last move back (under the mover's own hand)
    ty:<game>:<request>  tn:<game>:<request>   Accept / Decline a request to take a move back
    v:<game>:<step>:<viewer>                   a replay's step (viewer: t the table, a all, 1… a seat)
    z:<n>                                      my time zone: the n-th of ``notifying.SUGGESTED_ZONES``

Forged or malformed codes are refused here, before any handler runs.
"""
from __future__ import annotations

from bot.i18n import _
from bot.service import commands as c
from bot.service import notifying, picker
from bot.service.errors import ServiceError, game_number


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 10


def parse(press: c.PressButton) -> c.Command:
    """The command a pressed button (or a submitted menu, ``press.values``) stands for."""
    if press.values is not None:
        return _menu(press)
    user, chat = press.user, press.chat
    kind, _sep, rest = (press.data or "").partition(":")
    parts = rest.split(":")
    if kind == "z" and _digits(rest) and int(rest) < len(notifying.SUGGESTED_ZONES):
        return c.ChangeNotify(user, chat, f"tz={notifying.SUGGESTED_ZONES[int(rest)]}")
    try:
        game_id = game_number(parts[0])
    except ServiceError:
        game_id = None
    if game_id is None:
        raise ServiceError(_("That button is not one of mine."))
    if kind == "p":
        if len(parts) != 3 or not _digits(parts[1]):
            raise ServiceError(_("That button is not one of mine."))
        return c.PressPicker(user, chat, game_id, int(parts[1]), parts[2])
    if kind in ("j", "l", "s", "a"):
        if chat is None:
            raise ServiceError(_("That button only works in the game's chat."))
        if kind == "a":
            return c.AddAI(user, chat, "greedy", game_id, press.is_admin)
        return {"j": c.Join, "l": c.Leave, "s": c.Start}[kind](user, chat, game_id)
    if kind == "h":
        return c.ShowHand(user, chat, game_id)
    if kind == "r" and len(parts) == 3 and _digits(parts[1]):
        return c.ConfirmResign(user, chat, game_id, parts[1], parts[2])
    if kind == "rc" and len(parts) == 2:
        return c.CancelResign(user, chat, game_id, parts[1])
    if kind == "u" and len(parts) == 2 and _digits(parts[1]):
        return c.TakeBack(user, chat, game_id, int(parts[1]))
    if kind in ("ty", "tn") and len(parts) == 2 and _digits(parts[1]):
        return c.AnswerTakeback(user, chat, game_id, int(parts[1]), kind == "ty")
    if kind == "v" and len(parts) == 3 and _digits(parts[1]) and (parts[2] in ("t", "a") or _digits(parts[2])):
        return c.ShowReplay(user, chat, game_id, step=int(parts[1]), viewer=parts[2])
    raise ServiceError(_("That button is not one of mine."))


def _menu(press: c.PressButton) -> c.Command:
    """A menu (``Message.menu``) submitted with values: the same as pressing the matching picker button."""
    base, _sep, kind = (press.data or "").rpartition("|")
    parts = base.split(":")
    values = press.values
    if kind not in ("s", "m") or len(parts) != 4 or parts[0] != "p" or \
            not all(isinstance(v, str) and v.isascii() and v.isdigit() and int(v) < 64 for v in values):
        raise ServiceError(_("That menu is not one of mine."))
    if kind == "s":
        if len(values) != 1:
            raise ServiceError(_("Choose one option."))
        token = values[0]
    else:
        token = f"d{sum(1 << int(v) for v in set(values)):x}"
    data = ":".join(parts[:3]) + ":" + picker.extend(parts[3], token)
    return parse(c.PressButton(press.user, press.chat, data, None, press.is_admin))


# ---------------------------------------------------------------- codes the service draws
def join(game_id: int) -> str:
    return f"j:{game_id}"


def leave(game_id: int) -> str:
    return f"l:{game_id}"


def add_ai(game_id: int) -> str:
    return f"a:{game_id}"


def start(game_id: int) -> str:
    return f"s:{game_id}"


def my_hand(game_id: int) -> str:
    return f"h:{game_id}"


def picker_prefix(game_id: int, version: int) -> str:
    return f"p:{game_id}:{version}:"


def resign_yes(game_id: int, version: int, person: str) -> str:
    return f"r:{game_id}:{version}:{person}"


def resign_cancel(game_id: int, person: str) -> str:
    return f"rc:{game_id}:{person}"


def undo(game_id: int, version: int) -> str:
    return f"u:{game_id}:{version}"


def takeback_answer(game_id: int, request_id: int, accept: bool) -> str:
    return f"{'ty' if accept else 'tn'}:{game_id}:{request_id}"
def replay_step(game_id: int, step: int, viewer: str) -> str:
    return f"v:{game_id}:{step}:{viewer}"


def time_zone(index: int) -> str:
    return f"z:{index}"
