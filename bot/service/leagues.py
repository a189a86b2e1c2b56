"""Leagues: every Discord server and Telegram group rates its games, per game and season.

Ratings are OpenSkill's Plackett–Luce model (free-for-all with tied places; teams where the engine has teams).
Only games with human players in every seat, and no /hint used, are rated; a resign counts as last place. The rating of a finished
game is written in the same transaction that ends it (``rate_finished``), so two games ending at once both count
exactly once. The leaderboard orders by the conservative estimate μ − 3σ.
"""
from __future__ import annotations

import math

from openskill.models import PlackettLuce

import rules
from bot import i18n
from bot.i18n import _
from bot.service.languages import chat_language
from bot.service.messages import ChatRef, Message
from storage.models import Rating, RatingChange

MODEL = PlackettLuce()
DEFAULT_MU, DEFAULT_SIGMA = MODEL.mu, MODEL.sigma


def conservative(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def places_with_resigns(ranking: list[int], resigned: set[int]) -> list[int]:
    """The engine's places, with every resigned seat sharing last place behind everyone who stayed."""
    stayed = [s for s in range(len(ranking)) if s not in resigned]
    places = [0] * len(ranking)
    for s in stayed:
        places[s] = 1 + sum(1 for o in stayed if ranking[o] < ranking[s])
    for s in resigned:
        places[s] = len(stayed) + 1
    return places


def rate(ratings: list[tuple[float, float]], places: list[int],
         teams: list[list[int]] | None = None) -> list[tuple[float, float]]:
    """New (μ, σ) per seat. ``teams`` groups seats (each seat in one team); a team's place is its worst seat's."""
    teams = teams or [[s] for s in range(len(ratings))]
    model_teams = [[MODEL.create_rating(list(ratings[s])) for s in team] for team in teams]
    ranks = [max(places[s] for s in team) for team in teams]
    rated = MODEL.rate(model_teams, ranks=ranks)
    result: list[tuple[float, float]] = [(0.0, 0.0)] * len(ratings)
    for team, new in zip(teams, rated):
        for seat, r in zip(team, new):
            result[seat] = (r.mu, r.sigma)
    return result


def widened(sigma: float) -> float:
    """A new season starts from the old μ with σ widened, so ratings can move again quickly."""
    return min(DEFAULT_SIGMA, math.sqrt(sigma ** 2 + (DEFAULT_SIGMA / 2) ** 2))


def game_title(name: str) -> str:
    game = rules.GAMES.get(name)
    return game.title if game else name


async def rate_finished(uow, row, state, chat: ChatRef) -> list[Message]:
    """Rate a game that ends, inside the transaction that ends it: its ratings message, or [] when unrated."""
    if any(s.player_id is None for s in row.seats) or await uow.games.was_hinted(row.id):
        row.rated = False
        return []  # AI seats, or a hint was used: shown in history and personal stats, never rated
    league, n = chat.league_key, len(row.seats)
    season = await uow.leagues.season(league, row.game)
    by_seat = {s.seat: s for s in row.seats}
    player_ids = [by_seat[i].player_id for i in range(n)]
    current = {r.player_id: r for r in await uow.leagues.ratings(league, row.game, season, player_ids, lock=True)}
    for pid in player_ids:
        if pid not in current:
            current[pid] = await _new_rating(uow, league, row.game, season, pid)
    resigned = {i for i in range(n) if by_seat[i].resigned}
    places = places_with_resigns(state.ranking(), resigned)
    teams = state.teams()
    before = [(current[pid].mu, current[pid].sigma) for pid in player_ids]
    after = rate(before, places, teams)
    chat_row = await uow.chats.get(row.chat_id)
    with i18n.using(chat_language(chat_row.settings if chat_row is not None else None)):
        lines = [_("📈 Ratings — {game}, season {season}:", game=game_title(row.game), season=season)]
    for seat in sorted(range(n), key=lambda s: (places[s], s)):
        pid = player_ids[seat]
        rating = current[pid]
        old = conservative(rating.mu, rating.sigma)
        rating.mu, rating.sigma = after[seat]
        rating.games += 1
        new = conservative(rating.mu, rating.sigma)
        await uow.leagues.add_change(RatingChange(
            game_id=row.id, player_id=pid, league=league, game=row.game, season=season, place=places[seat],
            mu_before=before[seat][0], sigma_before=before[seat][1], mu_after=rating.mu,
            sigma_after=rating.sigma))
        lines.append(f"{places[seat]}. {by_seat[seat].player.name}: {old:.1f} → {new:.1f} ({new - old:+.1f})")
    row.rated = True
    return [Message("\n".join(lines), chat=chat, game_id=row.id, kind="notice")]

async def _new_rating(uow, league: str, game: str, season: int, player_id: int) -> Rating:
    mu, sigma = DEFAULT_MU, DEFAULT_SIGMA
    if season > 1:
        old = await uow.leagues.ratings(league, game, season - 1, [player_id])
        if old:
            mu, sigma = old[0].mu, widened(old[0].sigma)
    rating = Rating(league=league, game=game, season=season, player_id=player_id, mu=mu, sigma=sigma, games=0)
    await uow.leagues.add_rating(rating)
    return rating

