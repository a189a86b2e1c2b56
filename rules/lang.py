"""Texts of the engines in the reader's language, without the engines knowing about chats or catalogs.

An engine marks a text it shows people (a board line, an event, a move label, a refusal, its rules summary) as
``_("Trick won by {P1}.", ...)`` and plural forms as ``ngettext(...)``; the bot installs its translator at start
(``bot/i18n.py`` calls ``install``), which speaks the language of the text being built. Without it (the engines'
own tests, the bench) texts stay English. Extraction (``babel.cfg``) reads ``rules/`` too: one catalog for all.

Names of players stay ``{P1}``-style placeholders (the bot substitutes them after translation): pass them as
values, e.g. ``_("{player} plays {card}.", player=f"{{P{seat + 1}}}", card=card)``.

The reader's own actions: "You play 7♥" cannot be made from "{P1} plays 7♥" by rules of grammar in Dutch, German
or French, so every language writes that line itself. Whoever builds a text for one seat (the narration, a private
board) says so with ``with reading(seat):``; an engine writes a sentence about a seat as
``mine(seat, N_("{who} plays {card}."), N_("You play {card}."), card=c)``, which picks the reader's own form when the
seat is the reader and translates it. Outside a reading scope (the public channel, the engines' tests) it is always
the third person.
"""
from __future__ import annotations

import contextlib
import re
from contextvars import ContextVar
from typing import Callable, Sequence


def _english(message: str, **values) -> str:
    return message.format(**values) if values else message


def _english_plural(singular: str, plural: str, n: int, **values) -> str:
    values.setdefault("n", n)
    return (singular if n == 1 else plural).format(**values)


_translate: Callable[..., str] = _english
_translate_plural: Callable[..., str] = _english_plural


_language: Callable[[], str] = lambda: "en"
_reader: ContextVar[int | None] = ContextVar("herald_reader", default=None)


def install(translate: Callable[..., str], translate_plural: Callable[..., str],
            language: Callable[[], str] | None = None) -> None:
    """Route the engines' texts through a translator (``translate(message, **values)``, and the plural form);
    ``language()`` tells the language being built (English when not given)."""
    global _translate, _translate_plural, _language
    _translate, _translate_plural = translate, translate_plural
    if language is not None:
        _language = language


def language() -> str:
    """The language texts are being built in now (``en`` without the bot)."""
    return _language()


def reader() -> int | None:
    """The seat the text being built is for (None: the public channel / everybody)."""
    return _reader.get()


@contextlib.contextmanager
def reading(seat: int | None):
    """Build texts for ``seat`` inside the block: ``mine`` speaks to it in the second person."""
    token = _reader.set(seat if isinstance(seat, int) and not isinstance(seat, bool) else None)
    try:
        yield
    finally:
        _reader.reset(token)


def who(seat: int) -> str:
    """The name placeholder of a 0-based seat (``{P1}``), filled in by the bot after translation."""
    return f"{{P{seat + 1}}}"


def mine(seat: int | None, other: str, own: str, **values) -> str:
    """``other`` (``{who}`` is the seat's name) translated, or ``own`` — the sentence said to the reader — when
    ``seat`` is the reader; both are marked with ``N_`` where they are written."""
    if seat is not None and seat == _reader.get():
        return _translate(own, **values)
    return _translate(other, who=who(seat) if isinstance(seat, int) else "?", **values)


def ours(seats: Sequence[int], other: str, own: str, **values) -> str:
    """A sentence about two seats or more at once (``N_("{who} pass")``, ``{who}`` all of them joined by " and "),
    or ``own`` when the reader is one of them: ``N_("{who} and you pass")`` with ``{who}`` the others and the reader
    last. The verb agrees with "you and Ann" — French "Ann et toi passez", German "Ann und du passt", Dutch "Ann en
    jij passen" — which no rule can make of the third-person sentence, so every language writes it (as ``mine``)."""
    reader = _reader.get()
    if reader in seats:  # "Cy, Di and you pass": the others listed with commas before the sentence's own "and"
        return _translate(own, who=", ".join(who(s) for s in seats if s != reader), **values)
    return _translate(other, who=listed([who(s) for s in seats]), **values)


