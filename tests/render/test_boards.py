"""Board pictures: every game draws at many random states; the pixels that matter are right; a picture shows no
more than its view."""
from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.render import boards
from bot.render.boards import kardinal as kardinal_picture
from bot.render.boards import koenig_artus as artus_picture
from bot.render.boards import list_und_tuecke as lut_picture
from bot.render.canvas import band_point
from bot.render.palette import COLOURS, SEAT_COLOURS
from rules import GAMES
from rules.ai import RandomPlayer

NAMES = ["Alice", "Bob", "Carol", "Dave", "Eve", "Frank"]
DRAWN = [name for name in sorted(GAMES) if boards.has_picture(name)]


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def near(pixel, colour, tolerance: int = 40) -> bool:
    """Equal up to the 64-colour palette the PNG is reduced to."""
    return sum(abs(a - b) for a, b in zip(pixel, colour)) <= tolerance


def playout_states(name: str, seed: int, every: int = 7):
    """States along one random playout of each configuration (every ``every``-th step, and the end)."""
    game = GAMES[name]
    for n, options in game.configurations():
        state = game.new_game(n, seed=seed, options=dict(options))
        player = RandomPlayer(seed)
        rng = random.Random(seed)
        step = 0
        while not state.is_over() and step < 3000:
            if step % every == 0:
                yield state
            seat = rng.choice(state.to_act())
            state.apply(seat, player.choose(state, seat))
            step += 1
        yield state


def sample(name: str, count: int, seed: int = 5):
    states = [s.clone() for s in playout_states(name, seed)]
    rng = random.Random(seed)
    picked = rng.sample(states[:-1], min(count, len(states) - 1)) + [states[-1]]
    return picked


@pytest.mark.parametrize("name", DRAWN)
def test_every_state_draws_a_phone_sized_png(name):
    """Random states of every configuration, the end included: public and private pictures, ≥ 800 px, ≤ 500 KB."""
    drawn = 0
    for state in sample(name, 24):
        for seat in (None, random.Random(drawn).randrange(state.num_players)):
            png = boards.draw(name, state.view(seat), NAMES).png()
            image = decode(png)
            assert image.width >= 800 and 150 <= image.height <= 2400
            assert len(png) <= 500 * 1024
            drawn += 1
    assert drawn >= 40


@pytest.mark.parametrize("name", DRAWN)
def test_a_picture_shows_no_more_than_its_view(name):
    """Re-drawing everything a seat cannot know (other hands, the stock) leaves its picture identical, to the byte;
    the same for the channel's picture. So no hidden card can be in them."""
    rng = random.Random(3)
    for state in sample(name, 6, seed=9):
        for seat in (None, *range(state.num_players)):
            other = state.determinize(seat, rng)
            assert boards.draw(name, state.view(seat), NAMES).png() == \
                boards.draw(name, other.view(seat), NAMES).png()


def test_picture_or_none_never_raises():
    assert boards.picture("no_such_game", {}, NAMES) is None
    assert boards.picture("koenig_artus", {"broken": True}, NAMES) is None  # logged, the text goes alone


# ---------------------------------------------------------------------- Mit List und Tücke
def lut_state(predicate, seed: int = 4):
    game = GAMES["list_und_tuecke"]
    state = game.new_game(5, seed=seed)
    player = RandomPlayer(seed)
    while not predicate(state):
        seat = state.to_act()[0]
        state.apply(seat, player.choose(state, seat))
    return state


def test_list_und_tuecke_trick_trump_piles_and_hand_colours():
    state = lut_state(lambda s: len(s.view(None)["trick"]) >= 3 and any(s.view(None)["open_piles"]))
    view = state.view(None)
    canvas = boards.draw("list_und_tuecke", view, NAMES)
    image = decode(canvas.png())
    for i, (seat, card) in enumerate(view["trick"]):
        assert near(image.getpixel(band_point(canvas.layout[f"trick:{i}"])), lut_picture.COLOUR[card[0]]), card
    assert near(image.getpixel(band_point(canvas.layout["trump"])), lut_picture.COLOUR[view["trump"]])
    for p, piles in enumerate(view["open_piles"]):
        for colour, cards in piles.items():
            for card in cards:
                assert near(image.getpixel(band_point(canvas.layout[f"open:{p}:{card}"])), lut_picture.COLOUR[colour])
    assert not [key for key in canvas.layout if key.startswith("hand:")]  # the channel sees no hand

    seat = state.to_act()[0]
    mine = state.view(seat)
    private = boards.draw("list_und_tuecke", mine, NAMES)
    image = decode(private.png())
    shown = {key.removeprefix("hand:") for key in private.layout if key.startswith("hand:")}
    assert shown == set(mine["hand"])
    for card in mine["hand"]:
        assert near(image.getpixel(band_point(private.layout[f"hand:{card}"])), lut_picture.COLOUR[card[0]])


