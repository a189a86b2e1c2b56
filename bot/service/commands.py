"""Commands: what a person (or a button they pressed) asks the service to do, as small values.

An adapter turns a chat event into one of these and hands it to the bus (``bot.service.bus.handle``); a button's
code becomes a command in one place (``bot.service.buttons``). Every command that a person gives names ``user``
(who asks) and ``chat`` (where; None in a private chat): the bus answers errors, floods and the language from
them.
"""
from __future__ import annotations

from dataclasses import dataclass

from bot.service.messages import ChatRef, UserRef


@dataclass(frozen=True)
class Command:
    user: UserRef | None
    chat: ChatRef | None


# ---------------------------------------------------------------- tables
@dataclass(frozen=True)
class CreateLobby(Command):
    game: str = ""
    options: str = ""
    seed: int | None = None


@dataclass(frozen=True)
class Join(Command):
    game_id: int | str | None = None


@dataclass(frozen=True)
class Leave(Command):
    game_id: int | str | None = None


@dataclass(frozen=True)
class AddAI(Command):
    level: str = "greedy"
    game_id: int | str | None = None
    is_admin: bool = False


@dataclass(frozen=True)
class Start(Command):
    game_id: int | str | None = None


@dataclass(frozen=True)
class Abort(Command):
    game_id: int | str | None = None
    is_admin: bool = False


# ---------------------------------------------------------------- playing
@dataclass(frozen=True)
class MakeMove(Command):
    """A typed notation (str) or an action (dict); ``version``: the game version the move was chosen on."""

    move: str | dict = ""
    game_id: int | str | None = None
    version: int | None = None


@dataclass(frozen=True)
class PressPicker(Command):
    """A step of the move picker: ``path`` the choices so far, on the board of ``version``."""

    game_id: int = 0
    version: int = 0
    path: str = ""


@dataclass(frozen=True)
class PressButton(Command):
    """A button or menu as it came from the platform; ``bot.service.buttons`` parses it into its command."""

    data: str = ""
    values: tuple[str, ...] | None = None  # a submitted menu's chosen option values
    is_admin: bool = False


@dataclass(frozen=True)
class ShowHand(Command):
    game_id: int | str | None = None


@dataclass(frozen=True)
class ShowBoard(Command):
    game_id: int | str | None = None


@dataclass(frozen=True)
class ListChoices(Command):
    """Every legal move of the asker as (label, notation): the console's numbered menu."""

    game_id: int | str | None = None


@dataclass(frozen=True)
class Hint(Command):
    game_id: int | str | None = None


@dataclass(frozen=True)
class Resign(Command):
    game_id: int | str | None = None
    confirmed: bool = True


@dataclass(frozen=True)
class ConfirmResign(Command):
    """The Yes of a resign question: asked of ``owner`` at ``version``."""

    game_id: int = 0
    version: str = ""
    owner: str = ""


@dataclass(frozen=True)
class CancelResign(Command):
    game_id: int = 0
    owner: str = ""


@dataclass(frozen=True)
class TakeBack(Command):
    """``/undo`` (``version`` None) or the Undo button drawn for ``version``: take the asker's last move back."""

    game_id: int | str | None = None
    version: int | None = None


@dataclass(frozen=True)
class AnswerTakeback(Command):
    """Accept or Decline on the takeback request ``request_id``."""

    game_id: int = 0
    request_id: int = 0
    accept: bool = False


# ---------------------------------------------------------------- the chat
@dataclass(frozen=True)
class ShowLog(Command):
    text: str = ""
    game_id: int | str | None = None


@dataclass(frozen=True)
class ShowGames(Command):
    pass


@dataclass(frozen=True)
class ShowMyGames(Command):
    """``/mygames``: every game the person sits in on this platform, in any chat."""


@dataclass(frozen=True)
class ShowRules(Command):
    game: str = ""


@dataclass(frozen=True)
class ShowHelp(Command):
    text: str = ""


@dataclass(frozen=True)
class ChangeSettings(Command):
    """``/settings``: shows them when ``text`` is empty."""

    text: str = ""
    is_admin: bool = False


@dataclass(frozen=True)
class GoAway(Command):
    """``/away 3d`` or ``/away 2026-12-24``: the person's time banks stop in all their games on this platform."""

    text: str = ""


@dataclass(frozen=True)
class ComeBack(Command):
    """``/back``: the away period ends now."""


@dataclass(frozen=True)
class ChangeNotify(Command):
    """``/notify``: the person's notification settings, answered privately; shown when ``text`` is empty."""

    text: str = ""


# ---------------------------------------------------------------- leagues
@dataclass(frozen=True)
class ShowLeaderboard(Command):
    text: str = ""


@dataclass(frozen=True)
class ShowStats(Command):
    text: str = ""


@dataclass(frozen=True)
class ShowHistory(Command):
    text: str = ""


@dataclass(frozen=True)
class ShowWeb(Command):
    """``/web``: the link to the chat's pages (when it turned them on)."""

    text: str = ""


@dataclass(frozen=True)
class NewSeason(Command):
    text: str = ""
    is_admin: bool = False


# ---------------------------------------------------------------- private chats
@dataclass(frozen=True)
class PrivateChatOpened(Command):
    """The person can now get private messages (Telegram: they pressed Start)."""


@dataclass(frozen=True)
class PrivateChatFailed(Command):
    """A private message to the person could not be delivered (``game_id``: the game it was about)."""

    game_id: int | None = None


@dataclass(frozen=True)
class PrivateChatDelivered(Command):
    """A private message reached the person."""


@dataclass(frozen=True)
class ChatMoved(Command):
    """A chat changed its id (Telegram group → supergroup)."""

    platform: str = ""
    old_id: str = ""
    new_id: str = ""


@dataclass(frozen=True)
class PlaceOpened(Command):
    """The adapter gave game ``game_id`` a place of its own in ``chat`` (a thread, a forum topic): ``place``."""

    game_id: int = 0
    place: str = ""


@dataclass(frozen=True)
class PlaceLost(Command):
    """Game ``game_id``'s place in ``chat`` is gone (deleted, closed by someone): it goes on in the chat."""

    game_id: int = 0


@dataclass(frozen=True)
class ClosePlaceLater(Command):
    """A finished game's place (``chat.place``; the game is ``game_id``, or the one that place belongs to) is to
    be closed ``after`` seconds from now — a Discord thread archived and locked once people had their say."""

    game_id: int | None = None
    after: float = 0.0



# ---------------------------------------------------------------- records and replays
@dataclass(frozen=True)
class SendRecord(Command):
    """``/record [#game]``: the game's record (JSON and text), sent privately to the asker."""
    game_id: int | str | None = None


@dataclass(frozen=True)
class ShowReplay(Command):
    """``/replay #game [step] [seat|all]``, or a replay button (``step`` and ``viewer`` given: "t" the table,
    "a" everything, a seat number from 1)."""
    game_id: int | str | None = None
    text: str = ""
    step: int | None = None
    viewer: str | None = None
