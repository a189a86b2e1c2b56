"""What the web pages show of a game, through the engines: the public board of a stored state, the final result,
a view's picture. The web package imports no ``rules``; it asks here.

Public only unless a finished game's page asks for a seat or for everything (a finished game hides nothing
that matters any more, as the records' replay shows it); a running game is only ever shown from ``view(None)``.
"""
from __future__ import annotations

from datetime import datetime

import rules
from rules.api import Event
from rules.lang import reading
from bot.render import boards
from bot.service.clocks import periods_of, remaining
from bot.service.leagues import game_title, places_with_resigns
from bot.service import narration
from bot.service.narration import final_result_lines
from bot.service.records import ALL, PUBLIC, audience_for, build_record, load_game
from bot.service.rendering import substitute, time_left_line
from bot.service.replay import Replay

__all__ = ["game_title", "places_with_resigns", "public_board", "result_lines", "picture", "has_picture",
           "view_text", "replay_of", "last_told", "notation", "time_left", "PUBLIC", "ALL"]


def public_board(game_name: str, state: dict, names: list[str]) -> tuple[str, dict]:
    """(the text of ``view(None)`` with the seats' names, that view) of a stored snapshot."""
    game = rules.get_game(game_name)
    view = game.from_json(state).view(None)
    with reading(None):
        return page_text(substitute(game.render_view(view), names)), view


def page_text(text: str) -> str:
    """A chat's text for a page: the code fences that make a chat show a table in monospace go (the page
    shows the whole board in monospace)."""
    return "\n".join(line for line in text.split("\n") if line.strip() != "```")


def view_text(game_name: str, view: dict, names: list[str], viewer: int | str | None) -> str:
    """The text of a replay's view for a page: the board (``view(None)``), a seat's view as that seat read it,
    or for everything (``ALL``) the board and each seat's own lines under its name."""
    game = rules.get_game(game_name)
    if viewer == ALL:
        board = view_text(game_name, view["public"], names, None)
        shown = set(board.split("\n"))
        parts = [board]
        for seat, seat_view in enumerate(view["seats"]):
            own = [line for line in view_text(game_name, seat_view, names, seat).split("\n")
                   if line.strip() and line not in shown]
            if own:
                parts.append(f"— {names[seat]} —\n" + "\n".join(own))
        return "\n\n".join(parts)
    with reading(viewer if isinstance(viewer, int) else None):
        return page_text(substitute(game.render_view(view), names))


async def replay_of(uow, game_id: int, chat_id: int) -> Replay | None:
    """The replay of a started game of this chat as the web may show it: everything once it is over (unless
    the chat keeps the hands hidden after the end), only what the table saw while it runs."""
    stored = await load_game(uow, game_id)
    if stored is None or stored.chat_id != chat_id:
        return None
    return Replay(build_record(stored, audience_for(stored, None)))


def notation(game_name: str, action: dict) -> str:
    return rules.get_game(game_name).format_action(action)


def last_told(game_name: str, events: list[dict], names: list[str]) -> list[str]:
    """The public narration of a game's last move (its logged events), as the table read it."""
    game = rules.get_game(game_name)
    return narration.narrate(game, [e for e in map(Event.from_json, events) if e.visible_to(None)], None, names)


def result_lines(game_name: str, result: dict, names: list[str]) -> list[str]:
    """The final result by place, in the language current now (as the chat was told at the end)."""
    game = rules.get_game(game_name)
    resigned = set(result.get("resigned", []))
    places = places_with_resigns(result.get("ranking", []), resigned)
    return final_result_lines(game, result.get("scores", []), places, names, None, resigned)


def has_picture(game_name: str) -> bool:
    return boards.has_picture(game_name)


def picture(game_name: str, view: dict, names: list[str]) -> bytes | None:
    """The PNG of a view (the board for a public view, the hand for a seat's), or None."""
    return boards.picture(game_name, view, names)


def time_left(clocks: dict | None, names: list[str], notify: dict[int, dict | None], now: datetime) -> str | None:
    """A running game's time banks as its board says them, counted to ``now`` (``notify``: each seat's person's
    settings, whose away periods stop their bank); None for a game without banks."""
    if not clocks or "left" not in clocks:
        return None
    charged = clocks.get("charged", [])
    seats = sorted(int(s) for s in clocks["left"] if int(s) < len(names))
    return time_left_line((names[s], remaining(clocks, s, now, periods_of(notify.get(s))), s in charged)
                          for s in seats)
