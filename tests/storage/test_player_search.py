"""``/stats <name>`` finds players by part of their name (issue 34, item 6): a query longer than any name matches
no one and is answered as such — SQLite refused its LIKE pattern ("too complex") and the person got an internal
error — and LIKE's wildcards in a query are plain characters."""
from __future__ import annotations

import pytest

from bot.service import ChatRef, UserRef, build_service
from storage import UnitOfWork

GROUP = ChatRef("telegram", "-1001", None, "the castle")
ROBERT, ROBIN, ODD = (UserRef("telegram", "1", "Robert Smith"), UserRef("telegram", "2", "Robin Jones"),
                      UserRef("telegram", "3", "50% a_b"))


@pytest.fixture
async def service(database_url):
    svc = await build_service(database_url)
    await svc.create_lobby(GROUP, ROBERT, "toy")
    await svc.join(GROUP, ROBIN)
    await svc.join(GROUP, ODD)
    yield svc
    await svc.close()


async def names_like(service, part: str) -> list[str]:
    async with UnitOfWork(service.db) as uow:
        chat_ids = await uow.leagues.chat_ids(GROUP.platform, GROUP.league_key)
        return [p.name for p in await uow.leagues.players_named_like(GROUP.platform, part, chat_ids)]


@pytest.mark.parametrize("query", ["x" * 60_000, "%" * 30_000, "😀" * 13_000, "ro" * 5_000])
async def test_a_query_longer_than_any_name_is_answered_not_an_error(service, query):
    assert await names_like(service, query) == []
    [answer] = await service.stats(GROUP, ROBIN, query)
    assert answer.text.endswith("has played here yet.") and answer.kind != "error"


async def test_wildcards_in_a_query_are_plain_characters(service):
    assert await names_like(service, "rob") == ["Robert Smith", "Robin Jones"]
    assert await names_like(service, "%") == ["50% a_b"]
    assert await names_like(service, "a_b") == ["50% a_b"]
    assert await names_like(service, "_") == ["50% a_b"]
    assert await names_like(service, "r%s") == []
