"""Two service processes on one database (two ``Service`` objects, each with its own games in memory, as two
processes have): the defects of the issue "Many bot processes on one database", each on SQLite and PostgreSQL.

The subprocess runs (two and four real processes playing at once, ``kill -9``) are in tests/multiproc/.
"""
from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.service import ChatRef, UserRef, build_service
from bot.service.context import utc_now as now
from storage import UnitOfWork

TG_CHAT = ChatRef("telegram", "-100", "-100", "group")
ALICE = UserRef("telegram", "1", "Alice")
BOB = UserRef("telegram", "2", "Bob")


@pytest.fixture
async def processes(database_url):
    one = await build_service(database_url)
    two = await build_service(database_url)
    yield one, two
    await one.close()
    await two.close()


async def stored(service, gid):
    async with UnitOfWork(service.db) as uow:
        row = await uow.games.get(gid)
        return row, await uow.games.moves(gid), await uow.timers.of_game(gid)


async def seat_of(service, gid, user):
    row, _, _ = await stored(service, gid)
    return next(s.seat for s in row.seats if s.player and s.player.external_id == user.id)


async def toy_game(service):
    lobby = await service.create_lobby(TG_CHAT, ALICE, "toy", seed=3)
    gid = lobby[0].game_id
    await service.join(TG_CHAT, BOB)
    for user in (ALICE, BOB):  # on Telegram a player must have opened the private chat
        await service.dm_opened(user)
    started = await service.start(TG_CHAT, ALICE)
    assert not [m for m in started if m.kind == "error"], [m.text for m in started]
    return gid


async def keep_both(service, gid):
    """Both players keep their two lowest cards (the secret choice); then the tricks begin."""
    for user in (ALICE, BOB):
        row, _, _ = await stored(service, gid)
        hand = row.state["hands"][await seat_of(service, gid, user)]
        out = await service.act(TG_CHAT, user, f"keep {hand[0]} {hand[1]}", game_id=gid)
        assert not [m for m in out if m.kind == "error"], out


def user_of(seat_index, seats):
    return ALICE if seats[seat_index] == "1" else BOB


async def to_act(service, gid):
    row, _, _ = await stored(service, gid)
    seat = row.state["leader"] if not row.state["trick"] else (row.state["leader"] + 1) % 2
    player = next(s.player for s in row.seats if s.seat == seat)
    return seat, (ALICE if player.external_id == "1" else BOB), row


async def test_a_process_never_judges_a_move_against_its_old_copy(processes):
    """Process two loaded the game; process one applies a move; the next player's typed move and newest button,
    both through process two, are accepted (not "not your turn", not "out of date")."""
    one, two = processes
    gid = await toy_game(one)
    await keep_both(one, gid)
    await two.show_board(TG_CHAT, game_id=gid)  # process two now holds its own copy of the game
    seat, user, row = await to_act(one, gid)
    card = row.state["kept"][seat][0]
    out = await one.act(TG_CHAT, user, f"play {card}")
    assert not [m for m in out if m.kind == "error"]
    # the next player answers through the other process, with a typed move
    seat, user, row = await to_act(one, gid)
    typed = await two.act(TG_CHAT, user, f"play {row.state['kept'][seat][0]}")
    assert not [m for m in typed if m.kind == "error"], [m.text for m in typed]
    # and the next one presses the newest button they were sent — it came from the other process
    seat, user, row = await to_act(two, gid)
    hand = [m for m in await two.show_private(user, game_id=gid) if m.kind == "hand"][-1]
    button = hand.buttons[0][0].data
    pressed = await one.press(user, button)  # process one's copy is two moves old
    assert not [m for m in pressed if m.kind == "error"], [m.text for m in pressed]
    _, moves, _ = await stored(one, gid)
    assert len(moves) == 2 + 3 and len({m.seq for m in moves}) == len(moves)


async def test_a_refusal_is_decided_against_the_stored_game(processes):
    """A move that really is out of turn is still refused, by either process, and changes nothing."""
    one, two = processes
    gid = await toy_game(one)
    await keep_both(one, gid)
    await two.show_board(TG_CHAT, game_id=gid)
    seat, user, row = await to_act(one, gid)
    other = BOB if user == ALICE else ALICE
    for process in (one, two):
        refused = await process.act(TG_CHAT, other, "play 1")
        assert refused[0].kind == "error" and "not your turn" in refused[0].text
    after, moves, _ = await stored(one, gid)
    assert after.version == row.version and len(moves) == 2


