"""Which command is allowed in which game status, and by whom — written once, as a table.

Rows are commands, columns the statuses of a game. A cell names who may use the command then; an empty cell
(absent status) means the command is refused in that status with the row's reason for it. Who someone is
comes from the game itself: its creator, a seated player (not resigned), or an admin *of the game's own
chat* (Discord: of its server; Telegram: of its group). Admin rights in another chat count for nothing.

    command   lobby                 active          finished   aborted
    join      anyone                —               —          —
    leave     seated                —               —          —
    add_ai    seated/creator/admin  —               —          —
    start     seated/creator        —               —          —
    move      —                     seated          —          —
    hand      —                     seated          —          —
    resign    —                     seated          —          —
    hint      —                     seated          —          —
    abort     creator/admin         creator/admin   —          —
    board     anyone                anyone          anyone     —
    log       —                     anyone          anyone     —
    record    —                     anyone          anyone     —      (what each may know: ``records``)
    replay    —                     —               anyone     —
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Flag, auto

from bot.i18n import N_, _, translate
from bot.service.errors import ServiceError


class Role(Flag):
    ANYONE = auto()
    SEATED = auto()
    CREATOR = auto()
    ADMIN = auto()  # of the game's own chat


LOBBY, ACTIVE, FINISHED, ABORTED = "lobby", "active", "finished", "aborted"
STATUSES = (LOBBY, ACTIVE, FINISHED, ABORTED)

TABLE: dict[str, dict[str, Role]] = {
    "join": {LOBBY: Role.ANYONE},
    "leave": {LOBBY: Role.SEATED},
    "add_ai": {LOBBY: Role.SEATED | Role.CREATOR | Role.ADMIN},
    "start": {LOBBY: Role.SEATED | Role.CREATOR},
    "move": {ACTIVE: Role.SEATED},
    "hand": {ACTIVE: Role.SEATED},
    "resign": {ACTIVE: Role.SEATED},
    "hint": {ACTIVE: Role.SEATED},
    "abort": {LOBBY: Role.CREATOR | Role.ADMIN, ACTIVE: Role.CREATOR | Role.ADMIN},
    "board": {LOBBY: Role.ANYONE, ACTIVE: Role.ANYONE, FINISHED: Role.ANYONE},
    "log": {ACTIVE: Role.ANYONE, FINISHED: Role.ANYONE},
    "record": {ACTIVE: Role.ANYONE, FINISHED: Role.ANYONE},
    "replay": {FINISHED: Role.ANYONE},
}

# What a person is told when the status is wrong for the command: by status, then by command where it differs.
_WRONG_STATUS = {
    LOBBY: N_("Game #{id} has not started yet — /join, then /start it."),
    ACTIVE: N_("Game #{id} is already running — {what} works only while the table is open."),
    FINISHED: N_("Game #{id} is over — /history shows it; /new opens a new table."),
    ABORTED: N_("Game #{id} was aborted — /new opens a new table."),
}
_WHAT = {"join": "/join", "leave": "/leave", "add_ai": "/addai", "start": "/start"}
_NOT_ALLOWED = {
    Role.SEATED: N_("You are not playing in game #{id}."),
    Role.SEATED | Role.CREATOR: N_("Only a seated player can start #{id}: /join first."),
    Role.SEATED | Role.CREATOR | Role.ADMIN: N_("Only a player at table #{id} (or an admin of its chat) can add "
                                                "an AI."),
    Role.CREATOR | Role.ADMIN: N_("Only the creator of #{id} or an admin of its chat can abort it."),
}


@dataclass(frozen=True)
class Actor:
    """Who is asking, relative to one game."""

    seated: bool = False
    creator: bool = False
    admin: bool = False  # admin of the game's own chat

    @property
    def roles(self) -> Role:
        roles = Role.ANYONE
        if self.seated:
            roles |= Role.SEATED
        if self.creator:
            roles |= Role.CREATOR
        if self.admin:
            roles |= Role.ADMIN
        return roles


def allowed_statuses(command: str) -> tuple[str, ...]:
    return tuple(TABLE[command])


def check(command: str, game_id: int, status: str, actor: Actor) -> None:
    """Raise the friendly refusal unless ``actor`` may use ``command`` on a game in ``status``."""
    cells = TABLE[command]
    if status not in cells:
        raise ServiceError(translate(_WRONG_STATUS[status], id=game_id, what=_WHAT.get(command, command)))
    needed = cells[status]
    if needed == Role.SEATED and status == LOBBY and not actor.seated:
        raise ServiceError(_("You have no seat at table #{id}.", id=game_id))
    if not (needed & actor.roles):
        raise ServiceError(translate(_NOT_ALLOWED.get(needed, N_("You cannot do that in #{id}.")), id=game_id))
