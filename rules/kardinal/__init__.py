"""Kardinal (Wolfgang Panning, Holzinsel 2000), 2–4 players: building a town around the Dom under seven rules.

Implements ../shared/rules/kardinal.md exactly (its decisions A1–A26 included). No options. Decisions where the rules
file leaves a gap for the engine:

- Coordinates: columns are letters, rows numbers; the church tower is M13 and the nave N13 (x = 0 → M, y = 0 → 13).
  Far out (never in practice) columns continue as ZA, ZB … to the east and AZ, AY … to the west, rows as 0, -1 ….
- A build is ``{"type": "build", "site": "M14", "building": "red courtyard N14"}``: the picker asks for the site
  first, then the building (colour, shape and, for a courtyard, its second cell). The site must be a building site
  (empty, touching the town); a courtyard whose both cells are sites is offered from either of them (same
  placement, two ways to pick it). At most 8 buildings fit one site (two usable colours × a house or a tower, never
  both, and up to 3 courtyards, as one side of a site touches the town); the site list itself rarely exceeds 24,
  the Cardinal's sites (any building site, A25) often do and are paged by the picker. Action types: ``build``,
  ``bonus_stone``, ``place_cardinal``, ``move_cardinal``, ``end_turn``; ``pass_turn`` is never legal (passes and
  skips are automatic, A7) and is refused with the reason.
- Colours are dealt at random from the seed (2 players: two each, any split; 3 players: the colour left over is
  shared) and the start player is random (A20).
- ``scores()`` is the final formula at any time (own leftover supply, best colour doubled); ``ranking()`` breaks
  ties by own buildings touching the Dom, also for places below first; still tied: shared place.
- The game ends at the turn start at which nobody can build (checked before any pass is announced); the passes and
  skips of the players between are announced as events ("skipped": no buildings left; "passed": no legal
  placement). The ``game_over`` event carries the final account (rules 6): per player his colours after the
  leftovers, the leftovers taken and the colour counted double (the first of equal best ones, A17).
- Everything is public: ``determinize`` returns a clone; the view of a seat equals the public view apart from
  ``viewer``.
"""
from __future__ import annotations

from rules.api import Players, TextGame, register
from rules.lang import N_
from rules.kardinal import notation, text
from rules.kardinal.state import KardinalState, new_state

SUMMARY = N_("""Kardinal — 2 to 4 players build one town around the Dom (DT tower at M13, DN nave at N13).

Everyone has 2 houses (H), 2 towers (T) and 2 courtyards (C, two cells) per colour: 🟥 red, 🟨 yellow, 🟩 green,
🟦 blue. 4 players: one colour each. 3 players: one colour each, the 4th colour is shared by all (its stones are
worth nothing). 2 players: two colours each.

On your turn you must build one building on a building site (an empty cell touching the town along an edge; a
courtyard needs only one of its cells on a site). The seven rules:
 1. never on the Cardinal's cell (☩);
 2. a tower must touch a house (the nave counts as a house);
 3. a courtyard must touch a house (or the nave);
 4. never next to the same shape (house–house, tower–tower, courtyard–courtyard; DT is a tower, DN a house);
 5. never next to the same colour;
 6. not the same shape as the last building placed by anyone (also across passes);
 7. not the same colour as the last building placed.
If you cannot build, you pass automatically; with nothing left you are skipped.

For each coloured building your new building touches you take a point stone of that colour (while that colour's
supply lasts). The start player also takes one free stone of any colour after his first building and then must
put the Cardinal on a building site. After you have built you may move the Cardinal to another site (or
leave it) — so each player, AI or not, may move it after his own building; a player who passes does not.

The game ends when nobody can build. Score: your stones, plus all leftover stones of your own colour(s) in the
supply, plus your best colour once more (counted double). Tie: most own buildings touching the Dom.

How to play here (buttons, or /move with):
  M14 red house   or  m14 rh      build (site, colour, shape)
  M14 red courtyard N14            a courtyard names its second cell (or: m14 gc east)
  bonus blue                       the start player's free stone
  cardinal N12                     put / move the Cardinal
  stay                             leave the Cardinal where it is
In the grid `+` marks the sites where the player to move can build, `.` other sites.
""")


class Kardinal(TextGame):
    name = "kardinal"
    title = "Kardinal"
    players = Players(range(2, 5), N_("Kardinal is for 2 to 4 players."))
    unknown_options = N_("Kardinal has no options, not {unknown}.")
    has_hidden_information = False
    notation, text, summary = notation, text, SUMMARY
    move_examples = N_("`M14 red house`, `cardinal N12` or `stay`")

    def configurations(self) -> list[tuple[int, dict]]:
        return [(n, {}) for n in (2, 3, 4)]

    def new_game(self, num_players: int, *, seed: int, options: dict | None = None) -> KardinalState:
        self.check_setup(num_players, options)
        return new_state(num_players, int(seed))

    def from_json(self, data: dict) -> KardinalState:
        return KardinalState.from_json(data)


GAME = register(Kardinal())
