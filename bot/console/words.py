"""The console's own words: its help, its menu line, and how the service's lines are spoken to the one
person at the keyboard."""
from __future__ import annotations

import os
import re
import shlex
import sys

from bot import i18n
from bot.i18n import N_, _
from bot.service import UserRef
from bot.service.narration import personal

YOU = UserRef("console", "you", "You")  # the console person; named in the table's language when a game starts

HELP = N_("""Choose step by step: type the number of an option (several at once for a set of cards, e.g. 1 3),
`back` undoes your last step, `done` finishes a set. Or type a whole move in the game's notation
(with or without /move), e.g. what `rules` shows.
Commands: board (the full table), hand (your view), log [n] (the last n lines of the game), rules, help,
hint (what the strong AI would play; the game is then not rated), resign, quit.""")
# the menu line: command words, which are English in every language (said once in the help: COMMAND_WORDS), and no
# translated word among them ("nummer · back · een zet" mixed two languages in one line)
COMMANDS = "(1–{n} · back · /move … · board · hand · log · rules · help · hint · resign · quit)"
COMMAND_WORDS = N_("The command words (back, done, board, hand, log, rules, help, hint, resign, quit) are English "
                   "in every language.")
# the line the rules summaries start their notation with (each language's summary says it in its words)
BUTTONS_PHRASE = N_("How to play here (buttons, or /move with):")
CHOSEN = "Chosen so far"  # how the service's picker starts the line of what was chosen (views/picker)


def _plain(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if line.strip() != "```")


def console_rules(text: str) -> str:
    """The /rules text as the console offers it: its numbered menu, not buttons."""
    menu = _("How to play here (choose from the numbered menu, or type a move, with or without /move):")
    return text.replace(BUTTONS_PHRASE, menu).replace(i18n.translate(BUTTONS_PHRASE), menu).replace(
        "buttons, or /move", _("the numbered menu, or type"))


def you() -> UserRef:
    """The console person, named in the language being spoken ("You", "Jij", "Du", "Toi"): the board, the seat
    list and the final result name you so."""
    return UserRef(YOU.platform, YOU.id, _("You"))


def addressed(line: str, name: str) -> str:
    """A line the service wrote with your name in it, spoken to you: "You plays" → "You play", "You's" → "your".
    English only: another language's verb cannot be turned by a rule, and there your name is a word of that
    language ("Du"), left as it is (the lines about you are narrated for you instead, ``Console.board_news``)."""
    if i18n.language() != "en":
        return line
    return personal(re.sub(rf"(?<![\w{{])(?<!P\d ){re.escape(name)}(?=\W|$)", "{P1}", line), 0, [name])


def _strip_move(line: str) -> str:
    """``/move X``, ``move X`` and ``X`` alike."""
    for prefix in ("/move ", "move ", "/m "):
        if line.lower().startswith(prefix):
            return line[len(prefix):].strip()
    return line


def command_line(arguments: str) -> str:
    """The command that plays again from here: the Python running Herald now (the venv's, ``.venv/bin/python``,
    relative when it is below the current folder), so it works outside an activated venv too."""
    python = sys.executable
    relative = os.path.relpath(python)
    shown = relative if not relative.startswith("..") else python
    if os.sep not in shown:
        shown = "." + os.sep + shown
    return f"{shlex.quote(shown)} -m bot play {arguments}"
