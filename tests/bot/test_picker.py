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


def test_multi_select_toggles_and_finishes():
    keeps = [{"type": "keep", "cards": [a, b]} for a, b in [(1, 2), (1, 3), (2, 3)]]
    level = picker.resolve(TOY, keeps, "")
    assert level.multi and [label for label, _ in level.options] == ["1", "2", "3"]
    one = picker.resolve(TOY, keeps, "m1")
    assert one.selected == [1] and not one.can_finish
    two = picker.resolve(TOY, keeps, "m5")
    assert two.selected == [1, 3] and two.can_finish
    assert picker.resolve(TOY, keeps, "d5").action == {"type": "keep", "cards": [1, 3]}
    with pytest.raises(IllegalAction):
        picker.resolve(TOY, keeps, "d7")  # three cards is not a legal keep
