"""The rules of Troubadour as a state machine (rules file sections 2–7).

Phases: ``select_trios`` (every player secretly chooses three nobles; all are revealed at once), ``tiebreak``
(identical trios, rock-paper-scissors with a fourth noble), ``turn`` (one player's many-action turn), ``over``.
The turn order, die rolls, auto-reveals, recycling and the end of a round happen inside ``apply``.

Internal representation (per seat): ``stock`` and ``waste`` are lists whose LAST element is the top card;
``villages`` are five lists bottom→top of card ints (face down: ``card | FD``); ``castles`` holds the top rank of
each suit's castle (0: no castle). Nobles and trios are bitmasks over the noble ranks 0..11 (rules 4.9).
What the public knows of a stock (for ``determinize``): ``seen`` marks the cards whose identity is public while they lie
in a stock (recycled from the waste, or face up when an attack took them), and ``cuts`` splits each stock into groups
whose inner order nobody knows (the dealt rest or one attack's shuffled block; a recycled card is a group of its own).

This module holds the state's fields, the deal, the queries the other modules share, the legal actions and
``apply``'s checks and dispatch. The rest is plain functions of the state, one module per job: ``rounds`` (trios,
tie-breaks, turns and rounds), ``actions`` (the active player's legal actions), ``flips``, ``building`` and
``attacks`` (the turn actions, ``TURN_HANDLERS``), ``checks`` (their parameters), ``views``, ``evaluation`` and
``ai`` (the AI hooks), ``snapshot`` (``to_json``, ``clone``, ``determinize``); the state's methods for those only
hand over to them.
"""
from __future__ import annotations

import random

from rules.api import Event, IllegalAction, State, check_move
from rules.lang import _
from rules.troubadour import ai, attacks, building, evaluation, flips, rounds, snapshot, views
from rules.troubadour.actions import busy, turn_actions
from rules.troubadour.cards import (ALL_CARDS, FD, JC, JD, JS, KC, KD, KS, NOBLES, QC, QD, QS, fits_on, rps_example,
                                    trio_list)
from rules.troubadour.flips import UNUSED
from rules.troubadour.seats import seat_name
from rules import undo


# the events that make something hidden known (``rules/undo.py``)
UNDO_REVEALING = frozenset({"flipped", "revealed", "trios_revealed", "rps_revealed", "die_rolled"})


