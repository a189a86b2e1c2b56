"""Kardinal: the worked examples 7.1–7.8 and derived cases E1–E10 of the rules file, notation, views, options."""
from __future__ import annotations

import json
import random

import pytest

import rules
from rules.api import IllegalAction
from rules.kardinal.geometry import (COLOURS, COURT, HOUSE, TOWER, building_text, cell, col_label, label,
                                     parse_label, xy)
from rules.kardinal.state import KardinalState

GAME = rules.get_game("kardinal")
KIND = {"house": HOUSE, "tower": TOWER, "courtyard": COURT}


def L(x: int, y: int) -> str:
    return label(cell(x, y))


def table(n: int, colours: list, start: int = 0, shared: str | None = None) -> KardinalState:
    cols = [[COLOURS.index(c) for c in (cs if isinstance(cs, list) else [cs])] for cs in colours]
    return KardinalState(n, 1, cols, COLOURS.index(shared) if shared else None, start)


def build_action(s: KardinalState, kind: str, cells: list, colour: str) -> dict:
    cs = [cell(*c) for c in cells]
    if len(cs) == 2 and cs[0] not in s.sites:
        cs.reverse()
    other = cs[1] if len(cs) == 2 else None
    return {"type": "build", "site": label(cs[0]), "building": building_text(COLOURS.index(colour), KIND[kind],
                                                                               other)}


def build(s: KardinalState, seat: int, kind: str, cells: list, colour: str):
    return s.apply(seat, build_action(s, kind, cells, colour))


def verdict(s: KardinalState, seat: int, kind: str, cells: list, colour: str) -> list[str]:
    return s.violations(seat, KIND[kind], COLOURS.index(colour), tuple(cell(*c) for c in cells))


def stones(s: KardinalState, p: int) -> dict:
    return {COLOURS[c]: k for c, k in enumerate(s.stones[p]) if k}


def gained(events) -> list[str]:
    return [e for e in events if e.kind == "built"][0].data["stones"]


def sites(s: KardinalState) -> set[tuple[int, int]]:
    return {xy(c) for c in s.sites}


def opening_4p() -> KardinalState:
    """7.2: P1 red (start), P2 yellow, P3 green, P4 blue."""
    return table(4, ["red", "yellow", "green", "blue"], start=0)


def after_turn(k: int) -> KardinalState:
    """The 7.2 sequence up to the end of turn ``k`` (1..5); turn 5 stops in P1's Cardinal step."""
    s = opening_4p()
    build(s, 0, "house", [(-1, 0)], "red")
    s.apply(0, {"type": "bonus_stone", "color": "blue"})
    s.apply(0, {"type": "place_cardinal", "site": L(2, 0)})
    steps = [(1, "tower", [(-1, 1)], "yellow"), (2, "courtyard", [(0, 1), (1, 1)], "green"),
             (3, "house", [(-1, 2)], "blue"), (0, "tower", [(0, 2)], "red")]
    for seat, kind, cells, colour in steps[:k - 1]:
        build(s, seat, kind, cells, colour)
        if seat != 0:
            s.apply(seat, {"type": "end_turn"})
    return s


# ---------------------------------------------------------------- 7.1 geometry
def bare(n: int = 4) -> KardinalState:
    s = table(n, ["red", "yellow", "green", "blue"][:n])
    s.pieces, s.grid, s.sites = [], {}, set()
    return s


def test_g1_house_has_four_sites():
    s = bare()
    s.place_piece(HOUSE, 0, (cell(10, 10),), 0)
    assert sites(s) == {(9, 10), (11, 10), (10, 9), (10, 11)}


def test_g2_courtyard_has_six_sites_in_both_orientations():
    s = bare()
    s.place_piece(COURT, 0, (cell(10, 10), cell(11, 10)), 0)
    assert sites(s) == {(9, 10), (12, 10), (10, 9), (10, 11), (11, 9), (11, 11)}
    s = bare()
    s.place_piece(COURT, 0, (cell(10, 10), cell(10, 11)), 0)
    assert len(sites(s)) == 6


def test_g3_start_sites():
    s = opening_4p()
    assert sites(s) == {(-1, 0), (2, 0), (0, 1), (0, -1), (1, 1), (1, -1)}
    assert GAME.new_game(3, seed=5).view(None)["sites"] == ["L13", "M12", "M14", "N12", "N14", "O13"]


