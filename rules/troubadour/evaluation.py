"""How the Troubadour AI rates a position, and the exact forecast of that rating after each turn action.

``evaluate``: a player's progress (castle cards, tidy villages with few face-down cards, a small stock and waste)
twice minus the best opponent's, plus flips made, turns ended by choice and, at a round's start, the liking of its
trio. Every term is an integer, so ``Predictor`` computes ``evaluate`` after each legal action without applying it
(``evaluate_actions``: the greedy player weighs a turn's many actions without cloning the state for each); both
live here because they must agree exactly.

Plain functions of the state (``rules.troubadour.state.TroubadourState``, whose fields are described there)."""
from __future__ import annotations

from rules.api import State
from rules.troubadour.ai import noble_values
from rules.troubadour.cards import FD, FITS, NOBLES, SUITS, card_of


# heuristic weights (integers, so that predicted values are exact)
W_CASTLE, W_UP, W_DOWN, W_EMPTY, W_PILE, W_COVER, W_STUCK = 100, 10, -20, 5, -3, -3, -4
W_FITS, W_FLIP, W_END = 10, 10, 1
WIN = 1_000_000


def progress(state, p: int) -> int:
    """The AI's measure of how far ``p`` is: castle cards, a small stock and waste, tidy villages."""
    cached = state._prog[p]
    if cached is None:
        cached = compute_progress(state, p)
    return cached[0]


def compute_progress(state, p: int) -> tuple:
    scores = [one_village(v) for v in state.villages[p]]
    value = (W_CASTLE * sum(state.castles[p]) + W_PILE * (len(state.stock[p]) + len(state.waste[p])) +
             sum(scores))
    state._prog[p] = cached = (value, scores)
    return cached


def trio_value(state, p: int) -> int:
    trio = state.trios[p]
    values = noble_values(state, p)
    return sum(values[x] for x in range(12) if trio >> x & 1)


def evaluate(state, seat: int) -> float:
    """Own progress twice minus the best opponent's, flips made, turns ended, and the trio chosen."""
    if state.phase == "over":
        if state.winner is None:
            return 0.0
        return float(WIN if state.winner == seat else -WIN)
    return float(value_of(state, seat, progress(state, seat), fits_top(state, seat)))


def fits_top(state, p: int) -> bool:
    waste = state.waste[p]
    return bool(waste) and state.fits(p, waste[-1])


def value_of(state, seat: int, prog: int, fits: bool, trio_term: bool | None = None) -> int:
    others = max(progress(state, o) for o in range(state.n) if o != seat)
    value = 2 * prog - others + W_FITS * fits + W_FLIP * state.flips[seat] + W_END * state.ended[seat]
    if trio_term is None:
        trio_term = state.trios[seat] and state.round_actions == 0 and state.phase in ("select_trios", "tiebreak",
                                                                                     "turn")
    if trio_term:
        value += trio_value(state, seat)
    return value


def evaluate_actions(state, seat: int, actions: list[dict]) -> list[float | None]:
    if state.phase == "select_trios":
        return predict_trios(state, seat, actions)
    if state.phase != "turn" or seat != state.order[state.turn_idx] or state.pending_ace is not None or \
            (state.max_rounds and state.round_no >= state.max_rounds):
        return [None] * len(actions)  # (in the last round an automatic end of a turn may end the game)
    return Predictor(state, seat).values(actions)


def predict_trios(state, seat: int, actions: list[dict]) -> list[float | None]:
    last = sum(1 for t in state.trios if not t) == 1
    if last and not all(state.stock[p] or state.waste[p] for p in range(state.n)):
        return [None] * len(actions)  # a turn might end at once: simulate
    base = value_of(state, seat, progress(state, seat), fits_top(state, seat), trio_term=False)
    values = {NOBLES[x]: v for x, v in enumerate(noble_values(state, seat))}
    out: list[float | None] = []
    for a in actions:
        nobles = a.get("nobles")
        if isinstance(nobles, list) and len(nobles) == 3 and len(set(nobles)) == 3 and \
                all(isinstance(x, str) and x in values for x in nobles):
            out.append(float(base + values[nobles[0]] + values[nobles[1]] + values[nobles[2]]))
        else:
            out.append(None)
    return out


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

    def __init__(self, state: State, p: int):
        self.s = state
        self.p = p
        self.prog, self.scores = state._prog[p] or compute_progress(state, p)
        self.vsum = sum(self.scores)
        self.rest = self.prog - self.vsum  # castles and pile
        self.opp = {o: progress(state, o) for o in range(state.n) if o != p}
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
        return self._value(self.prog, fits_top(self.s, self.p), ended=1)

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
        return self._value(self.prog, fits_top(self.s, self.p), others=others)

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
