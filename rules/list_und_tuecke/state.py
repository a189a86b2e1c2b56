"""The rules of Mit List und Tücke as a state machine (rules file sections 2–5).

Phases: ``play`` (lead or follow), ``pick`` (the high-trump player W takes H cards),
``hide`` (a player who now holds all four colours turns two piles face down),
``over``. Dealing, resolving a trick, handing the rest to the low player T, the early
end of a round and the scoring are automatic steps inside ``apply``.
"""
from __future__ import annotations

import random
from itertools import combinations
from math import comb

from rules.api import Event, IllegalAction, State, check_move, ranking_from_scores
from rules.lang import _
from rules.list_und_tuecke.cards import (COLOURS, HAND_SIZE, PICK_COUNT, REST_COUNT, colour_of, deck, name,
                                        parse_card, value_of)

_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}


def round_score(counts: list[int], hidden: list[int] | None) -> int:
    """Rules 5.1: the two largest open piles multiplied, divided (rounded down) by all other cards."""
    total = counts[0] + counts[1] + counts[2] + counts[3]
    if (counts[0] > 0) + (counts[1] > 0) + (counts[2] > 0) + (counts[3] > 0) <= 1:
        return 0
    open_sizes = [n for c, n in enumerate(counts) if n and not (hidden and c in hidden)]
    if len(open_sizes) < 2:  # cannot happen (rules A21); scored as no product
        return 0
    open_sizes.sort(reverse=True)
    a, b = open_sizes[0], open_sizes[1]
    rest = total - a - b
    return a * b if rest == 0 else (a * b) // rest


def best_hide(counts: list[int]) -> list[int]:
    """The two colours to hide that keep the two largest piles open (rules A13); ties by colour order."""
    keep = sorted(range(4), key=lambda c: (-counts[c], c))[:2]
    return sorted(c for c in range(4) if c not in keep)


