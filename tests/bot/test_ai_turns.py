"""Strong AI seats through the real service (SQLite file and PostgreSQL): they think in the AI pool from a timer
job, outside any lock or transaction, one process per turn; their names say their level; the ``ai_time`` setting.
"""
from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.ai_pool import AIPool
from bot.service import ChatRef, UserRef, build_service
from bot.service.context import utc_now as now
from bot.service.context import TIMER_LEASE as CLAIM_LEASE
from storage import UnitOfWork
from tests.bot.ai_workers import register_toy

CHAT = ChatRef("discord", "chan1", "guild1", "general")
OTHER_CHAT = ChatRef("discord", "chan2", "guild1", "other")
ALICE = UserRef("discord", "1", "Alice")
BOB = UserRef("discord", "2", "Bob")
CAROL = UserRef("discord", "3", "Carol")
GUARD = 60  # seconds: a deadlock guard, never a measured duration


@pytest.fixture(scope="session")
def pool():
    """One worker process for the whole run (a spawned worker takes a moment to import the rules)."""
    shared = AIPool(workers=1, initializer=register_toy)
    yield shared
    shared.close()


class CountingPool:
    """The real pool, counting decisions; ``gate`` (when set up) holds each decision until it is opened, so a
    test can act while an AI is in the middle of thinking."""

    def __init__(self, pool, gated: bool = False, broken: bool = False):
        self.pool, self.gated, self.broken = pool, gated, broken
        self.calls = 0
        self.failures = 0
        self.entered = asyncio.Event()
        self.gate = asyncio.Event()

    async def choose(self, *args, **kwargs):
        self.calls += 1
        self.entered.set()
        if self.gated:
            await self.gate.wait()
        if self.broken:
            raise RuntimeError("the worker died")
        try:
            return await self.pool.choose(*args, **kwargs)
        except Exception:
            self.failures += 1
            raise

    async def hint(self, *args, **kwargs):
        self.calls += 1
        try:
            return await self.pool.hint(*args, **kwargs)
        except Exception:
            self.failures += 1
            raise


async def make_service(database_url, pool, **kwargs):
    service = await build_service(database_url)
    service.ctx.thinking.pool = CountingPool(pool, **kwargs)
    service.ctx.ai_iterations = 12  # small and repeatable: the tests check behaviour, not strength
    return service


@pytest.fixture
async def service(database_url, pool):
    svc = await make_service(database_url, pool)
    yield svc
    await svc.close()


async def row_of(service, gid):
    async with UnitOfWork(service.db) as uow:
        return await uow.games.get(gid)


async def moves_of(service, gid):
    async with UnitOfWork(service.db) as uow:
        return await uow.games.moves(gid)


async def timers_of(service, gid):
    async with UnitOfWork(service.db) as uow:
        return await uow.timers.of_game(gid)


async def strong_game(service, chat=CHAT, user=ALICE, seed=5):
    """``user`` against one strong AI on the toy game; returns the game number and the start's messages."""
    lobby = await service.create_lobby(chat, user, "toy", seed=seed)
    gid = lobby[0].game_id
    added = await service.add_ai(chat, user, "strong", game_id=gid)
    assert "🤖 Strong Merlin sat down" in added[0].text
    started = await service.start(chat, user, game_id=gid)
    assert not [m for m in started if m.kind == "error"], [m.text for m in started]
    return gid, started


async def my_move(service, user, gid):
    """The first legal move of ``user`` (the toy game's moves are all fine to test with)."""
    choices = await service.choices(user, game_id=gid)
    assert isinstance(choices, list) and choices, choices
    return choices[0][1]


async def play_out(service, gid, user=ALICE):
    for _ in range(40):
        row = await row_of(service, gid)
        if row.status != "active":
            return row
        await asyncio.wait_for(service.run_timers(), GUARD)
        row = await row_of(service, gid)
        if row.status != "active":
            return row
        choices = await service.choices(user, game_id=gid)
        if isinstance(choices, list) and choices:
            out = await service.act(CHAT, user, choices[0][1], game_id=gid)
            assert not [m for m in out if m.kind == "error"], [m.text for m in out]
    raise AssertionError("the game did not end")


