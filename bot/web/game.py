"""The read model of a game's page: the result and the board as one viewer sees it at one step.

A running game shows its current public view only (``view(None)``), whatever the address asks. A finished game
shows its result and the final board, from the public seat, a seat, or everything.
"""
from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime

from bot.i18n import _
from bot.service import web_views
from bot.web.league import shown_name
from storage.models import Chat

PUBLIC = "public"


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
    viewers: list[tuple[str, str]]  # (code, label) a finished game may be seen from
    step: int
    steps: int
    board_text: str
    view: dict = field(repr=False)
    narration: list[str] = field(default_factory=list)
    has_picture: bool = False


def _names(row) -> list[str]:
    """The seats' names as the pages show them (hidden where a person asked)."""
    stored = (row.result or {}).get("names") or []
    seats = {s.seat: s for s in row.seats if s.seat is not None}
    count = max(len(stored), len(seats))
    return [shown_name(seats[i].player if i in seats else None,
                       stored[i] if i < len(stored) else _("AI {n}", n=i + 1)) for i in range(count)]


async def game_page(uow, chat: Chat, game_id: int, viewer: str | None, step: int | None) -> GamePage | None:
    """The page of a started game of this chat; None when there is none."""
    row = await uow.pages.game_in(chat.id, game_id)
    if row is None or row.state is None:
        return None
    names = _names(row)
    finished = row.status == "finished"
    text, view = web_views.public_board(row.game, row.state, names)
    result = web_views.result_lines(row.game, row.result, names) if finished and row.result else []
    return GamePage(row.id, row.game, web_views.game_title(row.game), finished, row.finished_at, names, result,
                    PUBLIC, [(PUBLIC, _("Public"))], 0, 0, text, view,
                    has_picture=web_views.has_picture(row.game))


_PICTURES: OrderedDict[str, bytes | None] = OrderedDict()
KEPT = 128


def picture_of(page: GamePage, lang: str) -> bytes | None:
    """The picture of the page's view, kept by what it shows (the same board is drawn once)."""
    from bot import i18n

    key = hashlib.sha1(json.dumps([page.game, page.view, page.names, lang], sort_keys=True,
                                  default=str).encode()).hexdigest()
    if key in _PICTURES:
        _PICTURES.move_to_end(key)
        return _PICTURES[key]
    with i18n.using(lang):
        png = web_views.picture(page.game, page.view, page.names)
    _PICTURES[key] = png
    while len(_PICTURES) > KEPT:
        _PICTURES.popitem(last=False)
    return png
