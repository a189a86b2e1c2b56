"""What adapters hand to the service (references) and what they get back (messages). Platform-neutral."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ChatRef:
    """A channel or group. ``league`` is the server (Discord guild) or group the chat's games are rated in."""

    platform: str
    id: str
    league: str | None = None
    title: str | None = None

    @property
    def league_key(self) -> str:
        return f"{self.platform}:{self.league or self.id}"


@dataclass(frozen=True)
class UserRef:
    platform: str
    id: str
    name: str = ""


@dataclass(frozen=True)
class Button:
    """A button; ``data`` is what comes back in ``Service.press`` (≤ 64 bytes, safe for Telegram)."""

    label: str
    data: str
    style: str = "secondary"  # primary, secondary, success, danger


@dataclass(frozen=True)
class Menu:
    """The current choice of a move picker as one menu: Discord shows it as a select menu, Telegram keeps
    ``Message.buttons``. ``Service.choose(user, data, values)`` takes the chosen option values."""

    data: str
    options: list[tuple[str, str]]  # (label, value)
    multi: bool = False
    min_values: int = 1
    max_values: int = 1
    placeholder: str = "Choose …"
    controls: list[Button] = field(default_factory=list)  # paging and back, beside the menu


@dataclass
class Message:
    """Something to show.

    - ``chat`` only: public in that chat (rendered from ``view(None)`` only).
    - ``user`` only: private to that person (their DM).
    - both: an answer to ``user``'s own command in ``chat`` (Discord: ephemeral; Telegram: a reply).

    ``slot`` names the message this one replaces (``lobby:12``, ``board:12``, ``hand:12``, ``turn:12``): adapters
    edit the message they last sent for the slot, or post a new one when ``fresh`` or ``ping`` is set or there is
    none. A newer message for a slot supersedes an older one not yet sent (delivery coalesces by slot).
    """

    text: str
    chat: ChatRef | None = None
    user: UserRef | None = None
    buttons: list[list[Button]] = field(default_factory=list)
    slot: str | None = None
    game_id: int | None = None
    kind: str = "info"  # lobby, board, hand, result, info, error, notice
    fresh: bool = False
    image: bytes | None = None
    image_name: str | None = None
    menu: Menu | None = None
    picture: tuple | None = None  # (game, view, names) still to be drawn into ``image`` by the service
    ping: bool = False  # the recipient must be notified: post anew (edits never notify), retire the old one
    mentions: list[UserRef] = field(default_factory=list)  # people a public ``ping`` message names (Discord @)
    outbox_id: int | None = None  # the stored outbox row: ``Service.delivered([id])`` once sent or superseded

    @property
    def is_private(self) -> bool:
        return self.user is not None and self.chat is None

    @property
    def is_reply(self) -> bool:
        return self.user is not None and self.chat is not None
