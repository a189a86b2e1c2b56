"""Opting in and the bots' links: ``/settings web=on|off`` (admins), ``/web``, ``myweb=hidden|shown`` anywhere, and
the link under ``/leaderboard``, ``/history`` and a game's result — only while the chat shows its pages."""
from __future__ import annotations

import re

import pytest

from bot.service import build_service
from storage import UnitOfWork
from tests.web.site import ALICE, BOB, CHAT, TOY_PEOPLE, new_game, play

BASE = "https://herald.example.org"


@pytest.fixture
async def service(database_url):
    svc = await build_service(database_url)
    svc.ctx.web_base_url = BASE
    yield svc
    await svc.close()


def link_in(text: str) -> str | None:
    found = re.search(re.escape(BASE) + r"/c/[\w-]+(/g/\d+)?", text)
    return found.group(0) if found else None


async def test_web_is_off_until_an_admin_turns_it_on(service):
    assert "not on the web" in (await service.web(CHAT, ALICE))[0].text
    refused = await service.settings(CHAT, BOB, "web=on")
    assert "Only admins" in refused[0].text
    assert "not on the web" in (await service.web(CHAT, BOB))[0].text
    for wrong in ("web=yes", "myweb=maybe"):
        answer = await service.settings(CHAT, ALICE, wrong, is_admin=True)
        assert answer[0].kind == "error" and "one of" in answer[0].text, answer[0].text
    saved = await service.settings(CHAT, ALICE, "web=on", is_admin=True)
    link = link_in(saved[0].text)
    assert link and link == link_in((await service.web(CHAT, BOB))[0].text)
    async with UnitOfWork(service.db, readonly=True) as uow:
        row = await uow.chats.find(CHAT.platform, CHAT.id)
    slug = row.settings["web_slug"]
    assert link == f"{BASE}/c/{slug}" and len(slug) >= 20 and CHAT.id not in slug
    # other settings changed later keep the address
    await service.settings(CHAT, ALICE, "turn_timer=10m", is_admin=True)
    assert link_in((await service.web(CHAT, BOB))[0].text) == link


async def test_leaderboard_history_and_the_result_link_to_the_pages_only_when_on(service):
    gid = await new_game(service, "toy", 1, TOY_PEOPLE)
    await play(service, gid)
    board, history = await service.leaderboard(CHAT, ALICE), await service.history(CHAT, ALICE)
    assert link_in(board[0].text) is None and link_in(history[0].text) is None
    await service.settings(CHAT, ALICE, "web=on", is_admin=True)
    page = link_in((await service.web(CHAT, ALICE))[0].text)
    assert link_in((await service.leaderboard(CHAT, ALICE))[0].text) == page
    assert link_in((await service.history(CHAT, ALICE))[0].text) == page
    # the end of the next game links to its replay
    gid = await new_game(service, "toy", 2, TOY_PEOPLE)
    async with UnitOfWork(service.db, readonly=True) as uow:
        stored = await uow.games.get(gid)
    assert stored.status == "active"
    said = []
    real_act = service.act

    async def act(*args, **kwargs):
        out = await real_act(*args, **kwargs)
        said.extend(out)
        return out
    service.act = act
    await play(service, gid)
    [result] = [m for m in said if m.kind == "result"]
    assert link_in(result.text) == f"{page}/g/{gid}"
    await service.settings(CHAT, ALICE, "web=off", is_admin=True)
    assert link_in((await service.leaderboard(CHAT, ALICE))[0].text) is None
    assert "not on the web" in (await service.web(CHAT, ALICE))[0].text


async def test_myweb_is_a_persons_own_setting_anywhere(service):
    answer = await service.settings(None, BOB, "myweb=hidden")  # a private chat
    assert "Settings saved" in answer[0].text
    async with UnitOfWork(service.db, readonly=True) as uow:
        assert (await uow.players.find(BOB.platform, BOB.id)).web_hidden is True
    await service.settings(CHAT, BOB, "myweb=shown")  # in a group, no admin needed
    async with UnitOfWork(service.db, readonly=True) as uow:
        assert (await uow.players.find(BOB.platform, BOB.id)).web_hidden is False
        chat = await uow.chats.find(CHAT.platform, CHAT.id)
    assert "myweb" not in (chat.settings or {})
