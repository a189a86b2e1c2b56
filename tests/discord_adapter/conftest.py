"""The Discord harness: the real discord.py Bot against a fake Discord (REST + zlib-stream gateway)."""
from __future__ import annotations

import asyncio
import logging

import discord
import pytest
import yarl

from bot.discord import build_discord_bot
from bot.service import build_service
from tests.discord_adapter.fake_discord import FakeDiscord
from tests.telegram_adapter.conftest import ErrorRecords

ALICE_ID, BOB_ID, CAROL_ID, MOD_ID = 1001, 1002, 1003, 1009


class Harness:
    def __init__(self, database_url):
        self.url = database_url
        self.api = FakeDiscord()
        self.alice = self.api.add_user(ALICE_ID, "Alice")
        self.bob = self.api.add_user(BOB_ID, "Bob")
        self.carol = self.api.add_user(CAROL_ID, "Carol")
        self.mod = self.api.add_user(MOD_ID, "Mod", admin=True)
        self.bot = None
        self.task: asyncio.Task | None = None

    async def start_bot(self) -> None:
        if not self.api.port:
            port = await self.api.start()
            discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
        self.api.identified.clear()
        self.service = await build_service(self.url, pictures=True, picture_workers=1, warm_pictures=False)
        self.bot = build_discord_bot(self.service, guild_ready_timeout=0.05)
        self.task = asyncio.create_task(self.bot.start("fake-token"))
        await asyncio.wait_for(self.api.identified.wait(), 10)
        await asyncio.wait_for(self.bot.wait_until_ready(), 10)

    async def stop_bot(self) -> None:
        await self.bot.close()
        try:
            await asyncio.wait_for(self.task, 5)
        except (asyncio.CancelledError, asyncio.TimeoutError):
            pass
        await self.service.close()

    async def wait_for(self, condition, timeout: float = 10.0):
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            found = condition()
            if found:
                return found
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError("timed out waiting")
            await asyncio.sleep(0.01)

    async def settle(self, record) -> None:
        """Wait until the interaction was acknowledged and the bot has finished handling it."""
        await self.wait_for(lambda: record.callback is not None and self.bot.adapter.busy == 0)
        await self.idle()

    async def idle(self) -> None:
        """Wait until no interaction is being handled and every queued message was delivered."""
        for _ in range(1000):
            await self.bot.adapter.delivery.idle(30)
            await asyncio.sleep(0.01)
            if self.bot.adapter.busy == 0 and self.bot.adapter.delivery.pending() == 0:
                return
        raise AssertionError("the bot did not become idle")

    async def slash(self, person, name, **options):
        record = await self.api.slash(person, name, **options)
        await self.settle(record)
        return record

    async def click(self, person, message, custom_id):
        record = await self.api.click(person, message, custom_id)
        await self.settle(record)
        return record

    async def select(self, person, message, custom_id, values):
        record = await self.api.select(person, message, custom_id, values)
        await self.settle(record)
        return record

    def answers(self, record) -> list[str]:
        """What the person who acted saw privately in answer (ephemeral messages of that interaction)."""
        created = record.callback is not None and record.callback["type"] in (4, 5)  # a message of its own
        ids = ([record.original_id] if created else []) + record.followups
        return [FakeDiscord.text(self.api.messages[i]) for i in dict.fromkeys(ids)
                if not self.api.messages[i].get("deleted") and self.api.messages[i]["flags"] & 64]


@pytest.fixture
async def dc(database_url):
    errors = ErrorRecords()
    logging.getLogger().addHandler(errors)
    harness = Harness(database_url)
    await harness.start_bot()
    try:
        yield harness
    finally:
        await harness.stop_bot()
        await harness.api.stop()
        logging.getLogger().removeHandler(errors)
    assert not errors.records, [r.getMessage() for r in errors.records]
