"""The league's commands: ``/leaderboard``, ``/stats``, ``/history`` and ``/newseason`` (rating a finished game is
``bot.service.leagues.rate_finished``, a step of recording the game's last move)."""
from __future__ import annotations

import re
from collections import Counter

import rules
from bot import i18n
from bot.i18n import _, ngettext
from bot.render.chart import rating_chart
from bot.service import commands as c
from bot.service.context import Context
from bot.service.errors import ServiceError
from bot.service.handlers.settings import chat_settings
from bot.service.handlers.web import link_line
from bot.service.languages import chat_language
from bot.service.leagues import conservative, game_title, places_with_resigns, widened
from bot.service.messages import ChatRef, Message, UserRef
from bot.service.rows import chat_row
from storage.models import Rating

MENTION = re.compile(r"<@!?(\d+)>")


def _games_in(text: str) -> tuple[str | None, int | None]:
    game = season = None
    for token in (text or "").split():
        if token.isdigit():
            season = int(token)
        else:
            game = rules.get_game(token).name
    return game, season


async def new_season(ctx: Context, command: c.NewSeason) -> list[Message]:
    """``/newseason [game]`` (admins): ratings start again from their μ with a wider σ."""
    chat = command.chat
    if not command.is_admin:
        raise ServiceError(_("Only admins (Manage Server / group admins) can start a new season."))
    game = _games_in(command.text)[0]
    async with ctx.uow() as uow:
        names = [game] if game else await uow.leagues.games_rated(chat.league_key)
        if not names:
            raise ServiceError(_("Nothing is rated here yet, so there is no season to end."))
        started = []
        lang = chat_language((await chat_row(uow, chat)).settings)
        for name in names:
            old = await uow.leagues.season(chat.league_key, name)
            number = await uow.leagues.start_season(chat.league_key, name)
            for r in await uow.leagues.ratings(chat.league_key, name, old):
                await uow.leagues.add_rating(Rating(league=chat.league_key, game=name, season=number,
                                                    player_id=r.player_id, mu=r.mu, sigma=widened(r.sigma), games=0))
            with i18n.using(lang):
                started.append(_("{game}: season {season}", game=game_title(name), season=number))
        await uow.commit()
    with i18n.using(lang):
        text = _("🗓 A new season begins — {seasons}. Ratings keep their μ with a wider σ; past seasons "
                 "stay on /leaderboard <game> <season>.", seasons="; ".join(started))
    return [Message(text, chat=chat, kind="notice")]


async def show_leaderboard(ctx: Context, command: c.ShowLeaderboard) -> list[Message]:
    chat = command.chat
    game, season = _games_in(command.text)  # an unknown game is refused (IllegalAction names the games)
    settings = await chat_settings(ctx, chat)
    min_games = int(settings.get("min_games", 3))
    async with ctx.uow() as uow:
        names = [game] if game else await uow.leagues.games_rated(chat.league_key)
        if not names:
            return [Message(_("No rated games here yet. Games with only human players are rated when they "
                              "end."), chat=chat, user=command.user)]
        blocks = []
        for name in names:
            number = season or await uow.leagues.season(chat.league_key, name)
            rows = await uow.leagues.ratings(chat.league_key, name, number)
            players = await uow.leagues.players([r.player_id for r in rows])
            shown = sorted((r for r in rows if r.games >= min_games),
                           key=lambda r: (-conservative(r.mu, r.sigma), r.player_id))
            lines = [_("🏅 {game} — season {season}", game=game_title(name), season=number)]
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
    return [Message("\n\n".join(blocks) + "\n\n" + _("Rating = μ − 3σ (OpenSkill).") + link_line(ctx, settings),
                    chat=chat, user=command.user)]


async def _target(uow, chat: ChatRef, user: UserRef, text: str, chat_ids: list[int]):
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


async def show_stats(ctx: Context, command: c.ShowStats) -> list[Message]:
    chat, user, text = command.chat, command.user, command.text
    async with ctx.uow() as uow:
        chat_ids = await uow.leagues.chat_ids(chat.platform, chat.league_key)
        player, name = await _target(uow, chat, user, text, chat_ids)
        if player is None:
            return [Message(_("Nobody called “{name}” has played here yet.", name=name), chat=chat,
                            user=command.user)]
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
        return [Message(_("{name} has not finished a game here yet.", name=player.name), chat=chat, user=command.user)]
    lines = [f"📜 {player.name} — " + ngettext("{n} game", "{n} games", len(places)) + ", " +
             ngettext("{n} win", "{n} wins", places.count(1)) + ", " +
             _("average place {place}", place=f"{sum(places) / len(places):.2f}"),
             _("Favourite game: {game}", game=game_title(per_game.most_common(1)[0][0]))]
    for r in ratings:
        lines.append(ngettext("{game}, season {season}: rating {rating} (μ {mu}, σ {sigma}, {n} rated game)",
                              "{game}, season {season}: rating {rating} (μ {mu}, σ {sigma}, {n} rated games)",
                              r.games, game=game_title(r.game), season=r.season,
                              rating=f"{conservative(r.mu, r.sigma):.1f}", mu=f"{r.mu:.1f}",
                              sigma=f"{r.sigma:.1f}"))
    image = None
    if changes:
        series: dict[str, list[float]] = {}
        for change in changes:
            series.setdefault(game_title(change.game), []).append(conservative(change.mu_after, change.sigma_after))
        image = rating_chart(_("{name}: rating after each game", name=player.name), series)
    return [Message("\n".join(lines), chat=chat, user=user, image=image,
                    image_name="rating.png" if image else None)]


async def show_history(ctx: Context, command: c.ShowHistory) -> list[Message]:
    chat = command.chat
    async with ctx.uow() as uow:
        chat_ids = await uow.leagues.chat_ids(chat.platform, chat.league_key)
        games = await uow.leagues.finished_games(chat_ids, limit=10)
        blocks = []
        for row in games:
            result = row.result or {}
            names, scores = result.get("names", []), result.get("scores", [])
            places = places_with_resigns(result.get("ranking", []), set(result.get("resigned", [])))
            by_player = {change.player_id: change for change in await uow.leagues.changes_of_game(row.id)}
            seats = {s.seat: s for s in row.seats}
            parts = []
            for seat in sorted(range(len(names)), key=lambda s: (places[s], -scores[s], s)):  # as the result
                change = by_player.get(seats[seat].player_id) if seat in seats else None
                delta = ""
                if change is not None:
                    diff = conservative(change.mu_after, change.sigma_after) - \
                        conservative(change.mu_before, change.sigma_before)
                    delta = f" ({diff:+.1f})"
                parts.append(f"{places[seat]}. {names[seat]} {scores[seat]:g}{delta}")
            note = "" if row.rated else " · " + _("not rated")
            # each finished game links to its record (/record N) and so to its replay (/replay #N)
            blocks.append(f"#{row.id} {game_title(row.game)}{note}: " + ", ".join(parts) +
                          f"\n   📜 /record {row.id}")
    if not blocks:
        return [Message(_("No finished games here yet."), chat=chat, user=command.user)]
    link = link_line(ctx, await chat_settings(ctx, chat))
    return [Message(_("🕰 Recent games") + "\n" + "\n".join(blocks) + link, chat=chat, user=command.user)]
