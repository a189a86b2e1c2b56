"""``/notify next=on`` with every real engine, through the service on a SQLite file: people who all asked for the
heads-up play the opening of a game, and each heads-up goes to the person who really acts next (the engine's
order: Guyenne's placements, Kardinal once the building stands, never a trick's winner), at most once a turn."""
from __future__ import annotations

import pytest

import rules
from bot.service import ChatRef, UserRef, build_service
from storage import UnitOfWork

CHAT = ChatRef("discord", "chan", "guild", "general")
PEOPLE = [UserRef("discord", str(i), name) for i, name in enumerate(["Ann", "Bob", "Cid", "Dora", "Eve"], 1)]
REAL_GAMES = sorted(name for name in rules.GAMES if name != "toy")
MOVES = 120


async def to_act(service, game, gid) -> tuple[list[int], dict[int, UserRef]]:
    async with UnitOfWork(service.db) as uow:
        row = await uow.games.get(gid)
    people = {s.seat: next(p for p in PEOPLE if p.id == s.player.external_id) for s in row.seats}
    state = game.from_json(row.state)
    return ([] if state.is_over() else state.to_act()), people


@pytest.mark.parametrize("name", REAL_GAMES)
async def test_each_heads_up_names_who_really_acts_next_once_a_turn(tmp_path, name):
    game = rules.get_game(name)
    service = await build_service(f"sqlite+aiosqlite:///{tmp_path}/h.db")
    try:
        people = PEOPLE[:game.min_players]
        for person in people:
            await service.notify(None, person, "next=on")
        lobby = await service.create_lobby(CHAT, people[0], name, seed=5)
        gid = lobby[0].game_id
        for person in people[1:]:
            await service.join(CHAT, person, game_id=gid)
        out = await service.start(CHAT, people[0], game_id=gid)
        turns: list[tuple[int, list]] = []  # (who acts, the heads-ups said while they did), one entry a turn
        told = []
        for _ in range(MOVES):
            acting, by_seat = await to_act(service, game, gid)
            told += [m for m in out if m.kind == "notice" and "You are next" in m.text]
            if not turns or turns[-1][0] != acting:
                turns.append((acting, []))
            turns[-1][1].extend(told)
            told = []
            if not acting:
                break
            user = by_seat[acting[0]]
            choices = await service.choices(user, game_id=gid)
            out = await service.act(CHAT, user, choices[0][1], game_id=gid)
            if [m for m in out if m.kind == "error" and "secret" in m.text]:  # typed in the group: refused
                out = await service.act(None, user, choices[0][1], game_id=gid)
            assert not [m for m in out if m.kind == "error"], [m.text for m in out]
        said = 0
        for (acting, heads_ups), (following, _) in zip(turns, turns[1:]):
            assert len(heads_ups) <= 1, f"told twice in one turn of {acting}: {[m.text for m in heads_ups]}"
            for message in heads_ups:
                said += 1
                assert len(acting) == 1 and message.is_private and message.user != by_seat[acting[0]]
                assert following == [] or message.user == by_seat[following[0]] and len(following) == 1, \
                    f"{message.user.name} was told they are next, then {following} acted"
                assert by_seat[acting[0]].name in message.text
        assert said >= 3, f"only {said} heads-ups in {len(turns)} turns"
    finally:
        await service.close()
