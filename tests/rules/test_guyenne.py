"""Guyenne (duel): every worked example and derived case of rules/guyenne.md section 8 that concerns two players,
the notation, the views and determinize."""
from __future__ import annotations

import random

import pytest

from rules import GAMES, IllegalAction
from rules.guyenne import cards as C
from rules.guyenne.board import group_points
from rules.guyenne.state import GuyenneState

GAME = GAMES["guyenne"]
E, F = 0, 1


def ids(kinds: str, taken: list[str] | None = None) -> list[str]:
    """``"5 5 4 A"`` → ``["5a", "5b", "4a", "A1"]`` (distinct ids, avoiding ``taken``)."""
    used = set(taken or [])
    out = []
    for k in kinds.split():
        card = next(c for c in C.ARMY if c[0] == k and c not in used)
        used.add(card)
        out.append(card)
    return C.order(out)


def duel(level: str = "basic", castles=None, e_hand: str = "", f_hand: str = "", first: int = E) -> GuyenneState:
    """A duel with E at seat 0 (first player unless ``first``), given castle control and hands; decks hold the
    rest of each army."""
    state = GAME.new_game(2, seed=1, options={"level": level})
    state.sides = ["E", "F"]
    state.first = first
    state.phase = "open1"
    state.castles = list(castles or [None] * 6)
    for p, hand in ((E, e_hand), (F, f_hand)):
        state.hands[p] = ids(hand)
        state.decks[p] = [c for c in C.ARMY if c not in state.hands[p]]
        state.discards[p] = []
        state.aside[p] = []
    return state


def play(state: GuyenneState, seat: int, text: str):
    return state.apply(seat, GAME.parse_action(state, seat, text))


def round_of(state, c1: int, e1: str, f1: str, c2: int, f2: str, e2: str):
    """E opens c1, F answers, F opens c2, E answers, both pass: the fights begin."""
    play(state, E, f"open {c1} {e1}")
    play(state, F, f"respond {f1}")
    play(state, F, f"open {c2} {f2}")
    play(state, E, f"respond {e2}")
    play(state, F, "pass")
    return play(state, E, "pass")


def fight_results(events) -> dict[int, int | None]:
    return {e.data["castle"]: e.data["winner"] for e in events if e.kind == "fight"}


# ---------------------------------------------------------------------- 8.1 from the source
def test_g01_archer_defending_counts_four():
    state = duel(castles=[None, E, None, None, None, None], e_hand="A 3 2 2 4 4", f_hand="5 2 2 3 3 3")
    round_of(state, 5, "2", "2", 2, "5 2", "A 3")
    assert state.phase == "defend" and state.to_act() == [E]
    events = play(state, E, "reveal")
    assert fight_results(events)[2] == E and state.castles[1] == E  # 7 against 4 + 3: a tie, the defender keeps it
    fight = {"castle": 4, "controller": F, "roles": ["attack", "defend"], "cards": [ids("A 3"), []]}
    assert GuyenneState.total(fight, E) == 5  # attacking, the archer counts 2


def test_g02_trebuchet_attacking_opponents_castle_counts_five():
    state = duel(castles=[None, None, None, F, None, None], e_hand="T 2 2 2 3 3", f_hand="5 2 2 3 3 3")
    play(state, E, "open 4 T 2")
    play(state, F, "respond 5")
    play(state, F, "open 6 2")
    play(state, E, "respond 2")
    play(state, F, "pass")
    play(state, E, "pass")
    events = play(state, F, "reveal")
    fight = next(e for e in events if e.kind == "fight" and e.data["castle"] == 4)
    assert fight.data["winner"] == E and fight.data["totals"] == [7, 5] and state.castles[3] == E


@pytest.mark.parametrize("decision", ["reveal", "concede"])
def test_g03_hero_wins_whether_the_defender_reveals_or_concedes(decision):
    state = duel(castles=[None, None, E, None, None, None], e_hand="5 5 4 4 3 2", f_hand="H 2 2 3 3 3",
                 first=F)
    play(state, F, "open 3 H")
    play(state, E, "respond 5 5 4 4 3")
    play(state, E, "open 1 2")
    events = play(state, F, "respond 2")
    assert {"seat": E, "auto": True} in [e.data for e in events if e.kind == "passed"]  # E has no card left
    play(state, F, "pass")
    events = play(state, E, decision)
    assert fight_results(events)[3] == F and state.castles[2] == F


def test_g04_both_heroes_tie_and_a_concession_beats_everything():
    state = duel(e_hand="H 2 2 2 3 3", f_hand="H 5 5 2 3 3")
    events = round_of(state, 5, "H 2", "H 5 5", 1, "2", "2")
    assert fight_results(events)[5] is None and state.castles[4] is None

    state = duel(castles=[None, F, None, None, None, None], e_hand="H 2 2 2 3 3", f_hand="H 5 5 2 3 3")
    round_of(state, 2, "H", "H", 1, "2", "2")
    assert state.to_act() == [F]
    assert fight_results(play(state, F, "reveal"))[2] is None and state.castles[1] == F

    state = duel(castles=[None, F, None, None, None, None], e_hand="H 2 2 2 3 3", f_hand="H 5 5 2 3 3")
    round_of(state, 2, "H", "H", 1, "2", "2")
    assert fight_results(play(state, F, "concede"))[2] == E and state.castles[1] == E


@pytest.mark.parametrize(("row", "e_points", "f_points"), [
    ("EE-FEE", 8, 1), ("EEE--F", 6, 1), ("-FFFFF", 0, 10), ("E-E-E-", 3, 0), ("EFEFEF", 3, 3)])
def test_g05_scoring_groups(row, e_points, f_points):
    assert group_points([c == "E" for c in row]) == e_points
    assert group_points([c == "F" for c in row]) == f_points


