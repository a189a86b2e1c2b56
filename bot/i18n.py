"""Languages: gettext catalogs (Babel) and the language a text is being built in.

Why a context variable and not one global language: one service call builds messages for many people — a chat's
public text in the chat's language, each private text in its owner's language. The language is therefore scoped
to the text being built: ``with using("nl"): text = _("…")``. The service sets the asker's language around every
command (errors and replies), and narrower scopes around public and private messages.

Catalogs are ``bot/locale/<lang>/LC_MESSAGES/herald.po`` (the template ``herald.pot`` is extracted with
``pybabel extract -F babel.cfg``). They are compiled in memory on first use, so a ``pip install -e .``, a wheel
and the Docker image need no build step and no binary ``.mo`` is committed. Fuzzy entries are not used.

Messages are ``str.format`` templates with named placeholders: ``_("There is no game #{number}.", number=n)``;
plurals go through ``ngettext(singular, plural, n, **placeholders)`` (``{n}`` is always available).
"""
from __future__ import annotations

import contextlib
import gettext
import io
import logging
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

log = logging.getLogger(__name__)

LANGUAGES = ("en", "nl", "de", "fr")
NAMES = {"en": "English", "nl": "Nederlands", "de": "Deutsch", "fr": "Français"}
DEFAULT = "en"
DOMAIN = "herald"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

_current: ContextVar[str] = ContextVar("herald_language", default=DEFAULT)


def supported(locale: str | None) -> str | None:
    """The catalog language for a platform locale (``nl``, ``de-AT``, ``en_GB``, discord.Locale), or None."""
    if locale is None or locale in LANGUAGES:  # the common case: a language already decided (every message)
        return locale
    code = str(getattr(locale, "value", locale)).strip().lower().replace("_", "-").split("-")[0]
    return code if code in LANGUAGES else None


@lru_cache(maxsize=None)
def translator(lang: str | None) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English, the source language, when it has none)."""
    lang = supported(lang) or DEFAULT
    po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if lang == DEFAULT or not po.exists():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    try:
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        buffer = io.BytesIO()
        write_mo(buffer, catalog, use_fuzzy=False)
        buffer.seek(0)
        return gettext.GNUTranslations(buffer)
    except Exception:  # a broken catalog: the bot speaks English rather than fail every command
        log.exception("the %s catalog %s cannot be read", lang, po)
        return gettext.NullTranslations()


def language() -> str:
    """The language texts are being built in now."""
    return _current.get()


@contextlib.contextmanager
def using(lang: str | None):
    """Build texts in ``lang`` inside the block (unsupported or None: keep the current language)."""
    token = _current.set(supported(lang) or _current.get())
    try:
        yield
    finally:
        _current.reset(token)


def _format(text: str, fallback: str, values: dict) -> str:
    if not values:
        return text
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):  # a broken translation: say it in English rather than fail
        log.warning("translation %r does not fit its placeholders %s", text, sorted(values))
        return fallback.format(**values)


def _(message: str, **values) -> str:
    """``message`` in the current language, its ``{placeholders}`` filled from ``values``."""
    lang = _current.get()  # English is the source language: no catalog to look in (dozens of texts a move)
    return _format(message if lang == DEFAULT else translator(lang).gettext(message), message, values)


def ngettext(singular: str, plural: str, n: int, **values) -> str:
    """The singular or plural form for ``n`` in the current language (the catalog's plural rule)."""
    values.setdefault("n", n)
    fallback = singular if n == 1 else plural
    return _format(translator(_current.get()).ngettext(singular, plural, n), fallback, values)


def N_(message: str) -> str:
    """Marks a text for extraction without translating it now (it is translated where it is shown)."""
    return message


translate = _  # for texts held in variables (marked with ``N_`` where they are written)


class L:
    """A text translated when it is shown (``str()``), in the language current then: for a note written before
    it is known who will read it."""

    __slots__ = ("message", "values")

    def __init__(self, message: str, **values):
        self.message, self.values = message, values

    def __str__(self) -> str:
        return _(self.message, **{k: str(v) if isinstance(v, L) else v for k, v in self.values.items()})

    def __bool__(self) -> bool:
        return bool(self.message)


def _install_for_engines() -> None:
    """The engines' texts (``rules/lang.py``) are translated like the bot's, in the language being built."""
    from rules import lang

    lang.install(_, ngettext, language)


_install_for_engines()


def everywhere(message: str) -> dict[str, str]:
    """``message`` in every language (for platform menus such as Telegram's command list)."""
    return {lang: translator(lang).gettext(message) for lang in LANGUAGES}
