"""Every real engine through the service on a SQLite file: a person plays a whole game against AI seats,
half by the picker's buttons and half by typed notation, and what each message carries is checked."""
from __future__ import annotations

import re

import pytest

import rules
from bot.service import ChatRef, UserRef, build_service
from storage import UnitOfWork

CHAT = ChatRef("discord", "chan", "guild", "general")
ALICE = UserRef("discord", "1", "Alice")
REAL_GAMES = sorted(name for name in rules.GAMES if name != "toy")
MOVE_CAP = 3000


def check_message(message) -> None:
    assert "Traceback" not in message.text
    assert not re.search(r"\{P\d+\}", message.text), "a seat placeholder was left in: " + message.text[:200]
    assert message.text.strip() or message.retire  # (a retired slot's message is not shown: its old one goes)
    for row in message.buttons:
        for button in row:
            assert button.label.strip() and len(button.data.encode()) <= 64


async def press_once(service, gid) -> list:
    """One pass through the picker, like a person: first option at each level, Done when offered."""
    out = await service.show_private(ALICE, game_id=gid)
    for _ in range(40):
        hands = [m for m in out if m.kind == "hand" and m.user == ALICE]
        if not hands:
            return out
        buttons = [b for row in hands[-1].buttons for b in row]
        if not buttons:
            return out
        done = [b for b in buttons if b.label.startswith("✅")]
        options = [b for b in buttons if not b.label.startswith(("✔", "↩", "✅", "◀", "▶"))]
        out = await service.press(ALICE, (done or options or buttons)[0].data)
        if any(m.kind in ("board", "result") for m in out):
            return out
        assert not [m for m in out if m.kind == "error"], [m.text for m in out]
    raise AssertionError("the picker never reached an action")


@pytest.mark.parametrize("name", REAL_GAMES)
async def test_a_person_plays_a_whole_game_against_ai(tmp_path, name):
    game = rules.get_game(name)
    service = await build_service(f"sqlite+aiosqlite:///{tmp_path}/h.db")
    try:
        lobby = await service.create_lobby(CHAT, ALICE, name, seed=11)
        gid = lobby[0].game_id
        for _ in range(game.min_players - 1):
            await service.add_ai(CHAT, ALICE, "random", game_id=gid)
        seen = await service.start(CHAT, ALICE, game_id=gid)
        assert not [m for m in seen if m.kind == "error"], [m.text for m in seen]
        for turn in range(MOVE_CAP):
            if gid not in service.ctx.games:
                break
            if turn % 2:
                out = await press_once(service, gid)
            else:
                choices = await service.choices(ALICE, game_id=gid)
                assert len({label for label, _ in choices}) == len(choices), "the menu offers a move twice"
                out = await service.act(CHAT, ALICE, choices[0][1], game_id=gid) if choices else []
                if [m for m in out if m.kind == "error" and "secret" in m.text]:  # typed in the group: refused
                    out = await service.act(None, ALICE, choices[0][1], game_id=gid)  # so, privately
            assert not [m for m in out if m.kind == "error"], [m.text for m in out]
            seen += out
        for message in seen:
            check_message(message)
        public = [m for m in seen if m.chat is not None and m.user is None]
        assert any(m.kind == "board" for m in public) and any(m.kind == "result" for m in public)
        assert all(m.user == ALICE for m in seen if m.user is not None)
        async with UnitOfWork(service.db) as uow:
            row = await uow.games.get(gid)
            assert row.status == "finished"
            assert sorted(row.result["ranking"])[0] == 1 and len(row.result["ranking"]) == game.min_players
            moves = await uow.games.moves(gid)
            assert [m.seq for m in moves] == list(range(len(moves)))
        # the stored log replays to the stored final state: nothing lost
        state = game.new_game(game.min_players, seed=row.seed, options=row.options)
        for m in moves:
            state.apply(m.seat, m.action)
        assert state.to_json() == row.state
    finally:
        await service.close()
