"""Mit List und Tücke: every worked example and derived case of the rules file (section 7), notation and views."""
from __future__ import annotations

import random
import re

import pytest

import rules
from rules.api import IllegalAction
from rules.list_und_tuecke.cards import deck, name, parse_card
from rules.list_und_tuecke.scoring import best_hide, round_score
from rules.list_und_tuecke.state import LuTState

GAME = rules.get_game("list_und_tuecke")


def cards(text: str) -> list[int]:
    return sorted(parse_card(t) for t in text.split())


def position(n: int, hands: dict[int, str], leader: int = 0, trick: str = "", dealer: int | None = None,
             trick_no: int = 1, round_no: int = 1) -> LuTState:
    """A state in phase play with the given hands (others empty-ish) and cards already in the trick."""
    s = LuTState(n, seed=1)
    s.round_no, s.trick_no, s.leader = round_no, trick_no, leader
    s.dealer = (leader - 1) % n if dealer is None else dealer
    s.hands = [cards(hands.get(p, "")) for p in range(n)]
    s.phase = "play"
    for i, t in enumerate(trick.split()):
        s.trick.append([(leader + i) % n, parse_card(t)])
    return s


def play(s: LuTState, seat: int, card: str):
    return s.apply(seat, {"type": "play_card", "card": card})


def pick(s: LuTState, seat: int, text: str):
    return s.apply(seat, {"type": "pick_cards", "cards": [name(c) for c in cards(text)]})


def kinds(events) -> list[str]:
    return [e.kind for e in events]


# ---------------------------------------------------------------- 1.2 / 1.3 deck and constants
@pytest.mark.parametrize(("n", "size", "present", "absent", "h", "l"), [
    (4, 56, ["R14", "Y14"], ["R15", "G15"], 2, 2),
    (5, 70, ["R18", "Y18", "G17"], ["G18", "B18", "R19"], 3, 2),
    (6, 84, ["R21", "B21"], [], 3, 3),
])
def test_deck_and_constants(n, size, present, absent, h, l):
    names = {name(c) for c in deck(n)}
    assert len(names) == size == 14 * n
    assert set(present) <= names and not set(absent) & names
    s = GAME.new_game(n, seed=3)
    assert (s.h, s.l) == (h, l)
    assert all(len(hand) == 14 for hand in s.hands)
    assert sorted(c for hand in s.hands for c in hand) == sorted(deck(n))


def test_player_count_and_options_are_checked():
    for bad in (3, 7):
        with pytest.raises(IllegalAction, match="4, 5 or 6"):
            GAME.new_game(bad, seed=1)
    with pytest.raises(IllegalAction, match="no options"):
        GAME.new_game(4, seed=1, options={"speed": 2})


# ---------------------------------------------------------------- 7.1 trick resolution
MARC, CARL, ANNE, MAX, HERMAN = range(5)


def t1_position() -> LuTState:
    s = position(5, {HERMAN: "G5 Y16 R1", MARC: "B9", CARL: "B10", ANNE: "B11", MAX: "B12"},
                 leader=MARC, trick="R10 Y8 R14 B2")
    return s


