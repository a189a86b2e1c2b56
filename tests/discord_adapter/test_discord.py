"""The Discord adapter end to end: real discord.py, a fake Discord over HTTP and a zlib-stream gateway,
a real SQLite file. People use slash commands, lobby buttons, DM pickers and ephemeral fallbacks."""
from __future__ import annotations

import asyncio
import io
import re

from PIL import Image

from bot.render import boards
from storage.models import GameRow
from tests.discord_adapter.fake_discord import CHANNEL_ID, EPHEMERAL, FakeDiscord
from tests.discord_adapter.markdown_reader import shown_outside

PICKER = re.compile(r"^h[bs]:p:\d+:\d+:")
CONTROL = ("◀", "More", "↩", "✔")
text = FakeDiscord.text


def components(message: dict) -> list[dict]:
    return [c for row in message.get("components", []) for c in row.get("components", [])]


def pick(message: dict) -> tuple[str, str, list[str] | None] | None:
    """Like a person in a hurry: the first option of a picker. (kind, custom_id, values) or None."""
    for c in components(message):
        if c["type"] == 3 and PICKER.match(c["custom_id"]):
            count = max(1, c.get("min_values", 1))
            return "select", c["custom_id"], [o["value"] for o in c["options"][:count]]
    buttons = [c for c in components(message) if c["type"] == 2 and PICKER.match(c.get("custom_id", ""))]
    options = [b for b in buttons if not b["label"].startswith(CONTROL)]
    chosen = (options or [None])[0]
    return ("button", chosen["custom_id"], None) if chosen else None


def latest_picker(dc, person) -> dict | None:
    """The person's newest DM (or ephemeral) message that offers a move. A deleted message is no choice: a hand
    retired when a newer one pinged (the person moved twice in a row) keeps its old buttons in the fake's record,
    but nobody can click a message Discord deleted."""
    uid = int(person["id"])
    for message in reversed(dc.api.dms(uid) + dc.api.ephemerals(uid)):
        if pick(message) and not message.get("deleted"):
            return message
    return None


def game_over(dc) -> bool:
    return any("is over" in text(m) for m in dc.api.channel_messages())


async def act(dc, person, message):
    kind, custom_id, values = pick(message)
    if kind == "select":
        return await dc.select(person, message, custom_id, values)
    return await dc.click(person, message, custom_id)


async def play_to_the_end(dc, people, limit=3000):
    for _ in range(limit):
        if game_over(dc):
            return
        moved = False
        for person in people:
            message = latest_picker(dc, person)
            if message is not None:
                record = await act(dc, person, message)
                for answer in dc.answers(record):
                    if "is over" in answer:  # the result is on its way to the channel
                        await dc.wait_for(lambda: game_over(dc))
                        await dc.idle()
                        return
                    assert "out of date" in answer, answer
                moved = True
        if not moved:
            await dc.wait_for(lambda: game_over(dc) or any(latest_picker(dc, p) for p in people))
    raise AssertionError("the game did not end")


def board(dc) -> dict:
    return [m for m in dc.api.channel_messages() if "To act" in text(m) or "is over" in text(m)][-1]


def seat_views(dc, person) -> set[str]:
    return {found.group(1) for m in dc.api.dms(int(person["id"])) + dc.api.ephemerals(int(person["id"]))
            for found in [re.search(r"your view \(seat (\d)\)", text(m))] if found}


async def open_table(dc, game="koenig_artus", **options):
    record = await dc.slash(dc.alice, "new", game=game, **options)
    lobby = [m for m in dc.api.channel_messages() if "table #" in text(m)][-1]
    return record, lobby


def button(message: dict, label: str) -> str:
    return next(c["custom_id"] for c in components(message) if c["type"] == 2 and c["label"] == label)


