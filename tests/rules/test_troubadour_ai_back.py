"""Issue 37, item 8: the AIs no longer move a run back where the turn's last move took it from (V1 → V3 → V1 → V3 …),
unless nothing else is left to do; a stored game without the memory of that move still loads."""
from __future__ import annotations

import pytest

import rules
from rules.ai import make_player
from rules.troubadour.ai import ai_actions


def _undoes(last: dict | None, event) -> bool:
    return last is not None and event.kind == "built_village" and last["from"] != "waste" and \
        event.data["cards"][0] == last["cards"][0] and event.data["from"] == f"V{last['to']}" and \
        last["from"] == f"V{event.data['to']}"


@pytest.mark.parametrize("players,level,seed", [(2, "greedy", 1), (2, "greedy", 2), (4, "greedy", 3),
                                                (4, "greedy", 4), (2, "strong", 5)])
def test_the_ai_never_moves_a_run_straight_back(players, level, seed):
    game = rules.get_game("troubadour")
    state = game.new_game(players, seed=seed)
    bots = [make_player(level, seed=seed * 10 + s, **({"iterations": 30} if level == "strong" else {}))
            for s in range(players)]
    last: dict | None = None  # the previous action's village move, in this turn
    moves = undone = 0
    for _ in range(4000 if level == "greedy" else 600):
        if state.is_over():
            break
        seat = state.to_act()[0]
        shortlist = ai_actions(state, seat)
        action = bots[seat].choose(state, seat)
        events = state.apply(seat, action)
        village = next((e for e in events if e.kind == "built_village"), None)
        if village is not None:
            moves += 1
            if _undoes(last, village):
                undone += 1
                assert len(shortlist) == 1, (action, last)  # only when nothing else was left
        ended = any(e.kind == "turn_ended" for e in events)
        last = None if ended or village is None else village.data
    assert moves > 10 and undone == 0


def test_a_game_stored_before_keeps_loading():
    game = rules.get_game("troubadour")
    state = game.new_game(2, seed=1)
    data = state.to_json()
    data.pop("back")
    assert game.from_json(data).back is None
