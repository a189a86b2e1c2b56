"""A clock the test moves by hand (``Context.clock``): timers, banks and quiet hours without sleeps."""
from __future__ import annotations

from datetime import datetime, timedelta


class Clock:
    def __init__(self, moment: datetime):
        self.start = self.moment = moment

    def __call__(self) -> datetime:
        return self.moment

    def at(self, hours: float) -> datetime:
        """``hours`` after the moment the clock was set to."""
        self.moment = self.start + timedelta(hours=hours)
        return self.moment
