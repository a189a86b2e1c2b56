"""Issue 36 on Discord, the second pass: superseded boards lose their buttons, one ephemeral hand for a person
whose DMs are closed, and whole games that leave the channel clean."""
from __future__ import annotations

import pytest

from tests.discord_adapter.fake_discord import FakeDiscord
from tests.discord_adapter.test_chat import two_player_game
from tests.discord_adapter.test_discord import components

text = FakeDiscord.text


def boards_shown(dc) -> list[dict]:
    return [m for m in dc.api.channel_messages() if "To act" in text(m) or "is over" in text(m)]


async def test_a_board_asked_for_again_leaves_the_old_one_without_buttons(dc):
    await two_player_game(dc)
    old = boards_shown(dc)[-1]
    assert components(old)
    await dc.slash(dc.bob, "board")
    shown = boards_shown(dc)
    assert len(shown) == 2 and shown[0]["id"] == old["id"]
    assert components(shown[0]) == [] and [c["label"] for c in components(shown[1])] == ["🂠 My hand"]


def hands_shown(dc, person) -> list[dict]:
    return [m for m in dc.api.ephemerals(int(person["id"])) if "your view" in text(m)]


async def test_a_person_with_closed_dms_keeps_one_ephemeral_hand(dc):
    api = dc.api
    api.closed_dms.add(int(dc.bob["id"]))
    await two_player_game(dc)
    for _ in range(3):
        record = await dc.slash(dc.bob, "hand")
        newest = api.messages[record.original_id]
        assert "your view" in text(newest) and "allow direct messages" in text(newest)  # the way to get DMs
        assert hands_shown(dc, dc.bob) == [newest]  # the older ones went
    newest["deleted"] = True  # Bob dismissed it: the next one replaces nothing, and says nothing about it
    record = await dc.slash(dc.bob, "hand")
    assert hands_shown(dc, dc.bob) == [api.messages[record.original_id]]
    assert not [m for m in api.ephemerals(int(dc.bob["id"])) if "out of date" in text(m)]
    for record in api.interactions.values():  # 15 minutes later: the older tokens are no longer valid
        record.created -= 1000
    for _ in range(2):
        record = await dc.slash(dc.bob, "hand")
        await dc.idle()
    assert len(hands_shown(dc, dc.bob)) == 2  # the one of the expired token stays …
    told = [m for m in api.ephemerals(int(dc.bob["id"])) if "out of date" in text(m)]
    assert len(told) == 1  # … and Bob is told so once


GAMES = [("koenig_artus", 0, "end"), ("troubadour", 1, "resign"), ("guyenne", 1, "resign alone"),
         ("kardinal", 2, "abort"), ("list_und_tuecke", 3, "end")]  # (title, AI seats, how it ends)
TOLD = {"end": "is over", "resign": "is over", "resign alone": "ends unrated", "abort": "aborted"}
BEFORE_LEAVING = 3  # moves made before Alice resigns or aborts


def told(dc, ending) -> list[dict]:
    return [m for m in dc.api.channel_messages() if TOLD[ending] in text(m)]


def rings(dc, person) -> int:
    return len([n for n in dc.api.notifying(int(person["id"])) if n["how"] == "dm"])


async def play(dc, people, ending: str) -> None:
    """Everyone clicks through their pickers; Alice resigns or aborts after a few moves when ``ending`` says so.
    Each time it is someone's turn their DM rang once for it: never twice without a move of theirs between."""
    from tests.discord_adapter.test_discord import act, latest_picker
    moves = 0
    rang = {p["id"]: rings(dc, p) for p in people}
    for _ in range(3000):
        await dc.wait_for(lambda: told(dc, ending) or any(latest_picker(dc, p) for p in people), 30)
        if told(dc, ending):
            return
        if moves == BEFORE_LEAVING and ending != "end":
            if ending == "abort":
                await dc.slash(dc.alice, "abort")
                return
            await dc.slash(dc.alice, "resign", confirm="yes")
            people = [p for p in people if p is not dc.alice]
            if ending != "resign":
                return
        moves += 1
        for person in people:
            message = latest_picker(dc, person)
            if message is None:
                continue
            assert rings(dc, person) - rang[person["id"]] <= 1, "pinged twice for one turn"
            record = await act(dc, person, message)
            for answer in dc.answers(record):
                assert "out of date" in answer or "is over" in answer, answer
            await dc.idle()
            rang[person["id"]] = rings(dc, person)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("title, ais, ending", GAMES)
async def test_a_whole_game_leaves_the_channel_clean(dc, title, ais, ending):
    api = dc.api
    await dc.slash(dc.alice, "new", game=title)
    for _ in range(ais):
        await dc.slash(dc.alice, "addai")
    people = [dc.alice, dc.bob] if ending == "resign" or not ais else [dc.alice]  # Bob plays on after Alice
    for person in people[1:]:
        await dc.slash(person, "join")
    await dc.slash(dc.alice, "start")
    await play(dc, people, ending)
    await dc.wait_for(lambda: told(dc, ending), 60)
    await dc.idle()
    shown = api.channel_messages()
    texts = [text(m) for m in shown]
    assert [t for t in texts if t.startswith("🏁")]  # the lobby, now saying who sits where
    boards = [m for m in shown if any(a["filename"].startswith("board") for a in m["attachments"])]
    assert len(boards) == (1 if ending in ("end", "resign") else 0)  # one board: an abort took its place
    assert len(told(dc, ending)) == 1  # the result (or the abort)
    assert not [t for t in texts if t.startswith("🔔")]  # no turn line left
    assert [m for m in shown if components(m)] == []  # no button left to click in the channel
    assert not [t for t in texts if "your view" in t or "Chosen so far" in t]  # nothing private
    assert not [t for t in texts if "went wrong" in t or "out of date" in t]  # no error shown
