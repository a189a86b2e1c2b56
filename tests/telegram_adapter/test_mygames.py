"""``/mygames`` on Telegram: every game a person sits in, across groups, theirs to act first, with links."""
from __future__ import annotations

import re

from tests.telegram_adapter.conftest import ALICE, BOB, GROUP
from tests.telegram_adapter.test_telegram import open_private_chats

SUPER = -1001234567  # a supergroup: its messages have t.me/c/ links
CAROL = {"id": 103, "is_bot": False, "first_name": "Carol"}


async def start_game(tg, chat_id, game_name, expect):
    await tg.say(ALICE, chat_id, f"/new {game_name}", expect=(chat_id, "table #"))
    await tg.say(BOB, chat_id, "/join", expect=(chat_id, "Bob"))
    await tg.say(ALICE, chat_id, "/start", expect=(chat_id, expect))
    await tg.idle()


async def test_mygames_lists_every_game_of_the_person_across_groups_with_links(tg):
    api = tg.api
    api.group(GROUP, "North")
    api.group(SUPER, "South")["type"] = "supergroup"
    await open_private_chats(tg, ALICE, BOB)
    await start_game(tg, GROUP, "koenig_artus", "Hand 1")
    await start_game(tg, SUPER, "kardinal", "Kardinal")
    await tg.say(CAROL, GROUP, "/new troubadour", expect=(GROUP, "table #3"))  # a lobby Alice is not in
    await tg.say(ALICE, SUPER, "/new guyenne", expect=(SUPER, "table #4"))  # a lobby Alice is in
    await tg.idle()
    reply = await tg.say(ALICE, ALICE["id"], "/mygames", expect=(ALICE["id"], "Your game"))
    lines = reply["text"].splitlines()
    mine = [line for line in lines if line.startswith("▶ ")]
    others = [line for line in lines if line.startswith("• ")]
    assert lines[0] == f"Your games (3) — {waiting(len(mine))}:"
    assert lines[1:] == mine + others  # waiting for you first
    for line, title, where in (("#1", "König Artus Tafelrunde", "North"), ("#2", "Kardinal", "South")):
        assert any(re.fullmatch(rf"(▶ {line} {title} in {where} — your turn|• {line} {title} in {where} — to act: "
                                rf"Bob) · last move just now", text) for text in lines), lines
    assert "• #4 Guyenne in South — lobby, 1/4 seated" in others
    assert not any("#3" in line for line in lines)  # Alice is not seated there
    bob = await tg.say(BOB, BOB["id"], "/mygames", expect=(BOB["id"], "Your game"))  # his games only
    bob_lines = bob["text"].splitlines()
    assert bob_lines[0] == f"Your games (2) — {waiting(sum(line.startswith('▶ ') for line in bob_lines))}:"
    assert "#4" not in bob["text"]
    # each game waits for exactly one of them (both two-person games with one to act)
    for number in ("#1", "#2"):
        assert sum(any(line.startswith(f"▶ {number} ") for line in text) for text in (lines, bob_lines)) == 1
    # links only where Telegram has them: the supergroup's board message
    buttons = [b for row in reply["reply_markup"]["inline_keyboard"] for b in row]
    board = next(m for m in api.bot_messages(SUPER) if any(  # the board: its "My hand" button
        b.get("callback_data", "").startswith("h:2") for row in m.get("reply_markup", {}).get("inline_keyboard", [])
        for b in row))
    lobby = next(m for m in api.bot_messages(SUPER) if "table #4" in m["text"])
    assert {"text": "#2 Kardinal", "url": f"https://t.me/c/1234567/{board['message_id']}"} in buttons
    assert {"text": "#4 Guyenne", "url": f"https://t.me/c/1234567/{lobby['message_id']}"} in buttons
    assert not any(b["text"].startswith("#1 ") for b in buttons)  # a basic group has no message links


async def test_mygames_in_a_group_answers_there_and_without_games_says_how_to_start(tg):
    tg.api.group(GROUP, "North")
    reply = await tg.say(CAROL, GROUP, "/mygames", expect=(GROUP, "no running game"))
    assert "/new &lt;game&gt;" in reply["text"] and not reply.get("reply_markup")  # the fake keeps the HTML sent


def waiting(mine: int) -> str:
    """How the head of /mygames counts the games waiting for the asker."""
    return "none waits for you" if mine == 0 else f"{mine} waits for you" if mine == 1 else f"{mine} wait for you"

