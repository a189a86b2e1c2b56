"""Local play in a terminal: you against AI seats, stored in SQLite like any chat game."""
from bot.console.play import play

__all__ = ["play"]
