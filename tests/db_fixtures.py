"""Database fixtures: every storage, service, league and adapter test runs on a real SQLite file and, where its server exists, PostgreSQL."""
from __future__ import annotations

import pytest

from tests.storage import postgres


@pytest.fixture(scope="session")
def postgres_server():
    if not postgres.available():
        pytest.skip("PostgreSQL server binaries are not installed")
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        pytest.skip("asyncpg is not installed")
    with postgres.temporary_postgres() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
async def database_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path}/herald.db"
        return
    base = request.getfixturevalue("postgres_server")
    # a fresh database per test, so each starts from an empty schema
    import asyncpg

    name = f"t_{abs(hash(request.node.nodeid)) % 10**12}"
    dsn = base.replace("postgresql+asyncpg", "postgresql")
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    yield base.rsplit("/", 1)[0] + "/" + name
