"""The pages' handlers: find the chat by its slug (or answer 404), read its read model, render a template.

Each handler opens one read-only unit of work. Nothing here knows a platform; numbers in an address are the
database's own ids of players and games, checked to belong to the slug's chat.
"""
from __future__ import annotations

from pathlib import Path

from aiohttp import web

from bot import i18n
from bot.service.chat_settings import effective
from bot.web import chart, game as replay, league as leagues
from bot.web.templates import render
from storage import UnitOfWork

STATIC = Path(__file__).resolve().parent / "static"
DB = web.AppKey("db", object)
REPLAYS = web.AppKey("replays", replay.Replays)  # finished games' replays, kept per app (per database)
LANG = web.RequestKey("lang", str) if hasattr(web, "RequestKey") else "lang"  # the page's language (aiohttp ≥ 3.12)


def _html(text: str) -> web.Response:
    return web.Response(text=text, content_type="text/html")


def _number(value: str | None) -> int | None:
    """A whole number from an address or query (None when it is not one, or absurdly long)."""
    if value is None or not (value.isascii() and value.isdigit()) or len(value) > 9:
        return None
    return int(value)


async def _chat(request: web.Request, uow: UnitOfWork):
    """The slug's chat, with the page's language set on the request; 404 when no chat publishes it."""
    chat = await uow.pages.chat_by_slug(request.match_info["slug"])
    if chat is None:
        raise web.HTTPNotFound()
    request[LANG] = i18n.supported(effective(chat.settings)["language"]) or i18n.DEFAULT
    return chat


def _common(request: web.Request, chat) -> dict:
    return {"slug": request.match_info["slug"], "league_title": chat.title or "Herald"}


async def index(request: web.Request) -> web.Response:
    return _html(render("index.html", i18n.DEFAULT, slug=None))


async def league(request: web.Request) -> web.Response:
    game, season = request.query.get("game"), _number(request.query.get("season"))
    async with UnitOfWork(request.app[DB], readonly=True) as uow:
        chat = await _chat(request, uow)
        with i18n.using(request[LANG]):
            page = await leagues.league_page(uow, chat, game, season)
    return _html(render("league.html", request[LANG], page=page, **_common(request, chat)))


async def player(request: web.Request) -> web.Response:
    player_id = _number(request.match_info["player"])
    async with UnitOfWork(request.app[DB], readonly=True) as uow:
        chat = await _chat(request, uow)
        with i18n.using(request[LANG]):
            page = await leagues.player_page(uow, chat, player_id) if player_id is not None else None
    if page is None:
        raise web.HTTPNotFound()
    with i18n.using(request[LANG]):
        svg = chart.rating_svg(page.series, i18n._("rated games"), i18n._("rating (μ − 3σ)"))
    return _html(render("player.html", request[LANG], page=page, chart=_markup(svg),
                        legend=chart.legend(page.series), **_common(request, chat)))


def _markup(svg: str):
    from markupsafe import Markup

    return Markup(svg) if svg else None  # every text in it was escaped where it was drawn (chart.py)


async def _game(request: web.Request):
    game_id = _number(request.match_info["game"])
    async with UnitOfWork(request.app[DB], readonly=True) as uow:
        chat = await _chat(request, uow)
        if game_id is None:
            raise web.HTTPNotFound()
        with i18n.using(request[LANG]):
            page = await replay.game_page(uow, chat, game_id, request.query.get("seat"),
                                          _number(request.query.get("step")), request.app[REPLAYS])
    if page is None:
        raise web.HTTPNotFound()
    return chat, page


async def game(request: web.Request) -> web.Response:
    chat, page = await _game(request)
    return _html(render("game.html", request[LANG], page=page, **_common(request, chat)))


async def picture(request: web.Request) -> web.Response:
    """The picture of what the game page shows at this step for this viewer (drawn off the event loop,
    kept by what it shows)."""
    _chat_row, page = await _game(request)
    whose = request.query.get("show", replay.PUBLIC)
    if whose not in page.pictures():
        raise web.HTTPNotFound()
    png = await replay.picture_of(page, request[LANG], whose)
    if png is None:
        raise web.HTTPNotFound()
    return web.Response(body=png, content_type="image/png")