def test_t1_fourth_colour_rejected_then_anne_picks_and_max_receives():
    s = t1_position()
    assert [a["card"] for a in s.legal_actions(HERMAN)] == ["R1", "Y16"]
    before = s.to_json()
    with pytest.raises(IllegalAction, match="three colours"):
        play(s, HERMAN, "G5")
    assert s.to_json() == before
    events = play(s, HERMAN, "Y16")
    resolved = [e for e in events if e.kind == "trick_resolved"][0].data
    assert (resolved["high"], resolved["low"], resolved["trump"]) == (ANNE, MAX, "R")
    assert s.to_act() == [ANNE] and s.phase == "pick"
    for bad in ("R14 R10", "R14 R10 Y16 Y8", "R14 R10 G5"):
        with pytest.raises(IllegalAction):
            pick(s, ANNE, bad)
    with pytest.raises(IllegalAction):
        s.apply(ANNE, {"type": "pick_cards", "cards": ["R10", "R10", "R14"]})
    with pytest.raises(IllegalAction, match="not your turn"):
        pick(s, MARC, "R14 R10 Y16")
    assert s.to_json()["phase"] == "pick"
    pick(s, ANNE, "R14 R10 Y16")
    assert sorted(name(c) for pile in s.piles[ANNE] for c in pile) == ["R10", "R14", "Y16"]
    assert sorted(name(c) for pile in s.piles[MAX] for c in pile) == ["B2", "Y8"]
    assert s.to_act() == [MAX] and s.phase == "play" and s.trick == []
    assert len(s.legal_actions(MAX)) == len(s.hands[MAX])  # the leader may play anything


def test_t2_tie_for_lowest_foreign_goes_to_the_earlier_card():
    s = position(5, {HERMAN: "Y9 B1"}, leader=MARC, trick="R10 Y3 B3 R2")
    events = play(s, HERMAN, "Y9")
    resolved = [e for e in events if e.kind == "trick_resolved"][0].data
    assert (resolved["high"], resolved["low"]) == (MARC, CARL)
    pick(s, MARC, "R10 R2 Y9")
    assert sorted(name(c) for pile in s.piles[CARL] for c in pile) == ["B3", "Y3"]
    assert s.to_act() == [CARL]


def test_t3_all_trump_trick_rest_leaves_the_round_and_high_leads():
    s = position(4, {3: "G8 R1"}, leader=0, trick="G5 G11 G2")
    events = play(s, 3, "G8")
    assert [e for e in events if e.kind == "trick_resolved"][0].data["low"] is None
    assert s.to_act() == [1]
    events = pick(s, 1, "G11 G8")
    assert "cards_removed" in kinds(events)
    assert sorted(name(c) for c in s.out_of_round) == ["G2", "G5"]
    assert [len(p) for p in s.piles[1]] == [0, 2, 0, 0]
    assert all(not any(p) for seat in (0, 2, 3) for p in s.piles[seat])
    assert s.to_act() == [1]


def test_t4_early_end_when_the_player_holds_only_the_fourth_colour():
    s = position(5, {3: "B4 B7", 0: "R3 R4", 1: "G3 G4", 2: "Y3 Y4", 4: "R5 R6"}, leader=0, trick="",
                 trick_no=13)
    s.piles[0][0] = cards("R11 R12")  # some collection to be scored
    s.piles[0][1] = cards("G11")
    play(s, 0, "R3")
    play(s, 1, "G3")
    events = play(s, 2, "Y3")  # three colours; seat 3 holds only blue
    assert "round_aborted" in kinds(events)
    aborted = [e for e in events if e.kind == "round_aborted"][0].data
    assert aborted["seat"] == 3
    scored = [e for e in events if e.kind == "round_scored"][0].data
    assert scored["scores"] == [2, 0, 0, 0, 0]  # open R×2, G×1, nothing else: 2×1
    assert s.round_no == 2 and all(len(h) == 14 for h in s.hands)  # next round dealt, the hands were worthless
    # the new round's board still says why the last one ended, and which trick was cut short, until its first card
    board = GAME.render_view(s.view(None))
    assert "{P4} could not play: the previous round ended early." in board
    assert "Last trick was cut short: {P1} 🟥R3 · {P2} 🟩G3 · {P3} 🟨Y3" in board
    play(s, s.leader, name(s.hands[s.leader][0]))
    board = GAME.render_view(s.view(None))
    assert "could not play" not in board and "cut short" not in board


