"""Narration: every event a seat may see is told to it (0 missed), nothing private of another seat leaks, and the
viewer's own lines speak to it in the second person."""
from __future__ import annotations

import re

import pytest

import rules
from rules.ai import make_player
from rules.api import Event
from bot.service.narration import final_result_lines, narrate, narrate_lines, personal, since_last_turn

rules.load_games()
GAMES = ["guyenne", "kardinal", "koenig_artus", "list_und_tuecke", "troubadour"]
CASES = [(name, n, opts) for name in GAMES for n, opts in rules.get_game(name).configurations()[:3]]


def play(name: str, n: int, opts: dict, seed: int, cap: int = 800):
    game = rules.get_game(name)
    state = game.new_game(n, seed=seed, options=opts)
    players = [make_player("random", seed=seed * 7 + i) for i in range(n)]
    log: list[tuple[int, int, list[Event]]] = []
    for seq in range(cap):
        if state.is_over():
            break
        seat = state.to_act()[0]
        log.append((seq, seat, state.apply(seat, players[seat].choose(state, seat))))
    return game, state, log


@pytest.mark.parametrize("name,n,opts", CASES, ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_every_visible_event_is_told_and_nothing_else(name, n, opts):
    game, state, log = play(name, n, opts, seed=5)
    flat = [(seq, e) for seq, _, events in log for e in events]
    names = [f"Player {i + 1}" for i in range(n)]
    for viewer in [None, *range(n)]:
        lines = narrate_lines(game, flat, viewer, names)
        told = sorted(k for line in lines for k in line.events)
        visible = [k for k, (_, e) in enumerate(flat) if e.visible_to(viewer)]
        assert told == visible, f"missed {set(visible) - set(told)}, leaked {set(told) - set(visible)}"
        assert all(line.text and "{P" not in line.text for line in lines)
        # every engine has a line of its own for every kind it logs (no silent kinds)
        for _, e in flat:
            assert game.describe_event(e), e.kind
        if viewer is not None:
            text = "\n".join(line.text for line in lines)
            assert names[viewer] not in text  # the viewer is "you", never its own name
            assert not re.search(r"\bYou (plays|gets|has|builds|takes|is)\b|You's", text)


@pytest.mark.parametrize("name", GAMES)
def test_private_events_of_others_never_appear(name):
    game = rules.get_game(name)
    n = game.min_players if name != "list_und_tuecke" else 4
    game, state, log = play(name, n, game.configurations()[0][1] if n == game.min_players else {}, seed=11, cap=300)
    flat = [(seq, e) for seq, _, events in log for e in events]
    names = [f"P{i + 1}name" for i in range(n)]
    for viewer in [None, *range(n)]:
        private_of_others = [game.describe_event(e) for _, e in flat
                             if e.audience is not None and not e.visible_to(viewer)]
        shown = "\n".join(narrate(game, flat, viewer, names, condense=False))
        for secret in private_of_others:
            text = personal(secret, viewer, names)
            if text.startswith("Your ") or text.startswith("You "):
                continue  # the same words may describe the viewer's own hand; compared by events above
            assert text not in shown


def test_second_person():
    names = ["Ann", "Bob"]
    assert personal("{P1} plays R9.", 0, names) == "You play R9."
    assert personal("{P2} plays R9.", 0, names) == "Bob plays R9."
    assert personal("Turned up: 4♠ in {P1}'s V1.", 0, names) == "Turned up: 4♠ in your V1."
    assert personal("{P1}'s turn ends.", 0, names) == "Your turn ends."
    assert personal("{P2} passes.", 1, names) == "You pass."
    assert personal("{P2} has chosen a trio.", 1, names) == "You have chosen a trio."
    assert personal("Castle 4 goes to {P1}.", 0, names) == "Castle 4 goes to you."
    assert personal("{P1} reaches the end.", None, names) == "Ann reaches the end."


def test_condensed_runs_and_since_last_turn():
    game = rules.get_game("troubadour")
    events = [Event("built_castle", {"seat": 1, "card": c, "from": "waste"}) for c in ("AH", "AC", "2H")]
    assert narrate(game, events, 0, ["You", "AI 2"]) == ["AI 2 builds 3 castle cards: A♥ A♣ 2♥ (waste)."]
    assert narrate(game, events, 1, ["Ann", "AI 2"]) == ["You build 3 castle cards: A♥ A♣ 2♥ (waste)."]
    log = [(0, 0, [Event("turn_ended", {"seat": 0, "auto": False})]), (1, 1, events)]
    # the viewer's own move is confirmed in a short line (issue 37), then what came after it
    assert since_last_turn(game, log, 0, ["Ann", "Bob"]) == ["Your turn ends.", "Bob builds 3 castle cards: A♥ A♣ 2♥ (waste)."]
    private = Event("turn_ended", {"seat": 0, "auto": False}, (0,))  # what the viewer's own move told only them
    assert since_last_turn(game, [(0, 0, [private]), (1, 1, events)], 0, ["Ann", "Bob"]) == [
        "Your turn ends.", "Bob builds 3 castle cards: A♥ A♣ 2♥ (waste)."]


def test_a_troubadour_turn_of_several_lines_is_one_line():
    game = rules.get_game("troubadour")
    names = ["Ann", "Bob"]
    turn = [Event("flipped", {"seat": 1, "cards": ["4H"]}),
            Event("built_castle", {"seat": 1, "card": "4H", "from": "waste"}),
            Event("built_village", {"seat": 1, "cards": ["9S"], "to": 2, "from": "waste"}),
            Event("turn_ended", {"seat": 1, "auto": False})]
    lines = narrate_lines(game, turn, 0, names)
    assert len(lines) == 1 and sorted(lines[0].events) == [0, 1, 2, 3]
    assert lines[0].text.startswith("Bob's turn: flips 4♥ · builds 4♥") and lines[0].text.endswith("turn ends.")
    short = narrate(game, turn[2:], 0, names)  # two lines stay two lines
    assert len(short) == 2


def test_a_turn_that_wins_ends_with_its_own_exclamation_mark():
    game = rules.get_game("troubadour")
    turn = [Event("flipped", {"seat": 1, "cards": ["4H"]}),
            Event("built_castle", {"seat": 1, "card": "4H", "from": "waste"}),
            Event("game_won", {"seat": 1})]
    lines = narrate_lines(game, turn, 0, ["Ann", "Bob"])
    # the win is a line of its own: what happened ("completes all four castles"); who wins is the board's word
    # (the result's: a seat that resigned is not crowned, tests/bot/test_board_crowns_the_result.py)
    assert [line.events for line in lines][-1] == [2]
    assert lines[-1].text == "🏁 Bob completes all four castles.", lines[-1].text
    assert not any("!." in line.text for line in lines)


def test_a_kardinal_turn_is_one_line():
    game = rules.get_game("kardinal")
    turn = [Event("built", {"seat": 1, "color": "blue", "kind": "tower", "cells": ["M15"], "stones": ["red"]}),
            Event("cardinal_moved", {"seat": 1, "from": "J14", "site": "N15"}),
            Event("built", {"seat": 0, "color": "red", "kind": "house", "cells": ["L12"], "stones": []})]
    lines = narrate_lines(game, turn, 0, ["Ann", "Bob"])
    assert [line.text for line in lines] == [
        "Bob builds a 🟦 blue tower at M15: +🟥 stone · moves the Cardinal J14 → N15.",
        "You build a 🟥 red house at L12."]
    assert [line.events for line in lines] == [[0, 1], [2]]


def test_guyenne_reinforcements_and_refills_are_one_line_each():
    """A reinforcement phase (adds and passes) and a round's refills are one line each; a seat's own cards are
    shown to it only; a fight names only the armies at that castle (two sets: no "nobody ?")."""
    game = rules.get_game("guyenne")
    names = ["Ann", "Bob", "Cy"]
    run = [Event("placed", {"seat": 0, "castle": 2, "count": 1, "step": "reinforce", "role": "attack"}),
           Event("placed_cards", {"seat": 0, "castle": 2, "cards": ["5a"]}, (0,)),
           Event("passed", {"seat": 1, "auto": False}),
           Event("passed", {"seat": 2, "auto": True}),
           Event("placed", {"seat": 0, "castle": 2, "count": 2, "step": "reinforce", "role": "attack"}),
           Event("placed_cards", {"seat": 0, "castle": 2, "cards": ["2a", "A1"]}, (0,)),
           Event("passed", {"seat": 1, "auto": False}),
           Event("refilled", {"seat": 0, "count": 3, "reshuffled": False}),
           Event("drawn", {"seat": 0, "cards": ["4a", "3a", "2b"]}, (0,)),
           Event("refilled", {"seat": 1, "count": 2, "reshuffled": True}),
           Event("drawn", {"seat": 1, "cards": ["Ta", "2c"]}, (1,))]
    assert narrate(game, run, 1, names) == [
        "Reinforcing: Ann +3 at castle 2 · Cy and you pass.",
        "Refill: Ann 3 cards · You T 2 (after reshuffling the discard)."]
    assert narrate(game, run, 0, names) == [
        "Reinforcing: You +3 at castle 2 (5 2 A) · Bob and Cy pass.",
        "Refill: You 4 3 2 · Bob 2 cards (after reshuffling the discard)."]
    alone = [e for e in run[:7] if e.data.get("seat") != 2]
    assert narrate(game, alone, 1, names)[0] == "Reinforcing: Ann +3 at castle 2 · You pass."
    fight = Event("fight", {"castle": 4, "seats": [None, 1, 2], "totals": [None, 2, 6], "winner": 2,
                            "before": None, "conceded": False})
    assert narrate(game, [fight], None, names) == ["Castle 4: Bob 2 vs Cy 6, Cy takes the castle."]


def test_final_result_sorted_with_shared_places_and_the_tie_rule():
    game = rules.get_game("list_und_tuecke")
    lines = final_result_lines(game, [19, 27, 26, 26], [4, 1, 2, 2], ["AI 1", "Ann", "AI 3", "AI 4"], viewer=1)
    assert lines[:4] == ["1. You — 27 points", "2. AI 3 — 26 points (shared)", "2. AI 4 — 26 points (shared)",
                         "4. AI 1 — 19 points"]
    assert lines[4].startswith("Tie rule:")
    assert final_result_lines(game, [1, 0], [1, 2], ["A", "B"]) == ["1. A — 1 point", "2. B — 0 points"]


def test_seat_placeholders_become_names_once():
    """``{P1}`` … become the seats' names; an unknown seat stays as it is; a name that reads like a placeholder
    is never substituted again (a person may call themselves ``{P2}``)."""
    from bot.service.rendering import substitute

    assert substitute("{P1} leads, {P2} follows; {P1} wins. {P3}", ["Ann", "Bob"]) == \
        "Ann leads, Bob follows; Ann wins. {P3}"
    assert substitute("{P1} passes to {P2}", ["{P2}", "Bob"]) == "{P2} passes to Bob"
    assert substitute("{P10} and {P1}", ["A"] * 9 + ["J"]) == "J and A"
    assert substitute("nobody", ["Ann"]) == "nobody"


def test_condensed_troubadour_lines_keep_every_card_and_place():
    """Issue 37, item 13: a condensed run keeps where each card came from, two flips stay two, and J♣'s flip says
    so with the cards it turned up."""
    game = rules.get_game("troubadour")
    names = ["Ann", "Bob"]
    castle = [Event("built_castle", {"seat": 1, "card": card, "from": where})
              for card, where in (("AD", "V2"), ("2D", "waste"), ("3D", "waste"))]
    assert narrate(game, castle, 0, names) == ["Bob builds 3 castle cards: A♦ (V2), 2♦ 3♦ (waste)."]
    village = [Event("built_village", {"seat": 1, "cards": ["5S"], "from": "V1", "to": 4}),
               Event("built_village", {"seat": 1, "cards": ["4D", "3S"], "from": "waste", "to": 4})]
    assert narrate(game, village, 0, names) == ["Bob makes 2 village moves: 5♠ V1 → V4, 4♦ 3♠ waste → V4."]
    flips = [Event("flipped", {"seat": 1, "cards": ["7S"]}), Event("flipped", {"seat": 1, "cards": ["9C"],
                                                                             "extra_left": 1})]
    assert narrate(game, flips, 0, names) == ["Bob flips 7♠.", "Bob flips 9♣ (1 extra left)."]
    club = [Event("noble_used", {"seat": 1, "noble": "JC"}), Event("flipped", {"seat": 1, "cards": ["4S", "9H"]})]
    assert narrate(game, club, 0, names) == ["Bob flips with J♣ until a card fits: 4♠ 9♥."]
    assert narrate(game, club, 1, names) == ["You flip with J♣ until a card fits: 4♠ 9♥."]


def test_a_reinforcing_round_tells_every_pass():
    """Issue 37, item 13: in Guyenne a seat that reinforced and then passed (the last pass of the round) is told
    passing too."""
    game = rules.get_game("guyenne")
    events = [Event("placed", {"seat": 0, "castle": 2, "count": 2, "step": "reinforce"}),
              Event("placed", {"seat": 1, "castle": 5, "count": 1, "step": "reinforce"}),
              Event("passed", {"seat": 0, "auto": False}), Event("passed", {"seat": 1, "auto": False})]
    lines = narrate(game, events, None, ["Ann", "Bob"])
    assert len(lines) == 1 and "Ann and Bob pass" in lines[0], lines


def test_a_long_troubadour_turn_is_told_in_a_few_short_lines():
    """Issue 37, item 8: an AI's turn of a dozen steps was one line of ~900 characters; it is a few lines now,
    no step cut, every event still told."""
    names = ["🤖 Sir Greedy", "🤖 Lady Grasp", "🤖 Baron Hoard", "You"]
    longest = 0
    for seed in (1, 2, 3):
        game, state, log = play("troubadour", 4, {}, seed=seed, cap=1500)
        flat = [(seq, e) for seq, _, events in log for e in events]
        for line in narrate_lines(game, flat, 3, names):
            rows = line.text.split("\n")
            longest = max([longest] + [len(row) for row in rows if " · " in row])
    assert longest <= 140, longest


def test_a_card_turned_up_is_said_with_the_step_that_uncovered_it():
    """Issue 37, item 8: within a turn, "Turned up: 5♥ in Bob's V3" after a build from V3 is said with it."""
    game = rules.get_game("troubadour")
    turn = [Event("built_castle", {"seat": 1, "card": "AC", "from": "V3"}),
            Event("revealed", {"seat": 1, "village": 3, "position": 0, "card": "5H", "by": "auto"}),
            Event("built_village", {"seat": 1, "cards": ["3S"], "from": "V4", "to": 5}),
            Event("revealed", {"seat": 1, "village": 1, "position": 0, "card": "8H", "by": "auto"}),
            Event("turn_ended", {"seat": 1, "auto": False})]
    lines = narrate_lines(game, turn, 0, ["Ann", "Bob"])
    assert len(lines) == 1 and sorted(lines[0].events) == [0, 1, 2, 3, 4]
    text = lines[0].text.replace("\n   ", " · ")  # (a long turn is wrapped)
    assert "builds A♣ on the ♣ castle from V3, 5♥ turned up · moves 3♠ from V4 to V5 · Turned up: 8♥ in Bob's V1" \
        in text, text  # (8♥ was not under 3♠: said on its own)
