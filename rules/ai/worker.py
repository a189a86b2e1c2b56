"""The AI's decision as a plain top-level function of JSON in and out, so a process pool can run it off the
bot's event loop (the state travels as ``to_json``, which includes its RNG)."""
from __future__ import annotations

from rules.ai.levels import make_player
from rules.ai.strong import advise
from rules.api import get_game


def think(game_name: str, state_json: dict, seat: int, level: str, seed: int, budget: float | None = 1.0,
          iterations: int | None = None) -> dict:
    """The action the AI of ``level`` plays for ``seat``."""
    state = get_game(game_name).from_json(state_json)
    return make_player(level, seed=seed, budget=budget, iterations=iterations).choose(state, seat)


def hint(game_name: str, state_json: dict, seat: int, seed: int, budget: float | None = 1.0,
         iterations: int | None = None) -> dict:
    """``advise`` as JSON: {"action", "win_rate", "runner_up", "runner_up_win_rate", "iterations"}."""
    state = get_game(game_name).from_json(state_json)
    advice = advise(state, seat, seed, budget=budget, iterations=iterations)
    return {"action": advice.action, "win_rate": advice.win_rate, "runner_up": advice.runner_up,
            "runner_up_win_rate": advice.runner_up_win_rate, "iterations": advice.iterations}