# ---------------------------------------------------------------- 7.2 scoring
@pytest.mark.parametrize(("counts", "hidden", "expected"), [
    ([6, 5, 0, 3], None, 10),  # S1 Marc: G5 R6 Y3
    ([5, 0, 4, 3], None, 6),  # S2 Carl
    ([2, 8, 7, 2], [0, 3], 14),  # S3 Anne: open B7 G8, 4 hidden
    ([1, 0, 1, 7], None, 7),  # S4 Max
    ([0, 3, 5, 0], None, 15),  # S5 Herman
    ([9, 0, 0, 0], None, 0),  # S6 one colour
    ([0, 0, 0, 0], None, 0),  # D9 no cards
    ([10, 1, 0, 0], None, 10),
    ([4, 4, 4, 0], None, 4),
    ([6, 4, 3, 2], [2, 3], 4),  # open R6 G4, hidden 5
    ([2, 3, 4, 6], [2, 3], 0),  # open R2 G3, hidden 10
])
def test_round_scores(counts, hidden, expected):
    assert round_score(counts, hidden) == expected


# ---------------------------------------------------------------- 7.3 derived cases
def test_d1_a_third_colour_may_still_be_introduced():
    s = position(4, {2: "B3 Y7 R2"}, leader=0, trick="R5 G9")
    assert sorted(a["card"] for a in s.legal_actions(2)) == ["B3", "R2", "Y7"]


def test_d2_three_colour_limit_restricts_the_last_player():
    s = position(4, {3: "Y1 Y12 G4"}, leader=0, trick="R5 G9 B3")
    assert [a["card"] for a in s.legal_actions(3)] == ["G4"]
    events = play(s, 3, "G4")
    resolved = [e for e in events if e.kind == "trick_resolved"][0].data
    assert (resolved["high"], resolved["low"]) == (0, 2)
    pick(s, 0, "R5 G9")
    assert s.to_act() == [2]


def test_d3_early_end_for_the_last_seat_and_dealer_rotation():
    s = position(4, {3: "Y1 Y12", 0: "R1 R2", 1: "G1 G2", 2: "B1 B2"}, leader=0, trick="R5 G9", dealer=3,
                 trick_no=13)
    s.hands[2] = cards("B3 B2")
    events = play(s, 2, "B3")
    assert "round_aborted" in kinds(events)
    assert sorted(name(c) for c in s.out_of_round) == []  # a new round began: its own removed cards
    assert s.round_no == 2 and s.dealer == 0 and s.to_act() == [1]


def test_d4_leader_wins_with_a_low_trump():
    s = position(4, {3: "G2"}, leader=0, trick="R1 G14 B9")
    events = play(s, 3, "G2")
    resolved = [e for e in events if e.kind == "trick_resolved"][0].data
    assert (resolved["high"], resolved["low"]) == (0, 3)


def test_d5_six_player_distribution():
    s = position(6, {5: "G15"}, leader=0, trick="Y2 R9 G1 R21 Y11")
    events = play(s, 5, "G15")
    resolved = [e for e in events if e.kind == "trick_resolved"][0].data
    assert (resolved["high"], resolved["low"]) == (4, 2)
    pick(s, 4, "Y2 Y11 R21")
    assert sorted(name(c) for pile in s.piles[2] for c in pile) == ["G1", "G15", "R9"]
    assert s.to_act() == [2]


def test_d6_six_player_all_trump():
    s = position(6, {5: "B17"}, leader=0, trick="B5 B20 B1 B13 B9")
    play(s, 5, "B17")
    assert s.to_act() == [1]
    pick(s, 1, "B20 B17 B13")
    assert sorted(name(c) for c in s.out_of_round) == ["B1", "B5", "B9"]
    assert s.to_act() == [1]


def d7_position() -> LuTState:
    # P3 (seat 2) is high with R7; Y4 and G8 are in the trick; seat 3 plays last and is low.
    s = position(5, {4: "G1 G2"}, leader=0, trick="R2 G8 R7 Y4", trick_no=5)
    s.piles[2] = [cards("R11 R12 R13"), cards("G11 G12"), cards("B11"), []]
    s._rescore(2)
    return s


