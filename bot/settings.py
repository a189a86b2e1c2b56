"""Configuration from the environment (pydantic-settings). Tokens are secrets: never printed or logged."""
from __future__ import annotations

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///herald.db"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", env_ignore_empty=True)

    discord_token: SecretStr | None = None
    telegram_token: SecretStr | None = None
    telegram_base_url: str | None = None
    database_url: str = DEFAULT_DATABASE_URL
    log_level: str = "INFO"
