"""The engine contract every game implements, and the registry of games.

Engines are pure: no I/O, no asyncio, no platform or database types. A state is
deterministic given its seed and the actions applied to it, and carries its own
RNG so that ``to_json`` captures everything needed to continue it.

Beyond the fixed contract (``Game``, ``State``, ``Event``, ``IllegalAction``,
``get_game``, ``GAMES``) a game may override a few presentation hooks with
defaults here (``rules_summary``, ``render_view``, ``describe_event``,
``configurations``, ``has_hidden_information``, ``tie_rule``, ``score_unit``, ``State.evaluate``,
``State.evaluate_actions``, ``State.ai_values``, ``State.ai_actions``, ``State.ai_rewards``, ``State.teams``,
``State.is_secret``, ``State.undo_refusal``, ``State.next_to_act``): the bot
and the AI use them, and they never change what is legal. A game declares its player counts and options as data
(``Players``, ``Option``); ``Game.check_setup`` checks them for every game.
"""
from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from rules.lang import N_, _, language, reading, speak_to, translate


class IllegalAction(ValueError):
    """An action (or notation, or option) that is not allowed; ``str(e)`` is shown to the user."""


@dataclass(frozen=True)
class Event:
    """Something that happened, for narration and the log.

    ``audience`` None means everyone may know it; otherwise only the listed seats.
    """

    kind: str
    data: dict = field(default_factory=dict)
    audience: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.audience is None or (seat is not None and seat in self.audience)

    def to_json(self) -> dict:
        return {"kind": self.kind, "data": self.data,
                "audience": list(self.audience) if self.audience is not None else None}

    @classmethod
    def from_json(cls, data: dict) -> "Event":
        aud = data.get("audience")
        return cls(data["kind"], data.get("data", {}), tuple(aud) if aud is not None else None)


