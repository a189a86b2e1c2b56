"""The Discord adapter (discord.py 2.x): slash commands, buttons and select menus, DMs."""
from bot.discord.app import HeraldBot, build_discord_bot

__all__ = ["HeraldBot", "build_discord_bot"]
