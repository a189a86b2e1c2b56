"""Records (issue #41) say which moves followed a hint and when the game started — stored per move and per game
through the real service on a SQLite file and on PostgreSQL: a hint asked, then the asker's next move (in the
same process, and after a restart) is marked; the JSON record's flag, the text record and the replay say so."""
from __future__ import annotations

import asyncio
import json
from datetime import datetime, timezone

import pytest
from sqlalchemy import text

from bot import i18n
from bot.service import commands as c
from bot.service.record_text import step_text, text_record
from bot.service.records import ALL, PUBLIC, build_record, load_game
from bot.service.replay import Replay
from storage import UnitOfWork
from tests.bot.test_ai_turns import GUARD, make_service, pool  # noqa: F401  (the shared worker)
from tests.bot.test_hints import ALICE, BOB, CHAT

OPENED = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)


async def stored_of(service, gid):
    async with UnitOfWork(service.db) as uow:
        return await load_game(uow, gid)


async def logged(service, gid) -> list[tuple[int, bool]]:
    async with UnitOfWork(service.db) as uow:
        return [(m.seat, m.hinted) for m in await uow.games.moves(gid)]


async def play_first_choice(service, user, gid) -> None:
    choices = await service.choices(user, game_id=gid)
    out = await service.act(CHAT, user, choices[0][1], game_id=gid)
    assert not any(m.kind == "error" for m in out), [m.text for m in out]


async def hint(service, user, gid) -> None:
    out = await asyncio.wait_for(service.hint(CHAT, user, gid), GUARD)
    assert "hint" in [m.kind for m in out]


async def test_moves_after_a_hint_are_stored_and_told_and_the_start_is_the_lobbys(database_url, pool):  # noqa: F811
    service = await make_service(database_url, pool)
    try:
        gid = (await service.create_lobby(CHAT, ALICE, "toy", seed=7))[0].game_id
        await service.join(CHAT, BOB, game_id=gid)
        async with UnitOfWork(service.db) as uow:  # the table was opened long before it started
            await uow.session.execute(text("UPDATE games SET created_at = :opened WHERE id = :id"),
                                      {"opened": OPENED, "id": gid})
            await uow.commit()
        await service.start(CHAT, ALICE, game_id=gid)
        stored = await stored_of(service, gid)
        alice, bob = (stored.seat_of_player(p["player_id"]) for p in
                      sorted(stored.players, key=lambda p: p["name"]))

        # both choose at once (the toy game's secret keep): Alice after a hint, in this process
        await hint(service, ALICE, gid)
        await play_first_choice(service, ALICE, gid)
        # Bob asks for a hint, the bot restarts (the game in memory is gone), then Bob moves
        await hint(service, BOB, gid)
        await service.close()
        service = await make_service(database_url, pool)
        await play_first_choice(service, BOB, gid)
        assert await logged(service, gid) == [(alice, True), (bob, True)]

        # while it runs, who asked is each one's own business: Alice's record marks her move only
        running = await stored_of(service, gid)
        own = build_record(running, alice)
        assert [s["flags"]["hint"] for s in own["steps"]] == [True, False]
        assert [s["flags"]["hint"] for s in build_record(running, PUBLIC)["steps"]] == [False, False]
        assert [line.endswith("(after a hint)") for line in text_record(own).splitlines()
                if line.startswith(("1. ", "2. "))] == [True, False]

        for _ in range(20):  # the tricks, without hints: no move is marked
            if gid not in await service.active_game_ids():
                break
            for user in (ALICE, BOB):
                if await service.choices(user, game_id=gid):
                    await play_first_choice(service, user, gid)
        moves = await logged(service, gid)
        assert len(moves) == 6 and [hinted for _, hinted in moves] == [True, True] + [False] * 4

        stored = await stored_of(service, gid)
        async with UnitOfWork(service.db) as uow:
            row = await uow.games.get(gid)
        assert row.status == "finished" and row.started_at is not None
        assert stored.started_at == row.started_at and stored.hinted_moves == {0, 1}
        record = json.loads(json.dumps(build_record(stored, ALL)))
        started = datetime.fromisoformat(record["started_at"])  # in UTC, saying so (SQLite keeps no zone)
        assert started.utcoffset().total_seconds() == 0
        assert started == row.started_at.replace(tzinfo=timezone.utc)
        assert datetime.fromisoformat(record["ended_at"]).utcoffset() is not None
        assert not record["started_at"].startswith("2026-01-01")  # not the table's opening
        assert [s["flags"]["hint"] for s in record["steps"]] == [True, True] + [False] * 4
        assert record["hinted"] is True

        told = text_record(record).splitlines()
        heads = [line for line in told if line[:2] in {f"{n}." for n in range(1, 7)} and ": " in line]
        assert [line.endswith("(after a hint)") for line in heads] == [True, True] + [False] * 4
        assert f"Started: {row.started_at.isoformat()[:16].replace('T', ' ')} UTC" in told

        replay = Replay(record)
        assert "(after a hint)" in step_text(replay, 2, ALL, gid)
        assert "(after a hint)" not in step_text(replay, 3, None, gid)
        for lang, words in [("nl", "(na een hint)"), ("de", "(nach einem Hinweis)"), ("fr", "(après un indice)")]:
            with i18n.using(lang):
                assert words in step_text(replay, 1, None, gid) and words not in step_text(replay, 4, None, gid)
        history = await service.history(CHAT, ALICE)  # /history points at the game's record
        assert f"#{gid} Duel of Cards · not rated" in history[0].text and f"📜 /record {gid}" in history[0].text
        shown = await service.handle(c.ShowReplay(ALICE, CHAT, gid, "2"))  # /replay #gid 2 in the chat
        assert [m.kind for m in shown] == ["replay"] and "(after a hint)" in shown[0].text
    finally:
        await service.close()


