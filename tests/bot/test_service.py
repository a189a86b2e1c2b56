"""The service layer end to end on a real SQLite file, with the toy game (tests/toygame.py)."""
from __future__ import annotations

import asyncio
import re
from datetime import datetime, timedelta, timezone

import pytest

from bot.service import ChatRef, UserRef, build_service
from storage import UnitOfWork

CHAT = ChatRef("discord", "chan1", "guild1", "general")
OTHER_CHAT = ChatRef("discord", "chan2", "guild1", "other")
ALICE = UserRef("discord", "1", "Alice")
BOB = UserRef("discord", "2", "Bob")
CAROL = UserRef("discord", "3", "Carol")


@pytest.fixture
async def service(database_url):
    svc = await build_service(database_url)
    yield svc
    await svc.close()


def texts(messages):
    return "\n".join(m.text for m in messages)


def only(messages, kind):
    found = [m for m in messages if m.kind == kind]
    assert found, f"no {kind} message in {[m.kind for m in messages]}"
    return found


async def two_player_game(service, seed=7):
    lobby = await service.create_lobby(CHAT, ALICE, "toy", seed=seed)
    gid = lobby[0].game_id
    await service.join(CHAT, BOB)
    started = await service.start(CHAT, ALICE)
    return gid, started


async def row_of(service, gid):
    async with UnitOfWork(service.db) as uow:
        return await uow.games.get(gid)


async def seat_of(service, gid, user):
    row = await row_of(service, gid)
    return next(s.seat for s in row.seats if s.player and s.player.external_id == user.id)


async def hand_of(service, gid, user):
    row = await row_of(service, gid)
    return row.state["hands"][await seat_of(service, gid, user)]


async def test_lobby_flow_and_bad_input(service):
    lobby = await service.create_lobby(CHAT, ALICE, "toy")
    assert lobby[0].kind == "lobby" and "Alice" in lobby[0].text
    gid = lobby[0].game_id
    assert [b.data for b in lobby[0].buttons[0]] == [f"j:{gid}", f"l:{gid}", f"a:{gid}", f"s:{gid}"]

    unknown = await service.create_lobby(CHAT, ALICE, "chess")
    assert unknown[0].kind == "error" and "Unknown game" in unknown[0].text
    bad_option = await service.create_lobby(CHAT, ALICE, "toy", "speed=3")
    assert bad_option[0].kind == "error" and "no option" in bad_option[0].text

    too_few = await service.start(CHAT, ALICE, game_id=gid)
    assert too_few[0].kind == "error" and "at least 2" in too_few[0].text
    twice = await service.join(CHAT, ALICE, game_id=gid)
    assert twice[0].kind == "error" and "already" in twice[0].text
    await service.join(CHAT, BOB, game_id=gid)
    await service.add_ai(CHAT, BOB, "random", game_id=gid)
    full = await service.join(CHAT, CAROL, game_id=gid)
    assert full[0].kind == "error" and "full" in full[0].text
    bad_level = await service.add_ai(CHAT, BOB, "genius", game_id=gid)
    assert bad_level[0].kind == "error" and "Unknown AI level" in bad_level[0].text

    started = await service.start(CHAT, ALICE, game_id=gid)
    assert only(started, "board")
    again = await service.start(CHAT, ALICE, game_id=gid)
    assert again[0].kind == "error" and "already running" in again[0].text
    row = await row_of(service, gid)
    assert row.status == "active" and sorted(s.seat for s in row.seats) == [0, 1, 2]


