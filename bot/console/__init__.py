"""Local play in a terminal: you against AI seats, stored in SQLite like any chat game."""
from bot.console.start import play

__all__ = ["play"]
