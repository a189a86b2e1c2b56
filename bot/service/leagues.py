"""Leagues: every Discord server and Telegram group rates its games, per game and season.

Ratings are OpenSkill's Plackett–Luce model (free-for-all with tied places; teams where the engine has teams).
Only games with human players in every seat, and no /hint used, are rated; a resign counts as last place. The rating of a finished
game is written in the same transaction that ends it (``rate_finished``), so two games ending at once both count
exactly once. The leaderboard orders by the conservative estimate μ − 3σ.
"""
from __future__ import annotations

import math
import re
from collections import Counter

from openskill.models import PlackettLuce

import rules
from bot import i18n
from bot.i18n import _, ngettext
from bot.render.chart import rating_chart
from bot.service.errors import ServiceError
from bot.service.languages import chat_language
from bot.service.messages import ChatRef, Message, UserRef
from storage.models import Rating, RatingChange

MODEL = PlackettLuce()
DEFAULT_MU, DEFAULT_SIGMA = MODEL.mu, MODEL.sigma
MENTION = re.compile(r"<@!?(\d+)>")


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


def _game_title(name: str) -> str:
    game = rules.GAMES.get(name)
    return game.title if game else name


class LeagueCommands:
    """Mixed into Service. ``rate_finished`` runs inside the transaction that ends a game."""

    async def rate_finished(self, uow, row, state, chat: ChatRef) -> list[Message]:
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
                current[pid] = await self._new_rating(uow, league, row.game, season, pid)
        resigned = {i for i in range(n) if by_seat[i].resigned}
        places = places_with_resigns(state.ranking(), resigned)
        teams = state.teams()
        before = [(current[pid].mu, current[pid].sigma) for pid in player_ids]
        after = rate(before, places, teams)
        chat_row = await uow.chats.get(row.chat_id)
        with i18n.using(chat_language(chat_row.settings if chat_row is not None else None)):
            lines = [_("📈 Ratings — {game}, season {season}:", game=_game_title(row.game), season=season)]
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

    async def _new_rating(self, uow, league: str, game: str, season: int, player_id: int) -> Rating:
        mu, sigma = DEFAULT_MU, DEFAULT_SIGMA
        if season > 1:
            old = await uow.leagues.ratings(league, game, season - 1, [player_id])
            if old:
                mu, sigma = old[0].mu, widened(old[0].sigma)
        rating = Rating(league=league, game=game, season=season, player_id=player_id, mu=mu, sigma=sigma, games=0)
        await uow.leagues.add_rating(rating)
        return rating

    # ------------------------------------------------------------------ commands
    def _games_in(self, text: str) -> tuple[str | None, int | None]:
        game = season = None
        for token in (text or "").split():
            if token.isdigit():
                season = int(token)
            else:
                game = rules.get_game(token).name
        return game, season

    async def new_season(self, chat: ChatRef, user: UserRef, text: str = "", is_admin: bool = False) -> list[Message]:
        try:
            if not is_admin:
                return [Message(_("Only admins (Manage Server / group admins) can start a new season."), chat=chat,
                                user=user, kind="error")]
            game = self._games_in(text)[0]
            async with self._uow() as uow:
                names = [game] if game else await uow.leagues.games_rated(chat.league_key)
                if not names:
                    return [Message(_("Nothing is rated here yet, so there is no season to end."), chat=chat,
                                    user=user, kind="error")]
                started = []
                lang = chat_language((await self._chat_row(uow, chat)).settings)
                for name in names:
                    old = await uow.leagues.season(chat.league_key, name)
                    number = await uow.leagues.start_season(chat.league_key, name)
                    for r in await uow.leagues.ratings(chat.league_key, name, old):
                        await uow.leagues.add_rating(Rating(league=chat.league_key, game=name, season=number,
                                                            player_id=r.player_id, mu=r.mu, sigma=widened(r.sigma),
                                                            games=0))
                    with i18n.using(lang):
                        started.append(_("{game}: season {season}", game=_game_title(name), season=number))
                await uow.commit()
        except rules.IllegalAction as error:
            return [Message(str(error), chat=chat, user=user, kind="error")]
        with i18n.using(lang):
            text = _("🗓 A new season begins — {seasons}. Ratings keep their μ with a wider σ; past seasons "
                     "stay on /leaderboard <game> <season>.", seasons="; ".join(started))
        return [Message(text, chat=chat, kind="notice")]

    async def leaderboard(self, chat: ChatRef, user: UserRef | None = None, text: str = "") -> list[Message]:
        try:
            game, season = self._games_in(text)
        except rules.IllegalAction as error:
            return [Message(str(error), chat=chat, user=user, kind="error")]
        settings = await self.chat_settings(chat)
        min_games = int(settings.get("min_games", 3))
        async with self._uow() as uow:
            names = [game] if game else await uow.leagues.games_rated(chat.league_key)
            if not names:
                return [Message(_("No rated games here yet. Games with only human players are rated when they "
                                  "end."), chat=chat, user=user)]
            blocks = []
            for name in names:
                number = season or await uow.leagues.season(chat.league_key, name)
                rows = await uow.leagues.ratings(chat.league_key, name, number)
                players = await uow.leagues.players([r.player_id for r in rows])
                shown = sorted((r for r in rows if r.games >= min_games),
                               key=lambda r: (-conservative(r.mu, r.sigma), r.player_id))
                lines = [_("🏅 {game} — season {season}", game=_game_title(name), season=number)]
                width = max([len(players[r.player_id].name) for r in shown[:20]] + [4])
                table = [f"{i:>2}. {players[r.player_id].name:<{width}} {conservative(r.mu, r.sigma):6.1f}"
                         "  " + ngettext("(μ {mu}, σ {sigma}, {n} game)", "(μ {mu}, σ {sigma}, {n} games)", r.games,
                                         mu=f"{r.mu:.1f}", sigma=f"{r.sigma:.1f}")
                         for i, r in enumerate(shown[:20], 1)]
                lines.append("```\n" + "\n".join(table) + "\n```" if table else _("Nobody has played enough yet."))
                hidden = len(rows) - len(shown)
                if hidden:
                    lines.append(ngettext("{n} more with fewer than {least} games.",
                                          "{n} more with fewer than {least} games.", hidden, least=min_games))
                blocks.append("\n".join(lines))
        return [Message("\n\n".join(blocks) + "\n\n" + _("Rating = μ − 3σ (OpenSkill)."), chat=chat, user=user)]

    async def _target(self, uow, chat: ChatRef, user: UserRef, text: str, chat_ids: list[int]):
        text = (text or "").strip()
        if not text:
            return await uow.players.find(user.platform, user.id), user.name
        found = MENTION.search(text)
        if found:
            player = await uow.players.find(chat.platform, found.group(1))
            return player, player.name if player else text
        name = text.lstrip("@")
        exact = await uow.leagues.find_player_by_name(chat.platform, name, chat_ids)
        if exact is not None or not name:
            return exact, name
        like = await uow.leagues.players_named_like(chat.platform, name, chat_ids)
        if len(like) > 1:  # "Robert" → Robert Smith and Robert Jones: ask which
            names = sorted({p.name for p in like})
            raise ServiceError(_("Several players here match “{name}”: {names}. Which one? e.g. /stats {example}",
                                 name=name, names=", ".join(names[:8]), example=names[0]))
        return (like[0] if like else None), name

    async def stats(self, chat: ChatRef, user: UserRef | None = None, text: str = "") -> list[Message]:
        async with self._uow() as uow:
            chat_ids = await uow.leagues.chat_ids(chat.platform, chat.league_key)
            player, name = await self._target(uow, chat, user, text, chat_ids)
            if player is None:
                return [Message(_("{name} has not played here yet.", name=name), chat=chat, user=user)]
            places, per_game = [], Counter()
            for row in await uow.leagues.finished_games(chat_ids):
                seat = next((s for s in row.seats if s.player_id == player.id), None)
                if seat is None or not row.result or seat.seat is None:
                    continue
                resigned = set(row.result.get("resigned", []))
                places.append(places_with_resigns(row.result["ranking"], resigned)[seat.seat])
                per_game[row.game] += 1
            ratings = await uow.leagues.ratings_of_player(chat.league_key, player.id)
            changes = await uow.leagues.changes_of_player(chat.league_key, player.id)
        if not places:
            return [Message(_("{name} has not finished a game here yet.", name=player.name), chat=chat, user=user)]
        lines = [f"📜 {player.name} — " + ngettext("{n} game", "{n} games", len(places)) + ", " +
                 ngettext("{n} win", "{n} wins", places.count(1)) + ", " +
                 _("average place {place}", place=f"{sum(places) / len(places):.2f}"),
                 _("Favourite game: {game}", game=_game_title(per_game.most_common(1)[0][0]))]
        for r in ratings:
            lines.append(ngettext("{game}, season {season}: rating {rating} (μ {mu}, σ {sigma}, {n} rated game)",
                                  "{game}, season {season}: rating {rating} (μ {mu}, σ {sigma}, {n} rated games)",
                                  r.games, game=_game_title(r.game), season=r.season,
                                  rating=f"{conservative(r.mu, r.sigma):.1f}", mu=f"{r.mu:.1f}",
                                  sigma=f"{r.sigma:.1f}"))
        image = None
        if changes:
            series: dict[str, list[float]] = {}
            for c in changes:
                series.setdefault(_game_title(c.game), []).append(conservative(c.mu_after, c.sigma_after))
            image = rating_chart(_("{name}: rating after each game", name=player.name), series)
        return [Message("\n".join(lines), chat=chat, user=user, image=image,
                        image_name="rating.png" if image else None)]

    async def history(self, chat: ChatRef, user: UserRef | None = None, text: str = "") -> list[Message]:
        async with self._uow() as uow:
            chat_ids = await uow.leagues.chat_ids(chat.platform, chat.league_key)
            games = await uow.leagues.finished_games(chat_ids, limit=10)
            blocks = []
            for row in games:
                result = row.result or {}
                names, scores = result.get("names", []), result.get("scores", [])
                places = places_with_resigns(result.get("ranking", []), set(result.get("resigned", [])))
                by_player = {c.player_id: c for c in await uow.leagues.changes_of_game(row.id)}
                seats = {s.seat: s for s in row.seats}
                parts = []
                for seat in sorted(range(len(names)), key=lambda s: (places[s], s)):
                    change = by_player.get(seats[seat].player_id) if seat in seats else None
                    delta = ""
                    if change is not None:
                        diff = conservative(change.mu_after, change.sigma_after) - \
                            conservative(change.mu_before, change.sigma_before)
                        delta = f" ({diff:+.1f})"
                    parts.append(f"{places[seat]}. {names[seat]} {scores[seat]:g}{delta}")
                note = "" if row.rated else " · " + _("not rated")
                blocks.append(f"#{row.id} {_game_title(row.game)}{note}: " + ", ".join(parts))
        if not blocks:
            return [Message(_("No finished games here yet."), chat=chat, user=user)]
        return [Message(_("🕰 Recent games") + "\n" + "\n".join(blocks), chat=chat, user=user)]