async def test_private_views_and_hidden_information(service):
    gid, started = await two_player_game(service)
    hands = {u.id: await hand_of(service, gid, u) for u in (ALICE, BOB)}
    board = only(started, "board")[0]
    privates = only(started, "hand")
    assert {m.user.id for m in privates} == {"1", "2"}
    for m in privates:
        assert m.chat is None and str(hands[m.user.id]) in m.text
        other = hands["2" if m.user.id == "1" else "1"]
        assert str(other) not in m.text
    for hand in hands.values():
        assert str(hand) not in board.text
    # Alice keeps two cards in secret: Bob and the channel learn only that she chose.
    keep = f"keep {hands['1'][0]} {hands['1'][1]}"
    out = await service.act(None, ALICE, keep)
    board = only(out, "board")[0]
    assert "Alice has chosen" in board.text and keep not in board.text
    assert str([hands["1"][0], hands["1"][1]]) not in board.text
    bob_view = [m for m in out if m.user == BOB]
    assert all(str([hands["1"][0], hands["1"][1]]) not in m.text for m in bob_view)
    alice_view = [m for m in out if m.user == ALICE and m.chat is None][0]
    assert f"You keep {[hands['1'][0], hands['1'][1]]}" in alice_view.text


async def test_moves_are_stored_and_bad_moves_change_nothing(service):
    gid, _ = await two_player_game(service)
    before = await row_of(service, gid)
    for who, text, expected in [
        (CAROL, "keep 1 2", "not playing"),
        (ALICE, "dance", "Type `keep 3 7`"),
        (ALICE, "keep 99 98", "not allowed"),
    ]:
        reply = await service.act(CHAT, who, text)
        assert reply[0].kind == "error" and expected in reply[0].text
    after = await row_of(service, gid)
    assert after.version == before.version and after.state == before.state
    hand = await hand_of(service, gid, ALICE)
    await service.act(CHAT, ALICE, f"keep {hand[0]} {hand[1]}")
    twice = await service.act(CHAT, ALICE, f"keep {hand[2]} {hand[3]}")
    assert twice[0].kind == "error" and "not your turn" in twice[0].text
    async with UnitOfWork(service.db) as uow:
        moves = await uow.games.moves(gid)
    assert [(m.seq, m.action) for m in moves] == [(0, {"type": "keep", "cards": hand[:2]})]
    alice = await seat_of(service, gid, ALICE)
    assert any(e["kind"] == "kept" and e["audience"] == [alice] for e in moves[0].events)


async def press_through(service, user, gid):
    """Press the picker like a person in a hurry: Done when it is offered, else the first option."""
    out = await service.show_private(user, game_id=gid)
    for _ in range(20):
        hand = [m for m in out if m.kind == "hand" and m.user == user][-1]
        buttons = [b for row in hand.buttons for b in row]
        if not buttons:
            return []
        done = [b for b in buttons if b.label.startswith("✅")]
        options = [b for b in buttons if not b.label.startswith(("✔", "↩", "✅"))]
        out = await service.press(user, (done or options)[0].data)
        if any(m.kind == "board" for m in out):
            return out
    raise AssertionError("the picker never reached an action")


async def play_out(service, gid):
    """Both humans press through their pickers until the game ends; returns all messages."""
    seen = []
    for _ in range(60):
        if (await row_of(service, gid)).status != "active":
            return seen
        for user in (ALICE, BOB):
            seen += await press_through(service, user, gid)
    raise AssertionError("game did not finish")


async def test_full_game_through_buttons_and_result(service):
    gid, _ = await two_player_game(service)
    seen = await play_out(service, gid)
    row = await row_of(service, gid)
    assert row.status == "finished" and row.result["ranking"]
    result = [m for m in seen if m.kind == "result"][0]
    assert "is over" in result.text and result.chat == CHAT
    async with UnitOfWork(service.db) as uow:
        moves = await uow.games.moves(gid)
    assert len(moves) == 2 + 4  # two secret choices, two tricks of two cards
    after = await service.act(CHAT, ALICE, "play 1", game_id=gid)
    assert after[0].kind == "error" and "no open game" not in after[0].text.lower() or "over" in after[0].text