def test_g06_six_castles_win_at_round_end_only():
    state = duel(castles=[E, E, E, E, None, F], e_hand="5 5 4 4 3 2", f_hand="2 2 2 3 2 2")
    round_of(state, 5, "5", "2", 6, "2", "5 4")
    play(state, F, "reveal")
    assert state.is_over() and state.end == "six" and state.scores() == [12.0, 0.0] and state.ranking() == [1, 2]

    # E holds all six after C1, but F takes C2 (one of E's castles): no win, the game goes on
    state = duel(castles=[E, E, E, E, None, E], e_hand="5 5 4 4 3 2", f_hand="5 5 4 3 2 2")
    round_of(state, 5, "5", "2", 6, "5 5", "2")
    assert state.castles[4] == E
    play(state, E, "reveal")
    assert state.castles[5] == F and not state.is_over() and state.round_no == 2


def test_g07_tie_break_by_unspent_cards():
    state = duel(castles=[E, F, E, F, E, F], e_hand="2", f_hand="2 2 2")
    state.decks[E], state.decks[F] = [], ids("3 3")
    state.end, state.phase = "exhaustion", "over"
    assert state.scores() == [3.0, 3.0] and state.ranking() == [2, 1]
    state.decks[F] = []
    state.hands[E] = ids("2 2 2")
    assert state.ranking() == [1, 1]  # both 3 unspent: a draw


# ---------------------------------------------------------------------- 8.2 derived cases
def test_g08_trebuchet_outside_its_bonus_role():
    state = duel(e_hand="T 4 2 2 3 3", f_hand="5 2 2 2 3 3")
    events = round_of(state, 1, "T 4", "5 2", 3, "2", "2")
    assert fight_results(events)[1] is None and state.castles[0] is None  # 3 + 4 against 5 + 2 at a neutral castle

    state = duel(castles=[None, None, None, None, None, E], e_hand="T 2 4 2 3 3", f_hand="3 2 2 2 5 5")
    round_of(state, 1, "4", "2", 6, "3 2", "T 2")
    events = play(state, E, "reveal")
    assert fight_results(events)[6] == E and state.castles[5] == E  # defending, the trebuchet counts 3: 5 – 5, kept


def test_g08_trebuchet_defending_counts_three():
    fight = {"castle": 6, "controller": E, "roles": ["defend", "attack"], "cards": [ids("T 2"), ids("3 2")]}
    assert GuyenneState.total(fight, E) == 5 and GuyenneState.total(fight, F) == 5


def test_g09_placement_limits():
    state = duel(e_hand="5 5 4 4 3 2", f_hand="5 4 4 3 3 2")
    with pytest.raises(IllegalAction, match="at most 5"):
        play(state, E, "open 3 5 5 4 4 3 2")
    play(state, E, "open 3 5 5 4 4 3")
    with pytest.raises(IllegalAction, match="at most 5"):
        play(state, F, "respond 5 4 4 3 3 2")
    play(state, F, "respond 5 4 4 3 3")
    with pytest.raises(IllegalAction, match="already contested"):
        play(state, F, "open 3 2")
    play(state, F, "open 5 2")
    events = play(state, E, "respond 2")  # E's last card
    passes = [e.data for e in events if e.kind == "passed"]
    assert passes == [{"seat": F, "auto": True}, {"seat": E, "auto": True}]  # nobody can add: the fights begin
    assert any(e.kind == "fight" for e in events)


def test_g10_reinforcement_sequences():
    def placed():
        state = duel(e_hand="5 4 3 2 2 2", f_hand="5 4 3 2 2 4")
        play(state, E, "open 1 5 4")
        play(state, F, "respond 5")
        play(state, F, "open 2 4")
        play(state, E, "respond 3 2")  # E holds 2 cards, F 4
        return state

    state = placed()
    assert state.phase == "reinforce" and state.to_act() == [F]
    play(state, F, "reinforce 2 4")
    play(state, E, "pass")
    play(state, F, "pass")
    assert state.phase != "reinforce"  # a) F adds, E passes, F passes

    state = placed()
    play(state, F, "pass")
    play(state, E, "reinforce 1 2")
    play(state, F, "pass")
    assert state.phase == "reinforce"
    play(state, E, "pass")
    assert state.phase != "reinforce"  # b)

    state = placed()
    play(state, F, "pass")
    play(state, E, "pass")
    assert state.phase != "reinforce"  # c)

    state = placed()
    play(state, F, "reinforce 1 2")
    play(state, E, "pass")
    play(state, F, "reinforce 1 2")  # d) again, after the other passed
    play(state, E, "pass")
    assert state.phase == "reinforce"
    play(state, F, "pass")
    assert state.phase != "reinforce"


def test_g10_five_cards_at_a_castle_at_most():
    state = duel(e_hand="5 4 3 2 2 2", f_hand="5 4 3 3 2 2")
    play(state, E, "open 1 5")
    play(state, F, "respond 5 4 3")
    play(state, F, "open 2 2")
    play(state, E, "respond 4")
    state.fights[0]["cards"][F] = ids("5 4 3 3 2")  # as if F had reinforced castle 1 up to five
    state.hands[F] = ids("4 2", state.fights[0]["cards"][F] + state.fights[1]["cards"][F])
    assert state.to_act() == [F]
    assert {a.get("castle") for a in state.legal_actions(F)} == {2, None}  # castle 2 or pass
    with pytest.raises(IllegalAction, match="at most 0"):
        play(state, F, "reinforce 1 2")
    play(state, F, "reinforce 2 4 2")  # both cards, one castle, one action


def test_g11_conceding_hides_the_cards_and_the_attacker_still_loses_his_strongest():
    state = duel(level="advanced", castles=[None, E, None, None, None, None], e_hand="5 4 2 2 3 3",
                 f_hand="3 2 2 2 4 4")
    round_of(state, 5, "2", "2", 2, "3 2", "5 4")
    events = play(state, E, "concede")
    assert fight_results(events)[2] == F and state.castles[1] == F
    revealed = [e for e in events if e.kind == "revealed" and e.data["seat"] == E]
    assert revealed == []
    assert state.removed[F] == ids("3")  # the attacker of E's castle loses his 3 even though E conceded
    public = state.view(None)
    assert all(f["cards"][E] is None for f in public["last_fights"] if f["castle"] == 2)
    assert sorted(state.discards[E]) == sorted(ids("5 4 2"))  # to the discard, face down


