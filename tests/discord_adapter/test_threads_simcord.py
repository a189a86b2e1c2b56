"""Issue 39 on simcord (PyPI: an offline Discord that runs discord.py's own parsers and models threads and their
permissions): a game's thread started from its lobby, the board in it, and a channel that denies the bot Create
Public Threads told once while the game runs there. The rest of the thread tests run on the hand-written fake
(``test_threads.py``), which also models a deleted or archived thread mid-game and the thread limit."""
from __future__ import annotations

import asyncio

import discord
import pytest

simcord = pytest.importorskip("simcord")

from bot.discord import build_discord_bot  # noqa: E402
from bot.service import build_service  # noqa: E402


@pytest.fixture
async def env(database_url):
    service = await build_service(database_url, pictures=False)
    bot = build_discord_bot(service, thread_grace=0.05)
    world = simcord.Env(bot, settle_timeout=60.0)  # the database answers from its own thread: real time
    await world.start()
    try:
        yield world
    finally:
        await world.shutdown()
        await service.close()


async def quiet(env) -> None:
    """Until everything the bot queued was delivered (its delivery runs outside simcord's operations)."""
    delivery = env.bot.adapter.delivery
    for _ in range(500):
        await delivery.idle(30)
        await env.settle()
        if delivery.pending() == 0 and env.bot.adapter.busy == 0:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the bot did not become idle")


async def start_game(env, channel, alice, bob) -> None:
    await alice.slash(channel, "new", game="koenig_artus")
    await quiet(env)
    lobby = [m for m in channel.history() if "table #" in m.content][-1]
    await bob.click(lobby, label="Join")
    await quiet(env)
    lobby = [m for m in channel.history() if m.id == lobby.id][-1]
    await alice.click(lobby, label="Start")
    await quiet(env)


async def test_a_game_gets_a_thread_from_its_lobby_with_the_board_in_it(env):
    guild = env.create_guild("Castle")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await start_game(env, channel, alice, bob)
    (thread,) = channel.threads
    assert thread.name.startswith("König Artus Tafelrunde #1 — ")
    assert any("To act" in m.content for m in thread.history()), "the board is in the thread"
    assert not any("To act" in m.content for m in channel.history()), "not in the channel"
    assert any(f"<#{thread.id}>" in m.content for m in channel.history()), "the status line links the thread"


async def test_a_channel_without_create_public_threads_is_told_once_and_plays_there(env):
    guild = env.create_guild("Castle")
    channel = guild.create_text_channel("games", overwrites={
        guild.me: discord.PermissionOverwrite(create_public_threads=False)})
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await start_game(env, channel, alice, bob)
    assert not channel.threads
    told = [m.content for m in channel.history() if m.content.startswith("ℹ")]
    assert len(told) == 1 and "Create Public Threads" in told[0]
    assert any("To act" in m.content for m in channel.history())
