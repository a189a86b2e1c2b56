"""A hand as dealt is told once: the private message that brings a new round's (List und Tücke) or a new hand's
(König Artus) cards shows them in its view ("Your hand: …"), with no "Your new hand: …" line above saying the same;
the record, which shows no view between moves, still tells the deal in words."""
from __future__ import annotations

import random

import pytest

import rules
from bot.service import ChatRef, UserRef, build_service
from bot.service.record_text import text_record
from bot.service.records import build_record, load_game
from storage import UnitOfWork

CHAT = ChatRef("telegram", "c1", "c1", "table")


@pytest.mark.parametrize("name,count,second", [("list_und_tuecke", 4, "Round 2/4 · trick 1/14"),
                                               ("koenig_artus", 3, "Hand 2 · trick 1/8")])
async def test_a_new_hand_is_shown_by_the_view_alone_and_told_in_the_record(database_url, name, count, second):
    service = await build_service(database_url, pictures=False)
    try:
        people = [UserRef("telegram", str(k), f"P{k}") for k in range(count)]
        gid = (await service.create_lobby(CHAT, people[0], name, seed=5))[0].game_id
        for person in people[1:]:
            await service.join(CHAT, person, game_id=gid)
        for person in people:
            await service.dm_opened(person)
        await service.start(CHAT, people[0], game_id=gid)
        rng = random.Random(1)
        for _ in range(400):
            async with UnitOfWork(service.db) as uow:
                row = await uow.games.get(gid)
            state = rules.get_game(name).from_json(row.state)
            seat = state.to_act()[0]
            person = people[int(next(s.player.external_id for s in row.seats if s.seat == seat))]
            out = await service.act(CHAT, person, rng.choice(state.legal_actions(seat)), game_id=gid)
            hands = [m for m in out if m.kind == "hand" and second in m.text]
            if hands:
                break
        else:
            raise AssertionError("the second round never came")
        assert len(hands) == count  # everybody's new cards, each in their own message
        async with UnitOfWork(service.db) as uow:
            row = await uow.games.get(gid)
            stored = await load_game(uow, gid)
        state = rules.get_game(name).from_json(row.state)
        for message in hands:
            seat = next(s.seat for s in row.seats if s.player.external_id == message.user.id)
            assert "new hand" not in message.text, message.text
            assert message.text.count("Your hand:") == 1
            shown = state.view(seat)["hand"]
            assert message.recipe["view"]["hand"] == shown  # the cards dealt, as the view shows them
            record = text_record(build_record(stored, seat))
            assert record.count("Your new hand:") == 1, record  # the record tells the second deal (the first is
            # the table as dealt)
    finally:
        await service.close()
