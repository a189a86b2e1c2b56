"""The web process: ``python -m bot web`` serves the leagues of the chats that opted in (``/settings web=on``).

aiohttp.web (already installed with discord.py) and Jinja2 templates; read-only on the bots' database (SQLite or
PostgreSQL), so any number of replicas may serve it. Every page is under ``/c/<slug>``, the chat's random slug:
it names no platform id, and a chat that turned the pages off is a 404 like any unknown address.

Headers as a careful site sets them: a Content-Security-Policy that allows no inline script (the replay's script
is a static file), no caching of a chat's pages (they are private to whoever holds the link), ``nosniff``, and
no Referer leaving the site (the address holds the slug).
"""
from __future__ import annotations

import logging

from aiohttp import web

from bot import i18n
from bot.web import pages
from bot.web.game import Replays
from bot.web.templates import render

log = logging.getLogger(__name__)

STATIC = pages.STATIC
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "X-Frame-Options": "DENY"}


def _not_found(lang: str = i18n.DEFAULT) -> web.Response:
    return web.Response(text=render("notfound.html", lang), status=404, content_type="text/html")


@web.middleware
async def careful(request: web.Request, handler) -> web.StreamResponse:
    """Friendly 404 and 500 pages (no traceback reaches a visitor) and the headers of every answer."""
    try:
        response = await handler(request)
    except web.HTTPNotFound:
        response = _not_found(request.get(pages.LANG, i18n.DEFAULT))
    except web.HTTPException as e:
        if e.status >= 400:
            response = web.Response(text=f"{e.status} {e.reason}", status=e.status)
        else:
            raise
    except Exception:
        log.exception("the page %s failed", request.path)
        response = web.Response(text=render("error.html", request.get(pages.LANG, i18n.DEFAULT)), status=500,
                                content_type="text/html")
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    if request.path.startswith("/static/") and response.status == 200:
        response.headers["Cache-Control"] = "public, max-age=3600"
    else:  # a chat's pages: only for whoever holds the link, never kept by a shared cache
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Robots-Tag"] = "noindex, nofollow"
    return response


def make_app(db) -> web.Application:
    """The application on an open ``storage.Database`` (the caller closes it)."""
    app = web.Application(middlewares=[careful])
    app[pages.DB] = db
    app[pages.REPLAYS] = Replays()
    app.router.add_get("/", pages.index)
    app.router.add_get("/c/{slug}", pages.league)
    app.router.add_get("/c/{slug}/p/{player}", pages.player)
    app.router.add_get("/c/{slug}/g/{game}", pages.game)
    app.router.add_get("/c/{slug}/g/{game}/picture.png", pages.picture)
    app.router.add_static("/static/", STATIC, append_version=False)
    return app


async def serve(database_url: str, listen: str, port: int) -> None:
    """Serve until SIGTERM or Ctrl-C. The schema is the bots' to migrate; a database no bot has opened yet (a
    newcomer's first ``python -m bot web``) is brought to it, so the pages answer "nothing here" rather than fail."""
    import asyncio
    import signal

    from storage import UnitOfWork, open_database

    db = await open_database(database_url, migrate=False)
    if not await _has_schema(db):
        await db.migrate()
    runner = web.AppRunner(make_app(db), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, listen, port)
    await site.start()
    log.info("Herald's pages on http://%s:%s/", listen, port)
    async with UnitOfWork(db, readonly=True) as uow:  # a newcomer's console games: where to look
        for chat in await uow.pages.shown_of("console"):
            log.info("the console's games: http://%s:%s/c/%s", listen, port, chat.settings["web_slug"])
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
        await db.close()


async def _has_schema(db) -> bool:
    from sqlalchemy import inspect

    async with db.engine.connect() as conn:
        return await conn.run_sync(lambda sync: inspect(sync).has_table("alembic_version"))
