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
        assert results == [1] * 20
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
        assert outcomes[0] == 1 and outcomes[2] == 1
        assert isinstance(outcomes[1], StaleVersion)
        assert await _stored(db, b) == (0, {"n": 0}, [], [])  # nothing of the stale write
        assert (await _stored(db, a))[:3] == (1, {"n": 1}, [{"type": "go", "n": 0}])
    finally:
        await db.close()


async def test_the_lean_write_stores_exactly_what_the_unit_of_work_stores(database_url):
    """SQLite's lean path (storage/lean.py) and the SQLAlchemy path give rows that read back the same."""
    from sqlalchemy import select

    from storage.group_commit import write_one
    from storage.models import Move, OutboxMessage, Timer

    db = await open_database(database_url)
    try:
        lean_game, orm_game = await _games(db, 2)
        due = utcnow()

        def full(gid):
            return MoveWrite(
                gid, 0, {"n": 1, "deep": {"list": [1, "two", None], "ü": "ß"}},
                [{"seq": 0, "seat": 0, "action": {"type": "go"}, "events": [{"kind": "e", "data": {"x": 1}}],
                  "by": "player"}, {"seq": 1, "seat": 1, "action": {"type": "ai"}, "events": [], "by": "ai"}],
                status="finished", new_timers=[{"seat": 1, "kind": "turn", "version": 1, "due_at": due}],
                outbox=[{"key": f"k{gid}", "platform": "discord", "game_id": gid, "slot": "board:1",
                         "payload": {"text": "é", "n": [1]}, "created_at": due, "claimed_by": "me",
                         "claimed_at": due, "sent_at": None}])

        assert await GroupCommit(db).run(full(lean_game)) == 1
        async with UnitOfWork(db) as uow:
            assert await write_one(uow, full(orm_game)) == 1
            await uow.commit()

        def same(a, b, skip=("id", "game_id", "key", "updated_at", "finished_at", "created_at")):
            cols = [c.name for c in type(a).__table__.columns if c.name not in skip]
            return {c: getattr(a, c) for c in cols} == {c: getattr(b, c) for c in cols}

        async with UnitOfWork(db) as uow:
            lean_row, orm_row = await uow.games.get(lean_game), await uow.games.get(orm_game)
            assert same(lean_row, orm_row, skip=("id", "updated_at", "finished_at", "created_at"))
            assert lean_row.finished_at is not None and lean_row.status == "finished"
            for model in (Move, Timer, OutboxMessage):
                rows = {g: list(await uow.session.scalars(select(model).where(model.game_id == g)
                                                          .order_by(model.id))) for g in (lean_game, orm_game)}
                assert len(rows[lean_game]) == len(rows[orm_game]) > 0
                for a, b in zip(rows[lean_game], rows[orm_game]):
                    assert same(a, b)
            timer = (await uow.timers.of_game(lean_game))[0]
            assert abs((timer.due_at.replace(tzinfo=None) - due.replace(tzinfo=None)).total_seconds()) < 1e-3
    finally:
        await db.close()


async def test_sent_marks_ride_with_the_moves_or_go_alone(database_url):
    """``mark_sent`` joins the next batch of moves (no transaction of its own under load) and is stored with it;
    with no move waiting it is written alone; a stale move in the batch does not lose the marks."""
    from storage.models import OutboxMessage

    db = await open_database(database_url)
    try:
        a, b = await _games(db, 2)
        moment = utcnow()
        rows = [{"key": f"m{i}", "platform": "discord", "game_id": a, "slot": None, "payload": {"text": str(i)},
                 "created_at": moment, "claimed_by": "me", "claimed_at": moment, "sent_at": None} for i in range(4)]
        group = GroupCommit(db)
        assert await group.run(_write(a, outbox=rows)) == 1
        outcomes = await asyncio.gather(group.mark_sent(["m0", "m1"]), group.run(_write(a, 1)),
                                        group.run(_write(b, version=7)), return_exceptions=True)
        assert outcomes[0] is None and outcomes[1] == 2 and isinstance(outcomes[2], StaleVersion)
        assert group.batches == 2  # the marks went with the second batch, not in a transaction of their own
        await group.mark_sent(["m2"])  # nothing else waits: alone
        async with UnitOfWork(db) as uow:
            from sqlalchemy import select

            sent = {r.key: r.sent_at is not None for r in await uow.session.scalars(select(OutboxMessage))}
        assert sent == {"m0": True, "m1": True, "m2": True, "m3": False}
        assert (await _stored(db, a))[0] == 2
    finally:
        await db.close()



