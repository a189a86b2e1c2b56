"""Configuration from the environment (pydantic-settings). Tokens are secrets: never printed or logged."""
from __future__ import annotations

from pathlib import Path

from pydantic import SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///herald.db"


def database_url(value: str) -> str:
    """A database URL as SQLAlchemy reads it; a plain file path (``games.db``) means a SQLite file there, since
    that is what a person running the console game usually means."""
    value = value.strip()
    if "://" not in value:
        if not value:
            raise ValueError("the database is empty: give a file path (games.db) or a URL")
        return "sqlite+aiosqlite:///" + str(Path(value).expanduser())
    example = "e.g. sqlite+aiosqlite:///herald.db or postgresql+asyncpg://user:pass@host/db"
    try:
        url = make_url(value)
    except ArgumentError:
        raise ValueError(f"this is not a database URL; {example}") from None
    try:
        url.get_dialect().import_dbapi()
    except NoSuchModuleError:
        raise ValueError(f"{url.drivername!r} is not a database this bot knows; {example}") from None
    except ImportError as e:
        raise ValueError(f"the driver {e.name!r} for {url.drivername} is not installed "
                         "(for PostgreSQL: pip install -e '.[postgres]')") from None
    return value


def shard_ids(value: str | None) -> list[int] | None:
    """``"0,1"`` or ``"2-3"`` (or a mix) → the shard numbers this process connects."""
    if value is None or not str(value).strip():
        return None
    ids: list[int] = []
    for part in str(value).replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ValueError(f"shard ids are numbers like 0,1 or 0-3, not {part!r}")
        ids.extend(range(int(first), int(last or first) + 1))
    return sorted(set(ids))


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", env_ignore_empty=True)

    discord_token: SecretStr | None = None
    telegram_token: SecretStr | None = None
    telegram_base_url: str | None = None
    database_url: str = DEFAULT_DATABASE_URL
    log_level: str = "INFO"
    # Telegram webhook mode (else long polling): the public HTTPS URL Telegram posts updates to, and where this
    # process listens behind it. Replicas behind one URL share the secret (derived from the token if unset).
    telegram_webhook_url: str | None = None
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int = 8080
    telegram_webhook_secret: SecretStr | None = None
    # Discord sharding: the total number of shards and the ones this process connects (all when unset)
    discord_shard_count: int | None = None
    discord_shard_ids: str | None = None
    # seconds a finished game's Discord thread stays open before it is archived and locked
    discord_thread_grace: float = 300.0
    # the most games a process keeps in memory (about 32 KB each); one not in memory is read when next used
    games_in_memory: int = 2000
    # Discord's REST and gateway addresses, for an HTTP proxy shared by many processes (and the tests' fake)
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    # the web pages (python -m bot web): the public address the bots link to, and where the web process listens
    web_base_url: str | None = None
    web_listen: str = "127.0.0.1"
    web_port: int = 8000

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, value: str) -> str:
        return database_url(value)

    @field_validator("games_in_memory")
    @classmethod
    def _games_in_memory(cls, value: int) -> int:
        if value < 1:
            raise ValueError(f"GAMES_IN_MEMORY must be at least 1, not {value}")
        return value

    @field_validator("discord_shard_ids")
    @classmethod
    def _shard_ids(cls, value: str | None) -> str | None:
        shard_ids(value)
        return value

    def shards(self) -> tuple[int | None, list[int] | None]:
        """(shard count, this process's shard ids); (None, None) when Discord is not sharded."""
        ids = shard_ids(self.discord_shard_ids)
        if ids is None and self.discord_shard_count is None:
            return None, None
        count = self.discord_shard_count or (max(ids) + 1)
        if ids is not None and max(ids) >= count:
            raise ValueError(f"DISCORD_SHARD_IDS {self.discord_shard_ids} do not fit DISCORD_SHARD_COUNT {count}")
        return count, ids
