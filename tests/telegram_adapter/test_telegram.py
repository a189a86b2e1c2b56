"""The Telegram adapter end to end: real python-telegram-bot, fake Bot API over HTTP, real SQLite file."""
from __future__ import annotations

import io
import re

from PIL import Image

from bot.render import boards
from tests.telegram_adapter.conftest import ALICE, BOB, GROUP

def decode_png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image


PICKER = re.compile(r"^p:\d+:\d+:")


def buttons(message: dict) -> list[dict]:
    return [b for row in message.get("reply_markup", {}).get("inline_keyboard", []) for b in row]


def choose(message: dict) -> str | None:
    """Like a person in a hurry: Done when offered, else the first option of the picker."""
    picks = [b for b in buttons(message) if PICKER.match(b.get("callback_data", ""))]
    done = [b for b in picks if b["text"].startswith("✅")]
    options = [b for b in picks if not b["text"].startswith(("✔", "↩", "✅", "◀", "More"))]
    chosen = (done or options or picks or [None])[0]
    return chosen["callback_data"] if chosen else None


async def open_private_chats(tg, *users):
    for user in users:
        await tg.say(user, user["id"], "/start g1", expect=(user["id"], "Hello"))


def game_over(api) -> bool:
    return any("is over" in m["text"] for m in api.bot_messages(GROUP))


async def play_to_the_end(tg, users, limit=2000):
    """Every human presses through their latest picker until the group hears the result."""
    api = tg.api

    def someone_can_move():
        return game_over(api) or any(choose(api.last_with_keyboard(u["id"]) or {}) for u in users)

    for _ in range(limit):
        await api.wait_for(someone_can_move)  # private messages arrive just after the board
        if game_over(api):
            await tg.idle()
            return
        for user in users:
            message = api.last_with_keyboard(user["id"])
            data = choose(message) if message else None
            if data:
                answer = await tg.press(user, user["id"], message, data)
                if "is over" in (answer.get("text") or ""):  # the result is on its way to the group
                    await api.wait_for(lambda: game_over(api))
                    await tg.idle()
                    return
                assert not answer.get("text") or "out of date" in answer["text"], answer
    raise AssertionError("the game did not end")


async def mover_of(tg, users=(ALICE, BOB)) -> dict:
    """The person whose private chat shows a picker (hands arrive just after the board)."""
    return await tg.api.wait_for(lambda: next(
        (u for u in users if choose(tg.api.last_with_keyboard(u["id"]) or {})), None))


def seats_seen(api, user) -> set[str]:
    return {m.group(1) for msg in api.bot_messages(user["id"])
            for m in [re.search(r"your view \(seat (\d)\)", msg["text"])] if m}


