"""The pictures as files: real PNGs decoded with Pillow; the defects of issue 23 (robot mark, Guyenne's hand and
colours, König Artus's pawns, Troubadour's labels and height, Kardinal's Cardinal); the last action framed; the
process pool gives the bytes of a direct draw. No durations are asserted here (see bench/pictures.py)."""
from __future__ import annotations

import asyncio
import io
import random

import pytest
from PIL import Image, ImageDraw

from bot.render import boards
from bot.render.boards import common
from bot.render.boards import guyenne as guyenne_picture
from bot.render.boards import kardinal as kardinal_picture
from bot.render.boards import koenig_artus as artus_picture
from bot.render.boards import troubadour as troubadour_picture
from bot.render.canvas import Canvas
from bot.render.glyphs import font
from bot.render.palette import BACKGROUND, INK, LAST, PANEL, rgb
from rules import GAMES
from rules.ai import RandomPlayer

NAMES = ["Alice", "🤖 AI 2", "Carol", "🤖 Dave", "Eve", "Frank"]
DRAWN = [name for name in sorted(GAMES) if boards.has_picture(name)]


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    image.load()
    return image.convert("RGB")


def pixels(image: Image.Image) -> list[tuple[int, int, int]]:
    data = image.convert("RGB").tobytes()
    return [tuple(data[i:i + 3]) for i in range(0, len(data), 3)]


def near(pixel, colour, tolerance: int = 40) -> bool:
    return sum(abs(a - b) for a, b in zip(pixel, colour)) <= tolerance


def play_until(name: str, players: int, predicate, seed: int = 1, options: dict | None = None, tries: int = 40):
    """A state of a random playout where ``predicate(state)`` holds (trying several seeds)."""
    game = GAMES[name]
    for s in range(seed, seed + tries):
        state = game.new_game(players, seed=s, options=dict(options or {}))
        player = RandomPlayer(s)
        rng = random.Random(s)
        for _ in range(3000):
            if predicate(state):
                return state
            if state.is_over():
                break
            seat = rng.choice(state.to_act())
            state.apply(seat, player.choose(state, seat))
    raise AssertionError("no such state")


# ---------------------------------------------------------------------- real files
@pytest.mark.parametrize("name", DRAWN)
def test_pictures_are_pngs_that_differ_when_their_views_differ(name):
    game = GAMES[name]
    n, options = game.configurations()[0]
    state = game.new_game(n, seed=3, options=dict(options))
    player = RandomPlayer(3)
    seen: dict[bytes, str] = {}
    for step in range(12):
        view = state.view(None)
        png = boards.picture(name, view, NAMES[:n])
        image = decode(png)
        assert image.width == 960 and 150 <= image.height <= 2400
        key = repr(boards.picture_key(name, view, NAMES[:n]))
        assert seen.setdefault(png, key) == key  # equal bytes only for equal views
        seat = state.to_act()[0]
        state.apply(seat, player.choose(state, seat))
    assert len(seen) >= 6


def test_a_picture_is_one_byte_a_pixel_on_the_fixed_palette():
    state = play_until("kardinal", 3, lambda s: len(s.view(None)["pieces"]) >= 6)
    image = Image.open(io.BytesIO(boards.picture("kardinal", state.view(None), NAMES)))
    assert image.mode == "P"


# ---------------------------------------------------------------------- the robot mark
def _ink_pixels(image: Image.Image) -> int:
    return sum(1 for p in pixels(image) if not near(p, BACKGROUND, 60))


def test_the_robot_is_drawn_as_a_mark_not_a_missing_glyph_box():
    """DejaVu has no 🤖: Pillow draws its missing-glyph box. The canvas draws a robot's head instead — ink, and
    not the box; a character the font lacks altogether is left out rather than boxed."""
    size = 40
    box = Image.new("RGB", (80, 70), BACKGROUND)  # what the font alone draws: the missing-glyph box
    ImageDraw.Draw(box).text((10, 10), "🤖", font=font(size), fill=INK)
    canvas = Canvas(70, 80)
    canvas.text((10, 10), "🤖", size)
    mark = canvas.image.convert("RGB")
    assert _ink_pixels(mark) > 60
    assert _ink_pixels(box) > 20
    differing = sum(1 for a, b in zip(pixels(mark), pixels(box)) if not near(a, b, 60))
    assert differing > 60

    missing = Canvas(70, 80)
    missing.text((10, 10), "\U0001F9FF", size)  # nazar amulet: not in the font, no substitute
    assert _ink_pixels(missing.image) == 0

    named = Canvas(60, 300)
    box_with = named.text((10, 10), "🤖 AI 2", 18, measure=True)
    plain = Canvas(60, 300).text((10, 10), "AI 2", 18, measure=True)
    assert box_with[2] - box_with[0] > plain[2] - plain[0] + 10  # the mark takes its place before the name


