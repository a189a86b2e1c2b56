"""König Artus Tafelrunde: the worked examples K1–K12 and derived cases D1–D10 of the rules file, notation, views."""
from __future__ import annotations

import random
import re

import pytest

import rules
from rules.api import IllegalAction
from rules.koenig_artus.cards import COLOURS, card_of, full_deck, name, trick_winner
from rules.koenig_artus.state import ArtusState

GAME = rules.get_game("koenig_artus")


def ids(text: str) -> list[int]:
    return sorted(card_of(t) for t in text.split())


def slots_of(*colours: str) -> list[int]:
    return [COLOURS.index(c) for c in colours]


def winner(cards: str, slots=()) -> int:
    trick = [[i, card_of(c)] for i, c in enumerate(cards.split())]
    return trick_winner(trick, slots_of(*slots))


def table(n: int, hands: dict[int, str], pos=None, slots=(), current: int = 0, trick: str = "") -> ArtusState:
    s = ArtusState(n, seed=3)
    s.hand_no, s.phase, s.current = 1, "play", current
    s.hands = [ids(hands.get(p, "")) for p in range(n)]
    s.pos = list(pos) if pos else [0] * n
    s.slots = slots_of(*slots)
    for i, c in enumerate(trick.split()):
        s.trick.append([(current - len(trick.split()) + i) % n, card_of(c)])
    return s


def play(s: ArtusState, seat: int, card: str):
    return s.apply(seat, {"type": "play_card", "card": card})


# ---------------------------------------------------------------- components
def test_deck_and_deal():
    assert len(full_deck()) == 72 and len({name(c) for c in full_deck()}) == 72
    for n, stack in [(2, 56), (3, 48), (4, 40), (5, 32), (6, 24)]:
        s = GAME.new_game(n, seed=n)
        assert [len(h) for h in s.hands] == [8] * n and len(s.stack) == stack
        assert s.pos == [0] * n and s.slots == []
        assert s.to_act() == [(s.dealer + 1) % n]


# ---------------------------------------------------------------- 7.1 tricks
def test_k1_no_trump_highest_led_colour_wins():
    assert winner("red-1 red-5 green-10 red-6") == 3


def test_k2_trump_green_wins_whatever_its_value():
    assert winner("red-1 red-5 green-10 red-6", ["green"]) == 2
    assert winner("red-1 red-5 green-1 red-6", ["green"]) == 2


def test_k3_trump_beats_any_value():
    assert winner("blue-11 green-1", ["green"]) == 1


@pytest.mark.parametrize(("cards", "expected"), [
    ("knight-1 shield-1 red-11", 1), ("shield-1 knight-1 red-11", 1), ("shield-1 shield-2 red-11", 0),
    ("knight-1 knight-2 red-11", 0), ("red-11 knight-1", 1),
])
def test_k4_supertrump_pairs(cards, expected):
    assert winner(cards, ["red"]) == expected


def test_k5_higher_slot_beats_value():
    assert winner("red-9 green-11 blue-2", ["green", "blue"]) == 2


def test_k6_follow_obligation_also_against_supertrumps():
    s = table(3, {0: "red-9", 1: "red-4 knight-2 green-9", 2: "knight-1 green-9 blue-3"}, current=1, trick="red-9")
    s.trick = [[0, card_of("red-9")]]
    assert [a["card"] for a in s.legal_actions(1)] == ["red-4"]
    with pytest.raises(IllegalAction, match="follow red"):
        play(s, 1, "knight-2")
    play(s, 1, "red-4")
    assert sorted(a["card"] for a in s.legal_actions(2)) == ["blue-3", "green-9", "knight-1"]


# ---------------------------------------------------------------- 7.2 board and trumps
def test_k7_start_of_a_four_player_game():
    s = table(4, {})
    for p, expected in [(0, 1), (1, 2)]:
        assert s._advance(p) == expected
    assert s._advance(2) == 3  # a sword field
    s.hands = [ids("red-1"), ids("red-2"), ids("red-3 blue-1"), ids("red-4")]
    s.current = 0
    s.phase = "play"
    s.pos = [1, 2, 0, 0]
    s.hands[2] = ids("red-11 blue-1")
    for seat, c in [(0, "red-1"), (1, "red-2"), (2, "red-11")]:
        play(s, seat, c)
    events = play(s, 3, "red-4")
    assert s.pos[2] == 3 and s.phase == "trump" and s.to_act() == [2] and not s.can_defer
    assert [e.kind for e in events][-1] == "decision_due"
    s.apply(2, {"type": "choose_trump", "color": "green"})
    assert s.slots == slots_of("green") and s.to_act() == [2] and s.phase == "play"
    s.pos = [1, 2, 3, 0]
    assert s._advance(0) == 4  # the sword on 3 was jumped: no decision


