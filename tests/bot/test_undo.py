"""Taking moves back (issue 42) through the service on a real SQLite file (and PostgreSQL where installed):
free undo, the Undo button, refusals with the engine's reason, takebacks by consent (accepted, declined,
expired), the settings, and an undo racing the next player's move in another process."""
from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

import rules
from bot.service import ChatRef, UserRef, build_service
from storage import UnitOfWork

CHAT = ChatRef("discord", "chan1", "guild1", "general")
ALICE = UserRef("discord", "1", "Alice")
BOB = UserRef("discord", "2", "Bob")
PEOPLE = {"1": ALICE, "2": BOB}


@pytest.fixture
async def service(database_url):
    svc = await build_service(database_url)
    yield svc
    await svc.close()


async def start(service, game="kardinal", seed=5, settings=""):
    gid = (await service.create_lobby(CHAT, ALICE, game, seed=seed))[0].game_id
    await service.join(CHAT, BOB)
    if settings:
        await service.settings(CHAT, ALICE, settings, is_admin=True)
    await service.start(CHAT, ALICE)
    return gid


async def stored(service, gid):
    async with UnitOfWork(service.db) as uow:
        row = await uow.games.get(gid)
        moves = await uow.games.moves(gid)
        return row, [(m.seq, m.seat, m.taken_back) for m in moves]


async def to_move(service, gid):
    """(person, seat) whose turn it is."""
    row, _ = await stored(service, gid)
    state = rules.get_game(row.game).from_json(row.state)
    seat = state.to_act()[0]
    person = next(s.player for s in row.seats if s.seat == seat)
    return PEOPLE[person.external_id], seat, state


async def play_first(service, gid, pick=lambda actions: actions[0]):
    person, seat, state = await to_move(service, gid)
    out = await service.act(CHAT, person, pick(state.legal_actions(seat)), game_id=gid)
    assert not [m for m in out if m.kind == "error"], [m.text for m in out]
    return person, out


def undo_buttons(messages, user):
    return [b.data for m in messages if m.user == user and m.kind == "hand" for row in m.buttons for b in row
            if b.data.startswith("u:")]


def told(messages, words):
    return [m for m in messages if m.chat == CHAT and m.user is None and words in m.text]


async def test_free_undo_restores_the_game_and_keeps_the_move_marked(service):
    gid = await start(service)
    before, log_before = await stored(service, gid)
    person, out = await play_first(service, gid)
    after, _ = await stored(service, gid)
    assert undo_buttons(out, person) == [f"u:{gid}:{after.version}"]  # on the mover's own hand only
    other = BOB if person == ALICE else ALICE
    assert not undo_buttons(out, other)

    back = await service.press(person, f"u:{gid}:{after.version}", chat=CHAT)
    row, log = await stored(service, gid)
    assert row.state == before.state and row.version == after.version + 1
    assert log == log_before + [(len(log_before), log[-1][1], True)]  # still logged, marked taken back
    assert len(told(back, "took back their last move")) == 1  # the chat is told once
    assert [m for m in back if m.kind == "board"] and [m for m in back if m.user == person and m.kind == "hand"]
    hand = next(m for m in back if m.user == person and m.kind == "hand")
    # their hand again, with a picker of the new version; no second ping: they pressed Undo, they are at the phone
    assert not hand.ping and any(b.data.startswith(f"p:{gid}:{row.version}:") for r in hand.buttons for b in r)
    shown = "\n".join(m.text for m in await service.log(CHAT, person, game_id=gid))
    assert "(taken back)" in shown  # /log still tells the move, marked

    # the button of the move taken back, pressed again: out of date, nothing changes
    again = await service.press(person, f"u:{gid}:{after.version}", chat=CHAT)
    assert again[0].kind == "error" and "out of date" in again[0].text
    # a picker button drawn before the undo: out of date too
    stale = await service.press(person, f"p:{gid}:{after.version}:", chat=CHAT)
    assert "out of date" in stale[0].text
    assert (await stored(service, gid))[0].version == row.version

    # play on: the next move gets the next seq, and a reloaded game tells nothing of the move taken back
    await play_first(service, gid)
    _, log = await stored(service, gid)
    assert [(seq, back) for seq, _seat, back in log][-2:] == [(len(log_before), True), (len(log_before) + 1, False)]
    service.ctx.games.clear()
    board = await service.show_board(CHAT, game_id=gid)
    assert board and board[0].kind == "board"


