"""Group commit on real databases: a batch is stored whole, and a write at fault fails alone."""
from __future__ import annotations

import asyncio

from storage import StaleVersion, UnitOfWork
from storage.db import open_database
from storage.group_commit import GroupCommit, MoveWrite
from storage.models import GameRow, utcnow


async def _games(db, count: int) -> list[int]:
    async with UnitOfWork(db) as uow:
        player = await uow.players.get_or_create("discord", "1", "Alice")
        chat = await uow.chats.get_or_create("discord", "c", "discord:g", "general")
        ids = []
        for _ in range(count):
            row = await uow.games.add(GameRow(chat_id=chat.id, game="toy", options={}, seed=1, status="active",
                                              state={"n": 0}, version=0, created_by=player.id))
            ids.append(row.id)
        await uow.commit()
        return ids


def _write(gid: int, version: int = 0, **extra) -> MoveWrite:
    return MoveWrite(gid, version, {"n": version + 1},
                     [{"seq": version, "seat": 0, "action": {"type": "go", "n": version}, "events": [], "by": "player"}],
                     **extra)


async def _stored(db, gid):
    async with UnitOfWork(db) as uow:
        row = await uow.games.get(gid)
        return row.version, row.state, [m.action for m in await uow.games.moves(gid)], \
            sorted((t.seat, t.kind) for t in await uow.timers.of_game(gid))


async def test_concurrent_writes_share_commits_and_all_land(database_url):
    db = await open_database(database_url)
    try:
        ids = await _games(db, 20)
        group = GroupCommit(db)
        due = {"seat": 1, "kind": "remind", "version": 0}
        results = await asyncio.gather(*(group.run(_write(g, new_timers=[dict(due, due_at=utcnow())]))
                                         for g in ids))
        assert results == [(1, None)] * 20
        assert group.batches < 20 and group.writes == 20  # they were grouped
        for gid in ids:
            assert await _stored(db, gid) == (1, {"n": 1}, [{"type": "go", "n": 0}], [(1, "remind")])
        # the next moves drop that timer
        await asyncio.gather(*(group.run(_write(g, 1, drop_timer_seats={1})) for g in ids))
        assert (await _stored(db, ids[0]))[3] == []
    finally:
        await db.close()


async def test_a_stale_write_fails_alone(database_url):
    db = await open_database(database_url)
    try:
        a, b, c = await _games(db, 3)
        group = GroupCommit(db)
        outcomes = await asyncio.gather(group.run(_write(a)), group.run(_write(b, version=5)), group.run(_write(c)),
                                        return_exceptions=True)
        assert outcomes[0] == (1, None) and outcomes[2] == (1, None)
        assert isinstance(outcomes[1], StaleVersion)
        assert await _stored(db, b) == (0, {"n": 0}, [], [])  # nothing of the stale write
        assert (await _stored(db, a))[:3] == (1, {"n": 1}, [{"type": "go", "n": 0}])
    finally:
        await db.close()


async def test_a_failing_follow_up_undoes_only_its_own_write(database_url):
    db = await open_database(database_url)
    try:
        a, b = await _games(db, 2)
        group = GroupCommit(db)

        async def broken(uow):
            raise RuntimeError("rating failed")

        async def fine(uow):
            return "rated"

        outcomes = await asyncio.gather(group.run(_write(a, status="finished", then=fine)),
                                        group.run(_write(b, status="finished", then=broken)),
                                        return_exceptions=True)
        assert outcomes[0] == (1, "rated")
        assert isinstance(outcomes[1], RuntimeError)
        async with UnitOfWork(db) as uow:
            assert (await uow.games.get(a)).status == "finished"
            assert (await uow.games.get(b)).status == "active"
        assert await _stored(db, b) == (0, {"n": 0}, [], [])
    finally:
        await db.close()
