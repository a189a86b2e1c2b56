"""Guyenne's position: its fields and setup, what the engine contract asks of any position (who acts, scores,
places) and the legal actions.

Two armies fight over six castles. In the duel each army has one player; in the team variant (7.1) an army has one
or two members who share its deck and discard but hold their own hands. Castles, fights, decks and scores belong to
armies (index 0/1); hands, turns and choices to seats.

The rest is plain functions of the state, one module per job: turns.py applies an action (checks.py: what every
handler checks first), fights.py fights the castles out and ends the round, views.py says what each seat sees,
copies.py saves, clones and determinizes, ai.py judges positions for the AI; board.py holds the numbers and castle
scores they all share. The state's methods for those only hand over to them."""
from __future__ import annotations

import random
from itertools import combinations

from rules.api import Event, State
from rules.guyenne import ai, copies, fights, turns, views
from rules.guyenne import cards as C
from rules.guyenne.board import CASTLES, LEVELS, MAX_AT_CASTLE, PLACING, castle_points, group_points, lines, rival
from rules import undo

__all__ = ["LEVELS", "GuyenneState", "group_points"]  # group_points and LEVELS: board.py's, kept here for importers

SECRET_ACTIONS = frozenset({"open", "respond", "reinforce", "set_aside", "give"})  # cards that go face down


# the events that make something hidden known (``rules/undo.py``)
UNDO_REVEALING = frozenset({"revealed", "fight"})
UNDO_DRAWING = frozenset({"drawn", "refilled"})  # from the shuffled troops


