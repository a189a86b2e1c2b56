"""The deployment of docker-compose.yml without Docker: the test starts exactly the commands the compose file runs,
with its environment (only the addresses of this machine put in: the database the tests started, the fake
Discord and Telegram servers), and plays a game through every process.

- As shipped (SQLite in a volume): one Discord and one Telegram process on one SQLite file.
- ``--profile postgres``: two Discord processes (one shard each: a server's commands reach one, direct messages
  the other) and two Telegram replicas in webhook mode behind one URL (any replica may take any update).

Either way the web process(es) serve the league pages from the same database: the group turns them on, and the
game just played is on every replica's page.
"""
from __future__ import annotations

import asyncio
import os
import re
import socket
import sys
from pathlib import Path

import pytest
import yaml

import rules
from storage import Database, UnitOfWork, open_database
from tests.discord_adapter.fake_discord import GUILD_ID, CHANNEL_ID, FakeDiscord, shard_of
from tests.telegram_adapter.fake_bot_api import FakeBotApi

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
GROUP = -700
ALICE_TG = {"id": 701, "is_bot": False, "first_name": "Alice"}
ALICE_DC = 7001
SERVER = GUILD_ID + (1 << 22)  # a server whose events go to shard 1 of 2 (direct messages go to shard 0)


def compose_services(profile: str | None) -> dict[str, dict]:
    """The bot services a ``docker compose [--profile P] up`` starts (the database container aside)."""
    found = {}
    for name, service in COMPOSE["services"].items():
        if "command" not in service or service.get("profiles", []) != ([profile] if profile else []):
            continue
        found[name] = service
    return found