async def test_koenig_artus_between_two_people_with_lobby_buttons_and_dm_pickers(dc):
    api = dc.api
    assert {c["name"] for c in api.commands} >= {"new", "join", "addai", "start", "hand", "move", "board",
                                                  "leaderboard", "settings", "abort"}
    new_answer, lobby = await open_table(dc)
    assert "Alice" in text(lobby) and dc.answers(new_answer) == []  # the lobby itself is the confirmation
    await dc.click(dc.bob, lobby, button(lobby, "Join"))
    lobby = api.messages[int(lobby["id"])]
    assert "Bob" in text(lobby) and lobby["edits"] >= 1  # the same lobby message, edited
    await dc.click(dc.alice, lobby, button(lobby, "Start"))
    first_board = board(dc)
    assert "Hand 1" in text(first_board) and "```" in text(first_board)
    assert latest_picker(dc, dc.alice) or latest_picker(dc, dc.bob)
    # the board carries the picture of the public view; each DM the picture of its own seat's view
    live = dc.service.ctx.games.loaded(1)
    assert [a["filename"] for a in first_board["attachments"]] == ["board-1.png"]
    assert first_board["attachments"][0]["data"] == boards.draw("koenig_artus", live.state.view(None),
                                                                live.names).png()
    for person in (dc.alice, dc.bob):
        seat = next(s.seat for s in live.seats if s.user and s.user.id == str(person["id"]))
        hand = [m for m in api.dms(int(person["id"])) if m["attachments"]][-1]
        assert hand["attachments"][0]["data"] == boards.draw("koenig_artus", live.state.view(seat),
                                                             live.names).png()
    await play_to_the_end(dc, [dc.alice, dc.bob])
    result = [m for m in api.channel_messages() if "is over" in text(m)][0]
    assert "Alice" in text(result) and "Bob" in text(result)
    # one board message for the whole game, edited after every move; each person saw only their own seat
    posted = [m for m in api.channel_messages() if "König Artus" in text(m) and "#1" in text(m)
              and not text(m).startswith("🔔")]  # the turn line is a message of its own
    assert len([m for m in api.channel_messages() if text(m).startswith("🔔")]) <= 1  # replaced, not a stream
    assert len(posted) <= 3 and max(m["edits"] for m in posted) > 10
    # edited with a new picture each time: one attachment, the final board's
    final = posted[-1]["attachments"]
    assert len(final) == 1 and Image.open(io.BytesIO(final[0]["data"])).width >= 800
    alice, bob = seat_views(dc, dc.alice), seat_views(dc, dc.bob)
    assert len(alice) == 1 and len(bob) == 1 and alice != bob
    for message in api.channel_messages():
        assert "your view" not in text(message)
    # two people, no AI: the game was rated, announced, and the league commands show it
    assert any(text(m).startswith("📈 Ratings") for m in api.channel_messages())
    await dc.slash(dc.mod, "settings", change="min_games=1")
    board_answer = dc.answers(await dc.slash(dc.bob, "leaderboard"))[0]
    assert "König Artus Tafelrunde — season 1" in board_answer and "Alice" in board_answer
    stats = await dc.slash(dc.bob, "stats")
    assert dc.answers(stats)[0].startswith("📜 Bob — 1 game,")
    assert api.messages[stats.followups[0]]["attachments"][0]["data"].startswith(b"\x89PNG")
    assert "#1 König Artus Tafelrunde:" in dc.answers(await dc.slash(dc.alice, "history"))[0]
    assert "Only admins" in dc.answers(await dc.slash(dc.bob, "newseason"))[0]
    await dc.slash(dc.mod, "newseason", game="koenig_artus")
    assert any("A new season begins" in text(m) for m in api.channel_messages())


async def test_list_und_tuecke_against_ai_with_its_picks(dc):
    await open_table(dc, game="list_und_tuecke")
    for _ in range(3):
        await dc.slash(dc.alice, "addai")
    await dc.slash(dc.alice, "start")
    saw_multi = False

    async def alice_moves():
        nonlocal saw_multi
        for _ in range(2000):
            if game_over(dc):
                return
            message = latest_picker(dc, dc.alice)
            if message is None:
                await dc.wait_for(lambda: game_over(dc) or latest_picker(dc, dc.alice))
                continue
            menu = next((c for c in components(message) if c["type"] == 3), None)
            if menu is not None and menu["max_values"] > 1:
                saw_multi = True
                assert menu["min_values"] == menu["max_values"]  # pick exactly H cards
            record = await act(dc, dc.alice, message)
            assert all("out of date" in a for a in dc.answers(record))
        raise AssertionError("the game did not end")

    await alice_moves()
    # issue 38: the high-trump pick has few valid choices, so each is offered whole (one select, one
    # interaction); a multi-select, when a choice has too many, still asks for exactly H cards (above)
    async with dc.service.ctx.uow() as uow:
        row = await uow.session.get(GameRow, 1)
        assert row.status == "finished" and len(row.result["ranking"]) == 4