# ---------------------------------------------------------------- 7.2 four-player opening
def test_7_2_opening_sequence():
    s = opening_4p()
    assert s.to_act() == [0] and s.phase == "build"
    ev = build(s, 0, "house", [(-1, 0)], "red")
    assert gained(ev) == [] and s.phase == "bonus" and s.to_act() == [0]
    assert [a["color"] for a in s.legal_actions(0)] == ["red", "yellow", "green", "blue"]
    s.apply(0, {"type": "bonus_stone", "color": "blue"})
    assert stones(s, 0) == {"blue": 1} and s.phase == "place_cardinal"
    assert all(a["type"] == "place_cardinal" for a in s.legal_actions(0))
    s.apply(0, {"type": "place_cardinal", "site": L(2, 0)})
    assert s.cardinal == cell(2, 0) and s.to_act() == [1] and s.phase == "build"
    assert gained(build(s, 1, "tower", [(-1, 1)], "yellow")) == ["red"]
    assert s.phase == "cardinal"
    s.apply(1, {"type": "end_turn"})
    assert gained(build(s, 2, "courtyard", [(0, 1), (1, 1)], "green")) == ["yellow"]
    s.apply(2, {"type": "end_turn"})
    assert gained(build(s, 3, "house", [(-1, 2)], "blue")) == ["yellow"]
    s.apply(3, {"type": "end_turn"})
    assert s.to_act() == [0]
    assert sorted(gained(build(s, 0, "tower", [(0, 2)], "red"))) == ["blue", "green"]
    assert stones(s, 0) == {"blue": 2, "green": 1}
    assert stones(s, 1) == {"red": 1} and stones(s, 2) == {"yellow": 1} and stones(s, 3) == {"yellow": 1}
    assert s.stone_supply == [11, 10, 11, 10]
    assert s.last == (TOWER, COLOURS.index("red"))
    assert sites(s) == {(-2, 0), (-2, 1), (-2, 2), (-1, -1), (-1, 3), (0, -1), (0, 3), (1, -1), (1, 2), (2, 0),
                        (2, 1)}
    assert s.cardinal == cell(2, 0)


def test_7_2_board_diagram():
    text = GAME.render_view(after_turn(5).view(None))
    grid = text.split("```")[1].strip("\n").splitlines()
    assert grid == ["    K  L  M  N  O",
                    "16     .  .",
                    "15  . bH rT  .",
                    "14  . yT gC gC  .",
                    "13  . rH DT DN  ☩",
                    "12     .  .  ."]


@pytest.mark.parametrize(("kind", "cells", "expected"), [
    ("house", [(0, 2)], ["R4", "R6"]),
    ("tower", [(2, 0)], ["R1"]),
    ("courtyard", [(2, 0), (3, 0)], ["R1"]),
    ("tower", [(-2, 0)], ["R5"]),
    ("tower", [(1, 2)], ["R2"]),
    ("tower", [(0, -1)], ["R2", "R4"]),
    ("courtyard", [(-1, -1), (0, -1)], ["R5"]),
])
def test_7_2_illegal_alternatives_at_turn_5(kind, cells, expected):
    s = after_turn(4)
    assert s.last == (HOUSE, COLOURS.index("blue"))
    assert verdict(s, 0, kind, cells, "red") == expected
    before = json.dumps(s.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction):
        build(s, 0, kind, cells, "red")
    assert json.dumps(s.to_json(), sort_keys=True) == before


@pytest.mark.parametrize(("kind", "cells", "expected"), [
    ("courtyard", [(-2, 1), (-2, 2)], ["yellow", "blue"]),
    ("tower", [(-2, 2)], ["blue"]),
    ("tower", [(1, -1)], []),
    ("courtyard", [(1, -1), (1, -2)], []),
])
def test_7_2_legal_alternatives_at_turn_5(kind, cells, expected):
    s = after_turn(4)
    assert verdict(s, 0, kind, cells, "red") == []
    action = build_action(s, kind, cells, "red")
    assert action in s.legal_actions(0)
    assert sorted(gained(s.apply(0, action))) == sorted(expected)


def test_7_2_rule_messages():
    s = after_turn(4)
    with pytest.raises(IllegalAction, match=r"rule 4\).*rule 6\)"):
        build(s, 0, "house", [(0, 2)], "red")
    with pytest.raises(IllegalAction, match="Cardinal"):
        build(s, 0, "tower", [(2, 0)], "red")
    with pytest.raises(IllegalAction, match="same colour"):
        build(s, 0, "tower", [(-2, 0)], "red")
    with pytest.raises(IllegalAction, match="not your colour"):
        build(s, 0, "tower", [(-2, 2)], "yellow")


def test_7_2_cardinal_after_turn_5():
    s = after_turn(5)
    assert s.phase == "cardinal" and s.to_act() == [0]
    for site, message in [(L(0, 2), "already built"), (L(3, 3), "not a building site"),
                          (L(2, 0), "already stands")]:
        with pytest.raises(IllegalAction, match=message):
            s.apply(0, {"type": "move_cardinal", "site": site})
    assert {"type": "move_cardinal", "site": L(2, 0)} not in s.legal_actions(0)
    assert {"type": "end_turn"} in s.legal_actions(0)
    ev = s.apply(0, {"type": "move_cardinal", "site": L(1, 2)})
    assert s.cardinal == cell(1, 2) and ev[0].kind == "cardinal_moved" and s.to_act() == [1]


