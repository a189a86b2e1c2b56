"""What adapters hand to the service (references) and what they get back (messages). Platform-neutral."""
from __future__ import annotations

from dataclasses import dataclass, field

OWN_TABLES = frozenset({"console"})  # where a chat is one person's own table: any number of tables, moves typed in
# the open, nothing handed over through the outbox (one process)


@dataclass(frozen=True)
class ChatRef:
    """A channel or group. ``league`` is the server (Discord guild) or group the chat's games are rated in."""

    platform: str
    id: str
    league: str | None = None
    title: str | None = None
    locale: str | None = field(default=None, compare=False)  # the server's/group's language, when the platform says
    # a game's own place inside the chat (a Discord thread, a Telegram forum topic): where a command was typed, and
    # where a game's public messages go; None: the chat itself (``bot/service/places.py``)
    place: str | None = field(default=None, compare=False)

    @property
    def league_key(self) -> str:
        return f"{self.platform}:{self.league or self.id}"


@dataclass(frozen=True)
class UserRef:
    platform: str
    id: str
    name: str = ""
    locale: str | None = field(default=None, compare=False)  # the person's client language (Discord, Telegram)


@dataclass(frozen=True)
class Button:
    """A button; ``data`` is what comes back in a ``PressButton`` command (≤ 64 bytes, safe for Telegram; ``bot.service.buttons``)."""

    label: str
    data: str
    style: str = "secondary"  # primary, secondary, success, danger
    url: str | None = None  # a link button (opens ``url``; ``data`` unused): the adapters make it a link


