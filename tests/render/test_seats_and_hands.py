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
