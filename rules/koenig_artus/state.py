"""The rules of König Artus Tafelrunde as a state machine (rules file sections 2–5).

Phases: ``play`` (a card to the trick), ``trump`` (the trick winner landed on a sword
field: choose a trump colour, swap two tokens, or defer after the last trick of a
hand), ``over``. Dealing, reshuffling, resolving tricks and moving pawns happen
inside ``apply``.
"""
from __future__ import annotations

import random
from itertools import combinations

from rules.api import Event, IllegalAction, State, check_move
from rules.lang import _
from rules.koenig_artus.text import colour_name
from rules.koenig_artus.cards import COLOURS, KNIGHT, SHIELD, card_of, full_deck, kind_of, name

HAND = 8
DEFAULT_TRACK = 27
DEFAULT_SWORDS = (3, 7, 11, 15, 19, 23)


def trick_winner(trick: list[list[int]], slots: list[int]) -> int:
    """Rules 3.4: the index in ``trick`` of the winning card."""
    best = None
    for i, (_, c) in enumerate(trick):
        if c >= KNIGHT and (best is None or kind_of(c) != kind_of(trick[best][1])):
            best = i
    if best is not None:
        return best
    rank = {colour: k for k, colour in enumerate(slots)}
    trumps = [(rank[c >> 4], c & 15, i) for i, (_, c) in enumerate(trick) if (c >> 4) in rank]
    if trumps:
        return max(trumps)[2]
    led = trick[0][1] >> 4
    return max((c & 15, i) for i, (_, c) in enumerate(trick) if c >> 4 == led)[1]


_WEIGHTS: dict[tuple[int, ...], list[float]] = {}


def weights(slots: list[int]) -> list[float]:
    """By card, its strength for ``evaluate``: a supertrump 2, a trump 1 + slot/6, another card value/22
    (remembered per trump order)."""
    key = tuple(slots)
    table = _WEIGHTS.get(key)
    if table is None:
        rank = {c: k + 1 for k, c in enumerate(slots)}
        table = [0.0] * (SHIELD + 4)
        for c in full_deck():
            table[c] = 2.0 if c >= KNIGHT else 1.0 + rank[c >> 4] / 6 if c >> 4 in rank else (c & 15) / 22
        table = _WEIGHTS.setdefault(key, table)
    return table


def lead(seat: int, pos: list[int]) -> int:
    """Fields ahead of the best other pawn (negative when behind)."""
    return pos[seat] - max(pos[:seat] + pos[seat + 1:])


def worth(ahead: int, table: list[float], hand: list[int]) -> float:
    """``evaluate`` before the end: 10 per field of lead plus the hand's strength."""
    strength = 0.0
    for c in hand:
        strength += table[c]
    return 10.0 * ahead + strength


