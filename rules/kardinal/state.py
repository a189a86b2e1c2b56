"""The rules of Kardinal as a state machine (rules file sections 2–5).

Phases: ``build`` (the current player must place a building), ``bonus`` (the start player takes his free stone after
the first building of the game), ``place_cardinal`` (he then brings the Cardinal into play), ``cardinal`` (after a
build: move the Cardinal or leave it), ``over``. Passes and skips happen automatically inside ``apply``.

Beside the rules: ``placing.py`` finds where a building may stand, ``views.py`` builds the views, ``ai.py`` holds the
AI's hooks and ``copies.py`` JSON and clones; the state's methods for those only hand over to them.
"""
from __future__ import annotations

import random

from rules.api import Event, IllegalAction, State, check_move, ranking_from_scores
from rules.lang import N_, _
from rules.kardinal import ai, copies, placing, views
from rules.kardinal.geometry import (COLOURS, DOM_NAVE, DOM_NEIGHBOURS, DOM_TOWER, HOUSE, KINDS,
                                     NEIGHBOURS, TOWER, building_text, label, parse_building, parse_label, sort_key)
from rules.kardinal.names import COLOUR_NAMES
from rules.kardinal.notation import local_move
from rules.kardinal.text import building

STONES = 12
PER_KIND = 2

RULE_TEXT = {
    "P1": N_("you have no such building"),
    "P3": N_("that cell is already built on"),
    "R1": N_("the Cardinal stands there (rule 1)"),
    "P4": N_("it must touch the town along an edge"),
    "R2": N_("a tower must touch a house or the nave (rule 2)"),
    "R3": N_("a courtyard must touch a house or the nave (rule 3)"),
    "R4": N_("it may not touch a building of the same shape (rule 4)"),
    "R5": N_("it may not touch a building of the same colour (rule 5)"),
    "R6": N_("it may not have the same shape as the last building (rule 6)"),
    "R7": N_("it may not have the same colour as the last building (rule 7)"),
}


def seat_name(s: int) -> str:
    return f"{{P{s + 1}}}"