def expand(value: str, env: dict[str, str]) -> str:
    """Compose's ``${NAME:-default}`` interpolation."""
    return re.sub(r"\$\{(\w+)(?::-([^}]*))?\}", lambda m: env.get(m.group(1)) or (m.group(2) or ""), str(value))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Deployment:
    def __init__(self, url: str, profile: str | None, tmp: Path):
        self.url, self.profile, self.tmp = url, profile, tmp
        self.discord, self.telegram = FakeDiscord(guild_id=SERVER), FakeBotApi()
        self.processes: list[tuple[str, asyncio.subprocess.Process, Path]] = []
        self.web: list[str] = []  # the web replicas' addresses

    async def start(self) -> None:
        discord_port = await self.discord.start()
        telegram_base = await self.telegram.start()
        self.alice_dc = self.discord.add_user(ALICE_DC, "Alice")
        self.telegram.group(GROUP)
        # what an operator puts in .env, and this machine's addresses in place of the containers' names
        host = {"DISCORD_TOKEN": "fake-token", "TELEGRAM_TOKEN": "123:TEST", "TELEGRAM_BASE_URL": telegram_base,
                "TELEGRAM_WEBHOOK_URL": "https://herald.example.org/telegram"}
        backends = []
        for name, service in compose_services(self.profile).items():
            for replica in range(service.get("deploy", {}).get("replicas", 1)):
                env = {k: expand(v, host) for k, v in service["environment"].items()}
                env["DATABASE_URL"] = self.url  # the volume / the postgres container, here
                if env.get("TELEGRAM_WEBHOOK_PORT"):  # each container listens on its own 8080; here: own ports
                    port = free_port()
                    env["TELEGRAM_WEBHOOK_PORT"], env["TELEGRAM_WEBHOOK_LISTEN"] = str(port), "127.0.0.1"
                    backends.append(f"http://127.0.0.1:{port}")
                if env.get("WEB_PORT"):  # the same for the web replicas (each its own 8000 in a container)
                    port = free_port()
                    env["WEB_PORT"], env["WEB_LISTEN"] = str(port), "127.0.0.1"
                    self.web.append(f"http://127.0.0.1:{port}")
                if "--discord" in service["command"]:
                    env["DISCORD_API_BASE"] = f"http://127.0.0.1:{discord_port}/api/v10"
                    env["DISCORD_GATEWAY_URL"] = f"ws://127.0.0.1:{discord_port}/gateway"
                command = [sys.executable if c == "python" else c for c in service["command"]]
                log = self.tmp / f"{name}-{replica}.log"
                process = await asyncio.create_subprocess_exec(
                    *command, cwd=ROOT, stdout=open(log, "w"), stderr=asyncio.subprocess.STDOUT,
                    env={"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT), **env})
                self.processes.append((name, process, log))
        self.telegram.webhook_backends = backends or None  # the reverse proxy in front of the replicas
        self.shards = {(int(e["DISCORD_SHARD_IDS"]), int(e["DISCORD_SHARD_COUNT"]))
                       for s in compose_services(self.profile).values()
                       for e in [s["environment"]] if "DISCORD_SHARD_IDS" in e} or {(0, 1)}
        await self.until(lambda: self.discord.shards_seen >= self.shards, "every Discord shard connected")
        assert self.web, "docker-compose.yml runs no web process"
        for base in self.web:
            await self.until_page(base + "/", 200)
        if backends:
            await self.until(lambda: self.telegram.webhook is not None, "the webhook was set")
        else:
            await self.until(lambda: any(m == "getUpdates" for m, _ in self.telegram.calls), "Telegram polled")

    async def until(self, condition, what: str, timeout: float = 60) -> None:
        deadline = asyncio.get_running_loop().time() + timeout
        while not condition():
            for name, process, log in self.processes:
                if process.returncode is not None:
                    raise AssertionError(f"{name} stopped: {log.read_text()[-3000:]}")
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"timed out: {what}\n" + "\n".join(
                    f"--- {n}\n{log.read_text()[-1500:]}" for n, _, log in self.processes))
            await asyncio.sleep(0.05)

    async def until_page(self, url: str, status: int, text: str = "", timeout: float = 60) -> str:
        """The page at ``url`` once it answers ``status`` with ``text`` in it (a process still starting: wait)."""
        import aiohttp

        loop = asyncio.get_running_loop()
        deadline, last = loop.time() + timeout, None
        async with aiohttp.ClientSession() as session:
            while loop.time() < deadline:
                try:
                    async with session.get(url) as response:
                        body = await response.text()
                        last = (response.status, body[-300:])
                        if response.status == status and text in body:
                            return body
                except aiohttp.ClientError as error:
                    last = error
                for name, process, log in self.processes:
                    if process.returncode is not None:
                        raise AssertionError(f"{name} stopped: {log.read_text()[-3000:]}")
                await asyncio.sleep(0.1)
        raise AssertionError(f"timed out: {url} answered {last}")

    async def stop(self) -> str:
        for _, process, _ in self.processes:
            if process.returncode is None:
                process.terminate()
        for _, process, _ in self.processes:
            try:
                await asyncio.wait_for(process.wait(), 20)
            except asyncio.TimeoutError:
                process.kill()
        await self.discord.stop()
        await self.telegram.stop()
        return "\n".join(f"--- {n}\n{log.read_text()}" for n, _, log in self.processes)


async def stored_game(db: Database, platform: str):
    async with UnitOfWork(db, readonly=True) as uow:
        from sqlalchemy import select

        from storage.models import Chat, GameRow

        row = await uow.session.scalar(select(GameRow).join(Chat, Chat.id == GameRow.chat_id)
                                       .where(Chat.platform == platform).order_by(GameRow.id.desc()))
        return row


async def play_to_the_end(deployment: Deployment, db: Database, platform: str, send_move, seen) -> int:
    """Alice's moves (read from the stored game, typed in the notation) until the game is over — at most two a
    second, as the bot's flood guard allows one person (one a second in each of the two chats used)."""
    loop = asyncio.get_running_loop()
    last, moves, deadline = 0.0, 0, loop.time() + 180
    while loop.time() < deadline:
        row = await stored_game(db, platform)
        if row is not None and row.status == "finished":
            return moves
        if row is None or row.status != "active":
            await asyncio.sleep(0.05)
            continue
        game = rules.get_game(row.game)
        state = game.from_json(row.state)
        alice = next(s.seat for s in row.seats if s.player and s.player.name == "Alice")
        if alice not in state.to_act():
            await asyncio.sleep(0.05)
            continue
        await asyncio.sleep(max(0.0, last + 0.55 - loop.time()))
        last = loop.time()
        await send_move(moves, row.id, game.format_action(state.legal_actions(alice)[0]))
        moves += 1
        version = row.version

        async def moved():
            now = await stored_game(db, platform)
            return now.version != version
        for _ in range(400):
            if await moved():
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f"move {moves} on {platform} was never applied; the bot said: {seen()}")
    raise AssertionError(f"the game did not end ({moves} moves); the bot said: {seen()}")


