"""``python -m bot run``: the service plus the Discord and/or Telegram adapters in one process."""
from __future__ import annotations

import asyncio
import logging

from bot.service import Message, build_service
from bot.settings import Settings
from storage import DatabaseUnavailable

log = logging.getLogger(__name__)


async def run_bots(settings: Settings, *, discord: bool, telegram: bool) -> int:
    if not (discord or telegram):
        log.error("Nothing to run: set DISCORD_TOKEN and/or TELEGRAM_TOKEN (or pass --discord/--telegram).")
        return 2
    if discord and settings.discord_token is None:
        log.error("--discord needs DISCORD_TOKEN in the environment.")
        return 2
    if telegram and settings.telegram_token is None:
        log.error("--telegram needs TELEGRAM_TOKEN in the environment.")
        return 2
    try:
        service = await build_service(settings.database_url, pictures=True, flood_guard=True)
    except DatabaseUnavailable as e:
        log.error("Herald cannot start: %s", e)
        return 2
    deliverers = {}
    tasks: list[asyncio.Task] = []
    app = client = None
    try:
        if telegram:
            from bot.telegram import build_telegram_app, register_commands

            app = build_telegram_app(service, settings.telegram_token.get_secret_value(),
                                     base_url=settings.telegram_base_url)
            await app.initialize()
            await register_commands(app)
            await app.updater.start_polling()
            await app.start()
            deliverers["telegram"] = app.bot_data["deliver"]
            log.info("Telegram adapter running")
        if discord:
            from bot.discord import build_discord_bot

            client = build_discord_bot(service)
            deliverers["discord"] = client.deliver
            tasks.append(asyncio.create_task(client.start(settings.discord_token.get_secret_value())))
            log.info("Discord adapter starting")

        async def deliver(messages: list[Message]) -> None:
            by_platform: dict[str, list[Message]] = {}
            for m in messages:
                ref = m.chat or m.user
                by_platform.setdefault(ref.platform, []).append(m)
            for platform, batch in by_platform.items():
                if platform in deliverers:
                    await deliverers[platform](batch)

        tasks.append(asyncio.create_task(service.timer_loop(deliver)))
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            task.result()
        return 0
    finally:
        for task in tasks:
            task.cancel()
        if client is not None:
            await client.close()
        if app is not None:
            await app.updater.stop()
            await app.bot_data["adapter"].close()
            await app.stop()
            await app.shutdown()
        await service.close()