async def test_full_game_of_koenig_artus_between_two_people(tg):
    api = tg.api
    api.group(GROUP)
    lobby = await tg.say(ALICE, GROUP, "/new koenig_artus", expect=(GROUP, "König Artus"))
    links = [b["url"] for b in buttons(lobby) if "url" in b]
    assert links == ["https://t.me/herald_bot?start=g1"]
    await tg.say(BOB, GROUP, "/join@herald_bot", expect=(GROUP, "Bob"))
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "open a private chat"))
    await open_private_chats(tg, ALICE, BOB)
    board = await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "Hand 1"))
    assert "<pre>" in board["text"] and "```" not in board["text"]
    assert api.commands and {c["command"] for c in api.commands} >= {"new", "move", "hand", "leaderboard"}
    # the board is a picture of the public view with the text as caption; each hand a picture of its own view
    live = tg.service.ctx.games.loaded(1)
    await api.wait_for(lambda: all(any("photo" in m for m in api.bot_messages(u["id"])) for u in (ALICE, BOB)))
    assert "photo" in board and api.pictures[(GROUP, board["message_id"])] == \
        boards.draw("koenig_artus", live.state.view(None), live.names).png()
    for user in (ALICE, BOB):
        seat = next(s.seat for s in live.seats if s.user and s.user.id == str(user["id"]))
        hand = [m for m in api.bot_messages(user["id"]) if "photo" in m][-1]
        assert api.pictures[(user["id"], hand["message_id"])] == \
            boards.draw("koenig_artus", live.state.view(seat), live.names).png()
    await play_to_the_end(tg, [ALICE, BOB])
    result = [m for m in api.bot_messages(GROUP) if "is over" in m["text"]][0]
    assert "Alice" in result["text"] and "Bob" in result["text"]
    # each person's private chat only ever showed their own seat's view; the group never a hand
    alice_seat, bob_seat = seats_seen(api, ALICE), seats_seen(api, BOB)
    assert len(alice_seat) == 1 and len(bob_seat) == 1 and alice_seat != bob_seat
    assert not any("Your hand" in m["text"] for m in api.bot_messages(GROUP))
    # the board was edited in place, not re-posted for every move
    posted = [m for m in api.bot_messages(GROUP) if "Hand " in m["text"] and "Trumps" in m["text"] or
              "No trump yet" in m["text"]]
    assert len(posted) <= 3 and max(m.get("edited", 0) for m in posted) > 5
    assert all("photo" in m for m in posted)
    assert sum(1 for method, _ in api.calls if method == "editMessageMedia") > 10
    final = decode_png(api.pictures[(GROUP, posted[-1]["message_id"])])
    assert final.width >= 800
    # two people, no AI: the game was rated, announced, and the league commands show it
    assert any(m["text"].startswith("📈 Ratings") for m in api.bot_messages(GROUP))
    api.admins.add((GROUP, ALICE["id"]))
    await tg.say(ALICE, GROUP, "/settings min_games=1", expect=(GROUP, "min_games"))
    board = await tg.say(BOB, GROUP, "/leaderboard", expect=(GROUP, "🏅 König Artus Tafelrunde — season 1"))
    assert "Alice" in board["text"] and "Bob" in board["text"]
    stats = await tg.say(BOB, GROUP, "/stats", expect=(GROUP, "📜 Bob — 1 game,"))
    assert decode_png(api.pictures[(GROUP, stats["message_id"])]).width >= 800
    await tg.say(BOB, GROUP, "/history", expect=(GROUP, "#1 König Artus Tafelrunde:"))
    await tg.say(BOB, GROUP, "/newseason", expect=(GROUP, "Only admins"))
    await tg.say(ALICE, GROUP, "/newseason", expect=(GROUP, "A new season begins"))
    await tg.say(BOB, GROUP, "/leaderboard koenig_artus 1", expect=(GROUP, "season 1"))


async def test_full_game_of_list_und_tuecke_against_ai(tg):
    api = tg.api
    api.group(GROUP)
    await tg.say(ALICE, GROUP, "/new list_und_tuecke", expect=(GROUP, "Mit List und Tücke"))
    for _ in range(3):
        await tg.say(ALICE, GROUP, "/addai", expect=(GROUP, "AI"))
    await open_private_chats(tg, ALICE)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "Round 1/4"))
    await play_to_the_end(tg, [ALICE])
    assert any("is over" in m["text"] for m in api.bot_messages(GROUP))
    assert seats_seen(api, ALICE) and len(seats_seen(api, ALICE)) == 1


async def test_typed_moves_and_bad_input_in_the_private_chat(tg):
    api = tg.api
    api.group(GROUP)
    await tg.say(ALICE, GROUP, "/new koenig_artus")
    await tg.say(BOB, GROUP, "/join")
    await open_private_chats(tg, ALICE, BOB)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "Hand 1"))
    mover = await mover_of(tg)
    waiting = BOB if mover is ALICE else ALICE
    reply = await tg.say(waiting, GROUP, "/move red-1", expect=(GROUP, "not your turn"))
    assert f"waiting for {mover['first_name']}" in reply["text"]
    reply = await tg.say(mover, mover["id"], "seven of spades", expect=(mover["id"], "Play a card like"))
    assert "You hold" in reply["text"]
    await tg.say(ALICE, GROUP, "/nonsense")  # unknown commands are not for us: ignored quietly
    await tg.say(ALICE, GROUP, "/rules chess", expect=(GROUP, "Unknown game"))
    await tg.say(ALICE, GROUP, "/rules kardinal", expect=(GROUP, "Kardinal"))


