"""Single-observer information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012).

One tree for the searching seat's information set: every iteration samples a world with
``state.determinize(seat, rng)`` (so the search sees only what that seat may know), walks the tree
with UCB over the actions available in that world (counting availability, the "subset-armed bandit"
of the paper), adds one node, plays a short greedy rollout and scores the result for every seat.
Each acting seat maximises its own reward (max^n), so it works for any number of players and teams.

Rollouts are cut off once the other seats have replied a few times and scored by ``State.ai_rewards`` or, by default, by how
each seat's ``evaluate`` ranks against the others': a full playout costs tens of milliseconds, a cut
one a fraction of that, and many cut rollouts beat few full ones at chat-sized budgets.

Deterministic for a given rng and iteration cap: the clock only decides when to stop.
"""
from __future__ import annotations

import json
import math
import random
import time
from dataclasses import dataclass, field

from rules.ai.players import best_of
from rules.api import IllegalAction, State

EXPLORATION = 0.7  # UCB constant for rewards in [0, 1]
CONFIDENCE = 1.5  # the search overrules the greedy favourite only when its pick is this many standard errors better:
# equal moves (Troubadour's card shuffled between villages) otherwise win by noise, decision after decision
ROLLOUT_ACTIONS_PER_OPPONENT = 2  # a rollout is cut once the other seats have made this many actions each
ROLLOUT_CAP = 40  # actions at most in one rollout (a long turn of the searching seat)
STEP_COST = 0.002  # reward lost per action of an iteration: where nothing is gained, the shorter way wins (a
# seat that may shuffle a card back and forth within its turn would otherwise never end that turn)


def action_key(action: dict) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


@dataclass
class Edge:
    """An action out of a node: how often it was tried, its summed reward for the seat that took it, and how
    often it was available (in how many sampled worlds it was legal when the walk passed here)."""

    action: dict
    visits: int = 0
    reward: float = 0.0
    reward_sq: float = 0.0
    available: int = 0
    child: "Node | None" = None

    @property
    def mean(self) -> float:
        return self.reward / self.visits if self.visits else 0.0

    @property
    def error(self) -> float:
        """The standard error of ``mean`` (large while there are few visits)."""
        if self.visits < 2:
            return 1.0
        variance = max(0.0, self.reward_sq / self.visits - self.mean ** 2)
        return math.sqrt(variance / (self.visits - 1))


@dataclass
class Node:
    edges: dict[tuple[int, str], Edge] = field(default_factory=dict)


@dataclass(frozen=True)
class Choice:
    """A root action with what the search learnt of it: visits and mean reward (≈ the seat's win chance)."""

    action: dict
    visits: int
    win_rate: float
    prior: float


@dataclass
class SearchResult:
    choices: list[Choice]  # best first
    iterations: int

    @property
    def best(self) -> Choice:
        return self.choices[0]


def rank_rewards(values: list[float], teams: list[list[int]] | None = None) -> list[float]:
    """Each seat's share of the others it is ahead of (ties count half), in [0, 1]; team mates are not rivals."""
    n = len(values)
    rivals_of = [list(range(n))] * n
    if teams:
        team_of = {s: tuple(t) for t in teams for s in t}
        rivals_of = [[o for o in range(n) if o not in team_of.get(s, (s,))] for s in range(n)]
    out = []
    for s in range(n):
        rivals = [o for o in rivals_of[s] if o != s]
        if not rivals:
            out.append(0.5)
            continue
        ahead = sum(1.0 if values[s] > values[o] else 0.5 if values[s] == values[o] else 0.0 for o in rivals)
        out.append(ahead / len(rivals))
    return out


def final_rewards(world: State) -> list[float]:
    """A finished game: 1 for a sole first place, shared among tied firsts, and a little for beating others."""
    places = world.ranking()
    firsts = [s for s, p in enumerate(places) if p == 1]
    teams = world.teams()
    if teams:  # a team wins together: its members share one first place, not split it
        firsts_count = sum(1 for t in teams if places[t[0]] == 1)
    else:
        firsts_count = len(firsts)
    beaten = rank_rewards([-p for p in places], teams)
    return [(0.8 / firsts_count if places[s] == 1 else 0.0) + 0.2 * beaten[s] for s in range(len(places))]


