"""Issue 36, item 8 (service side): what a chat is told about its finished games and an unknown player."""
from __future__ import annotations

import pytest

from bot.service import build_service
from tests.bot.test_leagues import open_game, play_out
from tests.bot.test_result_truth import ALICE, BOB, CHAT


@pytest.fixture
async def service(database_url):
    svc = await build_service(database_url)
    yield svc
    await svc.close()


async def test_games_counts_every_recently_finished_game(service):
    for seed in range(5):
        gid = await open_game(service, [ALICE, BOB], seed=seed)
        await play_out(service, gid, [ALICE, BOB])
    text = (await service.games(CHAT, ALICE))[0].text
    assert "5 finished recently" in text


async def test_stats_of_nobody_says_nobody_of_that_name_played(service):
    text = (await service.stats(CHAT, ALICE, "@nobody"))[0].text
    assert "nobody has not" not in text
    assert text == "Nobody called “nobody” has played here yet."