def test_k8_jumping_and_landing():
    s = table(4, {}, pos=[5, 6, 7, 9])
    assert s._advance(0) == 8
    s = table(2, {0: "red-11 red-1", 1: "red-2 red-3"}, pos=[10, 0])
    play(s, 0, "red-11")
    play(s, 1, "red-2")
    assert s.pos[0] == 11 and s.phase == "trump"


def test_k9_placement_order():
    s = table(2, {0: "red-1", 1: "red-2"}, slots=("green", "red"))
    s.phase, s.decider = "trump", 0
    with pytest.raises(IllegalAction, match="already trump"):
        s.apply(0, {"type": "choose_trump", "color": "red"})
    with pytest.raises(IllegalAction, match="only once all six"):
        s.apply(0, {"type": "swap_trump_tokens", "slots": [1, 2]})
    s.apply(0, {"type": "choose_trump", "color": "purple"})
    assert [COLOURS[c] for c in s.slots] == ["green", "red", "purple"]
    assert winner("red-11 purple-1", ["green", "red", "purple"]) == 1


def test_k10_swap_after_six():
    s = table(2, {0: "red-1", 1: "red-2"}, slots=("green", "red", "blue", "yellow", "purple", "black"))
    s.phase, s.decider = "trump", 0
    with pytest.raises(IllegalAction, match="swap"):
        s.apply(0, {"type": "choose_trump", "color": "green"})
    with pytest.raises(IllegalAction, match="different"):
        s.apply(0, {"type": "swap_trump_tokens", "slots": [3, 3]})
    assert len(s.legal_actions(0)) == 15
    s.apply(0, {"type": "swap_trump_tokens", "slots": [1, 6]})
    assert [COLOURS[c] for c in s.slots] == ["black", "red", "blue", "yellow", "purple", "green"]


def last_trick_to_sword(n: int) -> ArtusState:
    """B (seat 1) wins the 8th trick of hand 1 and lands on 15 with three tokens placed."""
    s = GAME.new_game(n, seed=8)
    s.dealer = 0
    s.slots = slots_of("green", "red", "blue")
    s.pos = [0] * n
    s.pos[1] = 14
    s.hands = [[] for _ in range(n)]
    s.hands[1] = ids("red-11")
    for p in range(n):
        if p != 1:
            s.hands[p] = [card_of(f"red-{p + 1}")]
    s.current = 2 % n
    s.trick = []
    s.discard = [c for c in full_deck() if c not in {x for h in s.hands for x in h} and c not in s.stack]
    return s


def test_k11_deferral_after_the_last_trick():
    s = last_trick_to_sword(4)
    order = [(2 + i) % 4 for i in range(4)]
    for p in order:
        play(s, p, name(s.hands[p][0]))
    assert s.pos[1] == 15 and s.phase == "trump" and s.can_defer
    assert {"type": "defer_trump_decision"} in s.legal_actions(1)
    events = s.apply(1, {"type": "defer_trump_decision"})
    kinds = [e.kind for e in events]
    assert kinds[0] == "decision_deferred" and "hand_dealt" in kinds
    assert s.hand_no == 2 and s.dealer == 1 and all(len(h) == 8 for h in s.hands)
    assert s.phase == "trump" and s.to_act() == [1] and not s.can_defer
    assert {"type": "defer_trump_decision"} not in s.legal_actions(1)
    s.apply(1, {"type": "choose_trump", "color": "black"})
    assert s.phase == "play" and s.to_act() == [2]  # left of the new dealer leads


def test_k11_no_deferral_after_a_non_final_trick():
    s = table(2, {0: "red-11 red-1", 1: "red-2 red-3"}, pos=[10, 0])
    play(s, 0, "red-11")
    play(s, 1, "red-2")
    with pytest.raises(IllegalAction, match="last trick"):
        s.apply(0, {"type": "defer_trump_decision"})


