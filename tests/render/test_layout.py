"""Every text of every picture, in every language: readable on a phone (≥ 9 px tall when the picture is shown 400 px
wide), clear of every other text (no two text boxes overlap) and inside the picture. The canvas records each text it
draws — inside pasted pieces and cached layers too — with its box and font size."""
from __future__ import annotations

import random

import pytest

from bot import i18n
from bot.render import boards, glyphs
from bot.render.canvas import PHONE
from tests.render.test_boards import DRAWN, sample

# long names, AI marks and a number-led name: what pushes labels into each other
NAMES = ["Maximiliane", "🤖 Sir Greedy", "Bartholomew", "🤖 Lady Grasp", "Evangeline", "5 Frank"]


def overlapping(texts) -> list[tuple]:
    """Pairs of texts whose boxes share an area (touching edges do not)."""
    found = []
    ordered = sorted(texts, key=lambda t: t[0][0])
    for i, (a, size_a, text_a) in enumerate(ordered):
        for b, size_b, text_b in ordered[i + 1:]:
            if b[0] >= a[2]:
                break
            if min(a[3], b[3]) > max(a[1], b[1]) and min(a[2], b[2]) > max(a[0], b[0]):
                found.append((text_a, a, text_b, b))
    return found


def too_small(canvas) -> list[tuple]:
    """Texts whose font is under 9 px when the picture is shown ``PHONE`` px wide."""
    return [(text, size, round(size * PHONE / canvas.width, 1)) for box, size, text in canvas.texts
            if size * PHONE / canvas.width < 9]


def outside(canvas) -> list[tuple]:
    """Texts that run past the picture's edges (cut off)."""
    return [(text, box) for box, size, text in canvas.texts
            if box[0] < 0 or box[1] < 0 or box[2] > canvas.width or box[3] > canvas.image.height]


def pictures(name: str, count: int = 8):
    """(what, canvas) for public and private pictures of random states, every configuration, the end included."""
    rng = random.Random(11)
    for k, state in enumerate(sample(name, count, seed=4)):
        for seat in (None, rng.randrange(state.num_players)):
            view = state.view(seat)
            if boards.wants_picture(name, view):
                yield f"{name} state {k} seat {seat}", boards.draw(name, view, NAMES)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("name", DRAWN)
def test_no_two_texts_overlap_and_every_text_is_readable_at_phone_width(name, lang):
    drawn = 0
    with i18n.using(lang):
        for what, canvas in pictures(name):
            assert canvas.texts, what
            assert not overlapping(canvas.texts), (what, overlapping(canvas.texts)[:5])
            assert not too_small(canvas), (what, too_small(canvas)[:8])
            assert not outside(canvas), (what, outside(canvas)[:5])
            drawn += 1
    assert drawn >= 8


def test_the_canvas_records_texts_in_pieces_and_layers_where_they_land():
    """A card's rank (drawn once on a piece) and a panel's label (drawn once on a cached layer) are recorded at
    the place they were pasted, every time they are pasted."""
    from bot.render.canvas import Canvas

    def layer(c):
        c.text((10, 5), "inside a layer", 24)

    for _ in range(2):  # the second time both come from the caches
        canvas = Canvas(300)
        canvas.card("c", 100, 50, "7", (0, 114, 178), "B", w=62, h=88)
        canvas.layer(("test-layer",), 0, 200, 400, 60, layer)
        ranks = [box for box, size, text in canvas.texts if text == "7"]
        assert len(ranks) == 1 and 100 < ranks[0][0] < ranks[0][2] < 162 and 50 < ranks[0][1] < 138
        _, width, ascent, descent = glyphs.measure("inside a layer", 24, False)
        assert [(box, size) for box, size, text in canvas.texts if text == "inside a layer"] == \
            [((10, 205, 10 + width, 205 + ascent + descent), 24)]