async def test_the_undo_button_works_for_a_short_while_and_undo_then_still_does(service):
    gid = await start(service, seed=12)
    person, out = await play_first(service, gid)
    [code] = undo_buttons(out, person)
    clock = service.ctx.clock
    service.ctx.clock = lambda: clock() + timedelta(minutes=6)
    try:
        late = await service.press(person, code, chat=CHAT)
        assert late[0].kind == "error" and "expired" in late[0].text
        typed = await service.undo(CHAT, person, game_id=gid)
    finally:
        service.ctx.clock = clock
    assert len(told(typed, "took back their last move")) == 1


async def test_a_turn_goes_back_step_by_step_and_no_further(service):
    """Kardinal's turn of several steps (a build, then its free stone): each /undo takes one step back, down to
    the state the turn started from, and no further."""
    gid = await start(service, seed=9)
    person = (await to_move(service, gid))[0]
    states = []
    while (await to_move(service, gid))[0] == person and len(states) < 4:
        states.append((await stored(service, gid))[0].state)
        await play_first(service, gid)
    assert len(states) >= 2, "the seed should give a turn of several steps"
    for state in reversed(states):
        out = await service.undo(CHAT, person, game_id=gid)
        assert len(told(out, "took back their last move")) == 1
        assert (await stored(service, gid))[0].state == state
    nothing = await service.undo(CHAT, person, game_id=gid)
    assert nothing[0].kind == "error" and "no move to take back" in nothing[0].text


async def test_a_card_played_from_a_hidden_hand_stays_with_the_engines_reason(service):
    gid = await start(service, game="koenig_artus", seed=3)
    for _ in range(40):  # play until someone plays a card
        person, seat, state = await to_move(service, gid)
        actions = state.legal_actions(seat)
        cards = [a for a in actions if a["type"] == "play_card"]
        out = await service.act(CHAT, person, (cards or actions)[0], game_id=gid)
        if cards:
            break
    assert cards and not undo_buttons(out, person)
    row, log = await stored(service, gid)
    refused = await service.undo(CHAT, person, game_id=gid)
    assert refused[0].kind == "error" and "showed something hidden" in refused[0].text
    assert await stored(service, gid) == (row, log) or (await stored(service, gid))[0].version == row.version


async def mover_then_other(service, gid):
    """Play until a person's move is followed by the other's; (the first, the second, the game before the
    first one's last move)."""
    first = (await to_move(service, gid))[0]
    while True:
        start_row, log = await stored(service, gid)
        await play_first(service, gid)
        if (await to_move(service, gid))[0] != first:
            break
    second, _ = await play_first(service, gid)
    return first, second, start_row, len(log)


async def test_consent_accepted_declined_and_expired(service):
    gid = await start(service, seed=4)
    first, second, start_row, earlier = await mover_then_other(service, gid)
    moved, _ = await stored(service, gid)

    def request_buttons(messages):
        question = [m for m in messages if m.chat == CHAT and m.kind == "confirm"]
        assert question and "asks to take back" in question[0].text
        return [b.data for row in question[0].buttons for b in row]

    # declined: the move stands
    yes, no = request_buttons(await service.undo(CHAT, first, game_id=gid))
    assert yes.startswith("ty:") and no.startswith("tn:")
    foreign = await service.press(first, yes, chat=CHAT)  # the asker cannot answer their own request
    assert foreign[0].kind == "error"
    declined = await service.press(second, no, chat=CHAT)
    assert told(declined, "declined")
    assert (await stored(service, gid))[0].version == moved.version
    late = await service.press(second, yes, chat=CHAT)
    assert late[0].kind == "error" and "no longer open" in late[0].text

    # expired: accepted after the limit
    yes, _no = request_buttons(await service.undo(CHAT, first, game_id=gid))
    clock = service.ctx.clock
    service.ctx.clock = lambda: clock() + timedelta(minutes=11)
    try:
        expired = await service.press(second, yes, chat=CHAT)
    finally:
        service.ctx.clock = clock
    assert told(expired, "expired")
    assert (await stored(service, gid))[0].version == moved.version

    # accepted: both moves go, marked, and the asker is to act again
    yes, _no = request_buttons(await service.undo(CHAT, first, game_id=gid))
    accepted = await service.press(second, yes, chat=CHAT)
    row, log = await stored(service, gid)
    assert row.state == start_row.state
    assert [back for _seq, _seat, back in log] == [False] * earlier + [True, True]
    assert len(told(accepted, "By everyone's consent")) == 1
    assert (await to_move(service, gid))[0] == first


