"""The pages over HTTP on a real database (SQLite and PostgreSQL): what a league, a player and a game page show,
404s, a chat that turned its pages off, a running game's page against every seat's view, and the headers."""
from __future__ import annotations

import html
import re

import aiohttp
import pytest

from bot.render import boards
from bot.service import build_service
from bot.service.leagues import conservative
from rules import get_game
from storage import UnitOfWork
from tests.web.site import ALICE, BOB, CHAT, HIDDEN_GAME, Site, build_league

TAGS = re.compile(r"<[^>]+>")


@pytest.fixture
async def league(database_url):
    return await build_league(database_url)


async def get(site: Site, path: str) -> tuple[int, str, dict]:
    async with aiohttp.ClientSession() as session:
        async with session.get(site.base + path) as response:
            return response.status, await response.text(), dict(response.headers)


def words(page: str) -> str:
    """The text a reader sees (tags gone, entities read)."""
    return html.unescape(TAGS.sub(" ", page))


async def test_league_page_shows_the_current_season_ranked_with_links(database_url, league):
    async with Site(database_url) as site:
        status, whole, _headers = await get(site, f"/c/{league.slug}")
        async with UnitOfWork(site.db, readonly=True) as uow:
            ratings = await uow.leagues.ratings("discord:guild1", "toy", 1)
            lut = await uow.leagues.ratings("discord:guild1", HIDDEN_GAME, 1)
    assert status == 200
    page = re.search(r'<section class="table" id="toy">.*?</section>', whole, re.S).group(0)
    ranked = sorted(ratings, key=lambda r: -conservative(r.mu, r.sigma))
    rows = re.findall(r'<tr><td>(\d+)</td><td><a href="/c/[^/]+/p/(\d+)">([^<]+)</a></td>'
                      r'<td class="num">([-\d.]+)</td>', page)
    assert [(int(rank), int(pid), float(rating)) for rank, pid, _name, rating in rows] == [
        (i, r.player_id, round(conservative(r.mu, r.sigma), 1)) for i, r in enumerate(ranked, 1)]
    assert "Duel of Cards — season 1" in words(page)
    # one game of List und Tücke each: below min_games (3), all four are provisional, none is ranked
    table = re.search(r'<section class="table" id="list_und_tuecke">.*?</section>', whole, re.S).group(0)
    assert "<tbody>" not in table and "Provisional (fewer than 3 games)" in table
    assert len(re.findall(r"<li>", table)) == len(lut) == 4
    assert "Round Table" in words(whole)
    for gid in league.toy_games + [league.finished]:  # recent finished games, linked; the running one is not
        assert f'href="/c/{league.slug}/g/{gid}"' in whole
    assert f"/g/{league.running}\"" not in whole
    # no platform, platform id, league key or internal chat id in the page
    for secret in ("discord", "chan1", "guild1"):
        assert secret not in whole


async def test_player_page_has_the_rating_history_chart_and_last_games(database_url, league):
    alice = league.players["Alice"]
    async with Site(database_url) as site:
        status, page, _ = await get(site, f"/c/{league.slug}/p/{alice}")
        async with UnitOfWork(site.db, readonly=True) as uow:
            changes = await uow.leagues.changes_of_player("discord:guild1", alice)
    assert status == 200
    assert "<h1>Alice</h1>" in page
    lines = [points.split() for points in re.findall(r'<polyline points="([^"]+)"', page)]
    per_game = [sum(1 for c in changes if c.game == game) for game in ("toy", HIDDEN_GAME)]
    assert [len(points) for points in lines] == per_game == [len(league.toy_games), 1]  # a point per rated game
    low = min(conservative(c.mu_after, c.sigma_after) for c in changes)
    assert f">{round(low, 1):.1f}</text>" in page  # the lowest rating labels the chart's lowest line
    for gid in league.toy_games:
        assert f'href="/c/{league.slug}/g/{gid}"' in page
    assert "discord" not in page and "guild1" not in page


