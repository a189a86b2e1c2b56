"""Issue 36, done when: a whole game of each title through the real python-telegram-bot and the fake Bot API (AI
seats fill in; one ends by a resignation, one by an abort) leaves the group with the lobby, one board, the result
and nothing stale — no turn line, no live button on an older message —; the person is pinged once per hand-over,
the group reads nothing private, and no error is shown."""
from __future__ import annotations

import pytest

from tests.telegram_adapter.conftest import ALICE, BOB, GROUP
from tests.telegram_adapter.test_telegram import buttons, choose, game_over, open_private_chats

GAMES = [("koenig_artus", 0, "end"), ("troubadour", 1, "resign"), ("guyenne", 1, "resign alone"),
         ("kardinal", 2, "abort"), ("list_und_tuecke", 3, "end")]  # (title, AI seats, how it ends)
TOLD = {"end": "is over", "resign": "is over", "resign alone": "ends unrated", "abort": "aborted"}
BEFORE_LEAVING = 3  # moves made before Alice resigns or aborts


def rings(api, person) -> int:
    return len([s for s in api.sends if s["chat"] == person["id"] and s["notify"]])


async def play(tg, people, ending: str) -> None:
    """Everyone presses through their pickers; Alice resigns or aborts after a few moves when ``ending`` says so.
    Each time it is someone's turn their phone rang once for it: never twice without a move of theirs between."""
    api = tg.api
    moves = 0
    rang = {p["id"]: rings(api, p) for p in people}
    for _ in range(3000):
        await api.wait_for(lambda: game_over(api) or any(choose(api.last_with_keyboard(p["id"]) or {})
                                                         for p in people), 30)
        if any(TOLD[ending] in m["text"] for m in api.bot_messages(GROUP)):
            return
        if moves == BEFORE_LEAVING and ending != "end":
            await tg.say(ALICE, GROUP, "/abort" if ending == "abort" else "/resign yes")
            await tg.idle()
            people = [p for p in people if p is not ALICE]
            if ending != "resign":
                return
        moves += 1
        for person in people:
            message = api.last_with_keyboard(person["id"])
            if not choose(message or {}):
                continue
            assert rings(api, person) - rang[person["id"]] <= 1, "pinged twice for one turn"
            answer = await tg.press(person, person["id"], message, choose(message))
            assert not answer.get("text") or "out of date" in answer["text"] or "is over" in answer["text"], answer
            await tg.idle()
            rang[person["id"]] = rings(api, person)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("title, ais, ending", GAMES)
async def test_a_whole_game_leaves_the_group_clean(tg, title, ais, ending):
    api = tg.api
    api.group(GROUP)
    await tg.say(ALICE, GROUP, f"/new {title}", expect=(GROUP, "table #1"))
    for _ in range(ais):
        await tg.say(ALICE, GROUP, "/addai")
        await tg.idle()
    people = [ALICE, BOB] if ending == "resign" or not ais else [ALICE]  # Bob plays on after Alice resigned
    for person in people[1:]:
        await tg.say(person, GROUP, "/join", expect=(GROUP, person["first_name"]))
    await open_private_chats(tg, *people)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "🏁"))
    await play(tg, people, ending)
    await api.wait_for(lambda: any(TOLD[ending] in m["text"] for m in api.bot_messages(GROUP)), 60)
    await tg.idle()
    group = api.bot_messages(GROUP)
    texts = [m["text"] for m in group]
    assert [t for t in texts if t.startswith("🏁")]  # the lobby, now saying who sits where
    assert len([m for m in group if "photo" in m]) == 1  # one board
    told = [t for t in texts if TOLD[ending] in t]
    assert len(told) == 1  # the result (or the abort)
    assert not [t for t in texts if "your turn" in t]  # no turn line left
    live = [m for m in group if any("callback_data" in b for b in buttons(m))]
    assert live == []  # no button left to press in the group
    assert not [t for t in texts if "your view" in t or "Chosen so far" in t]  # nothing private
    assert not [t for t in texts if "went wrong" in t or "out of date" in t]  # no error shown
