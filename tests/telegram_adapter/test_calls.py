"""Issue 38: a human move costs at most four Bot API calls, and each turn that comes to a person notifies them
exactly once; issue 36, item 6: who moved and is still to act is not pinged again — their hand is edited in
place. Whole games through the real python-telegram-bot against the fake Bot API, counted (``whole_game``)."""
from __future__ import annotations

import pytest

from tests.telegram_adapter.conftest import ALICE, BOB, GROUP
from tests.telegram_adapter.test_telegram import open_private_chats
from tests.telegram_adapter.whole_game import play_counted

TARGET = 4  # calls a human move that count toward the token's global limit
GAMES = [("troubadour", "max_rounds=2"), ("guyenne", ""), ("list_und_tuecke", ""), ("kardinal", ""),
         ("koenig_artus", "")]


async def start(tg, game: str, options: str = ""):
    tg.api.group(GROUP)
    await tg.say(ALICE, GROUP, f"/new {game} {options}".strip(), expect=(GROUP, "table #1"))
    await tg.say(BOB, GROUP, "/join", expect=(GROUP, "Bob"))
    if game == "list_und_tuecke":  # four seats at least
        for _ in range(2):
            await tg.say(ALICE, GROUP, "/addai")
    await open_private_chats(tg, ALICE, BOB)
    await tg.say(ALICE, GROUP, "/start")


@pytest.mark.parametrize("game,options", GAMES)
async def test_a_whole_game_costs_at_most_four_calls_a_move_and_pings_every_turn_once(tg, game, options):
    await start(tg, game, options)
    count = await play_counted(tg, [ALICE, BOB])
    assert count.over and count.moves > 5
    # the calls the platform's global limit counts (sends, edits, deletes): at most four a move; the answers to
    # presses come on top, one a press — a picker step is a press (Guyenne's moves take about 1.7)
    counted = (count.calls - count.kinds["answer"]) / count.moves
    assert counted <= TARGET, (counted, count.kinds, count.moves)
    assert count.kinds["answer"] / count.moves <= 2, (count.kinds, count.moves)
    assert count.turn_pings and all(n == 1 for n in count.turn_pings), count.turn_pings


async def test_who_moved_and_is_still_to_act_keeps_their_hand_and_is_not_pinged_again(tg):
    await start(tg, "troubadour", "max_rounds=3")
    count = await play_counted(tg, [ALICE, BOB])
    assert count.over and count.kept >= 5  # Troubadour: a trio's three cards, one move each
    assert count.kept_pinged == 0 and count.kept_reposted == 0, (count.kept, count.kept_pinged, count.kept_reposted)
