"""Shared fixtures. The toy game (tests/toygame.py) is registered so the kit and service tests can use it."""
from __future__ import annotations

from rules.api import register
from tests.toygame import TOY

register(TOY)

from tests.db_fixtures import database_url, postgres_server  # noqa: E402,F401  (every suite: SQLite and PostgreSQL)