async def test_a_game_with_a_strong_ai_plays_to_the_end(service):
    gid, started = await strong_game(service)
    board = next(m for m in started if m.kind == "board")
    assert "🤖 Strong Merlin is thinking…" in board.text
    # the start committed no AI move: the AI thinks in a job of its own, due at once
    assert [m.by for m in await moves_of(service, gid)] == []
    assert [t.kind for t in await timers_of(service, gid) if t.kind == "ai"] == ["ai"]
    row = await play_out(service, gid)
    assert row.status == "finished"
    assert row.result["names"][next(s.seat for s in row.seats if s.player is None)] == "🤖 Strong Merlin"
    moves = await moves_of(service, gid)
    ai_seat = next(s.seat for s in row.seats if s.player is None)
    assert [m.by for m in moves if m.seat == ai_seat] == ["ai"] * 3  # keep, then a card in each of two tricks
    assert service.ctx.thinking.pool.calls >= 1 and service.ctx.thinking.pool.failures == 0
    assert await timers_of(service, gid) == []


async def test_the_ai_thinks_holding_no_lock_and_no_transaction(database_url, pool):
    service = await make_service(database_url, pool, gated=True)
    try:
        gid, _ = await strong_game(service)
        other = (await service.create_lobby(OTHER_CHAT, BOB, "toy", seed=9))[0].game_id
        await service.join(OTHER_CHAT, CAROL, game_id=other)
        await service.start(OTHER_CHAT, BOB, game_id=other)

        thinking = asyncio.create_task(service.run_timers())
        await asyncio.wait_for(service.ctx.thinking.pool.entered.wait(), GUARD)
        # while the AI thinks: another game's move, and a move in the AI's own game, are committed
        done = await asyncio.wait_for(service.act(OTHER_CHAT, BOB, await my_move(service, BOB, other),
                                                  game_id=other), GUARD)
        assert not [m for m in done if m.kind == "error"], [m.text for m in done]
        mine = await asyncio.wait_for(service.act(CHAT, ALICE, await my_move(service, ALICE, gid), game_id=gid),
                                      GUARD)
        assert not [m for m in mine if m.kind == "error"], [m.text for m in mine]
        assert not thinking.done()
        service.ctx.thinking.pool.gate.set()
        await asyncio.wait_for(thinking, GUARD)
        # the AI thought about a position that changed (Alice chose meanwhile): its result was dropped ...
        assert [m.by for m in await moves_of(service, gid)] == ["player"]
        # ... and the job is done again from the stored game
        await asyncio.wait_for(service.run_timers(), GUARD)
        assert [m.by for m in await moves_of(service, gid)] == ["player", "ai"]
        assert service.ctx.thinking.pool.failures == 0
    finally:
        await service.close()


async def test_two_processes_never_both_play_an_ai_turn(database_url, pool):
    one = await make_service(database_url, pool)
    two = await make_service(database_url, pool)
    try:
        gid, _ = await strong_game(one)
        await asyncio.wait_for(asyncio.gather(one.run_timers(), two.run_timers(), one.run_timers()), GUARD)
        moves = await moves_of(one, gid)
        assert [m.by for m in moves] == ["ai"]
        assert one.ctx.thinking.pool.calls + two.ctx.thinking.pool.calls == 1
        assert one.ctx.thinking.pool.failures + two.ctx.thinking.pool.failures == 0
        row = await play_out(two, gid)  # the other process plays it on from the database
        assert row.status == "finished"
    finally:
        await one.close()
        await two.close()


async def test_a_job_whose_process_died_is_taken_over_after_the_lease(database_url, pool):
    one = await make_service(database_url, pool)
    two = await make_service(database_url, pool)
    try:
        gid, _ = await strong_game(one)
        moment = now()
        async with UnitOfWork(one.db) as uow:  # a process claims the job, then dies while thinking
            claimed = await uow.timers.claim_due(moment, "dead-process", moment - CLAIM_LEASE)
            await uow.commit()
        assert [t.kind for t in claimed] == ["ai"]
        await asyncio.wait_for(two.run_timers(moment), GUARD)
        assert await moves_of(two, gid) == []  # still within the lease: nobody else touches it
        await asyncio.wait_for(two.run_timers(moment + CLAIM_LEASE + timedelta(seconds=1)), GUARD)
        assert [m.by for m in await moves_of(two, gid)] == ["ai"]
    finally:
        await one.close()
        await two.close()