def test_g12_loser_of_a_neutral_castle_chooses_losses():
    state = duel(level="advanced", e_hand="5 5 4 3 3 2", f_hand="4 2 2 3 2 3")
    round_of(state, 3, "5 4", "4 2 2", 4, "3 2", "5")
    assert state.phase == "losses" and state.to_act() == [F] and state.castles[2] == E
    options = [a["cards"] for a in state.legal_actions(F)]
    four, two_a, two_b = ids("4 2 2")
    assert sorted(map(tuple, options)) == sorted([(four,), (two_a, two_b), (four, two_a), (four, two_b),
                                                  (four, two_a, two_b)])
    with pytest.raises(IllegalAction):
        state.apply(F, {"type": "lose", "cards": [two_a]})
    with pytest.raises(IllegalAction):
        state.apply(F, {"type": "lose", "cards": []})
    events = play(state, F, "lose 2 2")
    assert state.removed[F] == [two_a, two_b] and state.removed[E] == []
    # castle 4: 5 against 3 + 2, a tie: nothing removed, the castle stays neutral; then the round ends
    assert fight_results(events)[4] is None and state.castles[3] is None
    assert four in state.discards[F] and set(ids("5 4")) <= set(state.discards[E])


def test_g13_attacker_of_an_opponents_castle_loses_his_strongest_card():
    def attack(e_cards: str, f_cards: str, castle: int = 5):
        def pad(kinds: str) -> str:
            return kinds + " 2" * (6 - len(kinds.split()))

        state = duel(level="advanced", castles=[None, None, None, F, F, None], e_hand=pad(e_cards),
                     f_hand=pad(f_cards))
        round_of(state, castle, e_cards, f_cards, 1, "2", "2")
        play(state, F, "reveal")
        return state

    state = attack("H 2", "5 5")  # a) wins with the hero, loses the hero for good
    assert state.castles[4] == E and state.removed[E] == ["H"] and ids("2")[0] in state.discards[E]
    state = attack("T 4", "5 A", castle=4)  # b) 9 against 5 + 4: tie, F keeps; E loses the 4, not the trebuchet
    assert state.castles[3] == F and state.removed[E] == ids("4")
    state = attack("3 T", "5 4", castle=4)  # c) loses: the plain 3 goes, the trebuchet stays
    assert state.castles[3] == F and state.removed[E] == ids("3")
    assert state.removed[F] == []  # d) the defender loses nothing


def test_g14_deck_cycle_and_exhaustion_in_the_base_game():
    state = duel(e_hand="H 5 5 4 4 4", f_hand="H 5 5 4 4 4")
    state.decks[E] = [c for c in C.ARMY if c not in state.hands[E]]
    rounds = 0
    while not state.is_over():
        rounds += 1
        first, second = state.first, 1 - state.first
        play(state, first, f"open 1 {C.label(state.hands[first][0])}")
        play(state, second, f"respond {C.label(state.hands[second][0])}")
        play(state, second, f"open 2 {C.label(state.hands[second][0])}")
        play(state, first, f"respond {C.label(state.hands[first][0])}")
        while state.phase == "reinforce":
            play(state, state.to_act()[0], "pass")
        while state.phase == "defend":
            play(state, state.to_act()[0], "reveal")
        if rounds == 8:
            assert len(state.decks[E]) == 0 and len(state.hands[E]) == 6 and len(state.discards[E]) == 16
            assert state.reshuffles[E] == 1
        if rounds == 9:
            assert len(state.decks[E]) == 16 and state.discards[E] == [] and state.reshuffles[E] == 0
        if rounds == 17:
            assert len(state.decks[E]) == 0 and len(state.hands[E]) == 6
        if rounds == 18:
            assert len(state.hands[E]) == 4
    assert rounds == 20 and state.end == "exhaustion" and state.unspent(E) == 0


def test_g15_expert_setup():
    state = GAME.new_game(2, seed=4, options={"level": "expert"})
    assert state.phase == "set_aside" and sorted(state.to_act()) == [0, 1]
    for bad in ({"type": "set_aside", "cards": ["H", "5", "4", "4", "3"]},  # the hero
                {"type": "set_aside", "cards": ["5", "4", "4", "3"]},  # 4 cards
                {"type": "set_aside", "cards": ["5", "4", "4", "3", "2", "2"]},  # 6 cards
                {"type": "set_aside", "cards": ["5", "5", "5", "2", "2"]},  # there are two 5s
                {"type": "set_aside", "cards": ["2", "5", "4", "4", "3"]},  # not strongest first
                {"type": "set_aside", "card": "5"}):  # the old single pick
        with pytest.raises(IllegalAction):
            state.apply(0, bad)
    assert state.aside == [[], []]
    events = play(state, 0, "aside 5 4 4 3 2")
    assert [e.kind for e in events] == ["set_aside", "set_aside_cards"] and events[1].audience == (0,)
    assert state.to_act() == [1]
    assert state.view(1).get("aside") == [] and state.view(None)["aside_counts"] == [5, 0]
    assert state.view(0)["aside"] == ids("5 4 4 3 2")
    with pytest.raises(IllegalAction):
        play(state, 0, "aside 2 2 2 2 2")  # chosen already
    play(state, 1, "aside 2 2 2 A A")
    e = 0
    assert len(state.hands[e]) == 6 and "H" in state.hands[e] and len(state.decks[e]) == 11
    assert sorted(state.discards[e]) == sorted(ids("5 4 4 3 2")) and state.reshuffles == [2, 2]
    assert sorted(state.discards[1]) == sorted(ids("2 2 2 A A"))
    assert state.phase == "open1"
    assert state.aside == [[], []]  # the picks live on only in the discards, where determinize re-deals them


