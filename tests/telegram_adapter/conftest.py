"""The Telegram harness: the real python-telegram-bot Application polling a fake Bot API over HTTP."""
from __future__ import annotations

import asyncio
import logging

import pytest

from bot.service import build_service
from bot.telegram import build_telegram_app, register_commands
from tests.telegram_adapter.fake_bot_api import FakeBotApi

GROUP = -500
ALICE = {"id": 101, "is_bot": False, "first_name": "Alice"}
BOB = {"id": 102, "is_bot": False, "first_name": "Bob"}
SCALE = 0.05  # Telegram's windows (a minute, a second) shrunk 20×, in the fake and in the bot's budgets alike


class ErrorRecords(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


class Harness:
    def __init__(self, database_url, **fake_options):
        self.url = database_url
        self.api = FakeBotApi(scale=SCALE, **fake_options)
        self.app = None
        self.service = None

    async def start_bot(self):
        if not self.api.port:
            self.base = await self.api.start()
        self.service = await build_service(self.url, pictures=True, picture_workers=1, warm_pictures=False)
        self.app = build_telegram_app(self.service, "123:TEST", base_url=self.base, pace_scale=SCALE)
        self.adapter = self.app.bot_data["adapter"]
        await self.app.initialize()
        await register_commands(self.app)
        await self.app.updater.start_polling(poll_interval=0, timeout=1)
        await self.app.start()

    async def stop_bot(self):
        await self.app.updater.stop()
        await self.adapter.close()
        await self.app.stop()
        await self.app.shutdown()
        await self.service.close()

    async def idle(self) -> None:
        """Wait until no update is pending or being handled and every queued message was delivered."""
        for _ in range(3000):
            await self.adapter.delivery.idle(30)
            if self.adapter.busy == 0 and self.app.update_queue.empty() and \
                    not [u for u in self.api.updates if u["update_id"] >= self.api.next_offset]:
                await asyncio.sleep(0.02)
                if self.adapter.busy == 0 and self.adapter.delivery.pending() == 0:
                    return
            await asyncio.sleep(0.01)
        raise AssertionError("the bot did not become idle")

    def snapshot(self) -> dict:
        return {(c, m["message_id"]): m.get("edited", 0) for c in self.api.chats for m in self.api.bot_messages(c)}

    async def changed(self, before: dict, chat_id: int, needle: str) -> dict:
        """Wait for a bot message in ``chat_id``, new or edited since ``before``, that contains ``needle``."""
        def find():
            for m in self.api.bot_messages(chat_id):
                key = (chat_id, m["message_id"])
                if needle in m["text"] and (key not in before or m.get("edited", 0) > before[key]):
                    return m
            return None
        return await self.api.wait_for(find)

    async def say(self, user, chat_id, text, expect: tuple[int, str] | None = None):
        """A person writes; with ``expect`` (chat, text), wait until the bot posted or edited such a message."""
        before = self.snapshot()
        self.api.send(user, chat_id, text)
        if expect is not None:
            return await self.changed(before, *expect)
        return None

    async def press(self, user, chat_id, message, data):
        query = self.api.press(user, chat_id, message, data)
        await self.api.wait_for(lambda: query in self.api.answers)
        return self.api.answers[query]


@pytest.fixture
async def tg(database_url):
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
