"""Issue 22 on Telegram: answer first, pings, per-chat queues within the flood limits, 429s, migration, remedies.

Behaviour only (orders of calls at the fake, counts of messages): durations are measured in bench/chat.py."""
from __future__ import annotations

import pytest

from bot.service import Button, ChatRef, Message, UserRef
from tests.telegram_adapter.conftest import ALICE, BOB, GROUP, SCALE
from tests.telegram_adapter.test_telegram import choose, mover_of, open_private_chats

QUIET = -600
SENDS = {"sendMessage", "sendPhoto", "editMessageText", "editMessageMedia", "editMessageCaption"}


def user_ref(person) -> UserRef:
    return UserRef("telegram", str(person["id"]), person["first_name"])


def chat_ref(chat_id) -> ChatRef:
    return ChatRef("telegram", str(chat_id), str(chat_id))


async def two_player_game(tg):
    api = tg.api
    api.group(GROUP)
    await tg.say(ALICE, GROUP, "/new koenig_artus", expect=(GROUP, "König Artus"))
    await tg.say(BOB, GROUP, "/join", expect=(GROUP, "Bob"))
    await open_private_chats(tg, ALICE, BOB)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "Hand 1"))
    await tg.idle()


async def test_a_press_is_answered_before_anything_it_causes_is_delivered(tg):
    await two_player_game(tg)
    api = tg.api
    mover = await mover_of(tg)
    message = api.last_with_keyboard(mover["id"])
    start = len(api.calls)
    await tg.press(mover, mover["id"], message, choose(message))
    await tg.idle()
    methods = [method for method, _ in api.calls[start:] if method != "getUpdates"]
    answered = methods.index("answerCallbackQuery")
    assert any(m in SENDS for m in methods)  # the press changed the board and the hands …
    assert all(m not in SENDS for m in methods[:answered])  # … all of it after the answer


async def test_my_hand_always_answers_visibly_and_posts_the_hand_anew(tg):
    await two_player_game(tg)
    api = tg.api
    board = [m for m in api.bot_messages(GROUP) if "Hand 1" in m["text"]][-1]
    for _ in range(2):  # the second time nothing changed: still a visible answer and a new message
        before = len(api.bot_messages(ALICE["id"]))
        last = api.bot_messages(ALICE["id"])[-1]["message_id"]
        answer = await tg.press(ALICE, GROUP, board, "h:1")
        assert answer.get("text")
        await tg.idle()
        mine = api.bot_messages(ALICE["id"])
        assert mine[-1]["message_id"] > last and "your view" in mine[-1]["text"]
        assert len([m for m in mine if "your view" in m["text"]]) == 1  # the previous one was retired
        assert len(mine) <= before + 1
    reply = await tg.say(ALICE, GROUP, "/hand", expect=(ALICE["id"], "your view"))
    assert api.bot_messages(ALICE["id"])[-1]["message_id"] == reply["message_id"]


async def test_a_private_ping_notifies_once_and_retires_the_previous_message_while_it_has_buttons(tg):
    api = tg.api
    await open_private_chats(tg, ALICE)
    alice = user_ref(ALICE)
    buttons = [[Button("R7", "p:9:1:0")]]
    await tg.adapter.deliver([Message("#9 your view — pick", user=alice, slot="hand:9", game_id=9, kind="hand",
                                      buttons=buttons)])
    await tg.idle()
    first = api.bot_messages(ALICE["id"])[-1]
    rings = len(api.notifying(ALICE["id"]))
    await tg.adapter.deliver([Message("#9 your view — your turn", user=alice, slot="hand:9", game_id=9,
                                      kind="hand", buttons=buttons, ping=True)])
    await tg.idle()
    assert len(api.notifying(ALICE["id"])) == rings + 1
    assert (ALICE["id"], first["message_id"]) in api.deleted  # its buttons could still be pressed
    newest = api.bot_messages(ALICE["id"])[-1]
    assert "your turn" in newest["text"] and newest["reply_markup"]
    # without ping the same slot is edited in place, silently
    await tg.adapter.deliver([Message("#9 your view — waiting again", user=alice, slot="hand:9", game_id=9,
                                      kind="hand")])
    await tg.idle()
    assert api.bot_messages(ALICE["id"])[-1]["message_id"] == newest["message_id"]
    assert api.bot_messages(ALICE["id"])[-1]["edited"] == 1 and len(api.notifying(ALICE["id"])) == rings + 1
    # issue 38: a hand without buttons stays where it is when the next turn pings (a delete saved)
    deleted = len(api.deleted)
    await tg.adapter.deliver([Message("#9 your view — your turn again", user=alice, slot="hand:9", game_id=9,
                                      kind="hand", buttons=buttons, ping=True)])
    await tg.idle()
    assert len(api.deleted) == deleted and len(api.notifying(ALICE["id"])) == rings + 2
    assert [m["message_id"] for m in api.bot_messages(ALICE["id"])][-2:] == \
        [newest["message_id"], api.bot_messages(ALICE["id"])[-1]["message_id"]]


