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
"""
from __future__ import annotations

import random

from rules.api import Event, IllegalAction, State, check_move
from rules.lang import _
from rules.troubadour.ai import noble_values, sensible, trio_shortlist
from rules.troubadour.cards import (ALL_CARDS, FD, FITS, NAMES, JC, JD, JH, JS, KC, KD, KH, KS, NOBLES, QC, QD, QH, QS,
                                    SPADES_TRIO, SUITS, card_of, fits_on)
from rules.troubadour.attacks import AttackMixin
from rules.troubadour.building import BuildMixin
from rules.troubadour.flips import UNUSED, FlipMixin
from rules.troubadour.rounds import RoundMixin
from rules.troubadour.seats import seat_name, target_code
from rules.troubadour.snapshot import SnapshotMixin
from rules.troubadour.views import ViewMixin

# heuristic weights (integers, so that predicted values are exact)
W_CASTLE, W_UP, W_DOWN, W_EMPTY, W_PILE, W_COVER, W_STUCK = 100, 10, -20, 5, -3, -3, -4
W_FITS, W_FLIP, W_END = 10, 10, 1
WIN = 1_000_000


class TroubadourState(RoundMixin, FlipMixin, BuildMixin, AttackMixin, ViewMixin, SnapshotMixin, State):
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

    # ------------------------------------------------------------------ AI
    def progress(self, p: int) -> int:
        """The AI's measure of how far ``p`` is: castle cards, a small stock and waste, tidy villages."""
        cached = self._prog[p]
        if cached is None:
            cached = self._progress(p)
        return cached[0]

    def _progress(self, p: int) -> tuple:
        scores = [one_village(v) for v in self.villages[p]]
        value = (W_CASTLE * sum(self.castles[p]) + W_PILE * (len(self.stock[p]) + len(self.waste[p])) +
                 sum(scores))
        self._prog[p] = cached = (value, scores)
        return cached

    def noble_values(self, p: int) -> list[int]:
        """How much the AI likes each noble (only steers the trio choice; rules.troubadour.ai.noble_values)."""
        return noble_values(self, p)

    def trio_value(self, p: int) -> int:
        trio = self.trios[p]
        values = self.noble_values(p)
        return sum(values[x] for x in range(12) if trio >> x & 1)

    def evaluate(self, seat: int) -> float:
        """Own progress twice minus the best opponent's, flips made, turns ended, and the trio chosen."""
        if self.phase == "over":
            if self.winner is None:
                return 0.0
            return float(WIN if self.winner == seat else -WIN)
        return float(self._value(seat, self.progress(seat), self._fits_top(seat)))

    def _fits_top(self, p: int) -> bool:
        waste = self.waste[p]
        return bool(waste) and self.fits(p, waste[-1])

    def _value(self, seat: int, prog: int, fits: bool, trio_term: bool | None = None) -> int:
        others = max(self.progress(o) for o in range(self.n) if o != seat)
        value = 2 * prog - others + W_FITS * fits + W_FLIP * self.flips[seat] + W_END * self.ended[seat]
        if trio_term is None:
            trio_term = self.trios[seat] and self.round_actions == 0 and self.phase in ("select_trios", "tiebreak",
                                                                                         "turn")
        if trio_term:
            value += self.trio_value(seat)
        return value

    def evaluate_actions(self, seat: int, actions: list[dict]) -> list[float | None]:
        if self.phase == "select_trios":
            return self._predict_trios(seat, actions)
        if self.phase != "turn" or seat != self.order[self.turn_idx] or self.pending_ace is not None or \
                (self.max_rounds and self.round_no >= self.max_rounds):
            return [None] * len(actions)  # (in the last round an automatic end of a turn may end the game)
        return Predictor(self, seat).values(actions)

    def _predict_trios(self, seat: int, actions: list[dict]) -> list[float | None]:
        last = sum(1 for t in self.trios if not t) == 1
        if last and not all(self.stock[p] or self.waste[p] for p in range(self.n)):
            return [None] * len(actions)  # a turn might end at once: simulate
        base = self._value(seat, self.progress(seat), self._fits_top(seat), trio_term=False)
        values = {NOBLES[x]: v for x, v in enumerate(self.noble_values(seat))}
        out: list[float | None] = []
        for a in actions:
            nobles = a.get("nobles")
            if isinstance(nobles, list) and len(nobles) == 3 and len(set(nobles)) == 3 and \
                    all(isinstance(x, str) and x in values for x in nobles):
                out.append(float(base + values[nobles[0]] + values[nobles[1]] + values[nobles[2]]))
            else:
                out.append(None)
        return out

    def ai_actions(self, seat: int) -> list[dict]:
        """The AIs' shortlist. Trios: the one the greedy player likes best (a trio's value is all that tells them
        apart for it) and the few others the strong AI weighs (rules.troubadour.ai.trio_shortlist). Tie-break: one
        noble, its face from the seat and the round (only the face counts). A turn: when a card can go to a castle,
        only those builds (progress that is never wrong for it); else every legal action but the pointless
        village-to-village moves (rules.troubadour.ai: a search could shuffle a run back and forth)."""
        if self.phase == "select_trios" and 0 <= seat < self.n and not self.trios[seat]:
            return trio_shortlist(self.noble_values(seat), self.n)
        actions = self.legal_actions(seat)
        if self.phase == "tiebreak" and actions:
            game = next(g["games"] for g in self.rps if seat in g["seats"])
            face = "JQK"[(seat + self.round_no + game) % 3]
            return [next((a for a in actions if a["noble"][0] == face), actions[0])]
        castle = [a for a in actions if a["type"] == "build_castle"]
        return castle or sensible(self, seat, actions)