async def test_a_request_the_game_moved_on_from_is_out_of_date(service):
    gid = await start(service, seed=4)
    first, second, _row, _earlier = await mover_then_other(service, gid)
    out = await service.undo(CHAT, first, game_id=gid)
    yes = next(b.data for m in out if m.kind == "confirm" for r in m.buttons for b in r if b.data.startswith("ty:"))
    await play_first(service, gid)  # the game moves on
    stale = await service.press(second, yes, chat=CHAT)
    assert told(stale, "out of date")


async def test_settings_off_consent_and_rated(service):
    gid = await start(service, seed=6, settings="undo=off")
    person, out = await play_first(service, gid)
    assert not undo_buttons(out, person)
    off = await service.undo(CHAT, person, game_id=gid)
    assert off[0].kind == "error" and "switched off" in off[0].text
    await service.settings(CHAT, ALICE, "undo=consent", is_admin=True)
    service.ctx.games.clear()  # the settings as stored (a game trusts its copy for half a minute)
    asked = await service.undo(CHAT, person, game_id=gid)
    assert [m for m in asked if m.kind == "confirm" and "asks to take back" in m.text]
    bad = await service.settings(CHAT, ALICE, "undo=sometimes", is_admin=True)
    assert bad[0].kind == "error" and "free, consent, off" in bad[0].text

    async with UnitOfWork(service.db) as uow:  # a rated game: only free undo
        row = await uow.games.get(gid)
        row.rated = True
        await uow.commit()
    refused = await service.undo(CHAT, person, game_id=gid)
    assert refused[0].kind == "error" and "rated" in refused[0].text


async def test_an_undo_racing_the_next_move_in_another_process(database_url):
    """Two processes on one database: one takes Alice's move back while the other plays Bob's next move.
    Exactly one wins: either the move is taken back (and Bob's is refused) or Bob's move stands (and the undo
    becomes a question to Bob)."""
    one = await build_service(database_url)
    two = await build_service(database_url)
    try:
        gid = await start(one, seed=8)
        before, _ = await stored(one, gid)
        mover, _ = await play_first(one, gid)
        nxt, seat, state = await to_move(two, gid)
        undo, move = await asyncio.gather(one.undo(CHAT, mover, game_id=gid),
                                          two.act(CHAT, nxt, state.legal_actions(seat)[0], game_id=gid))
        row, log = await stored(one, gid)
        taken = [back for _s, _seat, back in log]
        if row.state == before.state:  # the undo won
            assert taken == [True] and [m for m in move if m.kind == "error"]
        else:
            assert taken == [False, False] and [m for m in undo if m.kind == "confirm"]
    finally:
        await one.close()
        await two.close()


async def test_ai_seats_accept_a_takeback_of_what_told_nothing(service):
    """Against an AI that answered at once: /undo takes back the person's move and the AI's answer (an AI seat
    accepts what told nothing), so the person is to move again where they were."""
    gid = (await service.create_lobby(CHAT, ALICE, "kardinal", seed=2))[0].game_id
    await service.add_ai(CHAT, ALICE, "greedy")
    await service.start(CHAT, ALICE)
    for _ in range(30):  # play until one of Alice's moves was answered by the AI
        row, log = await stored(service, gid)
        state = rules.get_game("kardinal").from_json(row.state)
        seat = state.to_act()[0]
        await service.act(CHAT, ALICE, state.legal_actions(seat)[0], game_id=gid)
        _, after = await stored(service, gid)
        if len(after) > len(log) + 1:
            break
    out = await service.undo(CHAT, ALICE, game_id=gid)
    assert len(told(out, "and the AI moves made since")) == 1
    back, marks = await stored(service, gid)
    assert back.state == row.state and [m[2] for m in marks] == [False] * len(log) + [True] * (len(after) - len(log))