async def test_stale_forged_and_foreign_buttons_are_answered_not_applied(tg):
    api = tg.api
    api.group(GROUP)
    await tg.say(ALICE, GROUP, "/new koenig_artus")
    await tg.say(BOB, GROUP, "/join")
    await open_private_chats(tg, ALICE, BOB)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "Hand 1"))
    mover = await mover_of(tg)
    message = api.last_with_keyboard(mover["id"])
    old = dict(message, reply_markup=message["reply_markup"])
    data = choose(message)
    assert (await tg.press(mover, mover["id"], message, data)).get("text") in (None, "")
    stale = await tg.press(mover, mover["id"], old, data)
    assert "out of date" in stale["text"]
    forged = await tg.press(mover, mover["id"], old, "p:1:9999:0")
    assert forged.get("text")
    junk = await tg.press(mover, mover["id"], old, "zz:top")
    assert junk.get("text")
    stranger = {"id": 103, "is_bot": False, "first_name": "Carol"}
    lobby_message = api.bot_messages(GROUP)[0]
    foreign = await tg.press(stranger, GROUP, lobby_message, "p:1:1:0")
    assert "not playing" in foreign["text"]


async def test_a_seat_without_private_chat_blocks_the_start_and_blocked_dms_are_reported(tg):
    api = tg.api
    api.group(GROUP)
    lobby = await tg.say(ALICE, GROUP, "/new koenig_artus", expect=(GROUP, "König Artus"))
    await tg.say(BOB, GROUP, "/join", expect=(GROUP, "must open a private chat"))
    await open_private_chats(tg, ALICE)
    refused = await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "open a private chat"))
    assert "Bob" in refused["text"]
    await open_private_chats(tg, BOB)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "Hand 1"))
    assert lobby
    # the waiting player blocks the bot: their next private message fails with 403 and the group is told
    mover = await mover_of(tg)
    waiting = BOB if mover is ALICE else ALICE
    api.opened.discard(waiting["id"])
    before = tg.snapshot()
    message = api.last_with_keyboard(mover["id"])
    await tg.press(mover, mover["id"], message, choose(message))
    await tg.changed(before, GROUP, f"cannot send private messages to {waiting['first_name']}")


async def test_restart_mid_game_old_keyboards_still_work(tg):
    api = tg.api
    api.group(GROUP)
    await tg.say(ALICE, GROUP, "/new koenig_artus")
    await tg.say(BOB, GROUP, "/join")
    await open_private_chats(tg, ALICE, BOB)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "Hand 1"))
    await tg.stop_bot()
    await tg.start_bot()  # a new process on the same database
    mover = await mover_of(tg)
    message = api.last_with_keyboard(mover["id"])
    before = tg.snapshot()
    answer = await tg.press(mover, mover["id"], message, choose(message))
    assert not answer.get("text")
    await tg.changed(before, GROUP, "Hand 1")  # the board moved on


async def test_rate_limit_429_is_waited_out(tg):
    api = tg.api
    api.group(GROUP)
    api.fail_next["sendMessage"] = [{"ok": False, "error_code": 429, "description": "Too Many Requests: retry after 1",
                                     "parameters": {"retry_after": 1}}]
    lobby = await tg.say(ALICE, GROUP, "/new koenig_artus", expect=(GROUP, "König Artus"))
    assert lobby
    sends = [c for c, _ in api.calls if c == "sendMessage"]
    assert len(sends) >= 2  # the refused call and its retry


async def test_group_upgraded_to_supergroup_keeps_its_games(tg):
    api = tg.api
    api.group(GROUP)
    await tg.say(ALICE, GROUP, "/new koenig_artus")
    await tg.say(BOB, GROUP, "/join")
    await open_private_chats(tg, ALICE, BOB)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "Hand 1"))
    api.migrate(GROUP, -100500)
    await api.wait_for(lambda: True)
    board = await tg.say(ALICE, -100500, "/board", expect=(-100500, "Hand 1"))
    assert "#1" in board["text"]
    games = await tg.say(BOB, -100500, "/games", expect=(-100500, "#1"))
    assert "König Artus" in games["text"]
