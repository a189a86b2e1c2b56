"""The read model of a game's page: the result, and the replay — the board and the narration of one step as one
viewer sees it (the records' ``Replay``, ``bot/service/replay.py``).

A finished game may be seen from the table, from any seat, or everything at once (what its record allows); a
running game only from the table, and only as it is now: its page never shows more than ``view(None)``.
"""
from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timezone

from bot import i18n
from bot.i18n import _
from bot.service import web_views
from bot.web.league import shown_name
from storage.models import Chat

PUBLIC, ALL = "public", "all"
REPLAYS_KEPT = 64  # finished games' replays kept in memory: stepping through one rebuilds nothing already built


@dataclass
class GamePage:
    id: int
    game: str
    title: str
    finished: bool
    finished_at: datetime | None
    names: list[str]
    result: list[str]
    viewer: str  # "public", a seat number as text, or "all"
    viewers: list[tuple[str, str]]  # (code, label) the game may be seen as
    step: int
    steps: int
    board_text: str
    view: dict = field(repr=False)  # the board's view (public)
    hand: dict | None = field(default=None, repr=False)  # a seat's own view, when seen from a seat
    narration: list[str] = field(default_factory=list)
    action: str | None = None  # who did what at this step
    has_picture: bool = False
    clocks: str | None = None  # a running game's time banks, as they stand now

    def pictures(self) -> list[str]:
        """The viewers whose picture the page shows: the board, and a seat's hand when seen from a seat."""
        if not self.has_picture:
            return []
        return [PUBLIC] + ([self.viewer] if self.hand is not None else [])


class Replays:
    """Finished games' replays kept by one web app (one database): (game id, version) → replay."""

    def __init__(self) -> None:
        self.kept: OrderedDict[tuple[int, int], object] = OrderedDict()

    def __contains__(self, key: tuple[int, int]) -> bool:
        return key in self.kept


async def _replay(uow, chat: Chat, game_id: int, version: int, replays: Replays):
    """The game's replay; a finished game's is kept (it never changes), a running game's is built anew."""
    key = (game_id, version)
    if key in replays.kept:
        replays.kept.move_to_end(key)
        replay = replays.kept[key]
        return replay if replay.chat_id == chat.id else None
    replay = await web_views.replay_of(uow, game_id, chat.id)
    if replay is not None and replay.over:
        replay.chat_id = chat.id
        replays.kept[key] = replay
        while len(replays.kept) > REPLAYS_KEPT:
            replays.kept.popitem(last=False)
    return replay


def _viewer(code: str | None, allowed: list) -> int | str | None:
    """The viewer an address asks for, if the record allows it (else the table)."""
    wanted: int | str | None = None
    if code == ALL:
        wanted = web_views.ALL
    elif code is not None and code.isascii() and code.isdigit() and len(code) < 3:
        wanted = int(code)
    return wanted if wanted in allowed else None


def _code(viewer: int | str | None) -> str:
    return PUBLIC if viewer is None else ALL if viewer == web_views.ALL else str(viewer)


async def game_page(uow, chat: Chat, game_id: int, viewer: str | None, step: int | None,
                    replays: Replays) -> GamePage | None:
    """The page of a started game of this chat at ``step`` from ``viewer``; None when there is no such game."""
    row = await uow.pages.game_in(chat.id, game_id)
    if row is None or row.state is None:
        return None
    seats = {s.seat: s for s in row.seats if s.seat is not None}
    if row.status == "finished" and viewer in (None, PUBLIC) and step is None and (game_id, row.version) not in replays:
        return await _final(uow, chat, row, seats)  # a first look: the stored end, the replay is built when stepped
    replay = await _replay(uow, chat, game_id, row.version, replays)
    if replay is None:
        return None
    names = [shown_name(seats[i].player if i in seats else None, name) for i, name in enumerate(replay.names)]
    finished = replay.over
    allowed = replay.viewers() if finished else [None]
    who = _viewer(viewer, allowed)
    at = replay.steps if not finished or step is None else min(step, replay.steps)
    replay.names = names  # the narration names seats as the pages do (a hidden name stays hidden)
    view = replay.view(at, who)
    board = view["public"] if who == web_views.ALL else view if who is None else replay.view(at, None)
    hand = view if isinstance(who, int) else None
    labels = {None: _("Table"), web_views.ALL: _("Everything")}
    result = web_views.result_lines(row.game, row.result, names) if finished and row.result else []
    actor = replay.actor(at) if finished else None
    action = replay.action(at) if finished else None
    return GamePage(
        row.id, row.game, web_views.game_title(row.game), finished, row.finished_at, names, result, _code(who),
        [(_code(v), labels.get(v) if not isinstance(v, int) else names[v]) for v in allowed],
        at if finished else 0, replay.steps if finished else 0,
        web_views.view_text(row.game, view, names, who), board, hand,
        replay.narration(at, who) if finished else [],
        f"{names[actor]}: {action}" if actor is not None and action else None,
        web_views.has_picture(row.game),
        None if finished else web_views.time_left(row.clocks, names, {s: seats[s].player.notify for s in seats
                                                                      if seats[s].player is not None},
                                                  datetime.now(timezone.utc)))


async def _final(uow, chat: Chat, row, seats) -> GamePage:
    """A finished game's page at its last step from the table, read from the stored end (no replay needed)."""
    told = (row.result or {}).get("names") or []
    names = [shown_name(seats[i].player if i in seats else None, told[i] if i < len(told) else "?")
             for i in range(max(len(told), len(seats)))]
    text, view = web_views.public_board(row.game, row.state, names)
    steps = await uow.games.move_count(row.id)
    last = await uow.games.last_moves(row.id, 1)
    narration = web_views.last_told(row.game, last[0].events, names) if last else []
    action = f"{names[last[0].seat]}: {web_views.notation(row.game, last[0].action)}" if last else None
    viewers = [(PUBLIC, _("Table"))]
    if (chat.settings or {}).get("reveal_after_end", "on") != "off":  # as the records decide (audience_for)
        viewers += [*[(str(i), name) for i, name in enumerate(names)], (ALL, _("Everything"))]
    return GamePage(row.id, row.game, web_views.game_title(row.game), True, row.finished_at, names,
                    web_views.result_lines(row.game, row.result, names) if row.result else [], PUBLIC, viewers,
                    steps, steps, text, view, None, narration, action, web_views.has_picture(row.game))


_pictures: OrderedDict[str, bytes | None] = OrderedDict()
PICTURES_KEPT = 128


async def picture_of(page: GamePage, lang: str, whose: str) -> bytes | None:
    """The picture of the board (``whose`` "public") or of the page's seat's hand, drawn off the event loop and
    kept by what it shows (the same picture is drawn once)."""
    import asyncio

    view = page.view if whose == PUBLIC else page.hand if whose == page.viewer else None
    if view is None:
        return None
    key = hashlib.sha1(json.dumps([page.game, view, page.names, lang], sort_keys=True,
                                  default=str).encode()).hexdigest()
    if key in _pictures:
        _pictures.move_to_end(key)
        return _pictures[key]

    def draw() -> bytes | None:
        with i18n.using(lang):
            return web_views.picture(page.game, view, page.names)

    png = await asyncio.get_running_loop().run_in_executor(None, draw)
    _pictures[key] = png
    while len(_pictures) > PICTURES_KEPT:
        _pictures.popitem(last=False)
    return png