@pytest.mark.parametrize(("kind", "cells", "expected"), [
    ("tower", [(-2, 2)], ["R6"]),
    ("house", [(1, 2)], []),
    ("courtyard", [(-2, 1), (-2, 2)], ["R5"]),
    ("courtyard", [(1, 2), (2, 2)], ["R3", "R4"]),
])
def test_7_2_turn_6_checks(kind, cells, expected):
    s = after_turn(5)
    s.apply(0, {"type": "end_turn"})
    assert s.to_act() == [1]
    assert verdict(s, 1, kind, cells, "yellow") == expected
    if not expected:
        assert sorted(gained(build(s, 1, kind, cells, "yellow"))) == ["green", "red"]


# ---------------------------------------------------------------- 7.3 rule 6 across a pass
def test_7_3_rule_6_carried_over_a_pass():
    s = after_turn(4)
    # rewind to P4's Cardinal step of turn 4: build it again on a fresh copy
    s = after_turn(3)
    build(s, 3, "house", [(-1, 2)], "blue")
    s.supply[COLOURS.index("red")] = [1, 0, 0]  # P1 holds only a red house
    events = s.apply(3, {"type": "end_turn"})
    assert [e.kind for e in events] == ["cardinal_stays", "passed"] and events[1].data["seat"] == 0
    assert not s.can_build(0) and s.to_act() == [1]
    assert verdict(s, 1, "house", [(0, 2)], "yellow") == ["R4", "R6"]
    assert gained(build(s, 1, "tower", [(-2, 2)], "yellow")) == ["blue"]


def test_e6_passing_player_cannot_move_the_cardinal():
    s = after_turn(3)
    build(s, 3, "house", [(-1, 2)], "blue")
    s.supply[0] = [1, 0, 0]
    s.apply(3, {"type": "end_turn"})
    for action in ({"type": "move_cardinal", "site": L(1, 2)}, {"type": "end_turn"}):
        with pytest.raises(IllegalAction, match="not your turn"):
            s.apply(0, action)
    with pytest.raises(IllegalAction, match="Build first"):
        s.apply(1, {"type": "move_cardinal", "site": L(1, 2)})