async def test_a_hint_followed_by_a_timed_out_turn_marks_no_move(database_url, pool):  # noqa: F811
    """The AI that plays a turn whose time ran out did not use the hint: that move is not marked, and the hint
    is spent (a copy of the game loaded again holds no hint pending)."""
    service = await make_service(database_url, pool)
    try:
        gid = (await service.create_lobby(CHAT, ALICE, "toy", seed=7))[0].game_id
        await service.join(CHAT, BOB, game_id=gid)
        await service.start(CHAT, ALICE, game_id=gid)
        await play_first_choice(service, BOB, gid)
        await hint(service, ALICE, gid)
        alice = (await stored_of(service, gid)).seat_of_player(
            next(p["player_id"] for p in (await stored_of(service, gid)).players if p["name"] == "Alice"))
        await service.run_timers(datetime.now(timezone.utc).replace(year=2100))  # every turn times out
        async with UnitOfWork(service.db) as uow:
            rows = await uow.games.moves(gid)
            assert (rows[1].seat, rows[1].by) == (alice, "timer")
            assert not any(m.hinted for m in rows)
            if len(rows) < 6:  # still running: the hint is not waiting for Alice's next move
                service.ctx.games.forget(gid)
                assert (await service.ctx.games.get(uow, gid)).hinted_seats == set()
    finally:
        await service.close()


async def test_a_move_after_a_hint_taken_back_leaves_the_hint_for_the_next_one(database_url, pool):  # noqa: F811
    """/undo of a move made after a hint: the move made instead is made after that hint too — in the game in
    memory and in a copy loaded again."""
    from tests.bot.test_undo import play_first, start, to_move

    service = await make_service(database_url, pool)
    try:
        gid = await start(service)  # Kardinal: a first build may be taken back freely
        person, seat, _state = await to_move(service, gid)
        await hint(service, person, gid)
        await play_first(service, gid)
        back = await service.undo(CHAT, person, game_id=gid)
        assert not [m for m in back if m.kind == "error"], [m.text for m in back]
        assert seat in service.ctx.games.loaded(gid).hinted_seats
        service.ctx.games.forget(gid)
        async with UnitOfWork(service.db) as uow:
            assert (await service.ctx.games.get(uow, gid)).hinted_seats == {seat}
        await play_first(service, gid)
        async with UnitOfWork(service.db) as uow:
            rows = [(m.seat, m.hinted, m.taken_back) for m in await uow.games.moves(gid)]
        assert rows[:2] == [(seat, True, True), (seat, True, False)]
        assert not any(hinted for _seat, hinted, _back in rows[2:])
        record = build_record(await stored_of(service, gid), seat)
        assert record["steps"][0]["flags"]["hint"] is True
    finally:
        await service.close()
