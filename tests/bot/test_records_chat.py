"""/record and /replay through the service (issue #41): who gets which record, the chat's reveal_after_end
setting, and refusals that change nothing."""
from __future__ import annotations

import json

from bot.service import ChatRef, UserRef, build_service
from bot.service import commands as c
from bot.service.commands import PressButton

CHAT = ChatRef("discord", "chan", "guild", "general")
OTHER = ChatRef("discord", "elsewhere", "guild2", "other")
ALICE = UserRef("discord", "1", "Alice")
CAROL = UserRef("discord", "3", "Carol")


async def game_against_ai(service, finish: bool) -> int:
    gid = (await service.create_lobby(CHAT, ALICE, "koenig_artus", seed=3))[0].game_id
    await service.add_ai(CHAT, ALICE, "random", game_id=gid)
    await service.start(CHAT, ALICE, game_id=gid)
    for _ in range(400 if finish else 3):
        if gid not in await service.active_game_ids():
            break
        choices = await service.choices(ALICE, game_id=gid)
        await service.act(CHAT, ALICE, choices[0][1], game_id=gid)
    return gid


def record_of(messages) -> dict:
    [files] = [m.files for m in messages if m.files]
    return json.loads(dict(files)[next(name for name, _ in files if name.endswith(".json"))])


async def test_a_running_games_record_is_the_askers_view_and_public_for_others(tmp_path):
    service = await build_service(f"sqlite+aiosqlite:///{tmp_path}/h.db")
    try:
        gid = await game_against_ai(service, finish=False)
        mine = await service.handle(c.SendRecord(ALICE, CHAT, gid))
        assert [m.user for m in mine if m.files] == [ALICE] and all(m.chat is None for m in mine if m.files)
        assert isinstance(record_of(mine)["audience"], int) and record_of(mine)["seed"] is None
        theirs = await service.handle(c.SendRecord(CAROL, CHAT, gid))
        assert record_of(theirs)["audience"] == "public"
        refused = await service.handle(c.ShowReplay(CAROL, CHAT, gid, ""))
        assert [m.kind for m in refused] == ["error"] and "still running" in refused[0].text
        elsewhere = await service.handle(c.SendRecord(CAROL, OTHER, gid))
        assert [m.kind for m in elsewhere] == ["error"] and "another chat" in elsewhere[0].text
    finally:
        await service.close()


async def test_reveal_after_end_off_keeps_hidden_cards_hidden(tmp_path):
    service = await build_service(f"sqlite+aiosqlite:///{tmp_path}/h.db")
    try:
        gid = await game_against_ai(service, finish=True)
        assert record_of(await service.handle(c.SendRecord(CAROL, CHAT, gid)))["audience"] == "all"
        settings = await service.settings(CHAT, ALICE, "reveal_after_end=off", is_admin=True)
        assert "reveal_after_end = off" in settings[0].text
        assert record_of(await service.handle(c.SendRecord(CAROL, CHAT, gid)))["audience"] == "public"
        own = record_of(await service.handle(c.SendRecord(ALICE, CHAT, gid)))
        assert isinstance(own["audience"], int) and own["seed"] is None and own["result"]["places"]
        [shown] = await service.handle(c.ShowReplay(CAROL, CHAT, gid, "3"))
        assert "step 3 of" in shown.text and not [b for row in shown.buttons for b in row if "All" in b.label]
        [refused] = await service.handle(PressButton(CAROL, CHAT, f"v:{gid}:3:a"))
        assert refused.kind == "error" and "reveal_after_end=off" in refused.text
        refused = await service.settings(CHAT, ALICE, "reveal_after_end=maybe", is_admin=True)
        assert "reveal_after_end is one of: on, off" in refused[0].text
    finally:
        await service.close()


async def test_a_record_leaves_out_the_moves_taken_back(database_url):
    """A move taken back (/undo) stays in the log, marked: the record is of the game as it stands — its last
    step is the stored state — and the move taken back is no step of it."""
    from bot.service.replay import Replay
    from bot.service.records import load_game
    from storage import UnitOfWork
    from tests.bot.test_undo import ALICE as PERSON, CHAT as TABLE, play_first, start, stored

    service = await build_service(database_url)
    try:
        gid = await start(service)
        person, _out = await play_first(service, gid)
        back = await service.undo(TABLE, person, game_id=gid)
        assert not [m for m in back if m.kind == "error"]
        for _ in range(3):
            await play_first(service, gid)
        row, log = await stored(service, gid)
        assert [taken for _seq, _seat, taken in log] == [True, False, False, False]
        sent = await service.handle(c.SendRecord(PERSON, TABLE, gid))
        record = record_of(sent)
        replay = Replay(record)
        async with UnitOfWork(service.db) as uow:
            seat = (await load_game(uow, gid)).seat_of_player((await uow.players.find("discord", "1")).id)
        game = replay.game
        assert replay.steps == 3 and record["audience"] == seat
        assert replay.view(3, seat) == game.from_json(row.state).view(seat)
        assert replay.view(3, None) == game.from_json(row.state).view(None)
    finally:
        await service.close()
