"""Telegram adapter (python-telegram-bot 22): ``build_telegram_app(service, token, base_url=None)``."""
from bot.telegram.app import TelegramAdapter, build_telegram_app, register_commands

__all__ = ["TelegramAdapter", "build_telegram_app", "register_commands"]