# ---------------------------------------------------------------- 7.4 the end through rule 7
def test_7_4_game_end_through_rule_7():
    s = opening_4p()
    s.place_piece(COURT, 0, (cell(0, 1), cell(1, 1)), 0)
    s.builds, s.cardinal, s.last, s.phase = 1, cell(2, 0), (COURT, 0), "cardinal"
    s.supply = [[0, 1, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]
    assert verdict(s, 0, "tower", [(1, -1)], "red") == ["R7"]
    events = s.apply(0, {"type": "end_turn"})
    assert s.is_over() and s.to_act() == [] and events[-1].kind == "game_over"
    assert s.supply[0][TOWER] == 1
    assert s.legal_actions(0) == []


# ---------------------------------------------------------------- 7.5 three players
def test_7_5_shared_colour():
    s = table(3, ["red", "yellow", "green"], start=0, shared="blue")
    assert build_action(s, "house", [(-1, 0)], "blue") in s.legal_actions(0)
    build(s, 0, "house", [(-1, 0)], "blue")
    s.apply(0, {"type": "bonus_stone", "color": "red"})
    s.apply(0, {"type": "place_cardinal", "site": L(2, 0)})
    assert verdict(s, 1, "tower", [(-1, 1)], "blue") == ["R5", "R7"]
    assert gained(build(s, 1, "tower", [(-1, 1)], "yellow")) == ["blue"]
    assert stones(s, 1) == {"blue": 1} and s.scores()[1] == 12 * 2  # the blue stone is worth nothing
    s.apply(1, {"type": "end_turn"})
    assert gained(build(s, 2, "house", [(0, 1)], "blue")) == ["yellow"]
    assert s.supply[COLOURS.index("blue")] == [0, 2, 2]


def test_3p_setup_and_shared_supply_for_everyone():
    s = GAME.new_game(3, seed=9)
    assert s.shared is not None and sorted(c for cs in s.colours for c in cs) + [s.shared] == sorted(range(4))
    for p in range(3):
        assert s.usable[p] == (s.colours[p][0], s.shared)
    view = s.view(None)
    assert view["shared"] == COLOURS[s.shared]
    assert "Shared" in GAME.render_view(view)


def test_3p_shared_buildings_count_for_nobody_at_the_dom():
    s = table(3, ["red", "yellow", "green"], shared="blue")
    s.place_piece(HOUSE, 3, (cell(-1, 0),), 0)
    s.place_piece(TOWER, 0, (cell(2, 0),), 0)
    assert s.dom_touches() == [1, 0, 0]


# ---------------------------------------------------------------- 7.6 two players
def test_7_6_two_players():
    s = table(2, [["red", "blue"], ["green", "yellow"]], start=0)
    build(s, 0, "house", [(-1, 0)], "red")
    s.apply(0, {"type": "bonus_stone", "color": "green"})
    s.apply(0, {"type": "place_cardinal", "site": L(2, 0)})
    assert gained(build(s, 1, "tower", [(-1, 1)], "green")) == ["red"]
    s.apply(1, {"type": "end_turn"})
    assert verdict(s, 0, "courtyard", [(-2, 0), (-3, 0)], "red") == ["R5"]
    assert gained(build(s, 0, "courtyard", [(-2, 0), (-3, 0)], "blue")) == ["red"]
    assert stones(s, 0) == {"red": 1, "green": 1}
    # B passes (hypothetically): A may build neither a courtyard (R6) nor blue (R7)
    s.current, s.phase = 0, "build"
    options = s.placements(0)
    assert options and {(k, c) for _, k, c, _ in options} == {(HOUSE, 0), (TOWER, 0)}


def test_2p_setup_two_colours_each():
    s = GAME.new_game(2, seed=4)
    assert len(s.colours[0]) == len(s.colours[1]) == 2 and s.shared is None
    assert sorted(s.colours[0] + s.colours[1]) == [0, 1, 2, 3]
    assert s.scores() == [36.0, 36.0]  # 2 × 12 own leftovers, one colour doubled: 24 + 12


# ---------------------------------------------------------------- 7.7 scoring
def test_7_7_scoring_4p():
    s = opening_4p()
    s.stones[0] = [0, 5, 4, 3]
    s.stone_supply[0] = 7
    assert s.final_colours(0) == [7, 5, 4, 3] and s.final_scores()[0] == 26


def test_7_7_scoring_3p():
    s = table(3, ["red", "yellow", "green"], shared="blue")
    s.stones[0] = [0, 4, 3, 5]
    s.stone_supply[0] = 8
    assert s.final_colours(0) == [8, 4, 3, 0] and s.final_scores()[0] == 23


def test_7_7_scoring_2p():
    s = table(2, [["red", "blue"], ["green", "yellow"]])
    s.stones[0] = [1, 6, 5, 2]
    s.stone_supply[0], s.stone_supply[3] = 9, 7
    assert s.final_colours(0) == [10, 6, 5, 9] and s.final_scores()[0] == 40


def test_7_7_scoring_nothing():
    s = opening_4p()
    s.stone_supply = [0, 0, 0, 0]
    assert s.final_scores() == [0, 0, 0, 0]


# ---------------------------------------------------------------- 7.8 tie-break
def tie_table(p3_two: bool) -> KardinalState:
    s = opening_4p()
    s.stone_supply = [0, 0, 0, 0]
    s.stones = [[0, 11, 9, 0], [5, 0, 0, 0], [11, 0, 0, 9], [0, 3, 0, 0]]
    s.place_piece(HOUSE, 0, (cell(-1, 0),), 0)
    s.place_piece(TOWER, 0, (cell(2, 0),), 0)
    s.place_piece(HOUSE, 2, (cell(0, -1),), 2)
    if p3_two:
        s.place_piece(TOWER, 2, (cell(1, 1),), 2)
    s.phase = "over"
    return s


def test_7_8_tie_break_by_buildings_at_the_dom():
    s = tie_table(False)
    assert s.final_scores()[0] == s.final_scores()[2] == 31
    assert s.dom_touches() == [2, 0, 1, 0]
    assert s.ranking()[0] == 1 and s.ranking()[2] == 2
    s = tie_table(True)
    assert s.ranking()[0] == s.ranking()[2] == 1
    text = GAME.render_view(s.view(None))
    assert "{P1} and {P3} win!" in text


# ---------------------------------------------------------------- 7.9 derived cases
def test_e1_exhausted_supply_gives_nothing():
    s = opening_4p()
    s.place_piece(HOUSE, 1, (cell(-1, 0),), 1)
    s.place_piece(HOUSE, 2, (cell(0, 1),), 2)
    s.builds, s.cardinal, s.last = 2, cell(2, 0), (HOUSE, 2)
    s.stone_supply[1] = 0
    assert gained(build(s, 0, "tower", [(-1, 1)], "red")) == ["green"]
    assert stones(s, 0) == {"green": 1}


def test_e2_parallel_courtyard_at_the_dom():
    s = opening_4p()
    action = build_action(s, "courtyard", [(0, 1), (1, 1)], "red")
    assert action in s.legal_actions(0)
    assert s._touching((cell(0, 1), cell(1, 1))) == [0, 1]  # church tower and nave
    assert gained(s.apply(0, action)) == []


def test_e3_diagonal_contact():
    s = opening_4p()
    assert verdict(s, 0, "house", [(2, 1)], "red") == ["P4"]
    with pytest.raises(IllegalAction, match="not a building site"):
        build(s, 0, "house", [(2, 1)], "red")
    # a house diagonal to another house is fine (also turn 5 of E10)
    s.place_piece(HOUSE, 1, (cell(-1, 0),), 1)
    s.builds, s.last, s.cardinal = 1, (TOWER, 1), cell(2, 0)
    assert verdict(s, 0, "house", [(0, 1)], "red") == []


def test_e4_cardinal_blocks_courtyards():
    s = after_turn(5)
    s.apply(0, {"type": "end_turn"})
    for cells in ([(2, 0), (3, 0)], [(2, -1), (2, 0)]):
        assert verdict(s, 1, "courtyard", cells, "yellow") == ["R1"]
    s.cardinal = cell(1, 2)
    legal = s.legal_actions(1)
    for cells in ([(2, 0), (3, 0)], [(2, -1), (2, 0)]):
        assert verdict(s, 1, "courtyard", cells, "yellow") == []
        assert build_action(s, "courtyard", cells, "yellow") in legal
    assert {"type": "build", "site": "O13", "building": "yellow courtyard P13"} in legal
    assert {"type": "build", "site": "O13", "building": "yellow courtyard O12"} in legal


def test_e5_no_voluntary_pass():
    s = opening_4p()
    with pytest.raises(IllegalAction, match="may not pass"):
        s.apply(0, {"type": "pass_turn"})
    assert GAME.parse_action(s, 0, "pass") == {"type": "pass_turn"}
    assert all(a["type"] == "build" for a in s.legal_actions(0))


def test_e7_first_building_ignores_rules_6_and_7():
    for kind, cells in [("house", [(-1, 0)]), ("tower", [(2, 0)]), ("courtyard", [(0, 1), (1, 1)])]:
        s = opening_4p()
        s.apply(0, build_action(s, kind, cells, "red"))
        assert s.phase == "bonus"


def test_e8_exhausted_player_is_skipped_every_time():
    s = after_turn(1)  # P2 to build
    s.supply[1] = [0, 0, 0]
    s2 = s.clone()
    assert s.to_act() == [1]
    # P2 cannot act on later turns: run a few turns of P3, P4, P1
    s.current = 0
    s.phase = "cardinal"
    events = s.apply(0, {"type": "end_turn"})
    assert [e.kind for e in events] == ["cardinal_stays", "skipped"] and events[1].data["seat"] == 1
    assert s.to_act() == [2] and not s.is_over()
    build(s, 2, "courtyard", [(0, 1), (1, 1)], "green")
    s.apply(2, {"type": "end_turn"})
    build(s, 3, "tower", [(-1, 1)], "blue")
    s.apply(3, {"type": "end_turn"})
    assert s.to_act() == [0]
    build(s, 0, "house", [(0, -1)], "red")
    events = s.apply(0, {"type": "end_turn"})
    assert [e.kind for e in events][-1] == "skipped" and s.to_act() == [2]
    assert s2.to_act() == [1]


def test_e9_all_opening_placements():
    s = opening_4p()
    found = {(k, frozenset(xy(c) for c in ((site,) if t is None else (site, t)))) for site, k, _, t in
             s.placements(0)}
    houses = {next(iter(c)) for k, c in found if k == HOUSE}
    towers = {next(iter(c)) for k, c in found if k == TOWER}
    courts = {c for k, c in found if k == COURT}
    assert houses == {(-1, 0), (0, 1), (0, -1)}
    assert towers == {(2, 0), (1, 1), (1, -1)}
    assert courts == {frozenset(p) for p in [
        [(0, -1), (1, -1)], [(0, 1), (1, 1)], [(1, -2), (1, -1)], [(1, -1), (2, -1)], [(1, 1), (1, 2)],
        [(1, 1), (2, 1)], [(2, -1), (2, 0)], [(2, 0), (2, 1)], [(2, 0), (3, 0)]]}
    assert verdict(s, 0, "house", [(2, 0)], "red") == ["R4"]
    assert verdict(s, 0, "tower", [(-1, 0)], "red") == ["R2", "R4"]
    assert verdict(s, 0, "courtyard", [(-1, 0), (-2, 0)], "red") == ["R3"]
    assert verdict(s, 0, "house", [(2, 1)], "red") == ["P4"]


def test_e10_two_stones_of_one_colour():
    s = opening_4p()
    build(s, 0, "house", [(0, 1)], "red")
    s.apply(0, {"type": "bonus_stone", "color": "green"})
    s.apply(0, {"type": "place_cardinal", "site": L(2, 0)})
    turns = [(1, "courtyard", [(0, 2), (1, 2)], "yellow", ["red"]),
             (2, "house", [(0, -1)], "green", []),
             (3, "courtyard", [(-1, -2), (0, -2)], "blue", ["green"]),
             (0, "house", [(-1, 0)], "red", []),
             (1, "courtyard", [(-2, 1), (-1, 1)], "yellow", ["red", "red"])]
    for seat, kind, cells, colour, expected in turns:
        assert s.to_act() == [seat]
        assert gained(build(s, seat, kind, cells, colour)) == expected
        s.apply(seat, {"type": "end_turn"})
    assert stones(s, 1) == {"red": 2 + 1}


# ---------------------------------------------------------------- coordinates and notation
def test_labels_round_trip_far_out():
    for x in range(-60, 61):
        for y in (-20, -13, 0, 13, 40):
            assert parse_label(label(cell(x, y))) == cell(x, y)
    assert L(0, 0) == "M13" and L(1, 0) == "N13" and L(-12, 0) == "A13" and L(13, 0) == "Z13"
    assert col_label(14) == "ZA" and col_label(-13) == "AZ"
    assert parse_label("zz99") is not None and parse_label("QZ3") is None and parse_label(None) is None


@pytest.mark.parametrize(("text", "expected"), [
    ("L13 red house", {"type": "build", "site": "L13", "building": "red house"}),
    ("l13 rh", {"type": "build", "site": "L13", "building": "red house"}),
    ("build house L13", {"type": "build", "site": "L13", "building": "red house"}),  # one colour: implied
    ("M14 red courtyard N14", {"type": "build", "site": "M14", "building": "red courtyard N14"}),
    ("m14 rc east", {"type": "build", "site": "M14", "building": "red courtyard N14"}),
    ("m14-n14 red", {"type": "build", "site": "M14", "building": "red courtyard N14"}),
    ("N11 N12 red courtyard", {"type": "build", "site": "N12", "building": "red courtyard N11"}),
])
def test_parse_builds(text, expected):
    s = opening_4p()
    assert GAME.parse_action(s, 0, text) == expected
    assert expected in s.legal_actions(0)


def test_parse_other_actions():
    s = opening_4p()
    build(s, 0, "house", [(-1, 0)], "red")
    assert GAME.parse_action(s, 0, "bonus blue") == {"type": "bonus_stone", "color": "blue"}
    assert GAME.parse_action(s, 0, "b") == {"type": "bonus_stone", "color": "blue"}
    s.apply(0, {"type": "bonus_stone", "color": "blue"})
    assert GAME.parse_action(s, 0, "cardinal O13") == {"type": "place_cardinal", "site": "O13"}
    assert GAME.parse_action(s, 0, "o13") == {"type": "place_cardinal", "site": "O13"}
    s.apply(0, {"type": "place_cardinal", "site": "O13"})
    build(s, 1, "tower", [(-1, 1)], "yellow")
    assert GAME.parse_action(s, 1, "K N14") == {"type": "move_cardinal", "site": "N14"}
    assert GAME.parse_action(s, 1, "stay") == {"type": "end_turn"}


def test_notation_round_trip_over_a_game():
    s = GAME.new_game(3, seed=21)
    rng = random.Random(3)
    while not s.is_over():
        seat = s.to_act()[0]
        actions = s.legal_actions(seat)
        for a in actions:
            text = GAME.format_action(a)
            assert GAME.parse_action(s, seat, text) == a
            assert GAME.parse_action(s, seat, text.upper()) == a
            assert GAME.describe_action(a)
        s.apply(seat, rng.choice(actions))


@pytest.mark.parametrize(("text", "message"), [
    ("", "Build like"),
    ("hello", "understand"),
    ("red house", "site"),
    ("L13 red", "Which building"),
    ("L13 tower red blue", "understand"),
    ("L13 red courtyard", "two cells"),
    ("L13 M14 N15 red courtyard", "one cell"),
    ("L13 M12 red house", "one cell"),
    ("bonus", "colour"),
    ("cardinal", "building site"),
])
def test_parse_errors(text, message):
    s = opening_4p()
    with pytest.raises(IllegalAction, match=message):
        GAME.parse_action(s, 0, text)


def test_colour_required_when_several():
    s = table(3, ["red", "yellow", "green"], shared="blue")
    with pytest.raises(IllegalAction, match="Which colour"):
        GAME.parse_action(s, 0, "L13 house")


def test_malformed_actions_rejected():
    s = opening_4p()
    for action in [{"type": "build", "site": "L13", "building": "red castle"},
                   {"type": "build", "site": "L13", "building": "red courtyard"},
                   {"type": "build", "site": "L13", "building": "red house M14"},
                   {"type": "build", "site": "L13", "building": "red courtyard N14"},
                   {"type": "build", "site": "M13", "building": "red house"},
                   {"type": "build", "site": "L13"},
                   {"type": "bonus_stone", "color": "red"}]:
        with pytest.raises(IllegalAction):
            s.apply(0, action)


# ---------------------------------------------------------------- picker, views, persistence, options
def test_picker_steps_stay_small():
    """Per site the picker offers at most 8 buildings; the type is the first key, then site, then building."""
    for n in (2, 3, 4):
        for seed in range(6):
            s = GAME.new_game(n, seed=seed)
            rng = random.Random(seed)
            while not s.is_over():
                seat = s.to_act()[0]
                actions = s.legal_actions(seat)
                if s.phase == "build":
                    assert all(list(a) == ["type", "site", "building"] for a in actions)
                    per_site: dict = {}
                    for a in actions:
                        per_site.setdefault(a["site"], []).append(a["building"])
                    assert max(len(v) for v in per_site.values()) <= 8
                s.apply(seat, rng.choice(actions))


def test_views_public_and_identical():
    s = after_turn(5)
    public = s.view(None)
    for p in range(4):
        v = s.view(p)
        assert {**v, "viewer": None} == public
    assert not GAME.has_hidden_information
    world = s.determinize(2, random.Random(1))
    assert json.dumps(world.to_json()) == json.dumps(s.to_json())
    text = GAME.render_view(public)
    assert "{P1}" in text and "Cardinal: O13" in text and "not a tower, not red" in text


def test_a_players_own_view_does_not_repeat_the_board():
    """Kardinal hides nothing: a player's view is their colours, stones, what the last building forbids, the
    Cardinal and (at their turn) the choice; the town is the table's board."""
    s = after_turn(5)
    me = s.current
    text = GAME.render_view(s.view(me))
    assert "DT/DN" not in text and "DT" not in text and "Stone supply" not in text
    assert "not a tower, not red" in text and "Cardinal: O13" in text and "/board" in text
    assert "may move the Cardinal to another site" in text and len(text.splitlines()) <= 6
    other = GAME.render_view(s.view((me + 1) % 4))
    assert "Possible sites" not in other and f"{{P{me + 1}}} to play" in other
    over = s.clone()
    while not over.is_over():
        seat = over.to_act()[0]
        over.apply(seat, over.legal_actions(seat)[0])
    text = GAME.render_view(over.view(0))
    assert text.startswith("Kardinal · game over · 🏆") and len(text.splitlines()) == 1


def test_json_round_trip_and_determinism():
    s = after_turn(5)
    data = json.loads(json.dumps(s.to_json()))
    t = GAME.from_json(data)
    assert t.to_json() == s.to_json() and t.legal_actions(0) == s.legal_actions(0)
    a = GAME.new_game(4, seed=77)
    b = GAME.new_game(4, seed=77)
    assert a.to_json() == b.to_json()


def test_options_and_player_counts():
    assert GAME.default_options() == {}
    with pytest.raises(IllegalAction, match="no options"):
        GAME.new_game(4, seed=1, options={"board": 3})
    for n in (1, 5):
        with pytest.raises(IllegalAction, match="2 to 4"):
            GAME.new_game(n, seed=1)
    assert [n for n, _ in GAME.configurations()] == [2, 3, 4]


def test_evaluate_actions_match_apply():
    s = after_turn(4)
    for st in (s, after_turn(5)):
        seat = st.to_act()[0]
        actions = st.legal_actions(seat)
        for a, v in zip(actions, st.evaluate_actions(seat, actions)):
            trial = st.clone()
            trial.apply(seat, a)
            assert v == trial.evaluate(seat)


def test_event_narration():
    s = after_turn(4)
    events = build(s, 0, "tower", [(0, 2)], "red")
    line = GAME.describe_event(events[0])
    assert line.startswith("{P1} builds a 🟥 red tower at M15")


# ---------------------------------------------------------------- replies to wrong moves, the final account
def test_pass_is_refused_with_the_reason_of_the_phase():
    """3.2/A7: ``pass_turn`` is never the player's; after building the turn ends with ``stay`` (end_turn)."""
    s = opening_4p()
    with pytest.raises(IllegalAction, match="may not pass"):
        s.apply(0, {"type": "pass_turn"})
    build(s, 0, "house", [(-1, 0)], "red")
    with pytest.raises(IllegalAction, match="bonus blue"):
        s.apply(0, {"type": "pass_turn"})
    s.apply(0, {"type": "bonus_stone", "color": "blue"})
    with pytest.raises(IllegalAction, match=r"`cardinal [A-Z]+\d+`"):
        s.apply(0, {"type": "pass_turn"})
    s = after_turn(5)
    with pytest.raises(IllegalAction, match=r"already built.*`stay`") as err:
        s.apply(0, GAME.parse_action(s, 0, "pass"))
    assert "you can build" not in str(err.value)


@pytest.mark.parametrize(("text", "message"), [
    ("Q20 yellow tower", r"Q20 is not a building site.*e\.g\. `"),
    ("M15 yellow house", r"M15 is already built on.*e\.g\. `"),
    ("N15 yellow tower", r"rule 2.*rule 4.*rule 6.*e\.g\. `"),
    ("L16 red house", r"not your colour.*e\.g\. `"),
])
def test_wrong_builds_get_an_example(text, message):
    s = after_turn(5)
    s.apply(0, {"type": "end_turn"})
    with pytest.raises(IllegalAction, match=message):
        s.apply(1, GAME.parse_action(s, 1, text))


def test_courtyard_named_from_its_outer_cell_gets_the_right_spelling():
    """A5: only one cell of a courtyard touches the town; the action names that one as the site."""
    s = after_turn(4)
    wrong = {"type": "build", "site": L(1, -2), "building": "red courtyard " + L(1, -1)}
    right = {"type": "build", "site": L(1, -1), "building": "red courtyard " + L(1, -2)}
    assert right in s.legal_actions(0) and wrong not in s.legal_actions(0)
    with pytest.raises(IllegalAction, match=f"`{L(1, -1)} red courtyard {L(1, -2)}`"):
        s.apply(0, wrong)


def test_move_word_before_a_build_is_understood():
    s = opening_4p()
    assert GAME.parse_action(s, 0, "move L13 red house") == {"type": "build", "site": "L13", "building": "red house"}
    assert GAME.parse_action(s, 0, "move cardinal N14") == {"type": "move_cardinal", "site": "N14"}


def test_final_account_shows_leftovers_and_the_doubled_colour():
    """5.2 and 6: the leftovers taken from the supply and the doubled colour are public (7.7, 4 players)."""
    s = opening_4p()
    s.place_piece(COURT, 0, (cell(0, 1), cell(1, 1)), 0)
    s.builds, s.cardinal, s.last, s.phase = 1, cell(2, 0), (COURT, 0), "cardinal"
    s.supply = [[0, 1, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]
    s.stones[0] = [0, 5, 4, 3]
    s.stone_supply = [7, 7, 8, 9]
    over = s.apply(0, {"type": "end_turn"})[-1]
    assert over.kind == "game_over" and over.data["scores"][0] == 26
    assert over.data["final"][0] == {"red": 7, "yellow": 5, "green": 4, "blue": 3}
    assert over.data["doubled"][0] == "red" and over.data["leftover"][0] == {"red": 7}
    line = "{P1} 26 = 🟥7×2 🟨5 🟩4 🟦3 (🟥7 from the supply) · Dom 1"
    assert line in GAME.describe_event(over)
    assert line in GAME.render_view(s.view(None))


def test_final_account_in_render_matches_the_engine():
    for n in (2, 3, 4):
        s = GAME.new_game(n, seed=n)
        rng = random.Random(n)
        while not s.is_over():
            seat = s.to_act()[0]
            events = s.apply(seat, rng.choice(s.legal_actions(seat)))
        text = GAME.render_view(s.view(None))
        for line in GAME.describe_event(events[-1]).split("\n")[1:]:
            assert line in text
        for p in range(n):
            fin = s.final_colours(p)
            assert events[-1].data["final"][p] == {COLOURS[c]: k for c, k in enumerate(fin) if k}


def test_grid_legend_names_who_can_build_on_plus():
    s = opening_4p()
    assert "+ {P1} can build here" in GAME.render_view(s.view(None))
    text = GAME.render_view(after_turn(5).view(None))
    assert "+ " not in text.split("```")[2].splitlines()[1]


def test_cardinal_examples_name_a_free_site():
    s = after_turn(5)
    with pytest.raises(IllegalAction) as err:
        s.apply(0, {"type": "bonus_stone", "color": "red"})
    example = str(err.value).split("`cardinal ")[1].split("`")[0]
    assert parse_label(example) in s.sites and parse_label(example) != s.cardinal
    s = after_turn(4)
    with pytest.raises(IllegalAction, match="not a building site"):
        s.apply(0, {"type": "build", "site": L(1, -3), "building": "red courtyard " + L(1, -1)})


def test_summary_lets_only_the_builder_move_the_cardinal():
    """4.5: only the player who has just built may move the Cardinal (optional, A21)."""
    text = " ".join(GAME.rules_summary().split())
    assert "anyone may move" not in text and "After you have built you may move the Cardinal" in text
