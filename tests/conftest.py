"""Shared fixtures. The toy game (tests/toygame.py) is registered so the kit and service tests can use it."""
from __future__ import annotations

from rules.api import register
from tests.toygame import TOY

register(TOY)
