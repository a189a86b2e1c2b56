"""Issue 24: each person is shown their seat's view whenever it changed, and only theirs; issue 38: "changed"
means what only they see (``telling.private_part``), or their picker (they are or were to act) — a change of the
public table alone is told by the board, and their hand is left alone (a platform call saved).

A move builds the views it tells once (compared, stored as the message's recipe, drawn); any shortcut that skips
seats (a view "that cannot have changed") must still tell every seat whose view did change. Over random games of
all five games, through the service on a real SQLite file, after every committed move: the board shows exactly
``view(None)`` of the stored state, each person whose ``view(seat)`` differs from the last one they were shown gets
a hand with exactly that view, and no message carries a view that is not its reader's (text recipe and picture
request alike).
"""
from __future__ import annotations

import random

import pytest

import rules
from bot.service import ChatRef, UserRef, build_service
from bot.service.commands import MakeMove, Start
from bot.service.leagues import places_with_resigns
from bot.service.telling import private_part
from storage import UnitOfWork

CHAT = ChatRef("discord", "chan24", "guild24", "table")
GAMES = [("troubadour", 3, ""), ("guyenne", 2, ""), ("guyenne", 3, "mode=teams"), ("list_und_tuecke", 4, ""),
         ("kardinal", 3, ""), ("koenig_artus", 4, "")]  # (game, people, options): every seat a person


async def _stored_state(service, gid: int):
    async with UnitOfWork(service.db) as uow:
        row = await uow.games.get(gid)
        return rules.get_game(row.game).from_json(row.state), row.status


@pytest.mark.parametrize("name,people,options", GAMES)
async def test_every_changed_view_is_told_to_its_seat_and_to_nobody_else(tmp_path, name, people, options):
    service = await build_service(f"sqlite+aiosqlite:///{tmp_path}/views.db", pictures=True)
    try:
        users = [UserRef("discord", str(100 + i), f"P{i}") for i in range(people)]
        gid = (await service.create_lobby(CHAT, users[0], name, options, seed=24))[0].game_id
        for user in users[1:]:
            await service.join(CHAT, user, game_id=gid)
        # as the adapters do: the messages as the bus returns them, picture requests not drawn (checked too)
        out = await service.handle(Start(users[0], CHAT, gid))
        live = service.ctx.games.loaded(gid)
        seat_of = {(s.user.platform, s.user.id): s.seat for s in live.seats}
        user_at = {s.seat: s.user for s in live.seats}  # seats are not in join order
        shown: dict[int | None, dict] = {}
        was_acting: set[int] = set()
        left_alone = 0
        rng = random.Random(name)
        for move in range(60):
            state, status = await _stored_state(service, gid)
            told = [m for m in out if m.kind in ("board", "hand")]
            boards = [m for m in told if m.kind == "board"]
            assert len(boards) == 1 and boards[0].user is None
            board_view = dict(boards[0].recipe["view"])
            if status != "active":  # a finished game's board also carries the result's places (public)
                assert board_view.pop("places") == places_with_resigns(state.ranking(), set())
            assert board_view == state.view(None)
            hands: dict[int, dict] = {}
            for message in told:
                if message.kind != "hand":
                    continue
                seat = seat_of[(message.user.platform, message.user.id)]
                assert message.recipe["seat"] == seat and seat not in hands
                hands[seat] = message.recipe["view"]
                assert hands[seat] == state.view(seat)  # exactly its reader's view
            for message in boards + [m for m in told if m.kind == "hand"]:
                if message.picture is not None:  # the picture shows what the text shows, never more
                    assert message.picture[1] == message.recipe["view"]
            acting = set(state.to_act()) if status == "active" else set()
            for seat in range(people):
                mine = private_part(state.view(seat), state.view(None))
                if mine != shown.get(seat) or seat in acting | was_acting or status != "active":
                    assert seat in hands, f"move {move}: seat {seat}'s own view changed and was not told"
                    shown[seat] = mine
                elif seat not in hands:
                    left_alone += 1  # only the public table changed: the board told it
            if status != "active":
                break
            was_acting = acting
            seat = rng.choice(state.to_act())
            out = await service.handle(MakeMove(user_at[seat], CHAT, rng.choice(state.legal_actions(seat)), gid))
            assert out[0].kind != "error", out[0].text
        assert left_alone > 0  # issue 38: a hand is not edited for news the board tells
    finally:
        await service.close()


async def test_a_stored_picture_request_keeps_its_view_once_and_reads_back_the_same(tmp_path):
    """The outbox stores a board's or hand's view once, though the picture request shows the same view: the
    payload read back (as another process delivering it would) asks for exactly the same picture."""
    import json

    from bot.service.messages import message_from_json, message_to_json

    service = await build_service(f"sqlite+aiosqlite:///{tmp_path}/stored.db", pictures=True)
    try:
        users = [UserRef("discord", "1", "Ann"), UserRef("discord", "2", "Ben")]
        gid = (await service.create_lobby(CHAT, users[0], "koenig_artus", seed=5))[0].game_id
        await service.join(CHAT, users[1], game_id=gid)
        out = await service.handle(Start(users[0], CHAT, gid))  # as the adapters get it: nothing drawn yet
        shown = [m for m in out if m.kind in ("board", "hand")]
        assert shown and all(m.picture is not None for m in shown)
        for message in shown:
            payload = json.loads(json.dumps(message_to_json(message)))
            assert json.dumps(payload).count(json.dumps(message.recipe["view"])) == 1
            back = message_from_json(payload)
            assert back.picture == message.picture and back.recipe["view"] == message.recipe["view"]
    finally:
        await service.close()
