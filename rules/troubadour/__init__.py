"""Troubadour (Jogledor, P.D. de Jong "Ariesz.", 2015), 2–4 players: a double patience with nobles.

Implements ../shared/rules/troubadour.md exactly, its decisions A1–A42 included. Options: ``trio_tiebreak``
(``rps`` default, or ``die``; A31) and ``max_rounds`` (0 = no limit, the default; else a draw after that many rounds;
A35). Decisions where the rules file leaves a gap for the engine:

- Actions use the rules file's names and parameters. ``choose_trio`` takes ``nobles``: a list of three noble codes in
  noble order (JS QS KS JD QD KD JC QC KC JH QH KH; the picker's multi-select). A spade attack's ``target`` is the
  opponent's player code ``P1``..``P4`` (1-based, as the board shows them); villages are 1..5;
  ``hearts_queen_reveal``'s ``position`` is 0-based from the bottom as in the rules file, but typed and shown 1-based
  (``QH V2 1`` = the bottom card). ``hearts_jack_move``'s ``destination`` is ``"castle"`` or a village number.
- Every legal action is offered, also the pointless ones the rules allow (J♥ on a top card, moving a whole village
  into an empty one). ``legal_actions`` lists flips first, then castle builds, ``end_turn``, village builds, J♥, Q♥
  and attacks: whoever always takes the first option can never loop (village moves can go back and forth).
- A36: the engine ends a turn by itself as soon as nothing but ``end_turn`` is legal (also right at its start),
  announced as ``turn_ended`` with ``auto``.
- A31: "after 3 drawn repetitions" is read as: the first rock-paper-scissors game and up to three repetitions; if all
  four are drawn, the die decides. Several two-player tie groups (4 players) play their tie-breaks at the same time.
  Die: everyone of the group rolls, lowest first; equal rolls roll again among themselves.
- Q♣ and K♣ grant their extra flips together; the first extra flip marks every granting club noble used, and the
  board shows them usable while an extra flip is left.
- A35: ``resign`` is not an engine action: the bot's /resign hands the seat to an AI (the service's rule for every
  game), so a resigning player's cards stay in the game.
- ``scores()`` are the cards in castles (the winner has 40; the rules have no points); ``ranking()``: the winner
  first, everybody else shares second place (the rules rank no losers); a ``max_rounds`` draw ranks everyone first.
  Before the end the ranking follows the castle cards.
- Hidden information: nobody knows a face-down village card, the dealt stock's order, or the order of the cards an
  attack shuffled under a stock. Everything else follows from public history (A37: every flip, attack and reveal is
  announced): the waste, a recycled stock's order (the waste turned over, A4), and which known cards an attack put in
  which block under a stock. So ``determinize`` re-deals, per player, only the cards never seen (face-down village
  cards, the dealt stock, face-down cards taken by J♠) among their places, shuffles each stock block in itself, and
  re-draws the trios / tie-break nobles of others not yet revealed. The views show the waste's top and size only.
- Views: villages bottom→top with ``None`` for a face-down card, the waste top and size, the stock size, castles as
  their top cards, trios once revealed (``my_trio`` / ``my_tiebreak`` privately before), and for the active player
  ``turn`` (flip state, extra flips, each trio noble's status, protections) and ``options`` (every legal move by
  kind: what can be built where).
- Randomness (shuffles, the order of attacked cards under the stock, die rolls) comes from ``random.Random`` seeded
  with the seed and a draw counter, both in ``to_json``. ``to_json`` writes piles as card codes (``9S* 8H``, ``*`` =
  face down).
- The AI (``evaluate``, only steering the greedy player): its progress (castle cards, village order, face-down cards,
  stock size) twice minus the best opponent's, plus flips made, turns ended by choice and, at a round's start, the
  liking of its trio; all integers, so ``evaluate_actions`` predicts every turn action exactly without applying it.
  Its shortlist (``ai_actions``): its favourite trio, one tie-break noble, and castle builds first when any exist.
"""
from __future__ import annotations