class KardinalState(State):
    def __init__(self, n: int, seed: int, colours: list[list[int]], shared: int | None, start: int):
        self.n = n
        self.seed = seed
        self.counter = 0
        self.colours = [sorted(c) for c in colours]
        self.shared = shared
        self.start_player = start
        self.supply = [[PER_KIND] * 3 for _ in range(4)]
        self.stone_supply = [STONES] * 4
        self.stones = [[0] * 4 for _ in range(n)]
        # a piece: (kind, colour or -1, cells tuple, builder or -1); 0 = church tower, 1 = nave
        self.pieces: list[tuple] = [(TOWER, -1, (DOM_TOWER,), -1), (HOUSE, -1, (DOM_NAVE,), -1)]
        self.grid: dict[int, int] = {DOM_TOWER: 0, DOM_NAVE: 1}
        self.sites: set[int] = set(DOM_NEIGHBOURS)
        self.cardinal: int | None = None
        self.last: tuple[int, int] | None = None
        self.current = start
        self.phase = "build"
        self.builds = 0
        self._setup_usable()

    def _setup_usable(self) -> None:
        extra = [self.shared] if self.shared is not None else []
        self.usable = [tuple(c + extra) for c in self.colours]
        self.owner = [-1] * 4
        for p, cs in enumerate(self.colours):
            for c in cs:
                self.owner[c] = p

    # ------------------------------------------------------------------ placements
    def place_piece(self, kind: int, colour: int, cells: tuple, builder: int) -> None:
        """Put a piece on the table without any rule or scoring (set-ups and loading)."""
        index = len(self.pieces)
        self.pieces.append((kind, colour, tuple(cells), builder))
        for c in cells:
            self.grid[c] = index
            self.sites.discard(c)
        for c in cells:
            for d in NEIGHBOURS:
                if c + d not in self.grid:
                    self.sites.add(c + d)

    def violations(self, seat: int, kind: int, colour: int, cells: tuple) -> list[str]:
        return placing.violations(self, seat, kind, colour, cells)

    def placements(self, seat: int, first: bool = False) -> list[tuple[int, int, int, int | None]]:
        return placing.placements(self, seat, first)

    def can_build(self, seat: int) -> bool:
        return placing.can_build(self, seat)

    def has_buildings(self, seat: int) -> bool:
        return placing.has_buildings(self, seat)

    def _touching(self, cells) -> list[int]:
        return placing.touching(self, cells)

    # ------------------------------------------------------------------ the contract
    def to_act(self) -> list[int]:
        return [] if self.phase == "over" else [self.current]

    def next_to_act(self) -> int | None:
        return placing.next_builder(self)

    def legal_actions(self, seat: int) -> list[dict]:
        if self.phase == "over" or seat != self.current:
            return []
        if self.phase == "build":
            return [{"type": "build", "site": label(s), "building": building_text(c, k, t)}
                    for s, k, c, t in self.placements(seat)]
        if self.phase == "bonus":
            return [{"type": "bonus_stone", "color": COLOURS[c]} for c in range(4) if self.stone_supply[c] > 0]
        sites = sorted(self.sites, key=sort_key)
        if self.phase == "place_cardinal":
            return [{"type": "place_cardinal", "site": label(s)} for s in sites]
        return [{"type": "end_turn"}] + [{"type": "move_cardinal", "site": label(s)} for s in sites
                                         if s != self.cardinal]

    def apply(self, seat: int, action: dict) -> list[Event]:
        check_move(action, seat, self.n, self.phase == "over")
        if seat != self.current:
            raise IllegalAction(_("It is not your turn: waiting for {player}.", player=seat_name(self.current)))
        kind = action["type"]
        if kind == "pass_turn":
            raise IllegalAction(self._no_pass())
        if self.phase == "build":
            if kind != "build":
                raise IllegalAction(_("Build first, e.g. {example}.", example=self._example()))
            return self._apply_build(seat, action)
        if self.phase == "bonus":
            if kind != "bonus_stone":
                raise IllegalAction(_("As start player take one free point stone first, e.g. `bonus blue`."))
            return self._apply_bonus(seat, action)
        if self.phase == "place_cardinal":
            if kind != "place_cardinal":
                raise IllegalAction(_("Bring the Cardinal into play on a building site, e.g. {cardinal_example}.",
                                      cardinal_example=self._cardinal_example()))
            return self._apply_cardinal(seat, action, place=True)
        # phase cardinal
        if kind == "end_turn":
            if set(action) != {"type"}:
                raise IllegalAction(_("Ending the turn takes no parameters."))
            return [Event("cardinal_stays", {"seat": seat, "site": label(self.cardinal)})] + self._next_turn()
        if kind == "move_cardinal":
            return self._apply_cardinal(seat, action, place=False)
        if kind == "place_cardinal":
            raise IllegalAction(_("The Cardinal is already in play: move it (e.g. {cardinal_example}) or leave it "
                                  "(`stay`).", cardinal_example=self._cardinal_example()))
        raise IllegalAction(_("You have built: move the Cardinal (e.g. {cardinal_example}) or leave it (`stay`).",
                              cardinal_example=self._cardinal_example()))

    def _no_pass(self) -> str:
        """Why ``pass`` is refused: in the build phase the player can build (else he passed already); later he has
        built and only has the stone or the Cardinal step left."""
        if self.phase == "build":
            return _("You may not pass: you can build, so you must (a pass happens automatically only when no "
                     "placement is legal), e.g. {example}.", example=self._example())
        if self.phase == "bonus":
            return _("No passing here: as start player take your free point stone, e.g. `bonus blue`.")
        if self.phase == "place_cardinal":
            return _("No passing here: bring the Cardinal into play, e.g. {example}.",
                     example=self._cardinal_example())
        return _("You have already built: leave the Cardinal with `stay` or move it, e.g. {example}.",
                 example=self._cardinal_example())

    def _cardinal_example(self) -> str:
        return f"`cardinal {label(next(c for c in sorted(self.sites, key=sort_key) if c != self.cardinal))}`"

    def _example(self) -> str:
        found = self.placements(self.current, first=True)
        if not found:
            return f"`{local_move('M14 red house')}`"
        s, k, c, t = found[0]
        return f"`{local_move(f'{label(s)} {building_text(c, k, t)}')}`"

    def _site(self, action: dict, cardinal: bool = False) -> int:
        text = action.get("site")
        c = parse_label(text) if isinstance(text, str) else None
        eg = self._example() if self.phase == "build" else self._cardinal_example()
        if c is None:
            if cardinal:
                raise IllegalAction(_("The Cardinal needs a cell like M14 (column letter, row number), e.g. {eg}.",
                                      eg=eg))
            raise IllegalAction(_("A build needs a cell like M14 (column letter, row number), e.g. {eg}.", eg=eg))
        if c in self.grid:
            raise IllegalAction(_("{cell} is already built on. Try e.g. {eg}.", cell=label(c), eg=eg))
        if c not in self.sites:
            raise IllegalAction(_("{cell} is not a building site: it must touch the town along an edge. Try e.g. "
                                  "{eg}.", cell=label(c), eg=eg))
        return c

    def _apply_build(self, seat: int, action: dict) -> list[Event]:
        if set(action) != {"type", "site", "building"}:
            raise IllegalAction(_("A build names a site and a building, e.g. {example}.", example=self._example()))
        parsed = parse_building(action["building"])
        if parsed is None:
            raise IllegalAction(_("Name the building as colour and shape, e.g. `red house`, `blue tower` or `green "
                                  "courtyard N14` (a courtyard names its second cell)."))
        colour, kind, other = parsed
        site = parse_label(action["site"]) if isinstance(action["site"], str) else None
        if (other is not None and site is not None and other - site in NEIGHBOURS and site not in self.sites
                and site not in self.grid and other in self.sites):
            raise IllegalAction(_("Name a courtyard from its cell that touches the town: `{cell} {building}`.",
                                  cell=label(other), building=building_text(colour, kind, site)))
        site = self._site(action)
        cells = (site,) if other is None else (site, other)
        if other is not None and other - site not in NEIGHBOURS:
            raise IllegalAction(_("The two cells of a courtyard must share an edge; {cell} is not next to {cell2}.",
                                  cell=label(other), cell2=label(site)))
        if colour not in self.usable[seat]:
            mine = _(" or ").join(_(COLOUR_NAMES[COLOURS[c]]) for c in self.usable[seat])
            raise IllegalAction(_("{colour} is not your colour: you build {mine}, e.g. {example}.",
                                  colour=_(COLOUR_NAMES[COLOURS[colour]]), mine=mine, example=self._example()))
        bad = self.violations(seat, kind, colour, cells)
        if bad:
            reasons = "; ".join(_(RULE_TEXT[b]) for b in bad)
            raise IllegalAction(_("You cannot build {building} at {cells}: {reasons}. Try e.g. {example}.",
                                  building=building(COLOURS[colour], KINDS[kind], article=True),
                                  cells='+'.join(label(c) for c in cells), reasons=reasons,
                                  example=self._example()))
        return self._build(seat, kind, colour, cells)

    def _build(self, seat: int, kind: int, colour: int, cells: tuple) -> list[Event]:
        touching = self._touching(cells)
        self.place_piece(kind, colour, cells, seat)
        self.supply[colour][kind] -= 1
        self.last = (kind, colour)
        gained = []
        for p in touching:
            col = self.pieces[p][1]
            if col >= 0 and self.stone_supply[col] > 0:
                self.stone_supply[col] -= 1
                self.stones[seat][col] += 1
                gained.append(COLOURS[col])
        self.builds += 1
        events = [Event("built", {"seat": seat, "kind": KINDS[kind], "color": COLOURS[colour],
                                  "cells": [label(c) for c in cells], "stones": gained})]
        self.phase = "bonus" if self.builds == 1 and self.cardinal is None else "cardinal"
        return events

    def _apply_bonus(self, seat: int, action: dict) -> list[Event]:
        colour = action.get("color")
        if set(action) != {"type", "color"} or colour not in COLOURS:
            raise IllegalAction(_("Choose the colour of your free stone: {colours}.", colours=", ".join(COLOURS)))
        c = COLOURS.index(colour)
        if self.stone_supply[c] <= 0:
            raise IllegalAction(_("No {colour} stones are left.", colour=_(COLOUR_NAMES[colour])))
        self.stone_supply[c] -= 1
        self.stones[seat][c] += 1
        self.phase = "place_cardinal"
        return [Event("bonus_stone", {"seat": seat, "color": colour})]

    def _apply_cardinal(self, seat: int, action: dict, place: bool) -> list[Event]:
        if set(action) != {"type", "site"}:
            raise IllegalAction(_("Name the Cardinal's building site, e.g. `cardinal N14`."))
        c = self._site(action, cardinal=True)
        if not place and c == self.cardinal:
            raise IllegalAction(_("The Cardinal already stands on {cell}: use `stay` to leave it there.",
                                  cell=label(c)))
        before = self.cardinal
        self.cardinal = c
        event = Event("cardinal_placed" if place else "cardinal_moved",
                      {"seat": seat, "site": label(c), "from": label(before) if before is not None else None})
        return [event] + self._next_turn()

    def _next_turn(self) -> list[Event]:
        """TURN_START for the players after the current one: skips, automatic passes, or the end."""
        events = []
        order = [(self.current + i) % self.n for i in range(1, self.n + 1)]
        able = {}
        for q in order:
            able[q] = self.can_build(q)
            if able[q]:
                break
        else:
            return events + self._end()
        for q in order:
            if able.get(q):
                self.current = q
                self.phase = "build"
                return events
            if not self.has_buildings(q):
                events.append(Event("skipped", {"seat": q, "reason": "no buildings left"}))
            else:
                events.append(Event("passed", {"seat": q, "reason": "no legal placement"}))
        raise AssertionError("unreachable")

    def _end(self) -> list[Event]:
        """The final account is public (rules 6): per player his colours after taking the leftovers (5.2), the
        leftovers taken and the colour counted double."""
        self.phase = "over"
        finals = [self.final_colours(p) for p in range(self.n)]
        return [Event("game_over", {
            "scores": self.final_scores(), "dom": self.dom_touches(), "ranking": self.ranking(),
            "final": [{COLOURS[c]: k for c, k in enumerate(fin) if k} for fin in finals],
            "doubled": [COLOURS[fin.index(max(fin))] if max(fin) else None for fin in finals],
            "leftover": [{COLOURS[c]: self.stone_supply[c] for c in self.colours[p] if self.stone_supply[c]}
                         for p in range(self.n)]})]

    # ------------------------------------------------------------------ scoring
    def final_colours(self, seat: int, stones=None, supply=None) -> list[int]:
        stones = self.stones if stones is None else stones
        supply = self.stone_supply if supply is None else supply
        own = self.colours[seat]
        fin = [stones[seat][c] + (supply[c] if c in own else 0) for c in range(4)]
        if self.shared is not None:
            fin[self.shared] = 0
        return fin

    def final_scores(self, stones=None, supply=None) -> list[int]:
        out = []
        for p in range(self.n):
            fin = self.final_colours(p, stones, supply)
            out.append(sum(fin) + max(fin))
        return out

    def dom_touches(self) -> list[int]:
        counts = [0] * self.n
        for kind, colour, cells, _ in self.pieces[2:]:
            if colour >= 0 and self.owner[colour] >= 0 and any(c in DOM_NEIGHBOURS for c in cells):
                counts[self.owner[colour]] += 1
        return counts

    def undo_refusal(self, seat: int, events: list[Event], before: State) -> str | None:
        """Everything is on the table and nothing is left to chance after the setup: every move can be taken
        back (while nobody else has acted)."""
        return None

    def is_over(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[float]:
        """The final score formula (own leftovers, best colour doubled), also as a running score."""
        return [float(s) for s in self.final_scores()]

    def ranking(self) -> list[int]:
        """By score; ties broken by own buildings touching the Dom; still tied: shared place."""
        dom = self.dom_touches()
        keys = [s * 100 + d for s, d in zip(self.final_scores(), dom)]
        return ranking_from_scores(keys)

    # ------------------------------------------------------------------ the AI's hooks (ai.py)
    def ai_search_options(self) -> dict | None:
        return ai.ai_search_options(self)

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
    def from_json(cls, data: dict) -> "KardinalState":
        return copies.from_json(cls, data)

    def clone(self) -> "KardinalState":
        return copies.clone(self)

    def determinize(self, seat: int | None, rng: random.Random) -> "KardinalState":
        return copies.determinize(self, seat, rng)


def new_state(n: int, seed: int) -> KardinalState:
    """Random colours (two each with 2 players; the 4th is shared with 3) and a random start player (A20)."""
    rng = random.Random(f"kardinal/{seed}")
    perm = list(range(4))
    rng.shuffle(perm)
    if n == 2:
        colours, shared = [perm[:2], perm[2:]], None
    else:
        colours, shared = [[perm[i]] for i in range(n)], (perm[3] if n == 3 else None)
    start = rng.randrange(n)
    s = KardinalState(n, seed, colours, shared, start)
    s.counter = 2
    return s