class State:
    """One game in progress. Seats are 0-based; actions are plain JSON dicts with a ``"type"`` key.

    Convention for the move picker: the keys of an action dict are ordered as a
    person would choose them (``type`` first, then e.g. card, then target); a
    parameter that is a choice of several items is a sorted list.
    """

    def to_act(self) -> list[int]:
        """Seats that may act now (several in simultaneous phases); [] when over."""
        raise NotImplementedError

    def legal_actions(self, seat: int) -> list[dict]:
        """Every legal action of ``seat`` now, in a deterministic order; [] if it may not act."""
        raise NotImplementedError

    def apply(self, seat: int, action: dict) -> list[Event]:
        """Validate and apply; raise IllegalAction leaving the state unchanged."""
        raise NotImplementedError

    def view(self, seat: int | None) -> dict:
        """All that ``seat`` may know, as JSON (None: the public channel / a spectator)."""
        raise NotImplementedError

    def is_over(self) -> bool:
        raise NotImplementedError

    def scores(self) -> list[float]:
        """Per seat; final when over, the running score before."""
        raise NotImplementedError

    def ranking(self) -> list[int]:
        """Place per seat, 1 = best, equal places for ties."""
        raise NotImplementedError

    def to_json(self) -> dict:
        """Complete state, JSON-serialisable, including the RNG state."""
        raise NotImplementedError

    def clone(self) -> "State":
        raise NotImplementedError

    def determinize(self, seat: int | None, rng: random.Random) -> "State":
        """A clone in which everything ``seat`` cannot know is re-drawn at random, consistent with view(seat)."""
        raise NotImplementedError

    # -- optional hooks ---------------------------------------------------------------
    def evaluate(self, seat: int) -> float:
        """How good this state is for ``seat``: the greedy AI maximises it. Default: its score."""
        return float(self.scores()[seat])

    def evaluate_actions(self, seat: int, actions: list[dict]) -> list[float | None]:
        """What ``evaluate(seat)`` would give right after ``apply(seat, a)``, for each legal action ``a``, where
        the engine can tell without applying it; None means "simulate that one". Only a shortcut for the AI: it
        must agree exactly with applying the action and evaluating."""
        return [None] * len(actions)

    def ai_values(self, seat: int, actions: list[dict], rng: random.Random) -> list[float] | None:
        """What ``evaluate_actions`` would give for ``actions`` in a ``determinize(seat, rng)``, where the engine
        can draw just the few hidden cards those values depend on instead of a whole world; None (the default):
        the AI determinizes. Only a shortcut for the AI: the result may depend on nothing but what ``seat``
        knows and ``rng``."""
        return None

    def ai_actions(self, seat: int) -> list[dict]:
        """The actions the greedy AI weighs: ``legal_actions`` with one action kept of every group that plays the
        same (e.g. which of two equal cards goes). Only a shortcut for the AI; default: all of them."""
        return self.legal_actions(seat)

    def ai_rewards(self) -> list[float] | None:
        """Each seat's chance to come first from here, in [0, 1], for the strong AI's search where it cuts a
        playout short. None (the default): the search ranks the seats by ``evaluate``. Only a guess for the AI,
        read in worlds the search sampled: it may use everything in the state."""
        return None

    def ai_search_options(self) -> dict | None:
        """The strong AI's search knobs tuned for this game, e.g. ``{"rollout_actions": 6, "cutoff": "rank",
        "confidence": 1.0}`` (see rules/ai/search.py); None (the default): the search's own defaults. Only a
        setting of the game-independent search, never a peek: it must not depend on hidden information."""
        return None

    def teams(self) -> list[list[int]] | None:
        """Seats that win and lose together (rated as teams), or None when everyone plays for themselves."""
        return None

    def is_secret(self, seat: int, action: dict) -> bool:
        """True when ``action`` hides something from the table (a secret choice, cards placed face down): the bot
        then refuses it typed where everybody reads it and asks for it privately. Default: nothing is secret."""
        return False

    def undo_refusal(self, seat: int, events: list[Event], before: "State") -> str | None:
        """Why the move of ``seat`` that turned ``before`` into this state (telling ``events``) may not be taken
        back freely: it left something to chance or made something hidden known to anyone (``rules/undo.py``);
        a user-facing reason, or None when undoing it hides nothing anybody learnt. Whether others acted since is
        the caller's to check. Default: every move is final."""
        return _("Moves of this game cannot be taken back.")

    def next_to_act(self) -> int | None:
        """The seat that acts once the turn now running ends, judged from what everyone knows: the heads-up of
        ``/notify next=on`` goes to it. None when that depends on how the turn is played (a trick's winner leads
        next), when several act at once, or when the game does not say (the default). A forecast, never a rule:
        a turn may still end the game, or a hand nobody else sees may force a pass; it must tell nothing hidden."""
        return None

    @property
    def num_players(self) -> int:
        return len(self.scores())


@dataclass(frozen=True)
class Players:
    """The player counts a game (or one value of an option, e.g. a mode) is for, and the sentence that refuses any
    other count: an ``N_`` text, translated when said, which may name ``{game}``, ``{least}`` and ``{most}``."""

    counts: range
    refusal: str = N_("{game} is for {least}–{most} players.")


@dataclass(frozen=True)
class Option:
    """One option of a game: its default, the values it accepts and the sentence (an ``N_`` text) that refuses any
    other. ``players``: when the chosen value decides the player counts, the counts of each value."""

    default: Any
    accepts: Callable[[Any], bool]
    refusal: str
    players: dict[Any, Players] | None = None


def one_of(*values: Any) -> Callable[[Any], bool]:
    """An option that takes one of these values."""
    return lambda value: value in values


def whole_number(least: int, most: int) -> Callable[[Any], bool]:
    """An option that takes a whole number from ``least`` to ``most`` (never a bool)."""
    return lambda value: isinstance(value, int) and not isinstance(value, bool) and least <= value <= most


