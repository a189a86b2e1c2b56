"""The pages in a real headless browser: Debian's chromium driven by Playwright (``.ci/run`` installs it; Playwright
cannot download its own here). A league, a player page and a game's replay, stepped with the buttons, the slider
and with JavaScript off, seen from the table, a seat and everything — each compared with the engine's views.
Screenshots at phone (390 px) and desktop width are kept under the directory the test prints."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from bot.service import web_views
from bot.service.replay import Replay
from bot.service.records import ALL, build_record, load_game
from storage import UnitOfWork
from tests.web.site import Site, build_league

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 900}


@pytest.fixture
def shots(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("web-screenshots")
    print(f"\nscreenshots: {folder}")
    return folder


async def expected(site: Site, game_id: int, step: int, viewer) -> str:
    """The board text the engine's view gives for this step and viewer (as the page shows names)."""
    async with UnitOfWork(site.db, readonly=True) as uow:
        stored = await load_game(uow, game_id)
    replay = Replay(build_record(stored, ALL))
    return web_views.view_text(stored.game, replay.view(step, viewer), replay.names, viewer)


async def board(page) -> str:
    return await page.locator("pre.board-text").inner_text()


async def test_league_player_and_replay_in_chromium(tmp_path, shots):
    from playwright.async_api import async_playwright

    url = f"sqlite+aiosqlite:///{tmp_path}/herald.db"
    league = await build_league(url, toy_games=3)
    errors: list[str] = []
    async with Site(url) as site, async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
                context = await browser.new_context(viewport=size)
                page = await context.new_page()
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
                await page.goto(f"{site.base}/c/{league.slug}")
                assert await page.locator("h1").inner_text() == "Round Table"
                ranked = await page.locator("section#toy table.standings tbody tr td:nth-child(2)").all_inner_texts()
                assert sorted(ranked) == ["Alice", "Bob", "Carol"]
                await page.screenshot(path=shots / f"league-{name}.png", full_page=True)
                await page.get_by_role("link", name="Alice").first.click()
                await page.wait_for_url(f"**/p/{league.players['Alice']}")
                assert await page.locator("svg.chart polyline").count() == 2  # toy and List und Tücke
                assert (await page.locator("svg.chart").bounding_box())["width"] <= size["width"]
                await page.screenshot(path=shots / f"player-{name}.png", full_page=True)
                await page.goto(f"{site.base}/c/{league.slug}/g/{league.finished}")
                await page.screenshot(path=shots / f"game-{name}.png", full_page=True)
                await context.close()

            # the replay with JavaScript: ◀ swaps the replay in place, the address follows
            context = await browser.new_context(viewport=PHONE)
            page = await context.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
            await page.goto(f"{site.base}/c/{league.slug}/g/{league.finished}")
            steps = int(await page.locator("#replay").get_attribute("data-steps"))
            assert steps > 20
            assert await board(page) == await expected(site, league.finished, steps, None)
            await page.evaluate("window.marker = 1")  # survives only if the page is not reloaded
            await page.locator("a.prev").click()
            await page.wait_for_url(f"**step={steps - 1}")
            assert await page.evaluate("window.marker") == 1
            assert await board(page) == await expected(site, league.finished, steps - 1, None)
            # the slider
            await page.locator("input[type=range]").fill("12")
            await page.wait_for_url("**step=12")
            assert await page.locator(".stepno").inner_text() == f"Step 12 of {steps}"
            assert await board(page) == await expected(site, league.finished, 12, None)
            narration = await page.locator("ol.narration li").all_inner_texts()
            assert narration  # step 12's move, told as the table read it
            # the seat switcher: Bob's seat shows Bob's hand at this step, and only his
            await page.locator(".seats a", has_text="Bob").click()
            await page.wait_for_url("**seat=1**")
            assert await board(page) == await expected(site, league.finished, 12, 1)
            assert await page.locator("img.hand-picture").count() == 1
            await page.locator("a.next").click()
            await page.wait_for_url("**step=13")
            assert await board(page) == await expected(site, league.finished, 13, 1)
            await page.keyboard.press("ArrowRight")
            await page.wait_for_url("**step=14")
            await page.locator(".seats a", has_text="Everything").click()
            await page.wait_for_url("**seat=all**")
            assert await board(page) == await expected(site, league.finished, 14, ALL)
            await page.screenshot(path=shots / "replay-everything-phone.png", full_page=True)
            for img in await page.locator("#replay img").all():  # every picture arrived and was drawn
                assert await img.evaluate("i => i.complete && i.naturalWidth > 0")
            await context.close()

            # without JavaScript: the same controls are links and a form
            context = await browser.new_context(viewport=DESKTOP, java_script_enabled=False)
            page = await context.new_page()
            await page.goto(f"{site.base}/c/{league.slug}/g/{league.finished}?seat=2&step=3")
            assert await board(page) == await expected(site, league.finished, 3, 2)
            await page.locator("a.next").click()
            await page.wait_for_url("**step=4")
            assert await board(page) == await expected(site, league.finished, 4, 2)
            await page.locator("a.prev").click()
            await page.locator("a.prev").click()
            await page.wait_for_url("**step=2")
            assert await board(page) == await expected(site, league.finished, 2, 2)
            await page.locator(".seats a", has_text="Table").click()
            await page.wait_for_url("**seat=public**")
            assert await board(page) == await expected(site, league.finished, 2, None)
            await page.screenshot(path=shots / "replay-nojs-desktop.png", full_page=True)
            # a running game: the table's view only, no seat switcher, no steps
            await page.goto(f"{site.base}/c/{league.slug}/g/{league.running}?seat=0")
            assert await page.locator(".seats").count() == 0 and await page.locator("a.next").count() == 0
            await context.close()
        finally:
            await browser.close()
    assert not errors, errors  # no script error, no Content-Security-Policy violation
