"""``python -m bench.chat``: a busy four-player game on each platform, through the fake platforms of the tests,
beside a second, quiet chat. Prints figures; nothing here is asserted.

- button answer p50/p99: press → answerCallbackQuery (Telegram); interaction → its acknowledgement (Discord);
- group messages in the worst window (Telegram's limit: 20 sends+edits a minute; the fake and the bot's budgets
  run with the minute shrunk by ``SCALE``, so "per window" reads as "per minute");
- the quiet chat's reply latency (/rules there while the busy game plays);
- pings per turn change: notifying messages to the person whose turn began (target exactly 1), and to others.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import tempfile
import time

GAME = "list_und_tuecke"


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


def ms(value: float) -> str:
    return f"{value * 1000:7.1f} ms"


class TurnCounter:
    """Turn changes seen from outside: whenever the set of people holding a picker changes, those who joined
    it began a turn; a notification is counted for the person (or for someone else) between changes."""

    def __init__(self, people: list, rings):
        self.people = people
        self.rings = rings  # person → how many notifying messages so far
        self.movers: frozenset = frozenset()
        self.began = 0
        self.to_mover = 0
        self.to_others = 0
        self.last = {p: rings(p) for p in people}

    def update(self, movers: frozenset) -> None:
        if movers == self.movers:
            return
        new = movers - self.movers
        now = {p: self.rings(p) for p in self.people}
        for person in self.people:
            gained = now[person] - self.last[person]
            if person in new:
                self.to_mover += gained
            else:
                self.to_others += gained
        self.began += len(new)
        self.last = now
        self.movers = movers


async def telegram(seconds: float) -> dict:
    from tests.telegram_adapter.conftest import GROUP, SCALE, Harness
    from tests.telegram_adapter.test_telegram import choose, game_over

    quiet = -777
    people = [{"id": 200 + i, "is_bot": False, "first_name": name} for i, name in
              enumerate(["Alice", "Bob", "Carol", "Dave"])]
    with tempfile.TemporaryDirectory() as tmp:
        tg = Harness(f"sqlite+aiosqlite:///{tmp}/telegram.db")
        await tg.start_bot()
        api = tg.api
        api.group(GROUP)
        api.group(quiet, "Tavern")
        try:
            await tg.say(people[0], GROUP, f"/new {GAME}", expect=(GROUP, "table"))
            for person in people[1:]:
                await tg.say(person, GROUP, "/join")
            for person in people:
                await tg.say(person, person["id"], "/start g1", expect=(person["id"], "Hello"))
            await tg.say(people[0], GROUP, "/start", expect=(GROUP, "Round"))
            await tg.idle()
            counted_from = len(api.counted)
            counter = TurnCounter([p["id"] for p in people], lambda uid: len(
                [s for s in api.sends if s["notify"] and s["chat"] == uid]))
            answers: list[float] = []
            quiet_waits: list[float] = []
            deadline = time.monotonic() + seconds
            stop = asyncio.Event()

            def movers() -> frozenset:
                return frozenset(p["id"] for p in people if choose(api.last_with_keyboard(p["id"]) or {}))

            async def player(person):
                while not stop.is_set():
                    message = api.last_with_keyboard(person["id"])
                    data = choose(message) if message else None
                    if not data:
                        await asyncio.sleep(0.005)
                        continue
                    query = api.press(person, person["id"], message, data)
                    await api.wait_for(lambda: query in api.answers, timeout=30)
                    answers.append(api.answered_at[query] - api.queries[query])
                    await asyncio.sleep(0.02)  # a quick player, not a machine gun

            async def watcher():
                while not stop.is_set():
                    counter.update(movers())
                    if game_over(api) or time.monotonic() > deadline:
                        stop.set()
                    await asyncio.sleep(0.003)

            async def quiet_chat():
                while not stop.is_set():
                    before = len(api.bot_messages(quiet))
                    start = time.monotonic()
                    api.send(people[0], quiet, "/rules kardinal")
                    await api.wait_for(lambda: len(api.bot_messages(quiet)) > before, timeout=30)
                    quiet_waits.append(time.monotonic() - start)
                    await asyncio.sleep(0.3)

            await asyncio.gather(watcher(), quiet_chat(), *(player(p) for p in people))
            await tg.idle()
            window = 60.0 * SCALE
            times = [t for t, c, _ in api.counted[counted_from:] if c == GROUP]
            worst = max((sum(1 for u in times if t <= u < t + window) for t in times), default=0)
            return {"answers": answers, "quiet": quiet_waits, "worst_window": worst, "scale": SCALE,
                    "refused": sum(1 for r in api.refused if r[1] == GROUP), "turns": counter.began,
                    "to_mover": counter.to_mover, "to_others": counter.to_others,
                    "over": game_over(api), "delivery": tg.adapter.delivery}
        finally:
            await tg.stop_bot()
            await api.stop()


async def discord_(seconds: float) -> dict:
    from tests.discord_adapter.conftest import Harness
    from tests.discord_adapter.fake_discord import OTHER_CHANNEL_ID, CHANNEL_ID
    from tests.discord_adapter.test_discord import game_over, latest_picker, pick

    with tempfile.TemporaryDirectory() as tmp:
        dc = Harness(f"sqlite+aiosqlite:///{tmp}/discord.db")
        dave = dc.api.add_user(1004, "Dave")
        await dc.start_bot()
        api = dc.api
        api.channel_rate = (5, 5.0)  # Discord: about 5 messages per 5 s in a channel
        people = [dc.alice, dc.bob, dc.carol, dave]
        try:
            await dc.slash(dc.alice, "new", game=GAME)
            for person in people[1:]:
                await dc.slash(person, "join")
            await dc.slash(dc.alice, "start")
            counter = TurnCounter([int(p["id"]) for p in people], lambda uid: len(api.notifying(uid)))
            acks: list[float] = []
            quiet_waits: list[float] = []
            deadline = time.monotonic() + seconds
            stop = asyncio.Event()
            posted_from = len(api.posted)

            def movers() -> frozenset:
                return frozenset(int(p["id"]) for p in people if latest_picker(dc, p))

            async def player(person):
                while not stop.is_set():
                    message = latest_picker(dc, person)
                    if message is None:
                        await asyncio.sleep(0.005)
                        continue
                    kind, custom_id, values = pick(message)
                    record = await (api.select(person, message, custom_id, values) if kind == "select"
                                    else api.click(person, message, custom_id))
                    await dc.wait_for(lambda: record.callback is not None or record.id in api.late, 30)
                    if record.acked is not None:
                        acks.append(record.acked - record.created)
                    seen = (message["id"], message["edits"])

                    def moved_on():
                        now = latest_picker(dc, person)
                        return stop.is_set() or now is None or (now["id"], now["edits"]) != seen
                    await dc.wait_for(moved_on, 30)
                    await asyncio.sleep(0.02)

            async def watcher():
                while not stop.is_set():
                    counter.update(movers())
                    if game_over(dc) or time.monotonic() > deadline:
                        stop.set()
                    await asyncio.sleep(0.003)

            async def quiet_chat():
                while not stop.is_set():
                    start = time.monotonic()
                    record = await api.slash(dc.mod, "rules", channel_id=OTHER_CHANNEL_ID, game="kardinal")
                    await dc.wait_for(lambda: dc.answers(record), 30)
                    quiet_waits.append(time.monotonic() - start)
                    await asyncio.sleep(0.3)

            await asyncio.gather(watcher(), quiet_chat(), *(player(p) for p in people))
            await dc.idle()
            times = [t for t, c in api.posted[posted_from:] if c == CHANNEL_ID]
            worst = max((sum(1 for u in times if t <= u < t + 60.0) for t in times), default=0)
            return {"answers": acks, "quiet": quiet_waits, "worst_window": worst, "late": len(api.late),
                    "refused": sum(1 for r in api.refused if r[1] == CHANNEL_ID), "turns": counter.began,
                    "to_mover": counter.to_mover, "to_others": counter.to_others, "over": game_over(dc),
                    "delivery": dc.bot.adapter.delivery}
        finally:
            await dc.stop_bot()
            await api.stop()


def report(name: str, r: dict, window: str) -> None:
    d = r["delivery"]
    print(f"== {name}: a busy four-player {GAME} beside a quiet chat ==")
    print(f"  button answer      p50 {ms(pct(r['answers'], 50))}   p99 {ms(pct(r['answers'], 99))}   "
          f"(n={len(r['answers'])}{', late ' + str(r['late']) if 'late' in r else ''})")
    print(f"  quiet chat reply   p50 {ms(pct(r['quiet'], 50))}   max {ms(max(r['quiet'], default=float('nan')))}"
          f"   (n={len(r['quiet'])})")
    print(f"  group messages     worst {window}: {r['worst_window']}   429s met: {r['refused']}")
    print(f"  deliveries         sent {d.sent}, coalesced {d.superseded}, retried {d.retries}, "
          f"dropped {d.dropped}")
    per_turn = r["to_mover"] / r["turns"] if r["turns"] else float("nan")
    print(f"  pings              {r['turns']} turns began: {per_turn:.2f} per turn to the person to act, "
          f"{r['to_others']} to others   (game over: {r['over']})")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=40.0, help="longest a game may run on each platform")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    tg = asyncio.run(telegram(args.seconds))
    report("Telegram", tg, f"window (a minute scaled by {tg['scale']:g})")
    dc = asyncio.run(discord_(args.seconds))
    report("Discord", dc, "60 s (new channel messages; edits are not limited the same way)")


if __name__ == "__main__":
    main()
