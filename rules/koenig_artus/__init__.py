"""König Artus Tafelrunde (Thomas Pauli), 2–6 players: a trick-taking race to King Arthur's field.

Implements ../shared/rules/koenig_artus.md exactly. Options: ``track`` (King Arthur's field, default 27) and
``swords`` (the sword fields, default 3,7,11,15,19,23). Decisions where the rules file leaves a choice:

- Identical supertrumps: ``legal_actions`` offers one Knight and one Shield (the lowest id held) so a person is not
  asked to choose between identical cards; ``apply`` accepts any Knight/Shield id held.
- ``swap_trump_tokens`` takes the two slot numbers as one sorted list ``slots`` (the picker's multi-select).
- ``scores()`` are the pawn positions; ``ranking()`` puts the winner first and everyone else second (the rules rank no
  losers); before the end it ranks by position.
- Options are checked: the track has 5–60 fields and the sword fields lie strictly between start and King Arthur.
- ``determinize`` re-deals the other hands and the stack, keeping every void a player showed this hand and, after a
  reshuffle, the old stack cards (public: everything not yet played) in the hands, so many per player as dealt (A10).
- The AI's ``evaluate`` is the lead on the track plus the hand's strength; ``evaluate_actions`` gives it without
  playing the action, except where a new hand would be dealt. From three players the strong AI scores its cut
  rollouts by each seat's chance to win the race (``ai_rewards``, rules/koenig_artus/ai.py).
"""
from __future__ import annotations

from rules.api import IllegalAction, Option, Players, TextGame, register, whole_number
from rules.lang import N_, _
from rules.koenig_artus import notation, text
from rules.koenig_artus.state import DEFAULT_SWORDS, DEFAULT_TRACK, ArtusState


def number_list(value) -> bool:
    """Sword fields: a list of whole numbers (where they lie is checked with the track, ``check_together``)."""
    return isinstance(value, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in value)


SUMMARY = N_("""König Artus Tafelrunde — 2 to 6 players, a trick-taking race along a track to King Arthur.

Cards: six colours (🟥R red, 🟨Y yellow, 🟩G green, 🟦B blue, 🟪P purple, ⬛K black) 1–11, plus 3 Knights and 3 Shields.
Everyone gets 8 cards per hand; 8 tricks make a hand, then the deal moves left and new cards come from the stack
(the discard pile is shuffled under it when it runs short).

Tricks: follow the led colour if you can. If you cannot, play anything. The highest trump colour wins, else the
highest card of the led colour. Knights and Shields beat every coloured card: a Shield beats a Knight and a Knight
beats a Shield, but a Shield never beats a Shield (nor a Knight a Knight). If a Knight or Shield is led, nobody has
to follow.

Track: the trick winner moves his pawn to the next free field (occupied fields are jumped). Landing on a sword field
(x on the board; 3, 7, 11, 15, 19, 23 by default) lets you make a new colour trump — it takes the next slot and is
now the strongest — or, once all six are trump, swap two tokens. If that happens on the last trick of a hand you may
decide after the next deal. The first pawn to reach King Arthur's field (A on the track: 27 by default) wins at once.

How to play here (buttons, or /move with):
  R7  or  red-7        play a card (K7 black 7, Kn1 a Knight, Sh1 a Shield)
  trump green          make a colour trump on a sword field
  swap 1 6             swap the tokens in slots 1 and 6
  defer                decide after the next deal (last trick of a hand only)
Options when opening a table: /new koenig_artus track=27 swords=3,7,11,15,19,23
""")


class KoenigArtus(TextGame):
    name = "koenig_artus"
    title = "König Artus Tafelrunde"
    players = Players(range(2, 7), N_("König Artus Tafelrunde is for 2 to 6 players."))
    options = {
        "track": Option(DEFAULT_TRACK, whole_number(5, 60), N_(
            "track is King Arthur's field: a number from 5 to 60, e.g. track=27.")),
        "swords": Option(list(DEFAULT_SWORDS), number_list, N_(
            "swords lists the sword fields, e.g. swords=3,7,11,15,19,23.")),
    }
    unknown_options = N_("König Artus has the options track and swords, not {unknown}.")
    has_hidden_information = True
    restated_by_view = frozenset({"dealt"})  # "Your new hand: …" is the hand the view shows
    notation, text, summary = notation, text, SUMMARY
    move_examples = N_("`R7`, `trump green` or `swap 1 6`")

    def configurations(self) -> list[tuple[int, dict]]:
        short = {"track": 15, "swords": [2, 5, 9, 12]}
        return [(n, self.default_options()) for n in range(2, 7)] + [(3, short)]

    def check_together(self, options: dict) -> None:
        track, swords = options["track"], options["swords"]
        if any(not 1 <= x < track for x in swords) or len(set(swords)) != len(swords):
            raise IllegalAction(_("Sword fields must be different fields from 1 to {track}.", track=track - 1))

    def new_game(self, num_players: int, *, seed: int, options: dict | None = None) -> ArtusState:
        chosen = self.check_setup(num_players, options)
        state = ArtusState(num_players, int(seed), chosen["track"], sorted(chosen["swords"]))
        state.start_game()
        return state

    def from_json(self, data: dict) -> ArtusState:
        return ArtusState.from_json(data)


GAME = register(KoenigArtus())