async def test_stale_double_and_forged_buttons(service):
    gid, _ = await two_player_game(service)
    hand = (await service.show_private(ALICE, game_id=gid))[0]
    done = hand.buttons[0][0].data  # a chat's picker offers the six choices of two cards whole: one press
    assert re.fullmatch(r"keep \d+ \d+", hand.buttons[0][0].label)  # (the whole move on the button)
    first = await service.press(ALICE, done)
    assert any(m.kind == "board" for m in first)
    version = (await row_of(service, gid)).version
    double = await service.press(ALICE, done)
    assert double[0].kind == "error" and "out of date" in double[0].text
    assert (await row_of(service, gid)).version == version
    for forged in ["p:999:1:0", "p:abc", "zz:1", f"p:{gid}:{version}:9.9.9", f"p:{gid}:{version}:mffff", "", "j:x"]:
        reply = await service.press(BOB, forged, chat=CHAT)
        assert reply[0].kind == "error", forged
        assert (await row_of(service, gid)).version == version
    stranger = await service.press(CAROL, f"p:{gid}:{version}:0", chat=CHAT)
    assert stranger[0].kind == "error" and "not playing" in stranger[0].text


async def test_restart_resumes_game(database_url):
    url = database_url
    first = await build_service(url)
    gid, _ = await two_player_game(first)
    hand = await hand_of(first, gid, ALICE)
    await first.act(CHAT, ALICE, f"keep {hand[0]} {hand[1]}")
    await first.close()
    second = await build_service(url)
    try:
        assert await second.active_game_ids() == [gid]
        board = await second.show_board(CHAT)
        assert board[0].kind == "board" and board[0].fresh and "Alice has chosen" in board[0].text
        bob_hand = await hand_of(second, gid, BOB)
        out = await second.act(CHAT, BOB, f"keep {bob_hand[0]} {bob_hand[1]}")
        assert only(out, "board")
        row = await row_of(second, gid)
        assert row.state["kept"] == [k for k in row.state["kept"]] and None not in row.state["kept"]
    finally:
        await second.close()


async def test_two_writers_cannot_both_apply(database_url):
    url = database_url
    one = await build_service(url)
    two = await build_service(url)
    try:
        gid, _ = await two_player_game(one)
        await two.show_board(CHAT, game_id=gid)  # the second process now holds its own picture of the game
        assert gid in two.ctx.games
        # a move through the second process after the first one moved: its picture is stale, the
        # version check refuses the write, it re-reads and judges the move again: applied once
        hand = await hand_of(one, gid, ALICE)
        await one.act(CHAT, ALICE, f"keep {hand[0]} {hand[1]}")
        again = await two.act(CHAT, ALICE, f"keep {hand[0]} {hand[1]}")
        assert again[0].kind == "error"
        async with UnitOfWork(one.db) as uow:
            assert len(await uow.games.moves(gid)) == 1
    finally:
        await one.close()
        await two.close()


async def test_concurrent_moves_apply_once(service):
    gid, _ = await two_player_game(service)
    hand = await hand_of(service, gid, ALICE)
    results = await asyncio.gather(*[service.act(CHAT, ALICE, f"keep {hand[0]} {hand[1]}") for _ in range(5)])
    assert sum(1 for r in results if any(m.kind == "board" for m in r)) == 1
    async with UnitOfWork(service.db) as uow:
        assert len(await uow.games.moves(gid)) == 1


async def test_turn_timer_reminds_then_plays(service):
    await service.settings(CHAT, ALICE, "turn_timer=600", is_admin=True)
    gid, _ = await two_player_game(service)
    async with UnitOfWork(service.db) as uow:
        timers = await uow.timers.of_game(gid)
    assert sorted((t.seat, t.kind) for t in timers) == [(0, "autoplay"), (0, "remind"), (1, "autoplay"), (1, "remind")]
    now = datetime.now(timezone.utc)
    assert await service.run_timers(now) == []
    reminders = await service.run_timers(now + timedelta(seconds=301))
    assert sorted(m.user.id for m in reminders) == ["1", "2"] and all("half" in m.text for m in reminders)
    played = await service.run_timers(now + timedelta(seconds=601))
    notices = [m for m in played if m.kind == "notice"]
    assert len(notices) == 2 and all("time ran out" in m.text for m in notices)
    async with UnitOfWork(service.db) as uow:
        moves = await uow.games.moves(gid)
        assert [m.by for m in moves][:2] == ["timer", "timer"]
        assert {m.seat for m in moves[:2]} == {0, 1}