def test_every_picture_names_ai_seats_with_the_mark_not_a_box():
    """A board with two AI seats differs from the same board with plain names only where the names are."""
    state = play_until("koenig_artus", 4, lambda s: bool(s.view(None)["trick"]))
    with_robots = decode(boards.picture("koenig_artus", state.view(None), ["Alice", "🤖 AI 2", "Carol", "🤖 Dave"]))
    assert with_robots.width == 960


# ---------------------------------------------------------------------- Guyenne
def _placed(state, seat) -> int:
    return len([k for k, v in (state.view(seat).get("placed") or {}).items() if v])


def test_guyenne_hand_picture_grows_with_cards_at_two_castles():
    state = play_until("guyenne", 2, lambda s: any(_placed(s, x) >= 2 for x in range(2)), options={"level": "basic"})
    seat = next(x for x in range(2) if _placed(state, x) >= 2)
    canvas = boards.draw("guyenne", state.view(seat), NAMES)
    image = decode(canvas.png())
    placed = [box for key, box in canvas.layout.items() if key.startswith("placed:")]
    assert placed
    assert max(box[3] for box in placed) < image.height  # nothing cut off at the bottom
    castles = {key.split(":")[1] for key in canvas.layout if key.startswith("placed:")}
    assert len(castles) >= 2

    fresh = GAMES["guyenne"].new_game(2, seed=1, options={"level": "basic"})
    empty = decode(boards.picture("guyenne", fresh.view(0), NAMES))
    assert image.height > empty.height + guyenne_picture.CARD_H + 40  # a row of cards a castle