async def test_the_group_turn_line_is_one_message_replaced_and_names_only_who_must_be_told(tg):
    api = tg.api
    api.group(GROUP)
    group = chat_ref(GROUP)
    for name in ("Alice", "Bob", "Alice"):
        await tg.adapter.deliver([Message(f"⏳ #1: {name} to play", chat=group, slot="turn:1", game_id=1,
                                          kind="notice" if False else "info", ping=True)])
        await tg.idle()
    lines = [m for m in api.bot_messages(GROUP) if "to play" in m["text"]]
    assert len(lines) == 1 and "Alice" in lines[0]["text"]
    assert not [s for s in api.sends if s["chat"] == GROUP and s["notify"]]  # nobody named: silent
    bob = user_ref(BOB)
    await tg.adapter.deliver([Message("⏳ #1: Bob to play", chat=group, slot="turn:1", game_id=1, ping=True,
                                      mentions=[bob])])
    await tg.idle()
    ring = [s for s in api.sends if s["chat"] == GROUP and s["notify"]]
    assert len(ring) == 1 and ring[0]["mentions"] == [BOB["id"]]
    assert len([m for m in api.bot_messages(GROUP) if "to play" in m["text"]]) == 1


async def test_a_hand_survives_four_429s_in_a_row(tg):
    api = tg.api
    await open_private_chats(tg, ALICE)
    too_many = {"ok": False, "error_code": 429, "description": "Too Many Requests: retry after 1",
                "parameters": {"retry_after": 1}}
    api.fail_next["sendMessage"] = [dict(too_many) for _ in range(4)]
    await tg.adapter.deliver([Message("#9 your view — your turn", user=user_ref(ALICE), slot="hand:9", game_id=9,
                                      kind="hand", ping=True, outbox_id=77)])
    delivered = []
    original = tg.service.delivered

    async def spy(ids):
        delivered.extend(ids)
        await original(ids)
    tg.adapter.delivery._on_delivered = spy
    await tg.idle()
    assert [c for c, _ in api.calls].count("sendMessage") >= 5
    assert "your turn" in api.bot_messages(ALICE["id"])[-1]["text"] and delivered == [77]


async def test_a_busy_group_stays_within_20_a_minute_and_a_quiet_group_is_served_meanwhile(tg):
    api = tg.api
    api.group(GROUP)
    api.group(QUIET, "Tavern")
    busy = chat_ref(GROUP)
    await tg.adapter.deliver([Message(f"line {i}", chat=busy) for i in range(45)])
    await tg.adapter.deliver([Message("board v%d" % i, chat=busy, slot="board:5") for i in range(10)])
    await tg.say(ALICE, QUIET, "/rules kardinal", expect=(QUIET, "Kardinal"))
    assert len(api.bot_messages(GROUP)) < 46  # the busy group is still being paced …
    await tg.idle()
    assert len(api.bot_messages(GROUP)) == 46  # … every line, and the board once, in its newest form
    assert [m["text"] for m in api.bot_messages(GROUP) if "board" in m["text"]] == ["board v9"]
    assert api.group_window_max(GROUP) <= 20
    assert not [r for r in api.refused if r[1] == GROUP]  # paced, not refused


async def test_an_error_answers_the_person_as_a_reply(tg):
    await two_player_game(tg)
    api = tg.api
    mover = await mover_of(tg)
    waiting = BOB if mover is ALICE else ALICE
    before = tg.snapshot()
    typed = api.send(waiting, GROUP, "/move red-1")
    reply = await tg.changed(before, GROUP, "not your turn")
    assert reply.get("x_reply_to") == typed["message_id"]


async def test_a_group_upgraded_unannounced_keeps_working_when_an_edit_meets_the_migration(tg):
    await two_player_game(tg)
    api = tg.api
    api.migrated[GROUP] = -100500  # Telegram's migrate update not seen (yet): the next board edit meets it
    api.chats[-100500] = {"id": -100500, "type": "supergroup", "title": "Knights"}
    api.messages[-100500] = []
    mover = await mover_of(tg)
    message = api.last_with_keyboard(mover["id"])
    await tg.press(mover, mover["id"], message, choose(message))
    await api.wait_for(lambda: any("#1" in m["text"] for m in api.bot_messages(-100500)))
    await tg.idle()
    games = await tg.say(BOB, -100500, "/games", expect=(-100500, "#1"))
    assert "König Artus" in games["text"]


