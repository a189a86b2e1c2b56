"""A per-person bound on commands, so one person flooding a chat gets a friendly "slow down" instead of work —
while everyone else in that chat goes on as before (each person has a bucket of their own, per chat)."""
from __future__ import annotations

import time
from collections import OrderedDict

from bot.service.messages import ChatRef, UserRef


class FloodGuard:
    """A token bucket per (chat, person): ``burst`` commands at once, then ``rate`` per second."""

    def __init__(self, burst: int = 12, rate: float = 1.0, remembered: int = 10000, clock=time.monotonic):
        self.burst, self.rate, self.remembered, self.clock = burst, rate, remembered, clock
        self._buckets: OrderedDict[tuple, tuple[float, float]] = OrderedDict()  # key → (tokens, at)
        self._warned: set[tuple] = set()

    def allow(self, chat: ChatRef | None, user: UserRef) -> bool | None:
        """True: go on. False: refuse with "slow down". None: refuse silently (already told this burst)."""
        key = (user.platform, user.id, chat.id if chat else None)
        now = self.clock()
        tokens, at = self._buckets.pop(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) * self.rate)
        allowed = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
        if len(self._buckets) > self.remembered:
            old, _ = self._buckets.popitem(last=False)
            self._warned.discard(old)
        if allowed:
            self._warned.discard(key)
            return True
        if key in self._warned:
            return None
        self._warned.add(key)
        return False
