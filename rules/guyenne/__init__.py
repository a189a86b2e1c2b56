"""Guyenne (Laurent & Jean-Baptiste Journaux, Faire Play): the duel for six castles, 2 players.

Implements ../shared/rules/guyenne.md at all three levels (option ``level``: basic, advanced, expert) for the duel
(``mode=duel``, 2 players), the team variant with one set (``mode=teams``, 3 or 4 players, 7.1) and the
free-for-all with two sets (``mode=two_sets``, 3 or 4 players, 7.2), with every decision A1–A43. Decisions where the
rules file leaves a gap for the engine:

- Sides are dealt at random from the seed (A39: the bot has no host choice yet); English opens round 1. Teams: the
  partners and each team's first drawer are drawn from the seed too (A27); with 3 players the pair's side is random.
- Team card passing is one action ``give`` naming the cards (a sorted list, empty only when the giver holds one
  card) and who leads (``me`` or ``partner``); both teams give at the same time, each unseen by the other. The end
  check of 7.1 step 3 is made before the gift (a gift does not change a team's total).
- Two sets: castles are numbered frontier by frontier, 1–3 between seats 1 and 2, 4–6 between seats 2 and 3, …
  (inner, middle, outer); "left" goes to the next seat (A36). The sides are dealt E, F alternately at random (they
  only name the armies). A six-castle winner scores 12; the others keep their castle score, which orders the places
  below him. The direction is an action (``direction left``) of the first player at each round's start.
- A duel (or two-set) player sees his whole discard; a team member the cards of the shared discard that were
  revealed or that he put there unseen (a concession; the first drawer's expert set-aside), until the next
  reshuffle mixes them into the deck (A40).
- Cards are ids (``H``, ``5a``, ``4c``, ``T``, ``2h``, ``A3``) so equal cards can be told apart in a multi-select;
  typed moves may name kinds instead (``open 3 5 2``) and take the first such card in hand.
- A placement is one action naming the castle and a sorted list of cards (``open``, ``respond``, ``reinforce``);
  castles are numbered 1–6. The picker asks the castle first, then the cards.
- Expert set-aside is one action naming the 5 troop cards by kind (``aside 4 3 2 2 A``; ``legal_actions`` lists the
  163 choices of kinds, not the 20349 sets of ids that play the same), made by both armies at once, hidden from the
  other; the hero cannot be chosen. The picker asks card by card.
- A loser of a neutral castle (advanced) with only one legal choice of losses loses it without being asked.
- ``scores()`` is the castle score at any time (12–0 after a six-castle win); ``ranking()`` breaks equal scores by
  unspent cards (hand + deck), then a shared place (draw).
- ``determinize`` re-deals each other army's unseen cards among its hand, deck, discard and face-down castle cards
  (and the viewer's own deck order), keeping in the discard the cards revealed since its last reshuffle (6: known
  to all) and, for a team member, those he put there and the cards he gave his partner while the partner holds them
  or has them face down; a hero never revealed stays in its army's hands or face-down cards, or after a concession
  of that army maybe in the discard, until a reshuffle (2.4).
"""
from __future__ import annotations

from rules.api import Option, Players, TextGame, one_of, register
from rules.lang import N_
from rules.guyenne import notation, text
from rules.guyenne.board import LEVELS
from rules.guyenne.state import GuyenneState

