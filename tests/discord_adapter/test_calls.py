"""Issue 38: a human move costs at most four Discord REST calls, and each turn that comes to a person notifies
them exactly once; issue 36, item 6: who moved and is still to act is not pinged again — their DM is edited in
place. Whole games through the real discord.py against the fake Discord, counted (``whole_game``)."""
from __future__ import annotations

import pytest

from tests.discord_adapter.whole_game import play_counted

TARGET = 4  # calls a human move that count toward the token's global limit
GAMES = [("troubadour", "max_rounds=2"), ("guyenne", ""), ("list_und_tuecke", ""), ("kardinal", ""),
         ("koenig_artus", "")]


async def start(dc, game: str, options: str = ""):
    await dc.slash(dc.alice, "new", game=game, **({"options": options} if options else {}))
    await dc.slash(dc.bob, "join")
    if game == "list_und_tuecke":  # four seats at least
        for _ in range(2):
            await dc.slash(dc.alice, "addai")
    await dc.slash(dc.alice, "start")


@pytest.mark.parametrize("game,options", GAMES)
async def test_a_whole_game_costs_at_most_four_calls_a_move_and_pings_every_turn_once(dc, game, options):
    await start(dc, game, options)
    count = await play_counted(dc, [dc.alice, dc.bob])
    assert count.over and count.moves > 5
    # the calls the platform's global limit counts (sends, edits, deletes): at most four a move; the answers to
    # presses come on top, one a press — a picker step is a press (Guyenne's moves take about 1.7)
    counted = (count.calls - count.kinds["answer"]) / count.moves
    assert counted <= TARGET, (counted, count.kinds, count.moves)
    assert count.kinds["answer"] / count.moves <= 2, (count.kinds, count.moves)
    assert count.turn_pings and all(n == 1 for n in count.turn_pings), count.turn_pings


async def test_who_moved_and_is_still_to_act_keeps_their_hand_and_is_not_pinged_again(dc):
    await start(dc, "troubadour", "max_rounds=3")
    count = await play_counted(dc, [dc.alice, dc.bob])
    assert count.over and count.kept >= 5  # Troubadour: a trio's three cards, one move each
    assert count.kept_pinged == 0 and count.kept_reposted == 0, (count.kept, count.kept_pinged, count.kept_reposted)