# ---------------------------------------------------------------------- König Artus
def test_koenig_artus_pawns_stand_on_their_fields_in_their_colours():
    game = GAMES["koenig_artus"]
    state = game.new_game(4, seed=8)
    player = RandomPlayer(8)
    while len(set(state.view(None)["pos"])) < 3 or not state.view(None)["trick"]:
        seat = state.to_act()[0]
        state.apply(seat, player.choose(state, seat))
    view = state.view(None)
    canvas = boards.draw("koenig_artus", view, NAMES)
    image = decode(canvas.png())
    for seat, pos in enumerate(view["pos"]):
        x0, y0, x1, y1 = canvas.layout[f"pawn:{seat}"]
        fx0, fy0, fx1, fy1 = canvas.layout[f"field:{min(pos, view['track'])}"]
        assert fx0 <= x0 and x1 <= fx1 and fy0 <= y0 and y1 <= fy1, (seat, pos)
        assert near(image.getpixel((x0 + 4, (y0 + y1) // 2)), SEAT_COLOURS[seat])
    for field in view["swords"]:
        x0, y0, x1, y1 = canvas.layout[f"field:{field}"]
        assert near(image.getpixel((x0 + 30, y1 - 5)), artus_picture.SWORD_FIELD)
    for i, (seat, card) in enumerate(view["trick"]):
        _, colour, _ = artus_picture.card_face(card)
        assert near(image.getpixel(band_point(canvas.layout[f"trick:{i}"])), colour), card
    for k, colour in enumerate(view["slots"]):
        assert near(image.getpixel(band_point(canvas.layout[f"slot:{k}"])), COLOURS[colour])

    mine = state.view(0)
    private = boards.draw("koenig_artus", mine, NAMES)
    assert {k.removeprefix("hand:") for k in private.layout if k.startswith("hand:")} == set(mine["hand"])


# ---------------------------------------------------------------------- Kardinal
def test_kardinal_buildings_dom_and_cardinal_at_their_cells():
    game = GAMES["kardinal"]
    state = game.new_game(3, seed=2)
    player = RandomPlayer(2)
    while len(state.view(None)["pieces"]) < 12 or not state.view(None)["cardinal"]:
        seat = state.to_act()[0]
        state.apply(seat, player.choose(state, seat))
    view = state.view(None)
    canvas = boards.draw("kardinal", view, NAMES)
    image = decode(canvas.png())
    for piece in view["pieces"]:
        for cell in piece["cells"]:
            x0, y0, x1, y1 = canvas.layout[f"cell:{cell}"]
            assert near(image.getpixel((x1 - 6, y1 - 6)), COLOURS[piece["color"]]), (cell, piece)
    for cell in view["dom"]:
        x0, y0, x1, y1 = canvas.layout[f"cell:{cell}"]
        assert near(image.getpixel((x1 - 6, y1 - 6)), kardinal_picture.DOM)
    x0, y0, x1, y1 = canvas.layout["cardinal"]
    assert near(image.getpixel((x0 + 4, (y0 + y1) // 2)), kardinal_picture.CARDINAL)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    sx0, sy0, sx1, sy1 = canvas.layout[f"site:{view['cardinal']}"]
    assert sx0 <= cx <= sx1 and sy0 <= cy <= sy1  # the Cardinal stands on its site


# ---------------------------------------------------------------------- the service sends them
async def test_service_sends_board_and_hand_pictures_unless_the_chat_turns_them_off(tmp_path):
    from bot.service import ChatRef, UserRef, build_service

    chat = ChatRef("discord", "7", "guild", "round-table")
    alice, bob = UserRef("discord", "1", "Alice"), UserRef("discord", "2", "Bob")
    service = await build_service(f"sqlite+aiosqlite:///{tmp_path}/pictures.db", pictures=True,
                                  picture_workers=1, warm_pictures=False)
    try:
        await service.create_lobby(chat, alice, "koenig_artus", seed=3)
        await service.join(chat, bob)
        out = await service.start(chat, alice)
        live = service.ctx.games.loaded(out[0].game_id)
        board = next(m for m in out if m.kind == "board")
        assert board.image == boards.draw("koenig_artus", live.state.view(None), live.names).png()
        hands = [m for m in out if m.kind == "hand"]
        assert len(hands) == 2
        for message in hands:
            seat = next(s.seat for s in live.seats if s.user == message.user)
            assert message.image == boards.draw("koenig_artus", live.state.view(seat), live.names).png()
        assert board.text and all(m.text for m in hands)  # the text still goes along (caption, fallback)

        await service.settings(chat, alice, "pictures=off", is_admin=True)
        again = await service.show_board(chat, user=bob)
        assert [m.image for m in again if m.kind == "board"] == [None]
    finally:
        await service.close()


# ---------------------------------------------------------------------- Guyenne
def test_guyenne_castle_colours_arrows_and_face_down_armies():
    from bot.render.boards import guyenne as guyenne_picture

    game = GAMES["guyenne"]
    state = game.new_game(2, seed=6, options={"level": "basic"})
    player = RandomPlayer(6)
    while not (state.phase == "reinforce" and any(c is not None for c in state.castles)):
        seat = state.to_act()[0]
        state.apply(seat, player.choose(state, seat))
    view = state.view(None)
    canvas = boards.draw("guyenne", view, NAMES)
    image = decode(canvas.png())
    bottom = view["sides"].index("E")  # the channel sees the English army at the bottom
    for k, owner in enumerate(view["castles"], start=1):
        x0, y0, x1, y1 = canvas.layout[f"castle:{k}"]
        colour = guyenne_picture.NEUTRAL if owner is None else guyenne_picture.SIDE[view["sides"][owner]]
        assert near(image.getpixel((x0 + 6, y1 - 8)), colour)
        if owner is not None:  # the arrow's head lies on the side of the player who holds the castle
            ax0, ay0, ax1, ay1 = canvas.layout[f"arrow:{k}"]
            middle = (y0 + y1) // 2 + 10
            assert (ay1 > middle) == (owner == bottom)
    for fight in view["fights"]:
        for p in (0, 1):
            backs = [key for key in canvas.layout if key.startswith(f"army:{fight['castle']}:{p}:")]
            assert len(backs) == fight["counts"][p]
            for key in backs:  # face down: the back in the side's colour, nothing else
                x0, y0, x1, y1 = canvas.layout[key]
                assert near(image.getpixel((x0 + 5, y1 - 6)), guyenne_picture.SIDE[view["sides"][p]])
    seat = state.to_act()[0]
    mine = state.view(seat)
    private = boards.draw("guyenne", mine, NAMES)
    assert {k.removeprefix("hand:") for k in private.layout if k.startswith("hand:")} == set(mine["hand"])


def test_guyenne_two_sets_castles_in_their_holders_colours():
    """A castle in its holder's colour: his army's side (🟥E / 🟦F), as in the duel and in the text."""
    from bot.render.boards import guyenne as guyenne_picture

    game = GAMES["guyenne"]
    state = game.new_game(4, seed=2, options={"mode": "two_sets"})
    player = RandomPlayer(2)
    while sum(c is not None for c in state.castles) < 3 or state.phase != "reinforce":
        seat = state.to_act()[0]
        state.apply(seat, player.choose(state, seat))
    view = state.view(None)
    canvas = boards.draw("guyenne", view, NAMES)
    image = decode(canvas.png())
    assert len([k for k in canvas.layout if k.startswith("castle:")]) == 12
    for k, owner in enumerate(view["castles"], start=1):
        x0, y0, x1, y1 = canvas.layout[f"castle:{k}"]
        colour = guyenne_picture.NEUTRAL if owner is None else guyenne_picture.SIDE[view["sides"][owner]]
        assert near(image.getpixel((x0 + 6, y1 - 8)), colour), k
    for fight in view["fights"]:
        for army in fight["pair"]:
            shown = [key for key in canvas.layout if key.startswith(f"army:{fight['castle']}:{army}:")]
            assert len(shown) == fight["counts"][army]


# ---------------------------------------------------------------------- Troubadour
def test_troubadour_villages_fanned_with_backs_and_suit_colours():
    from bot.render.palette import CARD_BACK, SUIT_RED, INK

    game = GAMES["troubadour"]
    state = game.new_game(3, seed=2)
    player = RandomPlayer(1)
    rng = random.Random(0)
    while state.view(None)["phase"] != "turn" or state.view(None)["round"] < 2:
        seat = rng.choice(state.to_act())
        state.apply(seat, player.choose(state, seat))
    view = state.view(None)
    canvas = boards.draw("troubadour", view, NAMES)
    image = decode(canvas.png())
    backs = faces = 0
    for p, seat in enumerate(view["seats"]):
        for v, village in enumerate(seat["villages"]):
            for i, card in enumerate(village):
                x0, y0, x1, y1 = canvas.layout[f"village:{p}:{v}:{i}"]
                if card is None:  # face down for everyone: a back, its top strip visible in the fan
                    assert near(image.getpixel(((x0 + x1) // 2, y0 + 4)), CARD_BACK)
                    backs += 1
                elif i == len(village) - 1:  # the uncovered card: its suit symbol in red or black
                    colour = SUIT_RED if card[-1] in "HD" else INK
                    assert near(image.getpixel(((x0 + x1) // 2, y0 + (y1 - y0) * 6 // 10)), colour, 60), card
                    faces += 1
        for i, card in enumerate(view["trios"][p] or []):
            assert f"trio:{p}:{i}" in canvas.layout
    assert backs and faces
