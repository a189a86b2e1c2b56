"""Whole games in Dutch, German and French through the service: no text the catalogs translate is left in
English (the check against the English catalog of issue 26), and private texts follow their reader.

Every text is marked (the engines' through ``rules.lang``), so a text the catalogs know in English but a game still
says in English is caught; a translation missing from a catalog is caught by test_i18n's completeness test.
"""
from __future__ import annotations

import re
import string
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import rules
from bot.service import ChatRef, UserRef, build_service

LOCALE = Path(__file__).resolve().parents[2] / "bot" / "locale"
REAL_GAMES = sorted(name for name in rules.GAMES if name != "toy")
LANGS = ("nl", "de", "fr")


def _pattern(text: str) -> re.Pattern | None:
    parts, literal = [], 0
    for lit, name, _spec, _conv in string.Formatter().parse(text):
        parts.append(re.escape(lit))
        literal += len(lit.strip())
        if name is not None:
            parts.append(".+?")
    return re.compile("".join(parts)) if literal >= 7 else None  # shorter texts would match by chance


@lru_cache(maxsize=None)
def english_patterns(lang: str) -> list[tuple[str, re.Pattern]]:
    """The English texts the ``lang`` catalog says differently, as patterns (placeholders match anything)."""
    with open(LOCALE / lang / "LC_MESSAGES" / "herald.po", "rb") as handle:
        catalog = read_po(handle, locale=lang)
    found = []
    for message in catalog:
        if not message.id:
            continue
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        targets = message.string if isinstance(message.string, tuple) else (message.string,)
        for source in sources:
            pattern = _pattern(source)
            if pattern is not None and source not in targets:
                found.append((source, pattern))
    return found


_CODE = re.compile(r"`[^`\n]*`")  # notation in backticks
_COMMAND = re.compile(r"/(?:move|new)\b[^\n·]*")  # a command with its notation, up to the line's end or a ·
_OPTION = re.compile(r"\S+=\S+")  # level=advanced
_TABLE = re.compile(r"^  \S.*\S {3,}\S.*$", re.M)  # the rules' notation table: "  7C castle      build on a castle"


def without_notation(text: str) -> str:
    """The words of ``text``: notation is one language-neutral form (``7C castle``, ``open 3 5 2``, issue 26
    item 4), said the same in every language, so it is no English left over."""
    for pattern in (_CODE, _COMMAND, _OPTION, _TABLE):
        text = pattern.sub(" ", text)
    return text


def english_left(texts: list[str], lang: str) -> list[str]:
    return [f"{source!r} in {text[:120]!r}" for text in map(without_notation, texts)
            for source, pattern in english_patterns(lang) if pattern.search(text)]


async def play_whole_game(tmp_path, name: str, lang: str, mine: str) -> tuple[list[str], list[str]]:
    """A whole game of ``name`` through the service on a real SQLite file, in a chat speaking ``lang`` with Ann
    (whose app speaks ``mine``) and AI seats, Ann moving privately by her menu's first choice, with refusals, the
    board, the rules and the statistics asked for; the public texts and Ann's own, as sent."""
    game = rules.get_game(name)
    chat = ChatRef("discord", "chan", "guild", "hall", lang)  # the server's preferred locale
    ann = UserRef("discord", "1", "Ann", mine)
    service = await build_service(f"sqlite+aiosqlite:///{tmp_path}/h.db")
    try:
        seen = await service.create_lobby(chat, ann, name, seed=3)
        gid = seen[0].game_id
        seen += await service.join(chat, ann)  # refused: already seated
        seen += await service.create_lobby(chat, ann, name, "nosuchoption=1")
        for _ in range(game.min_players - 1):
            seen += await service.add_ai(chat, ann, "random", game_id=gid)
        seen += await service.start(chat, ann, game_id=gid)
        seen += await service.act(chat, ann, "zz9 nonsense", game_id=gid)  # refused, with examples
        seen += await service.rules_text(chat, name, user=ann)
        seen += await service.help(chat, ann, "")
        for step in range(3000):
            if gid not in service.ctx.games:
                break
            if step == 7:
                seen += await service.show_board(chat, game_id=gid)
                seen += await service.show_private(ann, game_id=gid)
            choices = await service.choices(ann, game_id=gid)
            seen += await service.act(None, ann, choices[0][1], game_id=gid) if choices else []  # privately
        seen += await service.join(chat, ann, gid)  # refused: the game is over
        seen += await service.settings(chat, ann, "")
        seen += await service.history(chat, ann)
        seen += await service.stats(chat, ann)
        seen += await service.leaderboard(chat, ann)
    finally:
        await service.close()
    assert gid not in service.ctx.games, "the game did not end"
    public = [m.text for m in seen if m.user is None]
    answers = [m.text for m in seen if m.user is not None]
    assert public and answers
    return public, answers


OPENED = {"nl": "Ann opende een tafel voor", "de": "Ann hat einen Tisch für", "fr": "Ann a ouvert une table de"}
ALREADY = {"nl": "Je hebt al een plaats", "de": "Du hast schon einen Platz", "fr": "Tu as déjà une place"}


@pytest.mark.parametrize("name,lang", [(name, lang) for name in REAL_GAMES for lang in LANGS])
async def test_a_whole_game_in_one_language_leaves_no_english(tmp_path, name, lang):
    """Every game in every language (5 × 3): the boards, hands, narration, menus, refusals, rules and results."""
    public, answers = await play_whole_game(tmp_path, name, lang, lang)
    assert not english_left(public, lang)
    assert not english_left(answers, lang)
    assert any(OPENED[lang] in text for text in public)
    assert any(ALREADY[lang] in text for text in answers)


@pytest.mark.parametrize("name,lang", [(name, LANGS[i % 3]) for i, name in enumerate(REAL_GAMES)])
async def test_private_texts_follow_their_reader_not_the_chat(tmp_path, name, lang):
    mine = LANGS[(LANGS.index(lang) + 1) % 3]  # Ann's app speaks another language than the server
    public, answers = await play_whole_game(tmp_path, name, lang, mine)
    assert not english_left(public, lang)
    assert not english_left(answers, mine)
    assert any(OPENED[lang] in text for text in public)
    assert any(ALREADY[mine] in text for text in answers)


async def test_the_checker_finds_english_left_over():
    assert english_left(["Bob joined.", "Table #4 is full (5 seats)."], "de") == [
        "'{name} joined.' in 'Bob joined.'", "'Table #{id} is full ({seats} seats).' in 'Table #4 is full (5 seats).'"]
    assert english_left(["Bob ist beigetreten."], "de") == []
