"""The move picker on long and nested choices: pages, paths that round-trip, forged paths refused."""
from __future__ import annotations

import pytest

from bot.service import picker
from rules.api import IllegalAction
from tests.toygame import TOY

CARDS = [{"type": "play", "card": c} for c in range(1, 61)]


def test_a_long_choice_is_paged_and_every_option_reachable():
    first = picker.resolve(TOY, CARDS, "")
    assert first.pages == 3 and len(first.shown()) == picker.MAX_OPTIONS
    reached = []
    for page in range(first.pages):
        path = f"n{page}" if page else ""
        level = picker.resolve(TOY, CARDS, path)
        assert level.page == page
        for _label, token in level.shown():
            chosen = picker.resolve(TOY, CARDS, level.data_for(path, token))
            reached.append(chosen.action)
    assert reached == CARDS


def test_page_tokens_are_replaced_not_stacked():
    level = picker.resolve(TOY, CARDS, "n1")
    assert level.data_for("n1", "n2") == "n2"
    assert level.data_for("n1", "30") == "30"


@pytest.mark.parametrize("path", ["n3", "nx", "n1.n2", "n0.5", "60", "m1", "0.0"])
def test_forged_paths_are_refused(path):
    with pytest.raises(IllegalAction):
        picker.resolve(TOY, CARDS, path)


def test_a_list_with_few_valid_choices_is_offered_whole():
    """Issue 38: three valid pairs are three buttons — one press, not two ticks and Done (each step costs an
    answer and an edit)."""
    keeps = [{"type": "keep", "cards": [a, b]} for a, b in [(1, 2), (1, 3), (2, 3)]]
    level = picker.resolve(TOY, keeps, "")
    assert not level.multi and [label for label, _ in level.options] == ["keep 1 2", "keep 1 3", "keep 2 3"]
    assert picker.resolve(TOY, keeps, "1").action == {"type": "keep", "cards": [1, 3]}
    with pytest.raises(IllegalAction):
        picker.resolve(TOY, keeps, "3")


# a single card or any pair of eight: 36 valid choices, too many to list, so they are ticked
KEEPS = [{"type": "keep", "cards": [a]} for a in range(1, 9)] + \
    [{"type": "keep", "cards": [a, b]} for a in range(1, 9) for b in range(a + 1, 9)]


def test_multi_select_toggles_and_finishes():
    level = picker.resolve(TOY, KEEPS, "")
    assert level.multi and [label for label, _ in level.options] == [str(n) for n in range(1, 9)]
    one = picker.resolve(TOY, KEEPS, "m1")
    assert one.selected == [1] and one.can_finish  # a single card may be kept: Done is offered
    assert picker.resolve(TOY, KEEPS, "d1").action == {"type": "keep", "cards": [1]}
    # the second tick fills the largest choice: it is the choice, no Done press
    assert picker.resolve(TOY, KEEPS, "m5").action == {"type": "keep", "cards": [1, 3]}
    with pytest.raises(IllegalAction):
        picker.resolve(TOY, KEEPS, "d7")  # three cards is not a legal keep
    with pytest.raises(IllegalAction):
        picker.resolve(TOY, KEEPS, "d0")  # nor is none


# ---------------------------------------------------------------- every game: the stepwise picker is complete
import json  # noqa: E402
import random  # noqa: E402

import rules  # noqa: E402
from rules.ai import make_player  # noqa: E402

REAL_GAMES = ["guyenne", "kardinal", "koenig_artus", "list_und_tuecke", "troubadour"]


def reachable(game, actions: list[dict]) -> list[dict]:
    """Every action a person reaches by pressing the picker's buttons (pages, choices, toggles, done), checking
    on the way that no step shows more than 40 options and every label is a readable string."""
    found: list[dict] = []
    seen: set[str] = set()
    todo = [""]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        level = picker.resolve(game, actions, path)
        if level.action is not None:
            found.append(level.action)
            continue
        assert 0 < len(level.shown()) <= 40
        assert all(isinstance(label, str) and label for label, _ in level.shown())
        if level.multi:
            low, high = level.sizes
            mask = sum(1 << i for i, (label, _) in enumerate(level.options) if label.startswith("✔ "))
            if level.can_finish:
                todo.append(level.data_for(path, f"d{mask:x}"))
            if bin(mask).count("1") < high:
                todo += [level.data_for(path, token) for label, token in level.options if not label.startswith("✔ ")]
            continue
        todo += [level.data_for(path, token) for _, token in level.shown()]
        if level.page + 1 < level.pages:
            todo.append(level.data_for(path, f"n{level.page + 1}"))
    return found


def positions(name: str, count: int, seed: int):
    game = rules.get_game(name)
    rng = random.Random(seed)
    configs = game.configurations()
    for k in range(count):
        n, opts = configs[k % len(configs)]
        state = game.new_game(n, seed=rng.randrange(10 ** 6), options=opts)
        player = make_player("random", seed=k)
        for _ in range(rng.randrange(0, 120)):
            seat = state.to_act()[0]
            after = state.clone()
            after.apply(seat, player.choose(after, seat))
            if after.is_over():
                break
            state = after
        if not state.is_over():
            yield game, state


@pytest.mark.parametrize("name", REAL_GAMES)
def test_the_stepwise_picker_reaches_exactly_the_legal_actions(name):
    checked = 0
    for game, state in positions(name, 10 if name == "troubadour" else 25, seed=len(name)):
        for seat in state.to_act():
            legal = state.legal_actions(seat)
            got = reachable(game, legal)
            key = lambda a: json.dumps(a, sort_keys=True)  # noqa: E731
            assert sorted(map(key, got)) == sorted(set(map(key, legal)))
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("name", REAL_GAMES)
def test_picker_labels_use_the_boards_symbols(name):
    for game, state in positions(name, 15, seed=3):
        for seat in state.to_act():
            level = picker.resolve(game, state.legal_actions(seat), "")
            labels = " ".join(label for label, _ in level.options)
            assert "_" not in labels
            if name == "troubadour":
                assert not any(code in labels.split() for code in ("JS", "QS", "KS", "JH", "QH", "KH"))
            if name == "guyenne":
                assert not any(len(w) == 2 and w[0] in "5432" and w[1].isalpha() for w in labels.split())


def test_a_list_may_hold_an_item_twice_and_any_copy_may_be_ticked():
    """A multiset (Guyenne's ``aside 4 3 2 2 A``): an item is offered as often as one choice may hold it, and
    ticking either copy is the same choice."""
    items = "abcdefg"
    sets = [{"type": "keep", "cards": [x, y]} for i, x in enumerate(items) for y in items[i:]]  # 28: ticked
    level = picker.resolve(TOY, sets, "")
    assert level.multi and [label for label, _ in level.options][:4] == ["a", "a", "b", "b"]
    assert picker.resolve(TOY, sets, "m4").selected == ["b"]
    assert picker.resolve(TOY, sets, "m5").action == {"type": "keep", "cards": ["a", "b"]}  # first a, first b
    assert picker.resolve(TOY, sets, "ma").action == {"type": "keep", "cards": ["a", "b"]}  # second a, second b
    assert picker.resolve(TOY, sets, "mc").action == {"type": "keep", "cards": ["b", "b"]}
    assert sorted(set(map(str, reachable(TOY, sets)))) == sorted(map(str, sets))