def test_expert_setup_is_one_choice_of_kinds_the_picker_asks_card_by_card():
    """163 choices of kinds (not 20349 sets of ids); the picker offers a kind as often as the army holds it (up to
    5), finishes only at five, and every choice of five is legal."""
    from bot.service import picker

    state = GAME.new_game(2, seed=4, options={"level": "expert"})
    legal = state.legal_actions(0)
    assert len(legal) == 163 and {"type": "set_aside", "cards": ["2", "2", "2", "2", "2"]} in legal
    assert all(len(a["cards"]) == 5 and "H" not in a["cards"] for a in legal)
    level = picker.resolve(GAME, legal, "")
    assert level.multi and level.sizes == (5, 5)
    assert [label for label, _ in level.options] == "5 5 4 4 4 3 3 3 T 2 2 2 2 2 A A A A".split()
    path = ""
    for index in (15, 9, 10, 3, 4):  # an archer, two 2s, two 4s, ticked in any order
        level = picker.resolve(GAME, legal, path)
        assert not level.can_finish
        path = level.data_for(path, level.options[index][1])
    level = picker.resolve(GAME, legal, path)  # on a chat platform the fifth tick is the choice (no Done press)
    assert level.action == {"type": "set_aside", "cards": ["4", "4", "2", "2", "A"]}
    level = picker.resolve(GAME, legal, path, whole=False)  # the console finishes with done
    assert level.can_finish and level.selected == ["4", "4", "2", "2", "A"]
    mask = path.rsplit(".", 1)[-1][1:]
    done = picker.resolve(GAME, legal, "d" + mask)
    assert done.action == {"type": "set_aside", "cards": ["4", "4", "2", "2", "A"]}
    state.apply(0, done.action)
    assert state.view(0)["aside"] == ids("4 4 2 2 A")


def test_expert_setup_stored_half_way_through_single_picks_asks_for_the_rest():
    state = GAME.new_game(2, seed=4, options={"level": "expert"})
    state.aside[0] = ids("5 4")  # a game stored when the set-aside was five single picks
    assert all(len(a["cards"]) == 3 for a in state.legal_actions(0))
    with pytest.raises(IllegalAction):
        play(state, 0, "aside 5 4 3 2 2")
    play(state, 0, "aside 5 3 2")  # the army's second 5
    assert state.view(0)["aside"] == ids("5 5 4 3 2")


def test_expert_reshuffles_twice_then_draws_what_is_left():
    state = duel(level="expert", e_hand="5", f_hand="5 5 4 4 3 3")
    state.reshuffles = [2, 2]
    state.decks[E], state.discards[E] = [], ids("2 2")
    state._refill(E)
    assert len(state.hands[E]) == 3 and state.reshuffles[E] == 1 and state.discards[E] == []
    state.discards[E] = ids("3 3", state.hands[E])
    state._refill(E)
    assert len(state.hands[E]) == 5 and state.reshuffles[E] == 0
    state.discards[E] = ids("4", state.hands[E])
    state._refill(E)
    assert len(state.hands[E]) == 5 and state.discards[E] == ids("4", state.hands[E])  # no third rebuild


# ---------------------------------------------------------------------- notation, views, determinize
def test_notation_kinds_ids_and_helpful_errors():
    state = duel(e_hand="H 5 4 T 2 A", f_hand="5 5 4 4 3 3")
    assert GAME.parse_action(state, E, "open 3 5 t a") == {"type": "open", "castle": 3, "cards": ["5a", "T", "A1"]}
    assert GAME.parse_action(state, E, "O 3 hero 2 a1") == {"type": "open", "castle": 3, "cards": ["H", "2a", "A1"]}
    assert GAME.format_action({"type": "open", "castle": 3, "cards": ["5a", "T"]}) == "open 3 5a T"
    with pytest.raises(IllegalAction, match="numbered 1 to 6"):
        play(state, E, "open 9 5")
    for text, needle in [("open 13 5", "numbered from 1"), ("open 3 5 5", "no more 5"), ("open 3 x", "not a card"),
                         ("dance", "Moves:"), ("open", "e.g.")]:
        with pytest.raises(IllegalAction, match=needle):
            GAME.parse_action(state, E, text)


def test_views_hide_face_down_cards_until_revealed():
    state = duel(castles=[None, E, None, None, None, None], e_hand="5 4 3 2 2 2", f_hand="5 4 3 2 2 2")
    round_of(state, 1, "5 4", "3", 2, "5", "3 2")
    public = state.view(None)
    castle_two = next(f for f in public["fights"] if f["castle"] == 2)
    assert castle_two["revealed"] == [None, ["5a"]] and castle_two["counts"] == [2, 1]
    assert "hand" not in public
    assert state.view(E)["placed"]["2"] == ids("3 2") and "placed" not in public
    assert state.view(F)["hand"] == state.hands[F] and state.view(F)["placed"]["2"] == ["5a"]


def test_determinize_redraws_only_what_the_seat_cannot_know():
    state = duel(e_hand="5 4 3 2 2 2", f_hand="5 4 3 2 2 2")
    play(state, E, "open 1 5 4")
    world = state.determinize(F, random.Random(2))
    assert world.view(F) == state.view(F)
    assert world.hands[F] == state.hands[F]
    changed = any(state.determinize(F, random.Random(s)).fights[0]["cards"][E] != state.fights[0]["cards"][E]
                  for s in range(10))
    assert changed  # E's face-down cards are re-dealt for F


def test_options_are_checked():
    with pytest.raises(IllegalAction):
        GAME.new_game(2, seed=1, options={"level": "legendary"})
    with pytest.raises(IllegalAction, match="3 or 4 players"):
        GAME.new_game(2, seed=1, options={"mode": "two_sets"})
    with pytest.raises(IllegalAction, match="3 or 4 players"):
        GAME.new_game(2, seed=1, options={"mode": "teams"})
    with pytest.raises(IllegalAction, match="mode=teams"):
        GAME.new_game(3, seed=1)


# ---------------------------------------------------------------------- team variant (7.1)
def teams(players: int = 4, level: str = "basic") -> GuyenneState:
    """English army 0: seats 0 (first drawer) and 2; French army 1: seats 1 (first drawer) and 3 — or seat 1 alone
    with 3 players. English opens round 1."""
    state = GAME.new_game(players, seed=3, options={"level": level, "mode": "teams"})
    state.sides = ["E", "F"]
    state.members = [[0, 2], [1, 3]] if players == 4 else [[0, 2], [1]]
    state.army_of = [0, 1, 0, 1][:players]
    state.first, state.drawer = 0, [0, 0]
    state.leader = [team[0] for team in state.members]
    state.hands = [[] for _ in range(players)]
    for a in (0, 1):
        state.aside[a] = []
        state._deal(a)
    state._start_round_phase()
    return state


