"""``python -m bench.calls``: platform API calls per human move, counted against the fakes of the tests.

Whole games (2 and 4 players of each title; List und Tücke needs four seats, so its 2-player table has two AI
seats; Troubadour ends after six rounds) are played through the real python-telegram-bot and discord.py code against
tests/telegram_adapter/fake_bot_api.py and tests/discord_adapter/fake_discord.py. People press the buttons of
their pickers, one press at a time, and the bot is let finish between presses: a human-paced table, nothing
coalesced. Counted per human move (a move of the log made by a person), by kind: group send/edit/delete,
private send/edit/delete, answers (Telegram: answerCallbackQuery; Discord: interaction callbacks and their
follow-ups), other (a DM channel opened, a user fetched). Pings: notifying messages to the person whose turn
began, per turn change (target exactly 1), and to the others.

Tables per token: the number of tables each making one human move every 30 s that one bot token serves within
the platform's global limit (Telegram about 30 messages a second, Discord about 50 requests a second), counted
with every call of the move (answers included: the conservative reading).
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import sqlite3
import tempfile
from collections import Counter

GAMES = ["troubadour", "guyenne", "list_und_tuecke", "kardinal", "koenig_artus"]
# Troubadour is played to a draw after six rounds (people who press the first option would play it for ever);
# Guyenne's four are two teams
OPTIONS = {("troubadour", 2): "max_rounds=6", ("troubadour", 4): "max_rounds=6", ("guyenne", 4): "mode=teams"}
KINDS = ["group send", "group edit", "group delete", "private send", "private edit", "private delete",
         "answer", "other"]
PACE = 30.0  # seconds between two moves of a human-paced table
LIMITS = {"telegram": 30.0, "discord": 50.0}  # the platforms' global limits per token, a second


class TurnCounter:
    """Turn changes seen from outside: whenever the set of people holding a picker changes, those who joined it
    began a turn; the notifications since the last change are counted for them (or for the others)."""

    def __init__(self, people: list, rings):
        self.people, self.rings = people, rings
        self.movers: frozenset = frozenset()
        self.began = self.to_mover = self.to_others = 0
        self.last = {p: rings(p) for p in people}
        self.per_turn: list[int] = []  # notifications of each person at each turn they began

    def update(self, movers: frozenset) -> None:
        if movers == self.movers:
            return
        new = movers - self.movers
        now = {p: self.rings(p) for p in self.people}
        for person in self.people:
            gained = now[person] - self.last[person]
            if person in new:
                self.to_mover += gained
                self.per_turn.append(gained)
            else:
                self.to_others += gained
        self.began += len(new)
        self.last = now
        self.movers = movers


def human_moves(path: str) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT count(*) FROM moves WHERE by = 'player'").fetchone()[0]


def telegram_kind(method: str, params: dict) -> str | None:
    if method == "answerCallbackQuery":
        return "answer"
    try:
        chat = int(params.get("chat_id"))
    except (TypeError, ValueError):
        return None
    where = "group" if chat < 0 else "private"
    if method.startswith("send"):
        return f"{where} send"
    if method.startswith("edit"):
        return f"{where} edit"
    if method == "deleteMessage":
        return f"{where} delete"
    return None


async def telegram_game(game: str, players: int, pictures: bool) -> dict:
    from bot.service import build_service
    from bot.telegram import build_telegram_app
    from tests.telegram_adapter.conftest import GROUP, Harness
    from tests.telegram_adapter.test_telegram import choose, game_over

    scale = 0.002  # the platform's windows shrunk: counts, not waits, are measured here
    people = [{"id": 200 + i, "is_bot": False, "first_name": name} for i, name in
              enumerate(["Alice", "Bob", "Carol", "Dave"][:players])]
    with tempfile.TemporaryDirectory() as tmp:
        path = f"{tmp}/telegram.db"
        tg = Harness(f"sqlite+aiosqlite:///{path}")
        tg.api.scale = scale
        tg.base = await tg.api.start()
        tg.service = await build_service(tg.url, pictures=pictures, picture_workers=1, warm_pictures=False)
        tg.app = build_telegram_app(tg.service, "123:TEST", base_url=tg.base, pace_scale=scale)
        tg.adapter = tg.app.bot_data["adapter"]
        await tg.app.initialize()
        await tg.app.updater.start_polling(poll_interval=0, timeout=1)
        await tg.app.start()
        api = tg.api
        api.group(GROUP)
        try:
            options = OPTIONS.get((game, players), "")
            await tg.say(people[0], GROUP, f"/new {game} {options}".strip(), expect=(GROUP, "table"))
            for person in people[1:]:
                await tg.say(person, GROUP, "/join")
            for _ in range(max(0, 4 - players) if game == "list_und_tuecke" else 0):
                await tg.say(people[0], GROUP, "/addai")
            for person in people:
                await tg.say(person, person["id"], "/start g1", expect=(person["id"], "Hello"))
            await tg.idle()
            ids = [p["id"] for p in people]
            counter = TurnCounter(ids, lambda uid: len([s for s in api.sends if s["notify"] and s["chat"] == uid]))
            start = len(api.calls)
            await tg.say(people[0], GROUP, "/start")
            await tg.idle()

            def movers() -> frozenset:
                return frozenset(p["id"] for p in people if choose(api.last_with_keyboard(p["id"]) or {}))

            counter.update(movers())
            calls_at_start = len(api.calls)
            for _ in range(5000):
                if game_over(api):
                    break
                person = next((p for p in people if choose(api.last_with_keyboard(p["id"]) or {})), None)
                if person is None:
                    await api.wait_for(lambda: game_over(api) or movers(), 30)
                    continue
                message = api.last_with_keyboard(person["id"])
                await tg.press(person, person["id"], message, choose(message))
                await tg.idle()
                counter.update(movers())
            await tg.idle()
            kinds = Counter(k for method, params in api.calls[calls_at_start:]
                            if (k := telegram_kind(method, params)))
            deletes_unknown = sum(1 for method, _ in api.calls[calls_at_start:] if method == "deleteMessage") - \
                kinds["group delete"] - kinds["private delete"]
            kinds["other"] += deletes_unknown
            return {"kinds": kinds, "moves": human_moves(path), "counter": counter, "over": game_over(api),
                    "start_calls": calls_at_start - start}
        finally:
            await tg.stop_bot()
            await api.stop()


def discord_kind(method: str, path: str, channel: int) -> str | None:
    parts = path.split("/")
    if "/interactions/" in path or "/webhooks/" in path:
        return "answer"
    if "/channels/" in path and "/messages" in path:
        where = "group" if parts[4] == str(channel) else "private"
        return {"POST": f"{where} send", "PATCH": f"{where} edit", "DELETE": f"{where} delete"}.get(method)
    if path.endswith("/users/@me/channels") or (method == "GET" and "/users/" in path and "@me" not in path):
        return "other"
    return None


async def discord_game(game: str, players: int, pictures: bool) -> dict:
    from bot.discord import build_discord_bot
    from bot.service import build_service
    from tests.discord_adapter.conftest import Harness
    from tests.discord_adapter.fake_discord import CHANNEL_ID
    from tests.discord_adapter.test_discord import act, game_over, latest_picker

    with tempfile.TemporaryDirectory() as tmp:
        path = f"{tmp}/discord.db"
        dc = Harness(f"sqlite+aiosqlite:///{path}")
        dave = dc.api.add_user(1004, "Dave")
        people = [dc.alice, dc.bob, dc.carol, dave][:players]

        async def start_bot() -> None:  # Harness.start_bot, without pictures when not asked for
            import discord
            import yarl
            port = await dc.api.start()
            discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
            dc.service = await build_service(dc.url, pictures=pictures, picture_workers=1, warm_pictures=False)
            dc.bot = build_discord_bot(dc.service, guild_ready_timeout=0.05)
            dc.task = asyncio.create_task(dc.bot.start("fake-token"))
            await asyncio.wait_for(dc.api.identified.wait(), 10)
            await asyncio.wait_for(dc.bot.wait_until_ready(), 10)

        await start_bot()
        api = dc.api
        try:
            options = OPTIONS.get((game, players))
            await dc.slash(dc.alice, "new", game=game, **({"options": options} if options else {}))
            for person in people[1:]:
                await dc.slash(person, "join")
            for _ in range(max(0, 4 - players) if game == "list_und_tuecke" else 0):
                await dc.slash(dc.alice, "addai")
            ids = [int(p["id"]) for p in people]
            counter = TurnCounter(ids, lambda uid: len(api.notifying(uid)))
            await dc.slash(dc.alice, "start")
            await dc.idle()

            def movers() -> frozenset:
                return frozenset(int(p["id"]) for p in people if latest_picker(dc, p))

            counter.update(movers())
            calls_at_start = len(api.requests)
            for _ in range(5000):
                if game_over(dc):
                    break
                person = next((p for p in people if latest_picker(dc, p)), None)
                if person is None:
                    await dc.wait_for(lambda: game_over(dc) or movers(), 30)
                    continue
                await act(dc, person, latest_picker(dc, person))
                await dc.idle()
                counter.update(movers())
            await dc.idle()
            kinds = Counter(k for method, p in api.requests[calls_at_start:]
                            if (k := discord_kind(method, p, CHANNEL_ID)))
            return {"kinds": kinds, "moves": human_moves(path), "counter": counter, "over": game_over(dc)}
        finally:
            await dc.stop_bot()
            await api.stop()


def line(platform: str, game: str, players: int, r: dict) -> str:
    moves = max(1, r["moves"])
    total = sum(r["kinds"].values())
    per = {k: r["kinds"][k] / moves for k in KINDS}
    c = r["counter"]
    exact = sum(1 for n in c.per_turn if n == 1)
    tables = LIMITS[platform] * PACE / (total / moves) if total else float("inf")
    return (f"{platform:<8} {game:<16} {players}p  moves {r['moves']:4d}  calls/move {total / moves:5.2f}  "
            + "  ".join(f"{per[k]:.2f}" for k in KINDS)
            + f"  pings: {c.began} turns, exactly one {exact}, to others {c.to_others}"
            + f"  tables/token {tables:6.0f}" + ("" if r["over"] else "  (NOT OVER)"))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=GAMES)
    parser.add_argument("--players", nargs="*", type=int, default=[2, 4])
    parser.add_argument("--platforms", nargs="*", default=["telegram", "discord"])
    parser.add_argument("--pictures", action="store_true", help="draw pictures (the same calls, slower)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    print("columns per move: " + ", ".join(KINDS))
    totals: dict[str, list[float]] = {}
    for platform in args.platforms:
        play = telegram_game if platform == "telegram" else discord_game
        for game in args.games:
            for players in args.players:
                r = asyncio.run(play(game, players, args.pictures))
                print(line(platform, game, players, r), flush=True)
                totals.setdefault(platform, []).append(sum(r["kinds"].values()) / max(1, r["moves"]))
    for platform, values in totals.items():
        worst = max(values)
        print(f"{platform}: worst {worst:.2f} calls per human move → {LIMITS[platform] * PACE / worst:.0f} "
              f"human-paced tables per token (limit {LIMITS[platform]:g}/s, a move every {PACE:g} s)")


if __name__ == "__main__":
    main()
