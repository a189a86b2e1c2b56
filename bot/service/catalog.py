"""The games Herald hosts, as the adapters may know them: names, titles, seat counts, options, help — never an
engine (an adapter imports no ``rules``)."""
from __future__ import annotations

from dataclasses import dataclass

import rules


@dataclass(frozen=True)
class GameInfo:
    name: str
    title: str
    min_players: int
    max_players: int
    default_options: dict
    hides: bool  # some information is hidden (hands, face-down cards); Kardinal hides nothing

    def help_text(self) -> str:
        """The game's own help, in the language current now."""
        return rules.get_game(self.name).help_text()


def _info(game) -> GameInfo:
    return GameInfo(game.name, game.title, game.min_players, game.max_players, game.default_options(),
                    game.has_hidden_information)


def games() -> list[GameInfo]:
    """Every game, by name."""
    return [_info(game) for _name, game in sorted(rules.GAMES.items())]


def game(name: str) -> GameInfo:
    """One game by name; an unknown name raises the engines' ``IllegalAction`` (a ``ValueError``) saying which
    games there are."""
    return _info(rules.get_game(name))
