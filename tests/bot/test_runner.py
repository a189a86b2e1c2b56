"""``python -m bot run`` before it connects anywhere: what it refuses (clearly, never with a traceback) and the
line it logs about what it serves."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.runner import describe, filesystem_of, sqlite_network_problem, startup_problem, webhook_secret
from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
MOUNTS = """\
/dev/sda1 / ext4 rw,relatime 0 0
server:/export /mnt/shared nfs4 rw,relatime 0 0
//nas/games /mnt/my\\040games cifs rw 0 0
tmpfs /tmp tmpfs rw 0 0
"""


def settings(**values) -> Settings:
    return Settings(_env_file=None, **values)


def test_filesystem_of_takes_the_deepest_mount():
    assert filesystem_of(Path("/mnt/shared/herald"), MOUNTS) == "nfs4"
    assert filesystem_of(Path("/mnt/my games"), MOUNTS) == "cifs"
    assert filesystem_of(Path("/mnt/sharedother"), MOUNTS) == "ext4"  # a prefix of the name is not the mount
    assert filesystem_of(Path("/tmp/x"), MOUNTS) == "tmpfs"


def test_sqlite_on_a_network_path_is_refused():
    assert "nfs4" in sqlite_network_problem("sqlite+aiosqlite:////mnt/shared/herald.db", MOUNTS)
    assert "cifs" in sqlite_network_problem("sqlite+aiosqlite:////mnt/my games/herald.db", MOUNTS)
    assert "network share" in sqlite_network_problem("sqlite+aiosqlite://///nas/games/herald.db", MOUNTS)
    assert sqlite_network_problem("sqlite+aiosqlite:////home/herald.db", MOUNTS) is None
    assert sqlite_network_problem("postgresql+asyncpg://u:p@db/herald", MOUNTS) is None


def test_missing_tokens_and_bad_shards_are_refused():
    empty = settings()
    assert "DISCORD_TOKEN" in startup_problem(empty, discord=True, telegram=False)
    assert "TELEGRAM_TOKEN" in startup_problem(empty, discord=False, telegram=True)
    assert "nothing to run" in startup_problem(empty, discord=False, telegram=False)
    bad = settings(discord_token="t", discord_shard_ids="2", discord_shard_count=2)
    assert "do not fit" in startup_problem(bad, discord=True, telegram=False)
    with pytest.raises(ValueError):
        settings(discord_token="t", discord_shard_ids="one")
    fine = settings(discord_token="t", discord_shard_ids="0-1,3", discord_shard_count=4,
                    database_url="sqlite+aiosqlite:///herald.db")
    assert fine.shards() == (4, [0, 1, 3]) and startup_problem(fine, discord=True, telegram=False) is None


def test_the_startup_line_names_what_is_served_and_no_secret():
    s = settings(discord_token="discord-secret", telegram_token="123:telegram-secret",
                 database_url="postgresql+asyncpg://herald:pw-secret@db/herald", discord_shard_count=2,
                 discord_shard_ids="1", telegram_webhook_url="https://bot.example.org/tg")
    line = describe(s, discord=True, telegram=True)
    assert "postgresql+asyncpg://herald:***@db/herald" in line
    assert "shards 1 of 2" in line and "webhook https://bot.example.org/tg" in line
    assert not any(secret in line for secret in ("discord-secret", "telegram-secret", "pw-secret"))
    polling = describe(settings(telegram_token="1:x"), discord=False, telegram=True)
    assert "long polling" in polling
    # replicas behind one URL agree on the webhook's secret without being told it; it is not the token
    assert webhook_secret(s) == webhook_secret(settings(telegram_token="123:telegram-secret"))
    assert "telegram-secret" not in webhook_secret(s)


@pytest.mark.parametrize("env, expected", [
    ({}, "--discord needs DISCORD_TOKEN"),
    ({"DISCORD_TOKEN": "x", "DATABASE_URL": "mongodb://nowhere/db"}, "is not a database this bot knows"),
    ({"DISCORD_TOKEN": "x", "DATABASE_URL": "sqlite+aiosqlite://///nas/share/herald.db"}, "network share"),
])
def test_python_m_bot_run_refuses_in_one_line(env, expected, tmp_path):
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD", "TELEGRAM", "DATABASE"))}
    done = subprocess.run([sys.executable, "-m", "bot", "run", "--discord"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60, env={**clean, "PYTHONPATH": str(ROOT), **env})
    assert done.returncode == 2
    output = done.stdout + done.stderr
    assert expected in output and "Traceback" not in output, output


def test_a_second_process_polling_the_same_bot_is_named_once(caplog):
    from telegram.error import Conflict, NetworkError

    from bot import runner

    runner._told_conflict = False
    conflict = Conflict("terminated by other getUpdates request; make sure that only one bot instance is running")
    for _ in range(3):
        runner.polling_error(conflict)
    runner.polling_error(NetworkError("connection reset"))
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and "webhook mode" in errors[0]
    assert any("connection reset" in r.getMessage() for r in caplog.records if r.levelname == "WARNING")


def test_tokens_are_redacted_from_every_log_line():
    import io
    import logging

    from bot.__main__ import keep_secrets_out_of_logs

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        keep_secrets_out_of_logs(settings(telegram_token="123:SECRET", discord_token="disc.secret"))
        logging.getLogger("some.library").warning("GET https://api.telegram.org/bot%s/getMe failed", "123:SECRET")
        logging.getLogger("other").error("token disc.secret refused")
        logging.getLogger("httpx").info("HTTP Request: POST https://api.telegram.org/bot123:SECRET/getUpdates")
    finally:
        root.removeHandler(handler)
    text = stream.getvalue()
    assert "SECRET" not in text and "disc.secret" not in text
    assert "bot***/getMe failed" in text and "token *** refused" in text
    assert "HTTP Request" not in text  # httpx speaks only of warnings
