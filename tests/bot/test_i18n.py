"""Languages (issue 26): the catalogs are complete, and each text speaks its reader's language.

- Every text marked in the code (extracted now, with babel.cfg) is in the template and translated in nl, de and fr,
  with the same ``{placeholders}``; plurals have every form of the language.
- Through the service on a real database: a chat's public texts speak the chat's language (default: its server's
  or first person's), answers and refusals speak the asker's (chosen, else their app's).
- The console with ``--lang nl``.
"""
from __future__ import annotations

import asyncio
import io
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from bot import i18n
from bot.console import play as play_console
from bot.i18n import L, _, ngettext, using
from bot.service import ChatRef, UserRef, build_service

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "bot" / "locale"
KEYWORDS = {"_": None, "N_": None, "L": None, "ngettext": (1, 2)}


def source_messages() -> dict:
    """msgid (or (singular, plural)) → where, for every text marked in bot/ and rules/ now."""
    found = {}
    for package in ("bot", "rules"):
        for filename, lineno, message, _comments, _context in extract_from_dir(
                str(ROOT / package), method_map=[("**.py", "python")], keywords=KEYWORDS):
            found.setdefault(message, f"{package}/{filename}:{lineno}")
    return found


def fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}


def catalog(lang: str):
    with open(LOCALE / lang / "LC_MESSAGES" / "herald.po", "rb") as handle:
        return read_po(handle, locale=lang)


def test_the_template_holds_every_marked_text():
    with open(LOCALE / "herald.pot", "rb") as handle:
        template = {m.id for m in read_po(handle) if m.id}
    missing = {where: m for m, where in source_messages().items() if m not in template}
    assert not missing, f"run pybabel extract (bot/locale/README.md); not in herald.pot: {missing}"


@pytest.mark.parametrize("lang", ["nl", "de", "fr"])
def test_every_text_is_translated_with_its_placeholders(lang):
    po = catalog(lang)
    problems = []
    for message, where in source_messages().items():
        key = message[0] if isinstance(message, tuple) else message
        entry = po.get(key)
        if entry is None or entry.fuzzy or not entry.string or not all(entry.string if isinstance(
                entry.string, tuple) else [entry.string]):
            problems.append(f"{where}: untranslated {message!r}")
            continue
        if isinstance(message, tuple):
            wanted = fields(message[0]) | fields(message[1])
            forms = list(entry.string)
            if len(forms) != po.num_plurals:
                problems.append(f"{where}: {len(forms)} plural forms, {lang} has {po.num_plurals}")
            for form in forms:
                if not fields(form) <= wanted | {"n"}:
                    problems.append(f"{where}: {form!r} has placeholders not in {message!r}")
            if not fields(forms[-1]) >= fields(message[1]) - {"n"}:
                problems.append(f"{where}: {forms[-1]!r} drops placeholders of {message[1]!r}")
        elif fields(entry.string) != fields(message):
            problems.append(f"{where}: {entry.string!r} does not keep the placeholders of {message!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", ["nl", "de", "fr"])
def test_discord_command_descriptions_fit_discords_limit(lang):
    po = catalog(lang)
    # descriptions and choice names (the English ones fit; longer texts there are messages, up to 2000)
    long = [m.string for m in po if m.id and any("bot/discord/" in path for path, _line in m.locations)
            and isinstance(m.string, str) and len(m.id) <= 100 < len(m.string)]
    assert not long


def test_plurals_follow_each_language():
    counts = {}
    for lang in i18n.LANGUAGES:
        with using(lang):
            counts[lang] = [ngettext("{n} game", "{n} games", n) for n in (0, 1, 2)]
    assert counts["en"] == ["0 games", "1 game", "2 games"]
    assert counts["nl"] == ["0 spellen", "1 spel", "2 spellen"]
    assert counts["de"] == ["0 Partien", "1 Partie", "2 Partien"]
    assert counts["fr"] == ["0 partie", "1 partie", "2 parties"]  # French: 0 is singular


async def test_each_task_builds_its_texts_in_its_own_language():
    async def say(lang):
        with using(lang):
            await asyncio.sleep(0.01)  # the others run meanwhile
            return _("There is no game #{number}.", number=3)

    assert await asyncio.gather(*(say(lang) for lang in ("nl", "de", "fr", "en"))) == [
        "Er is geen spel #3.", "Es gibt keine Partie #3.", "Il n'y a pas de partie n° 3.", "There is no game #3."]
    assert i18n.language() == "en"
    note = L("{name} joined.", name="Ann")
    with using("de"):
        assert str(note) == "Ann ist beigetreten."
    assert str(note) == "Ann joined."


