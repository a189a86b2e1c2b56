"""``python -m bot run``: the service plus the Discord and/or Telegram adapters in one process.

Any number of these processes may share one database (PostgreSQL, or one SQLite file on a local disk): the
database is the only truth. Each process delivers the messages of the platforms it serves; what it stores for
another platform, or could not send before it died, is delivered by the outbox loop of a process serving that
platform. Due timers are claimed by exactly one process.
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
from pathlib import Path
from urllib.parse import urlsplit

from sqlalchemy.engine import make_url

from bot.service import DatabaseUnavailable, Message, build_service
from bot.settings import Settings

log = logging.getLogger(__name__)

# file systems on which SQLite's locking is unreliable: a shared database there gets corrupted
NETWORK_FILESYSTEMS = {"nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "afs", "ceph", "glusterfs", "lustre", "gpfs",
                       "ncpfs", "davfs", "fuse.sshfs", "fuse.glusterfs", "fuse.s3fs", "fuse.rclone", "fuse.gcsfuse"}


def filesystem_of(path: Path, mounts: str | None = None) -> str | None:
    """The type of the file system ``path`` lies on, from /proc/mounts (None where that cannot be known)."""
    if mounts is None:
        try:
            mounts = Path("/proc/mounts").read_text()
        except OSError:
            return None
    best, kind = "", None
    text = str(path)
    for line in mounts.splitlines():
        fields = line.split()
        if len(fields) < 3:
            continue
        point = fields[1].replace("\\040", " ")
        inside = text == point or text.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= len(best):
            best, kind = point, fields[2]
    return kind


def sqlite_network_problem(database_url: str, mounts: str | None = None) -> str | None:
    """Why a SQLite URL must not be served (a network path), or None."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    path = url.database
    if path.startswith(("//", "\\\\")):
        return (f"the SQLite file {path} is on a network share; SQLite's locks do not work there and the "
                "database would be corrupted. Use a local disk, or PostgreSQL for bots on several machines.")
    kind = filesystem_of(Path(path).expanduser().resolve().parent, mounts)
    if kind in NETWORK_FILESYSTEMS:
        return (f"the SQLite file {path} is on a network file system ({kind}); SQLite's locks do not work there "
                "and the database would be corrupted. Use a local disk, or PostgreSQL for bots on several machines.")
    return None


def startup_problem(settings: Settings, *, discord: bool, telegram: bool) -> str | None:
    """Why this process cannot start, in one sentence for the operator (never a traceback), or None."""
    if not (discord or telegram):
        return "nothing to run: set DISCORD_TOKEN and/or TELEGRAM_TOKEN (or pass --discord/--telegram)."
    if discord and settings.discord_token is None:
        return "--discord needs DISCORD_TOKEN in the environment."
    if telegram and settings.telegram_token is None:
        return "--telegram needs TELEGRAM_TOKEN in the environment."
    if discord:
        try:
            settings.shards()
        except ValueError as e:
            return str(e)
    if telegram and settings.telegram_webhook_url:
        parts = urlsplit(settings.telegram_webhook_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return f"TELEGRAM_WEBHOOK_URL must be an https:// address, not {settings.telegram_webhook_url!r}."
    return sqlite_network_problem(settings.database_url)


def describe(settings: Settings, *, discord: bool, telegram: bool) -> str:
    """The startup line: which database, platforms, shards and mode (no secrets)."""
    url = make_url(settings.database_url)
    parts = [f"database {url.render_as_string(hide_password=True)}"]
    if discord:
        count, ids = settings.shards()
        shards = "one connection" if count is None else \
            f"shards {','.join(map(str, ids)) if ids else 'all'} of {count}"
        parts.append(f"Discord ({shards})")
    if telegram:
        mode = f"webhook {settings.telegram_webhook_url} on {settings.telegram_webhook_listen}:" \
               f"{settings.telegram_webhook_port}" if settings.telegram_webhook_url else "long polling"
        parts.append(f"Telegram ({mode})")
    return "Herald serving " + "; ".join(parts)


def webhook_secret(settings: Settings) -> str:
    """The secret Telegram sends with every update: the same in every replica behind one URL."""
    if settings.telegram_webhook_secret is not None:
        return settings.telegram_webhook_secret.get_secret_value()
    token = settings.telegram_token.get_secret_value()
    return hashlib.sha256(b"herald-webhook:" + token.encode()).hexdigest()[:48]


async def start_telegram(service, settings: Settings):
    from bot.telegram import build_telegram_app, register_commands

    app = build_telegram_app(service, settings.telegram_token.get_secret_value(), base_url=settings.telegram_base_url)
    await app.initialize()
    await register_commands(app)
    if settings.telegram_webhook_url:
        path = urlsplit(settings.telegram_webhook_url).path.strip("/")
        # every replica sets the same URL and secret; none deletes the webhook when it stops (others serve it)
        await app.updater.start_webhook(listen=settings.telegram_webhook_listen, port=settings.telegram_webhook_port,
                                        url_path=path, webhook_url=settings.telegram_webhook_url,
                                        secret_token=webhook_secret(settings))
    else:
        await app.updater.start_polling(error_callback=polling_error)
    await app.start()
    return app


_told_conflict = False


def polling_error(error: Exception) -> None:
    """Errors of long polling: a second process polling the same bot is named, once, with its remedy."""
    global _told_conflict
    from telegram.error import Conflict

    if isinstance(error, Conflict):
        if not _told_conflict:
            _told_conflict = True
            log.error("Another process is polling this Telegram bot (%s). Only one process may poll; run "
                      "replicas in webhook mode (--webhook-url / TELEGRAM_WEBHOOK_URL).", error)
        return
    log.warning("Telegram polling: %s", error)


def build_discord(service, settings: Settings):
    import discord

    from bot.discord import build_discord_bot

    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        import yarl

        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)
    count, ids = settings.shards()
    return build_discord_bot(service, shard_count=count, shard_ids=ids, thread_grace=settings.discord_thread_grace)