async def test_timers_survive_restart(database_url):
    url = database_url
    first = await build_service(url)
    await first.settings(CHAT, ALICE, "turn_timer=60", is_admin=True)
    gid, _ = await two_player_game(first)
    await first.close()
    second = await build_service(url)
    try:
        due = await second.next_timer_due()
        assert due is not None
        played = await second.run_timers(datetime.now(timezone.utc) + timedelta(seconds=61))
        assert any("time ran out" in m.text for m in played)
    finally:
        await second.close()


async def test_resign_and_abort(service):
    gid, _ = await two_player_game(service)
    not_creator = await service.abort(CHAT, BOB, game_id=gid)
    assert not_creator[0].kind == "error" and "creator" in not_creator[0].text
    out = await service.resign(CHAT, BOB)
    assert "resigned" in out[0].text
    row = await row_of(service, gid)
    bob_seat = next(s for s in row.seats if s.player and s.player.external_id == "2")
    assert bob_seat.resigned and row.state["kept"][bob_seat.seat] is not None  # the AI chose for Bob
    aborted = await service.abort(CHAT, BOB, game_id=gid, is_admin=True)
    assert "aborted" in aborted[0].text
    assert (await row_of(service, gid)).status == "aborted"


async def test_several_games_in_one_chat_need_a_number(service):
    a = (await service.create_lobby(CHAT, ALICE, "toy"))[0].game_id
    b = (await service.create_lobby(CHAT, BOB, "toy"))[0].game_id
    ambiguous = await service.join(CHAT, CAROL)
    assert ambiguous[0].kind == "error" and f"#{a}" in ambiguous[0].text and f"#{b}" in ambiguous[0].text
    assert (await service.join(CHAT, CAROL, game_id=b))[0].kind == "lobby"
    listing = await service.games(CHAT)
    assert f"#{a}" in listing[0].text and f"#{b}" in listing[0].text
    elsewhere = await service.join(OTHER_CHAT, CAROL, game_id=a)
    assert elsewhere[0].kind == "error" and "played in another chat" in elsewhere[0].text


async def test_settings_and_rules(service):
    shown = await service.settings(CHAT, ALICE)
    assert "turn_timer = 3600" in shown[0].text
    refused = await service.settings(CHAT, ALICE, "turn_timer=10", is_admin=False)
    assert refused[0].kind == "error"
    bad = await service.settings(CHAT, ALICE, "turn_timer=soon", is_admin=True)
    assert bad[0].kind == "error" and "whole number" in bad[0].text
    ok = await service.settings(CHAT, ALICE, "turn_timer=5m", is_admin=True)
    assert "turn_timer = 300" in ok[0].text
    assert (await service.chat_settings(CHAT))["turn_timer"] == 300
    summary = await service.rules_text(CHAT, "toy")
    assert "Duel of Cards" in summary[0].text
    assert "Unknown game" in (await service.rules_text(CHAT, "go"))[0].text


async def test_telegram_needs_private_chat_before_start(service):
    group = ChatRef("telegram", "-100", "-100", "group")
    dave = UserRef("telegram", "10", "Dave")
    erin = UserRef("telegram", "11", "Erin")
    await service.create_lobby(group, dave, "toy")
    joined = await service.join(group, erin)
    assert "must open a private chat" in joined[0].text
    assert any(m.kind == "dm_needed" for m in joined)
    refused = await service.start(group, dave)
    assert refused[0].kind == "error" and "Dave" in refused[0].text and "Erin" in refused[0].text
    await service.dm_opened(dave)
    reopened = await service.dm_opened(erin)
    assert "must open" not in reopened[0].text
    assert only(await service.start(group, dave), "board")


async def test_dm_failure_reported_once(service):
    gid, _ = await two_player_game(service)
    first = await service.dm_failed(BOB, gid)
    assert first and first[0].chat == CHAT and "Bob" in first[0].text
    assert await service.dm_failed(BOB, gid) == []
