"""The rules of Mit List und Tücke as a state machine (rules file sections 2–5).

Phases: ``play`` (lead or follow), ``pick`` (the high-trump player W takes H cards),
``hide`` (a player who now holds all four colours turns two piles face down),
``over``. Dealing, resolving a trick, handing the rest to the low player T, the early
end of a round and the scoring are automatic steps inside ``apply``.

Beside the rules: ``scoring.py`` scores piles, ``ai.py`` holds the greedy AI's hooks and ``copies.py`` JSON, clones
and sampled worlds; the state's methods for those only hand over to them.
"""
from __future__ import annotations

import random
from itertools import combinations

from rules.api import Event, IllegalAction, State, check_move, ranking_from_scores
from rules.lang import _
from rules.list_und_tuecke import ai, copies
from rules.list_und_tuecke.cards import (COLOURS, HAND_SIZE, PICK_COUNT, REST_COUNT, colour_of, deck, name,
                                        parse_card, value_of)
from rules.list_und_tuecke.scoring import best_hide, round_score
from rules import undo


def _sort_cards(cards) -> list[int]:
    return sorted(cards)


# the events that make something hidden known (``rules/undo.py``)
UNDO_REVEALING = frozenset({"card_played"})


class LuTState(State):
    """One game. ``piles[p][c]`` are the cards seat p collected in colour c (open or hidden)."""

    def __init__(self, n: int, seed: int):
        self.n = n
        self.seed = seed
        self.counter = 0
        self.h = PICK_COUNT[n]
        self.l = REST_COUNT[n]
        self.round_no = 0
        self.dealer = 0
        self.totals = [0] * n
        self.round_scores: list[list[int]] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.piles: list[list[list[int]]] = [[[] for _ in range(4)] for _ in range(n)]
        self.hidden: list[list[int] | None] = [None] * n
        self.points = [0] * n  # this round's points so far, kept up to date for views and the AI
        self.trick: list[list[int]] = []  # [seat, card] in playing order
        self.trick_no = 0
        self.leader = 0
        self.phase = "play"
        self.high: int | None = None  # W of the trick being resolved
        self.low: int | None = None  # T of the trick being resolved
        self.hider: int | None = None  # the player asked to hide now
        self.after_hide: str | None = None  # what follows the hiding: "distribute" (W hid) or "end" (T hid)
        self.picked: list[int] = []
        self.out_of_round: list[int] = []
        self.last_trick: dict | None = None
        self.aborted_by: int | None = None

    # ------------------------------------------------------------------ randomness
    def _rng(self) -> random.Random:
        self.counter += 1
        return random.Random(f"{self.seed}/{self.counter}")

    # ------------------------------------------------------------------ automatic steps
    def start_game(self) -> list[Event]:
        self.dealer = self._rng().randrange(self.n)  # rules A20: a random first dealer
        return self._start_round()

    def _start_round(self) -> list[Event]:
        self.round_no += 1
        cards = deck(self.n)
        self._rng().shuffle(cards)
        self.hands = [_sort_cards(cards[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in range(self.n)]
        self.piles = [[[] for _ in range(4)] for _ in range(self.n)]
        self.hidden = [None] * self.n
        self.points = [0] * self.n
        self.trick, self.out_of_round = [], []  # last_trick and aborted_by stay on the board until the first card
        self.trick_no = 1
        self.leader = (self.dealer + 1) % self.n
        self.phase = "play"
        events = [Event("round_started", {"round": self.round_no, "dealer": self.dealer, "leader": self.leader})]
        events += [Event("dealt", {"seat": s, "cards": [name(c) for c in self.hands[s]]}, (s,))
                   for s in range(self.n)]
        return events

    def next_to_play(self) -> int:
        return (self.leader + len(self.trick)) % self.n

    def next_to_act(self) -> int | None:
        """The next seat within a trick while the trick shows fewer than two colours: from then on the card to
        come may make a third, and a next player who cannot follow ends the round (only their hand tells). The
        trick's picks go to whoever played the highest trump: not known before."""
        if self.phase != "play" or len(self.trick) + 1 == self.n or len(self.trick_colours()) >= 2:
            return None
        return (self.next_to_play() + 1) % self.n

    def trick_colours(self) -> set[int]:
        return {colour_of(c) for _, c in self.trick}

    def _after_card(self) -> list[Event]:
        if len(self.trick) == self.n:
            return self._resolve()
        colours = self.trick_colours()
        seat = self.next_to_play()
        if len(colours) == 3 and not any(colour_of(c) in colours for c in self.hands[seat]):
            return self._abort_round(seat)
        return []

    def _resolve(self) -> list[Event]:
        trump = colour_of(self.trick[0][1])
        self.high = max((c, s) for s, c in self.trick if colour_of(c) == trump)[1]
        foreign = [(value_of(c), i, s) for i, (s, c) in enumerate(self.trick) if colour_of(c) != trump]
        self.low = min(foreign)[2] if foreign else None  # lowest value; the earliest played on a tie (A8)
        self.phase = "pick"
        return [Event("trick_resolved", {"trump": COLOURS[trump], "high": self.high, "low": self.low,
                                         "pick": self.h, "rest": self.n - self.h})]

    def _collect(self, seat: int, cards: list[int]) -> None:
        piles = self.piles[seat]
        for c in cards:
            piles[c >> 5] = piles[c >> 5] + [c]  # a new list: clones share the pile lists (see ``clone``)
        self._rescore(seat)

    def _rescore(self, seat: int) -> None:
        self.points[seat] = round_score([len(p) for p in self.piles[seat]], self.hidden[seat])

    def _holds_all_colours(self, seat: int) -> bool:
        return all(self.piles[seat][c] for c in range(4))

    def _needs_hide(self, seat: int) -> bool:
        return self.hidden[seat] is None and self._holds_all_colours(seat)

    def _hide(self, seat: int, colours: list[int], auto: bool = False) -> list[Event]:
        self.hidden[seat] = sorted(colours)
        self._rescore(seat)
        return [Event("colors_hidden", {"seat": seat, "colors": [COLOURS[c] for c in self.hidden[seat]],
                                        "auto": auto})]

    def _ask_hide(self, seat: int, then: str) -> list[Event] | None:
        """Hiding is due for ``seat``: ask, or in the last trick apply the best choice at once (A13)."""
        if self.trick_no == HAND_SIZE:
            counts = [len(p) for p in self.piles[seat]]
            return self._hide(seat, best_hide(counts), auto=True)
        self.phase, self.hider, self.after_hide = "hide", seat, then
        return None

    def _distribute(self) -> list[Event]:
        """The rest of the trick goes to T (or out of the round after an all-trump trick)."""
        rest = [c for _, c in self.trick if c not in self.picked]
        events: list[Event] = []
        if self.low is not None:
            self._collect(self.low, rest)
            events.append(Event("cards_received", {"seat": self.low, "cards": [name(c) for c in rest]}))
        else:
            self.out_of_round = self.out_of_round + rest
            events.append(Event("cards_removed", {"cards": [name(c) for c in rest]}))
        if self.low is not None and self._needs_hide(self.low):
            asked = self._ask_hide(self.low, "end")
            if asked is None:
                return events
            events += asked
        return events + self._end_trick()

    def _end_trick(self) -> list[Event]:
        leader = self.low if self.low is not None else self.high
        self.last_trick = {"cards": [[s, name(c)] for s, c in self.trick], "high": self.high, "low": self.low,
                           "picked": [name(c) for c in self.picked],
                           "rest": [name(c) for _, c in self.trick if c not in self.picked]}
        self.trick, self.picked, self.high, self.low, self.hider, self.after_hide = [], [], None, None, None, None
        if self.trick_no == HAND_SIZE:
            return self._score_round()
        self.trick_no += 1
        self.leader = leader
        self.phase = "play"
        return [Event("next_leader", {"seat": leader})]

    def _abort_round(self, seat: int) -> list[Event]:
        """Rules 4.7: the player to act cannot play; the trick and every hand become worthless."""
        self.aborted_by = seat
        self.out_of_round = self.out_of_round + [c for _, c in self.trick]
        self.last_trick = {"cards": [[s, name(c)] for s, c in self.trick], "aborted": True}
        self.trick = []
        self.hands = [[] for _ in range(self.n)]
        return [Event("round_aborted", {"seat": seat, "round": self.round_no})] + self._score_round()

    def _score_round(self) -> list[Event]:
        scores = [round_score([len(p) for p in self.piles[s]], self.hidden[s]) for s in range(self.n)]
        self.round_scores = self.round_scores + [scores]
        self.totals = [t + s for t, s in zip(self.totals, scores)]
        events = [Event("round_scored", {"round": self.round_no, "scores": scores, "totals": list(self.totals)})]
        if self.round_no == self.n:
            self.phase = "over"
            return events + [Event("game_over", {"totals": list(self.totals), "ranking": self.ranking()})]
        self.dealer = (self.dealer + 1) % self.n
        return events + self._start_round()

    # ------------------------------------------------------------------ the contract
    def to_act(self) -> list[int]:
        if self.phase == "play":
            return [self.next_to_play()]
        if self.phase == "pick":
            return [self.high]
        if self.phase == "hide":
            return [self.hider]
        return []

    def playable(self, seat: int) -> list[int]:
        colours = self.trick_colours()
        hand = self.hands[seat]
        if len(colours) == 3:
            return [c for c in hand if colour_of(c) in colours]
        return list(hand)

    def legal_actions(self, seat: int) -> list[dict]:
        if seat not in self.to_act():
            return []
        if self.phase == "play":
            return [{"type": "play_card", "card": name(c)} for c in self.playable(seat)]
        if self.phase == "pick":
            cards = sorted(c for _, c in self.trick)
            return [{"type": "pick_cards", "cards": [name(c) for c in combo]} for combo in combinations(cards, self.h)]
        return [{"type": "hide_colors", "colors": [COLOURS[a], COLOURS[b]]} for a, b in combinations(range(4), 2)]

    def apply(self, seat: int, action: dict) -> list[Event]:
        check_move(action, seat, self.n, self.phase == "over")
        if seat not in self.to_act():
            raise IllegalAction(_("It is not your turn: waiting for {player}.", player=f"{{P{self.to_act()[0] + 1}}}"))
        kind = action["type"]
        expected = {"play": "play_card", "pick": "pick_cards", "hide": "hide_colors"}[self.phase]
        if kind != expected:
            raise IllegalAction(self._what_now(seat))
        if kind == "play_card":
            return self._apply_play(seat, action)
        if kind == "pick_cards":
            return self._apply_pick(seat, action)
        return self._apply_hide(seat, action)

    def _what_now(self, seat: int) -> str:
        if self.phase == "play":
            return _("Play a card from your hand, e.g. {card}.", card=name(self.playable(seat)[0]))
        if self.phase == "pick":
            return _("Pick {n} cards of the trick, e.g. pick {cards}.", n=self.h, cards=" ".join(
                name(c) for c in sorted(c for _seat, c in self.trick)[:self.h]))
        return _("Choose two colours to hide, e.g. hide B Y.")

    def _apply_play(self, seat: int, action: dict) -> list[Event]:
        if set(action) != {"type", "card"} or not isinstance(action["card"], str):
            raise IllegalAction(_("A play names one card, e.g. R10."))
        c = parse_card(action["card"])
        if c is None or action["card"] != name(c):
            raise IllegalAction(_("{card} is not a card; cards look like R10 or Y3.", card=repr(action['card'])))
        if c not in self.hands[seat]:
            raise IllegalAction(_("You do not hold {card}.", card=name(c)))
        colours = self.trick_colours()
        if len(colours) == 3 and colour_of(c) not in colours:
            allowed = "/".join(COLOURS[x] for x in sorted(colours))
            raise IllegalAction(_("The trick already has three colours ({allowed}): play one of those.",
                                  allowed=allowed))
        self.hands[seat] = [x for x in self.hands[seat] if x != c]  # a new list, as clones share hands
        if not self.trick:
            self.aborted_by = None  # shown from the early end until the next round's first card
        self.trick.append([seat, c])
        return [Event("card_played", {"seat": seat, "card": name(c), "trick": self.trick_no})] + self._after_card()

    def _apply_pick(self, seat: int, action: dict) -> list[Event]:
        cards = action.get("cards")
        if set(action) != {"type", "cards"} or not isinstance(cards, list) or \
                not all(isinstance(x, str) for x in cards):
            raise IllegalAction(_("A pick names {n} cards of the trick, e.g. pick R14 R10.", n=self.h))
        parsed = [parse_card(x) for x in cards]
        if any(c is None for c in parsed) or [name(c) for c in parsed] != cards:
            raise IllegalAction(_("Cards look like R10 or Y3."))
        if len(set(parsed)) != len(parsed):
            raise IllegalAction(_("Each card can be picked only once."))
        if len(parsed) != self.h:
            raise IllegalAction(_("You must pick exactly {n} cards.", n=self.h))
        in_trick = {c for _seat, c in self.trick}
        if not set(parsed) <= in_trick:
            raise IllegalAction(_("You can only pick cards of this trick."))
        if parsed != sorted(parsed):
            raise IllegalAction(_("List the picked cards in order (colour R, G, B, Y, then value)."))
        self.picked = parsed
        self._collect(seat, parsed)
        events = [Event("cards_picked", {"seat": seat, "cards": cards})]
        if self._needs_hide(seat):
            asked = self._ask_hide(seat, "distribute")
            if asked is None:
                return events
            events += asked
        return events + self._distribute()

    def _apply_hide(self, seat: int, action: dict) -> list[Event]:
        colours = action.get("colors")
        if set(action) != {"type", "colors"} or not isinstance(colours, list) or len(colours) != 2 or \
                not all(isinstance(x, str) and x in COLOURS and len(x) == 1 for x in colours):
            raise IllegalAction(_("Hide two colours, e.g. hide B Y."))
        if colours[0] == colours[1]:
            raise IllegalAction(_("Choose two different colours."))
        if colours != sorted(colours, key=COLOURS.index):
            raise IllegalAction(_("List the colours in the order R, G, B, Y."))
        events = self._hide(seat, [COLOURS.index(x) for x in colours])
        then, self.hider, self.after_hide = self.after_hide, None, None
        self.phase = "resolving"
        return events + (self._distribute() if then == "distribute" else self._end_trick())

    # ------------------------------------------------------------------ information
    def view(self, seat: int | None) -> dict:
        view = {
            "viewer": seat, "players": self.n, "round": self.round_no, "rounds": self.n, "dealer": self.dealer,
            "trick_no": self.trick_no, "phase": self.phase, "to_act": self.to_act(), "pick": self.h,
            "rest": self.l, "leader": self.leader,
            "trick": [[s, name(c)] for s, c in self.trick],
            "trump": COLOURS[colour_of(self.trick[0][1])] if self.trick else None,
            "trick_colours": [COLOURS[c] for c in sorted(self.trick_colours())],
            "high": self.high, "low": self.low, "picked": [name(c) for c in self.picked],
            "hand_counts": [len(h) for h in self.hands],
            "open_piles": [{COLOURS[c]: [name(x) for x in self.piles[p][c]] for c in range(4)
                            if self.piles[p][c] and c not in (self.hidden[p] or [])} for p in range(self.n)],
            "hidden_colours": [[COLOURS[c] for c in h] if h is not None else None for h in self.hidden],
            "hidden_counts": [sum(len(self.piles[p][c]) for c in (self.hidden[p] or [])) for p in range(self.n)],
            "round_points": list(self.points),
            "totals": list(self.totals), "round_scores": [list(r) for r in self.round_scores],
            "out_of_round": [name(c) for c in self.out_of_round], "last_trick": self.last_trick,
            "aborted_by": self.aborted_by,
        }
        if seat is not None:
            view["hand"] = [name(c) for c in self.hands[seat]]
            view["own_hidden"] = {COLOURS[c]: [name(x) for x in self.piles[seat][c]] for c in (self.hidden[seat] or [])}
            if seat in self.to_act():
                view["can_play"] = [name(c) for c in self.playable(seat)] if self.phase == "play" else []
        if self.phase == "over":
            view["ranking"] = self.ranking()
        return view

    def undo_refusal(self, seat: int, events: list[Event], before: State) -> str | None:
        """A card played leaves a hidden hand: final; picking and hiding colours before anyone else acts can be
        taken back."""
        return undo.refusal(seat, events, chance=self.counter != before.counter, revealing=UNDO_REVEALING)

    def is_over(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[float]:
        if self.phase == "over":
            return [float(t) for t in self.totals]
        return [float(t + p) for t, p in zip(self.totals, self.points)]

    def ranking(self) -> list[int]:
        return ranking_from_scores(self.totals if self.phase == "over" else self.scores())  # A18: ties share

    # ------------------------------------------------------------------ the AI's hooks (ai.py)
    def evaluate(self, seat: int) -> float:
        return ai.evaluate(self, seat)

    def evaluate_actions(self, seat: int, actions: list[dict]) -> list[float | None]:
        return ai.evaluate_actions(self, seat, actions)

    def ai_actions(self, seat: int) -> list[dict]:
        return ai.ai_actions(self, seat)

    # ------------------------------------------------------------------ persistence and copies (copies.py)
    def to_json(self) -> dict:
        return copies.to_json(self)

    @classmethod
    def from_json(cls, data: dict) -> "LuTState":
        return copies.from_json(cls, data)

    def clone(self) -> "LuTState":
        return copies.clone(self)

    def determinize(self, seat: int | None, rng: random.Random) -> "LuTState":
        return copies.determinize(self, seat, rng)