async def run_bots(settings: Settings, *, discord: bool, telegram: bool) -> int:
    problem = startup_problem(settings, discord=discord, telegram=telegram)
    if problem:
        log.error("Herald cannot start: %s", problem)
        return 2
    platforms = [p for p, on in (("discord", discord), ("telegram", telegram)) if on]
    try:
        # messages for other platforms wait in the outbox for their processes
        # ... and the timers of games of other platforms (and other shards' guilds) wait for theirs
        service = await build_service(settings.database_url, pictures=True, flood_guard=True, serves=set(platforms),
                                      shards=settings.shards() if discord else None,
                                      games_in_memory=settings.games_in_memory)
    except DatabaseUnavailable as e:
        log.error("Herald cannot start: %s", e)
        return 2
    service.ctx.web_base_url = settings.web_base_url  # the bots link to the chats' pages there
    log.info("%s (process %s)", describe(settings, discord=discord, telegram=telegram), service.ctx.process_id)
    deliverers = {}
    tasks: list[asyncio.Task] = []
    app = client = None
    try:
        if telegram:
            try:
                app = await start_telegram(service, settings)
            except Exception as e:  # a refused token or webhook: say so, not a traceback
                log.error("Herald cannot start: Telegram refused: %s", e)
                return 2
            deliverers["telegram"] = app.bot_data["deliver"]
            log.info("Telegram adapter running")
        if discord:
            client = build_discord(service, settings)
            deliverers["discord"] = client.deliver
            tasks.append(asyncio.create_task(client.start(settings.discord_token.get_secret_value())))
            log.info("Discord adapter starting")

        async def deliver(messages: list[Message]) -> None:
            by_platform: dict[str, list[Message]] = {}
            for m in messages:
                ref = m.chat or m.user
                by_platform.setdefault(ref.platform, []).append(m)
            for platform, batch in by_platform.items():
                if platform in deliverers:  # others were stored for their platform's processes
                    await deliverers[platform](batch)

        tasks.append(asyncio.create_task(service.timer_loop(deliver)))
        tasks.append(asyncio.create_task(service.outbox_loop(deliver, platforms)))
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            try:
                task.result()
            except Exception as e:
                import discord as discord_lib

                if isinstance(e, discord_lib.LoginFailure):
                    log.error("Herald cannot start: Discord refused the token (%s)", e)
                    return 2
                raise
        return 0
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)  # ended before the clients and the database close
        if client is not None:
            await client.close()
        if app is not None:
            if app.updater.running:
                await app.updater.stop()
            await app.bot_data["adapter"].close()
            if app.running:
                await app.stop()
            await app.shutdown()
        await service.close()