def test_g16_team_card_passing():
    state = teams()
    e1, e2 = 0, 2
    assert state.phase == "give" and state.to_act() == [0, 1]  # both teams' first drawers
    state.hands[e1] = ids("H 5 4 3 2 2")
    state.decks[0] = [c for c in C.ARMY if c not in state.hands[e1]]
    assert state.hands[e2] == []
    with pytest.raises(IllegalAction):
        state.apply(e1, {"type": "give", "cards": [], "leader": "partner"})  # at least one card
    with pytest.raises(IllegalAction):
        state.apply(e1, {"type": "give", "cards": list(state.hands[e1]), "leader": "partner"})  # keep one
    events = play(state, e1, "give 5 2 partner leads")
    assert len(state.hands[e1]) == 4 and state.hands[e2] == ids("5 2")
    assert [e.audience for e in events if e.kind == "given_cards"] == [(e1, e2)]  # the cards: giver and partner
    assert state.view(None)["leaders"][0] == e2
    play(state, 1, "give " + state.hands[1][0] + " me leads")
    assert state.phase == "open1" and state.to_act() == [e2]  # E2 makes the English team's first castle action


def test_g16_second_round_drawer_and_edge_cases():
    state = teams()
    state.phase, state.givers = "open1", []
    state.hands[0], state.hands[2] = ids("2 2"), ids("3", ids("2 2"))  # leftovers: E1 2, E2 1 (team 3)
    state.decks[0] = [c for c in C.ARMY if c not in state.hands[0] + state.hands[2]]
    state.drawer[0] = 1  # round 2: E2 draws
    state._refill(0)
    assert len(state.hands[2]) == 4 and len(state.hands[0]) == 2  # E2 draws 3: the team holds 6
    state._start_round_phase()
    assert 2 in state.givers
    gifts = [a["cards"] for a in state.legal_actions(2)]
    assert {len(g) for g in gifts} == {1, 2, 3}  # 1..min(5, hand - 1)

    state.hands[2], state.hands[0] = ids("4"), ids("3 3 2")  # the drawer holds 1 after drawing, the partner 3
    state._start_round_phase()
    assert [a["cards"] for a in state.legal_actions(2)] == [[], []]  # k = 0 (with either leader)
    play(state, 2, "give me leads")
    assert state.hands[2] == ids("4") and state.leader[0] == 2

    state.hands[2], state.hands[0] = [], ids("3 3 2")  # the drawer holds nothing: the partner gives instead
    state._start_round_phase()
    assert 0 in state.givers and 2 not in state.givers


def test_team_placement_order_own_castles_and_rotation():
    state = teams()
    state.phase, state.givers, state.leader = "open1", [], [0, 3]  # E1 and F2 lead
    state.hands = [ids("5 4 3"), ids("5 4 3"), ids("2 2 2"), ids("2 2 2")]
    assert state.to_act() == [0]
    play(state, 0, "open 2 5")
    assert state.to_act() == [3]  # the French leader answers at C1
    play(state, 3, "respond 2")
    assert state.to_act() == [1]  # the other French member opens C2
    play(state, 1, "open 5 5")
    assert state.to_act() == [2]  # the other English member answers at C2
    play(state, 2, "respond 2")
    assert state.phase == "reinforce" and state.rotation == [3, 0, 1, 2] and state.to_act() == [3]  # A31
    with pytest.raises(IllegalAction, match="own castle"):
        play(state, 3, "reinforce 5 2")
    play(state, 3, "reinforce 2 2")
    for seat in (0, 1, 2, 3):
        assert state.to_act() == [seat]
        play(state, seat, "pass")
    assert state.phase != "reinforce"  # all four passed one after another


def test_team_member_plays_all_his_cards_but_a_solo_player_keeps_one():
    state = teams(players=3)
    assert state.members[1] == [1] and state.to_act() == [0]  # only the English pair gives
    play(state, 0, "give " + " ".join(state.hands[0][:2]) + " me leads")
    every = [a for a in state.legal_actions(0) if len(a["cards"]) == len(state.hands[0])]
    assert every and len(state.hands[0]) <= 5  # E1 plays one castle only: he may put all his cards there
    state.apply(0, every[0])
    assert state.to_act() == [1]
    assert max(len(a["cards"]) for a in state.legal_actions(1)) == 5  # the solo player keeps one of six


def test_team_views_hide_the_partners_hand_and_rate_as_teams():
    state = teams()
    state.hands[0] = ids("H 5 4 3")
    state.hands[2] = ids("2 2", state.hands[0])
    mine = state.view(0)
    assert mine["hand"] == state.hands[0] and mine["discard"] == []  # A40: nothing he played or saw yet
    assert all(c not in str(mine) for c in state.hands[2])  # the partner's cards appear nowhere
    assert state.teams() == [[0, 2], [1, 3]]
    world = state.determinize(2, random.Random(1))  # E2 does not know E1's hand
    assert world.view(2) == state.view(2)
    assert any(state.determinize(2, random.Random(s)).hands[0] != state.hands[0] for s in range(5))
    assert state.scores() == [0.0] * 4


# ---------------------------------------------------------------------- two sets, free-for-all (7.2)
def two_sets(players: int = 3, first: int = 0) -> GuyenneState:
    state = GAME.new_game(players, seed=5, options={"mode": "two_sets"})
    state.first = first
    for a in range(players):
        state.hands[a] = ids("5 4 3 2 2 2")
        state.decks[a] = [c for c in C.ARMY if c not in state.hands[a]]
    return state