def listed(items: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C`` (the last "and" in the language being built: "et", "und", "en")."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + _(" and ") + items[-1]


_IRREGULAR = {"has": "have", "is": "are", "does": "do", "goes": "go"}


def speak_to(text: str, seat: int) -> str:
    """``{P2} answers there.`` → ``You answer there.`` in seat 1's own view (0-based ``seat`` 1): the seat's
    placeholder followed by a verb becomes "you" with the verb's base form; other uses of it (``P2 {P2} (you)``)
    stay, to be filled in with the name. English only: other languages write the reader's own lines (``mine``)."""

    def base(verb: str) -> str | None:
        if verb in _IRREGULAR:
            return _IRREGULAR[verb]
        if len(verb) < 4 or not verb.endswith("s") or verb.endswith("ss") or verb in ("cards", "points"):
            return None
        for end in ("sses", "ches", "shes", "xes"):
            if verb.endswith(end):
                return verb[:-2]
        return verb[:-1]

    def fill(match) -> str:
        verb = base(match.group(1))
        if verb is None:
            return match.group(0)
        head = text[:match.start()].rstrip(" ")
        before = head.rstrip()
        word = "You" if not before or head.endswith("\n") or before[-1] in ".:!?·—" else "you"
        return f"{word} {verb}"

    return re.sub(r"\{P" + str(seat + 1) + r"\} ([a-z]+)\b", fill, text)


def _(message: str, **values) -> str:
    return _translate(message, **values)


def ngettext(singular: str, plural: str, n: int, **values) -> str:
    return _translate_plural(singular, plural, n, **values)


def translate(message: str, **values) -> str:
    """``_`` for a text held in a variable or looked up (marked with ``N_`` where it is written): extraction reads
    only literal arguments of ``_``, and would take a key like ``d['kind']`` for a text."""
    return _translate(message, **values)


# the colours' names, said where a colour stands alone (a trump, a hidden colour) in another language than English
COLOUR_NAMES = {"red": "red", "yellow": "yellow", "green": "green", "blue": "blue", "purple": "purple",
                "black": "black"}  # (msgids of rules/koenig_artus/text.py's COLOUR_NAMES)


def colour_label(mark: str, letter: str, colour: str) -> str:
    """A colour standing alone: ``🟩G`` in English (the letter cards are typed with), ``🟩 vert`` in the other
    languages, where an English letter would be a foreign word in the sentence (the name keeps it colour-blind
    safe)."""
    if language() == "en":
        return f"{mark}{letter}"
    return f"{mark} {_translate(COLOUR_NAMES[colour])}" if colour in COLOUR_NAMES else f"{mark}{letter}"


def semicolon() -> str:
    """The "; " between two clauses of one line, as the language writes it (French: " ; ")."""
    # TRANSLATORS: the separator of two clauses in one line ("A takes R3; B gets G6"); French: " ; "
    return _("; ")


def colon() -> str:
    """The ": " after a lead-in built from pieces ("Ann K♠ vs Bob J♠: Bob plays first"), as the language writes it
    (French: " : ")."""
    # TRANSLATORS: the colon after a lead-in built in code ("Ann K♠ vs Bob J♠: Bob plays first"); French: " : "
    return _(": ")


def places(view: dict) -> list[int] | None:
    """Each seat's place in a finished game as the table is told it: the bot's ``places`` when the view carries
    them (a seat that resigned is last, as in the result, /history and the ratings), else the engine's
    ``ranking``. A board that crowns someone reads this, never the engine's winner alone."""
    return view.get("places") or view.get("ranking")


def crowned_instead(view: dict, engine_first: Sequence[int]) -> str | None:
    """The winner line of a finished view when the engine's winners are not the ones the result names (a winner
    on the table resigned: the best of those who stayed win, as the result, /history and the ratings say it);
    None when the engine's own winner line is true."""
    first = [p for p, r in enumerate(view.get("places") or []) if r == 1]
    if not first or sorted(first) == sorted(engine_first):
        return None
    if len(first) == 1:
        return "🏆 " + mine(first[0], N_("{who} wins!"), N_("You win!"))
    return "🏆 " + _("{winners} win!", winners=_(" and ").join(who(p) for p in first))


def N_(message: str) -> str:
    """Marks a text for extraction; translate it where it is shown (``_(variable)``)."""
    return message


# Colour words people type in Dutch, German and French, in every form a board shows or a sentence needs ("rotes
# Haus", "rode toren", "tour bleue", "die rote 7"): whole words only, as aliases of the notation's English colours
# (Dutch initials would clash — geel/groen — so one-letter codes stay English).
COLOUR_FORMS = {
    "red": "rot rote roten roter rotes rood rode rouge rouges",
    "yellow": "gelb gelbe gelben gelber gelbes geel gele jaune jaunes",
    "green": "grün grüne grünen grüner grünes gruen gruene gruenen gruener gruenes groen groene "
             "vert verte verts vertes",
    "blue": "blau blaue blauen blauer blaues blauw blauwe bleu bleue bleus bleues",
    "purple": "lila paars paarse violet violette violets violettes",
    "black": "schwarz schwarze schwarzen schwarzer schwarzes zwart zwarte noir noire noirs noires",
}


def colour_aliases(codes: dict[str, object]) -> dict[str, object]:
    """The local words of each English colour in ``codes`` (``{"red": "R", ...}``), mapped to its code."""
    return {word: code for colour, code in codes.items() for word in COLOUR_FORMS[colour].split()}