async def make_due(service, gid):
    """Put the game's deadlines in the past, as if the turn time ran out."""
    async with UnitOfWork(service.db) as uow:
        for timer in await uow.timers.of_game(gid):
            timer.due_at = now() - timedelta(seconds=1)
        await uow.commit()


async def test_a_due_timer_is_fired_by_exactly_one_process(processes):
    one, two = processes
    await one.settings(TG_CHAT, ALICE, "turn_timer=60", is_admin=True)
    gid = await toy_game(one)
    await two.show_board(TG_CHAT, game_id=gid)
    _, _, timers = await stored(one, gid)
    assert {t.kind for t in timers} == {"remind", "autoplay"} and len(timers) == 4  # two seats choose at once
    await make_due(one, gid)
    fired = await asyncio.gather(one.run_timers(), two.run_timers(), one.run_timers(), two.run_timers())
    reminders = [m for out in fired for m in out if m.kind == "notice" and "half of your turn" in m.text]
    timeouts = [m for out in fired for m in out if m.kind == "notice" and "time ran out" in m.text]
    assert len(reminders) == 2 and len(timeouts) == 2  # one of each per seat, whichever process fired it
    _, moves, timers = await stored(one, gid)
    assert [m.by for m in moves] == ["timer", "timer"]
    assert timers and all(t.due_at.replace(tzinfo=None) > now().replace(tzinfo=None) for t in timers)  # the next turn's
    # both processes judge the next move against the game the timers played
    seat, user, row = await to_act(two, gid)
    out = await two.act(TG_CHAT, user, f"play {row.state['kept'][seat][0]}")
    assert not [m for m in out if m.kind == "error"]


async def test_a_timer_fired_from_an_old_copy_plays_the_stored_game(processes):
    """Process two's copy is older than the database when the deadline passes: the turn is still played (the
    deadline is not dropped unplayed) and nothing is applied twice."""
    one, two = processes
    await one.settings(TG_CHAT, ALICE, "turn_timer=60", is_admin=True)
    gid = await toy_game(one)
    await keep_both(one, gid)
    await two.show_board(TG_CHAT, game_id=gid)  # two's copy: nobody has played a card yet
    seat, user, row = await to_act(one, gid)
    await one.act(TG_CHAT, user, f"play {row.state['kept'][seat][0]}")  # a new turn, a new deadline
    await make_due(one, gid)
    out = await two.run_timers()
    assert any("time ran out" in m.text for m in out)
    _, moves, _ = await stored(one, gid)
    assert [m.by for m in moves][:4] == ["player", "player", "player", "timer"]  # (the AI may lead on)
    assert [m.seq for m in moves] == list(range(len(moves)))


async def test_messages_of_a_timer_reach_the_platform_of_the_chat(processes):
    """A process serving only Discord leaves a Telegram game's due timer alone (it claims only its platform's
    games); the process serving Telegram fires it, and its messages are stored for Telegram in the outbox, none
    for Discord."""
    one, two = processes
    one.ctx.serves, two.ctx.serves = {"discord"}, {"telegram"}
    await one.settings(TG_CHAT, ALICE, "turn_timer=60", is_admin=True)
    gid = await toy_game(two)
    await keep_both(two, gid)
    await two.flush_delivered()
    for message in await two.pending_outbox("telegram"):  # what process two said so far went out
        await two.delivered([message.outbox_id])
    await two.flush_delivered()
    assert await two.pending_outbox("telegram") == []
    await make_due(one, gid)
    assert await one.run_timers() == []
    _, _, timers = await stored(one, gid)
    assert timers and all(t.claimed_by is None for t in timers)
    fired = await two.run_timers()
    assert any("half of your turn" in m.text for m in fired)
    texts = [m.text for m in await two.pending_outbox("telegram")]
    assert any("half of your turn" in t for t in texts), texts
    assert await one.claim_outbox(["discord"]) == []
    assert await one.pending_outbox("discord") == []