def test_the_engines_texts_go_through_the_same_catalogs():
    from rules import lang

    with using("de"):
        assert lang._("There is no game #{number}.", number=4) == "Es gibt keine Partie #4."
        assert lang.ngettext("{n} game", "{n} games", 2) == "2 Partien"
    assert lang._("There is no game #{number}.", number=4) == "There is no game #4."


def test_platform_locales_map_to_catalogs():
    assert [i18n.supported(x) for x in ("nl", "de-AT", "en_GB", "fr-FR", "pt-BR", None, "")] == [
        "nl", "de", "en", "fr", None, None, None]


# ---------------------------------------------------------------------- through the service
@pytest.fixture
async def service(database_url):
    svc = await build_service(database_url)
    yield svc
    await svc.close()


def public(messages):
    return "\n".join(m.text for m in messages if m.chat is not None and m.user is None)


def answers(messages):
    return "\n".join(m.text for m in messages if m.user is not None)


async def test_the_chat_speaks_its_language_and_each_person_their_own(service):
    chat = ChatRef("discord", "c1", "g1", "hall", "fr")  # a server whose preferred locale is French
    ann, bert, cas = (UserRef("discord", "1", "Ann", "en"), UserRef("discord", "2", "Bert", "nl"),
                      UserRef("discord", "3", "Cas", "de"))
    opened = await service.create_lobby(chat, ann, "toy")
    assert "Ann a ouvert une table de" in public(opened)
    joined = await service.join(chat, bert)
    assert "Bert a rejoint la table." in public(joined)
    again = await service.join(chat, bert)
    assert answers(again) == "Je hebt al een plaats aan tafel #1."
    refused = await service.start(chat, cas)
    assert answers(refused) == "Nur ein Spieler am Tisch kann #1 starten: erst /join."
    # an admin makes the channel German; Bert chooses French for himself
    saved = await service.settings(chat, ann, "language=de", is_admin=True)
    assert answers(saved).startswith("✅ Settings saved.")
    await service.settings(None, bert, "mylanguage=fr")
    assert answers(await service.join(chat, bert)) == "Tu as déjà une place à la table n° 1."
    left = await service.leave(chat, bert)
    assert "Bert ist gegangen." in public(left)
    bad = await service.settings(chat, cas, "language=xx", is_admin=True)
    assert answers(bad) == "language ist eines von: en, nl, de, fr."


async def test_settings_in_a_private_chat_change_only_your_language(service):
    ann = UserRef("telegram", "5", "Ann", "de")
    shown = await service.settings(None, ann, "")
    assert "mylanguage — deine eigene Sprache" in answers(shown)
    refused = await service.settings(None, ann, "turn_timer=5m")
    assert answers(refused).startswith("Hier lässt sich nur /settings mylanguage=")
    saved = await service.settings(None, ann, "mylanguage=nl")
    assert answers(saved).startswith("✅ Instellingen bewaard.")


# ---------------------------------------------------------------------- the console
async def run_console(tmp_path, lines, lang):
    out = io.StringIO()
    code = await play_console("toy", 3, 5, "", f"sqlite+aiosqlite:///{tmp_path}/console.db", lang is None,
                              out=out, inp=io.StringIO("".join(line + "\n" for line in lines)), lang=lang)
    assert "Traceback" not in out.getvalue()
    return out.getvalue(), code


async def test_the_console_plays_in_dutch(tmp_path):
    text, code = await run_console(tmp_path, ["99", "quit"], "nl")
    assert code == 0
    assert "🏁 Spel #1 van" in text and "jouw zet> " in text
    assert "Kies een nummer van 1 tot" in text and "🔒 alleen jij ziet dit" in text
    assert "Spel #1 is bewaard." in text
    resumed, code = await run_console(tmp_path, ["quit"], None)  # the language is remembered
    assert code == 0 and "Spel #1 gaat verder." in resumed


def test_no_function_hides_the_translation_function():
    """``for _ in …`` or ``a, _ = …`` in a function that also calls ``_("…")`` makes ``_`` a local there: the
    call then fails at run time (UnboundLocalError) — only on the path that reaches it."""
    import ast

    problems = []
    for package in ("bot", "rules"):
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for function in ast.walk(tree):
                if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                inner = [n for n in ast.walk(function) if n is not function]
                stored = any(isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store)
                             for n in inner)
                called = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_"
                             for n in inner)
                if stored and called:
                    problems.append(f"{path.relative_to(ROOT)}:{function.lineno} {function.name}")
    assert not problems, problems
