"""A throwaway PostgreSQL server for tests: initdb in a temporary directory, a free port, stopped afterwards.

Used when the PostgreSQL server binaries are on the machine (``initdb`` on PATH or in
/usr/lib/postgresql/*/bin); as root the server runs as the ``postgres`` user, since it refuses root.
"""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from contextlib import contextmanager


def _bin_dir() -> str | None:
    found = shutil.which("initdb")
    if found:
        return os.path.dirname(os.path.realpath(found))
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return os.path.dirname(candidates[-1]) if candidates else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def available() -> bool:
    if _bin_dir() is None:
        return False
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return False
    return True


@contextmanager
def temporary_postgres():
    """Yield an asyncpg URL of a fresh, empty database."""
    bindir = _bin_dir()
    root = tempfile.mkdtemp(prefix="herald-pg-")
    data = os.path.join(root, "data")
    prefix: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(root, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    port = _free_port()
    run = lambda *args: subprocess.run(prefix + list(args), check=True, capture_output=True)  # noqa: E731
    try:
        run(f"{bindir}/initdb", "-D", data, "-U", "herald", "--auth=trust", "-E", "UTF8")
        run(f"{bindir}/pg_ctl", "-D", data, "-w", "-l", os.path.join(root, "log"), "-o",
            f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off", "start")
        try:
            yield f"postgresql+asyncpg://herald@127.0.0.1:{port}/postgres"
        finally:
            run(f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "stop")
    finally:
        shutil.rmtree(root, ignore_errors=True)
