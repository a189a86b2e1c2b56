"""Fixed texts of the bot: help and the list of games, in the language of the text being built.

The help is one catalog entry per line, so a new command adds one line to translate, not a whole new text.
"""
from __future__ import annotations

import rules
from bot.i18n import N_, _, translate

HELP_LINES = (
    N_("⚔ Herald hosts medieval tabletop games here."),
    N_("/new <game> [options] — open a table (several can run in one chat)"),
    N_("/join, /leave — take or leave a seat · /addai [greedy|strong|random] — add an AI"),
    N_("/start — start when enough seats are taken"),
    N_("/hand — your private view and move buttons · /move <notation> — type a move"),
    N_("/hint — privately, what the strong AI would play (the game is then not rated)"),
    N_("/board — show the board again · /games — games of this chat"),
    N_("/mygames — every game you sit in, anywhere; those waiting for you first"),
    N_("/resign — an AI takes your seat · /abort — creator or admin ends a game"),
    N_("/rules <game> — how to play · /leaderboard [game] · /stats [@user] · /history"),
    N_("/settings — turn timer and more (admins) · /newseason [game] — a new league season (admins)"),
    N_("/log [n] — what happened in the game · /settings mylanguage=de — your language"),
    N_("Add a table number when several games run, e.g. /join 12."),
)


def help_text() -> str:
    return "\n".join(translate(line) for line in HELP_LINES)


def game_list_text() -> str:
    lines = []
    for name, game in sorted(rules.GAMES.items()):
        lines.append(_("• {name} — {title} ({least}–{most} players)", name=name, title=game.title,
                       least=game.min_players, most=game.max_players))
    return "\n".join(lines)