@pytest.mark.parametrize("profile", [None, "postgres"], ids=["as-shipped", "postgres-profile"])
async def test_compose_deployment_plays_through_every_process(profile, request, tmp_path):
    if profile == "postgres":
        base = request.getfixturevalue("postgres_server")
        import asyncpg

        dsn = base.replace("postgresql+asyncpg", "postgresql")
        conn = await asyncpg.connect(dsn)
        await conn.execute('DROP DATABASE IF EXISTS "deployment"')
        await conn.execute('CREATE DATABASE "deployment"')
        await conn.close()
        url = base.rsplit("/", 1)[0] + "/deployment"
    else:
        url = f"sqlite+aiosqlite:///{tmp_path}/herald.db"
    db = await open_database(url)  # migrated before the bots start, as the first one would
    deployment = Deployment(url, profile, tmp_path)
    logs = ""
    try:
        await deployment.start()
        tg, dc = deployment.telegram, deployment.discord

        # Telegram: a game of Kardinal against an AI, every update through whichever replica the proxy picks
        tg.send(ALICE_TG, ALICE_TG["id"], "/start")
        tg.send(ALICE_TG, GROUP, "/new kardinal")
        await deployment.until(lambda: any("Kardinal" in m["text"] for m in tg.bot_messages(GROUP)), "a TG lobby")
        tg.send(ALICE_TG, GROUP, "/addai")
        # (replicas may take two quick updates in either order: wait for the seat, as a person sees it)
        await deployment.until(lambda: any("(2/4" in m["text"] for m in tg.bot_messages(GROUP)), "the AI seated")
        tg.send(ALICE_TG, GROUP, "/start")

        async def telegram_move(step, gid, notation):
            where = GROUP if step % 2 else ALICE_TG["id"]  # in the group and in the private chat
            tg.send(ALICE_TG, where, f"/move {notation}")
        tg_moves = await play_to_the_end(deployment, db, "telegram", telegram_move, lambda: [
            m["text"][:200] for c in (GROUP, ALICE_TG["id"]) for m in tg.bot_messages(c)[-2:]])
        await deployment.until(lambda: any("is over" in m["text"] for m in tg.bot_messages(GROUP)), "TG result")

        # the group shows its league on the web: every web replica serves the game just played
        tg.admins.add((GROUP, ALICE_TG["id"]))
        tg.send(ALICE_TG, GROUP, "/settings web=on")
        await deployment.until(lambda: any("Settings saved" in m["text"] for m in tg.bot_messages(GROUP)), "web=on")
        tg.send(ALICE_TG, GROUP, "/web")
        link = re.compile(r"/c/([\w-]+)")
        await deployment.until(lambda: any("league, its players" in m["text"] and link.search(m["text"])
                                           for m in tg.bot_messages(GROUP)), "the /web link")
        slug = next(link.search(m["text"]).group(1) for m in tg.bot_messages(GROUP) if "league, its players" in m["text"])
        played = await stored_game(db, "telegram")
        for base in deployment.web:
            page = await deployment.until_page(f"{base}/c/{slug}/g/{played.id}", 200, "Kardinal")
            assert "is over" not in page and "Traceback" not in page
            await deployment.until_page(f"{base}/c/{slug}", 200, f"/g/{played.id}")
            await deployment.until_page(f"{base}/c/not-{slug}", 404)

        # Discord: the same through the shards — channel commands reach the server's shard, DMs shard 0
        await dc.slash(deployment.alice_dc, "new", game="kardinal")
        await deployment.until(lambda: any("Kardinal" in dc.text(m) for m in dc.channel_messages()), "a lobby")
        await dc.slash(deployment.alice_dc, "addai")
        await deployment.until(lambda: any("(2/4" in dc.text(m) for m in dc.channel_messages()), "the AI seated")
        await dc.slash(deployment.alice_dc, "start")

        async def discord_move(step, gid, notation):
            channel = CHANNEL_ID
            if step % 2 and ALICE_DC in dc.dm_channels:
                channel = dc.dm_channels[ALICE_DC]
            await dc.slash(deployment.alice_dc, "move", channel_id=channel, notation=notation)
        dc_moves = await play_to_the_end(deployment, db, "discord", discord_move, lambda: [
            dc.text(m)[:200] for m in list(dc.messages.values())[-4:]])
        await deployment.until(lambda: any("is over" in dc.text(m) for m in dc.channel_messages()), "DC result")
        assert tg_moves > 3 and dc_moves > 3

        if profile == "postgres":
            # both replicas took updates, and both shards' processes answered interactions
            used = {url.rsplit("/", 1)[0] for url, _, status in tg.webhook_posts if status == 200}
            assert len(used) == 2, used
            # an update without the webhook's secret (anyone may find the URL) is refused by every replica
            import aiohttp

            async with aiohttp.ClientSession() as session:
                for backend in tg.webhook_backends:
                    forged = {"update_id": 99999, "message": {"message_id": 1, "date": 0, "chat": tg.chats[GROUP],
                                                              "from": ALICE_TG, "text": "/abort"}}
                    async with session.post(backend + "/telegram", json=forged,
                                            headers={"X-Telegram-Bot-Api-Secret-Token": "guess"}) as response:
                        assert response.status == 403
            # the fake sent the server's commands only to shard 1 and the DMs only to shard 0: both processes played
            assert deployment.shards == {(0, 2), (1, 2)} and shard_of(SERVER, 2) == 1
        # nothing left undelivered (the last messages may still be on their way), no traceback in any process
        for _ in range(300):
            async with UnitOfWork(db, readonly=True) as uow:
                pending = await uow.outbox.pending()
            if not pending:
                break
            await asyncio.sleep(0.1)
        assert not pending, [(m.platform, m.payload["kind"], (m.payload["text"] or "recipe")[:60]) for m in pending]
    finally:
        logs = await deployment.stop()
        await db.close()
    assert "Traceback" not in logs, logs[-5000:]
    assert "123:TEST" not in logs and "fake-token" not in logs  # tokens are never logged
    assert "Herald serving database" in logs
