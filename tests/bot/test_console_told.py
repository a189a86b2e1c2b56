"""Issue 37, items 3 and 13: over seeded whole games of every title on the console (AI seats for the others),
every event the person's seat may know is printed before their next prompt — their own move too, confirmed — and
none is told twice (``console_told``: what was printed, matched with the events stored with the moves)."""
from __future__ import annotations

import pytest

from tests.bot.console_told import told_report

GAMES = [("troubadour", 2, ""), ("troubadour", 4, ""), ("guyenne", 2, ""), ("guyenne", 2, "level=expert"),
         ("guyenne", 4, "mode=two_sets"), ("list_und_tuecke", 4, ""), ("kardinal", 2, ""), ("kardinal", 4, ""),
         ("koenig_artus", 3, ""), ("koenig_artus", 4, "")]
CASES = [(g, n, o, seed, "en") for g, n, o in GAMES for seed in (1, 2)] + [
    (g, n, o, 3, lang) for (g, n, o), lang in zip(GAMES, ["nl", "de", "fr"] * 4)]


@pytest.mark.parametrize("game,players,options,seed,lang", CASES,
                         ids=[f"{g}-{n}{'-' + o if o else ''}-{s}-{lang}" for g, n, o, s, lang in CASES])
async def test_every_event_told_once_before_the_next_prompt(tmp_path, monkeypatch, game, players, options, seed,
                                                            lang):
    report = await told_report(monkeypatch, f"sqlite+aiosqlite:///{tmp_path}/told.db", game, players, seed, options,
                               lang)
    assert report.over, "the game was not played to its end"
    assert report.expected > 40
    assert not report.missed, f"{len(report.missed)} of {report.expected} missed: {report.missed[:6]}"
    assert not report.twice, f"{len(report.twice)} told twice: {report.twice[:6]}"