def test_d7_hiding_is_triggered_by_a_pick():
    s = d7_position()
    play(s, 4, "G1")
    assert s.to_act() == [2]
    pick(s, 2, "Y4 R7 G8")
    assert s.phase == "hide" and s.to_act() == [2]
    assert [len(p) for p in s.piles[4]] == [0, 0, 0, 0]  # the rest waits for the hiding
    with pytest.raises(IllegalAction):
        s.apply(2, {"type": "hide_colors", "colors": ["B", "B"]})
    s.apply(2, {"type": "hide_colors", "colors": ["B", "Y"]})
    view = s.view(None)
    assert view["hidden_colours"][2] == ["B", "Y"] and view["hidden_counts"][2] == 2
    assert set(view["open_piles"][2]) == {"R", "G"}
    assert [len(p) for p in s.piles[4]] == [1, 1, 0, 0]  # low (G1) got R2 and G1
    # later a yellow card joins the hidden piles, and the score is floor(12 / 3)
    s.piles[2][3].append(parse_card("Y10"))
    s._rescore(2)
    assert s.points[2] == 4
    # a second hiding is never offered
    assert not s._needs_hide(2)


def test_d8_both_winners_hide_after_the_same_trick_high_first():
    s = position(4, {3: "G5 G6"}, leader=0, trick="R9 G1 Y2", trick_no=3)
    s.piles[0] = [cards("R11"), cards("G11"), cards("B11"), []]  # high (seat 0) lacks yellow
    s.piles[1] = [cards("R12"), [], cards("B12"), cards("Y12")]  # low (seat 1, G1) lacks green
    play(s, 3, "G5")
    assert s.to_act() == [0]
    pick(s, 0, "R9 Y2")
    assert s.phase == "hide" and s.to_act() == [0]
    s.apply(0, {"type": "hide_colors", "colors": ["G", "B"]})
    assert s.phase == "hide" and s.to_act() == [1]  # low received G1 G5 and now holds four colours
    s.apply(1, {"type": "hide_colors", "colors": ["R", "G"]})
    assert s.phase == "play" and s.to_act() == [1]


def test_a13_hiding_in_the_last_trick_is_automatic():
    s = position(4, {3: "G5"}, leader=0, trick="R9 G1 Y2", trick_no=14)
    s.piles[0] = [cards("R11 R12 R13"), cards("G11"), cards("B11 B12"), []]
    play(s, 3, "G5")
    events = pick(s, 0, "R9 Y2")
    hidden = [e for e in events if e.kind == "colors_hidden" and e.data["seat"] == 0][0].data
    assert hidden["colors"] == ["G", "Y"] and hidden["auto"]  # R×4 and B×2 stay open
    assert best_hide([4, 1, 2, 1]) == [1, 3]


def test_d10_rotation_over_a_four_player_game():
    """First dealer P4: rounds dealt by P4, P1, P2, P3 with leads P1..P4, then the end — early ends included."""
    for seed in range(6):
        s = LuTState(4, seed=seed)
        s.dealer = 3
        starts = [(e.data["dealer"], e.data["leader"]) for e in s._start_round() if e.kind == "round_started"]
        rng = random.Random(seed)
        while not s.is_over():
            seat = s.to_act()[0]
            for e in s.apply(seat, rng.choice(s.legal_actions(seat))):
                if e.kind == "round_started":
                    starts.append((e.data["dealer"], e.data["leader"]))
        assert starts == [(3, 0), (0, 1), (1, 2), (2, 3)]
        assert len(s.round_scores) == 4
        assert s.scores() == [float(sum(r[p] for r in s.round_scores)) for p in range(4)]


def test_shared_victory_on_equal_totals():
    s = GAME.new_game(4, seed=1)
    s.phase, s.totals = "over", [30, 30, 12, 5]
    assert s.ranking() == [1, 1, 3, 4]


