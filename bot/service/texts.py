"""Fixed texts of the bot: help and the list of games."""
from __future__ import annotations

import rules

HELP_TEXT = """⚔ Herald hosts medieval tabletop games here.
/new <game> [options] — open a table (several can run in one chat)
/join, /leave — take or leave a seat · /addai [greedy|strong|random] — add an AI
/start — start when enough seats are taken
/hand — your private view and move buttons · /move <notation> — type a move
/hint — privately, what the strong AI would play (the game is then not rated)
/board — show the board again · /games — games of this chat
/resign — an AI takes your seat · /abort — creator or admin ends a game
/rules <game> — how to play · /leaderboard [game] · /stats [@user] · /history
/settings — turn timer and more (admins) · /newseason [game] — a new league season (admins)
Add a table number when several games run, e.g. /join 12."""


def game_list_text() -> str:
    lines = []
    for name, game in sorted(rules.GAMES.items()):
        lines.append(f"• {name} — {game.title} ({game.min_players}–{game.max_players} players)")
    return "\n".join(lines)
