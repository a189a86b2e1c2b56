"""Issue 36 on Telegram, the second pass: a group upgraded to a supergroup, a person who blocked the bot, and
the leftovers (stale buttons, readable secret moves)."""
from __future__ import annotations

import logging

from tests.telegram_adapter.conftest import ALICE, BOB, GROUP
from tests.telegram_adapter.test_chat import two_player_game
from tests.telegram_adapter.test_telegram import buttons, choose, mover_of

SUPER = -100500


async def play_moves(tg, count: int) -> None:
    api = tg.api
    for _ in range(count):
        mover = await mover_of(tg)
        message = api.last_with_keyboard(mover["id"])
        await tg.press(mover, mover["id"], message, choose(message))
        await tg.idle()


async def test_after_the_upgrade_to_a_supergroup_the_turn_line_and_board_follow_without_piling_up(tg, caplog):
    await two_player_game(tg)
    api = tg.api
    await api.wait_for(lambda: [m for m in api.bot_messages(GROUP) if "photo" in m])  # the board
    api.migrate(GROUP, SUPER)
    await tg.idle()
    caplog.set_level(logging.INFO)
    await play_moves(tg, 10)
    lines = [m for m in api.bot_messages(SUPER) if "your turn" in m["text"]]
    assert len(lines) <= 1  # (a turn line only pings someone whose private chat fails): none piles up
    boards = [m for m in api.bot_messages(SUPER) if "photo" in m]
    assert len(boards) == 1
    assert not [r for r in caplog.records if "upgraded to a supergroup" in r.getMessage()]


async def test_a_person_who_blocked_the_bot_is_answered_with_the_way_back_and_not_named_once_back(tg):
    await two_player_game(tg)
    api = tg.api
    mover = await mover_of(tg)
    waiting = BOB if mover is ALICE else ALICE
    api.blocked.add(waiting["id"])
    before = tg.snapshot()
    message = api.last_with_keyboard(mover["id"])
    await tg.press(mover, mover["id"], message, choose(message))
    await tg.changed(before, GROUP, f"cannot send private messages to {waiting['first_name']}")
    await tg.idle()
    board = [m for m in api.bot_messages(GROUP) if "photo" in m][-1]
    for _ in range(2):  # every press, not only the first
        answer = await tg.press(waiting, GROUP, board, "h:1")
        assert "📬" not in (answer.get("text") or "") and "press Start" in answer["text"]
        assert answer.get("url") == "https://t.me/herald_bot?start=g1"
    reply = await tg.say(waiting, GROUP, "/hand", expect=(GROUP, "press Start"))
    assert any(b.get("url") == "https://t.me/herald_bot?start=g1" for b in buttons(reply))
    await tg.idle()
    api.blocked.discard(waiting["id"])
    await tg.say(waiting, waiting["id"], "/start", expect=(waiting["id"], "your view"))
    await tg.idle()
    reopened = len(api.sends)
    await play_moves(tg, 6)
    lines = [s for s in api.sends[reopened:] if s["chat"] == GROUP and "your turn" in s["text"]]
    assert all(s["mentions"] == [] for s in lines)  # back: pinged by their hand, not in the group
    assert [s for s in api.sends[reopened:] if s["chat"] == waiting["id"] and s["notify"]]


async def test_a_board_asked_for_again_leaves_the_old_one_without_buttons(tg):
    await two_player_game(tg)
    api = tg.api
    old = [m for m in api.bot_messages(GROUP) if "photo" in m][-1]
    assert buttons(old)
    await tg.say(BOB, GROUP, "/board")
    await tg.idle()
    shown = [m for m in api.bot_messages(GROUP) if "photo" in m]
    assert len(shown) == 2 and shown[0]["message_id"] == old["message_id"]
    assert buttons(shown[0]) == [] and [b["text"] for b in buttons(shown[1])] == ["🂠 My hand"]


async def test_the_start_message_keeps_no_open_private_chat_link(tg):
    await two_player_game(tg)
    started = next(m for m in tg.api.bot_messages(GROUP) if m["text"].startswith("🏁"))
    assert buttons(started) == []


async def secret_move_typed(tg, bot_is_admin: bool):
    """Alice types her Troubadour trio — a secret move — in the group; returns her message and the refusal."""
    from rules import get_game
    api = tg.api
    api.group(GROUP)
    if bot_is_admin:
        api.admins.add((GROUP, 999))
    await tg.say(ALICE, GROUP, "/new troubadour", expect=(GROUP, "Troubadour"))
    await tg.say(BOB, GROUP, "/join", expect=(GROUP, "Bob"))
    from tests.telegram_adapter.test_telegram import open_private_chats
    await open_private_chats(tg, ALICE, BOB)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "🏁"))
    await tg.idle()
    live = tg.service.ctx.games.loaded(1)
    seat = live.seat_of(next(s.user for s in live.seats if s.user and s.user.id == str(ALICE["id"]))).seat
    typed = get_game("troubadour").format_action(live.state.legal_actions(seat)[0])
    before = tg.snapshot()
    sent = api.send(ALICE, GROUP, "/move " + typed)
    refusal = await tg.changed(before, GROUP, "secret")
    await tg.idle()
    return sent, refusal, typed


async def test_a_secret_move_typed_in_the_group_is_deleted_where_the_bot_may(tg):
    sent, refusal, typed = await secret_move_typed(tg, bot_is_admin=True)
    assert sent not in tg.api.messages[GROUP]  # nobody reads it any more
    assert "I deleted your message" in refusal["text"] and typed not in refusal["text"]


async def test_a_secret_move_the_bot_may_not_delete_is_left_with_a_request_to_delete_it(tg):
    sent, refusal, typed = await secret_move_typed(tg, bot_is_admin=False)
    assert sent in tg.api.messages[GROUP]
    assert "Please delete your message" in refusal["text"] and typed not in refusal["text"]


async def test_my_hand_says_the_hand_is_there_only_once_it_is(tg):
    await two_player_game(tg)
    api = tg.api
    board = [m for m in api.bot_messages(GROUP) if "photo" in m][-1]
    api.blocked.add(BOB["id"])  # the first failure: nothing told the bot before this press
    answer = await tg.press(BOB, GROUP, board, "h:1")
    assert "📬" not in answer["text"] and "press Start" in answer["text"]
    assert answer.get("url") == "https://t.me/herald_bot?start=g1"
    await tg.idle()
    api.blocked.discard(BOB["id"])
    await tg.say(BOB, BOB["id"], "/start", expect=(BOB["id"], "your view"))
    await tg.idle()
    last = api.bot_messages(BOB["id"])[-1]["message_id"]
    answer = await tg.press(BOB, GROUP, board, "h:1")
    assert answer["text"] == "📬 Your hand is in our private chat."
    newest = api.bot_messages(BOB["id"])[-1]
    assert newest["message_id"] > last and "your view" in newest["text"]  # there when that was said
