"""Issue 39, Telegram: in a forum supergroup where the bot may manage topics, each game lives in its own topic —
every public message of the game carries its ``message_thread_id``, commands typed there need no number, the end
is posted in the topic and in General and the topic closed. A group without topics or without the right: nothing
changes. A topic deleted mid-game: the game goes on in General with one notice."""
from __future__ import annotations

import re

import pytest

from tests.telegram_adapter.conftest import ALICE, BOB, GROUP
from tests.telegram_adapter.test_telegram import buttons, choose, open_private_chats
from tests.telegram_adapter.test_whole_games import play

CAROL = {"id": 103, "is_bot": False, "first_name": "Carol"}
PRIVATE_MARKS = ("your view", "Chosen so far", "Your hand", "your hand:")  # what only a seat's own messages say


def topics_of(api) -> dict[int, dict]:
    return api.topics.get(GROUP, {})


def general(api) -> list[dict]:
    """What the bot posted in General, but the asks to open a private chat (they belong to the open tables)."""
    return [m for m in api.in_topic(GROUP, None) if "open a private chat" not in m["text"]]


def no_secret_in(public: list[dict], api, people) -> None:
    """No public message says what only a seat's own messages say, or repeats one of them."""
    private = {m["text"] for p in people for m in api.bot_messages(p["id"]) if len(m["text"]) > 40}
    for m in public:
        assert not any(mark in m["text"] for mark in PRIVATE_MARKS), m["text"]
        assert m["text"] not in private, m["text"]


async def open_table(tg, title: str, number: int, people, ais: int = 0) -> None:
    await tg.say(people[0], GROUP, f"/new {title}", expect=(GROUP, f"table #{number}"))
    for _ in range(ais):
        await tg.say(people[0], GROUP, f"/addai {number}")
        await tg.idle()
    for person in people[1:]:
        await tg.say(person, GROUP, f"/join {number}", expect=(GROUP, person["first_name"]))


async def test_a_game_in_a_forum_lives_in_its_own_topic_and_ends_there_and_in_general(tg):
    api = tg.api
    api.forum(GROUP)
    await open_table(tg, "koenig_artus", 1, [ALICE, BOB])
    await open_private_chats(tg, ALICE, BOB)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "🏁"))
    await tg.idle()
    (topic, about), = topics_of(api).items()
    assert about["name"] == "König Artus Tafelrunde #1 — " + about["name"].split(" — ")[1]
    assert sorted(about["name"].split(" — ")[1].split(", ")) == ["Alice", "Bob"]
    inside = api.in_topic(GROUP, topic)
    assert [m for m in inside if "photo" in m], "the board is in the topic"
    assert not [m for m in general(api) if "photo" in m], "no board in General"
    # a command typed in the topic needs no number, and is answered there
    before = len(api.in_topic(GROUP, topic))
    api.send(BOB, GROUP, "/log", thread=topic)
    await tg.idle()
    assert len(api.in_topic(GROUP, topic)) > before
    await play(tg, [ALICE, BOB], "end")
    await tg.idle()
    assert about["closed"] is True
    assert [m for m in api.in_topic(GROUP, topic) if "is over" in m["text"]]
    assert len([m for m in general(api) if "is over" in m["text"]]) == 1
    assert [m["text"][:1] for m in general(api)] == ["🏁", "🏆"], [m["text"] for m in general(api)]
    no_secret_in(api.bot_messages(GROUP), api, [ALICE, BOB])


async def test_three_games_at_once_each_in_its_own_topic(tg):
    api = tg.api
    api.forum(GROUP)
    await open_table(tg, "koenig_artus", 1, [ALICE, BOB])
    await open_table(tg, "kardinal", 2, [CAROL], ais=2)
    await open_table(tg, "troubadour", 3, [BOB], ais=1)
    await open_private_chats(tg, ALICE, BOB, CAROL)
    for number, person in ((1, ALICE), (2, CAROL), (3, BOB)):
        await tg.say(person, GROUP, f"/start {number}", expect=(GROUP, f"Game #{number} of"))
    await tg.idle()
    assert len(topics_of(api)) == 3
    place = {int(about["name"].split("#")[1].split(" ")[0]): topic for topic, about in topics_of(api).items()}
    people = [ALICE, BOB, CAROL]
    for _ in range(3000):
        ended = [m for m in api.bot_messages(GROUP) if "is over" in m["text"]]
        if len(ended) == 6:  # each result in its topic and in General
            break
        moved = False
        for person in people:
            message = api.last_with_keyboard(person["id"])
            if message and choose(message):
                await tg.press(person, person["id"], message, choose(message))
                await tg.idle()
                moved = True
        if not moved:
            await tg.idle()
    else:
        raise AssertionError("the games did not end")
    await tg.idle()
    for number, topic in place.items():
        inside = api.in_topic(GROUP, topic)
        others = [f"#{other}" for other in place if other != number]
        assert not [m["text"] for m in inside if any(re.search(rf"{o}\b", m["text"]) for o in others)], \
            "only its own game in each topic"
        assert [m for m in inside if f"#{number}" in m["text"] and "photo" in m], "its board"
        assert [m for m in inside if f"Game #{number} is over" in m["text"]]
        assert topics_of(api)[topic]["closed"] is True
    in_general = [m["text"] for m in general(api)]
    assert all(t.startswith(("🏁", "🏆")) for t in in_general), in_general  # lobbies and results only
    assert len([t for t in in_general if t.startswith("🏆")]) == 3
    no_secret_in(api.bot_messages(GROUP), api, people)
    live = [m for m in api.bot_messages(GROUP) if any("callback_data" in b for b in buttons(m))]
    assert live == []


