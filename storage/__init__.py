"""Persistence: SQLAlchemy 2 (async) models, a unit of work with repositories, Alembic migrations.

Nothing here is SQLite-only: the same code runs on PostgreSQL with another DATABASE_URL.
"""
from storage.db import Database, DatabaseUnavailable, open_database
from storage.health import StorageUnavailable
from storage.uow import UnitOfWork, StaleVersion

__all__ = ["Database", "DatabaseUnavailable", "open_database", "UnitOfWork", "StaleVersion", "StorageUnavailable"]
