"""Jinja2 templates in the project's catalogs: ``_`` and ``ngettext`` in a template are ``bot.i18n``'s, so a page
speaks its chat's language like the bot does (``pybabel extract`` reads the templates too: babel.cfg)."""
from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from bot import i18n

TEMPLATES = Path(__file__).resolve().parent / "templates"

_env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(("html",)),
                   trim_blocks=True, lstrip_blocks=True, auto_reload=False)
_env.globals.update(_=i18n._, ngettext=i18n.ngettext)


def render(name: str, lang: str, **values) -> str:
    """The template ``name`` in ``lang`` (every user text escaped by autoescape)."""
    with i18n.using(lang):
        return _env.get_template(name).render(lang=i18n.language(), **values)
