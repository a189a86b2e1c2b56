"""The read model of a league's pages: standings per game and season, recent games, a player's record.

Everything is read in one read-only unit of work through the repositories; names pass through ``shown_name``
so a person who chose ``/settings myweb=hidden`` is "a player" everywhere, and no platform id is ever read out.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from bot.i18n import _
from bot.service.chat_settings import effective
from bot.service.leagues import conservative
from bot.service.web_views import game_title, places_with_resigns
from storage.models import Chat, GameRow, Player

RECENT = 15  # finished games listed on a league page
LAST = 20  # a player's last games listed on their page


def shown_name(player: Player | None, fallback: str) -> str:
    """A person's name as the pages show it: hidden when they asked; an AI seat keeps its name."""
    if player is None:
        return fallback
    return _("a player") if player.web_hidden else player.name


@dataclass
class Standing:
    rank: int
    player_id: int
    name: str
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int


@dataclass
class Table:
    game: str
    title: str
    season: int
    current: int
    standings: list[Standing]
    provisional: list[Standing]


@dataclass
class GameLine:
    id: int
    title: str
    finished_at: datetime | None
    places: list[tuple[int, str, float, int | None]]  # (place, name, score, player id for a link)
    rated: bool


@dataclass
class LeaguePage:
    title: str
    tables: list[Table]
    recent: list[GameLine]
    min_games: int


@dataclass
class PlayerPage:
    player_id: int
    name: str
    ratings: list[tuple[str, int, float, float, float, int]]  # (title, season, rating, mu, sigma, games)
    series: dict[str, list[float]] = field(default_factory=dict)  # game title → rating after each rated game
    places: list[tuple[int, int]] = field(default_factory=list)  # (place, how often)
    games: int = 0
    wins: int = 0
    last: list[GameLine] = field(default_factory=list)


def game_line(row: GameRow) -> GameLine:
    """A finished game as one line of a list: places, names (hidden where asked), scores."""
    result = row.result or {}
    names = result.get("names", [])
    scores = result.get("scores", [0] * len(names))
    places = places_with_resigns(result.get("ranking", []), set(result.get("resigned", [])))
    seats = {s.seat: s for s in row.seats}
    shown = []
    for seat in sorted(range(len(names)), key=lambda s: (places[s], -scores[s], s)):
        person = seats[seat].player if seat in seats else None
        shown.append((places[seat], shown_name(person, names[seat]), scores[seat],
                      person.id if person is not None else None))
    return GameLine(row.id, game_title(row.game), row.finished_at, shown, row.rated)


async def league_page(uow, chat: Chat, game: str | None = None, season: int | None = None) -> LeaguePage:
    """The chat's league: every rated game's current season (or ``season`` of ``game``), and its recent games."""
    min_games = int(effective(chat.settings)["min_games"])
    names = await uow.leagues.games_rated(chat.league)
    if game is not None:
        names = [name for name in names if name == game]
    tables = []
    for name in names:
        current = await uow.leagues.season(chat.league, name)
        number = season if season is not None and 1 <= season <= current else current
        rows = await uow.leagues.ratings(chat.league, name, number)
        people = await uow.leagues.players([r.player_id for r in rows])
        wins = await uow.pages.wins(chat.league, name, number)
        ordered = sorted(rows, key=lambda r: (-conservative(r.mu, r.sigma), r.player_id))
        standings, provisional = [], []
        for r in ordered:
            entry = Standing(0, r.player_id, shown_name(people.get(r.player_id), "?"), conservative(r.mu, r.sigma),
                             r.mu, r.sigma, r.games, wins.get(r.player_id, 0))
            (standings if r.games >= min_games else provisional).append(entry)
        for rank, entry in enumerate(standings, 1):
            entry.rank = rank
        tables.append(Table(name, game_title(name), number, current, standings, provisional))
    recent = [game_line(row) for row in await uow.games.recent_finished([chat.id], RECENT)]
    return LeaguePage(chat.title or _("this chat"), tables, recent, min_games)


async def player_page(uow, chat: Chat, player_id: int) -> PlayerPage | None:
    """A player's record in the chat's league; None when they never sat at one of its tables."""
    if not await uow.pages.plays_in(chat.id, player_id):
        return None
    player = await uow.players.get(player_id)
    ratings = [(game_title(r.game), r.season, conservative(r.mu, r.sigma), r.mu, r.sigma, r.games)
               for r in await uow.leagues.ratings_of_player(chat.league, player_id)]
    page = PlayerPage(player_id, shown_name(player, "?"), ratings)
    for change in await uow.leagues.changes_of_player(chat.league, player_id):
        page.series.setdefault(game_title(change.game), []).append(
            conservative(change.mu_after, change.sigma_after))
    rows = await uow.pages.finished_of_player(chat.id, player_id, LAST)
    page.last = [game_line(row) for row in rows]
    places: Counter = Counter()
    for line in page.last:
        places.update(place for place, _name, _score, pid in line.places if pid == player_id)
    page.places = sorted(places.items())
    page.games = sum(places.values())
    page.wins = places.get(1, 0)
    return page