async def test_closed_dms_are_reported_once_and_hand_works_ephemerally(dc):
    api = dc.api
    api.closed_dms.add(int(dc.bob["id"]))
    _, lobby = await open_table(dc)
    await dc.slash(dc.bob, "join")
    await dc.slash(dc.alice, "start")
    notices = [m for m in api.channel_messages() if "cannot send private messages to Bob" in text(m)]
    assert len(notices) == 1
    # Bob plays from ephemeral messages: /hand in the channel, then the picker goes on there
    for _ in range(6):
        record = await dc.slash(dc.bob, "hand")
        answer = api.messages[record.original_id]
        assert answer["flags"] & EPHEMERAL and "your view" in text(answer)
        if pick(answer):
            before = board(dc)["edits"]
            await act(dc, dc.bob, answer)
            await act(dc, dc.bob, api.messages[record.original_id]) if pick(api.messages[record.original_id]) \
                else None
            assert board(dc)["edits"] > before
            break
        alice_picker = latest_picker(dc, dc.alice)
        await act(dc, dc.alice, alice_picker)
    else:
        raise AssertionError("Bob never got a turn")
    # the board's "My hand" button answers the same way
    record = await dc.click(dc.bob, board(dc), button(board(dc), "🂠 My hand"))
    assert any("your view" in a for a in dc.answers(record))
    assert len([m for m in api.channel_messages() if "cannot send private messages to Bob" in text(m)]) == 1
    assert api.dms(int(dc.bob["id"])) == []


async def test_restart_mid_game_keeps_old_buttons_working(dc):
    await open_table(dc)
    await dc.slash(dc.bob, "join")
    await dc.slash(dc.alice, "start")
    for _ in range(3):
        mover = dc.alice if latest_picker(dc, dc.alice) else dc.bob
        await act(dc, mover, latest_picker(dc, mover))
    mover = dc.alice if latest_picker(dc, dc.alice) else dc.bob
    old = latest_picker(dc, mover)
    before = board(dc)["edits"]
    await dc.stop_bot()
    await dc.start_bot()  # a new process: new client, same database, same fake Discord
    record = await act(dc, mover, old)
    assert dc.answers(record) == []
    assert board(dc)["edits"] > before
    await play_to_the_end(dc, [dc.alice, dc.bob])


async def test_double_click_applies_once_and_the_second_is_out_of_date(dc):
    await open_table(dc)
    await dc.slash(dc.bob, "join")
    await dc.slash(dc.alice, "start")
    mover = dc.alice if latest_picker(dc, dc.alice) else dc.bob
    message = latest_picker(dc, mover)
    kind, custom_id, values = pick(message)
    while kind == "button" and "." not in custom_id.split(":")[-1] and not message["content"].count("Chosen"):
        break
    async with dc.service.ctx.uow() as uow:
        version = (await uow.session.get(GameRow, 1)).version
    send = dc.api.select if kind == "select" else dc.api.click
    args = (mover, message, custom_id, values) if kind == "select" else (mover, message, custom_id)
    first, second = await asyncio.gather(send(*args), send(*args))
    await dc.settle(first)
    await dc.settle(second)
    async with dc.service.ctx.uow() as uow:
        row = await uow.session.get(GameRow, 1)
        moves = await uow.games.last_moves(1, 50)
    assert row.version == version + 1 and len(moves) == 1
    answers = dc.answers(first) + dc.answers(second)
    assert len(answers) == 1 and "out of date" in answers[0]


async def test_forged_foreign_and_unknown_components_change_nothing(dc):
    _, lobby = await open_table(dc)
    await dc.slash(dc.bob, "join")
    await dc.slash(dc.alice, "start")
    mover, other = (dc.alice, dc.bob) if latest_picker(dc, dc.alice) else (dc.bob, dc.alice)
    message = latest_picker(dc, mover)
    _, custom_id, values = pick(message)
    async with dc.service.ctx.uow() as uow:
        version = (await uow.session.get(GameRow, 1)).version
    # Carol (not seated) and the other player press the mover's picker; forged and unknown ids
    carol = await (dc.select(dc.carol, message, custom_id, values) if values is not None
                   else dc.click(dc.carol, message, custom_id))
    assert any("not playing" in a for a in dc.answers(carol))
    other_try = await (dc.select(other, message, custom_id, values) if values is not None
                       else dc.click(other, message, custom_id))
    assert any("not your turn" in a.lower() for a in dc.answers(other_try))
    forged_message = dict(message, components=[{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "x", "custom_id": "hb:p:1:999:0"},
        {"type": 2, "style": 2, "label": "y", "custom_id": "hb:p:1:zz:0.0.0"},
        {"type": 2, "style": 2, "label": "z", "custom_id": "hb:q:1"}]}, {"type": 1, "components": [
        {"type": 3, "custom_id": "hs:p:1:0:|m", "options": [{"label": "a", "value": "77"}], "min_values": 1,
         "max_values": 1}]}])
    forged = await dc.click(mover, forged_message, "hb:p:1:999:0")
    assert any("out of date" in a for a in dc.answers(forged))
    for custom_id in ("hb:p:1:zz:0.0.0", "hb:q:1"):
        garbage = await dc.click(mover, forged_message, custom_id)
        assert any("not one of mine" in a for a in dc.answers(garbage))
    absent = await dc.click(mover, message, "hb:p:1:0:0")  # an id that is not on the message it came from
    unknown = await dc.click(mover, message, "someone-elses-button")
    assert dc.answers(absent) == dc.answers(unknown) == ["That button is not one of mine."]
    bad_menu = await dc.select(mover, forged_message, "hs:p:1:0:|m", ["77"])
    assert any("not one of mine" in a for a in dc.answers(bad_menu))
    async with dc.service.ctx.uow() as uow:
        assert (await uow.session.get(GameRow, 1)).version == version


