"""``python -m bot play <game>`` (console game against AI seats), ``python -m bot run`` (the chat bot) and
``python -m bot web`` (the chats' league pages, read-only on the same database)."""
from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from pydantic import ValidationError

from bot.settings import Settings, database_url


def _database(value: str) -> str:
    try:
        return database_url(value)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


class RedactSecrets(logging.Filter):
    """Replaces the tokens wherever a record would show them (a library logging a request URL, say)."""

    def __init__(self, secrets: list[str]):
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if any(secret in text for secret in self.secrets):
            for secret in self.secrets:
                text = text.replace(secret, "***")
            record.msg, record.args = text, None
        return True


def keep_secrets_out_of_logs(settings: Settings) -> None:
    """Tokens are never logged: httpx logs every Bot API URL (which holds the Telegram token) at INFO, so it
    speaks only of warnings; and every handler redacts the tokens from whatever else would show them."""
    for noisy in ("httpx", "alembic.runtime.plugins"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    secrets = [t.get_secret_value() for t in (settings.discord_token, settings.telegram_token,
                                                settings.telegram_webhook_secret) if t is not None]
    for handler in logging.getLogger().handlers:
        handler.addFilter(RedactSecrets(secrets))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Herald, a bot for medieval tabletop games.")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a local console game against AI seats (no token needed)")
    play.add_argument("game", nargs="?", help="troubadour, guyenne, list_und_tuecke, kardinal, koenig_artus")
    play.add_argument("--players", type=int, help="number of players including you")
    play.add_argument("--seed", type=int, help="seed of the shuffle, to replay a deal")
    play.add_argument("--options", default="", help="game options as key=value pairs, e.g. 'level=advanced'")
    play.add_argument("--resume", action="store_true", help="continue your latest unfinished console game")
    play.add_argument("--game-id", type=int, help="continue this game")
    play.add_argument("--lang", choices=("en", "nl", "de", "fr"),
                      help="the language of a new game, remembered for later new games (a resumed game keeps the "
                           "language it was started in)")
    play.add_argument("--db", type=_database,
                      help="a SQLite file path or a database URL (default: DATABASE_URL or herald.db)")
    play.add_argument("--record", metavar="FILE", help="save the game's record (JSON, docs/RECORD.md) in FILE")
    replay = sub.add_parser("replay", help="step through a game record: a record's file, or a local game's number")
    replay.add_argument("source", help="a record's JSON file, or a game number of the local database")
    replay.add_argument("--lang", choices=("en", "nl", "de", "fr"), help="the language it is told in")
    replay.add_argument("--db", type=_database, help="the local database (default: as for play)")
    run = sub.add_parser("run", help="run the bot for Discord and/or Telegram (tokens from the environment)")
    run.add_argument("--discord", action="store_true")
    run.add_argument("--telegram", action="store_true")
    run.add_argument("--webhook-url", help="Telegram: receive updates at this public https URL instead of polling "
                                           "(TELEGRAM_WEBHOOK_URL); several replicas may serve one URL")
    run.add_argument("--webhook-port", type=int, help="Telegram webhook: the local port (TELEGRAM_WEBHOOK_PORT, 8080)")
    run.add_argument("--webhook-listen", help="Telegram webhook: the local address (TELEGRAM_WEBHOOK_LISTEN, 0.0.0.0)")
    run.add_argument("--shards", help="Discord: the shard ids this process connects, e.g. 0,1 "
                                      "(DISCORD_SHARD_IDS; DISCORD_SHARD_COUNT gives the total)")
    web = sub.add_parser("web", help="serve the league pages of the chats that turned them on (/settings web=on)")
    web.add_argument("--listen", help="the local address (WEB_LISTEN, 127.0.0.1)")
    web.add_argument("--port", type=int, help="the local port (WEB_PORT, 8000)")
    web.add_argument("--db", type=_database,
                     help="a SQLite file path or a database URL (default: DATABASE_URL or herald.db)")
    args = parser.parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as e:  # a bad DATABASE_URL, say: the reason, not a traceback
        parser.exit(2, "Herald cannot start: " + "; ".join(
            f"{'.'.join(map(str, err['loc'])).upper()}: {err['msg']}" for err in e.errors()) + "\n")
    logging.basicConfig(level=getattr(logging, settings.log_level.upper(), logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    keep_secrets_out_of_logs(settings)
    if args.command == "play":
        logging.getLogger().setLevel(logging.WARNING)
        if not args.game and not (args.resume or args.game_id):
            parser.error("name a game (e.g. python -m bot play list_und_tuecke) or use --resume")
        from bot.console import play as play_console

        try:
            return asyncio.run(play_console(args.game, args.players, args.seed, args.options,
                                            args.db or settings.database_url, args.resume, args.game_id,
                                            lang=args.lang, web_base_url=settings.web_base_url or
                                            f"http://{settings.web_listen}:{settings.web_port}",
                                            record=args.record))
        except KeyboardInterrupt:
            print("\nBye — the game is saved; continue with --resume.")
            return 0
    if args.command == "web":
        from bot.web.app import serve

        listen, port = args.listen or settings.web_listen, args.port or settings.web_port
        try:
            asyncio.run(serve(args.db or settings.database_url, listen, port))
        except KeyboardInterrupt:
            pass
        return 0
    if args.command == "replay":
        logging.getLogger().setLevel(logging.WARNING)
        from bot.console.replay import replay as replay_console

        try:
            return asyncio.run(replay_console(args.source, args.db or settings.database_url, lang=args.lang))
        except KeyboardInterrupt:
            return 0
    from bot.runner import run_bots

    for option, name in (("webhook_url", "telegram_webhook_url"), ("webhook_port", "telegram_webhook_port"),
                         ("webhook_listen", "telegram_webhook_listen"), ("shards", "discord_shard_ids")):
        if getattr(args, option) is not None:
            setattr(settings, name, getattr(args, option))

    if not (args.discord or args.telegram):
        args.discord = settings.discord_token is not None
        args.telegram = settings.telegram_token is not None
    return asyncio.run(run_bots(settings, discord=args.discord, telegram=args.telegram))


if __name__ == "__main__":
    sys.exit(main())