async def test_a_failing_pool_lets_the_greedy_ai_move(database_url, pool):
    service = await make_service(database_url, pool, broken=True)
    try:
        gid, _ = await strong_game(service)
        await asyncio.wait_for(service.run_timers(), GUARD)
        assert [m.by for m in await moves_of(service, gid)] == ["ai"]
    finally:
        await service.close()


async def test_the_timer_loop_plays_ai_turns_in_the_background(service):
    """The real loop: a person's move wakes it, the AI moves and its messages reach ``deliver``."""
    delivered = []

    async def deliver(messages):
        delivered.extend(messages)

    gid, _ = await strong_game(service)
    loop = asyncio.create_task(service.timer_loop(deliver, max_sleep=0.2))
    try:
        for _ in range(600):
            if any(m.by == "ai" for m in await moves_of(service, gid)):
                break
            await asyncio.sleep(0.05)
        assert [m.by for m in await moves_of(service, gid)] == ["ai"]
        for _ in range(100):
            if any(m.kind == "board" for m in delivered):
                break
            await asyncio.sleep(0.05)
        assert any(m.kind == "board" and m.game_id == gid for m in delivered)
    finally:
        loop.cancel()
        await asyncio.gather(loop, return_exceptions=True)


async def test_ai_names_say_their_level_everywhere(service):
    lobby = await service.create_lobby(CHAT, ALICE, "toy", seed=3)
    gid = lobby[0].game_id
    await service.add_ai(CHAT, ALICE, "strong", game_id=gid)
    shown = await service.add_ai(CHAT, ALICE, "greedy", game_id=gid)
    assert "🤖 Strong Merlin" in shown[0].text and "🤖 Sir Greedy sat down" in shown[0].text
    started = await service.start(CHAT, ALICE, game_id=gid)
    assert "🤖 Strong Merlin" in started[0].text and "🤖 Sir Greedy" in started[0].text
    row = await play_out(service, gid)
    names = {s.seat: n for s in row.seats for n in [row.result["names"][s.seat]]}
    by_level = {s.ai_level or "person": names[s.seat] for s in row.seats}
    assert by_level == {"person": "Alice", "strong": "🤖 Strong Merlin", "greedy": "🤖 Sir Greedy"}

    lobby = await service.create_lobby(CHAT, ALICE, "toy", seed=4)
    second = lobby[0].game_id
    await service.add_ai(CHAT, ALICE, "strong", game_id=second)
    two = await service.add_ai(CHAT, ALICE, "strong", game_id=second)
    assert "🤖 Strong Merlin" in two[0].text and "🤖 Strong Morgana sat down" in two[0].text


async def test_ai_time_setting_and_its_bounds(service):
    shown = await service.settings(CHAT, ALICE, "")
    assert "ai_time = 1.0" in shown[0].text and "hints = on" in shown[0].text
    for bad in ("ai_time=0.05", "ai_time=6", "ai_time=abc", "ai_time=nan", "ai_time=inf", "ai_time=-1"):
        refused = await service.settings(CHAT, ALICE, bad, is_admin=True)
        assert refused[0].kind == "error" and "0.1 to 5" in refused[0].text, (bad, refused[0].text)
    assert (await service.chat_settings(CHAT))["ai_time"] == 1.0
    for good, value in (("ai_time=0.1", 0.1), ("ai_time=5", 5.0), ("ai_time=2.5s", 2.5)):
        saved = await service.settings(CHAT, ALICE, good, is_admin=True)
        assert saved[0].kind != "error", saved[0].text
        assert (await service.chat_settings(CHAT))["ai_time"] == value
    refused = await service.settings(CHAT, BOB, "ai_time=2")
    assert refused[0].kind == "error" and "admins" in refused[0].text