@dataclass(frozen=True)
class Menu:
    """The current choice of a move picker as one menu: Discord shows it as a select menu, Telegram keeps
    ``Message.buttons``. A ``PressButton`` with ``values`` carries the chosen option values."""

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
    ``retire``: the slot's message is no longer true (the turn line of a game that ended): adapters delete the
    message they last sent for the slot (or cut it down where they may not) and post nothing.
    ``kind`` "close" posts nothing either: the game's place (``chat.place``) is closed — a Discord thread archived
    and locked.
    """

    text: str
    chat: ChatRef | None = None
    user: UserRef | None = None
    buttons: list[list[Button]] = field(default_factory=list)
    slot: str | None = None
    game_id: int | None = None
    kind: str = "info"  # lobby, board, hand, result, info, error, notice, home, close, ...
    fresh: bool = False
    image: bytes | None = None
    image_name: str | None = None
    files: list[tuple[str, bytes]] = field(default_factory=list)  # documents sent with it: (file name, content)
    menu: Menu | None = None
    picture: tuple | None = None  # (game, view, names, language) still to be drawn into ``image`` by the service
    ping: bool = False  # the recipient must be notified: post anew (edits never notify), retire the old one
    mentions: list[UserRef] = field(default_factory=list)  # people a public ``ping`` message names (Discord @)
    lapsing: bool = False  # its only button (Undo) is stale after the next move anywhere: by the next ping, dead
    retire: bool = False  # the slot's message goes, nothing is posted (see above)
    silent: bool = False  # a private message posted anew must not notify (the turn's ping came elsewhere or later)
    times: list = field(default_factory=list)  # [said, epoch]: a remaining time as ``text`` says it, and when it
    # ends (Discord shows that moment as its own relative timestamp, which counts down by itself)
    conceal: bool = False  # a refusal whose asker's own message shows a secret: adapters delete it where they may
    outbox_id: str | None = None  # the key of its outbox row: reported delivered once sent or superseded
    # What ``text``, ``buttons`` and ``menu`` are rendered from (``bot/service/rendering.py``): a game's boards
    # and hands are rendered when they are sent (``rendering.finish``), not when the move is committed, so one
    # superseded before it is sent is never rendered. JSON (stored in the outbox) but for its ``state`` entry.
    recipe: dict | None = field(default=None, repr=False, compare=False)
    rendered: bool = field(default=False, compare=False)  # ``text``, ``buttons``, ``menu`` were made from the recipe

    @property
    def needs_rendering(self) -> bool:
        return self.recipe is not None and not self.rendered

    @property
    def is_private(self) -> bool:
        return self.user is not None and self.chat is None

    @property
    def is_reply(self) -> bool:
        return self.user is not None and self.chat is not None


def _ref(ref) -> list | None:
    """A chat keeps its language (the deep link's label of a message another process delivers is in it)."""
    if ref is None:
        return None
    if isinstance(ref, ChatRef):
        return [ref.platform, ref.id, ref.league, ref.title, ref.locale, *([ref.place] if ref.place else [])]
    return [ref.platform, ref.id, ref.name]


def message_to_json(message: Message) -> dict:
    """What the outbox stores of a message: everything but a drawn image (the picture request is kept, so a
    picture is drawn when the message is really sent); a message not rendered yet is stored as its recipe."""
    common = {"chat": _ref(message.chat), "user": _ref(message.user), "slot": message.slot,
              "game_id": message.game_id, "kind": message.kind, "fresh": message.fresh,
              "image_name": message.image_name, "picture": list(message.picture) if message.picture else None,
              "ping": message.ping, "mentions": [_ref(u) for u in message.mentions], "retire": message.retire,
              "silent": message.silent}
    if message.needs_rendering:  # what it is rendered from, not the text: it is rendered when sent
        recipe = message.recipe
        picture = message.picture
        if picture is not None and picture[1] is recipe.get("view"):  # the picture shows the recipe's view:
            common["picture"] = [picture[0], None, *picture[2:]]  # stored once (None: "the recipe's view")
        return dict(common, text=None, buttons=[], menu=None, recipe={k: v for k, v in recipe.items() if k != "state"})
    menu = message.menu
    return {
        "text": message.text, "chat": _ref(message.chat), "user": _ref(message.user),
        "buttons": [[[b.label, b.data, b.style, *([b.url] if b.url else [])] for b in row] for row in message.buttons],
        "slot": message.slot, "game_id": message.game_id, "kind": message.kind, "fresh": message.fresh,
        "image_name": message.image_name, "picture": list(message.picture) if message.picture else None,
        "ping": message.ping, "mentions": [_ref(u) for u in message.mentions], "retire": message.retire,
        "silent": message.silent, "times": [list(t) for t in message.times], "menu": None if menu is None else {
            "data": menu.data, "options": [list(o) for o in menu.options], "multi": menu.multi,
            "min_values": menu.min_values, "max_values": menu.max_values, "placeholder": menu.placeholder,
            "controls": [[b.label, b.data, b.style] for b in menu.controls]},
    }


def message_from_json(data: dict, outbox_id: str | None = None) -> Message:
    menu = data.get("menu")
    picture, recipe = data.get("picture"), data.get("recipe")
    if picture and picture[1] is None and recipe:  # the picture of the recipe's view (``message_to_json``)
        picture = [picture[0], recipe.get("view"), *picture[2:]]
    return Message(
        text=data["text"] or "", chat=ChatRef(*data["chat"]) if data.get("chat") else None,
        user=UserRef(*data["user"]) if data.get("user") else None,
        buttons=[[Button(*b) for b in row] for row in data.get("buttons", [])],
        slot=data.get("slot"), game_id=data.get("game_id"), kind=data.get("kind", "info"),
        fresh=data.get("fresh", False), image_name=data.get("image_name"),
        picture=tuple(picture) if picture else None, ping=data.get("ping", False),
        mentions=[UserRef(*u) for u in data.get("mentions", [])], retire=data.get("retire", False),
        silent=data.get("silent", False), times=[list(t) for t in data.get("times", [])], outbox_id=outbox_id,
        menu=None if menu is None else Menu(menu["data"], [tuple(o) for o in menu["options"]], menu["multi"],
                                            menu["min_values"], menu["max_values"], menu["placeholder"],
                                            [Button(*b) for b in menu["controls"]]),
        recipe=recipe)
