"""Texts of the engines in the reader's language, without the engines knowing about chats or catalogs.

An engine marks a text it shows people (a board line, an event, a move label, a refusal, its rules summary) as
``_("Trick won by {P1}.", ...)`` and plural forms as ``ngettext(...)``; the bot installs its translator at start
(``bot/i18n.py`` calls ``install``), which speaks the language of the text being built. Without it (the engines'
own tests, the bench) texts stay English. Extraction (``babel.cfg``) reads ``rules/`` too: one catalog for all.

Names of players stay ``{P1}``-style placeholders (the bot substitutes them after translation): pass them as
values, e.g. ``_("{player} plays {card}.", player=f"{{P{seat + 1}}}", card=card)``.
"""
from __future__ import annotations

from typing import Callable


def _english(message: str, **values) -> str:
    return message.format(**values) if values else message


def _english_plural(singular: str, plural: str, n: int, **values) -> str:
    values.setdefault("n", n)
    return (singular if n == 1 else plural).format(**values)


_translate: Callable[..., str] = _english
_translate_plural: Callable[..., str] = _english_plural


def install(translate: Callable[..., str], translate_plural: Callable[..., str]) -> None:
    """Route the engines' texts through a translator (``translate(message, **values)``, and the plural form)."""
    global _translate, _translate_plural
    _translate, _translate_plural = translate, translate_plural


def _(message: str, **values) -> str:
    return _translate(message, **values)


def ngettext(singular: str, plural: str, n: int, **values) -> str:
    return _translate_plural(singular, plural, n, **values)


def N_(message: str) -> str:
    """Marks a text for extraction; translate it where it is shown (``_(variable)``)."""
    return message