async def test_the_ai_thinks_for_the_chats_ai_time(service):
    """The job passes the chat's setting to the pool as the budget."""
    seen = []
    real = service.ctx.thinking.pool.choose

    async def spy(name, state, seat, level, seed, budget, iterations=None):
        seen.append((level, budget))
        return await real(name, state, seat, level, seed, budget, iterations)

    service.ctx.thinking.pool.choose = spy
    await service.settings(CHAT, ALICE, "ai_time=0.3", is_admin=True)
    gid, _ = await strong_game(service)
    await asyncio.wait_for(service.run_timers(), GUARD)
    assert seen == [("strong", 0.3)] and service.ctx.thinking.pool.failures == 0


async def test_switching_the_turn_timer_off_keeps_the_ai_jobs(service):
    gid, _ = await strong_game(service)
    assert sorted(t.kind for t in await timers_of(service, gid)) == ["ai", "autoplay", "remind"]
    await service.settings(CHAT, ALICE, "turn_timer=0", is_admin=True)
    assert [t.kind for t in await timers_of(service, gid)] == ["ai"]


async def test_a_resigned_seat_is_played_by_the_strong_ai_where_it_met_its_targets(service):
    from bot.service.ai_seats import TAKEOVER_STRONG, takeover_level

    assert ("kardinal", 2) in TAKEOVER_STRONG and takeover_level("troubadour", 3) == "greedy"  # not measured
    gid = (await service.create_lobby(CHAT, ALICE, "kardinal", seed=11))[0].game_id
    await service.join(CHAT, BOB, game_id=gid)
    await service.start(CHAT, ALICE, game_id=gid)
    resigned = await service.resign(CHAT, BOB, game_id=gid, confirmed=True)
    assert not [m for m in resigned if m.kind == "error"], [m.text for m in resigned]
    for _ in range(3):
        if [t for t in await timers_of(service, gid) if t.kind == "ai"]:
            break
        await service.act(CHAT, ALICE, await my_move(service, ALICE, gid), game_id=gid)
    assert [t.kind for t in await timers_of(service, gid) if t.kind == "ai"] == ["ai"]
    before = len(await moves_of(service, gid))
    await asyncio.wait_for(service.run_timers(), GUARD)
    moves = await moves_of(service, gid)
    assert len(moves) > before and moves[before].by == "ai"
    assert service.ctx.thinking.pool.calls == 1 and service.ctx.thinking.pool.failures == 0


async def kardinal_duel(service, seed=11):
    """Alice and Bob at Kardinal (two players: a turn is a building, then the Cardinal moved or left); returns
    the game number and the person to act first."""
    gid = (await service.create_lobby(CHAT, ALICE, "kardinal", seed=seed))[0].game_id
    await service.join(CHAT, BOB, game_id=gid)
    await service.start(CHAT, ALICE, game_id=gid)
    for user in (ALICE, BOB):
        if await service.choices(user, game_id=gid):
            return gid, user
    raise AssertionError("nobody to act")


async def test_a_timed_out_turn_is_played_by_the_strong_ai_one_decision_at_a_time_and_told_once(service):
    """Where the strong AI met its targets it plays a timed-out turn: each action thought in the pool as a job
    of its own (no lock, no transaction), the chat told once; the turn's every action is played once."""
    from bot.service.ai_seats import takeover_level

    assert takeover_level("kardinal", 2) == "strong"
    gid, late = await kardinal_duel(service)
    seat = next(s.seat for s in (await row_of(service, gid)).seats if s.player is not None and
                s.player.external_id == late.id)
    limit = (await service.chat_settings(CHAT))["turn_timer"]
    fired = await asyncio.wait_for(service.run_timers(now() + timedelta(seconds=limit + 1)), GUARD)
    told = [m for m in fired if "time ran out" in m.text]
    assert len(told) == 1 and told[0].chat == CHAT
    assert await moves_of(service, gid) == [] and service.ctx.thinking.pool.calls == 0  # nothing thought under the lock
    assert [(t.seat, t.kind) for t in await timers_of(service, gid)] == [(seat, "takeover")]
    played = []
    for _ in range(6):
        out = await asyncio.wait_for(service.run_timers(), GUARD)
        assert not [m for m in out if "time ran out" in m.text]
        played = [m for m in await moves_of(service, gid) if m.seat == seat]
        if not [t for t in await timers_of(service, gid) if t.kind == "takeover"]:
            break
    # the start player's first turn: a building, the bonus stone, the Cardinal placed; each decided once
    assert [m.action["type"] for m in played] == ["build", "bonus_stone", "place_cardinal"]
    assert [m.by for m in played] == ["timer"] * 3 and [m.seq for m in await moves_of(service, gid)] == [0, 1, 2]
    assert service.ctx.thinking.pool.calls == 3 and service.ctx.thinking.pool.failures == 0
    other = 1 - seat
    assert sorted((t.seat, t.kind) for t in await timers_of(service, gid)) == [(other, "autoplay"),
                                                                              (other, "remind")]