async def test_messages_of_a_move_survive_the_process_that_made_it(processes):
    """The move is committed with its messages; the process dies before sending them: another process (or the
    same one restarted) delivers them, the newest board of each slot once, and never what was marked sent."""
    one, two = processes
    gid = await toy_game(one)
    for message in await one.pending_outbox():
        await one.delivered([message.outbox_id])
    await one.flush_delivered()
    row, _, _ = await stored(one, gid)
    hand = row.state["hands"][await seat_of(one, gid, ALICE)]
    said = await one.act(TG_CHAT, ALICE, f"keep {hand[0]} {hand[1]}")  # ... and "one" dies before sending
    told = {m.outbox_id for m in said if m.outbox_id}
    assert told and {m.outbox_id for m in await two.pending_outbox()} == told
    assert await two.claim_outbox(["telegram"]) == []  # within the lease the maker is trusted to send them
    two.ctx.delivery_lease = timedelta(0)  # ... and the lease has passed
    recovered = await two.claim_outbox(["telegram"])
    assert {m.text for m in recovered} == {m.text for m in said if m.outbox_id}
    for message in recovered:
        await two.delivered([message.outbox_id])
    await two.flush_delivered()
    assert await two.pending_outbox() == [] and await one.claim_outbox(["telegram"]) == []


async def test_two_processes_moving_many_games_at_once(processes):
    """Both processes act on the same games at the same moment, each move sent to both (as when a person
    double-clicks and the clicks land on two replicas): every move is applied once, nobody sees a lock error."""
    one, two = processes
    games = [await toy_game(one) for _ in range(4)]
    for gid in games:
        await keep_both(one, gid)
    for _ in range(4):
        calls = []
        for gid in games:
            seat, user, row = await to_act(one, gid)
            move = f"play {row.state['kept'][seat][0]}"
            calls += [one.act(TG_CHAT, user, move, game_id=gid), two.act(TG_CHAT, user, move, game_id=gid)]
        answers = await asyncio.gather(*calls)
        for first, second in zip(answers[::2], answers[1::2]):
            errors = [m.text for m in first + second if m.kind == "error"]
            assert len(errors) <= 1 and not any("wrong" in e or "locked" in e for e in errors), errors
    for gid in games:
        row, moves, _ = await stored(one, gid)
        assert row.status == "finished" and len(moves) == 6


async def test_a_settings_change_in_one_process_reaches_the_others(processes, monkeypatch):
    """Process two holds the game in memory when an admin changes the turn timer through process one: the next
    turn process two judges gets the new deadlines (its copy re-reads the chat's settings after SETTINGS_TTL)."""
    from bot.service import live_games

    one, two = processes
    gid = await toy_game(one)
    await keep_both(two, gid)  # process two now holds the game, with the default timer (an hour)
    monkeypatch.setattr(live_games, "SETTINGS_TTL", 0.0)
    await one.settings(TG_CHAT, ALICE, "turn_timer=120", is_admin=True)
    seat, user, row = await to_act(two, gid)
    await two.act(TG_CHAT, user, f"play {row.state['kept'][seat][0]}", game_id=gid)
    _, _, timers = await stored(one, gid)
    due = sorted(t.due_at for t in timers if t.seat != seat)
    assert len(due) == 2 and timedelta(seconds=59) <= due[1] - due[0] <= timedelta(seconds=61)  # half of 120 s


async def test_a_game_another_process_ends_while_it_is_being_found_is_over_not_a_failure(processes, monkeypatch):
    """Process two finds the game active; before it loads it, process one aborts it. Process two answers that
    the game is over (it answered "something went wrong": the game it loaded was None)."""
    one, two = processes
    gid = await toy_game(one)
    from bot.service import finding

    permitted, calls = finding.permitted, []

    async def then_aborted_elsewhere(*args, **kwargs):  # the check that found the game active, then the abort
        await permitted(*args, **kwargs)
        calls.append(1)
        if len(calls) == 1:
            aborted = await one.abort(TG_CHAT, ALICE, game_id=gid)
            assert "aborted" in aborted[0].text

    monkeypatch.setattr(finding, "permitted", then_aborted_elsewhere)
    answer = await two.act(TG_CHAT, BOB, "keep 1 2")
    assert answer[0].kind == "error" and answer[0].text == f"Game #{gid} is over.", answer
