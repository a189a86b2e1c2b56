"""``python -m bench.calls``: platform API calls per human move, counted against the fakes of the tests.

Whole games (2 and 4 players of each title; List und Tücke needs four seats, so its 2-player table has two AI
seats; Troubadour ends after six rounds) are played through the real python-telegram-bot and discord.py code against
tests/telegram_adapter/fake_bot_api.py and tests/discord_adapter/fake_discord.py. People press the buttons of
their pickers, one press at a time, and the bot is let finish between presses: a human-paced table, nothing
coalesced. Counted per human move (a move of the log made by a person), by kind: group send/edit/delete,
private send/edit/delete, answers (Telegram: answerCallbackQuery; Discord: interaction callbacks and their
follow-ups), other (a DM channel opened, a user fetched). Pings: the notifications of each turn that came to a
person (target exactly 1), and after a move whose person is still to act, whether they were notified again or
their picker came in another message (target 0: edited in place). The driver: ``play_counted`` of
tests/telegram_adapter/whole_game.py and tests/discord_adapter/whole_game.py (the tests hold the targets).

Tables per token: the number of tables each making one human move every 30 s that one bot token serves within
the platform's global limit (Telegram about 30 messages a second, Discord about 50 requests a second), counted
with every call of the move (answers included: the conservative reading).
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import tempfile

GAMES = ["troubadour", "guyenne", "list_und_tuecke", "kardinal", "koenig_artus"]
# Troubadour is played to a draw after six rounds (people who press the first option would play it for ever);
# Guyenne's four are two teams
OPTIONS = {("troubadour", 2): "max_rounds=6", ("troubadour", 4): "max_rounds=6", ("guyenne", 4): "mode=teams"}
KINDS = ["group send", "group edit", "group delete", "private send", "private edit", "private delete",
         "answer", "other"]
PACE = 30.0  # seconds between two moves of a human-paced table
LIMITS = {"telegram": 30.0, "discord": 50.0}  # the platforms' global limits per token, a second


async def telegram_game(game: str, players: int, pictures: bool):
    from bot.service import build_service
    from bot.telegram import build_telegram_app
    from tests.telegram_adapter.conftest import GROUP, Harness
    from tests.telegram_adapter.whole_game import play_counted

    scale = 0.002  # the platform's windows shrunk: counts, not waits, are measured here
    people = [{"id": 200 + i, "is_bot": False, "first_name": name} for i, name in
              enumerate(["Alice", "Bob", "Carol", "Dave"][:players])]
    with tempfile.TemporaryDirectory() as tmp:
        tg = Harness(f"sqlite+aiosqlite:///{tmp}/telegram.db")
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
            await tg.say(people[0], GROUP, "/start")
            return await play_counted(tg, people)
        finally:
            await tg.stop_bot()
            await api.stop()


async def discord_game(game: str, players: int, pictures: bool):
    import discord
    import yarl

    from bot.discord import build_discord_bot
    from bot.service import build_service
    from tests.discord_adapter.conftest import Harness
    from tests.discord_adapter.whole_game import play_counted

    with tempfile.TemporaryDirectory() as tmp:
        dc = Harness(f"sqlite+aiosqlite:///{tmp}/discord.db")
        dave = dc.api.add_user(1004, "Dave")
        people = [dc.alice, dc.bob, dc.carol, dave][:players]
        port = await dc.api.start()  # Harness.start_bot, without pictures unless asked for
        discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
        dc.service = await build_service(dc.url, pictures=pictures, picture_workers=1, warm_pictures=False)
        dc.bot = build_discord_bot(dc.service, guild_ready_timeout=0.05)
        dc.task = asyncio.create_task(dc.bot.start("fake-token"))
        await asyncio.wait_for(dc.api.identified.wait(), 10)
        await asyncio.wait_for(dc.bot.wait_until_ready(), 10)
        try:
            options = OPTIONS.get((game, players))
            await dc.slash(dc.alice, "new", game=game, **({"options": options} if options else {}))
            for person in people[1:]:
                await dc.slash(person, "join")
            for _ in range(max(0, 4 - players) if game == "list_und_tuecke" else 0):
                await dc.slash(dc.alice, "addai")
            await dc.slash(dc.alice, "start")
            return await play_counted(dc, people)
        finally:
            await dc.stop_bot()
            await dc.api.stop()


def line(platform: str, game: str, players: int, c) -> str:
    moves = max(1, c.moves)
    per = {k: c.kinds[k] / moves for k in KINDS}
    exact = sum(1 for n in c.turn_pings if n == 1)
    tables = LIMITS[platform] * PACE / c.per_move if c.calls else float("inf")
    return (f"{platform:<8} {game:<16} {players}p  moves {c.moves:4d}  calls/move {c.per_move:5.2f} "
            f"(w/o answers {(c.calls - c.kinds['answer']) / moves:4.2f})  "
            + " ".join(f"{per[k]:.2f}" for k in KINDS)
            + f"  turns {len(c.turn_pings)}, pinged once {exact}; still to act after a move {c.kept}: pinged"
            f" {c.kept_pinged}, re-posted {c.kept_reposted}  tables/token {tables:4.0f}"
            + ("" if c.over else "  (NOT OVER)"))


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
                count = asyncio.run(play(game, players, args.pictures))
                print(line(platform, game, players, count), flush=True)
                totals.setdefault(platform, []).append(count.per_move)
    for platform, values in totals.items():
        worst = max(values)
        print(f"{platform}: worst {worst:.2f} calls per human move → {LIMITS[platform] * PACE / worst:.0f} "
              f"human-paced tables per token (limit {LIMITS[platform]:g}/s, a move every {PACE:g} s)")


if __name__ == "__main__":
    main()