class GuyenneState(State):
    """All fields are plain lists/dicts of ints and card ids, so ``to_json``/``clone`` are cheap copies."""

    _rng_shared = False

    @property
    def rng(self) -> random.Random:
        """The state's own generator; a clone shares its parent's until either of them first draws."""
        if self._rng_shared:
            own = random.Random.__new__(random.Random)
            own.setstate(self._rng.getstate())
            self._rng, self._rng_shared = own, False
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng, self._rng_shared = value, False

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, num_players: int, seed: int, level: str, mode: str = "duel") -> "GuyenneState":
        s = cls()
        s.rng = random.Random(seed)
        s.level = level
        s.mode = mode
        s.sides = ["E", "F"] if s.rng.random() < 0.5 else ["F", "E"]  # A39: random; English opens round 1
        seats = list(range(num_players))
        if mode == "two_sets":  # 7.2: every player his own army; 3 players: two share a side, drawn (the seed:
            # « 2 joueurs anglais ou 2 joueurs français »); the sides are stored, so a stored game keeps its deal
            if num_players == 3:
                doubled = s.rng.choice("EF")
                s.sides = [doubled, doubled, "F" if doubled == "E" else "E"]
            else:
                s.sides = ["E", "F"] * 2
            s.rng.shuffle(s.sides)
            s.members = [[p] for p in seats]
        elif mode == "teams":  # 4: two pairs; 3: a pair against one; who partners whom and who draws first: random
            s.rng.shuffle(seats)
            s.members = [sorted(seats[:2]), sorted(seats[2:])] if num_players == 4 else \
                [sorted(seats[:2]), seats[2:]]
            if s.rng.random() < 0.5:
                s.members.reverse()
            for team in s.members:
                s.rng.shuffle(team)  # the first member is the first drawer (A27)
        else:
            s.members = [[0], [1]]
        armies = len(s.members)
        s.army_of = [0] * num_players
        for a, team in enumerate(s.members):
            for seat in team:
                s.army_of[seat] = a
        s.drawer = [0] * armies  # index into members: who draws this round (teams alternate)
        s.leader = [team[0] for team in s.members]
        s.givers = []  # teams: the seats still to hand cards to their partner this round
        s.first = s.rng.randrange(armies) if mode == "two_sets" else s.sides.index("E")  # A36 / 2.3
        s.direction = None  # two sets: "left" or "right", chosen by the first player each round
        s.steps = []  # two sets: the placement steps of the round, [kind, seat, frontier]
        s.step_index = 0
        s.round_no = 1
        s.castles = [None] * (3 * armies if mode == "two_sets" else CASTLES)
        s.hands = [[] for _ in range(num_players)]
        s.decks = [[] for _ in range(armies)]
        s.discards = [[] for _ in range(armies)]
        s.removed = [[] for _ in range(armies)]
        s.reshuffles = [2 if level == "expert" else 1] * armies
        s.aside = [[] for _ in range(armies)]  # expert: the cards chosen so far (to the discard after setup)
        # what the table knows of the hidden cards (6, A40), for determinize and the team discard view:
        s.seen = [[] for _ in range(armies)]  # cards revealed in a fight now in the army's discard
        s.mine = [[] for _ in range(num_players)]  # teams: unrevealed cards a member put in the shared discard
        s.hero_at = [0] * armies  # 0 the hero is in a hand or face down at a castle, 1 or in the discard, 2 anywhere
        s.given = [[] for _ in range(num_players)]  # teams: cards a member gave that his partner holds or placed
        s.last = None  # the last action (who, what, at which castle), for the table to highlight
        s.fights = []
        s.fight_index = 0
        s.rotation = []
        s.step = 0
        s.passes = []
        s.last_fights = []
        s.end = None  # "six" or "exhaustion"
        s.six_winners = []
        if level == "expert":
            s.phase = "set_aside"
        else:
            for a in range(armies):
                s._deal(a)
            fights.start_round_phase(s)
        return s

    def _deal(self, a: int) -> None:
        """The army's first drawer takes the hero and five cards (2.4; team variant 7.1)."""
        troops = [c for c in C.ARMY if c != "H" and c not in self.aside[a]]
        self.rng.shuffle(troops)
        self.decks[a] = troops
        self.discards[a] = C.order(self.aside[a])
        if len(self.members[a]) == 2:  # the first drawer chose them; his partner does not know them
            self.mine[self.members[a][0]] = list(self.discards[a])
        self.hands[self.members[a][0]] = C.order(["H"] + [self.decks[a].pop() for _ in range(5)])

    # ------------------------------------------------------------------ contract
    @property
    def num_players(self) -> int:
        return len(self.army_of)

    @property
    def second(self) -> int:
        return 1 - self.first

    @property
    def armies(self) -> range:
        return range(len(self.members))

    def frontier_armies(self, frontier: int) -> tuple[int, int]:
        """Two sets: frontier ``f`` lies between army ``f`` and its left neighbour ``f + 1`` (A34, A36)."""
        return frontier, (frontier + 1) % len(self.members)

    def pair_of(self, castle: int) -> tuple[int, int]:
        """The two armies that fight over ``castle`` (1-based)."""
        if self.mode != "two_sets":
            return 0, 1
        return self.frontier_armies((castle - 1) // 3)

    def line(self, a: int) -> list[int]:
        """The castles (1-based) whose control scores for army ``a``, in the order adjacency counts: the six of the
        row, or with two sets [left outer, middle, inner, right inner, middle, outer] (7.2, A34)."""
        return list(lines(self.mode == "two_sets", len(self.members))[a])

    rival = staticmethod(rival)

    def actor(self, a: int, castle_no: int) -> int:
        """Who plays army ``a``'s castle: the leader the first one, the other member the second (a solo player
        both)."""
        team = self.members[a]
        if len(team) == 1 or castle_no == 0:
            return self.leader[a]
        return team[1] if team[0] == self.leader[a] else team[0]

    def to_act(self) -> list[int]:
        phase = self.phase
        if phase == "over":
            return []
        if phase == "set_aside":
            return sorted(self.members[a][0] for a in self.armies if len(self.aside[a]) < 5)
        if phase == "give":
            return sorted(self.givers)
        if phase == "direction":
            return [self.members[self.first][0]]
        if phase == "place":
            return [self.steps[self.step_index][1]]
        if phase == "open1":
            return [self.actor(self.first, 0)]
        if phase == "respond1":
            return [self.actor(self.second, 0)]
        if phase == "open2":
            return [self.actor(self.second, 1)]
        if phase == "respond2":
            return [self.actor(self.first, 1)]
        if phase == "reinforce":
            return [self.rotation[self.step]]
        fight = self.fights[self.fight_index]
        army = fight["roles"].index("defend") if phase == "defend" else self.rival(fight, fight["winner"])
        return [fight["actors"][army]]

    def next_to_act(self) -> int | None:
        return turns.next_actor(self)

    def undo_refusal(self, seat: int, events: list[Event], before: State) -> str | None:
        """Cards placed face down, set aside or a direction chosen can be taken back step by step; a fight's shown
        cards, a draw and cards handed to a partner are final."""
        return undo.refusal(seat, events, chance=self.rng.getstate() != before.rng.getstate(), revealing=UNDO_REVEALING,
                             drawing=UNDO_DRAWING)

    def is_over(self) -> bool:
        return self.phase == "over"

    def points(self, a: int) -> int:
        """Army ``a``'s castle score: 12 for a six-castle win (the beaten duel/team side 0; with two sets the others
        keep their castle score, for their places)."""
        if self.end == "six":
            if a in self.six_winners:
                return 12
            if self.mode != "two_sets":
                return 0
        return castle_points(self.mode == "two_sets", len(self.members), tuple(self.castles))[a]

    def scores(self) -> list[float]:
        return [float(self.points(a)) for a in self.army_of]

    def army_hand(self, a: int) -> int:
        return sum(len(self.hands[seat]) for seat in self.members[a])

    def unspent(self, a: int) -> int:
        return self.army_hand(a) + len(self.decks[a])

    def ranking(self) -> list[int]:
        if self.end == "six" and self.mode != "two_sets":
            places = [1 if a in self.six_winners else 2 for a in self.armies]
        else:  # score, then more unspent cards (A19, A38); a six-castle winner scores 12
            keys = [(self.points(a), 0 if self.end == "six" else self.unspent(a)) for a in self.armies]
            places = [1 + sum(1 for other in keys if other > key) for key in keys]
        return [places[a] for a in self.army_of]

    def teams(self) -> list[list[int]] | None:
        return [list(team) for team in self.members] if self.mode == "teams" else None

    def is_secret(self, seat: int, action: dict) -> bool:
        """Cards placed face down (opening, answering, reinforcing), set aside or given to a partner stay hidden."""
        return isinstance(action, dict) and action.get("type") in SECRET_ACTIONS

    # ------------------------------------------------------------------ legal actions
    def _keep_one(self, seat: int) -> bool:
        """A player who still has a castle to play after this placement must keep a card (A7); a team member
        plays one castle only."""
        if self.phase == "place":
            return any(step[1] == seat for step in self.steps[self.step_index + 1:])
        if self.phase == "open1":
            return self.actor(self.first, 1) == seat
        if self.phase == "respond1":
            return self.actor(self.second, 1) == seat
        return False

    @staticmethod
    def _subsets(cards: list[str], most: int) -> list[list[str]]:
        out: list[list[str]] = []
        for size in range(1, min(most, len(cards)) + 1):
            out.extend(list(c) for c in combinations(cards, size))
        return out

    def _fight_at(self, castle: int) -> dict | None:
        return next((f for f in self.fights if f["castle"] == castle), None)

    def _room(self, seat: int) -> list[int]:
        """Contested castles where ``seat`` may still add cards: his own (a team member only the one he plays),
        fewer than five of his army's cards there, a card in hand."""
        if not self.hands[seat]:
            return []
        a = self.army_of[seat]
        return [f["castle"] for f in self.fights if f["actors"][a] == seat and len(f["cards"][a]) < MAX_AT_CASTLE]

    def _has_room(self, seat: int) -> bool:
        """Whether ``_room(seat)`` is not empty."""
        if not self.hands[seat]:
            return False
        a = self.army_of[seat]
        for f in self.fights:
            if f["actors"][a] == seat and len(f["cards"][a]) < MAX_AT_CASTLE:
                return True
        return False

    def _respond_castle(self) -> int:
        """The castle a ``respond`` goes to now."""
        if self.phase == "place":
            frontier = self.steps[self.step_index][2]
            return next(f["castle"] for f in self.fights if (f["castle"] - 1) // 3 == frontier)
        return self.fights[-1]["castle"]

    def legal_actions(self, seat: int) -> list[dict]:
        return self._actions(seat, self._subsets)

    def _actions(self, seat: int, subsets_of) -> list[dict]:
        if seat not in self.to_act():
            return []
        phase = self.phase
        hand = self.hands[seat]
        if phase == "set_aside":  # 163 multisets of kinds (21 choose 5 = 20349 sets of ids play the same)
            return [{"type": "set_aside", "cards": list(kinds)}
                    for kinds in C.troop_sets(5 - len(self.aside[self.army_of[seat]]))]
        if phase == "give":
            return [{"type": "give", "cards": cards, "leader": who} for cards in self._gifts(seat, subsets_of)
                    for who in ("me", "partner")]
        if phase == "direction":
            return [{"type": "direction", "way": way} for way in ("left", "right")]
        if phase == "place":
            kind, _, frontier = self.steps[self.step_index]
            most = min(MAX_AT_CASTLE, len(hand) - (1 if self._keep_one(seat) else 0))
            subsets = subsets_of(hand, most)
            if kind == "respond":
                return [{"type": "respond", "cards": s} for s in subsets]
            return [{"type": "open", "castle": k, "cards": s} for k in range(3 * frontier + 1, 3 * frontier + 4)
                    for s in subsets]
        if phase in PLACING:
            most = min(MAX_AT_CASTLE, len(hand) - (1 if self._keep_one(seat) else 0))
            subsets = subsets_of(hand, most)
            if phase.startswith("respond"):
                return [{"type": "respond", "cards": s} for s in subsets]
            taken = {f["castle"] for f in self.fights}
            return [{"type": "open", "castle": k, "cards": s} for k in range(1, CASTLES + 1) if k not in taken
                    for s in subsets]
        if phase == "reinforce":
            out = []
            for castle in self._room(seat):
                have = len(self._fight_at(castle)["cards"][self.army_of[seat]])
                out += [{"type": "reinforce", "castle": castle, "cards": s}
                        for s in subsets_of(hand, MAX_AT_CASTLE - have)]
            return out + [{"type": "pass"}]
        if phase == "defend":
            return [{"type": "reveal"}, {"type": "concede"}]
        return [{"type": "lose", "cards": s} for s in self._loss_options(self.army_of[seat], subsets_of)]

    def _gifts(self, seat: int, subsets_of=None) -> list[list[str]]:
        """What a team's giver may hand over (7.1 step 2, A28): 1..min(5, hand − 1) cards, nothing with one card."""
        hand = self.hands[seat]
        if len(hand) == 1:
            return [[]]
        return (subsets_of or self._subsets)(hand, min(5, len(hand) - 1))

    def _loss_options(self, army: int, subsets_of=None) -> list[list[str]]:
        """Non-empty sets of the losing army's cards there whose printed values reach its strongest card (4.3.1,
        A23). An army, not a seat: with teams the two differ."""
        mine = self.fights[self.fight_index]["cards"][army]
        top = max(C.PRINTED[c[0]] for c in mine)
        return [s for s in (subsets_of or self._subsets)(mine, len(mine)) if sum(C.PRINTED[c[0]] for c in s) >= top]

    @staticmethod
    def _is_loss_option(chosen, mine: list[str], top: int) -> bool:
        """Whether ``chosen`` is one of ``_loss_options`` (some of ``mine`` in their order, worth ``top``), without
        listing them all."""
        return isinstance(chosen, list) and bool(chosen) and all(isinstance(c, str) for c in chosen) and \
            len(set(chosen)) == len(chosen) and all(c in mine for c in chosen) and chosen == C.order(chosen) and \
            sum(C.PRINTED[c[0]] for c in chosen) >= top

    # ------------------------------------------------------------------ playing (turns.py, fights.py)
    def apply(self, seat: int, action: dict) -> list[Event]:
        return turns.apply(self, seat, action)

    total = staticmethod(fights.total)  # an army's combat total at a fight

    def _start_round_phase(self) -> list[Event]:
        return fights.start_round_phase(self)

    def _end_round(self) -> list[Event]:
        return fights.end_round(self)

    def _refill(self, a: int) -> list[Event]:
        return fights.refill(self, a)

    # ------------------------------------------------------------------ the AI's hooks (ai.py)
    def ai_actions(self, seat: int) -> list[dict]:
        return ai.ai_actions(self, seat)

    def ai_search_options(self) -> dict | None:
        return ai.ai_search_options(self)

    def ai_values(self, seat: int, actions: list[dict], rng: random.Random) -> list[float] | None:
        return ai.ai_values(self, seat, actions, rng)

    def _sketch(self, seat: int, rng: random.Random) -> "GuyenneState":
        return ai.sketch(self, seat, rng)

    def evaluate(self, seat: int) -> float:
        return ai.evaluate(self, seat)

    def evaluate_actions(self, seat: int, actions: list[dict]) -> list[float | None]:
        return ai.evaluate_actions(self, seat, actions)

    # ------------------------------------------------------------------ information (views.py)
    def view(self, seat: int | None) -> dict:
        return views.view(self, seat)

    # ------------------------------------------------------------------ persistence and copies (copies.py)
    def to_json(self) -> dict:
        return copies.to_json(self)

    @classmethod
    def from_json(cls, data: dict) -> "GuyenneState":
        return copies.from_json(cls, data)

    def clone(self, copy_rng: bool = True) -> "GuyenneState":
        return copies.clone(self, copy_rng)

    def determinize(self, seat: int | None, rng: random.Random) -> "GuyenneState":
        return copies.determinize(self, seat, rng)
