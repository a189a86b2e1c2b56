"""Mit List und Tücke (Klaus Palesch), 4–6 players: tricks without following suit, two winners per trick.

Implements ../shared/rules/mit_list_und_tuecke.md exactly. Decisions where the rules file leaves a choice:

- A13: a hiding due in the 14th trick is applied automatically, keeping the two largest piles open (ties: the
  earlier colour in R, G, B, Y stays open); earlier in the round the player is asked.
- A20: the first dealer is drawn from the game's seed; seating is the lobby's (random) order.
- Picked cards are one sorted list parameter (the picker's multi-select); a pick must list distinct cards of
  the trick in card order (R, G, B, Y, then value) — ``parse_action`` sorts typed cards, so typing any order works.
- Before the end, ``scores()`` is the running total plus the current round's points so far; ``ranking()`` follows it.
- The game has no variants, so ``default_options()`` is empty; every count 4, 5, 6 is a configuration.
"""
from __future__ import annotations

from rules.api import Players, TextGame, register
from rules.lang import N_
from rules.list_und_tuecke import notation, text
from rules.list_und_tuecke.state import LuTState

SUMMARY = N_("""Mit List und Tücke — 4 to 6 players, as many rounds as players.

Cards: four colours (🟥R 🟩G 🟦B 🟨Y), values 1–14 with 4 players, up to 18/17 with 5, 1–21 with 6. Everyone gets 14.

A trick: the first card sets the trick's trump colour. You never have to follow it — play any card — but a trick may
hold at most three colours: once three are out, the fourth is forbidden. If the player to act has only the fourth
colour, the round ends at once and the cards still in hands (and the open trick) count for nobody.

Two people "win" each trick. The highest card of the trump colour picks 2 cards (3 with 5–6 players) — any of the
trick's cards. The lowest card of another colour must take the rest (on equal values the earlier card), and leads the
next trick. If all cards are trump, the picker leads and the rest leaves the round.

Collected cards lie in front of you in one open pile per colour. The moment you hold all four colours you hide two of
them: those piles turn face down, and later cards of those colours join them.

Round score: the two largest open piles multiplied, divided by all your other cards (rounded down); with exactly two
colours no division; with one colour or none, 0. Example: open 8 and 7, 4 hidden → 56/4 = 14.
After the last round the highest total wins; equal totals share the win.

How to play here (buttons, or /move with):
  R14        play a card
  pick R14 R10 Y16   take cards from the trick when you are the high player
  hide B Y   hide two colours when you hold all four
""")


class ListUndTuecke(TextGame):
    name = "list_und_tuecke"
    title = "Mit List und Tücke"
    players = Players(range(4, 7), N_("Mit List und Tücke is for 4, 5 or 6 players."))
    unknown_options = N_("Mit List und Tücke has no options (unknown: {unknown}).")
    has_hidden_information = True
    restated_by_view = frozenset({"dealt"})  # "Your new hand: …" is the hand the view shows
    notation, text, summary = notation, text, SUMMARY
    move_examples = N_("`R14`, `pick R14 R10` or `hide B Y`")

    def new_game(self, num_players: int, *, seed: int, options: dict | None = None) -> LuTState:
        self.check_setup(num_players, options)
        state = LuTState(num_players, int(seed))
        state.start_game()
        return state

    def from_json(self, data: dict) -> LuTState:
        return LuTState.from_json(data)


GAME = register(ListUndTuecke())
