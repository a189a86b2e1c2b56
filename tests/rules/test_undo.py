"""Which moves each game lets be taken back (``State.undo_refusal``), checked against the views.

An independent witness says whether a move told anyone something new: it is played again in worlds that only
re-draw what a reader could not know (``determinize``); if the move is then not legal, or the reader's view after
it differs, the move depended on — and so showed — something hidden or left to chance. The engine must refuse,
with a reason, every move the witness catches; and a move it allows must come back exactly (``to_json``) when
the game is played again from its seed without it (``rules.undo.rebuild``)."""
from __future__ import annotations

import copy
import random

import pytest

from rules import GAMES, IllegalAction
from rules.ai import RandomPlayer
from rules.undo import rebuild
from tests.rules import conformance as kit

CONFIGS = [(name, n, options) for name, game in sorted(GAMES.items()) for n, options in game.configurations()
           if type(game).__module__.startswith("rules.")]  # the five games (not the tests' toy)
IDS = [f"{name}-{n}p-" + ",".join(f"{k}={v}" for k, v in sorted(opts.items())) for name, n, opts in CONFIGS]
WORLDS = 3  # re-drawn worlds per reader and move


def told_something(before, seat: int, action: dict, after, rng: random.Random) -> bool:
    """True when some reader (the table or a seat, the mover too) could have told this move's outcome apart in
    a world that re-draws what that reader does not know: the move showed something hidden or drew. A move made
    openly that such a world does not allow (a card played that the world did not deal to the mover) showed what
    it needed; a secret one (``is_secret``: cards placed face down) shows only its outcome."""
    for reader in [None, *range(after.num_players)]:
        seen = after.view(reader)
        for _ in range(WORLDS):
            world = before.determinize(reader, rng)
            try:
                world.apply(seat, copy.deepcopy(action))
            except IllegalAction:  # the move needs something this reader cannot know of
                if reader == seat or not before.is_secret(seat, action):
                    return True  # made openly, it showed what it needed
                continue  # made in secret: this reader sees only its outcome, judged in other worlds
            if world.view(reader) != seen:
                return True
    return False


@pytest.mark.parametrize(("name", "n", "options"), CONFIGS, ids=IDS)
def test_undoable_moves_come_back_and_revealing_ones_are_refused(name, n, options):
    game = GAMES[name]
    rng = random.Random(7)
    seed = 31
    undone = refused = 0
    state = game.new_game(n, seed=seed, options=copy.deepcopy(options))
    policy, pick = RandomPlayer(seed), random.Random(seed)
    log: list[tuple[int, dict]] = []
    while not state.is_over() and len(log) < 160:
        seat, action = kit.step_policy(state, policy, pick)
        before = state.clone()
        events = state.apply(seat, copy.deepcopy(action))
        log.append((seat, action))
        reason = state.undo_refusal(seat, events, before)
        if told_something(before, seat, action, state, rng):
            assert isinstance(reason, str) and reason.strip(), \
                f"move {len(log)} {action} of seat {seat} showed something hidden or drew, yet may be taken back"
        if reason is None:
            back = rebuild(game, n, seed, options, log[:-1])
            assert back.to_json() == before.to_json()
            assert [back.view(r) for r in [None, *range(n)]] == [before.view(r) for r in [None, *range(n)]]
            undone += 1
        else:
            refused += 1
    assert undone, "no move of this game can ever be taken back"
    if game.has_hidden_information:
        assert refused, "a game with hidden information never refused to take a move back"


def test_the_default_is_final():
    """A game that does not answer for its moves keeps every move final."""
    from rules.api import State

    assert State.undo_refusal(object(), 0, [], object())