async def test_typed_moves_bad_input_and_autocomplete(dc):
    api = dc.api
    games = await api.autocomplete(dc.alice, "new", "game", "artus")
    await dc.settle(games)
    assert [c["value"] for c in games.choices] == ["koenig_artus"]
    options = await api.autocomplete(dc.alice, "new", "options", "", game="koenig_artus")
    await dc.settle(options)
    assert "track=27 swords=3,7,11,15,19,23" in [c["value"] for c in options.choices]
    unknown = await dc.slash(dc.alice, "new", game="chess")
    assert any("Unknown game" in a for a in dc.answers(unknown))
    await open_table(dc, options="track=15 swords=2,5,9,12")
    await dc.slash(dc.bob, "join")
    early = await dc.slash(dc.carol, "move", notation="r7")
    assert dc.answers(early) == ["Game #1 has not started yet — /join, then /start it."]
    await dc.slash(dc.alice, "start")
    mover = dc.alice if latest_picker(dc, dc.alice) else dc.bob
    moves = await api.autocomplete(mover, "move", "notation", "")
    await dc.settle(moves)
    assert moves.choices and all(" — " in c["name"] for c in moves.choices)
    nonsense = await dc.slash(mover, "move", notation="banana")
    assert shown_outside(dc.answers(nonsense)[0]).startswith("Play a card like `R7`")  # shown as on Telegram
    before = board(dc)["edits"]
    typed = await dc.slash(mover, "move", notation=moves.choices[0]["value"])
    assert dc.answers(typed) == [] and board(dc)["edits"] > before
    help_answer = await dc.slash(dc.carol, "help")
    assert "/new" in dc.answers(help_answer)[0]
    in_dm = await api.slash(dc.carol, "new", channel_id=api.dm_channels.get(int(dc.alice["id"])), game="x")
    await dc.settle(in_dm)
    assert any("server channel" in a for a in dc.answers(in_dm))


async def test_board_reposted_after_scrolling_and_by_slash_board(dc):
    api = dc.api
    await open_table(dc)
    await dc.slash(dc.bob, "join")
    await dc.slash(dc.alice, "start")
    first = board(dc)
    for i in range(16):
        await api.chatter(dc.carol, f"chatter {i}")
    await dc.wait_for(lambda: dc.bot.adapter.seen[CHANNEL_ID] >= 16)
    mover = dc.alice if latest_picker(dc, dc.alice) else dc.bob
    await act(dc, mover, latest_picker(dc, mover))
    assert board(dc)["id"] != first["id"]  # scrolled away: a new board below the chatter
    again = await dc.slash(dc.carol, "board")
    assert board(dc)["id"] not in (first["id"],) and dc.answers(again) == []


async def test_abort_and_settings_need_the_creator_or_manage_server(dc):
    api = dc.api
    _, lobby = await open_table(dc)
    refused = await dc.slash(dc.bob, "abort")
    assert dc.answers(refused) and "creator" in dc.answers(refused)[0].lower()
    settings = await dc.slash(dc.bob, "settings", change="turn_timer=600")
    assert dc.answers(settings) and "admin" in dc.answers(settings)[0].lower()
    allowed = await dc.slash(dc.mod, "settings", change="turn_timer=600")
    assert "600" in dc.answers(allowed)[0]
    assert (await dc.service.chat_settings(dc.bot.adapter.chat_ref_for(CHANNEL_ID)))["turn_timer"] == 600
    await dc.slash(dc.mod, "abort")
    async with dc.service.ctx.uow() as uow:
        assert (await uow.session.get(GameRow, 1)).status == "aborted"
    assert any("abort" in text(m).lower() for m in api.channel_messages())


async def test_rate_limited_post_is_retried(dc):
    dc.api.rate_limit_next = 1
    _, lobby = await open_table(dc)
    assert "Alice" in text(lobby)
    assert dc.api.requests.count(("POST", f"/api/v10/channels/{CHANNEL_ID}/messages")) == 2