def test_k12_reaching_king_arthur_ends_the_game_at_once():
    s = table(2, {0: "red-11 red-1 red-2", 1: "red-3 red-4 red-5"}, pos=[25, 26])
    play(s, 0, "red-11")
    events = play(s, 1, "red-3")
    assert s.pos[0] == 27 and s.is_over() and s.winner == 0 and s.to_act() == []
    assert events[-1].kind == "game_won"
    assert s.ranking() == [1, 2] and len(s.hands[0]) == 2


# ---------------------------------------------------------------- 7.3 derived cases
def test_d1_led_supertrump_needs_no_following():
    s = table(3, {0: "shield-1", 1: "red-11 blue-5", 2: "knight-3 blue-2 red-1"})
    play(s, 0, "shield-1")
    assert sorted(a["card"] for a in s.legal_actions(1)) == ["blue-5", "red-11"]
    assert len(s.legal_actions(2)) == 0
    play(s, 1, "red-11")
    assert sorted(a["card"] for a in s.legal_actions(2)) == ["blue-2", "knight-3", "red-1"]
    assert winner("shield-1 red-11 knight-3") == 2
    assert winner("shield-1 red-11 blue-2") == 0


def test_d2_d3_d4_supertrump_chains():
    assert winner("red-3 knight-1 shield-2 knight-2", ["red"]) == 3
    assert winner("knight-1 knight-2 red-3") == 0
    assert winner("knight-1 shield-1 shield-2") == 1


def test_d5_all_six_colours_trump():
    assert winner("red-11 black-10 purple-1 red-2", ["black", "red", "blue", "yellow", "purple", "green"]) == 2


def test_d6_led_trump_colour():
    assert winner("green-4 green-9 blue-1", ["green", "blue"]) == 2


def test_d7_void_player_need_not_trump():
    s = table(2, {0: "red-3", 1: "green-5 blue-2"}, slots=("green",))
    play(s, 0, "red-3")
    play(s, 1, "blue-2")
    assert s.pos == [1, 0]


def test_d8_jump_onto_a_sword_field():
    s = table(4, {}, pos=[0, 1, 2, 0])
    assert s._advance(0) == 3


def test_d9_stack_and_reshuffle_for_four_players():
    s = GAME.new_game(4, seed=2)
    assert len(s.stack) == 40
    sizes = []
    while len(sizes) < 4 and not s.is_over():
        hand = s.hand_no
        seat = s.to_act()[0]
        s.apply(seat, s.legal_actions(seat)[0])
        if s.hand_no != hand:
            sizes.append((s.hand_no, len(s.stack), s.reshuffles))
    assert sizes[:2] == [(2, 8, 0), (3, 40, 1)]
    assert len([c for h in s.hands for c in h]) + len(s.stack) + len(s.discard) + len(s.trick) == 72


def test_d10_deferral_survives_the_reshuffle_with_five_players():
    s = last_trick_to_sword(5)
    held = {x for h in s.hands for x in h}
    s.stack = [c for c in full_deck() if c not in held][:32]
    s.discard = [c for c in full_deck() if c not in set(s.stack) and c not in {x for h in s.hands for x in h}]
    for p in [(2 + i) % 5 for i in range(5)]:
        play(s, p, name(s.hands[p][0]))
    events = s.apply(1, {"type": "defer_trump_decision"})
    assert "reshuffled" in [e.kind for e in events]
    assert len(s.stack) == 32 and s.phase == "trump" and s.to_act() == [1]


# ---------------------------------------------------------------- options, notation, views
def test_options_are_checked():
    with pytest.raises(IllegalAction, match="2 to 6"):
        GAME.new_game(7, seed=1)
    with pytest.raises(IllegalAction, match="track"):
        GAME.new_game(3, seed=1, options={"track": 2})
    with pytest.raises(IllegalAction, match="Sword fields"):
        GAME.new_game(3, seed=1, options={"track": 20, "swords": [3, 25]})
    with pytest.raises(IllegalAction, match="options track and swords"):
        GAME.new_game(3, seed=1, options={"speed": 1})
    s = GAME.new_game(3, seed=1, options={"track": 15, "swords": [9, 2]})
    assert (s.track, s.swords) == (15, [2, 9])