class GainScale:
    """Turns each seat's ``evaluate`` gain over a cut rollout into a reward in (0, 1): 0.5 + 0.5 tanh(gain /
    scale), the scale being the mean absolute gain seen so far for that seat. ``evaluate`` has a different unit
    in every game (and already weighs a seat against the others): measuring gains in their own spread keeps the
    search game-independent without comparing one seat's ``evaluate`` with another's."""

    def __init__(self, n: int):
        self.total = [0.0] * n
        self.count = 0

    def rewards(self, start: list[float], end: list[float]) -> list[float]:
        gains = [e - s for s, e in zip(start, end)]
        self.count += 1
        out = []
        for i, gain in enumerate(gains):
            self.total[i] += abs(gain)
            scale = self.total[i] / self.count or 1.0
            out.append(0.5 + 0.5 * math.tanh(gain / scale))
        return out


def greedy_action(world: State, seat: int, rng: random.Random, actions: list[dict] | None = None) -> dict:
    """The greedy player's pick in a world the search already sampled (no further determinizing)."""
    if actions is None:
        actions = world.ai_actions(seat)
    if len(actions) == 1:
        return actions[0]
    return best_of(seat, actions, world.evaluate_actions(seat, actions), lambda: world, rng)


def actor_of(world: State, seat: int) -> int:
    """Who moves next in the tree: in a simultaneous phase the searching seat chooses first, so the others'
    nodes never depend on secret choices the searcher cannot see."""
    acting = world.to_act()
    return seat if seat in acting else acting[0]