async def test_a_row_another_process_added_first_is_not_a_failure(database_url):
    """On PostgreSQL a transaction may meet a unique violation (SQLSTATE 23505) for a row another process's
    transaction added at the same moment; done again, the row is there. The batch meeting one — twice: as a whole,
    then redone — is done again, never reported as "something went wrong". (A game's end and its ratings, where
    this happened, are written by the service in one unit of work of their own, retried the same way.)"""
    from sqlalchemy.exc import IntegrityError

    class UniqueViolation(Exception):
        sqlstate = "23505"

    db = await open_database(database_url)
    try:
        a, b = await _games(db, 2)
        group = GroupCommit(db)
        tries = []
        whole = group._all_at_once

        async def in_the_way(batch, keys):
            tries.append(1)
            if len(tries) <= 2:
                raise IntegrityError("INSERT INTO ratings …", {}, UniqueViolation("duplicate key value"))
            return await whole(batch, keys)

        group._all_at_once = in_the_way
        outcomes = await asyncio.gather(group.run(_write(a, status="finished")), group.run(_write(b)))
        assert outcomes == [1, 1] and len(tries) == 3
        assert (await _stored(db, a))[0] == 1 and (await _stored(db, b))[0] == 1
    finally:
        await db.close()


def test_the_lean_write_converts_a_shared_value_once_and_each_row_as_the_orm_would():
    """``lean.bound`` converts a value several rows share (the batch's moment) once; every row still gets its own
    value's conversion, whatever objects came before it."""
    from datetime import datetime, timedelta, timezone

    from sqlalchemy.dialects import sqlite

    from storage import lean
    from storage.models import Move

    dialect = sqlite.dialect()
    sql, processors = lean.insert_sql(dialect, Move.__table__, ("events", "created_at"))
    calls = []
    counted = [None if p is None else (lambda v, p=p: calls.append(v) or p(v)) for p in processors]
    moment = datetime(2026, 11, 24, 14, 0, tzinfo=timezone.utc)
    later = moment + timedelta(seconds=1)
    rows = [([{"kind": "a"}], moment), ([{"kind": "b"}], moment), ([{"kind": "a"}], later), (None, moment)]
    out = lean.bound(counted, rows)
    assert out == [[processors[0](e) if e is not None else None, processors[1](t)] for e, t in rows]
    assert sum(1 for v in calls if v is moment) == 1 and calls.count(later) == 1


def test_one_encoding_gives_every_statement_its_rows_in_the_writes_order():
    """``move_rows.encode``: the version-checked snapshot UPDATE first (one row each, expected), then the log rows,
    the timers dropped and added, the outbox rows and the sent marks; ``finished_at`` only for a game that ended."""
    from storage import move_rows

    moment = utcnow()
    a = _write(3, 2, drop_timer_seats={2, 0}, new_timers=[{"seat": 1, "kind": "turn", "version": 3, "due_at": moment}],
               outbox=[{"key": "k"}])
    b = _write(7, 0, status="finished")
    steps = move_rows.encode([a, b], ["s1"], moment)
    assert [(s.kind, s.table.name, len(s.rows), s.expect) for s in steps] == [
        ("update", "games", 2, 2), ("insert", "moves", 2, None), ("delete", "timers", 2, None),
        ("insert", "timers", 1, None), ("insert", "outbox", 1, None), ("update", "outbox", 1, None)]
    games, log, drops, timers, _outbox, marks = steps
    assert games.rows == [({"n": 3}, 3, "active", moment, None, 3, 2), ({"n": 1}, 1, "finished", moment, moment, 7, 0)]
    assert [(r["game_id"], r["seq"], r["created_at"]) for r in log.rows] == [(3, 2, moment), (7, 0, moment)]
    assert drops.rows == [(3, 0), (3, 2)] and timers.rows[0]["game_id"] == 3
    assert marks.columns == ("sent_at",) and marks.rows == [(moment, "s1")]
    assert move_rows.encode([], [], moment) == []