class ArtusState(State):
    def __init__(self, n: int, seed: int, track: int = DEFAULT_TRACK, swords=DEFAULT_SWORDS):
        self.n = n
        self.seed = seed
        self.counter = 0
        self.track = track
        self.swords = sorted(swords)
        self.pos = [0] * n
        self.slots: list[int] = []  # colour indexes; slot k (1-based) is slots[k - 1]
        self.dealer = 0
        self.hand_no = 0
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.stack: list[int] = []  # the top card is the LAST element
        self.discard: list[int] = []
        self.trick: list[list[int]] = []
        self.current = 0
        self.phase = "play"
        self.decider: int | None = None
        self.can_defer = False
        self.deferred: int | None = None
        self.winner: int | None = None
        self.voids: list[list[int]] = [[] for _ in range(n)]  # colours a player showed he lacks this hand
        self.last_trick: dict | None = None
        self.reshuffles = 0
        self.old: frozenset[int] = frozenset()  # after a reshuffle: the old stack, dealt first (public, 72 − discard)
        self.hand_ends: list[list[int]] = []  # the pawns' fields at the end of each finished hand (the score table)

    def _rng(self) -> random.Random:
        self.counter += 1
        return random.Random(f"{self.seed}/{self.counter}")

    # ------------------------------------------------------------------ automatic steps
    def start_game(self) -> list[Event]:
        self.dealer = self._rng().randrange(self.n)  # A19
        self.stack = full_deck()
        self._rng().shuffle(self.stack)
        return self._start_hand(first=True)

    def _start_hand(self, first: bool = False) -> list[Event]:
        if not first:
            self.hand_ends = self.hand_ends + [list(self.pos)]  # a new list: clones share the old one
        self.hand_no += 1
        if not first:
            self.dealer = (self.dealer + 1) % self.n
        events: list[Event] = []
        self.old = frozenset()
        if len(self.stack) < HAND * self.n:  # A10: the whole discard pile goes under the stack
            self.old = frozenset(self.stack)
            pile = self.discard
            self._rng().shuffle(pile)
            self.stack = pile + self.stack
            self.discard = []
            self.reshuffles += 1
            events.append(Event("reshuffled", {"stack": len(self.stack)}))
        order = [(self.dealer + 1 + i) % self.n for i in range(self.n)]
        for _ in range(HAND):
            for p in order:
                self.hands[p].append(self.stack.pop())
        for hand in self.hands:
            hand.sort()
        self.voids = [[] for _ in range(self.n)]
        self.trick = []
        self.current = order[0]  # A9: left of the dealer leads
        events.append(Event("hand_dealt", {"hand": self.hand_no, "dealer": self.dealer, "stack": len(self.stack)}))
        events += [Event("dealt", {"seat": p, "cards": [name(c) for c in self.hands[p]]}, (p,)) for p in range(self.n)]
        if self.deferred is not None:
            self.phase, self.decider, self.can_defer = "trump", self.deferred, False
            self.deferred = None
            events.append(Event("decision_due", {"seat": self.decider, "swap": len(self.slots) == 6}))
        else:
            self.phase = "play"
        return events

    def _advance(self, p: int) -> int:
        q = self.pos[p] + 1
        occupied = {x for i, x in enumerate(self.pos) if i != p}
        while q < self.track and q in occupied:
            q += 1
        self.pos[p] = q
        return q

    def _resolve(self) -> list[Event]:
        index = trick_winner(self.trick, self.slots)
        w = self.trick[index][0]
        self.last_trick = {"cards": [[s, name(c)] for s, c in self.trick], "winner": w}
        self.discard.extend(c for _, c in self.trick)
        self.trick = []
        before = self.pos[w]
        field = self._advance(w)
        events = [Event("trick_won", {"seat": w, "from": before, "to": field})]
        if field >= self.track:
            self.winner, self.phase = w, "over"
            return events + [Event("game_won", {"seat": w})]
        self.current = w
        if field in self.swords:
            self.phase, self.decider = "trump", w
            self.can_defer = not self.hands[w]
            return events + [Event("decision_due", {"seat": w, "swap": len(self.slots) == 6})]
        return events + self._next()

    def _next(self) -> list[Event]:
        self.decider, self.can_defer = None, False
        if not any(self.hands):
            return self._start_hand()
        self.phase = "play"
        return []

    @property
    def trick_no(self) -> int:
        """The trick of the hand being played (1..8)."""
        return min(HAND, HAND - max(len(h) for h in self.hands) + 1)

    # ------------------------------------------------------------------ the contract
    def to_act(self) -> list[int]:
        if self.phase == "play":
            return [self.current]
        if self.phase == "trump":
            return [self.decider]
        return []

    def playable(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        if self.trick:
            led = self.trick[0][1]
            if led < KNIGHT:
                colour = led >> 4
                follow = [c for c in hand if c < KNIGHT and c >> 4 == colour]
                if follow:
                    return follow
        return list(hand)

    def legal_actions(self, seat: int) -> list[dict]:
        if seat not in self.to_act():
            return []
        if self.phase == "play":
            seen: set[int] = set()
            actions = []
            for c in self.playable(seat):
                key = kind_of(c) if c >= KNIGHT else c  # identical supertrumps: offer one of each kind
                if key not in seen:
                    seen.add(key)
                    actions.append({"type": "play_card", "card": name(c)})
            return actions
        if len(self.slots) < 6:
            actions = [{"type": "choose_trump", "color": COLOURS[c]} for c in range(6) if c not in self.slots]
        else:
            actions = [{"type": "swap_trump_tokens", "slots": [a, b]} for a, b in combinations(range(1, 7), 2)]
        if self.can_defer:
            actions.append({"type": "defer_trump_decision"})
        return actions

    def apply(self, seat: int, action: dict) -> list[Event]:
        check_move(action, seat, self.n, self.phase == "over")
        if seat not in self.to_act():
            raise IllegalAction(_("It is not your turn: waiting for {player}.", player=f"{{P{self.to_act()[0] + 1}}}"))
        kind = action["type"]
        if self.phase == "play":
            if kind != "play_card":
                raise IllegalAction(_("Play a card from your hand, e.g. {card}.", card=name(self.playable(seat)[0])))
            return self._apply_play(seat, action)
        if kind == "choose_trump":
            return self._apply_choose(seat, action)
        if kind == "swap_trump_tokens":
            return self._apply_swap(seat, action)
        if kind == "defer_trump_decision":
            if set(action) != {"type"}:
                raise IllegalAction(_("Deferring takes no parameters."))
            if not self.can_defer:
                raise IllegalAction(_("You can defer only after the last trick of a hand."))
            self.deferred = seat
            return [Event("decision_deferred", {"seat": seat})] + self._next()
        if len(self.slots) < 6:
            raise IllegalAction(_("You landed on a sword field: choose a trump colour, e.g. trump green."))
        raise IllegalAction(_("You landed on a sword field: swap two tokens, e.g. swap 1 6."))

    def _apply_play(self, seat: int, action: dict) -> list[Event]:
        if set(action) != {"type", "card"} or not isinstance(action["card"], str):
            raise IllegalAction(_("A play names one card, e.g. R7 (red 7) or Kn1 (Knight 1)."))
        c = card_of(action["card"])
        if c is None:
            raise IllegalAction(_("{card} is not a card; cards look like R7 (red 7), K7 (black 7), Kn1 (Knight), "
                                  "Sh2 (Shield).", card=repr(action['card'])))
        if c not in self.hands[seat]:
            raise IllegalAction(_("You do not hold {card}.", card=name(c)))
        if c not in self.playable(seat):
            led = COLOURS[self.trick[0][1] >> 4]
            raise IllegalAction(_("You must follow {led}: play one of your {led} cards.", led=colour_name(led)))
        if self.trick and self.trick[0][1] < KNIGHT and (c >= KNIGHT or c >> 4 != self.trick[0][1] >> 4):
            void = self.trick[0][1] >> 4
            if void not in self.voids[seat]:
                self.voids[seat].append(void)
        self.hands[seat].remove(c)
        self.trick.append([seat, c])
        events = [Event("card_played", {"seat": seat, "card": name(c)})]
        if len(self.trick) == self.n:
            events += self._resolve()
        else:
            self.current = (seat + 1) % self.n
        return events

    def _apply_choose(self, seat: int, action: dict) -> list[Event]:
        colour = action.get("color")
        if set(action) != {"type", "color"} or colour not in COLOURS:
            raise IllegalAction(_("Choose a colour: {colours}.", colours=", ".join(COLOURS)))
        if len(self.slots) == 6:
            raise IllegalAction(_("All six colours are trump: swap two tokens instead, e.g. swap 1 6."))
        index = COLOURS.index(colour)
        if index in self.slots:
            raise IllegalAction(_("{colour} is already trump (slot {slot}).",
                                  colour=colour_name(colour), slot=self.slots.index(index) + 1))
        self.slots.append(index)
        return [Event("trump_chosen", {"seat": seat, "color": colour, "slot": len(self.slots)})] + self._next()

    def _apply_swap(self, seat: int, action: dict) -> list[Event]:
        slots = action.get("slots")
        if set(action) != {"type", "slots"} or not isinstance(slots, list) or len(slots) != 2 or \
                not all(isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 6 for x in slots):
            raise IllegalAction(_("Swap two slots 1–6, e.g. swap 1 6."))
        if len(self.slots) < 6:
            raise IllegalAction(_("Tokens can be swapped only once all six colours are trump: choose a colour."))
        a, b = slots
        if a == b:
            raise IllegalAction(_("Choose two different slots."))
        if a > b:
            raise IllegalAction(_("List the two slots in increasing order, e.g. swap 1 6."))
        self.slots[a - 1], self.slots[b - 1] = self.slots[b - 1], self.slots[a - 1]
        return [Event("tokens_swapped", {"seat": seat, "slots": [a, b],
                                         "order": [COLOURS[c] for c in self.slots]})] + self._next()

    # ------------------------------------------------------------------ information
    def view(self, seat: int | None) -> dict:
        view = {
            "viewer": seat, "players": self.n, "track": self.track, "swords": list(self.swords),
            "pos": list(self.pos), "slots": [COLOURS[c] for c in self.slots],
            "free_tokens": [COLOURS[c] for c in range(6) if c not in self.slots],
            "dealer": self.dealer, "hand_no": self.hand_no, "trick_no": self.trick_no, "phase": self.phase,
            "to_act": self.to_act(), "trick": [[s, name(c)] for s, c in self.trick],
            "led": (COLOURS[self.trick[0][1] >> 4] if self.trick[0][1] < KNIGHT else "supertrump")
            if self.trick else None,
            "decider": self.decider, "can_defer": self.can_defer, "deferred": self.deferred,
            "hand_counts": [len(h) for h in self.hands], "stack": len(self.stack), "discard": len(self.discard),
            "last_trick": self.last_trick, "winner": self.winner,
            "hand_ends": [list(r) for r in self.hand_ends],
        }
        if seat is not None:
            view["hand"] = [name(c) for c in self.hands[seat]]
            if seat in self.to_act() and self.phase == "play":
                view["can_play"] = [name(c) for c in self.playable(seat)]
        return view

    def is_over(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[float]:
        """Pawn positions (the winner reached King Arthur's field)."""
        return [float(p) for p in self.pos]

    def ranking(self) -> list[int]:
        """The winner alone is first; the others share second place (rules 5: no ranking among losers)."""
        if self.winner is None:
            return [1 + sum(1 for o in self.pos if o > p) for p in self.pos]
        return [1 if s == self.winner else 2 for s in range(self.n)]

    def ai_rewards(self) -> list[float] | None:
        """From three players: each seat's chance to reach King Arthur first, for the strong AI's cut rollouts
        (rules.koenig_artus.ai). Between two, a trick won is a field of lead on the only rival, which ``evaluate``
        already reads (the search's default cut met its target there)."""
        if self.n < 3:
            return None
        from rules.koenig_artus.ai import win_chances

        return win_chances(self)

    def evaluate(self, seat: int) -> float:
        """Lead on the track, plus the strength of the hand under the current trump order."""
        if self.winner is not None:
            return 1000.0 if self.winner == seat else -1000.0
        return worth(lead(seat, self.pos), weights(self.slots), self.hands[seat])

    def evaluate_actions(self, seat: int, actions: list[dict]) -> list[float | None]:
        """``evaluate`` after each action without applying it; None where a new hand would be dealt."""
        if seat not in self.to_act():
            return [None] * len(actions)
        pos, slots, hand = self.pos, self.slots, self.hands[seat]
        others_empty = not any(h for p, h in enumerate(self.hands) if p != seat)
        values: list[float | None] = []
        if self.phase == "trump":
            for action in actions:
                kind = action["type"]
                if kind == "defer_trump_decision" or not any(self.hands):  # the next hand is dealt at once
                    values.append(None)
                    continue
                if kind == "choose_trump":
                    after = slots + [COLOURS.index(action["color"])]
                else:
                    a, b = action["slots"]
                    after = slots[:]
                    after[a - 1], after[b - 1] = after[b - 1], after[a - 1]
                values.append(worth(lead(seat, pos), weights(after), hand))
            return values
        completes = len(self.trick) == self.n - 1
        ahead, table = lead(seat, pos), weights(slots)
        for action in actions:
            c = card_of(action["card"])
            rest = [x for x in hand if x != c]
            if not completes:
                values.append(worth(ahead, table, rest))
                continue
            trick = self.trick + [[seat, c]]
            w = trick[trick_winner(trick, slots)][0]
            after = pos[:]
            q = after[w] + 1
            while q < self.track and q in after:  # _advance: a pawn never stands on its own next field
                q += 1
            after[w] = q
            if q >= self.track:
                values.append(1000.0 if w == seat else -1000.0)
            elif q not in self.swords and not rest and others_empty:
                values.append(None)
            else:
                values.append(worth(lead(seat, after), table, rest))
        return values

    # ------------------------------------------------------------------ persistence
    def to_json(self) -> dict:
        return {
            "n": self.n, "seed": self.seed, "counter": self.counter, "track": self.track,
            "swords": list(self.swords), "pos": list(self.pos), "slots": list(self.slots), "dealer": self.dealer,
            "hand_no": self.hand_no, "hands": [[name(c) for c in h] for h in self.hands],
            "stack": [name(c) for c in self.stack], "discard": [name(c) for c in self.discard],
            "trick": [[s, name(c)] for s, c in self.trick], "current": self.current,
            "phase": self.phase, "decider": self.decider, "can_defer": self.can_defer, "deferred": self.deferred,
            "winner": self.winner, "voids": [list(v) for v in self.voids], "last_trick": self.last_trick,
            "reshuffles": self.reshuffles, "old": [name(c) for c in sorted(self.old)],
            "hand_ends": [list(r) for r in self.hand_ends],
        }

    @classmethod
    def from_json(cls, data: dict) -> "ArtusState":
        s = cls(data["n"], data["seed"], data["track"], data["swords"])
        s.counter, s.pos, s.slots = data["counter"], list(data["pos"]), list(data["slots"])
        s.dealer, s.hand_no = data["dealer"], data["hand_no"]
        s.hands = [[card_of(c) for c in h] for h in data["hands"]]
        s.stack = [card_of(c) for c in data["stack"]]
        s.discard = [card_of(c) for c in data["discard"]]
        s.trick = [[p, card_of(c)] for p, c in data["trick"]]
        s.current, s.phase = data["current"], data["phase"]
        s.decider, s.can_defer, s.deferred = data["decider"], data["can_defer"], data["deferred"]
        s.winner, s.voids = data["winner"], [list(v) for v in data["voids"]]
        s.last_trick, s.reshuffles = data["last_trick"], data["reshuffles"]
        s.old = frozenset(card_of(c) for c in data.get("old", ()))
        s.hand_ends = [list(r) for r in data.get("hand_ends", ())]
        return s

    def clone(self, deal: bool = True) -> "ArtusState":
        """A copy; ``deal=False`` leaves the hands and the stack shared, for ``determinize`` to replace."""
        s = ArtusState.__new__(ArtusState)
        s.__dict__.update(self.__dict__)
        s.pos = self.pos[:]
        s.slots = self.slots[:]
        s.hands = [h[:] for h in self.hands] if deal else self.hands[:]
        s.stack = self.stack[:] if deal else self.stack
        s.discard = self.discard[:]
        s.trick = [t[:] for t in self.trick]
        s.voids = [v[:] for v in self.voids]
        return s

    def determinize(self, seat: int | None, rng: random.Random) -> "ArtusState":
        """Re-deal the unseen cards (others' hands and the stack), keeping what ``seat`` knows: each player's shown
        voids, and after a reshuffle that the old stack cards went to the hands first (so many to each)."""
        world = self.clone(deal=False)
        world.seed = rng.getrandbits(48)
        world.counter = 0
        others = [p for p in range(self.n) if p != seat]
        draw = rng.random
        old = self.old
        pool = list(self.stack)
        needs = {}
        old_pool: list[int] = []
        old_needs = {}
        for p in others:
            hand = self.hands[p]
            mine = [c for c in hand if c in old] if old else ()
            if mine:
                old_pool += mine
                old_needs[p] = len(mine)
                pool += [c for c in hand if c not in old]
            else:
                pool += hand
            needs[p] = len(hand) - len(mine)
        pool.sort()  # sorted: where the unseen cards really lie changes nothing
        hands, world.stack = share(pool, needs, self.voids, draw)
        if old_pool:
            extra, _ = share(sorted(old_pool), old_needs, self.voids, draw)
            for p, cards in extra.items():
                hands[p] += cards
        for p in others:
            world.hands[p] = sorted(hands[p])
        if seat is not None:
            world.hands[seat] = self.hands[seat][:]
        return world


_ALLOWED: dict[int, list[bool]] = {}


def allowed(void: list[int]) -> list[bool]:
    """By card: may a player who showed these voids hold it? (remembered per set of voids)"""
    mask = 0
    for v in void:
        mask |= 1 << v
    table = _ALLOWED.get(mask)
    if table is None:
        table = _ALLOWED[mask] = [c >= KNIGHT or not mask >> (c >> 4) & 1 for c in range(SHIELD + 4)]
    return table


def share(cards: list[int], needs: dict[int, int], voids: list[list[int]], draw, tries: int = 20):
    """Deal ``needs[p]`` of ``cards`` at random to each player p, none of a colour p showed he lacks; returns the
    hands and the rest. A greedy deal (the most constrained player first) almost always fits; if it fails ``tries``
    times, a card-by-card deal that keeps the remaining needs satisfiable (Hall's condition) always does."""
    cards = sorted(cards, key=lambda _: draw())
    bound = sorted((p for p in needs if needs[p] and voids[p]), key=lambda q: -len(voids[q]))
    free = [p for p in needs if p not in bound]
    rules = [(p, needs[p], allowed(voids[p])) for p in bound]
    for attempt in range(tries):
        if attempt:
            cards.sort(key=lambda _: draw())
        left, hands = cards, {}
        for p, k, ok in rules:  # the first k cards he may hold, in the shuffled order
            chosen, cut = [], 0
            for c in left:
                cut += 1
                if ok[c]:
                    chosen.append(c)
                    if len(chosen) == k:
                        break
            if len(chosen) < k:
                break
            hands[p] = chosen
            left = [c for c in left[:cut] if not ok[c]] + left[cut:] if cut > k else left[cut:]
        else:
            at = 0
            for p in free:
                hands[p] = left[at:at + needs[p]]
                at += needs[p]
            return hands, left[at:]
    players = sorted((p for p in needs if needs[p]), key=lambda q: -len(voids[q]))
    return _share_exactly(cards, needs, players, voids, draw)


def _share_exactly(cards, needs, players, voids, draw):
    """Card by card: a random allowed card, kept only if every group of players can still fill its needs."""
    kinds: list[list[int]] = [[] for _ in range(7)]  # six colours, then the supertrumps
    for c in cards:
        kinds[6 if c >= KNIGHT else c >> 4].append(c)
    masks = {p: 127 & ~sum(1 << v for v in voids[p]) for p in players}
    groups = []
    for size in range(1, len(players) + 1):
        for group in combinations(players, size):
            mask = 0
            for p in group:
                mask |= masks[p]
            groups.append((group, mask))
    need = {p: needs[p] for p in players}

    def fits() -> bool:
        return all(sum(need[p] for p in group) <= sum(len(kinds[k]) for k in range(7) if mask >> k & 1)
                   for group, mask in groups)

    hands = {p: [] for p in needs}
    for p in players:
        while need[p]:
            open_kinds = [k for k in range(7) if masks[p] >> k & 1 and kinds[k]]
            while True:
                if not open_kinds:  # only if the voids contradict the real hands
                    raise ValueError("the shown voids leave no deal")
                r = int(draw() * sum(len(kinds[k]) for k in open_kinds))
                for k in open_kinds:
                    if r < len(kinds[k]):
                        break
                    r -= len(kinds[k])
                card = kinds[k].pop(r)
                need[p] -= 1
                if fits():
                    hands[p].append(card)
                    break
                kinds[k].insert(r, card)
                need[p] += 1
                open_kinds.remove(k)
    rest = [c for kind in kinds for c in kind]
    rest.sort(key=lambda _: draw())
    return hands, rest