async def test_names_are_escaped_and_hidden_on_request(database_url, league):
    async with Site(database_url) as site:
        _status, page, _ = await get(site, f"/c/{league.slug}/g/{league.finished}")
        assert "Dave &lt;b&gt;&amp;amp;" in page and "<b>" not in page
        service = await build_service(database_url)
        try:
            answer = await service.settings(None, BOB, "myweb=hidden")
            assert "Settings saved" in answer[0].text
        finally:
            await service.close()
        for path in (f"/c/{league.slug}", f"/c/{league.slug}/g/{league.finished}",
                     f"/c/{league.slug}/p/{league.players['Bob']}", f"/c/{league.slug}/p/{league.players['Alice']}"):
            _status, page, _ = await get(site, path)
            assert "Bob" not in page, path
            assert "a player" in page, path


async def test_unknown_addresses_and_a_chat_that_turned_its_pages_off_are_a_friendly_404(database_url, league):
    async with Site(database_url) as site:
        for path in ("/c/nope", f"/c/{league.slug}x", f"/c/{league.slug}/g/999", f"/c/{league.slug}/g/abc",
                     f"/c/{league.slug}/p/999", f"/c/{league.slug}/g/999/picture.png", "/nothing",
                     f"/c/{league.slug}/g/{'9' * 40}"):
            status, page, headers = await get(site, path)
            assert status == 404, path
            assert "Nothing here" in page and "Traceback" not in page
            assert headers["Content-Security-Policy"].startswith("default-src 'none'")
        service = await build_service(database_url)
        try:
            refused = await service.settings(CHAT, BOB, "web=off")  # only admins
            assert "Only admins" in refused[0].text
            assert (await get(site, f"/c/{league.slug}"))[0] == 200
            await service.settings(CHAT, ALICE, "web=off", is_admin=True)
            for path in (f"/c/{league.slug}", f"/c/{league.slug}/g/{league.finished}",
                         f"/c/{league.slug}/p/{league.players['Alice']}"):
                assert (await get(site, path))[0] == 404, path
            answer = await service.web(CHAT, ALICE)
            assert "not on the web" in answer[0].text
            await service.settings(CHAT, ALICE, "web=on", is_admin=True)  # on again: a new address
            answer = await service.web(CHAT, ALICE)
        finally:
            await service.close()
        slug = re.search(r"/c/([\w-]+)", answer[0].text).group(1)
        assert slug != league.slug and len(slug) >= 20
        assert (await get(site, f"/c/{league.slug}"))[0] == 404
        assert (await get(site, f"/c/{slug}"))[0] == 200


async def test_a_running_game_shows_only_what_the_table_sees(database_url, league):
    game = get_game(HIDDEN_GAME)
    async with Site(database_url) as site:
        async with UnitOfWork(site.db, readonly=True) as uow:
            row = await uow.games.get(league.running)
        state = game.from_json(row.state)
        public = set(game.render_view(state.view(None)).split())
        names = [s.player.name for s in sorted(row.seats, key=lambda s: s.seat)]
        for query in ("", "?seat=0", "?seat=1", "?seat=all", "?seat=2&step=1", "?step=0"):
            status, page, _ = await get(site, f"/c/{league.slug}/g/{league.running}{query}")
            assert status == 200
            shown = set(words(page).split())
            for seat in range(state.num_players):
                # (the reader addressed: "you deal" in their own view is no secret)
                private = set(game.render_view(state.view(seat)).split()) - public - {"Your", "hand:", "you", "You"}
                assert private and not private & shown, (query, seat, private & shown)
            assert "still being played" in page
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{site.base}/c/{league.slug}/g/{league.running}/picture.png?seat=0") as r:
                png = await r.read()
    assert png == boards.picture(HIDDEN_GAME, state.view(None), names)  # the public board, whatever was asked


