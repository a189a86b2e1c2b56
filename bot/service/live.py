"""The in-memory picture of an active game, so that a move costs a few writes and no reads.

The database stays the truth: every change is written (version-checked) before the
picture is updated, and a ``StaleVersion`` (another process moved) drops the picture
so the next call reloads it.
"""
from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

import rules
from rules.ai import ai_name
from rules.ai.names import ROBOT
from rules.api import Event, Game, State
from bot import i18n
from bot.service.languages import chat_language
from bot.service.chat_settings import DEFAULT_SETTINGS, effective
from bot.service.messages import ChatRef, UserRef

RECENT_LINES = 3  # the public board's header: the last public events (each person is told all of them in their own message)
LOG_KEPT = 400  # recent moves kept, so each person is told everything since their previous turn


@dataclass
class LiveSeat:
    seat: int
    player_id: int | None
    user: UserRef | None
    name: str
    ai_level: str | None
    resigned: bool
    dm_ok: bool | None = None  # private messages reach this person (None: not known yet)
    language: str | None = None  # their private texts' language: chosen, else their app's (None: the chat's)
    notify: dict | None = None  # their /notify settings and /away periods as last read (``clocks.py``)

    @property
    def is_ai(self) -> bool:
        return self.user is None or self.resigned


@dataclass
class LiveGame:
    id: int
    game: Game
    chat: ChatRef
    chat_db_id: int
    created_by: int
    seed: int
    status: str
    version: int
    state: State
    seats: list[LiveSeat]  # indexed by engine seat
    moves: int  # number of logged moves: the next seq
    settings: dict
    timer_seats: set[int] = field(default_factory=set)
    clocks: dict | None = None  # time banks (``clocks.py``) as stored with the current version; None: live timer
    settings_read: float = field(default_factory=time.monotonic)  # when ``settings`` were read from the chat
    # the last public events the board tells (events, not lines: each board says them in its chat's language)
    recent: deque = field(default_factory=lambda: deque(maxlen=RECENT_LINES))
    # the private part of each person's view as last sent (``telling.private_part``): compared (dict equality, no
    # hashing or JSON) to send a hand only when what only they see changed; views of committed states are never
    # mutated (a move applies to a clone)
    shown_views: dict[int, dict] = field(default_factory=dict)
    turn_line: bool = False  # the group shows a turn line naming someone (retired when nobody needs one)
    log: deque = field(default_factory=lambda: deque(maxlen=LOG_KEPT))  # (seq, seat, [Event]) of recent moves
    # seats that asked for a hint since their last move: their next move is stored as made after a hint
    hinted_seats: set[int] = field(default_factory=set)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def turn_timer(self) -> int:
        return int(self.settings.get("turn_timer", DEFAULT_SETTINGS["turn_timer"]))

    def seat_of(self, user: UserRef) -> LiveSeat | None:
        return next((s for s in self.seats if s.user is not None and not s.resigned
                     and s.user.platform == user.platform and s.user.id == user.id), None)

    def humans(self) -> list[LiveSeat]:
        return [s for s in self.seats if not s.is_ai]

    def remember(self, seq: int, seat: int | None, events: list[Event]) -> None:
        self.log.append((seq, seat, events))
        self.remember_public(events)

    def remember_public(self, events: list[Event]) -> None:
        for event in events:
            if event.audience is None and self.game.describe_event(event):
                self.recent.append(event)


def seat_name(player_name: str | None, resigned: bool, position: int, seat: int | None = None,
              ai_label: str | None = None, lang: str | None = None) -> str:
    """A person's name (an AI plays the seat of one who resigned: "🤖 Alice"); an AI seat's name says its level
    (``ai_label``, from ``seat_names``), else it is named by its seat number in ``lang`` (the chat's language, as
    the level names are; None: the language current now) — "🤖 IA 2" in French."""
    if player_name is not None and not resigned:
        return player_name
    if player_name is not None:
        return f"🤖 {player_name}"
    if ai_label:
        return ai_label
    with i18n.using(lang):
        # TRANSLATORS: the name of an AI seat by its seat number, when it has no level name ("🤖 AI 2")
        return ROBOT + i18n._("AI {number}", number=(seat if seat is not None else position) + 1)


def seat_names(seats, lang: str | None = None) -> dict[int, str]:
    """The name of every seat row by ``position``: people by their name, AI seats by their level, the k-th AI
    of a level in join order getting the k-th name (``rules.ai.ai_name``) — the same in the lobby, on the board,
    in the log and in the result, since join positions never change. AI names are said in ``lang``, the chat's
    language: one name for everybody who reads about the seat."""
    count: dict[str, int] = {}
    out: dict[int, str] = {}
    for s in sorted(seats, key=lambda s: s.position):
        label = None
        if s.player is None:
            level = s.ai_level or "greedy"
            with i18n.using(lang):
                label = ai_name(level, count.get(level, 0))
            count[level] = count.get(level, 0) + 1
        out[s.position] = seat_name(s.player.name if s.player else None, s.resigned, s.position, s.seat, label, lang)
    return out


def load_live(row, chat_row, chat: ChatRef, move_count: int, recent_moves: list,
              timer_seats: set[int]) -> LiveGame:
    """Build the picture from the stored rows (game with seats and players, chat, recent move events)."""
    game = rules.get_game(row.game)
    seats: list[LiveSeat] = []
    names = seat_names(row.seats, chat_language(chat_row.settings) if chat_row is not None else None)
    for s in sorted((s for s in row.seats if s.seat is not None), key=lambda s: s.seat):
        user = UserRef(s.player.platform, s.player.external_id, s.player.name) if s.player else None
        seats.append(LiveSeat(s.seat, s.player_id, user, names[s.position], s.ai_level, s.resigned,
                              s.player.dm_ok if s.player else None,
                              (s.player.language or s.player.locale) if s.player else None,
                              s.player.notify if s.player else None))
    live = LiveGame(id=row.id, game=game, chat=chat, chat_db_id=chat_row.id, created_by=row.created_by,
                    seed=row.seed, status=row.status, version=row.version, state=game.from_json(row.state),
                    seats=seats, moves=move_count, settings=effective(chat_row.settings),
                    timer_seats=timer_seats, clocks=row.clocks)
    for move in recent_moves:  # rows of the move log, oldest first (those taken back are not told)
        if move.taken_back:
            continue
        live.remember(move.seq, move.seat, [Event.from_json(e) for e in move.events])
    live.hinted_seats = pending_hints(row.hints, recent_moves, move_count)
    return live


def pending_hints(hints: dict | None, recent_moves: list, move_count: int) -> set[int]:
    """The seats whose stored hint (``games.hints``: seat → the move count when they asked) no move of theirs
    followed yet (one taken back does not count). A hint older than the recent moves read counts as followed
    (nobody waits that long)."""
    first = recent_moves[0].seq if recent_moves else move_count
    return {int(seat) for seat, asked in (hints or {}).items() if asked >= first and not any(
        m.seat == int(seat) and m.seq >= asked and not m.taken_back for m in recent_moves)}