from rules.api import IllegalAction, Option, Players, TextGame, one_of, register, whole_number
from rules.lang import N_
from rules.troubadour import notation, text
from rules.troubadour.rounds import TIEBREAKS
from rules.troubadour.state import TroubadourState, new_state

SUMMARY = N_("""Troubadour — 2 to 4 players, each with an own deck: a race to build four castles (A→10 per suit).

Your 40 number cards (A–10) form your face-down stock. Five villages of 3 cards (2 face down, nobody knows them,
not even you) lie before you. Villages build down in alternating colours (8♥ on 9♠; any card into an empty village;
a run moves as a block). Castles build up by suit from the ace. The first to complete all four castles (10 on top
of each) wins at once.

Each round everyone secretly picks 3 of his 12 nobles; they are revealed together. The lowest noble
(♠ < ♦ < ♣ < ♥, then J < Q < K; then the second, third) plays first. Identical trios: rock-paper-scissors with a
4th noble (Q beats J, K beats Q, J beats K; the beaten player starts) or a die.

Your turn, in any order: one standard flip (stock → waste; empty stock: the waste turns over unshuffled); build the
waste top or a village top to a castle; build the waste top or a run onto a village; use your nobles once each:
 ♠ J clear an opponent's village · Q take the top of each of his villages · J+Q+K destroy one of his castles
   (taken cards go shuffled under his stock)
 ♦ protect against the matching spade (J♦ vs J♠, Q♦ vs Q♠, K♦ vs the trio) all round
 ♣ J flip on until a card fits · Q 2 extra flips · K 3 extra flips if a rival chose J♣ or Q♣ (after the flip)
 ♥ J move any face-up village card · Q turn a face-down card (an ace may start its castle) ·
   Q+K (all your village cards face up): flip until a card you name, instead of the standard flip
Face-down cards that become a village top turn up by themselves. End your turn with `end`.

How to play here (buttons, or /move with):
  trio JC QC JH     your secret trio          rps QH          tie-break noble
  flip / flip JC    standard flip (J♣)        extra           an extra club flip
  7C castle         build on a castle         8H V4           waste top or run → village 4
  JH 8H castle      J♥ move (or JH 8H V2)     QH V2 1         Q♥: V2, 1st card from the bottom
  ace castle / ace keep                       QHKH 7S         Q♥+K♥ flip to 7♠
  JS P2 V3  ·  QS P2  ·  JQK P2 H             attacks on player 2
  end               end your turn
Villages show ▒ for face-down cards. Options: /new troubadour trio_tiebreak=die max_rounds=60
""")


class Troubadour(TextGame):
    name = "troubadour"
    title = "Troubadour"
    players = Players(range(2, 5), N_("Troubadour is for 2 to 4 players."))
    options = {
        "trio_tiebreak": Option("rps", one_of(*TIEBREAKS), N_(
            "trio_tiebreak is rps (rock-paper-scissors with nobles) or die, e.g. trio_tiebreak=die.")),
        "max_rounds": Option(0, whole_number(0, 1000), N_(
            "max_rounds is a number of rounds from 1 to 1000 after which the game is a draw, or 0 for no limit, "
            "e.g. max_rounds=60.")),
    }
    unknown_options = N_("Troubadour has the options trio_tiebreak and max_rounds, not {unknown}.")
    has_hidden_information = True
    notation, text, summary = notation, text, SUMMARY

    def configurations(self) -> list[tuple[int, dict]]:
        return [(n, {"trio_tiebreak": tiebreak, "max_rounds": 0}) for tiebreak in TIEBREAKS for n in (2, 3, 4)]

    def new_game(self, num_players: int, *, seed: int, options: dict | None = None) -> TroubadourState:
        chosen = self.check_setup(num_players, options)
        return new_state(num_players, int(seed), chosen["trio_tiebreak"], chosen["max_rounds"])

    def from_json(self, data: dict) -> TroubadourState:
        return TroubadourState.from_json(data)

    def parse_action(self, state, seat, text: str) -> dict:
        if not isinstance(text, str):
            raise IllegalAction(notation.expected(state, seat))  # an example fitted to the position
        return notation.parse(state, seat, text)


GAME = register(Troubadour())