async def test_a_person_back_during_the_takeover_plays_on_and_the_ai_does_not(service):
    gid, late = await kardinal_duel(service)
    limit = (await service.chat_settings(CHAT))["turn_timer"]
    await asyncio.wait_for(service.run_timers(now() + timedelta(seconds=limit + 1)), GUARD)
    assert [t.kind for t in await timers_of(service, gid)] == ["takeover"]
    back = await service.act(CHAT, late, await my_move(service, late, gid), game_id=gid)  # before the AI's job
    assert not [m for m in back if m.kind == "error"], [m.text for m in back]
    await asyncio.wait_for(service.run_timers(), GUARD)
    moves = await moves_of(service, gid)
    assert [m.by for m in moves] == ["player"]  # the stale job played nothing
    # still their turn (the Cardinal): a fresh deadline, no job left
    assert sorted(t.kind for t in await timers_of(service, gid)) == ["autoplay", "remind"]
    assert await service.choices(late, game_id=gid)


async def test_ais_thinking_at_once_share_the_time_when_workers_are_fewer(service):
    """Two strong AIs choose at once (the toy game's secret keep) and the pool has one worker: each thinks half
    the chat's ai_time, so the table waits about ai_time, not twice it."""
    seen = []
    real = service.ctx.thinking.pool.choose
    both_asked = asyncio.Event()

    async def spy(name, state, seat, level, seed, budget, iterations=None):
        seen.append(budget)
        if len(seen) == 2:
            both_asked.set()
        # at once: the first waits until the second has read the game too (on a loaded machine the second job's
        # read came after the first AI's move was committed, and it rightly thought alone, with the whole time)
        await asyncio.wait_for(both_asked.wait(), GUARD)
        return await real(name, state, seat, level, seed, budget, iterations)

    service.ctx.thinking.pool.choose = spy
    service.ctx.thinking.pool.workers = 1
    await service.settings(CHAT, ALICE, "ai_time=0.4", is_admin=True)
    gid = (await service.create_lobby(CHAT, ALICE, "toy", seed=3))[0].game_id
    for _ in range(2):
        await service.add_ai(CHAT, ALICE, "strong", game_id=gid)
    await service.start(CHAT, ALICE, game_id=gid)
    await asyncio.wait_for(service.run_timers(), GUARD)
    assert seen == [0.2, 0.2] and service.ctx.thinking.pool.failures == 0


async def test_a_person_back_during_the_takeover_of_a_time_bank_gets_a_bank_deadline_again(service):
    """A game with time banks: the strong AI takes over a turn whose bank ran out; the person plays on before
    its job, and their turn goes on with a bank timer (not the chat's per-turn timer)."""
    await service.settings(CHAT, ALICE, "clock=1h", is_admin=True)
    gid, late = await kardinal_duel(service)
    fired = await asyncio.wait_for(service.run_timers(now() + timedelta(hours=1, seconds=1)), GUARD)
    assert [m.text for m in fired if "bank ran out" in m.text]
    assert [t.kind for t in await timers_of(service, gid)] == ["takeover"]
    back = await service.act(CHAT, late, await my_move(service, late, gid), game_id=gid)
    assert not [m for m in back if m.kind == "error"], [m.text for m in back]
    await asyncio.wait_for(service.run_timers(), GUARD)
    assert [m.by for m in await moves_of(service, gid)] == ["player"]
    assert sorted(t.kind for t in await timers_of(service, gid)) == ["bank", "remind"]
