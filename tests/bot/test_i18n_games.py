"""Whole games in Dutch, German and French through the service: no text the catalogs translate is left in
English (the check against the English catalog of issue 26), and private texts follow their reader.

Only texts already marked for translation can be caught this way; what is still unmarked (see the report of the
languages work: boards, narration, pickers, the engines' texts) is English in every language for now.
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


def english_left(texts: list[str], lang: str) -> list[str]:
    return [f"{source!r} in {text[:120]!r}" for text in texts for source, pattern in english_patterns(lang)
            if pattern.search(text)]


@pytest.mark.parametrize("name,lang", [(name, LANGS[i % 3]) for i, name in enumerate(REAL_GAMES)])
async def test_a_whole_game_leaves_no_translated_text_in_english(tmp_path, name, lang):
    game = rules.get_game(name)
    chat = ChatRef("discord", "chan", "guild", "hall", lang)  # the server's preferred locale
    mine = LANGS[(LANGS.index(lang) + 1) % 3]  # Ann's app speaks another language than the server
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
        for _ in range(3000):
            if gid not in service._live_games:
                break
            choices = await service.choices(ann, game_id=gid)
            seen += await service.act(None, ann, choices[0][1], game_id=gid) if choices else []  # privately
        seen += await service.join(chat, ann, gid)  # refused: the game is over
        seen += await service.settings(chat, ann, "")
        seen += await service.history(chat, ann)
        seen += await service.stats(chat, ann)
        seen += await service.leaderboard(chat, ann)
    finally:
        await service.close()
    assert gid not in service._live_games, "the game did not end"
    public = [m.text for m in seen if m.user is None]
    answers = [m.text for m in seen if m.user is not None]
    assert public and answers
    assert not english_left(public, lang)
    assert not english_left(answers, mine)
    opened = {"nl": "Ann opende een tafel voor", "de": "Ann hat einen Tisch für", "fr": "Ann a ouvert une table de"}
    assert any(opened[lang] in text for text in public)
    already = {"nl": "Je hebt al een plaats", "de": "Du hast schon einen Platz", "fr": "Tu as déjà une place"}
    assert any(already[mine] in text for text in answers)


async def test_the_checker_finds_english_left_over():
    assert english_left(["Bob joined.", "Table #4 is full (5 seats)."], "de") == [
        "'{name} joined.' in 'Bob joined.'", "'Table #{id} is full ({seats} seats).' in 'Table #4 is full (5 seats).'"]
    assert english_left(["Bob ist beigetreten."], "de") == []
