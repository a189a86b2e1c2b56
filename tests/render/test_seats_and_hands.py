"""One colour per seat in Kardinal (its badge is the colour it builds in), and Troubadour's private picture (the
seat's own table and secret trio, from ``view(seat)`` only)."""
from __future__ import annotations

import io

from PIL import Image

from bot.render import boards
from rules import GAMES
from rules.ai import RandomPlayer
from tests.render.test_boards import NAMES, near


def _pixels(canvas):
    return Image.open(io.BytesIO(canvas.png())).convert("RGB")


def test_kardinal_seat_badges_have_the_colour_their_seat_builds_in():
    for players in (2, 3, 4):
        game = GAMES["kardinal"]
        state = game.new_game(players, seed=players)
        player = RandomPlayer(1)
        for _ in range(6 * players):  # every seat has built something
            seat = state.to_act()[0]
            state.apply(seat, player.choose(state, seat))
        view = state.view(None)
        canvas = boards.draw("kardinal", view, NAMES)
        image = _pixels(canvas)
        for p in range(players):
            x0, y0, x1, y1 = canvas.layout[f"seat:{p}"]
            badge = image.getpixel((x0 + 4, (y0 + y1) // 2))
            own = [piece for piece in view["pieces"] if piece["color"] == view["colours"][p][0]]
            assert own, (players, p)
            bx0, by0, bx1, by1 = canvas.layout[f"cell:{own[0]['cells'][0]}"]
            building = image.getpixel((bx1 - 6, by1 - 6))
            assert near(badge, building, 12), (players, p, badge, building)


def _troubadour_choosing(players: int = 3, seed: int = 2):
    """A Troubadour game in its first trio choice, seat 0 having chosen and the others not yet."""
    game = GAMES["troubadour"]
    state = game.new_game(players, seed=seed)
    player = RandomPlayer(seed)
    assert state.view(None)["phase"] == "select_trios"
    while not state.view(0).get("my_trio"):
        state.apply(0, player.choose(state, 0))
    return state


def test_troubadour_has_a_private_picture_of_the_seats_own_table_and_secret_trio():
    state = _troubadour_choosing()
    view = state.view(0)
    assert boards.wants_picture("troubadour", view)
    canvas = boards.draw("troubadour", view, NAMES)
    texts = [text for box, size, text in canvas.texts]
    secret = view["my_trio"]
    shown = [canvas.layout[f"trio:0:{i}"] for i in range(3)]
    image = _pixels(canvas)
    for (x0, y0, x1, y1), code in zip(shown, secret):  # face up (white), its index drawn on it
        assert near(image.getpixel((x1 - 4, y1 - 6)), (255, 255, 255), 12), code
    indices = {box[:2]: text for box, size, text in canvas.texts}
    assert sorted(indices[(x0 + 4, y0 + 2)] for x0, y0, x1, y1 in shown) == \
        sorted(boards._module("troubadour").noble(code) for code in secret)
    # only the viewer's table: no other seat's panel, badge or trio
    assert [key for key in canvas.layout if key.startswith(("panel:", "seat:", "trio:"))
            and not key.split(":")[1] == "0"] == []
    assert not any(NAMES[1] in t or NAMES[2] in t for t in texts)


def test_troubadour_private_picture_tells_nothing_of_the_others_secrets():
    """Another seat's secret trio, drawn again at random, changes nothing in seat 0's picture; the public picture
    shows seat 0's chosen trio as backs only."""
    import random

    state = _troubadour_choosing(players=3)
    player = RandomPlayer(9)
    while not state.view(1).get("my_trio"):
        state.apply(1, player.choose(state, 1))
    assert state.view(None)["phase"] == "select_trios"  # seat 2 still chooses: both trios secret
    mine = boards.draw("troubadour", state.view(0), NAMES).png()
    for k in range(4):
        other = state.determinize(0, random.Random(k))
        assert boards.draw("troubadour", other.view(0), NAMES).png() == mine
    public = boards.draw("troubadour", state.view(None), NAMES)
    image = _pixels(public)
    for seat in (0, 1):
        for i in range(3):
            x0, y0, x1, y1 = public.layout[f"trio:{seat}:{i}"]
            assert not near(image.getpixel((x1 - 4, y1 - 6)), (255, 255, 255), 12)  # a back, not a face