@pytest.mark.parametrize("manages", [False, None])
async def test_a_group_without_topics_or_without_the_right_plays_as_ever(tg, manages):
    api = tg.api
    if manages is None:
        api.group(GROUP)
    else:
        api.forum(GROUP, manages_topics=manages)
    await open_table(tg, "koenig_artus", 1, [ALICE, BOB])
    await open_private_chats(tg, ALICE, BOB)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "🏁"))
    await tg.idle()
    assert not topics_of(api)
    assert [m for m in general(api) if "photo" in m], "the board is in the group"
    assert not [m for m in api.bot_messages(GROUP) if "went wrong" in m["text"]]


async def test_a_topic_deleted_mid_game_sends_the_game_to_general_with_one_notice(tg):
    api = tg.api
    api.forum(GROUP)
    await open_table(tg, "koenig_artus", 1, [ALICE, BOB])
    await open_private_chats(tg, ALICE, BOB)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "🏁"))
    await tg.idle()
    (topic, _about), = topics_of(api).items()
    api.delete_topic(GROUP, topic)
    await play(tg, [ALICE, BOB], "end")
    await tg.idle()
    texts = [m["text"] for m in general(api)]
    assert len([t for t in texts if "is gone" in t]) == 1
    assert len([t for t in texts if "is over" in t]) == 1
    assert [m for m in general(api) if "photo" in m], "the board came back to General"
    assert not [m for m in api.bot_messages(GROUP) if m.get("message_thread_id") == topic]


async def test_a_restart_never_opens_a_second_topic(tg):
    api = tg.api
    api.forum(GROUP)
    await open_table(tg, "koenig_artus", 1, [ALICE, BOB])
    await open_private_chats(tg, ALICE, BOB)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "🏁"))
    await tg.idle()
    (topic, _about), = topics_of(api).items()
    await tg.stop_bot()
    await tg.start_bot()
    # the game, reloaded from the database, still addresses its topic; a command there still means it
    api.send(BOB, GROUP, "/board", thread=topic)
    await tg.idle()
    assert [m for m in api.in_topic(GROUP, topic) if "photo" in m]
    home = await tg.service.slots.lookup("telegram", "place:1")
    assert home == (str(GROUP), str(topic))
    await play(tg, [ALICE, BOB], "end")
    await tg.idle()
    assert len(topics_of(api)) == 1 and topics_of(api)[topic]["closed"] is True


async def test_mygames_links_to_the_board_in_the_games_topic(tg):
    api = tg.api
    forum = -1001234567  # a supergroup with topics: its messages have t.me/c/<id>/<topic>/<message> links
    api.forum(forum)
    await tg.say(ALICE, forum, "/new koenig_artus", expect=(forum, "table #1"))
    await tg.say(BOB, forum, "/join", expect=(forum, "Bob"))
    await open_private_chats(tg, ALICE, BOB)
    await tg.say(ALICE, forum, "/start", expect=(forum, "🏁"))
    await tg.idle()
    (topic, _about), = api.topics[forum].items()
    board = [m for m in api.in_topic(forum, topic) if "photo" in m][-1]
    reply = await tg.say(ALICE, ALICE["id"], "/mygames", expect=(ALICE["id"], "Your game"))
    links = [b["url"] for b in buttons(reply) if "url" in b]
    assert links == [f"https://t.me/c/1234567/{topic}/{board['message_id']}"]


DAVE = {"id": 104, "is_bot": False, "first_name": "Dave"}
CALLS = {"sendMessage", "sendPhoto", "sendDocument", "editMessageText", "editMessageMedia", "editMessageCaption",
         "editMessageReplyMarkup", "deleteMessage"}


async def calls_per_move(tg, chat_id: int, people) -> list[int]:
    """Play the chat's game to the end by the first option each time; the group's API calls of each move."""
    api = tg.api

    def count() -> int:
        return len([1 for method, p in api.calls if method in CALLS and str(p.get("chat_id")) == str(chat_id)])

    per_move = []
    for _ in range(3000):
        if any("is over" in m["text"] for m in api.bot_messages(chat_id)):
            return per_move[:-1]  # the last move is the end: its result is told differently
        for person in people:
            message = api.last_with_keyboard(person["id"])
            if message and choose(message):
                before = count()
                await tg.press(person, person["id"], message, choose(message))
                await tg.idle()
                per_move.append(count() - before)
                break
        else:
            await tg.idle()
    raise AssertionError("the game did not end")


async def test_a_move_in_a_topic_costs_no_more_calls_than_in_a_plain_group(tg):
    api = tg.api
    forum = -1009000
    api.group(GROUP)
    api.forum(forum)
    for chat_id, (first, second) in ((GROUP, (ALICE, BOB)), (forum, (CAROL, DAVE))):
        await tg.say(first, chat_id, "/new koenig_artus", expect=(chat_id, "table #"))
        await tg.say(second, chat_id, "/join", expect=(chat_id, second["first_name"]))
    async with tg.service.ctx.uow() as uow:  # the same deal in both: the same moves, message for message
        for number in (1, 2):
            (await uow.games.get(number)).seed = 20261127
        await uow.commit()
    await open_private_chats(tg, ALICE, BOB, CAROL, DAVE)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "🏁"))
    await tg.say(CAROL, forum, "/start", expect=(forum, "🏁"))
    await tg.idle()
    plain = await calls_per_move(tg, GROUP, [ALICE, BOB])
    threaded = await calls_per_move(tg, forum, [CAROL, DAVE])
    assert api.topics[forum], "the second game had its topic"
    assert len(threaded) == len(plain) and sum(threaded) <= sum(plain), (plain, threaded)
    print(f"group calls per move: plain {sum(plain) / len(plain):.2f}, in a topic {sum(threaded) / len(threaded):.2f}")
