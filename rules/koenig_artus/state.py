"""The rules of König Artus Tafelrunde as a state machine (rules file sections 2–5).

Phases: ``play`` (a card to the trick), ``trump`` (the trick winner landed on a sword
field: choose a trump colour, swap two tokens, or defer after the last trick of a
hand), ``over``. Dealing, reshuffling, resolving tricks and moving pawns happen
inside ``apply``.

Beside the rules: ``ai.py`` holds the AI's hooks and ``copies.py`` JSON, clones and sampled worlds; the state's
methods for those only hand over to them. Which card wins a trick is in ``cards.py``.
"""
from __future__ import annotations

import random
from itertools import combinations

from rules.api import Event, IllegalAction, State, check_move
from rules.lang import _
from rules.koenig_artus import ai, copies
from rules.koenig_artus.cards import COLOURS, KNIGHT, card_of, full_deck, kind_of, name, trick_winner
from rules.koenig_artus.text import colour_name
from rules import undo

HAND = 8
DEFAULT_TRACK = 27
DEFAULT_SWORDS = (3, 7, 11, 15, 19, 23)


# the events that make something hidden known (``rules/undo.py``)
UNDO_REVEALING = frozenset({"card_played"})


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

    def next_to_act(self) -> int | None:
        """The next seat within a trick; a trick's winner leads the next one and may have a trump to choose."""
        if self.phase != "play" or len(self.trick) + 1 == self.n:
            return None
        return (self.current + 1) % self.n

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

    def undo_refusal(self, seat: int, events: list[Event], before: State) -> str | None:
        """A card played leaves a hidden hand: final; choosing a trump, swapping tokens or deferring can be taken
        back."""
        return undo.refusal(seat, events, chance=self.counter != before.counter, revealing=UNDO_REVEALING)

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

    # ------------------------------------------------------------------ the AI's hooks (ai.py)
    def ai_rewards(self) -> list[float] | None:
        return ai.ai_rewards(self)

    def evaluate(self, seat: int) -> float:
        return ai.evaluate(self, seat)

    def evaluate_actions(self, seat: int, actions: list[dict]) -> list[float | None]:
        return ai.evaluate_actions(self, seat, actions)

    # ------------------------------------------------------------------ persistence and copies (copies.py)
    def to_json(self) -> dict:
        return copies.to_json(self)

    @classmethod
    def from_json(cls, data: dict) -> "ArtusState":
        return copies.from_json(cls, data)

    def clone(self, deal: bool = True) -> "ArtusState":
        """A copy; ``deal=False`` leaves the hands and the stack shared, for ``determinize`` to replace."""
        return copies.clone(self, deal)

    def determinize(self, seat: int | None, rng: random.Random) -> "ArtusState":
        return copies.determinize(self, seat, rng)
