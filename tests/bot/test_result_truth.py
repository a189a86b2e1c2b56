"""Issue 36, item 1: the result, the stored result (/history, /stats) and the ratings agree on every place — a seat
that resigned is last, whatever the AI that played it on scored; shared places are listed best score first."""
from __future__ import annotations

import re

import pytest

from bot.service import ChatRef, UserRef, build_service
from bot.service.leagues import places_with_resigns
from rules import get_game
from storage import UnitOfWork
from tests.bot.test_leagues import open_game, play_out, row_of

CHAT = ChatRef("discord", "chan1", "guild1", "general")
ALICE, BOB, CAROL = UserRef("discord", "1", "Alice"), UserRef("discord", "2", "Bob"), UserRef("discord", "3", "Carol")


@pytest.fixture
async def service(database_url):
    svc = await build_service(database_url)
    yield svc
    await svc.close()


async def test_the_result_ranks_who_resigned_last_as_history_and_the_ratings_do(service):
    said, act = [], service.act

    async def heard(*args, **kwargs):  # the result comes with whichever move ends the game
        said.extend(await act(*args, **kwargs))
        return said
    service.act = heard
    for seed in range(40):  # a game the resigned seat's AI wins on points
        gid = await open_game(service, [ALICE, BOB, CAROL], seed=seed)
        said.extend(await service.resign(CHAT, CAROL, gid, confirmed=True))
        await play_out(service, gid, [ALICE, BOB])
        row = await row_of(service, gid)
        carol = next(s.seat for s in row.seats if s.player.name == "Carol")
        if get_game("toy").from_json(row.state).ranking()[carol] == 1:
            break
    else:
        raise AssertionError("no seed where the resigned seat wins on points")
    result = next(m for m in said if m.kind == "result" and m.game_id == gid).text.splitlines()
    assert result[0].startswith("🏆") and "Carol" in result[-1] and result[-1].startswith("3. ")
    assert "(resigned)" in result[-1] and not any(line.startswith("1. ") and "Carol" in line for line in result)
    places = row.result["ranking"]
    assert places == places_with_resigns(places, set(row.result["resigned"])) and places[carol] == 3
    async with UnitOfWork(service.db) as uow:
        rated = {c.player_id: c.place for c in await uow.leagues.changes_of_game(gid)}
    assert rated == {s.player_id: places[s.seat] for s in row.seats}
    history = next(line for line in (await service.history(CHAT, ALICE))[0].text.splitlines()
                   if line.startswith(f"#{gid} "))
    told = [line.split(" — ")[0] for line in result[1:] if line[:1].isdigit()]  # "1. Alice", "3. 🤖 Carol"
    listed = [re.match(r"(\d+\. .*?) -?[\d.]+(?: \([+-][\d.]+\))?$", part).group(1)  # "1. Alice 2 (+1.2)"
              for part in history.split(": ", 1)[1].split(", ")]
    assert listed == told


async def test_history_lists_shared_places_best_score_first(service):
    gid = await open_game(service, [ALICE, BOB, CAROL], seed=1)
    await play_out(service, gid, [ALICE, BOB, CAROL])
    async with UnitOfWork(service.db) as uow:
        row = await uow.games.get(gid)
        row.result = dict(row.result, ranking=[1, 1, 3], scores=[14, 23, 5], resigned=[],
                          names=["Alice", "Bob", "Carol"])
        await uow.commit()
    history = (await service.history(CHAT, ALICE))[0].text
    line = next(line for line in history.splitlines() if line.startswith(f"#{gid} "))
    assert line.index("1. Bob 23") < line.index("1. Alice 14") < line.index("3. Carol 5")