# ---------------------------------------------------------------- notation
def test_notation_round_trips_and_is_forgiving():
    s = t1_position()
    assert GAME.parse_action(s, HERMAN, " y16 ") == {"type": "play_card", "card": "Y16"}
    assert GAME.parse_action(s, HERMAN, "play R1") == {"type": "play_card", "card": "R1"}
    play(s, HERMAN, "Y16")
    for text in ("pick y16 r14 r10", "R14, R10, Y16", "take r10r14y16"):
        assert GAME.parse_action(s, ANNE, text) == {"type": "pick_cards", "cards": ["R10", "R14", "Y16"]}
    for action in s.legal_actions(ANNE):
        assert GAME.parse_action(s, ANNE, GAME.format_action(action)) == action
        assert GAME.parse_action(s, ANNE, GAME.format_action(action).lower()) == action
    assert GAME.parse_action(s, ANNE, "hide by") == {"type": "hide_colors", "colors": ["B", "Y"]}
    assert GAME.parse_action(s, ANNE, "hide yellow blue") == {"type": "hide_colors", "colors": ["B", "Y"]}


@pytest.mark.parametrize(("text", "expected"), [
    ("", "Pick 3 cards"), ("dance", "Pick 3 cards"), ("play", "Play one card"), ("hide R", "two colours"),
    ("pick Q5", "Name the cards"),
])
def test_bad_notation_says_what_is_expected(text, expected):
    s = t1_position()
    play(s, HERMAN, "Y16")
    with pytest.raises(IllegalAction, match=expected):
        GAME.parse_action(s, ANNE, text)


def test_bad_play_notation_lists_the_hand():
    s = t1_position()
    with pytest.raises(IllegalAction, match="You hold: R1 G5 Y16"):
        GAME.parse_action(s, HERMAN, "seven of hearts")


# ---------------------------------------------------------------- views and hidden information
def shows(text: str, card: str) -> bool:
    return re.search(rf"(?<![0-9A-Z]){card}(?![0-9])", text) is not None


def test_views_show_each_person_only_their_own_hand():
    s = GAME.new_game(4, seed=21)
    public = GAME.render_view(s.view(None))
    mine = GAME.render_view(s.view(0))
    assert "hand" not in s.view(None) and "Your hand" not in public
    assert all(shows(mine, name(c)) for c in s.hands[0])
    for other in (1, 2, 3):
        assert not any(shows(mine, name(c)) for c in s.hands[other])
    assert not any(shows(public, name(c)) for hand in s.hands for c in hand)


def test_hidden_split_is_private_but_the_total_is_public():
    s = d7_position()
    play(s, 4, "G1")
    pick(s, 2, "Y4 R7 G8")
    s.apply(2, {"type": "hide_colors", "colors": ["B", "Y"]})
    assert s.view(2)["own_hidden"] == {"B": ["B11"], "Y": ["Y4"]}
    assert "own_hidden" not in s.view(None) and s.view(0)["own_hidden"] == {}
    board = GAME.render_view(s.view(None))
    assert "hidden 🟦B🟨Y×2" in board and "B11" not in board


def test_render_is_compact_and_names_who_acts():
    s = t1_position()
    text = GAME.render_view(s.view(None))
    assert "{P5} to play a card." in text and "trump 🟥R" in text
    assert "only 🟥R/🟦B/🟨Y may follow" in text
    assert len(text.splitlines()) <= 25
    mine = GAME.render_view(s.view(HERMAN))
    assert "play one of: R1 Y16" in mine


def test_determinize_redraws_only_other_hands():
    s = GAME.new_game(5, seed=4)
    world = s.determinize(0, random.Random(1))
    assert world.hands[0] == s.hands[0]
    assert [len(h) for h in world.hands] == [len(h) for h in s.hands]
    assert world.hands[1:] != s.hands[1:]
    assert sorted(c for h in world.hands for c in h) == sorted(c for h in s.hands for c in h)
    assert world.view(0) == s.view(0)