class TroubadourState(State):
    """One Troubadour game in progress (the engine contract ``rules.api.State``)."""

    def __init__(self, n: int, seed: int, tiebreak: str = "rps", max_rounds: int = 0):
        self.n = n
        self.seed = seed
        self.counter = 0
        self.tiebreak = tiebreak
        self.max_rounds = max_rounds
        self.round_no = 1
        self.phase = "select_trios"
        self.stock: list[list[int]] = [[] for _ in range(n)]
        self.waste: list[list[int]] = [[] for _ in range(n)]
        self.villages: list[list[list[int]]] = [[[] for _ in range(5)] for _ in range(n)]
        self.castles: list[list[int]] = [[0, 0, 0, 0] for _ in range(n)]
        self.seen = [0] * n  # bitmask of building cards known by identity (those in the stock matter)
        self.cuts: list[list[int]] = [[] for _ in range(n)]  # ascending stock indices where an unordered group starts
        self.trios = [0] * n
        self.last_trios = [0] * n
        self.groups: list[list[int]] = []  # the round's order as groups of seats with equal trios
        self.rps: list[dict] = []  # pending rock-paper-scissors: {"seats": [a, b], "picks": [x, y], "games": k}
        self.tiebreak_log: list[dict] = []
        self.order: list[int] = []
        self.turn_idx = 0
        self.flip_slot = UNUSED
        self.extra_left = 0
        self.used = 0
        self.pending_ace: list[int] | None = None  # [village index, position]
        self.turn_actions = 0
        self.round_actions = 0
        self.back: list | None = None  # [card, village] of the turn's last village move: moving it back undoes it
        self.flips = [0] * n
        self.ended = [0] * n  # explicit end_turn actions per seat (an AI term only)
        self.winner: int | None = None
        self.draw = False
        # cache of (progress(p), its five village scores); not state: rebuilt when needed
        self._prog: list[tuple | None] = [None] * n

    def _rng(self) -> random.Random:
        self.counter += 1
        return random.Random(f"troubadour/{self.seed}/{self.counter}")

    # ------------------------------------------------------------------ set-up
    def deal(self) -> None:
        """Rules 2: per player a shuffled stock; five villages of two face-down cards and one face-up card."""
        for p in range(self.n):
            deck = list(ALL_CARDS)
            self._rng().shuffle(deck)
            top_first = deck  # deck[0] is the top of the stock
            villages = []
            at = 0
            for _ in range(5):
                villages.append([top_first[at] | FD, top_first[at + 1] | FD, top_first[at + 2]])
                at += 3
            self.villages[p] = villages
            self.stock[p] = top_first[at:][::-1]
            self.waste[p] = []
            self.castles[p] = [0, 0, 0, 0]
            self.seen[p], self.cuts[p] = 0, []
            self._prog[p] = None

    # ------------------------------------------------------------------ derived
    @property
    def current(self) -> int | None:
        return self.order[self.turn_idx] if self.phase == "turn" else None

    def has(self, p: int, noble: int) -> bool:
        return bool(self.trios[p] >> noble & 1)

    def usable(self, p: int, noble: int) -> bool:
        return bool(self.trios[p] >> noble & 1) and not self.used >> noble & 1

    def castle_accepts(self, p: int, c: int) -> bool:
        return self.castles[p][c // 10] == c % 10

    def village_accepts(self, p: int, v: int, c: int) -> bool:
        village = self.villages[p][v]
        return not village or fits_on(c, village[-1])

    def fits(self, p: int, c: int) -> bool:
        """3.3: the castle area or one of the five villages accepts ``c`` (J♣)."""
        if self.castles[p][c // 10] == c % 10:
            return True
        for v in self.villages[p]:
            if not v or fits_on(c, v[-1]):
                return True
        return False

    def facedown_count(self, p: int) -> int:
        return sum(1 for v in self.villages[p] for x in v if x & FD)

    def run_start(self, p: int, v: int) -> int:
        """The lowest index of village ``v`` from which the cards up to the top form a run (len if empty)."""
        village = self.villages[p][v]
        k = len(village) - 1
        if k < 0:
            return 0
        while k > 0:
            below = village[k - 1]
            if below & FD or not fits_on(village[k], below):
                break
            k -= 1
        return k

    def extra_grant(self, p: int) -> int:
        extra = 0
        if self.has(p, QC):
            extra += 2
        if self.has(p, KC) and any(self.trios[o] & ((1 << JC) | (1 << QC)) for o in range(self.n) if o != p):
            extra += 3
        return extra

    def protected(self, target: int, noble: int) -> bool:
        return self.has(target, {JS: JD, QS: QD, KS: KD}[noble])

    def opponents(self, p: int) -> list[int]:
        return [o for o in range(self.n) if o != p]

    # ------------------------------------------------------------------ the contract
    def is_secret(self, seat: int, action: dict) -> bool:
        """The trio and the tie-break noble are chosen in secret and revealed all at once."""
        return isinstance(action, dict) and action.get("type") in ("choose_trio", "choose_tiebreak_noble")

    def to_act(self) -> list[int]:
        if self.phase == "select_trios":
            return [p for p in range(self.n) if not self.trios[p]]
        if self.phase == "tiebreak":
            return sorted(s for g in self.rps for s, pick in zip(g["seats"], g["picks"]) if pick is None)
        if self.phase == "turn":
            return [self.order[self.turn_idx]]
        return []

    def next_to_act(self) -> int | None:
        """The next in this round's order, when a card to flip keeps them busy (their stock and waste only grow
        on others' turns); one with neither may have their turn ended at once, and after the last turn the new
        round's trios are chosen by everyone at once."""
        if self.phase != "turn" or self.turn_idx + 1 == len(self.order):
            return None
        q = self.order[self.turn_idx + 1]
        return q if self.stock[q] or self.waste[q] else None

    def legal_actions(self, seat: int) -> list[dict]:
        if self.phase == "select_trios":
            if not (0 <= seat < self.n) or self.trios[seat]:
                return []
            return [{"type": "choose_trio", "nobles": [NOBLES[a], NOBLES[b], NOBLES[c]]}
                    for a in range(12) for b in range(a + 1, 12) for c in range(b + 1, 12)]
        if self.phase == "tiebreak":
            if seat not in self.to_act():
                return []
            return [{"type": "choose_tiebreak_noble", "noble": NOBLES[x]} for x in range(12)
                    if not self.trios[seat] >> x & 1]
        if self.phase == "turn" and seat == self.order[self.turn_idx]:
            return self._turn_actions(seat)
        return []

    def _turn_actions(self, p: int) -> list[dict]:
        return turn_actions(self, p)

    # ------------------------------------------------------------------ apply
    def apply(self, seat: int, action: dict) -> list[Event]:
        check_move(action, seat, self.n, self.phase == "over")
        kind = action["type"]
        if self.phase == "select_trios":
            if kind != "choose_trio":
                raise IllegalAction(_("Everyone first chooses three nobles in secret, e.g. `trio JC QC JH`."))
            return rounds.choose_trio(self, seat, action)
        if self.phase == "tiebreak":
            if kind != "choose_tiebreak_noble":
                raise IllegalAction(_("Identical trios: the tied players each choose one of their other nobles "
                                      "(rock-paper-scissors), e.g. `rps {noble}`.",
                                      noble=rps_example(trio_list(self.trios[seat]))))
            return rounds.choose_tiebreak(self, seat, action)
        p = self.order[self.turn_idx]
        if seat != p:
            raise IllegalAction(_("It is not your turn: waiting for {player}.", player=seat_name(p)))
        handler = TURN_HANDLERS.get(kind)
        if handler is None:
            if kind in ("choose_trio", "choose_tiebreak_noble"):
                raise IllegalAction(_("The trios of this round are already chosen and revealed."))
            raise IllegalAction(_("Unknown action {kind}.", kind=repr(kind)) + " " + self._turn_hint())
        if self.pending_ace is not None and kind != "hearts_queen_ace":
            raise IllegalAction(_("Q♥ revealed an ace: first decide whether it starts its castle (`ace castle`) or "
                                  "stays in the village (`ace keep`)."))
        events = handler(self, p, action)
        self._prog[p] = None
        self.back = None
        if kind == "build_village" and events[0].data["from"] != "waste":  # what would undo it (rules.troubadour.ai)
            self.back = [events[0].data["cards"][0], int(events[0].data["from"][1:])]
        if self.phase == "turn" and self.order[self.turn_idx] == p and kind != "end_turn":
            self.turn_actions += 1
            self.round_actions += 1
            if not busy(self, p):
                events += rounds.end_turn(self, p, auto=True)
        if self.phase != "turn" or self.order[self.turn_idx] != p:
            self.back = None  # another turn
        return events

    def _turn_hint(self) -> str:
        return _("Turn actions: flip, extra, 7C castle, 7C V2, JH 8H castle, QH V2 1, QHKH 7S, JS P2 V3, QS P2, "
                 "spades P2 H, end.")

    # ------------------------------------------------------------------ outcome
    def undo_refusal(self, seat: int, events: list[Event], before: State) -> str | None:
        """Flips turn up stock cards, a build may uncover a village card, trios and tie-break nobles are shown
        together: those are final; building, moving and attacking with known cards within a turn can be taken back
        step by step."""
        return undo.refusal(seat, events, chance=self.counter != before.counter, revealing=UNDO_REVEALING)

    def is_over(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[float]:
        """Cards in castles (the winner has all 40); the rules have no points (a tie-free race)."""
        return [float(sum(c)) for c in self.castles]

    def ranking(self) -> list[int]:
        if self.winner is not None:
            return [1 if s == self.winner else 2 for s in range(self.n)]
        if self.draw:
            return [1] * self.n
        cards = [sum(c) for c in self.castles]
        return [1 + sum(1 for o in cards if o > x) for x in cards]

    # ------------------------------------------------------------------ the AI's hooks (evaluation.py, ai.py)
    def evaluate(self, seat: int) -> float:
        return evaluation.evaluate(self, seat)

    def evaluate_actions(self, seat: int, actions: list[dict]) -> list[float | None]:
        return evaluation.evaluate_actions(self, seat, actions)

    def ai_actions(self, seat: int) -> list[dict]:
        return ai.ai_actions(self, seat)

    # ------------------------------------------------------------------ information (views.py)
    def view(self, seat: int | None) -> dict:
        return views.view(self, seat)

    # ------------------------------------------------------------------ persistence and copies (snapshot.py)
    def to_json(self) -> dict:
        return snapshot.to_json(self)

    @classmethod
    def from_json(cls, data: dict) -> "TroubadourState":
        return snapshot.from_json(cls, data)

    def clone(self) -> "TroubadourState":
        return snapshot.clone(self)

    def determinize(self, seat: int | None, rng: random.Random) -> "TroubadourState":
        return snapshot.determinize(self, seat, rng)


# each turn action's handler (flips.py, building.py, attacks.py; end_turn: rounds.py), looked up once per apply
TURN_HANDLERS = {
    "standard_flip": flips.standard_flip,
    "hearts_queen_king_flip": flips.hearts_qk_flip,
    "extra_flip": flips.extra_flip,
    "build_castle": building.build_castle,
    "build_village": building.build_village,
    "hearts_jack_move": building.hearts_jack,
    "hearts_queen_reveal": building.hearts_queen_reveal,
    "hearts_queen_ace": building.hearts_queen_ace,
    "spade_jack_attack": attacks.spade_jack,
    "spade_queen_attack": attacks.spade_queen,
    "spade_trio_attack": attacks.spade_trio,
    "end_turn": rounds.end_turn_action,
}


def new_state(n: int, seed: int, tiebreak: str = "rps", max_rounds: int = 0) -> TroubadourState:
    s = TroubadourState(n, seed, tiebreak, max_rounds)
    s.deal()
    return s