def test_g17_round_order_rotation_and_next_first_player():
    a, b, c = 0, 1, 2
    state = two_sets()
    assert state.phase == "direction" and state.to_act() == [a]
    events = play(state, a, "direction left")  # toward B
    assert events[0].data["order"] == [a, b, c]
    play(state, a, "open 2 5")  # A opens on A|B (castles 1–3)
    with pytest.raises(IllegalAction, match="frontier"):
        play(state, b, "open 5 5")  # B must answer on A|B first
    play(state, b, "respond 4")  # B answers there …
    with pytest.raises(IllegalAction, match="frontier"):
        play(state, b, "open 8 5")  # … and opens on B|C (castles 4–6), not elsewhere
    play(state, b, "open 5 5")
    play(state, c, "respond 4")
    play(state, c, "open 8 5")  # C opens on C|A (castles 7–9)
    assert state.to_act() == [a]
    play(state, a, "respond 4")  # A answers last
    assert state.phase == "reinforce" and state.rotation == [b, c, a] and state.to_act() == [b]  # A35
    for seat in (b, c, a):
        play(state, seat, "pass")
    assert state.round_no == 2 and state.first == b  # the first-player card passes to the left neighbour
    assert state.castles[1] == a and state.castles[4] == b and state.castles[7] == c  # 5 beats 4 each time


def test_g17_going_right_reverses_the_order():
    state = two_sets()
    events = play(state, 0, "direction right")
    assert events[0].data["order"] == [0, 2, 1]
    assert [step[:2] for step in state.steps] == [["open", 0], ["respond", 2], ["open", 2], ["respond", 1],
                                                   ["open", 1], ["respond", 0]]
    assert [step[2] for step in state.steps] == [2, 2, 1, 1, 0, 0]  # C|A (7–9), then B|C (4–6), then A|B (1–3)


@pytest.mark.parametrize(("held", "points"), [(("L1", "R1"), 4), (("L3", "R3"), 2), (("L1", "L2", "R2"), 5)])
def test_g17_scoring_line_with_adjacent_inner_castles(held, points):
    state = two_sets()
    p = 1  # B: left frontier A|B (castles 1–3), right frontier B|C (castles 4–6)
    where = {"L1": 1, "L2": 2, "L3": 3, "R1": 4, "R2": 5, "R3": 6}
    assert state.line(p) == [3, 2, 1, 4, 5, 6]
    for name in held:
        state.castles[where[name] - 1] = p
    assert state.points(p) == points


def test_g17_all_six_wins_and_two_opposite_players_can_win_together():
    state = two_sets(players=4)
    for k in state.line(0):
        state.castles[k - 1] = 0
    state.phase = "reinforce"
    state._end_round()
    assert state.is_over() and state.six_winners == [0] and state.ranking()[0] == 1

    state = two_sets(players=4)
    for p in (0, 2):  # opposite players share no frontier (A37)
        for k in state.line(p):
            state.castles[k - 1] = p
    state._end_round()
    assert state.six_winners == [0, 2] and state.scores()[0] == state.scores()[2] == 12.0
    assert state.ranking()[0] == state.ranking()[2] == 1


def test_team_loser_of_a_neutral_castle_chooses_from_his_own_cards():
    """4.3.1 with teams (7.1): the losing army's member chooses among his cards there, even when seat and army
    numbers differ (here army 0 is seats 1 and 2, army 1 seats 0 and 3)."""
    state = teams(level="advanced")
    state.members, state.army_of, state.sides = [[1, 2], [0, 3]], [1, 0, 0, 1], ["E", "F"]
    state.first, state.phase, state.givers, state.leader = 0, "open1", [], [1, 0]
    state.hands[1], state.hands[0] = ids("H 5"), ids("4 2 2 3")
    state.hands[2], state.hands[3] = ids("3 2", state.hands[1]), ids("2 2", state.hands[0])
    for a, (m, n) in enumerate(state.members):
        state.decks[a] = [c for c in C.ARMY if c not in state.hands[m] + state.hands[n]]
        state.discards[a], state.removed[a] = [], []
    play(state, 1, "open 3 H")
    play(state, 0, "respond 4 2 2")
    play(state, 3, "open 5 2")
    play(state, 2, "respond 3")
    for seat in (0, 1, 3, 2):
        play(state, seat, "pass")
    # castle 3: the hero wins; army 1 (seat 0) lost with 4 + 2 + 2 and chooses: {4}, {2, 2}, {4, 2} ×2, {4, 2, 2}
    assert state.castles[2] == 0 and state.phase == "losses" and state.to_act() == [0]
    assert len(state.legal_actions(0)) == 5 and state.removed == [[], []]
    play(state, 0, "lose 2 2")
    # castle 5: army 0's 3 beats army 1's 2: its only card is lost without asking
    assert state.castles[4] == 0 and state.removed == [[], ids("2 2 2")]
    assert sorted(state.removed[1] + state.discards[1] + state.hands[0] + state.hands[3] + state.decks[1]) == \
        sorted(C.ARMY)


def test_team_fight_narration_names_the_member_who_fought():
    """The fight event's winner is an army; the narration names the seat that played there (7.1: the member at
    that castle), not the seat whose number equals the army's."""
    state = teams()
    state.members, state.army_of, state.sides = [[1, 2], [0, 3]], [1, 0, 0, 1], ["E", "F"]
    state.first, state.phase, state.givers, state.leader = 0, "open1", [], [1, 0]
    state.hands = [ids("2 2"), ids("5 4"), ids("3 2"), ids("4 2")]
    play(state, 1, "open 3 5")
    play(state, 0, "respond 2")
    play(state, 3, "open 5 4")
    play(state, 2, "respond 2")
    events = []
    for seat in (0, 1, 3, 2):
        events += play(state, seat, "pass")
    lines = [GAME.describe_event(e) for e in events if e.kind == "fight"]
    assert lines == ["Castle 3: {P2} 5 vs {P1} 2, {P2} takes the castle.",
                     "Castle 5: {P3} 2 vs {P4} 4, {P4} takes the castle."]


def test_reinforce_hint_names_one_of_the_viewers_own_castles():
    state = teams()
    state.phase, state.givers, state.leader = "open1", [], [0, 3]
    state.hands = [ids("5 4 3"), ids("5 4 3"), ids("2 2 2"), ids("2 2 2")]
    play(state, 0, "open 2 5")
    play(state, 3, "respond 2")
    play(state, 1, "open 5 5")
    play(state, 2, "respond 2")
    play(state, 3, "pass")
    assert state.to_act() == [0]
    assert "/move reinforce 2 4" in GAME.render_view(state.view(0))  # his castle 2, not castle 5 of the others
    play(state, 0, "pass")
    assert "/move reinforce 5 4" in GAME.render_view(state.view(1))