def test_notation():
    s = table(2, {0: "red-7 knight-2 knight-3 black-4", 1: "blue-1"})
    for text, card in [("red-7", "red-7"), ("R7", "red-7"), ("play red 7", "red-7"), ("knight", "knight-2"),
                       ("kn3", "knight-3"), ("k4", "black-4"), ("BLACK-4", "black-4")]:
        assert GAME.parse_action(s, 0, text) == {"type": "play_card", "card": card}
    assert [a["card"] for a in s.legal_actions(0)] == ["red-7", "black-4", "knight-2"]
    s.phase, s.decider, s.can_defer = "trump", 0, True
    assert GAME.parse_action(s, 0, "trump Green") == {"type": "choose_trump", "color": "green"}
    assert GAME.parse_action(s, 0, "green") == {"type": "choose_trump", "color": "green"}
    assert GAME.parse_action(s, 0, "swap 6 1") == {"type": "swap_trump_tokens", "slots": [1, 6]}
    assert GAME.parse_action(s, 0, "defer") == {"type": "defer_trump_decision"}
    for action in s.legal_actions(0):
        assert GAME.parse_action(s, 0, GAME.format_action(action).upper()) == action
    with pytest.raises(IllegalAction, match="trump green"):
        GAME.parse_action(s, 0, "banana")


def test_bad_play_text_lists_the_hand():
    s = table(2, {0: "red-7 black-4", 1: "blue-1"})
    with pytest.raises(IllegalAction, match="You hold: R7 K4"):
        GAME.parse_action(s, 0, "the big one")


def shows(text: str, c: int) -> bool:
    from rules.koenig_artus.cards import marked

    return re.search(re.escape(marked(c)) + r"(?!\d)", text) is not None


def test_views_keep_hands_private():
    s = GAME.new_game(4, seed=12)
    public = GAME.render_view(s.view(None))
    mine = GAME.render_view(s.view(1))
    assert "hand" not in s.view(None)
    assert all(shows(mine, c) for c in s.hands[1])
    assert not any(shows(mine, c) for p in (0, 2, 3) for c in s.hands[p] if c < 100)
    assert not any(shows(public, c) for h in s.hands for c in h if c < 100)
    assert len(public.splitlines()) <= 25


def test_determinize_keeps_voids():
    s = table(3, {0: "red-1 blue-2", 1: "green-3 green-4 blue-5", 2: "red-2 red-3 yellow-1"})
    s.stack = ids("red-4 red-5 red-6 blue-7")
    play(s, 0, "red-1")
    play(s, 1, "green-3")  # seat 1 shows it has no red
    for k in range(20):
        world = s.determinize(0, random.Random(k))
        assert not any(c < 100 and c >> 4 == 0 for c in world.hands[1])
        assert world.view(0) == s.view(0)
        assert sorted([c for h in world.hands for c in h] + world.stack) == \
            sorted([c for h in s.hands for c in h] + s.stack)


def test_determinize_keeps_the_old_stack_cards_in_the_hands():
    """Rules 4.7 / A10: after a reshuffle the old stack (72 minus the public discard) is dealt first, so every seat
    knows those cards are in the hands — with 6 players four in each — and none in the stack."""
    s = GAME.new_game(6, seed=5)
    old = set(s.stack)  # the stack's composition is public at the next deal: everything not yet played
    while s.hand_no == 1:
        seat = s.to_act()[0]
        s.apply(seat, s.legal_actions(seat)[0])
    assert s.reshuffles == 1 and [sum(c in old for c in h) for h in s.hands] == [4] * 6
    play(s, s.current, name(s.hands[s.current][0]))
    counts = [sum(c in old for c in h) for h in s.hands]
    worlds = [s.determinize(0, random.Random(k)) for k in range(30)]
    for world in worlds:
        assert not old & set(world.stack)
        assert [sum(c in old for c in h) for h in world.hands] == counts
    assert len({tuple(w.hands[3]) for w in worlds}) > 1  # still re-drawn
    shown = False
    while s.hand_no == 2:  # the rest of the hand, with voids shown along the way
        shown = shown or any(s.voids)
        for seat in (None, 0, 4):
            world = s.determinize(seat, random.Random(s.counter + len(s.discard)))
            assert not old & set(world.stack)
            assert [sum(c in old for c in h) for h in world.hands] == [sum(c in old for c in h) for h in s.hands]
            assert all(c >= 100 or c >> 4 not in s.voids[p] for p in range(6) for c in world.hands[p])
        seat = s.to_act()[0]
        s.apply(seat, s.legal_actions(seat)[-1])
    assert shown


