"""One service process of a multi-process run: ``python -m tests.multiproc.worker DB_URL INDEX COUNT CLOCK OUT``.

It plays its share of the seats of every active game (seat ``s`` of game ``g`` belongs to worker
``(g + s) % COUNT``; seats nobody owns are left to the turn timers), fires due timers until the wall-clock time the
file CLOCK holds (so all workers stop together), then, once every worker has stopped writing, only delivers for a
few seconds more; it delivers the messages of the platform it serves (even workers Discord, odd ones Telegram) from
the outbox, as ``python -m bot run`` does. It writes ``{"ready": INDEX}`` once its service is up and then waits
for CLOCK: the test starts the clock when every worker is ready, so a loaded machine's slow start-up does not eat
the run.
Every answer is written to OUT as a JSON line the moment it is known:

- ``{"acked": [game, seat, action]}`` a move the service accepted;
- ``{"pending": [game, seat, action]}`` a move answered "still pending" (its write waited for a stuck writers'
  queue): not an acknowledgment;
- ``{"refused": text, "wrong": bool, ...}`` a refusal, ``wrong`` when the stored game had not changed since the
  worker read it and the move is still legal there (a legal move refused);
- ``{"error": text}`` an answer that shows a person a failure ("something went wrong", a lock error);
- ``{"delivered": [keys]}`` outbox messages this worker delivered.
"""
from __future__ import annotations

import asyncio
import faulthandler
import json
import logging
import os
import random
import signal
import sys
import time
from datetime import timedelta

import rules
from bot.ai_pool import AIPool
from bot.service import ChatRef, UserRef, build_service
from bot.service.context import utc_now as now
from storage import UnitOfWork

PLATFORMS = ("discord", "telegram")
TIMER_SKEW = timedelta(seconds=31)  # timers are fired as if 31 s had passed: 30 s deadlines come due at once


class Worker:
    def __init__(self, url: str, index: int, count: int, clock: str, out_path: str):
        self.url, self.index, self.count, self.clock = url, index, count, clock
        self.until = 0.0
        self.platform = PLATFORMS[index % 2]
        self.out = open(out_path, "a", buffering=1)
        self.rng = random.Random(index)

    def write(self, record: dict) -> None:
        self.out.write(json.dumps(record) + "\n")

    async def deliver(self, messages) -> None:
        keys = [m.outbox_id for m in messages if m.outbox_id and
                (m.chat or m.user).platform == self.platform]
        if keys:
            self.write({"delivered": keys})
            await self.service.delivered(keys)

    async def run(self) -> None:
        self.service = await build_service(self.url)
        self.service.ctx.serves = {self.platform}
        self.service.ctx.delivery_lease = timedelta(seconds=1)
        self.service.ctx.timer_lease = timedelta(seconds=1)
        self.service.ctx.thinking.pool = AIPool(workers=1)  # four workers share two cores: one thinking process each
        self.write({"ready": self.index})
        while not os.path.exists(self.clock):
            await asyncio.sleep(0.05)
        with open(self.clock) as f:
            self.until = float(f.read())
        outbox = asyncio.create_task(self.service.outbox_loop(self.deliver, [self.platform], interval=0.1))
        timers = asyncio.create_task(self.timers())
        loops = [outbox, timers]
        try:
            while time.time() < self.until:
                if not await self.play_round():
                    break
            while time.time() < self.until:  # every game is over: wait for the others
                await asyncio.sleep(0.1)
            timers.cancel()
            await asyncio.gather(timers, return_exceptions=True)
            await self.wait_for_the_others()
            # stay a while: deliver what the others left behind (a reminder a last timer wrote for this platform),
            # longer while some of it is still unsent (a loaded machine), never past 20 s
            stay = time.monotonic() + 20
            await asyncio.sleep(1)
            while time.monotonic() < stay and await self.service.pending_outbox(self.platform):
                await asyncio.sleep(0.2)
            await self.service.flush_delivered()
        finally:
            for loop in loops:
                loop.cancel()
            await asyncio.gather(*loops, return_exceptions=True)
            pool = self.service.ctx.thinking.pool
            await self.service.close()
            pool.close()  # set from outside, so the service leaves it open
            self.write({"done": self.index})

    async def wait_for_the_others(self) -> None:
        """Say that this worker writes nothing more, and wait (at most 60 s) until every worker has said so.
        On a loaded machine another worker's last move may be stored seconds after the end; its messages for
        this worker's platform are only delivered if this worker is still there."""
        open(f"{self.clock}.idle{self.index}", "w").close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not all(
                os.path.exists(f"{self.clock}.idle{i}") for i in range(self.count)):
            await asyncio.sleep(0.1)

    async def timers(self) -> None:
        while True:
            out = await self.service.run_timers(now() + TIMER_SKEW)
            await self.deliver(out)
            await asyncio.sleep(0.1)

    async def play_round(self) -> bool:
        """One move for each of this worker's seats to act; False when every game is over."""
        async with UnitOfWork(self.service.db, readonly=True) as uow:
            rows = await uow.games.with_status(("active",))
            games = [(r.id, r.game, r.version, r.state, r.chat_id,
                      {s.seat: (s.player.platform, s.player.external_id, s.player.name)
                       for s in r.seats if s.player}) for r in rows]
            chats = {r.chat_id: await uow.chats.get(r.chat_id) for r in rows}
        if not games:
            return False
        calls = []
        for gid, name, version, data, chat_id, people in games:
            game = rules.get_game(name)
            state = game.from_json(data)
            for seat in state.to_act():
                if (gid + seat) % self.count != self.index or seat not in people or people[seat][2].startswith("zz"):
                    continue  # another worker's seat, or a sleeper left to the timers
                action = self.rng.choice(state.legal_actions(seat))
                chat_row = chats[chat_id]
                chat = ChatRef(chat_row.platform, chat_row.external_id, chat_row.league.partition(":")[2] or None)
                user = UserRef(*people[seat])
                calls.append(self.act(chat, user, gid, seat, version, action))
        if calls:
            await asyncio.gather(*calls)
        else:
            await asyncio.sleep(0.05)
        return True

    async def act(self, chat, user, gid, seat, version, action) -> None:
        answer = await self.service.act(chat, user, action, game_id=gid)
        errors = [m.text for m in answer if m.kind == "error"]
        if not errors and any(m.kind == "notice" and "still pending" in m.text for m in answer):
            self.write({"pending": [gid, seat, action]})  # not acknowledged: it may yet be refused
            return
        if not errors:
            self.write({"acked": [gid, seat, action]})
            await self.deliver(answer)
            return
        text = errors[0]
        if "wrong" in text.lower() or "locked" in text.lower() or "try again" in text.lower():
            self.write({"error": text})
            return
        async with UnitOfWork(self.service.db, readonly=True) as uow:
            row = await uow.games.get(gid)
            still = row.version == version and row.status == "active" and \
                action in rules.get_game(row.game).from_json(row.state).legal_actions(seat)
        self.write({"refused": text, "wrong": still, "game": gid, "seat": seat})


def main() -> None:
    url, index, count, clock, out = sys.argv[1:6]
    logging.basicConfig(filename=out + ".log", level=logging.WARNING)  # what went wrong, for the test to show
    faulthandler.register(signal.SIGUSR1)  # the test asks every worker where it is when one of them is stuck
    asyncio.run(Worker(url, int(index), int(count), clock, out).run())
    logging.shutdown()
    os._exit(0)  # all is written ("done"): no wait at the interpreter's exit (see AIPool.close)


if __name__ == "__main__":
    main()
