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
``apply``'s checks and dispatch. The rest of the class comes from one mixin per job: ``rounds`` (trios, tie-breaks,
turns and rounds), ``flips``, ``building`` and ``attacks`` (the turn actions, ``TURN_HANDLERS``), ``views``,
``evaluation`` and ``ai`` (the AI hooks), ``snapshot`` (``to_json``, ``clone``, ``determinize``). A mixin's method is
found as fast as the class's own, so the AI's hot paths (``legal_actions``, ``apply``, ``clone``) cost the same.
"""
from __future__ import annotations

import random

from rules.api import Event, IllegalAction, State, check_move
from rules.lang import _
from rules.troubadour.ai import ShortlistMixin
from rules.troubadour.attacks import AttackMixin
from rules.troubadour.building import BuildMixin
from rules.troubadour.cards import (ALL_CARDS, FD, FITS, NAMES, JC, JD, JH, JS, KC, KD, KH, KS, NOBLES, QC, QD, QH, QS,
                                    SPADES_TRIO, SUITS, fits_on)
from rules.troubadour.evaluation import EvaluationMixin
from rules.troubadour.flips import UNUSED, FlipMixin
from rules.troubadour.rounds import RoundMixin
from rules.troubadour.seats import seat_name, target_code
from rules.troubadour.snapshot import SnapshotMixin
from rules.troubadour.views import ViewMixin


class TroubadourState(RoundMixin, FlipMixin, BuildMixin, AttackMixin, ViewMixin, EvaluationMixin, ShortlistMixin,
                      SnapshotMixin, State):
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
        return list(self._gen_actions(p))

    def _gen_actions(self, p: int):
        """The active player's legal actions, in order: flips, castle builds, ``end_turn``, village builds, J♥, Q♥,
        attacks (whoever always takes the first one never loops: flips and castle builds are finite)."""
        if self.pending_ace is not None:
            yield {"type": "hearts_queen_ace", "start_castle": True}
            yield {"type": "hearts_queen_ace", "start_castle": False}
            return
        trio, used = self.trios[p], self.used
        stock, waste = self.stock[p], self.waste[p]
        villages, castles = self.villages[p], self.castles[p]
        if stock or waste:
            if self.flip_slot == UNUSED:
                yield {"type": "standard_flip", "club_jack": False}
                if trio >> JC & 1 and not used >> JC & 1:
                    yield {"type": "standard_flip", "club_jack": True}
                if trio >> QH & 1 and trio >> KH & 1 and not used & ((1 << QH) | (1 << KH)) and \
                        not any(x >= FD for v in villages for x in v):
                    for c in sorted(stock + waste):
                        yield {"type": "hearts_queen_king_flip", "named_card": NAMES[c]}
            elif self.extra_left > 0:
                yield {"type": "extra_flip"}
        tops = [v[-1] if v else -1 for v in villages]
        wt = waste[-1] if waste else -1
        if wt >= 0 and castles[wt // 10] == wt % 10:
            yield {"type": "build_castle", "card": NAMES[wt]}
        for t in tops:
            if t >= 0 and castles[t // 10] == t % 10:
                yield {"type": "build_castle", "card": NAMES[t]}
        yield {"type": "end_turn"}
        if wt >= 0:
            nm = NAMES[wt]
            fit = FITS[wt]
            for j, t in enumerate(tops):
                if t < 0 or fit[t]:
                    yield {"type": "build_village", "card": nm, "village": j + 1}
        for i, v in enumerate(villages):
            if not v:
                continue
            k = len(v) - 1
            while k > 0 and v[k - 1] < FD and FITS[v[k]][v[k - 1]]:
                k -= 1
            for idx in range(k, len(v)):
                c = v[idx]
                fit = FITS[c]
                for j, t in enumerate(tops):
                    if j != i and (t < 0 or fit[t]):
                        yield {"type": "build_village", "card": NAMES[c], "village": j + 1}
        if trio >> JH & 1 and not used >> JH & 1:
            for i, v in enumerate(villages):
                last = len(v) - 1
                for idx, c in enumerate(v):
                    if c >= FD:
                        continue
                    nm = NAMES[c]
                    if castles[c // 10] == c % 10:
                        yield {"type": "hearts_jack_move", "card": nm, "destination": "castle"}
                    fit = FITS[c]
                    for j, t in enumerate(tops):
                        if j == i and idx == last:
                            continue
                        if t < 0 or fit[t]:
                            yield {"type": "hearts_jack_move", "card": nm, "destination": j + 1}
        if trio >> QH & 1 and not used >> QH & 1:
            for i, v in enumerate(villages):
                for idx, c in enumerate(v):
                    if c >= FD:
                        yield {"type": "hearts_queen_reveal", "village": i + 1, "position": idx}
        if trio & SPADES_TRIO:
            opps = self.opponents(p)
            if trio >> JS & 1 and not used >> JS & 1:
                for o in opps:
                    if not self.has(o, JD):
                        for j, v in enumerate(self.villages[o]):
                            if v:
                                yield {"type": "spade_jack_attack", "target": target_code(o), "village": j + 1}
            if trio >> QS & 1 and not used >> QS & 1:
                for o in opps:
                    if not self.has(o, QD) and any(self.villages[o]):
                        yield {"type": "spade_queen_attack", "target": target_code(o)}
            if trio == SPADES_TRIO and not used & SPADES_TRIO:
                for o in opps:
                    if not self.has(o, KD):
                        for s in range(4):
                            if self.castles[o][s]:
                                yield {"type": "spade_trio_attack", "target": target_code(o), "suit": SUITS[s]}

    def _busy(self, p: int) -> bool:
        """Whether ``p`` (the active player) can do anything but end the turn."""
        if self.pending_ace is not None:
            return True
        if (self.stock[p] or self.waste[p]) and (self.flip_slot == UNUSED or self.extra_left > 0):
            return True
        for a in self._gen_actions(p):
            if a["type"] != "end_turn":
                return True
        return False

    # ------------------------------------------------------------------ apply
    def apply(self, seat: int, action: dict) -> list[Event]:
        check_move(action, seat, self.n, self.phase == "over")
        kind = action["type"]
        if self.phase == "select_trios":
            if kind != "choose_trio":
                raise IllegalAction(_("Everyone first chooses three nobles in secret, e.g. `trio JC QC JH`."))
            return self._choose_trio(seat, action)
        if self.phase == "tiebreak":
            if kind != "choose_tiebreak_noble":
                raise IllegalAction(_("Identical trios: the tied players each choose one of their other nobles "
                                      "(rock-paper-scissors), e.g. `rps QH`."))
            return self._choose_tiebreak(seat, action)
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
        if self.phase == "turn" and self.order[self.turn_idx] == p and kind != "end_turn":
            self.turn_actions += 1
            self.round_actions += 1
            if not self._busy(p):
                events += self._end_turn(p, auto=True)
        return events

    def _turn_hint(self) -> str:
        return _("Turn actions: flip, extra, 7C castle, 7C V2, JH 8H castle, QH V2 1, QHKH 7S, JS P2 V3, QS P2, "
                 "spades P2 H, end.")

    @staticmethod
    def _fields(action: dict, keys: tuple, example: str) -> None:
        if set(action) != {"type", *keys}:
            if keys:
                raise IllegalAction(_("{type} takes {keys}, e.g. `{example}`.", type=action['type'],
                                      keys=", ".join(keys), example=example))
            raise IllegalAction(_("{type} takes no parameters, e.g. `{example}`.", type=action['type'],
                                  example=example))

    # ------------------------------------------------------------------ outcome
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


# each turn action's handler (flips.py, building.py, attacks.py; end_turn: rounds.py), looked up once per apply
TURN_HANDLERS = {
    "standard_flip": TroubadourState._standard_flip,
    "hearts_queen_king_flip": TroubadourState._hearts_qk_flip,
    "extra_flip": TroubadourState._extra_flip,
    "build_castle": TroubadourState._build_castle,
    "build_village": TroubadourState._build_village,
    "hearts_jack_move": TroubadourState._hearts_jack,
    "hearts_queen_reveal": TroubadourState._hearts_queen_reveal,
    "hearts_queen_ace": TroubadourState._hearts_queen_ace,
    "spade_jack_attack": TroubadourState._spade_jack,
    "spade_queen_attack": TroubadourState._spade_queen,
    "spade_trio_attack": TroubadourState._spade_trio,
    "end_turn": TroubadourState._end_turn_action,
}


def new_state(n: int, seed: int, tiebreak: str = "rps", max_rounds: int = 0) -> TroubadourState:
    s = TroubadourState(n, seed, tiebreak, max_rounds)
    s.deal()
    return s
