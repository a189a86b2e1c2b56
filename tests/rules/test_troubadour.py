"""Troubadour: the worked examples TC-T01–TC-T04 and derived cases TC-T05–TC-T14 of the rules file, the 3–4 player
rules, notation, views and hidden information, options."""
from __future__ import annotations

import json
import random

import pytest

import rules
from rules.api import IllegalAction
from rules.troubadour.cards import FD, NOBLE_INDEX, card_of, name
from rules.troubadour.flips import HEARTS_QK, STANDARD, UNUSED
from rules.troubadour.state import TroubadourState

GAME = rules.get_game("troubadour")
A, B, C, D = 0, 1, 2, 3


# ---------------------------------------------------------------- helpers
def trio(text: str) -> int:
    return sum(1 << NOBLE_INDEX[x] for x in text.split())


def nobles(text: str) -> list[str]:
    return sorted(text.split(), key=NOBLE_INDEX.get)


def table(trios: list[str], active: int = 0, order: list[int] | None = None) -> TroubadourState:
    """A state in the turn phase of ``active`` with the given (revealed) trios and empty piles everywhere."""
    n = len(trios)
    s = TroubadourState(n, seed=7)
    s.trios = [trio(t) for t in trios]
    s.phase = "turn"
    s.order = order if order is not None else list(range(n))
    s.turn_idx = s.order.index(active)
    return s


def cards(text: str) -> list[int]:
    """``9S 8H`` → card ints; a trailing ``*`` marks a face-down card."""
    out = []
    for t in text.split():
        c = card_of(t.rstrip("*"))
        assert c is not None, t
        out.append(c | (FD if t.endswith("*") else 0))
    return out


def put(s: TroubadourState, p: int, stock: str | None = None, waste: str | None = None,
        villages: list[str] | None = None, castles: str | None = None) -> None:
    """``stock`` top→bottom and ``waste`` bottom→top as in the rules file; ``castles`` like ``H7 D3`` (top ranks)."""
    if stock is not None:
        s.stock[p] = cards(stock)[::-1]
    if waste is not None:
        s.waste[p] = cards(waste)
    if villages is not None:
        s.villages[p] = [cards(v) for v in villages] + [[] for _ in range(5 - len(villages))]
    if castles is not None:
        s.castles[p] = [0, 0, 0, 0]
        for t in castles.split():
            s.castles[p]["SHDC".index(t[0])] = int(t[1:])
    s._prog[p] = None


def stock(s: TroubadourState, p: int) -> str:
    """Top→bottom, as in the rules file."""
    return " ".join(name(c) for c in reversed(s.stock[p]))


def waste(s: TroubadourState, p: int) -> str:
    return " ".join(name(c) for c in s.waste[p])


def village(s: TroubadourState, p: int, v: int) -> str:
    return " ".join(name(c & ~FD) + ("*" if c & FD else "") for c in s.villages[p][v - 1])


def flipped(events) -> list[str]:
    return [c for e in events if e.kind == "flipped" for c in e.data["cards"]]


def act(s: TroubadourState, seat: int, text: str):
    return s.apply(seat, GAME.parse_action(s, seat, text))