async def test_headers_as_a_careful_site_sets_them(database_url, league):
    async with Site(database_url) as site:
        for path in (f"/c/{league.slug}", f"/c/{league.slug}/g/{league.finished}", "/c/none"):
            _status, page, headers = await get(site, path)
            csp = headers["Content-Security-Policy"]
            assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "default-src 'none'" in csp
            assert headers["X-Content-Type-Options"] == "nosniff"
            assert headers["Cache-Control"] == "no-store"
            assert headers["Referrer-Policy"] == "no-referrer"
            assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)  # no inline script
            assert " style=" not in page and "<style" not in page  # nor inline style (the CSP allows none)
        _status, _css, headers = await get(site, "/static/herald.css")
        assert headers["X-Content-Type-Options"] == "nosniff" and "max-age" in headers["Cache-Control"]


async def test_pages_speak_the_chats_language(database_url, league):
    service = await build_service(database_url)
    try:
        await service.settings(CHAT, ALICE, "language=de", is_admin=True)
    finally:
        await service.close()
    async with Site(database_url) as site:
        _status, page, _ = await get(site, f"/c/{league.slug}")
        assert '<html lang="de">' in page and "Duel of Cards — Saison 1" in page and "Letzte Partien" in page
        _status, page, _ = await get(site, f"/c/{league.slug}/g/{league.finished}?step=3")
        assert "Schritt 3 von" in page and "Wiederholung" in page
        status, page, _ = await get(site, f"/c/{league.slug}/g/12345")
        assert status == 404 and "Hier ist nichts" in page


async def test_a_first_look_at_a_finished_game_equals_its_replays_last_step(database_url, league):
    """The first look is read from the stored end (no replay built): it must show exactly the replay's last step."""
    async with Site(database_url) as site:
        _status, first, _ = await get(site, f"/c/{league.slug}/g/{league.finished}")
        steps = int(re.search(r'data-steps="(\d+)"', first).group(1))
        _status, stepped, _ = await get(site, f"/c/{league.slug}/g/{league.finished}?seat=public&step={steps}")
    section = re.compile(r'<section class="replay".*?</section>', re.S)
    assert steps > 20 and section.search(first).group(0) == section.search(stepped).group(0)
    assert "<ol class=\"narration\">" in first and 'class="action"' in first


async def test_past_seasons_stay_on_the_league_page(database_url, league):
    service = await build_service(database_url)
    try:
        await service.new_season(CHAT, ALICE, "toy", is_admin=True)
    finally:
        await service.close()
    async with Site(database_url) as site:
        _status, page, _ = await get(site, f"/c/{league.slug}")
        toy = re.search(r'<section class="table" id="toy">.*?</section>', page, re.S).group(0)
        assert "Duel of Cards — season 2" in toy and "<tbody>" not in toy  # nobody has played season 2 yet
        assert f'href="/c/{league.slug}?game=toy&amp;season=1"' in toy
        _status, page, _ = await get(site, f"/c/{league.slug}?game=toy&season=1")
        assert "Duel of Cards — season 1" in page and "List und Tücke" not in page.split("<h2>Recent")[0]
        assert len(re.findall(r"<tr><td>\d+</td>", page)) == 3  # the three who played season 1, ranked
        status, _page, _ = await get(site, f"/c/{league.slug}?game=toy&season=99")  # no such season: the current
        assert status == 200


async def test_a_running_game_with_time_banks_shows_them_as_they_stand(database_url, league):
    """The page of a banked game says each person's time left, counted to now, ⏳ where it runs — the board's
    line; a game without banks (the league's running one) says none."""
    service = await build_service(database_url)
    try:
        lobby = await service.create_lobby(CHAT, ALICE, "toy", "clock=2d+1d", seed=4)
        gid = lobby[0].game_id
        await service.join(CHAT, BOB, game_id=gid)
        await service.start(CHAT, ALICE, game_id=gid)
    finally:
        await service.close()
    async with Site(database_url) as site:
        status, page, _ = await get(site, f"/c/{league.slug}/g/{gid}")
        assert status == 200
        shown = words(page)
        assert re.search(r"⏱ Time left: (Alice|Bob) 1d 23h ⏳, (Alice|Bob) 1d 23h ⏳", shown), shown[:600]
        _status, page, _ = await get(site, f"/c/{league.slug}/g/{league.running}")
        assert "Time left" not in words(page)