class Search:
    """One ISMCTS search from ``state`` for ``seat``; ``run`` may be called once."""

    def __init__(self, state: State, seat: int, rng: random.Random, *, rollout_actions: int | None = None,
                 cutoff: str | None = None, confidence: float | None = None):
        self.state, self.seat, self.rng = state, seat, rng
        self.root = Node()
        self.n = state.num_players
        self.teams = state.teams()
        tuned = state.ai_search_options() or {}  # a game's own settings of the knobs (optional hook)
        if rollout_actions is None:
            rollout_actions = tuned.get("rollout_actions")
        self.cutoff = cutoff or tuned.get("cutoff") or "gain"
        self.confidence = confidence if confidence is not None else tuned.get("confidence", CONFIDENCE)
        self.gain = GainScale(self.n)
        self.rollout_actions = (rollout_actions if rollout_actions is not None
                                else ROLLOUT_ACTIONS_PER_OPPONENT * max(1, state.num_players - 1))
        self.root_actions = state.ai_actions(seat)
        if not self.root_actions:
            raise IllegalAction("No legal action for this seat.")
        self.prior = self._root_prior()
        order = sorted(range(len(self.root_actions)), key=lambda i: -self.prior[i])
        self.root_order = [self.root_actions[i] for i in order]
        self.root_prior = {action_key(self.root_actions[i]): self.prior[i] for i in range(len(self.prior))}

    def _root_prior(self) -> list[float]:
        """The greedy values of the root actions (from what the seat knows), to try the likeliest first."""
        actions = self.root_actions
        if len(actions) == 1:
            return [0.0]
        values = self.state.ai_values(self.seat, actions, self.rng)
        if values is None:
            world = self.state.determinize(self.seat, self.rng)
            values = world.evaluate_actions(self.seat, actions)
            out = []
            for action, value in zip(actions, values):
                if value is None:
                    trial = world.clone()
                    try:
                        trial.apply(self.seat, action)
                        value = trial.evaluate(self.seat)
                    except IllegalAction:
                        value = -math.inf
                out.append(value)
            values = out
        return [float(v) for v in values]

    def run(self, *, iterations: int | None = None, budget: float | None = None) -> SearchResult:
        """Iterate until ``iterations`` are done or ``budget`` seconds have passed (whichever comes first; at
        least one iteration)."""
        if iterations is None and budget is None:
            raise ValueError("a search needs an iteration cap or a time budget")
        deadline = time.perf_counter() + budget if budget is not None else math.inf
        done = 0
        if len(self.root_actions) > 1:
            while iterations is None or done < iterations:
                self._iterate(done)
                done += 1
                if time.perf_counter() >= deadline:
                    break
        return SearchResult(self._choices(), done)

    # -- one iteration ------------------------------------------------------------------------------------
    def _iterate(self, done: int) -> None:
        rng, seat = self.rng, self.seat
        world = self.state.determinize(seat, rng)
        start = [world.evaluate(s) for s in range(self.n)] if self.cutoff == "gain" else None
        node: Node | None = self.root
        path: list[tuple[Edge, int]] = []
        while node is not None and not world.is_over():
            actor = actor_of(world, seat)
            edge, node = self._select(node, world, actor, root=not path, done=done)
            world.apply(actor, edge.action)
            path.append((edge, actor))
        others = sum(1 for _, actor in path if actor != seat)
        steps = 0
        while others < self.rollout_actions and steps < ROLLOUT_CAP and not world.is_over():
            actor = actor_of(world, seat)
            world.apply(actor, greedy_action(world, actor, rng))
            others += actor != seat
            steps += 1
        rewards = final_rewards(world) if world.is_over() else self._cutoff_rewards(world, start)
        cost = STEP_COST * (len(path) + steps)
        for edge, actor in path:
            edge.visits += 1
            value = rewards[actor] - cost
            edge.reward += value
            edge.reward_sq += value * value

    def _cutoff_rewards(self, world: State, start: list[float] | None) -> list[float]:
        """A rollout cut short: the engine's estimate (``ai_rewards``), else each seat's ``evaluate``: its gain
        since the sampled world's start (``gain``) or how it ranks against the others' (``rank``)."""
        hooked = world.ai_rewards()
        if hooked is not None:
            return hooked
        end = [world.evaluate(s) for s in range(self.n)]
        if start is None:
            return rank_rewards(end, self.teams)
        return self.gain.rewards(start, end)

    def _select(self, node: Node, world: State, actor: int, *, root: bool, done: int) -> tuple[Edge, Node | None]:
        """UCB among the actions available in this world, after trying each once; returns the edge and the node
        below it, or None there when the edge is new (the walk ends, the rollout begins)."""
        if root:
            # progressive widening: the greedy favourites first, more of them as the search grows
            width = 2 + int(math.sqrt(done))
            actions = self.root_order[:width]
        else:
            actions = world.ai_actions(actor)
        fresh: list[tuple[str, dict]] = []
        known: list[Edge] = []
        for action in actions:
            key = (actor, action_key(action))
            edge = node.edges.get(key)
            if edge is None:
                fresh.append((key, action))
            else:
                edge.available += 1
                known.append(edge)
        if fresh:
            if root:
                key, action = fresh[0]
            else:  # the rollout policy's choice among the untried: a good reply is found first
                pick = greedy_action(world, actor, self.rng, [a for _, a in fresh])
                key = (actor, action_key(pick))
                action = pick
            edge = node.edges[key] = Edge(action, available=1)
            edge.child = Node()
            return edge, None
        log_total = math.log
        best, best_score = known[0], -math.inf
        for edge in known:
            score = edge.reward / edge.visits + EXPLORATION * math.sqrt(log_total(edge.available) / edge.visits)
            if score > best_score:
                best, best_score = edge, score
        return best, best.child

    def _choices(self) -> list[Choice]:
        out = []
        for action in self.root_order:
            key = action_key(action)
            edge = self.root.edges.get((self.seat, key))
            visits, win = (edge.visits, edge.mean) if edge else (0, 0.0)
            out.append(Choice(action, visits, win, self.root_prior[key]))
        # most visited (the robust child); then the better mean; then the greedy order (the sort is stable)
        out.sort(key=lambda c: (-c.visits, -c.win_rate))
        favourite = self.root.edges.get((self.seat, action_key(self.root_order[0])))
        best = self.root.edges.get((self.seat, action_key(out[0].action)))
        if favourite is not None and best is not None and best is not favourite and \
                best.mean - favourite.mean < self.confidence * math.hypot(best.error, favourite.error):
            out.sort(key=lambda c: c.action != self.root_order[0])  # not sure enough: the favourite first
        return out


def search(state: State, seat: int, rng: random.Random, *, iterations: int | None = None,
           budget: float | None = None, rollout_actions: int | None = None, cutoff: str | None = None,
           confidence: float | None = None) -> SearchResult:
    return Search(state, seat, rng, rollout_actions=rollout_actions, cutoff=cutoff, confidence=confidence).run(
        iterations=iterations, budget=budget)