def test_determinize_fallback_deal_meets_every_void():
    """The card-by-card deal (used when the quick one keeps failing) never gives a player a colour he lacks."""
    from rules.koenig_artus.copies import share

    cards = ids("green-1 yellow-8 yellow-1 yellow-2 yellow-3 yellow-4 yellow-5 yellow-6 yellow-7")
    voids = [[], slots_of("red", "blue"), slots_of("green")]
    seen = set()
    for k in range(40):
        hands, rest = share(cards, {1: 2, 2: 7}, voids, random.Random(k).random, tries=0)
        assert rest == [] and card_of("green-1") in hands[1] and len(hands[1]) == 2 and len(hands[2]) == 7
        assert sorted(hands[1] + hands[2]) == cards
        seen.add(tuple(sorted(hands[1])))
    assert len(seen) > 3


@pytest.mark.parametrize("n", [2, 4, 6])
def test_evaluate_actions_agrees_with_playing_it_out(n):
    """The AI's shortcut equals clone + apply + evaluate for every action, through sword fields, deals and the end."""
    s = GAME.new_game(n, seed=40 + n)
    pick = random.Random(n)
    predicted = 0
    while not s.is_over():
        seat = s.to_act()[0]
        actions = s.legal_actions(seat)
        for action, value in zip(actions, s.evaluate_actions(seat, actions)):
            trial = s.clone()
            trial.apply(seat, action)
            assert value is None or value == trial.evaluate(seat), action
            predicted += value is not None
        s.apply(seat, pick.choice(actions))
    assert predicted > 0


def test_determinize_and_clone_leave_the_state_alone():
    s = GAME.new_game(3, seed=9)
    before = s.to_json()
    world = s.determinize(s.current, random.Random(1))
    world.apply(s.current, world.legal_actions(s.current)[0])
    s.clone().apply(s.current, s.legal_actions(s.current)[0])
    assert s.to_json() == before


def test_a7_a_swap_may_be_deferred_too():
    """[A7]: a sword-field decision from the last trick of a hand may be deferred also once all six are trump."""
    s = last_trick_to_sword(3)
    s.slots = slots_of("green", "red", "blue", "yellow", "purple", "black")
    for p in [2, 0, 1]:
        play(s, p, name(s.hands[p][0]))
    assert s.phase == "trump" and s.to_act() == [1]
    assert s.legal_actions(1)[-1] == {"type": "defer_trump_decision"} and len(s.legal_actions(1)) == 16
    s.apply(1, {"type": "defer_trump_decision"})
    assert s.hand_no == 2 and s.phase == "trump" and len(s.legal_actions(1)) == 15
    s.apply(1, {"type": "swap_trump_tokens", "slots": [2, 5]})
    assert [COLOURS[c] for c in s.slots] == ["green", "purple", "blue", "yellow", "red", "black"]
    assert s.phase == "play" and s.to_act() == [(s.dealer + 1) % 3]


def test_each_view_names_who_acts_and_the_sword_field_only_when_someone_landed_there():
    """Through a seeded game, in every view: in the play phase the public and the others' views say whose turn it
    is, and nobody's says "landed on a sword field" (in your own turn it read "? landed on a sword field and
    chooses a new trump colour"); at a trump decision every view names the seat that decides."""
    s = GAME.new_game(3, seed=4)
    rng = random.Random(5)
    decisions = plays = 0
    while not s.is_over():
        seat = s.to_act()[0]
        for viewer in (None, 0, 1, 2):
            view = s.view(viewer)
            text = GAME.render_view(view)
            assert "?" not in text.replace("(| ", ""), text
            if view["phase"] == "play":
                plays += 1
                assert "sword field" not in text, text
                assert ("{P%d} to play." % (seat + 1) in text) == (viewer != seat), text
            elif view["phase"] != "over":
                decisions += 1
                landed = "You landed on a sword field" if viewer == view["decider"] else \
                    "{P%d} landed on a sword field" % (view["decider"] + 1)
                assert landed in text, text
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    assert plays and decisions
