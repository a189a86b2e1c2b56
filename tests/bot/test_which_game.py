"""Issue 36, item 2: a command without a number means the running game the asker sits in (of several, the one
waiting for them), else the only running game, else the newest; only a real choice is a question, and the question
says where the number goes."""
from __future__ import annotations

import pytest

from bot.service import ChatRef, UserRef, build_service
from rules import get_game
from tests.bot.test_leagues import open_game, play_out, row_of

CHAT = ChatRef("discord", "chan1", "guild1", "general")
ALICE, BOB, CAROL, DAVE = (UserRef("discord", str(i), name) for i, name in
                           enumerate(("Alice", "Bob", "Carol", "Dave"), 1))


@pytest.fixture
async def service(database_url):
    svc = await build_service(database_url)
    yield svc
    await svc.close()


def said(out) -> str:
    return "\n".join(m.text for m in out)


async def board_of(service, user) -> int:
    out = await service.show_board(CHAT, user=user)
    assert not [m for m in out if m.kind == "error"], said(out)
    return next(m.game_id for m in out if m.kind in ("board", "lobby"))


async def test_finished_games_are_never_a_question(service):
    first = await open_game(service, [ALICE, BOB], chat=CHAT, seed=1)
    await play_out(service, first, [ALICE, BOB], chat=CHAT)
    second = await open_game(service, [ALICE, BOB], chat=CHAT, seed=2)
    await play_out(service, second, [ALICE, BOB], chat=CHAT)
    assert await board_of(service, CAROL) == second  # none running: the newest
    log = await service.log(CHAT, CAROL)
    assert f"#{second} " in said(log) and not [m for m in log if m.kind == "error"]
    third = await open_game(service, [ALICE, BOB], chat=CHAT, seed=3)
    assert await board_of(service, CAROL) == third  # the only running one, two finished beside it
    assert await board_of(service, ALICE) == third


async def test_of_two_running_games_the_askers_own_and_the_one_waiting_for_them(service):
    one = await open_game(service, [ALICE, BOB], chat=CHAT, seed=1)
    two = await open_game(service, [ALICE, CAROL], chat=CHAT, seed=2)
    assert await board_of(service, BOB) == one and await board_of(service, CAROL) == two
    # Alice sits in both: the one waiting for her is hers once the other waits for Bob only
    game = get_game("toy")
    for _ in range(10):
        row = await row_of(service, one)
        state = game.from_json(row.state)
        seats = {s.seat: s.player.name for s in row.seats}
        if [seats[s] for s in state.to_act()] == ["Bob"]:
            break
        seat = state.to_act()[0]
        user = ALICE if seats[seat] == "Alice" else BOB
        out = await service.act(CHAT, user, state.legal_actions(seat)[0], game_id=one)
        assert not [m for m in out if m.kind == "error"], said(out)
    else:
        raise AssertionError("game one never waited for Bob alone")
    assert await board_of(service, ALICE) == two
    # Dave sits in neither: a real choice, and he is told where the number goes
    asked = said(await service.show_board(CHAT, user=DAVE))
    assert f"#{one} Duel of Cards" in asked and f"#{two} Duel of Cards" in asked and f"/board {two}" in asked
    assert "open" not in asked.split(":")[0]
    moved = said(await service.act(CHAT, DAVE, "keep 1 2"))
    assert "/move" in moved or "not playing" in moved
