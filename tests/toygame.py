"""A tiny game used only by tests: hidden hands, a simultaneous secret choice, turns and private events.

"Duel of cards": every player is dealt 4 of the cards 1..(4N+2); all choose, at the same time
and in secret, 2 cards to keep (a sorted list); then two tricks: each plays a card in turn
order, the highest card wins the trick and 1 point. Ties in points share a place.
"""
from __future__ import annotations

import random

from rules.api import Event, Game, IllegalAction, State, check_action_shape, ranking_from_scores


class ToyState(State):
    def __init__(self, n: int, seed: int):
        self.n = n
        self.seed = seed
        self.counter = 0
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.kept: list[list[int] | None] = [None] * n
        self.trick: list[list[int]] = []  # [seat, card]
        self.points = [0] * n
        self.leader = 0
        self.tricks_done = 0

    def _rng(self) -> random.Random:
        self.counter += 1
        return random.Random(f"{self.seed}/{self.counter}")

    def deal(self) -> list[Event]:
        deck = list(range(1, 4 * self.n + 3))
        self._rng().shuffle(deck)
        self.hands = [sorted(deck[4 * i:4 * i + 4]) for i in range(self.n)]
        return [Event("dealt", {"seat": s, "cards": self.hands[s]}, (s,)) for s in range(self.n)]

    @property
    def phase(self) -> str:
        if any(k is None for k in self.kept):
            return "keep"
        return "over" if self.tricks_done == 2 else "play"

    def to_act(self) -> list[int]:
        if self.phase == "keep":
            return [s for s in range(self.n) if self.kept[s] is None]
        if self.phase == "play":
            return [(self.leader + len(self.trick)) % self.n]
        return []

    def next_to_act(self) -> int | None:
        """Round the table within a trick; the trick's winner leads the next one (not known before)."""
        if self.phase != "play" or len(self.trick) + 1 == self.n:
            return None
        return (self.leader + len(self.trick) + 1) % self.n

    def legal_actions(self, seat: int) -> list[dict]:
        if seat not in self.to_act():
            return []
        if self.phase == "keep":
            h = self.hands[seat]
            return [{"type": "keep", "cards": [h[i], h[j]]} for i in range(4) for j in range(i + 1, 4)]
        return [{"type": "play", "card": c} for c in self.kept[seat]]

    def apply(self, seat: int, action: dict) -> list[Event]:
        check_action_shape(action)
        if not isinstance(seat, int) or seat not in self.to_act():
            raise IllegalAction("It is not your turn.")
        if action not in self.legal_actions(seat):
            raise IllegalAction("That move is not allowed now.")
        if action["type"] == "keep":
            self.kept[seat] = list(action["cards"])
            events = [Event("kept", {"seat": seat, "cards": action["cards"]}, (seat,)), Event("chose", {"seat": seat})]
            if self.phase == "play":
                events.append(Event("revealed", {"kept": self.kept}))
            return events
        self.kept[seat].remove(action["card"])
        self.trick.append([seat, action["card"]])
        events = [Event("played", {"seat": seat, "card": action["card"]})]
        if len(self.trick) == self.n:
            winner = max(self.trick, key=lambda sc: sc[1])[0]
            self.points[winner] += 1
            self.leader, self.trick = winner, []
            self.tricks_done += 1
            events.append(Event("trick", {"seat": winner}))
        return events

    def view(self, seat: int | None) -> dict:
        reveal = self.phase != "keep"
        return {"viewer": seat, "phase": self.phase, "to_act": self.to_act(), "points": self.points,
                "trick": self.trick, "chosen": [k is not None for k in self.kept],
                "kept": [k if (reveal or s == seat) else None for s, k in enumerate(self.kept)],
                "hand": self.hands[seat] if seat is not None else None}

    def is_over(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[float]:
        return [float(p) for p in self.points]

    def ranking(self) -> list[int]:
        return ranking_from_scores(self.points)

    def to_json(self) -> dict:
        return {"n": self.n, "seed": self.seed, "counter": self.counter, "hands": self.hands, "kept": self.kept,
                "trick": self.trick, "points": self.points, "leader": self.leader, "tricks_done": self.tricks_done}

    @classmethod
    def from_json(cls, data: dict) -> "ToyState":
        s = cls(data["n"], data["seed"])
        s.counter, s.leader, s.tricks_done = data["counter"], data["leader"], data["tricks_done"]
        s.hands = [list(h) for h in data["hands"]]
        s.kept = [list(k) if k is not None else None for k in data["kept"]]
        s.trick = [list(t) for t in data["trick"]]
        s.points = list(data["points"])
        return s

    def clone(self) -> "ToyState":
        return ToyState.from_json(self.to_json())

    def determinize(self, seat: int | None, rng: random.Random) -> "ToyState":
        world = self.clone()
        world.seed = rng.getrandbits(32)
        if self.phase != "keep":
            return world
        unknown = [s for s in range(self.n) if s != seat]
        pool = sorted(c for s in unknown for c in self.hands[s])
        rng.shuffle(pool)
        for i, s in enumerate(unknown):
            world.hands[s] = sorted(pool[4 * i:4 * i + 4])
            if world.kept[s] is not None:
                world.kept[s] = sorted(rng.sample(world.hands[s], 2))
        return world


class ToyGame(Game):
    name = "toy"
    title = "Duel of Cards"
    min_players = 2
    max_players = 3

    def new_game(self, num_players: int, *, seed: int, options: dict | None = None) -> ToyState:
        if not self.min_players <= num_players <= self.max_players:
            raise IllegalAction("Duel of Cards is for 2 or 3 players.")
        if options:
            raise IllegalAction("Duel of Cards has no options.")
        state = ToyState(num_players, seed)
        state.deal()
        return state

    def from_json(self, data: dict) -> ToyState:
        return ToyState.from_json(data)

    def parse_action(self, state, seat, text: str) -> dict:
        words = text.strip().lower().split()
        try:
            if words[0] == "keep" and len(words) == 3:
                return {"type": "keep", "cards": sorted(int(w) for w in words[1:])}
            if words[0] == "play" and len(words) == 2:
                return {"type": "play", "card": int(words[1])}
        except (ValueError, IndexError):
            pass
        raise IllegalAction("Type `keep 3 7` (two cards) or `play 7`.")

    def format_action(self, action: dict) -> str:
        if action["type"] == "keep":
            return "keep " + " ".join(map(str, action["cards"]))
        return f"play {action['card']}"

    def rules_summary(self) -> str:
        return ("Duel of Cards is a test game. Everyone gets four cards and secretly keeps two of them; "
                "then two tricks are played and the highest card takes each trick. Moves: `keep 3 7`, `play 7`."
                " The player with the most tricks wins; equal tricks share the place. " * 2)

    def render_view(self, view: dict) -> str:
        lines = [f"Phase: {view['phase']} · points " + " ".join(f"{{P{i + 1}}}:{p}" for i, p in
                                                               enumerate(view['points']))]
        if view["trick"]:
            lines.append("Trick: " + " ".join(f"{{P{s + 1}}}:{c}" for s, c in view["trick"]))
        if view["hand"] is not None:
            lines.append(f"Your hand: {view['hand']}; kept: {view['kept'][view['viewer']]}")
        return "\n".join(lines)

    def describe_event(self, event: Event) -> str | None:
        d = event.data
        if event.kind == "dealt":
            return f"You were dealt {d['cards']}."
        if event.kind == "kept":
            return f"You keep {d['cards']}."
        if event.kind == "chose":
            return f"{{P{d['seat'] + 1}}} has chosen."
        if event.kind == "played":
            return f"{{P{d['seat'] + 1}}} plays {d['card']}."
        if event.kind == "trick":
            return f"{{P{d['seat'] + 1}}} wins the trick."
        return None


TOY = ToyGame()
