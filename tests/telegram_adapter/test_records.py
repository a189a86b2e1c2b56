"""Records and replays on Telegram (issue #41): /record sends two documents privately, /replay posts a step whose
buttons edit it in place (also after a restart), bad input gets a clear answer."""
from __future__ import annotations

import json

from bot.service.replay import Replay
from tests.telegram_adapter.conftest import ALICE, BOB, GROUP
from tests.telegram_adapter.test_telegram import buttons, open_private_chats, play_to_the_end


async def finished_game(tg) -> None:
    """Alice plays a game of Mit List und Tücke against three AIs to the end (game #1)."""
    tg.api.group(GROUP)
    await tg.say(ALICE, GROUP, "/new list_und_tuecke", expect=(GROUP, "Mit List und Tücke"))
    for _ in range(3):
        await tg.say(ALICE, GROUP, "/addai", expect=(GROUP, "AI"))
    await open_private_chats(tg, ALICE)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "Round 1/4"))
    await play_to_the_end(tg, [ALICE])


def documents(api, chat_id) -> dict[str, bytes]:
    return {name: data for (chat, _id), (name, data) in api.documents.items() if chat == chat_id}


async def test_record_sends_both_files_privately(tg):
    api = tg.api
    await finished_game(tg)
    await open_private_chats(tg, BOB)
    await tg.say(BOB, GROUP, "/record 1", expect=(GROUP, "I sent you the record of game #1 privately"))
    await tg.idle()
    files = documents(api, BOB["id"])
    assert sorted(files) == ["herald-game-1.json", "herald-game-1.txt"]
    assert not documents(api, GROUP) and not documents(api, ALICE["id"])  # privately, to the asker only
    record = json.loads(files["herald-game-1.json"])
    assert record["audience"] == "all" and record["status"] == "finished"  # the game is over: everything
    replay = Replay(record)
    assert replay.state(replay.steps).is_over()
    text = files["herald-game-1.txt"].decode()
    assert "Mit List und Tücke" in text and "As Alice saw it:" in text
    sent = [m for m in api.bot_messages(BOB["id"]) if "document" in m]
    assert [m["document"]["file_name"] for m in sent] == ["herald-game-1.json", "herald-game-1.txt"]
    assert "every hidden card shown" in sent[-1]["text"]
    await tg.say(BOB, BOB["id"], "/record 1", expect=(BOB["id"], "played in another chat"))  # privately: players only


async def test_replay_steps_in_place_and_its_buttons_outlive_a_restart(tg):
    api = tg.api
    await finished_game(tg)
    shown = await tg.say(BOB, GROUP, "/replay #1 2", expect=(GROUP, "step 2 of"))
    assert "photo" in shown and "seen as: the table" in shown["text"]
    codes = {b["text"]: b["callback_data"] for b in buttons(shown)}
    assert codes["▶"] == "v:1:3:t" and codes["◀"] == "v:1:1:t"
    before = tg.snapshot()
    answer = await tg.press(BOB, GROUP, shown, codes["▶"])
    assert not answer.get("text")
    edited = await tg.changed(before, GROUP, "step 3 of")
    assert edited["message_id"] == shown["message_id"]  # edited in place, not posted anew
    await tg.stop_bot()
    await tg.start_bot()  # a new process on the same database: the old buttons still step
    before = tg.snapshot()
    await tg.press(ALICE, GROUP, edited, codes["🔓 All"].replace(":2:", ":3:"))
    everything = await tg.changed(before, GROUP, "seen as: everything")
    assert everything["message_id"] == shown["message_id"] and "— Alice —" in everything["text"]


async def test_bad_replays_are_answered_clearly(tg):
    await finished_game(tg)
    await tg.say(BOB, GROUP, "/replay #1 9999", expect=(GROUP, "there is no step 9999"))
    await tg.say(BOB, GROUP, "/replay #42", expect=(GROUP, "There is no game #42"))
    await tg.say(BOB, GROUP, "/replay #1 seat 7", expect=(GROUP, "There is no seat 7"))
    await tg.say(BOB, GROUP, "/replay", expect=(GROUP, "Which game?"))
    shown = await tg.say(BOB, GROUP, "/replay #1 0", expect=(GROUP, "step 0 of"))
    answer = await tg.press(BOB, GROUP, shown, "v:1:99999:t")
    assert "there is no step 99999" in answer["text"]


async def test_record_asked_before_the_private_chat_is_open_says_how_to_open_it(tg):
    """Bob never opened a private chat with the bot (Telegram's bot cannot write first): /record in the group
    answers with the button that opens it — not a "sent" for files that could not arrive; once open, it comes."""
    api = tg.api
    await finished_game(tg)
    said = await tg.say(BOB, GROUP, "/record 1", expect=(GROUP, "records come in a private chat with me"))
    assert "/record_1" in said["text"] and "I sent you" not in said["text"]  # one tap asks again
    assert [b["url"] for b in buttons(said) if b.get("url")] == ["https://t.me/herald_bot?start=g1"]
    await tg.idle()
    assert not documents(api, BOB["id"]) and not documents(api, GROUP)
    await open_private_chats(tg, BOB)
    await tg.say(BOB, GROUP, "/record_1", expect=(GROUP, "I sent you the record of game #1 privately"))  # tapped
    await tg.idle()
    assert sorted(documents(api, BOB["id"])) == ["herald-game-1.json", "herald-game-1.txt"]


async def test_history_lists_each_record_as_one_tap(tg):
    """Telegram makes only "/record" of "/record 1" tappable, and a tap sends it bare: /history shows
    "/record_1", and that tap (also with the bot's name, as Telegram sends it in groups) sends the record."""
    api = tg.api
    await finished_game(tg)
    await open_private_chats(tg, BOB)
    listed = await tg.say(BOB, GROUP, "/history", expect=(GROUP, "Recent games"))
    assert "📜 /record_1" in listed["text"] and "/record 1" not in listed["text"]
    await tg.say(BOB, GROUP, "/record_1@herald_bot", expect=(GROUP, "I sent you the record of game #1 privately"))
    await tg.idle()
    assert sorted(documents(api, BOB["id"])) == ["herald-game-1.json", "herald-game-1.txt"]
    await tg.say(BOB, GROUP, "/record_99", expect=(GROUP, "#99"))  # a game that is not there: told, as typed