class Game:
    """A game's static description and factory; one instance per game, registered in GAMES.

    A game declares its player counts (``players``) and options (``options``, by name, in the order they are
    checked) as data; ``check_setup`` checks both for every game, and ``min_players``, ``max_players`` and
    ``default_options`` read them."""

    name: str = ""
    title: str = ""
    players: Players = Players(range(2, 3))
    options: dict[str, Option] = {}
    # the sentence that refuses option names the game does not have ({unknown}, or {key}; {known} its options)
    unknown_options: str = N_("{game} has no option “{key}”. Options: {known}.")
    has_hidden_information: bool = True
    # kinds of private event whose whole content the seat's own view shows right after (a hand as dealt): a
    # message that shows that view tells them no more; a record, which shows no view between moves, does
    restated_by_view: frozenset[str] = frozenset()

    @property
    def min_players(self) -> int:
        return self.players.counts[0]

    @property
    def max_players(self) -> int:
        return self.players.counts[-1]

    def default_options(self) -> dict:
        return {key: copy.deepcopy(option.default) for key, option in self.options.items()}

    def new_game(self, num_players: int, *, seed: int, options: dict | None = None) -> State:
        """A new game; IllegalAction if the player count or options are not valid (see ``check_setup``)."""
        raise NotImplementedError

    def check_setup(self, num_players: Any, options: Any) -> dict:
        """The options a new game starts with (the defaults, overridden by ``options``), once the player count and
        every option are checked; IllegalAction, with the game's own sentence, for the first that is not valid. The
        count comes first, but after the options where an option decides the counts (Guyenne's ``mode``)."""
        deciding = next((key for key, option in self.options.items() if option.players), None)
        if deciding is None:
            self._check_players(num_players, self.players)
        chosen = self._checked_options(options)
        if deciding is not None:
            self._check_players(num_players, self.options[deciding].players[chosen[deciding]])
        return chosen

    def _check_players(self, num_players: Any, players: Players) -> None:
        counts = players.counts
        if not isinstance(num_players, int) or isinstance(num_players, bool) or num_players not in counts:
            raise IllegalAction(translate(players.refusal, game=self.title, least=counts[0], most=counts[-1]))

    def _checked_options(self, options: Any) -> dict:
        if options is not None and not isinstance(options, dict):
            raise IllegalAction(_("Options are a dict like {example}.", example=repr(self.default_options())))
        chosen = {**self.default_options(), **(options or {})}
        unknown = set(chosen) - set(self.options)
        if unknown:
            names = ", ".join(sorted(map(str, unknown)))
            raise IllegalAction(translate(self.unknown_options, game=self.title, unknown=names, key=names,
                                          known=", ".join(self.options)))
        for key, option in self.options.items():
            if not option.accepts(chosen[key]):
                raise IllegalAction(translate(option.refusal))
        self.check_together(chosen)
        return chosen

    def check_together(self, options: dict) -> None:
        """IllegalAction where options that each are valid do not fit each other (e.g. sword fields beyond the
        track); default: any mix fits."""

    def from_json(self, data: dict) -> State:
        raise NotImplementedError

    def parse_action(self, state: State, seat: int, text: str) -> dict:
        """Notation → action dict; IllegalAction, with an example of the expected form, if unknown."""
        raise NotImplementedError

    def format_action(self, action: dict) -> str:
        """Action dict → notation; ``parse_action(format_action(a)) == a``."""
        raise NotImplementedError

    # -- optional hooks ---------------------------------------------------------------
    def configurations(self) -> list[tuple[int, dict]]:
        """Every (player count, options) combination worth testing: each variant at each valid count."""
        return [(n, self.default_options()) for n in range(self.min_players, self.max_players + 1)]

    def rules_summary(self) -> str:
        """A screen or two on the rules and how to play them here (the /rules text)."""
        return self.title

    def help_text(self) -> str:
        """A few lines on how to play this game here (the /help text inside a game); default: the rules summary."""
        return self.rules_summary()

    def tie_rule(self) -> str | None:
        """One sentence on how equal results are placed, stated under a final result with shared places or equal
        scores; None (the default): nothing is said."""
        return None

    def score_unit(self) -> str:
        """What a score counts, singular (``point``, ``field``), for the final result; default ``point``."""
        return "point"

    def render_view(self, view: dict) -> str:
        """Chat text of a view (public or private): compact, whose turn, what may be done."""
        return json.dumps(view, ensure_ascii=False)

    def describe_event(self, event: Event) -> str | None:
        """One line of narration for an event, or None to stay silent."""
        return None

    def describe_action(self, action: dict) -> str:
        """A label for a button (default: the notation)."""
        return self.format_action(action)

    def describe_choice(self, key: str, value: Any) -> str:
        """A label for one step of the move picker: the value of one parameter of an action (``key`` its name,
        ``"type"`` the kind of action) or one item of a list parameter, in the symbols the board uses
        (``J♠``, not ``JS``). Default: the action type in words, any other value as it is."""
        if key == "type":
            return str(value).replace("_", " ").capitalize()
        return str(value)


GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    if not game.name:
        raise ValueError("a game needs a name")
    GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    """The registered game; IllegalAction (listing the known names) if there is none."""
    key = (name or "").strip().lower()
    game = GAMES.get(key)
    if game is None:  # not registered yet: import the game packages (a scan of the folder, not for every call)
        from rules import load_games  # the registry is filled by importing the game packages

        load_games()
        game = GAMES.get(key)
    if game is None:
        known = ", ".join(sorted(GAMES))
        raise IllegalAction(_("Unknown game {name}. Known games: {known}.", name=repr(name), known=known))
    return game


def ranking_from_scores(scores: Iterable[float], higher_is_better: bool = True) -> list[int]:
    """Competition ranking (1, 2, 2, 4) of scores; equal scores share a place."""
    scores = list(scores)
    sign = -1 if higher_is_better else 1
    return [1 + sum(1 for o in scores if sign * o < sign * s) for s in scores]


class TextGame(Game):
    """A game whose chat text lives in two modules of its package, as every engine here does: ``notation``
    (``parse``, ``format_action``) and ``text`` (``board``, ``describe_event``, ``describe_action``). A game
    sets them, its ``summary`` and ``move_examples`` (said when a move is not text at all), and overrides only
    what differs."""

    notation: Any
    text: Any
    summary: str = ""
    move_examples: str = ""

    def parse_action(self, state: State, seat: int, text: str) -> dict:
        if not isinstance(text, str):
            raise IllegalAction(_("Type a move like {examples}.", examples=_(self.move_examples)))
        return self.notation.parse(state, seat, text)

    def format_action(self, action: dict) -> str:
        return self.notation.format_action(action)

    def rules_summary(self) -> str:
        return _(self.summary) if self.summary else self.summary

    def render_view(self, view: dict) -> str:
        """The text module's board, built for the view's seat (``mine`` speaks to it); English lines not yet
        written with ``mine`` are turned to the second person by ``speak_to``."""
        viewer = view.get("viewer") if isinstance(view, dict) else None
        own = isinstance(viewer, int) and not isinstance(viewer, bool)
        with reading(viewer if own else None):
            text = self.text.board(view)
        return speak_to(text, viewer) if own and language() == "en" else text

    def describe_event(self, event: Event) -> str | None:
        return self.text.describe_event(event)

    def describe_action(self, action: dict) -> str:
        return self.text.describe_action(action)

    def describe_choice(self, key: str, value: Any) -> str:
        describe = getattr(self.text, "describe_choice", None)
        label = describe(key, value) if describe is not None else None
        return label if label is not None else super().describe_choice(key, value)

    def help_text(self) -> str:
        """A short how-to-play for /help in a game (the text module's ``HELP``), else the rules summary."""
        text = getattr(self.text, "HELP", "")
        return _(text) if text else self.rules_summary()

    def tie_rule(self) -> str | None:
        """The text module's ``TIE_RULE``, if it has one."""
        rule = getattr(self.text, "TIE_RULE", None)
        return _(rule) if rule else rule

    def score_unit(self) -> str:
        """The text module's ``SCORE_UNIT``, else ``point``."""
        return getattr(self.text, "SCORE_UNIT", "point")


def check_action_shape(action: Any) -> dict:
    """Reject anything that is not a dict with a string ``type`` (shared junk filter for engines)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction(_("An action must be a dict with a 'type'."))
    return action


def check_move(action: Any, seat: Any, players: int, over: bool) -> dict:
    """What every engine's ``apply`` checks first: an action dict with a type, a seat of this game (not a bool),
    a game still going. ``players`` and ``over`` are passed in because the hot path cannot afford to derive them."""
    check_action_shape(action)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise IllegalAction(_("There is no such seat."))
    if over:
        raise IllegalAction(_("The game is over."))
    return action