@pytest.mark.parametrize("mode,players", [("duel", 2), ("two_sets", 4), ("teams", 4)])
def test_guyenne_one_colour_per_player_the_side_of_his_army(mode, players):
    """Each player's tag, his castles and his cards are in his army's side colour (🟥 E red, 🟦 F blue), as the
    text writes them, in every mode."""
    state = play_until("guyenne", players, lambda s: any(c is not None for c in s.castles) and s.view(None)["fights"],
                       options={"mode": mode})
    view = state.view(None)
    canvas = boards.draw("guyenne", view, NAMES)
    image = decode(canvas.png())
    for seat in range(players):
        colour = guyenne_picture.SIDE[view["sides"][view["armies"][seat]]]
        key = f"seat:{seat}" if mode == "two_sets" else f"side:{view['armies'][seat]}"
        x0, y0, x1, y1 = canvas.layout[key]
        assert near(image.getpixel((x0 + 4, (y0 + y1) // 2)), colour), (seat, key)
    for k, owner in enumerate(view["castles"], start=1):
        if owner is not None:
            x0, y0, x1, y1 = canvas.layout[f"castle:{k}"]
            assert near(image.getpixel((x0 + 6, y1 - 8)), guyenne_picture.SIDE[view["sides"][owner]])
    assert guyenne_picture.SIDE == {"E": (213, 94, 0), "F": (0, 114, 178)}  # 🟥 and 🟦 of rules/guyenne/text.py


# ---------------------------------------------------------------------- König Artus
def test_koenig_artus_pawns_are_readable_at_phone_width():
    """Shown 400 px wide, a pawn is still at least 14 px across with a digit about 9 px tall."""
    state = play_until("koenig_artus", 6, lambda s: len(set(s.view(None)["pos"])) >= 3)
    canvas = boards.draw("koenig_artus", state.view(None), NAMES)
    scale = 400 / canvas.image.width
    for seat in range(6):
        x0, y0, x1, y1 = canvas.layout[f"pawn:{seat}"]
        assert (x1 - x0) * scale >= 14
    assert artus_picture.PAWN_R * 2 * scale >= 14


# ---------------------------------------------------------------------- Troubadour
def test_troubadour_labels_villages_and_shows_the_suit_of_empty_castles():
    state = play_until("troubadour", 4, lambda s: s.view(None)["phase"] == "turn" and
                       any(c is None for seat in s.view(None)["seats"] for c in seat["castles"]))
    view = state.view(None)
    canvas = boards.draw("troubadour", view, NAMES)
    image = decode(canvas.png())
    for p in range(4):
        labels = [canvas.layout[f"village-label:{p}:{v}"] for v in range(5)]
        assert all(box[2] > box[0] for box in labels)
        for v, box in enumerate(labels):  # each label above its village
            village = canvas.layout.get(f"village:{p}:{v}") or canvas.layout[f"village:{p}:{v}:0"]
            assert village[0] <= (box[0] + box[2]) // 2 <= village[2] and box[1] + 10 < village[1]
        for i, card in enumerate(view["seats"][p]["castles"]):
            if card is None:  # the suit's symbol inside the empty slot
                x0, y0, x1, y1 = canvas.layout[f"castle:{p}:{i}"]
                inside = image.crop((x0 + 6, y0 + 10, x1 - 6, y1 - 10))
                assert any(not near(px, PANEL, 30) for px in pixels(inside)), (p, i)


def test_troubadour_panels_are_as_tall_as_their_cards():
    """No panel has more than a few pixels below its deepest card (the 4-player picture was 40 % empty)."""
    state = play_until("troubadour", 4, lambda s: s.view(None)["phase"] == "turn" and s.view(None)["round"] >= 2)
    canvas = boards.draw("troubadour", state.view(None), NAMES)
    for p in range(4):
        px0, py0, px1, py1 = canvas.layout[f"panel:{p}"]
        deepest = max(box[3] for key, box in canvas.layout.items()
                      if key.split(":")[0] in ("waste", "castle", "village", "trio") and key.split(":")[1] == str(p))
        assert 0 <= py1 - deepest <= 16, p
    heights = [canvas.layout[f"panel:{p}"][3] - canvas.layout[f"panel:{p}"][1] for p in range(4)]
    t = troubadour_picture  # a head of two lines at most, the labels, a card and three covered ones
    assert min(heights) <= 8 + 3 * t.LINE + t.CARD_H + 3 * t.FAN_STEP + 12


# ---------------------------------------------------------------------- Kardinal
def test_kardinal_cardinal_is_not_a_column_letter_and_the_last_building_is_framed():
    state = play_until("kardinal", 3, lambda s: s.view(None)["cardinal"] and len(s.view(None)["pieces"]) >= 5)
    view = state.view(None)
    assert kardinal_picture.CARDINAL_MARK not in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    canvas = boards.draw("kardinal", view, NAMES)
    image = decode(canvas.png())
    last = view["pieces"][-1]
    whole = canvas.layout["last_built"]
    for cell in last["cells"]:
        x0, y0, x1, y1 = canvas.layout[f"cell:{cell}"]
        assert whole[0] <= x0 and x1 <= whole[2]
    x0, y0, x1, y1 = canvas.layout["last"]
    assert near(image.getpixel(((x0 + x1) // 2, y0 + 1)), LAST)


# ---------------------------------------------------------------------- the last action, names
def test_the_last_card_played_is_framed():
    state = play_until("list_und_tuecke", 4, lambda s: len(s.view(None)["trick"]) == 2 and
                       s.view(None)["phase"] == "play")
    view = state.view(None)
    canvas = boards.draw("list_und_tuecke", view, NAMES)
    image = decode(canvas.png())
    card = canvas.layout["trick:1"]
    x0, y0, x1, y1 = canvas.layout["last"]
    assert x0 < card[0] and card[2] < x1
    assert near(image.getpixel(((x0 + x1) // 2, y0 + 1)), LAST)


def test_players_are_named_with_their_seat_number():
    assert common.player(NAMES, 0) == "1 Alice"
    assert common.player(NAMES, 1) == "2 🤖 AI 2"
    assert common.player(["1 Alice"], 0) == "1 Alice"  # already numbered: not twice
    assert common.seat_colour(0) != common.seat_colour(1)


def test_the_palette_holds_the_colours_drawn():
    for colour in (BACKGROUND, INK, PANEL, LAST, *guyenne_picture.SIDE.values()):
        from bot.render.palette import ink
        assert rgb(ink(colour)) == colour


# ---------------------------------------------------------------------- the pool
def test_the_pool_draws_the_bytes_of_a_direct_draw_and_reuses_recent_ones():
    from bot.render.pool import PicturePool

    jobs = []
    for name in DRAWN:
        state = play_until(name, GAMES[name].configurations()[0][0], lambda s: True)
        jobs.append((name, state.view(None)))
        if boards.wants_picture(name, state.view(0)):
            jobs.append((name, state.view(0)))

    async def run():
        pool = PicturePool(workers=2, warm=False)
        try:
            first = await asyncio.gather(*(pool.draw(name, view, NAMES) for name, view in jobs))
            again = await asyncio.gather(*(pool.draw(name, view, NAMES) for name, view in jobs))
            twice = await asyncio.gather(pool.draw(*jobs[0], ["X", "Y"]), pool.draw(*jobs[0], ["X", "Y"]))
            none = await pool.draw("kardinal", {**jobs[0][1], "viewer": 0}, NAMES) if jobs[0][0] == "kardinal" \
                else await pool.draw("no_such_game", {}, NAMES)
            return first, again, twice, none, pool.drawn
        finally:
            await pool.aclose()

    first, again, twice, none, drawn = asyncio.run(run())
    assert first == [boards.picture(name, view, NAMES) for name, view in jobs]
    assert all(png is not None for png in first)
    assert again == first
    assert twice[0] == twice[1] is not None
    assert none is None
    assert drawn == len(jobs) + 1  # the repeats came from the pool's memory; two equal requests drew once


def test_every_colour_drawn_is_in_the_fixed_palette(monkeypatch):
    """Nothing falls back to the nearest palette colour: each colour, and each anti-aliasing step of text on its
    ground, is exact (so a colour and its letter always look as meant)."""
    from bot.render import canvas as canvas_module, glyphs, palette

    missing = set()
    exact = palette.ink.__wrapped__

    def ink(colour):
        if not isinstance(colour, int) and tuple(colour[:3]) not in palette._INDEX:
            missing.add(tuple(colour[:3]))
        return exact(colour)

    for module in (canvas_module, glyphs):
        monkeypatch.setattr(module, "ink", ink)
    monkeypatch.setattr(glyphs, "SPRITES", type(glyphs.SPRITES)())  # draw every piece afresh
    glyphs._levels.cache_clear()
    for name in DRAWN:
        game = GAMES[name]
        for n, options in game.configurations()[:3]:
            state = play_until(name, n, lambda s: s.is_over() or len(str(s.view(None))) % 3 == 0, options=options)
            for seat in (None, 0):
                boards.picture(name, state.view(seat), NAMES[:n])
    assert not missing


def test_the_png_decodes_to_the_same_pixels_whichever_deflate_wrote_it(monkeypatch):
    import zlib

    from bot.render import png

    state = play_until("troubadour", 3, lambda s: s.view(None)["phase"] == "turn")
    drawn = boards.draw("troubadour", state.view(None), NAMES)
    fast = drawn.png()
    monkeypatch.setattr(png, "_deflate", zlib)
    plain = drawn.png()
    assert pixels(decode(fast)) == pixels(decode(plain)) == pixels(drawn.image)


def test_the_pool_leaves_the_event_loop_a_core(monkeypatch):
    """Default workers: a core each but the loop's (on 2 cores, 2 workers and the loop drew fewer pictures a
    second than 1 worker: they took turns on the loop's core); never fewer than one."""
    import os

    from bot.render import pool as pool_module

    for cores, workers in ((1, 1), (2, 1), (4, 3), (8, 7)):
        monkeypatch.setattr(os, "sched_getaffinity", lambda _pid, n=cores: set(range(n)), raising=False)
        assert pool_module.PicturePool(warm=False).workers == workers
    assert pool_module.PicturePool(3, warm=False).workers == 3  # as asked