def test_wrong_move_texts_get_an_example_of_the_same_move():
    state = duel(e_hand="H 5 4 T 2 A", f_hand="5 5 4 4 3 3")
    for text, needle in [("respond", "e.g. respond 4 2"), ("reinforce 3", "e.g. reinforce 3 5 2"),
                         ("lose", "e.g. lose 4"), ("respond x", "e.g. respond 4 2"), ("pass 3", "just pass"),
                         (None, "Moves: open 3 5 2")]:
        with pytest.raises(IllegalAction, match=needle):
            GAME.parse_action(state, E, text)


def test_reinforce_names_a_castle_number_not_true():
    state = duel(e_hand="5 4 3 2 2 2", f_hand="5 4 3 2 2 2")
    round_of_placement = ["open 1 5", "respond 5", "open 2 4", "respond 4"]
    for seat, text in zip((E, F, F, E), round_of_placement):
        play(state, seat, text)
    with pytest.raises(IllegalAction, match="Reinforce one of"):
        state.apply(F, {"type": "reinforce", "castle": True, "cards": ids("3")})
    assert state.fights[0]["cards"][F] == ids("5")


def test_determinize_keeps_the_unplayed_hero_in_hand():
    """2.4: the hero starts in hand and leaves it only face down at a castle; until it is revealed or its army
    concedes a fight, nobody may imagine it in the deck or the discard."""
    state = duel(e_hand="H 5 4 3 2 2", f_hand="5 4 3 2 2 2")
    for s in range(30):
        assert "H" in state.determinize(F, random.Random(s)).hands[E]
    play(state, E, "open 1 5 4")
    homes = set()
    for s in range(60):
        world = state.determinize(F, random.Random(s))
        assert "H" not in world.decks[E] + world.discards[E]
        homes.add("H" in world.hands[E])
    assert homes == {True, False}  # in his hand or among his two face-down cards at castle 1


def test_determinize_keeps_revealed_cards_in_the_discard_and_hides_conceded_ones():
    """6: a card revealed in a fight is known to all in its owner's discard (until his next reshuffle); a
    conceding defender's cards stay unknown to the others (A13)."""
    state = duel(castles=[None, E, None, None, None, None], e_hand="5 4 3 2 2 2", f_hand="5 4 3 2 2 2")
    round_of(state, 1, "5 4", "3", 2, "5", "3 2")
    play(state, E, "concede")  # castle 2: E's 3 2 go to his discard unseen
    assert state.round_no == 2 and sorted(state.discards[E]) == sorted(ids("5 4 3 2"))
    known = ids("5 4")  # E's cards revealed at castle 1
    changed = False
    for s in range(30):
        world = state.determinize(F, random.Random(s))
        assert world.view(F) == state.view(F)
        assert set(known) <= set(world.discards[E]) and len(world.discards[E]) == 4
        changed |= sorted(world.discards[E]) != sorted(state.discards[E])
        assert "H" not in world.decks[E]  # E conceded, so it may be in his discard, but not in his deck
    assert changed  # the conceded 3 and 2 are re-dealt
    state.decks[E], state.hands[E] = [], state.hands[E][:1]
    state._refill(E)  # the discard becomes the deck: nothing in it is known any more
    assert state.seen[E] == [] and state.hero_at[E] == 2


def test_team_member_sees_what_he_put_in_the_shared_discard_and_what_was_revealed():
    """A40: a team member sees the cards of the shared discard that he played himself or that were revealed,
    not those his partner discarded unseen."""
    state = teams()
    state.phase, state.givers, state.leader = "open1", [], [0, 3]
    state.castles[1], state.castles[4] = 1, 0  # castle 2 French, castle 5 English
    state.hands = [ids("5 4 3"), ids("5 4 3"), ids("2 2 2", ids("5 4 3")), ids("2 2 2", ids("5 4 3"))]
    for a, (m, n) in enumerate(state.members):
        state.decks[a] = [c for c in C.ARMY if c not in state.hands[m] + state.hands[n]]
    play(state, 0, "open 2 5")  # E1 attacks the French castle 2
    play(state, 3, "respond 2 2")  # F2 defends it
    play(state, 1, "open 5 5")  # F1 attacks the English castle 5
    play(state, 2, "respond 2")  # E2 defends it
    for seat in (3, 0, 1, 2):
        play(state, seat, "pass")
    play(state, 3, "concede")
    play(state, 2, "concede")
    assert state.round_no == 2
    e_two = ids("2", ids("5 4 3"))
    assert state.view(2)["discard"] == ids("5") + e_two  # E1's revealed 5 and his own conceded 2
    assert state.view(0)["discard"] == ids("5")  # not E2's unseen 2
    assert "discard" not in state.view(None)
    changed = False
    for s in range(20):
        world = state.determinize(0, random.Random(s))
        assert world.view(0) == state.view(0) and len(world.discards[0]) == 2 and ids("5")[0] in world.discards[0]
        assert world.mine[2] == [c for c in world.discards[0] if c != ids("5")[0]]
        changed |= world.mine[2] != e_two
        assert state.determinize(2, random.Random(s)).view(2) == state.view(2)
    assert changed


def test_move_hints_use_the_viewers_cards_and_a_free_castle():
    """The hint under a private view is a move that works: a card he holds, a castle not yet contested, and
    'keeping one' only for a player with a second castle to play (A7; 7.1: a team member plays one)."""
    state = duel(e_hand="4 4 3 A 2 2", f_hand="5 5 4 4 3 3")
    assert "keeping one: /move open 1 4" in GAME.render_view(state.view(E))
    play(state, E, "open 1 4")
    assert "keeping one: /move respond 5" in GAME.render_view(state.view(F))
    play(state, F, "respond 5")
    text = GAME.render_view(state.view(F))
    assert "/move open 2 5" in text and "keeping" not in text
    state = teams()
    state.phase, state.givers, state.leader = "open1", [], [0, 3]
    state.hands = [ids("5 4 3"), ids("5 4 3"), ids("2 2 2"), ids("2 2 2")]
    text = GAME.render_view(state.view(0))
    assert "/move open 1 5" in text and "keeping" not in text
    play(state, 0, "open 1 5")
    play(state, 3, "respond 2")
    assert "/move open 2 5" in GAME.render_view(state.view(1))
    for case in (two_sets(), teams()):
        seat = case.to_act()[0]
        assert GAME.render_view(case.view(seat))  # direction / give hints render


