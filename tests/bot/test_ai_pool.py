"""The AI pool: decisions come from worker processes, equal to deciding in process, and the loop stays free."""
from __future__ import annotations

import asyncio

from bot.ai_pool import AIPool
from rules import GAMES
from rules.ai import GreedyPlayer, make_player


def midgame(seed: int = 3):
    """Some moves into a game, at a seat with a real choice (a forced move would need no thinking)."""
    state = GAMES["list_und_tuecke"].new_game(4, seed=seed)
    greedy = GreedyPlayer(seed)
    moves = 0
    while moves < 9 or len(state.ai_actions(state.to_act()[0])) < 2:
        seat = state.to_act()[0]
        state.apply(seat, greedy.choose(state, seat))
        moves += 1
    return state


async def test_choose_in_a_worker_equals_choosing_in_process():
    state = midgame()
    seat = state.to_act()[0]
    async with AIPool(workers=1) as pool:
        action = await pool.choose("list_und_tuecke", state.to_json(), seat, "strong", 11, None, iterations=25)
        advice = await pool.hint("list_und_tuecke", state.to_json(), seat, 11, None, iterations=25)
    assert action == make_player("strong", seed=11, budget=None, iterations=25).choose(state, seat)
    assert advice["action"] in state.legal_actions(seat)


async def test_the_event_loop_keeps_running_while_an_ai_thinks():
    """A ticking coroutine runs while a decision is pending: thinking on the loop would block every tick."""
    state = midgame()
    seat = state.to_act()[0]
    ticks_while_thinking = 0
    async with AIPool(workers=1) as pool:
        await pool.choose("list_und_tuecke", state.to_json(), seat, "greedy", 1, None)  # the worker is up
        task = asyncio.create_task(pool.choose("list_und_tuecke", state.to_json(), seat, "strong", 2, 0.5))
        while not task.done():
            await asyncio.sleep(0.01)
            ticks_while_thinking += not task.done()
        action = await task
    assert ticks_while_thinking > 0
    assert action in state.legal_actions(seat)