def rejected(s: TroubadourState, seat: int, action: dict, words: str = "") -> str:
    before = json.dumps(s.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as e:
        s.apply(seat, action)
    assert json.dumps(s.to_json(), sort_keys=True) == before
    assert words.lower() in str(e.value).lower()
    return str(e.value)


def choose(s: TroubadourState, seat: int, text: str):
    return s.apply(seat, {"type": "choose_trio", "nobles": nobles(text)})


BUSY = ["10H", "9S"]  # two villages that keep a player busy (9S can always move onto 10H)


# ---------------------------------------------------------------- set-up
@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup(n):
    s = GAME.new_game(n, seed=3)
    assert s.phase == "select_trios" and s.round_no == 1 and s.to_act() == list(range(n))
    for p in range(n):
        assert len(s.stock[p]) == 25 and s.waste[p] == [] and s.castles[p] == [0, 0, 0, 0]
        for v in s.villages[p]:
            assert len(v) == 3 and v[0] & FD and v[1] & FD and not v[2] & FD
        every = s.stock[p] + [c & ~FD for v in s.villages[p] for c in v]
        assert sorted(every) == list(range(40))
    assert len(s.legal_actions(0)) == 220


def test_options_are_checked():
    with pytest.raises(IllegalAction):
        GAME.new_game(5, seed=1)
    with pytest.raises(IllegalAction, match="trio_tiebreak"):
        GAME.new_game(2, seed=1, options={"trio_tiebreak": "coin"})
    with pytest.raises(IllegalAction, match="max_rounds"):
        GAME.new_game(2, seed=1, options={"max_rounds": -1})
    with pytest.raises(IllegalAction, match="not colour"):
        GAME.new_game(2, seed=1, options={"colour": 1})
    s = GAME.new_game(2, seed=1, options={"trio_tiebreak": "die", "max_rounds": 30})
    assert s.tiebreak == "die" and s.max_rounds == 30


# ---------------------------------------------------------------- 8.1 turn order (source)
def order_after(trios: list[str]) -> list[int]:
    s = GAME.new_game(len(trios), seed=2)
    for p, t in enumerate(trios):
        choose(s, p, t)
    assert s.phase == "turn"
    return s.order


def test_tc_t01_lowest_noble_decides():
    assert order_after(["JS JC QC", "QS JD QD"]) == [A, B]


def test_tc_t02_second_noble_decides():
    assert order_after(["QS JC KC", "QS QD QH"]) == [B, A]


def test_tc_t03_third_noble_decides():
    assert order_after(["JD QD QH", "JD QD KC"]) == [B, A]


def rps_table() -> TroubadourState:
    s = GAME.new_game(2, seed=4)
    choose(s, A, "JS QS KS")
    choose(s, B, "JS QS KS")
    assert s.phase == "tiebreak" and s.to_act() == [A, B]
    return s


@pytest.mark.parametrize(("a", "b", "order"), [("QH", "JC", [B, A]), ("KD", "JH", [A, B])])
def test_tc_t04_rock_paper_scissors(a, b, order):
    s = rps_table()
    s.apply(A, {"type": "choose_tiebreak_noble", "noble": a})
    assert s.to_act() == [B] and s.view(B).get("my_tiebreak") is None and s.view(A)["my_tiebreak"] == a
    s.apply(B, {"type": "choose_tiebreak_noble", "noble": b})
    assert s.phase == "turn" and s.order == order and s.to_act() == [order[0]]


def test_tc_t04_same_face_repeats_then_the_die():
    s = rps_table()
    rejected(s, A, {"type": "choose_tiebreak_noble", "noble": "JS"}, "in your trio")
    for game in range(1, 5):
        s.apply(A, {"type": "choose_tiebreak_noble", "noble": "QC"})
        events = s.apply(B, {"type": "choose_tiebreak_noble", "noble": "QD"})
        assert [e.data["first"] for e in events if e.kind == "rps_revealed"] == [None]
        if game < 4:
            assert s.phase == "tiebreak" and s.to_act() == [A, B]
    assert s.phase == "turn" and any(e.kind == "die_rolled" for e in events)
    rolls = [e.data for e in events if e.kind == "die_rolled"][-1]  # the last roll was not a tie
    assert rolls["seats"] == [A, B] and rolls["rolls"][0] != rolls["rolls"][1]
    assert s.order == sorted([A, B], key=lambda seat: rolls["rolls"][rolls["seats"].index(seat)])  # 4.10: lowest first


def test_die_variant_and_groups_of_three():
    s = GAME.new_game(3, seed=9, options={"trio_tiebreak": "die"})
    for p in range(3):
        events = choose(s, p, "JC QC JH")
    assert s.phase == "turn" and sorted(s.order) == [0, 1, 2]
    rolls = [e.data for e in events if e.kind == "die_rolled"]
    first = rolls[0]
    low = min(first["rolls"])
    lowest = [x for x, r in zip(first["seats"], first["rolls"]) if r == low]
    assert s.order[0] in lowest
    # rps: three identical trios use the die as well, a pair plays rock-paper-scissors
    s = GAME.new_game(4, seed=9)
    for p, t in enumerate(["JC QC JH", "JC QC JH", "JC QC JH", "JS QS KS"]):
        choose(s, p, t)
    assert s.phase == "turn" and s.order[0] == 3 and sorted(s.order[1:]) == [0, 1, 2]
    s = GAME.new_game(4, seed=9)
    for p, t in enumerate(["JC QC JH", "JS QS KS", "JC QC JH", "JS QS KS"]):
        choose(s, p, t)
    assert s.phase == "tiebreak" and s.to_act() == [0, 1, 2, 3]
    for p, x in [(1, "QH"), (3, "JC"), (0, "KS"), (2, "QS")]:
        s.apply(p, {"type": "choose_tiebreak_noble", "noble": x})
    assert s.order == [3, 1, 2, 0]


# ---------------------------------------------------------------- secret trios
def test_trio_is_secret_until_everyone_has_chosen():
    s = GAME.new_game(3, seed=5)
    events = choose(s, 1, "KS KD KH")
    assert [e.audience for e in events] == [None, (1,)]
    assert s.to_act() == [0, 2]
    assert s.view(1)["my_trio"] == ["KS", "KD", "KH"] and "K♠ K♦ K♥" in GAME.render_view(s.view(1))
    for viewer in (None, 0, 2):
        v = s.view(viewer)
        assert "my_trio" not in v and v["trios"] == [None, None, None] and v["trio_chosen"] == [False, True, False]
        assert "K♠ K♦ K♥" not in GAME.render_view(v) and "KS KD KH" not in json.dumps(v)
    rejected(s, 1, {"type": "choose_trio", "nobles": ["JS", "QS", "KS"]}, "already chosen")
    rejected(s, 0, {"type": "choose_trio", "nobles": ["QS", "JS", "KS"]}, "noble order")
    rejected(s, 0, {"type": "choose_trio", "nobles": ["JS", "JS", "KS"]}, "different")
    rejected(s, 0, {"type": "flip"}, "three nobles")
    world = s.determinize(0, random.Random(1))
    assert world.view(0) == s.view(0)
    choose(s, 0, "JS QS KS")
    events = choose(s, 2, "JD QD KD")
    reveal = [e for e in events if e.kind == "trios_revealed"][0]
    assert reveal.audience is None and reveal.data["trios"][1] == ["KS", "KD", "KH"]
    assert s.view(None)["trios"] == [["JS", "QS", "KS"], ["KS", "KD", "KH"], ["JD", "QD", "KD"]]
    assert s.order == [0, 1, 2]


# ---------------------------------------------------------------- 8.2 derived cases
def test_tc_t05_recycle_at_the_standard_flip():
    s = table(["JD QD KD", "JD QD KD"])
    put(s, A, stock="", waste="4C 8H 2S", villages=BUSY)
    events = s.apply(A, {"type": "standard_flip", "club_jack": False})
    assert [e.kind for e in events] == ["recycled", "flipped"]
    assert waste(s, A) == "4C" and stock(s, A) == "8H 2S" and s.flip_slot == STANDARD
    s = table(["JD QD KD", "JD QD QC"])
    put(s, A, stock="", waste="", villages=BUSY)
    rejected(s, A, {"type": "standard_flip", "club_jack": False}, "nothing to flip")
    rejected(s, A, {"type": "extra_flip"}, "after the standard flip")


def test_tc_t06a_club_jack_first_card_fits_an_empty_village():
    s = table(["JC JD QD", "JD QD KD"])
    put(s, A, stock="7C 9D 4S", villages=["10H", "9S", "", "5C", "6D"])
    events = s.apply(A, {"type": "standard_flip", "club_jack": True})
    assert flipped(events) == ["7C"] and waste(s, A) == "7C" and s.used >> NOBLE_INDEX["JC"] & 1


def jc_table(stock_text: str) -> TroubadourState:
    s = table(["JC JD QD", "JD QD KD"])
    put(s, A, stock=stock_text, waste="3H 6D", villages=["10H", "10D", "9S", "8C", "5S"], castles="D3")
    return s


def test_tc_t06b_club_jack_stops_after_every_card_was_seen():
    s = jc_table("5H 9H")
    events = s.apply(A, {"type": "standard_flip", "club_jack": True})
    assert [e.kind for e in events] == ["noble_used", "flipped", "recycled", "flipped"]
    assert flipped(events) == ["5H", "9H", "3H", "6D"]
    assert stock(s, A) == "5H 9H" and waste(s, A) == "3H 6D" and s.flip_slot == STANDARD


def test_tc_t06c_club_jack_stops_at_an_ace():
    s = jc_table("5H AC")
    events = s.apply(A, {"type": "standard_flip", "club_jack": True})
    assert flipped(events) == ["5H", "AC"] and waste(s, A) == "3H 6D 5H AC"


def qk_table() -> TroubadourState:
    s = table(["QH KH QC", "JD QD KD"])
    put(s, A, stock="7S 3D", waste="5H 9C", villages=["10H", "9S", "2C"], castles="S6")
    return s


def test_tc_t07_hearts_queen_king_flip():
    s = qk_table()
    events = s.apply(A, {"type": "hearts_queen_king_flip", "named_card": "5H"})
    assert flipped(events) == ["7S", "3D", "5H"] and any(e.kind == "recycled" for e in events)
    assert waste(s, A) == "5H" and stock(s, A) == "9C 7S 3D"
    assert s.flip_slot == HEARTS_QK and s.extra_left == 2
    rejected(s, A, {"type": "standard_flip", "club_jack": False}, "replaced the standard flip")
    s.apply(A, {"type": "extra_flip"})
    assert waste(s, A) == "5H 9C" and s.extra_left == 1


def test_tc_t07_rejected_variants():
    s = qk_table()
    rejected(s, A, {"type": "hearts_queen_king_flip", "named_card": "2C"}, "village or castle")
    rejected(s, A, {"type": "hearts_queen_king_flip", "named_card": "4S"}, "village or castle")
    s.villages[A][2].insert(0, card_of("8D") | FD)
    rejected(s, A, {"type": "hearts_queen_king_flip", "named_card": "5H"}, "face up")
    s.apply(A, {"type": "hearts_queen_reveal", "village": 3, "position": 0})  # the last face-down card
    assert s.facedown_count(A) == 0
    rejected(s, A, {"type": "hearts_queen_king_flip", "named_card": "5H"}, "already been used")
    s = qk_table()
    s.apply(A, {"type": "standard_flip", "club_jack": False})
    rejected(s, A, {"type": "hearts_queen_king_flip", "named_card": "5H"}, "not after a flip")
    # naming the waste top is allowed (A12): the flipping runs through the whole pile
    s = qk_table()
    events = s.apply(A, {"type": "hearts_queen_king_flip", "named_card": "9C"})
    assert flipped(events) == ["7S", "3D", "5H", "9C"] and waste(s, A) == "5H 9C" and stock(s, A) == "7S 3D"


def t08_table(b_trio: str = "JD QC JH") -> TroubadourState:
    s = table(["JS QS JC", b_trio])
    put(s, A, stock="2H", villages=BUSY)
    shown = "7S 8S 6H 9S 9C 8D 4S 5S 10D".split()
    put(s, B, villages=["7S* 8S* 6H", "9S* 9C 8D", "", "4S", "5S* 10D"],
        stock=" ".join([name(c) for c in range(40) if name(c) not in shown][:20]))
    return s


def test_tc_t08_protection_and_the_spade_queen():
    s = t08_table()
    assert len(s.stock[B]) == 20
    rejected(s, A, {"type": "spade_jack_attack", "target": "P2", "village": 2}, "protected by J♦")
    assert not s.used >> NOBLE_INDEX["JS"] & 1
    old_stock = s.stock[B][:]
    events = s.apply(A, {"type": "spade_queen_attack", "target": "P2"})
    attack = [e for e in events if e.kind == "attacked"][0]
    assert attack.data["cards"] == ["6H", "8D", "4S", "10D"] and attack.data["hidden"] == 0
    assert len(s.stock[B]) == 24 and s.stock[B][4:] == old_stock  # the four lie at the bottom
    assert sorted(name(c) for c in s.stock[B][:4]) == sorted(["6H", "8D", "4S", "10D"])
    assert [village(s, B, v) for v in range(1, 6)] == ["7S* 8S", "9S* 9C", "", "", "5S"]
    assert [e.data["card"] for e in events if e.kind == "revealed"] == ["8S", "5S"]


def test_tc_t08_empty_village_and_empty_stock():
    s = t08_table("QD QC JH")
    rejected(s, A, {"type": "spade_jack_attack", "target": "P2", "village": 3}, "empty")
    s = t08_table()
    put(s, B, stock="", waste="AH 2H 3H 4H 5H 6H")
    s.apply(A, {"type": "spade_queen_attack", "target": "P2"})
    assert sorted(name(c) for c in s.stock[B]) == sorted(["6H", "8D", "4S", "10D"])
    assert waste(s, B) == "AH 2H 3H 4H 5H 6H"
    s.apply(A, {"type": "end_turn"})
    top = name(s.stock[B][-1])
    events = s.apply(B, {"type": "standard_flip", "club_jack": False})
    assert not any(e.kind == "recycled" for e in events) and flipped(events) == [top]


def t09_table(b_trio: str = "JD JC JH") -> TroubadourState:
    s = table(["JS QS KS", b_trio])
    put(s, A, stock="2C", villages=BUSY)
    put(s, B, stock="9D", villages=["9S", "8C"], castles="H4 D2")
    return s


def test_tc_t09_spade_queen_then_no_combination():
    s = t09_table()
    s.apply(A, {"type": "spade_queen_attack", "target": "P2"})
    rejected(s, A, {"type": "spade_trio_attack", "target": "P2", "suit": "H"}, "already been used")


def test_tc_t09_combination_then_no_spade_queen():
    s = t09_table()
    events = s.apply(A, {"type": "spade_trio_attack", "target": "P2", "suit": "H"})
    assert [e.data["cards"] for e in events if e.kind == "attacked"] == [["AH", "2H", "3H", "4H"]]
    assert s.castles[B] == [0, 0, 2, 0]
    assert sorted(name(c) for c in s.stock[B][:4]) == ["2H", "3H", "4H", "AH"] and name(s.stock[B][-1]) == "9D"
    rejected(s, A, {"type": "spade_queen_attack", "target": "P2"}, "already been used")
    rejected(s, A, {"type": "spade_jack_attack", "target": "P2", "village": 1}, "already been used")


def test_tc_t09_king_of_diamonds_blocks_only_the_combination():
    s = t09_table("KD JC JH")
    rejected(s, A, {"type": "spade_trio_attack", "target": "P2", "suit": "H"}, "protected by K♦")
    kinds = {a["type"] for a in s.legal_actions(A)}
    assert {"spade_queen_attack", "spade_jack_attack"} <= kinds and "spade_trio_attack" not in kinds
    s.apply(A, {"type": "spade_jack_attack", "target": "P2", "village": 1})
    s.apply(A, {"type": "spade_queen_attack", "target": "P2"})
    assert s.villages[B] == [[], [], [], [], []]


def t10_table(b_trio: str) -> TroubadourState:
    s = table(["QC KC JH", b_trio])
    put(s, A, stock="9S AH 5C 7D 8D", villages=["10H", "4C"])
    return s


def test_tc_t10_club_extras_and_their_order():
    s = t10_table("KC JD QD")
    rejected(s, A, {"type": "extra_flip"}, "after the standard flip")
    s.apply(A, {"type": "standard_flip", "club_jack": False})
    assert s.extra_left == 2
    s.apply(A, {"type": "extra_flip"})
    s.apply(A, {"type": "build_castle", "card": "AH"})
    s.apply(A, {"type": "extra_flip"})
    assert waste(s, A) == "9S 5C" and s.extra_left == 0
    rejected(s, A, {"type": "extra_flip"}, "no extra flips left")
    assert s.view(None)["turn"]["nobles"] == {"QC": "used", "KC": "idle", "JH": "ready"}


def test_tc_t10_club_king_counts_with_a_rival_club():
    s = t10_table("JC JD QD")
    s.apply(A, {"type": "standard_flip", "club_jack": False})
    assert s.extra_left == 5


def test_club_king_with_three_players():
    s = table(["KC JD QD", "JS QS KS", "QC JH QH"])
    put(s, A, stock="9S 8S 7S 6S", villages=BUSY)
    s.apply(A, {"type": "standard_flip", "club_jack": False})
    assert s.extra_left == 3  # A9: one opponent with Q♣ is enough, still +3
    s = table(["KC JD QD", "JS QS KS", "KC JH QH"])
    put(s, A, stock="9S 8S", villages=BUSY)
    s.apply(A, {"type": "standard_flip", "club_jack": False})
    assert s.extra_left == 0  # an opponent's K♣ does not count


def t11_table() -> TroubadourState:
    s = table(["JH QH KS", "JD QD KD"])
    put(s, A, stock="2D", villages=["4D* 9S 8H 7C", "AS* 5D* 3C", "10C"], castles="H7")
    return s


def test_tc_t11_hearts_jack():
    s = t11_table()
    s.apply(A, {"type": "hearts_jack_move", "card": "8H", "destination": "castle"})
    assert s.castles[A][1] == 8 and village(s, A, 1) == "4D* 9S 7C"
    rejected(s, A, {"type": "hearts_jack_move", "card": "7C", "destination": 2}, "already been used")


def test_tc_t11_hearts_queen_reveals_an_ace():
    s = t11_table()
    events = s.apply(A, {"type": "hearts_queen_reveal", "village": 2, "position": 0})
    assert [e.data["card"] for e in events if e.kind == "revealed"] == ["AS"] and s.pending_ace == [1, 0]
    assert s.legal_actions(A) == [{"type": "hearts_queen_ace", "start_castle": True},
                                  {"type": "hearts_queen_ace", "start_castle": False}]
    rejected(s, A, {"type": "build_castle", "card": "3C"}, "ace")
    rejected(s, A, {"type": "end_turn"}, "ace")
    s.apply(A, {"type": "hearts_queen_ace", "start_castle": True})
    assert s.castles[A][0] == 1 and village(s, A, 2) == "5D* 3C" and s.pending_ace is None


def test_tc_t11_declined_ace_and_a_deeper_reveal():
    s = t11_table()
    s.apply(A, {"type": "hearts_queen_reveal", "village": 2, "position": 0})
    s.apply(A, {"type": "hearts_queen_ace", "start_castle": False})
    assert village(s, A, 2) == "AS 5D* 3C" and s.castles[A][0] == 0
    s = t11_table()
    s.apply(A, {"type": "hearts_queen_reveal", "village": 2, "position": 1})
    assert village(s, A, 2) == "AS* 5D 3C" and s.pending_ace is None
    assert s.view(None)["seats"][A]["villages"][1] == [None, "5D", "3C"]
    # the revealed card can now be reached by J♥
    assert {"type": "hearts_jack_move", "card": "5D", "destination": 4} in s.legal_actions(A)
    rejected(s, A, {"type": "hearts_queen_reveal", "village": 2, "position": 0}, "already been used")


def test_tc_t12_three_player_turn_order():
    assert order_after(["JS KD QH", "JS JD KC", "JD QD KD"]) == [B, A, C]


def t13_table() -> TroubadourState:
    s = table(["JD QD KD", "JD QD KD"])
    put(s, A, stock="2D", villages=["4D* 6S* 9S 8H 7C", "10D", "5C", "9C", ""])
    return s


def test_tc_t13_moving_runs():
    s = t13_table()
    s.apply(A, {"type": "build_village", "card": "8H", "village": 4})
    assert village(s, A, 1) == "4D* 6S* 9S" and village(s, A, 4) == "9C 8H 7C"
    for target in (2, 5):
        s = t13_table()
        events = s.apply(A, {"type": "build_village", "card": "9S", "village": target})
        assert village(s, A, target).endswith("9S 8H 7C") and village(s, A, 1) == "4D* 6S"
        assert [e.data["card"] for e in events if e.kind == "revealed"] == ["6S"]
    s = t13_table()
    rejected(s, A, {"type": "build_village", "card": "7C", "village": 2}, "does not fit")
    rejected(s, A, {"type": "build_castle", "card": "8H"}, "not the top card")


def test_tc_t14_immediate_victory():
    s = table(["QS JH JC", "JD QD KD"], order=[A, B])
    put(s, A, waste="10C", villages=BUSY, castles="S10 H10 D10 C9")
    events = s.apply(A, {"type": "build_castle", "card": "10C"})
    assert events[-1].kind == "game_won" and s.is_over() and s.winner == A
    assert s.to_act() == [] and s.legal_actions(B) == [] and s.legal_actions(A) == []
    assert s.ranking() == [1, 2] and s.scores() == [40.0, 0.0]
    rejected(s, A, {"type": "spade_queen_attack", "target": "P2"}, "over")
    rejected(s, B, {"type": "standard_flip", "club_jack": False}, "over")


# ---------------------------------------------------------------- more rules
def test_aces_and_empty_villages():
    s = table(["JD QD KD", "JD QD KD"])
    put(s, A, stock="9D", waste="AH", villages=["2S", "AD", "", "7C 6H"])
    legal = s.legal_actions(A)
    assert {"type": "build_village", "card": "AH", "village": 1} in legal  # an ace on a 2 of the other colour (A27)
    assert {"type": "build_village", "card": "AH", "village": 3} in legal  # any card into an empty village
    assert {"type": "build_village", "card": "AH", "village": 2} not in legal  # nothing on an ace
    assert {"type": "build_village", "card": "6H", "village": 3} in legal  # a run of one
    assert {"type": "build_village", "card": "7C", "village": 3} in legal  # the whole village (pointless, legal)
    rejected(s, A, {"type": "build_village", "card": "AH", "village": 2}, "does not fit")
    s.apply(A, {"type": "build_castle", "card": "AH"})
    s.apply(A, {"type": "build_castle", "card": "AD"})
    assert s.castles[A] == [0, 1, 1, 0] and village(s, A, 2) == ""
    rejected(s, A, {"type": "build_castle", "card": "9D"}, "not the top card")


def test_hearts_jack_inside_its_own_village_checks_the_current_top():
    s = table(["JH JD QD", "JD QD KD"])
    put(s, A, stock="9D", villages=["10S 5C 9H 8S", "4D"])
    legal = s.legal_actions(A)
    assert {"type": "hearts_jack_move", "card": "8S", "destination": 1} not in legal  # already its top
    rejected(s, A, {"type": "hearts_jack_move", "card": "8S", "destination": 1}, "already the top")
    rejected(s, A, {"type": "hearts_jack_move", "card": "5C", "destination": 1}, "does not fit")
    s.apply(A, {"type": "hearts_jack_move", "card": "5C", "destination": 3})
    assert village(s, A, 1) == "10S 9H 8S" and village(s, A, 3) == "5C"


def test_club_jack_only_with_the_standard_flip():
    s = table(["JC QH KH", "JD QD KD"])
    put(s, A, stock="7S 3D 4C", villages=["10H", "9S"])
    s.apply(A, {"type": "hearts_queen_king_flip", "named_card": "3D"})
    rejected(s, A, {"type": "standard_flip", "club_jack": True}, "replaced the standard flip")
    assert s.view(None)["turn"]["nobles"]["JC"] == "idle"
    s = table(["QC JH KH", "JD QD KD"])
    put(s, A, stock="7S", villages=["10H", "9S"])
    rejected(s, A, {"type": "standard_flip", "club_jack": True}, "not in your trio")


def test_attacks_with_three_and_four_players():
    s = table(["JS QS JC", "JD QC JH", "QD KC JH", "JH QH KH"])
    for p in (B, C, D):
        put(s, p, stock="2C", villages=["9S 8H", "7C"])
    put(s, A, stock="2C", villages=BUSY)
    legal = s.legal_actions(A)
    jacks = [a["target"] for a in legal if a["type"] == "spade_jack_attack"]
    queens = [a["target"] for a in legal if a["type"] == "spade_queen_attack"]
    assert sorted(set(jacks)) == ["P3", "P4"] and queens == ["P2", "P4"]  # J♦ guards P2, Q♦ guards P3
    rejected(s, A, {"type": "spade_queen_attack", "target": "P3"}, "protected by Q♦")
    rejected(s, A, {"type": "spade_queen_attack", "target": "P1"}, "opponent")
    rejected(s, A, {"type": "spade_queen_attack", "target": "P5"}, "opponent")
    s.apply(A, {"type": "spade_jack_attack", "target": "P3", "village": 1})
    s.apply(A, {"type": "spade_queen_attack", "target": "P4"})
    assert s.villages[C][:2] == [[], cards("7C")] and s.villages[D][:2] == [cards("9S"), []]
    assert len(s.stock[C]) == 3 and len(s.stock[D]) == 3 and len(s.stock[B]) == 1
    with pytest.raises(IllegalAction, match="Which opponent"):
        GAME.parse_action(s, A, "QS")
    assert GAME.parse_action(s, A, "qs p2") == {"type": "spade_queen_attack", "target": "P2"}


def test_a_player_attacked_by_two_opponents_in_one_round():
    s = table(["JS QS JC", "JS QC JH", "JH QH KH"], order=[A, B, C])
    for p in range(3):
        put(s, p, stock="2C 3C", villages=["9S 8H", "7C", "10D"])
    s.apply(A, {"type": "spade_jack_attack", "target": "P3", "village": 1})
    s.apply(A, {"type": "end_turn"})
    assert s.to_act() == [B]
    s.apply(B, {"type": "spade_jack_attack", "target": "P3", "village": 2})
    assert s.villages[C][:3] == [[], [], cards("10D")] and len(s.stock[C]) == 5


def test_auto_end_of_a_turn_and_the_next_round():
    s = table(["JD QD KD", "JD QD KD"], order=[A, B])
    put(s, A, stock="9D", villages=["2C", "3C", "4C", "5C", "6C"])
    put(s, B, stock="8D", villages=["3C"])
    events = s.apply(A, {"type": "standard_flip", "club_jack": False})  # 9D fits nowhere: nothing left to do
    assert [e.data["auto"] for e in events if e.kind == "turn_ended"] == [True]
    assert s.to_act() == [B] and s.flip_slot == UNUSED
    events = s.apply(B, {"type": "end_turn"})
    assert [e.kind for e in events][-1] == "round_started"
    assert s.phase == "select_trios" and s.round_no == 2 and s.trios == [0, 0] and s.to_act() == [A, B]
    assert s.view(None)["last_trios"] == [["JD", "QD", "KD"], ["JD", "QD", "KD"]]


def test_max_rounds_draw():
    s = GAME.new_game(2, seed=1, options={"trio_tiebreak": "rps", "max_rounds": 1})
    choose(s, A, "JS JD JC")
    choose(s, B, "QS QD QC")
    assert s.order == [A, B]
    s.apply(A, {"type": "end_turn"})
    s.apply(B, {"type": "end_turn"})
    assert s.is_over() and s.draw and s.ranking() == [1, 1] and s.to_act() == []
    assert "draw" in GAME.render_view(s.view(None))


def test_turn_errors_are_explained():
    s = table(["JD QD KD", "JD QD KD"])
    put(s, A, stock="9D", villages=BUSY)
    assert "waiting for {P1}" in rejected(s, B, {"type": "end_turn"}, "not your turn")
    rejected(s, A, {"type": "build_village", "card": "9S", "village": 6}, "1 to 5")
    rejected(s, A, {"type": "build_village", "card": "ZZ", "village": 1}, "like 7H")
    rejected(s, A, {"type": "build_village", "card": "9S"}, "card, village")
    rejected(s, A, {"type": "hearts_jack_move", "card": "9S", "destination": 1}, "not in your trio")
    rejected(s, A, {"type": "choose_trio", "nobles": ["JS", "QS", "KS"]}, "already chosen")
    rejected(s, A, {"type": "dance"}, "unknown action")


# ---------------------------------------------------------------- notation
@pytest.mark.parametrize(("text", "action"), [
    ("trio jc qc jh", {"type": "choose_trio", "nobles": ["JC", "QC", "JH"]}),
    ("JH QC JC", {"type": "choose_trio", "nobles": ["JC", "QC", "JH"]}),
    ("flip", {"type": "standard_flip", "club_jack": False}),
    ("F", {"type": "standard_flip", "club_jack": False}),
    ("flip jc", {"type": "standard_flip", "club_jack": True}),
    ("extra", {"type": "extra_flip"}),
    ("x", {"type": "extra_flip"}),
    ("qhkh 7♠", {"type": "hearts_queen_king_flip", "named_card": "7S"}),
    ("7C castle", {"type": "build_castle", "card": "7C"}),
    ("10♥ c", {"type": "build_castle", "card": "10H"}),
    ("th castle", {"type": "build_castle", "card": "10H"}),
    ("8h v4", {"type": "build_village", "card": "8H", "village": 4}),
    ("8H → 4", {"type": "build_village", "card": "8H", "village": 4}),
    ("jh 8h castle", {"type": "hearts_jack_move", "card": "8H", "destination": "castle"}),
    ("JH 8H V2", {"type": "hearts_jack_move", "card": "8H", "destination": 2}),
    ("qh v2 1", {"type": "hearts_queen_reveal", "village": 2, "position": 0}),
    ("ace castle", {"type": "hearts_queen_ace", "start_castle": True}),
    ("ace keep", {"type": "hearts_queen_ace", "start_castle": False}),
    ("js p2 v3", {"type": "spade_jack_attack", "target": "P2", "village": 3}),
    ("js v3", {"type": "spade_jack_attack", "target": "P2", "village": 3}),
    ("qs", {"type": "spade_queen_attack", "target": "P2"}),
    ("jqk p2 h", {"type": "spade_trio_attack", "target": "P2", "suit": "H"}),
    ("spades ♥", {"type": "spade_trio_attack", "target": "P2", "suit": "H"}),
    ("end", {"type": "end_turn"}),
])
def test_notation(text, action):
    s = table(["JD QD KD", "JD QD KD"])
    if action["type"] == "choose_trio":
        s = GAME.new_game(2, seed=1)
    assert GAME.parse_action(s, A, text) == action
    assert GAME.parse_action(s, A, GAME.format_action(action)) == action
    assert GAME.parse_action(s, A, GAME.format_action(action).lower()) == action


def test_notation_of_every_legal_action_round_trips():
    s = t11_table()
    s.villages[A][3] = []
    s.trios[A] = trio("JH QH JS")
    put(s, B, villages=["3D", "4C"], castles="C2")
    for action in s.legal_actions(A):
        assert GAME.parse_action(s, A, GAME.format_action(action)) == action
        assert GAME.describe_action(action)
    s = rps_table()
    for action in s.legal_actions(A):
        assert GAME.parse_action(s, A, GAME.format_action(action)) == action
        assert GAME.parse_action(s, A, action["noble"].lower()) == action


@pytest.mark.parametrize(("text", "words"), [
    ("", "like"), ("hello", "moves look like"), ("7C", "where"), ("qh v9 1", "QH V2 1"),
    ("jh 8h", "JH 8H castle"), ("flip twice", "flip JC"), ("ace maybe", "ace keep"), ("qhkh", "QHKH 7S"),
    ("jqk p2", "JQK P2 H"), ("js p2", "JS P2 V3"), ("zz99 qq", "moves look like"),
])
def test_notation_errors_say_what_is_expected(text, words):
    s = table(["JD QD KD", "JD QD KD"])
    put(s, A, stock="9D", villages=BUSY)
    with pytest.raises(IllegalAction) as e:
        GAME.parse_action(s, A, text)
    assert words.lower() in str(e.value).lower() and "`" in str(e.value) or words == "like"


@pytest.mark.parametrize(("text", "action"), [
    ("QH KH 7S", {"type": "hearts_queen_king_flip", "named_card": "7S"}),  # the combination as the rules write it
    ("QH+KH 7♠", {"type": "hearts_queen_king_flip", "named_card": "7S"}),
    ("kh qh 7s", {"type": "hearts_queen_king_flip", "named_card": "7S"}),
    ("JS QS KS P2 H", {"type": "spade_trio_attack", "target": "P2", "suit": "H"}),
    ("J♠+Q♠+K♠ ♥", {"type": "spade_trio_attack", "target": "P2", "suit": "H"}),
    ("QC", {"type": "extra_flip"}),  # the club extras by their noble
    ("kc", {"type": "extra_flip"}),
    ("end turn", {"type": "end_turn"}),
])
def test_notation_of_combinations_and_nobles(text, action):
    s = table(["JD QD KD", "JD QD KD"])
    assert GAME.parse_action(s, A, text) == action


def test_wrong_texts_get_an_example():
    s = table(["JD QD KD", "JD QD KD"])
    put(s, A, stock="9D", villages=BUSY)
    with pytest.raises(IllegalAction, match="`8H V4`"):
        GAME.parse_action(s, A, "8H on 9C")  # two cards: say the village
    s = table(["QH KH JD", "JD QD KD"])
    put(s, A, stock="3C", villages=BUSY)
    assert "`QHKH 3C`" in GAME.render_view(s.view(None))  # the example names a card that can be named
    put(s, A, waste="9C", castles="C7")
    assert "needs 8C next" in rejected(s, A, {"type": "build_castle", "card": "9C"}, "castle")
    put(s, A, waste="2S", castles="")
    assert "starts with AS" in rejected(s, A, {"type": "build_castle", "card": "2S"}, "castle")


def test_notation_in_the_round_phases():
    s = GAME.new_game(2, seed=1)
    with pytest.raises(IllegalAction, match="trio JC QC JH"):
        GAME.parse_action(s, A, "flip")
    with pytest.raises(IllegalAction, match="three different"):
        GAME.parse_action(s, A, "trio JC JC QH")
    s = rps_table()
    assert GAME.parse_action(s, A, "rps qh") == {"type": "choose_tiebreak_noble", "noble": "QH"}
    with pytest.raises(IllegalAction, match="rps QH"):
        GAME.parse_action(s, A, "rps 7H")


def test_a_lone_card_is_built_where_it_can_go():
    s = table(["JD QD KD", "JD QD KD"])
    put(s, A, stock="9D", waste="AH", villages=["10H", "9S", "4D", "8C", "6C"])
    assert GAME.parse_action(s, A, "ah") == {"type": "build_castle", "card": "AH"}
    assert GAME.parse_action(s, A, "9s") == {"type": "build_village", "card": "9S", "village": 1}
    with pytest.raises(IllegalAction, match="cannot be built"):
        GAME.parse_action(s, A, "4d")


# ---------------------------------------------------------------- views and hidden information
def test_views_show_no_hidden_card():
    s = GAME.new_game(2, seed=8)
    choose(s, A, "JC QC JH")
    choose(s, B, "JD QD KD")
    public = s.view(None)
    seat = public["seats"][A]
    assert seat["stock"] == 25 and seat["waste"] == 0 and seat["waste_top"] is None and seat["facedown"] == 10
    assert all(v[0] is None and v[1] is None and v[2] is not None for v in seat["villages"])
    hidden = {name(c) for c in s.stock[A]} | {name(c & ~FD) for v in s.villages[A] for c in v if c & FD}
    text = json.dumps(seat)
    assert not any(f'"{c}"' in text for c in hidden)
    assert s.view(A) == {**public, "viewer": A} and s.view(B) == {**public, "viewer": B}
    s.apply(s.order[0], {"type": "standard_flip", "club_jack": False})
    p = s.order[0]
    assert s.view(None)["seats"][p]["waste_top"] == name(s.waste[p][-1])


def test_view_lists_the_options_of_the_active_player():
    s = t11_table()
    view = s.view(None)
    o = view["options"]
    assert o["flip"] and not o["club_jack"] and o["hearts_queen"] == [[1, 0], [2, 0], [2, 1]]
    assert o["hearts_jack"]["8H"] == ["castle", 4, 5]
    assert o["village"]["7C"] == [4, 5]
    assert view["turn"]["nobles"] == {"KS": "idle", "JH": "ready", "QH": "ready"}
    text = GAME.render_view(view)
    for words in ("may now", "`flip`", "J♥", "Q♥ turn a face-down card", "`end`", "8♥→🏰/V4/V5", "▒ 9♠ 8♥ 7♣"):
        assert words in text, words


def test_determinize_redraws_what_nobody_knows():
    s = GAME.new_game(3, seed=6)
    choose(s, B, "JS QS KS")
    world = s.determinize(A, random.Random(2))
    assert world.view(A) == s.view(A) and world.trios[A] == 0 and world.trios[B] != 0
    for p in range(3):
        hidden = sorted(s.stock[p] + [c & ~FD for v in s.villages[p] for c in v if c & FD])
        again = sorted(world.stock[p] + [c & ~FD for v in world.villages[p] for c in v if c & FD])
        assert hidden == again
        assert [[c >= FD for c in v] for v in world.villages[p]] == [[c >= FD for c in v] for v in s.villages[p]]
    assert any(world.stock[p] != s.stock[p] for p in range(3))
    mine = s.determinize(B, random.Random(2))
    assert mine.trios[B] == s.trios[B] and mine.view(B) == s.view(B)


def hidden_slots(s: TroubadourState, p: int) -> set[str]:
    return {name(c & ~FD) for v in s.villages[p] for c in v if c & FD}


def test_determinize_keeps_cards_that_went_face_up_under_the_stock():
    """6: cards taken by Q♠ were face up, so everyone knows they lie at the bottom of the victim's stock (only their
    shuffled order is unknown): a re-draw may not turn one into a face-down village card or move it up the stock."""
    s = t08_table()
    s.apply(A, {"type": "spade_queen_attack", "target": "P2"})
    taken = {"6H", "8D", "4S", "10D"}
    orders = set()
    for k in range(40):
        world = s.determinize(A, random.Random(k))
        assert world.view(A) == s.view(A)
        assert not taken & hidden_slots(world, B)
        assert {name(c) for c in world.stock[B][:4]} == taken
        orders.add(tuple(world.stock[B][:4]))
    assert len(orders) > 1  # their order under the stock is unknown


def test_determinize_keeps_a_recycled_stock_in_order():
    """3.3 / A4 / A37: the waste is turned over unshuffled and every card of it was flipped in public, so the order
    of the new stock is known; only cards an attack put under it later are shuffled among themselves."""
    s = t08_table()
    put(s, B, stock="", waste="4C 8H 2S 5D", villages=["7S* 8S* 6H", "9S* 9C 8D"])
    s.apply(A, {"type": "end_turn"})
    s.apply(B, {"type": "standard_flip", "club_jack": False})
    assert stock(s, B) == "8H 2S 5D"
    for k in range(20):
        world = s.determinize(A, random.Random(k))
        assert stock(world, B) == "8H 2S 5D" and hidden_slots(world, B) == {"7S", "8S", "9S"}
    s.apply(B, {"type": "end_turn"})
    s.trios = [trio("JS QS JC"), trio("JD QC JH")]
    s.phase, s.order, s.turn_idx = "turn", [A, B], 0
    s.apply(A, {"type": "spade_queen_attack", "target": "P2"})  # 6H and 8D go under the recycled stock
    for k in range(20):
        world = s.determinize(B, random.Random(k))
        assert stock(world, B)[:8] == "8H 2S 5D" and {name(c) for c in world.stock[B][:2]} == {"6H", "8D"}


def test_determinize_still_redraws_face_down_cards_taken_by_the_spade_jack():
    """4.2.1: the face-down cards J♠ takes stay unknown: they are exchangeable with every other unseen card (face-down
    village cards, the dealt stock), but lie in the attacked block at the bottom of the stock."""
    s = t08_table("QD QC JH")
    s.apply(A, {"type": "spade_jack_attack", "target": "P2", "village": 1})  # 7S* 8S* 6H
    block = set()
    for k in range(40):
        world = s.determinize(A, random.Random(k))
        bottom = {name(c) for c in world.stock[B][:3]}
        assert "6H" in bottom and not {"6H"} & hidden_slots(world, B)
        block |= bottom
    assert block - {"6H", "7S", "8S"}  # the two unseen cards were re-drawn


def test_stock_groups_stay_consistent_through_a_game():
    from rules.ai import RandomPlayer
    s = GAME.new_game(3, seed=5)
    player = RandomPlayer(5)
    for _ in range(1500):
        if s.is_over():
            break
        seat = s.to_act()[0]
        s.apply(seat, player.choose(s, seat))
        for p in range(3):
            cuts = s.cuts[p]
            assert cuts == sorted(set(cuts)) and all(0 < x < len(s.stock[p]) for x in cuts)
            assert not any(s.seen[p] >> (c & ~FD) & 1 for v in s.villages[p] for c in v if c & FD)
    assert any(s.cuts) and any(s.seen)
    old = s.to_json()  # a game saved before ``seen`` and ``cuts`` were kept still loads
    del old["seen"], old["cuts"]
    assert GAME.from_json(old).cuts == [[], [], []]


def test_json_round_trip_continues_identically():
    s = GAME.new_game(2, seed=12)
    for p, t in ((A, "JS QS KS"), (B, "QD QC JH")):
        choose(s, p, t)
    p = s.order[0]
    s.apply(p, {"type": "standard_flip", "club_jack": False})
    copy = GAME.from_json(json.loads(json.dumps(s.to_json())))
    assert copy.to_json() == s.to_json()
    attack = {"type": "spade_jack_attack", "target": "P2", "village": 1}
    if p == A:
        s.apply(A, attack)
        copy.apply(A, attack)
        assert copy.stock[B] == s.stock[B]  # the same shuffle under the stock


def test_describe_every_event_and_action_of_a_game():
    from rules.ai import RandomPlayer
    s = GAME.new_game(3, seed=3)
    player = RandomPlayer(3)
    lines = 0
    for _ in range(400):
        if s.is_over():
            break
        seat = s.to_act()[0]
        action = player.choose(s, seat)
        assert GAME.describe_action(action)
        for e in s.apply(seat, action):
            line = GAME.describe_event(e)
            assert line is None or line.strip()
            lines += line is not None
        assert GAME.render_view(s.view(None)) and GAME.render_view(s.view(seat))
    assert lines > 100


def test_rules_summary_and_configurations():
    text = GAME.rules_summary()
    assert "How to play here" in text and "trio JC QC JH" in text and "JS P2 V3" in text
    assert sorted(map(json.dumps, GAME.configurations())) == sorted(
        json.dumps((n, {"trio_tiebreak": t, "max_rounds": 0})) for n in (2, 3, 4) for t in ("rps", "die"))