SUMMARY = N_("""Guyenne — 2 players fight for a row of six castles (1–6), all neutral at first.

Each of you has an army of 22: a hero (H), two 5s, three 4s, three 3s, the trebuchet (T, 3), eight 2s and four
archers (A, 2). You hold 6 cards; the rest is your face-down deck.

A round: the first player opens a castle with 1–5 face-down cards (keeping at least one); the other answers there,
then opens a second castle; the first player answers at it. Then, starting with the second player, you take turns
adding cards to one of the two castles (at most 5 of yours per castle) or passing; two passes in a row end it.

Fights, first castle first: attackers reveal; a defender (the castle's owner) reveals — a tie keeps the castle — or
concedes without showing his cards. Higher total wins; a hero wins outright (two heroes: tie). The trebuchet counts
5 attacking your opponent's castle, an archer 4 defending your own. A neutral castle stays neutral on a tie.
Advanced/expert: the attacker of an opponent's castle always loses his strongest card there for good; the loser of a
neutral castle loses his strongest card or cards worth as much together (his choice). Expert: you set aside 5 troop
cards at the start (they start in your discard) and may rebuild your deck twice instead of once.

Then the played cards go to your discard and you refill to 6; an empty deck is rebuilt from the discard once
(expert: twice). The game ends when someone holds all six castles at a round's end (12–0), or when a player starts a
round with 0 or 1 card: then each castle scores 1, or 2 if it is in a group of adjacent castles you hold. Tie: more
unspent cards (hand + deck) wins.

How to play here (buttons, or /move with):
  open 3 5 2        open castle 3 with a 5 and a 2 (cards: H 5 4 3 T 2 A)
  respond 4 A       answer at the castle just opened
  reinforce 3 2     add a 2 at castle 3          pass
  reveal · concede  as the defender               lose 2 2   (advanced losses)
  aside 4 3 2 2 A   expert setup: the 5 cards you set aside
  give 5 2 partner leads   teams: hand cards to your partner, name who opens
Teams (3–4 players, mode=teams): partners share one deck and discard but hold their own hands; each round the
drawer fills the team's hands to 6 and passes 1–5 cards to the partner; each member plays one of the two castles.
  direction left    two sets: the first player picks the way round the table
Two sets (3–4 players, mode=two_sets): everyone has his own army and fights both neighbours over the three castles
of each frontier (numbered 1–3, 4–6, … from the table's centre out); the first player opens on one frontier, each
next player answers there and opens on his other frontier, round the table. Your six castles score as a line whose
two inner castles are adjacent; all six at a round's end wins.
Options: /new guyenne level=advanced mode=teams (level basic/advanced/expert; mode duel/teams/two_sets)""")


class Guyenne(TextGame):
    name = "guyenne"
    title = "Guyenne"
    players = Players(range(2, 5))  # the counts of each mode below
    options = {
        "level": Option("basic", one_of(*LEVELS), N_(
            "level is basic, advanced or expert, e.g. /new guyenne level=advanced.")),
        "mode": Option("duel", one_of("duel", "teams", "two_sets"), N_(
            "mode is duel (2 players), teams or two_sets (3 or 4 players), e.g. /new guyenne mode=teams."), players={
            "duel": Players(range(2, 3), N_(
                "The Guyenne duel is for 2 players; with 3 or 4 players open it with mode=teams.")),
            "teams": Players(range(3, 5), N_(
                "The team variant is for 3 or 4 players (2 against 2, or 2 against 1).")),
            "two_sets": Players(range(3, 5), N_("The two-set free-for-all is for 3 or 4 players."))}),
    }
    unknown_options = N_("Guyenne has the options level and mode, not {unknown}.")
    has_hidden_information = True
    notation, text, summary = notation, text, SUMMARY

    def configurations(self) -> list[tuple[int, dict]]:
        return [(n, {"level": level, "mode": mode})
                for mode, counts in (("duel", (2,)), ("teams", (3, 4)), ("two_sets", (3, 4)))
                for n in counts for level in LEVELS]

    def new_game(self, num_players: int, *, seed: int, options: dict | None = None) -> GuyenneState:
        chosen = self.check_setup(num_players, options)
        return GuyenneState.new(num_players, seed, chosen["level"], chosen["mode"])

    def from_json(self, data: dict) -> GuyenneState:
        return GuyenneState.from_json(data)

    def parse_action(self, state, seat: int, text: str) -> dict:
        return notation.parse(state, seat, text)  # it answers a missing text with the list of moves

    def describe_action(self, action: dict) -> str:
        return notation.describe(action)


register(Guyenne())