def _sort_cards(cards) -> list[int]:
    return sorted(cards)


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

    def _next_to_play(self) -> int:
        return (self.leader + len(self.trick)) % self.n

    def trick_colours(self) -> set[int]:
        return {colour_of(c) for _, c in self.trick}

    def _after_card(self) -> list[Event]:
        if len(self.trick) == self.n:
            return self._resolve()
        colours = self.trick_colours()
        seat = self._next_to_play()
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
            return [self._next_to_play()]
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

    def ai_actions(self, seat: int) -> list[dict]:
        """One pick per mix of colours: only pile sizes ever count, so picks of the same colours play the same."""
        actions = self.legal_actions(seat)
        if self.phase != "pick":
            return actions
        kept: dict[str, dict] = {}
        for action in actions:
            kept.setdefault("".join(x[0] for x in action["cards"]), action)
        return list(kept.values())

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

    def is_over(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[float]:
        if self.phase == "over":
            return [float(t) for t in self.totals]
        return [float(t + p) for t, p in zip(self.totals, self.points)]

    def ranking(self) -> list[int]:
        return ranking_from_scores(self.totals if self.phase == "over" else self.scores())  # A18: ties share

    def evaluate(self, seat: int) -> float:
        """Own total plus this round's points so far, against the best opponent's."""
        totals, points = self.totals, self.points
        if self.phase == "over":
            return totals[seat] - 0.5 * max(t for p, t in enumerate(totals) if p != seat)
        best_other = max(totals[p] + points[p] for p in range(self.n) if p != seat)
        return totals[seat] + points[seat] - 0.5 * best_other

    def evaluate_actions(self, seat: int, actions: list[dict]) -> list[float | None]:
        """``evaluate`` after each action, without applying it (None for what is no action of this phase).

        ``evaluate`` is totals plus this round's points, and a round's end turns exactly those points into
        totals (the next round starts at 0), so ending a round never changes it. Hence a play keeps the value
        (also one that ends the round early), and a pick or hide changes only the points of W and T: W's after
        his pick (hiding at once in the last trick, A13), T's once the rest reaches him (not yet if W must
        hide first). ``tests/rules/test_list_und_tuecke.py`` checks this against ``apply``.
        """
        if self.phase == "play":
            value = self.evaluate(seat)
            hand = {name(c) for c in self.hands[seat]}
            return [value if action.get("type") == "play_card" and action.get("card") in hand else None
                    for action in actions]
        if self.phase == "pick":
            return self._evaluate_picks(seat, actions)
        if self.phase == "hide":
            return self._evaluate_hides(seat, actions)
        return [None] * len(actions)

    def _value_with(self, seat: int, mine: int, low: int | None, low_points: int) -> float:
        """``evaluate(seat)`` with ``seat``'s round points ``mine`` and ``low``'s ``low_points``."""
        totals, points = self.totals, self.points
        best_other = float("-inf")
        for p in range(self.n):
            if p != seat:
                other = totals[p] + (low_points if p == low else points[p])
                if other > best_other:
                    best_other = other
        return totals[seat] + mine - 0.5 * best_other

    def _evaluate_picks(self, seat: int, actions: list[dict]) -> list[float | None]:
        low, last = self.low, self.trick_no == HAND_SIZE
        own = [len(p) for p in self.piles[seat]]
        low_counts = [len(p) for p in self.piles[low]] if low is not None else None
        trick_cards = [c for _, c in self.trick]
        in_trick = {name(c): c for c in trick_cards}
        hidden, low_hidden = self.hidden[seat], self.hidden[low] if low is not None else None
        values: list[float | None] = []
        for action in actions:
            names = action.get("cards", ())
            picked = [in_trick.get(x) for x in names] if isinstance(names, list) else [None]
            if action.get("type") != "pick_cards" or None in picked or len(picked) != self.h:
                values.append(None)
                continue
            counts = own[:]
            for c in picked:
                counts[c >> 5] += 1
            mine_hidden = hidden
            hides = hidden is None and counts[0] and counts[1] and counts[2] and counts[3]
            if hides and last:
                mine_hidden = best_hide(counts)
            mine = round_score(counts, mine_hidden)
            low_points = 0
            if low is not None:
                if hides and not last:  # W hides first; T waits for the rest
                    low_points = self.points[low]
                else:
                    received = low_counts[:]
                    for c in trick_cards:
                        if c not in picked:
                            received[c >> 5] += 1
                    got_hidden = low_hidden
                    if last and got_hidden is None and received[0] and received[1] and received[2] and received[3]:
                        got_hidden = best_hide(received)
                    low_points = round_score(received, got_hidden)
            values.append(self._value_with(seat, mine, low, low_points))
        return values

    def _evaluate_hides(self, seat: int, actions: list[dict]) -> list[float | None]:
        """A hide is never in the last trick (A13 applies it there), so T may receive the rest but no round ends."""
        counts = [len(p) for p in self.piles[seat]]
        low = self.low if self.after_hide == "distribute" else None
        low_points = 0
        if low is not None:
            received = [len(p) for p in self.piles[low]]
            for _, c in self.trick:
                if c not in self.picked:
                    received[c >> 5] += 1
            low_points = round_score(received, self.hidden[low])
        values: list[float | None] = []
        for action in actions:
            colours = action.get("colors")
            if action.get("type") != "hide_colors" or not isinstance(colours, list) or len(colours) != 2 or \
                    colours[0] == colours[1] or not all(isinstance(x, str) and x in _COLOUR_INDEX for x in colours):
                values.append(None)
                continue
            mine = round_score(counts, [_COLOUR_INDEX[x] for x in colours])
            values.append(self._value_with(seat, mine, low, low_points))
        return values

    # ------------------------------------------------------------------ persistence
    def to_json(self) -> dict:
        return {
            "n": self.n, "seed": self.seed, "counter": self.counter, "round_no": self.round_no,
            "dealer": self.dealer, "totals": list(self.totals), "round_scores": [list(r) for r in self.round_scores],
            "hands": [[name(c) for c in h] for h in self.hands],
            "piles": [[[name(c) for c in pile] for pile in p] for p in self.piles],
            "hidden": [list(h) if h is not None else None for h in self.hidden],
            "trick": [[s, name(c)] for s, c in self.trick], "trick_no": self.trick_no, "leader": self.leader,
            "phase": self.phase, "high": self.high, "low": self.low, "hider": self.hider,
            "after_hide": self.after_hide,
            "picked": [name(c) for c in self.picked], "out_of_round": [name(c) for c in self.out_of_round],
            "last_trick": self.last_trick, "aborted_by": self.aborted_by,
        }

    @classmethod
    def from_json(cls, data: dict) -> "LuTState":
        s = cls(data["n"], data["seed"])
        card_of = parse_card
        s.counter, s.round_no, s.dealer = data["counter"], data["round_no"], data["dealer"]
        s.totals, s.round_scores = list(data["totals"]), [list(r) for r in data["round_scores"]]
        s.hands = [[card_of(c) for c in h] for h in data["hands"]]
        s.piles = [[[card_of(c) for c in pile] for pile in p] for p in data["piles"]]
        s.hidden = [list(h) if h is not None else None for h in data["hidden"]]
        s.points = [round_score([len(x) for x in s.piles[p]], s.hidden[p]) for p in range(s.n)]
        s.trick = [[seat, card_of(c)] for seat, c in data["trick"]]
        s.trick_no, s.leader, s.phase = data["trick_no"], data["leader"], data["phase"]
        s.high, s.low, s.hider, s.after_hide = data["high"], data["low"], data["hider"], data["after_hide"]
        s.picked = [card_of(c) for c in data["picked"]]
        s.out_of_round = [card_of(c) for c in data["out_of_round"]]
        s.last_trick, s.aborted_by = data["last_trick"], data["aborted_by"]
        return s

    def clone(self) -> "LuTState":
        """A shallow copy: the engine never changes a list in place (hands, piles, trick entries, hidden colours,
        scores are replaced), so only the per-seat lists that get new items need copies of their own."""
        s = LuTState.__new__(LuTState)
        s.__dict__.update(self.__dict__)
        s.hands = self.hands[:]
        s.piles = [p[:] for p in self.piles]
        s.hidden = self.hidden[:]
        s.points = self.points[:]
        s.trick = self.trick[:]
        return s

    def determinize(self, seat: int | None, rng: random.Random) -> "LuTState":
        """Re-deal the hands ``seat`` cannot see (same sizes) and re-draw the future shuffles.

        Piles, the trick and removed cards came from open tricks, so they stay. No play reveals a void
        (there is no duty to follow), but the round going on does: a player to act facing three colours
        holds one of them (rules 4.7), so his hand is drawn under that condition.
        """
        world = self.clone()
        world.seed = rng.getrandbits(48)
        world.counter = 0
        others = [p for p in range(self.n) if p != seat]
        pool = sorted(c for p in others for c in self.hands[p])  # sorted: who really holds what changes nothing
        draw = rng.random
        pool.sort(key=lambda _: draw())  # a uniform shuffle, cheaper than Random.shuffle
        at = 0
        for p in others:
            size = len(self.hands[p])
            world.hands[p] = sorted(pool[at:at + size])
            at += size
        if self.phase == "play" and self.trick:
            actor = self._next_to_play()
            colours = self.trick_colours()
            if actor != seat and len(colours) == 3 and not any(c >> 5 in colours for c in world.hands[actor]):
                self._redeal_follower(world, others, actor, colours, rng)
        return world

    def _redeal_follower(self, world: "LuTState", others: list[int], actor: int, colours: set[int],
                         rng: random.Random) -> None:
        """Re-deal so that ``actor`` holds a card of ``colours``: his hand uniform among such hands, the rest
        uniform. Used only when the plain deal failed, so the two together stay uniform over consistent deals."""
        pool = sorted(c for p in others for c in self.hands[p])
        fits = [c for c in pool if c >> 5 in colours]
        misfits = [c for c in pool if c >> 5 not in colours]
        size = len(self.hands[actor])
        weights = [comb(len(fits), j) * comb(len(misfits), size - j) for j in range(1, size + 1)]
        j = rng.choices(range(1, size + 1), weights)[0]  # how many fitting cards, hypergeometric given >= 1
        rng.shuffle(fits)
        rng.shuffle(misfits)
        world.hands[actor] = sorted(fits[:j] + misfits[:size - j])
        rest = fits[j:] + misfits[size - j:]
        rng.shuffle(rest)
        at = 0
        for p in others:
            if p != actor:
                size = len(self.hands[p])
                world.hands[p] = sorted(rest[at:at + size])
                at += size
