"""Repositories: the only place that writes SQL. Each works inside one unit of work's session.

One module per kind of row (games and moves, players and chats, timers, messages, leagues); the names are
imported from here, as before the split."""
from storage.repository.base import StaleVersion, claim_rows, insert_if_absent
from storage.repository.games import Games
from storage.repository.leagues import Leagues
from storage.repository.messages import Outbox, Slots
from storage.repository.people import Chats, Players
from storage.repository.takebacks import Takebacks
from storage.repository.timers import Timers

__all__ = ["StaleVersion", "claim_rows", "insert_if_absent", "Games", "Leagues", "Outbox", "Slots", "Chats", "Players",
           "Takebacks", "Timers"]