def village_score(villages: list[list[int]]) -> int:
    """The AI's measure of a player's villages: face-up cards good, face-down cards, cards lying on them and cards
    stuck below a village's top run bad, empty villages good."""
    return sum(map(one_village, villages))


def one_village(v: list[int]) -> int:
    n = len(v)
    if not n:
        return W_EMPTY
    down = 0
    top_down = -1
    i = 0
    for x in v:
        if x >= FD:
            down += 1
            top_down = i
        i += 1
    k = n - 1
    while k > top_down + 1 and FITS[v[k]][v[k - 1]]:
        k -= 1
    score = W_UP * (n - down) + W_DOWN * down + W_STUCK * (k - down)
    if down:
        score += W_COVER * (n - 1 - top_down)
    return score


def revealed(v: list[int]) -> list[int]:
    """A village after a removal: a face-down top turns up (A18)."""
    if v and v[-1] >= FD:
        v = v[:-1] + [v[-1] - FD]
    return v


class Predictor:
    """Predicts ``evaluate(p)`` after each action of the active player ``p`` without applying it (exactly: every
    term is an integer). Returns None for what it does not model (the ace decision)."""

    def __init__(self, state: TroubadourState, p: int):
        self.s = state
        self.p = p
        self.prog, self.scores = state._prog[p] or state._progress(p)
        self.vsum = sum(self.scores)
        self.rest = self.prog - self.vsum  # castles and pile
        self.opp = {o: state.progress(o) for o in range(state.n) if o != p}
        self.others = max(self.opp.values())
        self.fixed = W_FLIP * state.flips[p] + W_END * state.ended[p]

    def values(self, actions: list[dict]) -> list[float | None]:
        out = []
        for a in actions:
            method = getattr(self, "_" + a.get("type", ""), None)
            out.append(None if method is None else method(a))
        return out

    def _value(self, prog: int, fits: bool, flips: int = 0, others: int | None = None, ended: int = 0) -> float:
        if others is None:
            others = self.others
        return float(self.fixed + 2 * prog - others + W_FITS * fits + W_FLIP * flips + W_END * ended)

    def _fits(self, c: int, castles: list[int], changed: dict) -> bool:
        if c < 0:
            return False
        if castles[c // 10] == c % 10:
            return True
        fit = FITS[c]
        for i, v in enumerate(self.s.villages[self.p]):
            v = changed.get(i, v)
            if not v or fit[v[-1]]:
                return True
        return False

    def _after(self, changed: dict, castles: list[int], pile: int, wt: int, flips: int = 0) -> float:
        if castles == [10, 10, 10, 10]:
            return float(WIN)
        vsum = self.vsum
        for i, v in changed.items():
            vsum += one_village(v) - self.scores[i]
        prog = W_CASTLE * sum(castles) + W_PILE * pile + vsum
        return self._value(prog, self._fits(wt, castles, changed), flips)

    def _state(self):
        s, p = self.s, self.p
        waste = s.waste[p]
        return s.castles[p][:], len(s.stock[p]) + len(waste), (waste[-1] if waste else -1)

    # ---- turn actions
    def _end_turn(self, a: dict) -> float:
        return self._value(self.prog, self.s._fits_top(self.p), ended=1)

    def _flip(self, wt: int) -> float:
        castles, pile, _ = self._state()
        return self._value(self.prog, self._fits(wt, castles, {}), 1)

    def _standard_flip(self, a: dict) -> float:
        s, p = self.s, self.p
        stock, waste = s.stock[p], s.waste[p]
        if not a["club_jack"]:
            return self._flip(stock[-1] if stock else waste[0])
        order = stock[::-1] + waste  # J♣: the stock from its top, then the old waste from its bottom
        for c in order:
            if s.fits(p, c):
                return self._flip(c)
        return self._flip(order[-1])

    def _extra_flip(self, a: dict) -> float:
        stock, waste = self.s.stock[self.p], self.s.waste[self.p]
        return self._flip(stock[-1] if stock else waste[0])

    def _hearts_queen_king_flip(self, a: dict) -> float:
        return self._flip(card_of(a["named_card"]))

    def _build_castle(self, a: dict) -> float:
        c = card_of(a["card"])
        castles, pile, wt = self._state()
        changed = {}
        if wt == c:
            waste = self.s.waste[self.p]
            pile -= 1
            wt = waste[-2] if len(waste) > 1 else -1
        else:
            for i, v in enumerate(self.s.villages[self.p]):
                if v and v[-1] == c:
                    changed[i] = revealed(v[:-1])
                    break
        castles[c // 10] = c % 10 + 1
        return self._after(changed, castles, pile, wt)

    def _build_village(self, a: dict) -> float:
        c = card_of(a["card"])
        j = a["village"] - 1
        castles, pile, wt = self._state()
        villages = self.s.villages[self.p]
        if wt == c:
            waste = self.s.waste[self.p]
            pile -= 1
            wt = waste[-2] if len(waste) > 1 else -1
            return self._after({j: villages[j] + [c]}, castles, pile, wt)
        for i, v in enumerate(villages):
            if c in v:
                k = v.index(c)
                return self._after({i: revealed(v[:k]), j: villages[j] + v[k:]}, castles, pile, wt)
        return None

    def _hearts_jack_move(self, a: dict) -> float:
        c = card_of(a["card"])
        castles, pile, wt = self._state()
        villages = self.s.villages[self.p]
        changed = {}
        for i, v in enumerate(villages):
            if c in v:
                k = v.index(c)
                changed[i] = revealed(v[:k] + v[k + 1:])
                break
        dest = a["destination"]
        if dest == "castle":
            castles[c // 10] = c % 10 + 1
        else:
            j = dest - 1
            changed[j] = changed.get(j, villages[j]) + [c]
        return self._after(changed, castles, pile, wt)

    def _hearts_queen_reveal(self, a: dict) -> float:
        i, pos = a["village"] - 1, a["position"]
        v = self.s.villages[self.p][i][:]
        v[pos] -= FD
        castles, pile, wt = self._state()
        return self._after({i: v}, castles, pile, wt)

    # ---- attacks: only the victim's progress changes
    def _attack(self, o: int, prog: int) -> float:
        others = max(prog if q == o else x for q, x in self.opp.items())
        return self._value(self.prog, self.s._fits_top(self.p), others=others)

    def _victim(self, a: dict) -> int:
        return int(a["target"][1:]) - 1

    def _spade_jack_attack(self, a: dict) -> float:
        o = self._victim(a)
        v = self.s.villages[o][a["village"] - 1]
        return self._attack(o, self.opp[o] - one_village(v) + W_EMPTY + W_PILE * len(v))

    def _spade_queen_attack(self, a: dict) -> float:
        o = self._victim(a)
        prog = self.opp[o]
        for v in self.s.villages[o]:
            if v:
                prog += one_village(revealed(v[:-1])) - one_village(v) + W_PILE
        return self._attack(o, prog)

    def _spade_trio_attack(self, a: dict) -> float:
        o = self._victim(a)
        top = self.s.castles[o][SUITS.index(a["suit"])]
        return self._attack(o, self.opp[o] + (W_PILE - W_CASTLE) * top)


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