def test_determinize_keeps_the_cards_a_member_gave_with_his_partner():
    """6 / 7.1: the cards given to the partner are known to the giver; while the partner holds them or has them
    face down at his castle, the giver's determinize leaves them there (the others' gifts it re-deals)."""
    state = teams()
    e1, e2 = 0, 2
    state.hands[e1] = ids("H 5 4 3 2 2")
    state.decks[0] = [c for c in C.ARMY if c not in state.hands[e1]]
    play(state, e1, "give 5 2 partner leads")
    gift = ids("5 2")
    for s in range(20):
        assert state.determinize(e1, random.Random(s)).hands[e2] == gift  # E2 held nothing before
    play(state, 1, "give " + state.hands[1][0] + " me leads")
    play(state, e2, "open 3 5")
    for s in range(20):
        world = state.determinize(e1, random.Random(s))
        assert C.order(world.hands[e2] + world.fights[0]["cards"][0]) == gift  # which one went: unseen by E1
        assert state.determinize(1, random.Random(s)).given[e1] == []  # the French do not know the gift
    assert any(state.determinize(1, random.Random(s)).hands[e2] != gift[1:] for s in range(20))


def test_ai_values_draw_the_opponents_cards_as_determinize_deals_them():
    """The AI's shortcut draws only the opponent's face-down cards at the seat's own fights; they must follow
    the same law as in a whole determinization: here E's two cards at castle 1 come from his four in hand, two
    face down and his deck, and his unplayed hero is one of the six in hand or face down."""
    state = duel(e_hand="H 5 4 3 2 2", f_hand="5 4 3 2 2 2")
    play(state, E, "open 1 5 4")
    counts: dict[str, dict[str, int]] = {"sketch": {}, "determinize": {}}
    draws = 3000
    for s in range(draws):
        for way, world in (("sketch", state._sketch(F, random.Random(s))),
                           ("determinize", state.determinize(F, random.Random(s)))):
            for card in world.fights[0]["cards"][E]:
                counts[way][card[0]] = counts[way].get(card[0], 0) + 1
    assert state.fights[0]["cards"][E] == ids("5 4")  # the real cards stay where they are
    for kind in set(counts["sketch"]) | set(counts["determinize"]):
        sketched, dealt = counts["sketch"].get(kind, 0) / draws, counts["determinize"].get(kind, 0) / draws
        assert abs(sketched - dealt) < 0.04, (kind, sketched, dealt)
    assert abs(counts["sketch"]["H"] / draws - 2 / 6) < 0.03  # the hero: one of six places, two of them here


def test_ai_values_where_nothing_is_hidden_and_where_the_ai_needs_a_whole_world():
    """With no face-down card of the opponent at the seat's fights the shortcut is exactly evaluate_actions;
    a fight to decide, losses to choose and teams (a partner's face-down cards) go to a whole determinization."""
    state = duel(castles=[None, E, None, None, None, None], e_hand="5 4 3 2 2 2", f_hand="5 4 3 2 2 2")
    actions = state.ai_actions(E)
    assert state.ai_values(E, actions, random.Random(1)) == state.evaluate_actions(E, actions)
    round_of(state, 1, "5 4", "3", 2, "5", "3 2")
    assert state.phase == "defend" and state.ai_values(E, state.ai_actions(E), random.Random(1)) is None
    teams = GAME.new_game(4, seed=3, options={"mode": "teams"})
    seat = teams.to_act()[0]
    assert teams.ai_values(seat, teams.ai_actions(seat), random.Random(1)) is None


def test_a_loss_is_checked_exactly_as_the_listed_loss_options():
    """The check of a chosen loss (without listing every option) accepts exactly the options ``lose`` offers:
    some of the cards there, in their order, worth the strongest of them (4.3.1, A23)."""
    from itertools import permutations
    for kinds in ("5", "5 2", "4 3 T", "H 2 A", "5 4 3 2 A", "T A 2"):
        mine = ids(kinds)
        state = duel(level="advanced")
        state.fights = [{"cards": [mine, []]}]
        state.fight_index = 0
        options = state._loss_options(E)
        top = max(C.PRINTED[c[0]] for c in mine)
        tried = 0
        for size in range(len(mine) + 1):
            for chosen in permutations(mine, size):
                tried += 1
                assert state._is_loss_option(list(chosen), mine, top) == (list(chosen) in options), chosen
        assert tried > len(options)
    assert not GuyenneState._is_loss_option(["5a", "5a"], ids("5 5"), 5)
    assert not GuyenneState._is_loss_option("5a", ids("5"), 5)
    assert not GuyenneState._is_loss_option(["5a", 3], ids("5 3"), 5)


def test_two_sets_own_view_shows_the_players_own_frontiers():
    """Four players: the table's board lists all four frontiers, a player's own view his two (shorter turns),
    chained at him in one line: left neighbour ◀ three castles ▶ him ◀ three castles ▶ right neighbour."""
    state = GAME.new_game(4, seed=5, options={"mode": "two_sets"})
    public = GAME.render_view(state.view(None))
    assert sum("◀ " in line for line in public.splitlines()) == 4
    rows = {line.split("(inner → outer) ")[-1] for line in public.splitlines() if "◀ " in line}
    for seat in range(4):
        you = f"{{P{seat + 1}}}"
        mine = [line for line in GAME.render_view(state.view(seat)).splitlines() if "◀ " in line]
        assert len(mine) == 1, mine
        chain = mine[0].split("(inner → outer) ")[-1]
        left, right = chain.split(f" ▶ {you} ◀ ")
        assert f"{left} ▶ {you}" in rows and f"{you} ◀ {right}" in rows  # exactly his two frontiers
        assert chain.count(you) == 1 and sum(part[:1].isdigit() for part in chain.split()) == 6
    three = GAME.new_game(3, seed=5, options={"mode": "two_sets"})
    assert sum("◀ " in line for line in GAME.render_view(three.view(0)).splitlines()) == 3