async def test_a_blocked_player_gets_telegrams_remedy_and_pressing_start_brings_the_hand(tg):
    await two_player_game(tg)
    api = tg.api
    mover = await mover_of(tg)
    waiting = BOB if mover is ALICE else ALICE
    api.blocked.add(waiting["id"])
    before = tg.snapshot()
    message = api.last_with_keyboard(mover["id"])
    await tg.press(mover, mover["id"], message, choose(message))
    notice = await tg.changed(before, GROUP, f"cannot send private messages to {waiting['first_name']}")
    assert "press Start" in notice["text"] and "allow direct messages" not in notice["text"]
    links = [b.get("url", "") for row in notice["reply_markup"]["inline_keyboard"] for b in row]
    assert any("t.me/herald_bot?start=" in url for url in links)
    assert f"tg://user?id={waiting['id']}" in notice["text"]
    api.blocked.discard(waiting["id"])
    await tg.say(waiting, waiting["id"], "/start", expect=(waiting["id"], "your view"))


async def test_the_fake_is_strict_like_telegram(tg):
    """Limits the adapter must respect: the fake refuses what Telegram refuses."""
    from telegram.error import BadRequest, Forbidden
    api = tg.api
    bot = tg.app.bot
    api.group(GROUP)
    api.chat_per_second = 100  # direct calls here, not paced by the delivery
    with pytest.raises(BadRequest, match="too long"):
        await bot.send_message(GROUP, "😀" * 2049)  # 4098 UTF-16 units
    with pytest.raises(BadRequest, match="(?i)button_data_invalid"):
        from telegram import InlineKeyboardButton, InlineKeyboardMarkup
        await bot.send_message(GROUP, "x", reply_markup=InlineKeyboardMarkup(
            [[InlineKeyboardButton("b", callback_data="é" * 33)]]))
    with pytest.raises(Forbidden):
        await bot.send_message(BOB["id"], "hello")
    sent = await bot.send_message(GROUP, "same")
    with pytest.raises(BadRequest, match="not modified"):
        await bot.edit_message_text("same", chat_id=GROUP, message_id=sent.message_id)
    api.queries["old"] = api.clock() - 16
    with pytest.raises(BadRequest, match="too old"):
        await bot.answer_callback_query("old")
    assert SCALE < 1


async def test_exactly_one_notifying_message_per_turn_change_to_the_person_to_act(tg):
    await two_player_game(tg)
    api = tg.api
    for _ in range(6):
        mover = await mover_of(tg)
        other = BOB if mover is ALICE else ALICE
        rings = {u["id"]: len(api.notifying(u["id"])) for u in (ALICE, BOB)}
        message = api.last_with_keyboard(mover["id"])
        await tg.press(mover, mover["id"], message, choose(message))
        await tg.idle()
        nxt = await mover_of(tg)
        if nxt is other:  # the turn changed hands: exactly one ring for the new mover, none for the old
            assert len(api.notifying(other["id"])) == rings[other["id"]] + 1
            assert len(api.notifying(mover["id"])) == rings[mover["id"]]


def turn_lines(api) -> list[dict]:
    return [m for m in api.bot_messages(GROUP) if "your turn" in m["text"]]


async def test_the_turn_line_goes_when_the_game_ends(tg):
    from tests.telegram_adapter.test_telegram import play_to_the_end
    api = tg.api
    api.group(GROUP)
    await tg.say(ALICE, GROUP, "/new toy", expect=(GROUP, "Duel of Cards"))
    await tg.say(BOB, GROUP, "/join", expect=(GROUP, "Bob"))
    await open_private_chats(tg, ALICE, BOB)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "To act"))
    await play_to_the_end(tg, [ALICE, BOB])
    assert any("is over" in m["text"] for m in api.bot_messages(GROUP))
    # issue 38: with every private chat open, no turn line is posted at all (the board names who acts)
    assert turn_lines(api) == []


async def test_the_turn_line_goes_when_the_game_is_aborted(tg):
    await two_player_game(tg)
    api = tg.api
    await tg.idle()
    await tg.say(ALICE, GROUP, "/abort", expect=(GROUP, "aborted"))
    await tg.idle()
    assert turn_lines(api) == []


async def test_a_game_of_another_group_is_refused_not_shown(tg):
    api = tg.api
    api.group(QUIET, "South")
    await tg.say(ALICE, QUIET, "/new koenig_artus", expect=(QUIET, "König Artus"))
    await tg.say(BOB, QUIET, "/join", expect=(QUIET, "Bob"))
    await open_private_chats(tg, ALICE, BOB)
    await tg.say(ALICE, QUIET, "/start", expect=(QUIET, "Hand 1"))
    await tg.idle()
    api.group(GROUP, "North")
    south = len(api.bot_messages(QUIET))
    refused = await tg.say(ALICE, GROUP, "/log 10 #1", expect=(GROUP, "another chat"))
    assert "#1" in refused["text"]
    await tg.say(ALICE, GROUP, "/board 1", expect=(GROUP, "another chat"))
    await tg.idle()
    assert not [m for m in api.bot_messages(GROUP) if "König Artus" in m["text"]]  # neither log nor board
    assert len(api.bot_messages(QUIET)) == south  # and nothing re-posted in South
    await tg.say(ALICE, ALICE["id"], "/log 10 #1", expect=(ALICE["id"], "the log"))  # privately, to a player
