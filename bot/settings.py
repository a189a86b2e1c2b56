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


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", env_ignore_empty=True)

    discord_token: SecretStr | None = None
    telegram_token: SecretStr | None = None
    telegram_base_url: str | None = None
    database_url: str = DEFAULT_DATABASE_URL
    log_level: str = "INFO"

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, value: str) -> str:
        return database_url(value)