def test_determinize_keeps_that_the_player_to_act_can_follow_three_colours():
    """Rules 4.7 / 3.3 FOLLOW: the round did not end, so the player facing three colours holds one of them.

    Every seat saw that the pre-check passed; a re-deal leaving him only the fourth colour is a world that
    cannot be (he would be to act with no legal card). The rest of the unseen cards is still re-drawn.
    """
    s = position(4, {0: "Y2", 1: "Y4", 2: "Y6", 3: "G4 Y1"}, leader=0, trick="R5 G9 B3", trick_no=13)
    rng = random.Random(5)
    for viewer in (None, 0, 1, 2):
        seen = set()
        for _ in range(40):
            world = s.determinize(viewer, rng)
            assert parse_card("G4") in world.hands[3]  # the only red/green/blue card not in view
            assert [a["card"] for a in world.legal_actions(3)] == ["G4"]
            assert world.view(viewer) == s.view(viewer)
            seen.add(tuple(world.hands[3]))
        assert len(seen) > 1  # still re-drawn


@pytest.mark.parametrize("n", [4, 5, 6])
def test_evaluate_actions_is_exactly_apply_then_evaluate(n):
    """The AI's shortcut (rules/api.py): every legal play, pick and hide — last-trick picks with their automatic
    hiding (A13), plays that end the round early (4.7), the last round's end — valued as applying it would."""
    seen = set()
    for seed in range(3):
        s = GAME.new_game(n, seed=seed)
        rng = random.Random(seed)
        while not s.is_over():
            seat = s.to_act()[0]
            actions = s.legal_actions(seat)
            predicted = s.evaluate_actions(seat, actions)
            assert None not in predicted  # the AI never needs to simulate
            before = s.to_json()
            for action, value in zip(actions, predicted):
                trial = s.clone()
                events = trial.apply(seat, action)
                assert value == trial.evaluate(seat), (action, s.to_json())
                seen.update(e.kind for e in events)
                seen.add((s.phase, s.trick_no == 14))
            assert s.to_json() == before  # clones share lists the engine never changes in place
            s.apply(seat, rng.choice(actions))
    assert {"round_scored", "game_over", ("hide", False), ("pick", True)} <= seen
    assert "round_aborted" in seen or n == 4  # four players rarely end a round early; T4 below covers it


def test_evaluate_actions_of_a_play_that_ends_the_round_early():
    s = position(5, {3: "B4 B7", 0: "R4", 1: "G4", 2: "Y3 Y4", 4: "R5 R6"}, leader=0, trick="R3 G3", trick_no=13)
    s.piles[0] = [cards("R11 R12"), cards("G11"), [], []]
    s._rescore(0)
    s.totals = [5, 9, 0, 0, 0]
    aborted = 0
    for action, value in zip(s.legal_actions(2), s.evaluate_actions(2, s.legal_actions(2))):
        trial = s.clone()
        aborted += "round_aborted" in kinds(trial.apply(2, action))  # Y3/Y4: seat 3 holds only blue
        assert value == trial.evaluate(2)
    assert aborted == 2


def test_ai_shortlist_keeps_one_pick_per_colour_mix():
    """Only pile sizes score (rules 5.1), so the AI weighs one pick of each colour mix; plays stay all there."""
    s = t1_position()
    assert s.ai_actions(HERMAN) == s.legal_actions(HERMAN)
    play(s, HERMAN, "Y16")  # trick R10 Y8 R14 B2 Y16: Anne picks 3
    legal, shortlist = s.legal_actions(ANNE), s.ai_actions(ANNE)
    mixes = {"".join(sorted(c[0] for c in a["cards"])) for a in legal}
    assert len(legal) == 10 and len(shortlist) == len(mixes) == 5  # BRR BRY BYY RRY RYY
    assert all(a in legal for a in shortlist)
    assert {"".join(sorted(c[0] for c in a["cards"])) for a in shortlist} == mixes
