"""Start-up and memory of a fresh process against the active games stored, and the first move in a game that is
not in memory against one that is (issue #38).

For each count of active games (default 0, 10,000 and 100,000) a SQLite file is made by cloning one started
game's rows (``INSERT … SELECT``: the game, its seats and its log; no timers), and a fresh process (a
subprocess, so its memory is its own) runs ``build_service`` on it and reports:

* start: seconds of ``build_service`` (opening and migrating the database, and whatever it reads);
* RSS: the process's resident memory after the start (``VmRSS``), and the games it then holds in memory;
* first move: a ``MakeMove`` through the bus in games it does not hold (the move pays the read of the game)
  against the same move in games it loaded beforehand (untimed), median of ``--moves`` games each.

A start that outlasts ``--timeout`` is stopped and reported with the memory it had reached.

    python -m bench.startup                           # König Artus, 4 seats; 0, 10,000 and 100,000 games
    python -m bench.startup --counts 0 2000 --game kardinal --timeout 120
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TEMPLATES = 1  # the game made through the service; every other game is a clone of it


def rss_mb(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def url_of(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


# ---------------------------------------------------------------- the stored games
async def make_template(path: Path, game_name: str) -> None:
    """A database with ``TEMPLATES`` started game(s) of four people (no turn timers) in one chat."""
    from bench.service import players_for
    from bot.service import ChatRef, UserRef, build_service

    service = await build_service(url_of(path))
    try:
        chat = ChatRef("bench", "chat0", "bench", None)
        await service.settings(chat, UserRef("bench", "admin", "admin"), "turn_timer=0", is_admin=True)
        users = [UserRef("bench", f"p{s}", f"P{s}") for s in range(players_for(game_name))]
        for index in range(TEMPLATES):
            lobby = await service.create_lobby(chat, users[0], game_name, seed=index)
            gid = lobby[0].game_id
            for user in users[1:]:
                await service.join(chat, user, game_id=gid)
            started = await service.start(chat, users[0], game_id=gid)
            if started and started[0].kind == "error":
                raise RuntimeError(started[0].text)
    finally:
        await service.close()


def clone_games(path: Path, count: int) -> None:
    """``count`` more active games, each a copy of game 1 (its row, seats and log), in a few SQL statements."""
    if count <= 0:
        return
    db = sqlite3.connect(path)
    try:
        def columns(table: str) -> list[str]:
            return [row[1] for row in db.execute(f"PRAGMA table_info({table})") if row[1] != "id"]

        games = columns("games")
        db.execute(f"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
                   f"INSERT INTO games ({', '.join(games)}) SELECT {', '.join('g.' + c for c in games)} "
                   f"FROM games g, n WHERE g.id = 1", (count,))
        for table in ("seats", "moves"):
            cols = [c for c in columns(table) if c != "game_id"]
            db.execute(f"INSERT INTO {table} (game_id, {', '.join(cols)}) "
                       f"SELECT g.id, {', '.join('t.' + c for c in cols)} FROM games g, {table} t "
                       f"WHERE t.game_id = 1 AND g.id > ?", (TEMPLATES,))
        db.commit()
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()


# ---------------------------------------------------------------- the fresh process
async def child(path: Path, moves: int) -> dict:
    from bot.service import build_service
    from bot.service.commands import MakeMove

    gc.collect()
    before = rss_mb()
    t0 = time.perf_counter()
    service = await build_service(url_of(path))
    start = time.perf_counter() - t0
    gc.collect()
    result = {"start_s": start, "rss_mb": rss_mb(), "rss_before_mb": before, "in_memory": len(service.ctx.games)}
    try:
        games = service.ctx.games
        async with service.ctx.uow(readonly=True) as uow:  # the move every clone's seat to act can make
            ids = [row.id for row in await uow.games.with_status(("active",))]
            live = await games.get(uow, ids[-1])
        seat = live.state.to_act()[0]
        user, action = live.seats[seat].user, live.state.legal_actions(seat)[0]
        cold_ids, warm_ids = ids[:moves], ids[moves:2 * moves]
        async with service.ctx.uow(readonly=True) as uow:
            for gid in warm_ids:
                await games.get(uow, gid)
        timings: dict[str, list[float]] = {"cold": [], "warm": []}
        cold_in_memory = sum(gid in games for gid in cold_ids)
        for cold, warm in zip(cold_ids, warm_ids):  # alternated, so both meet the same machine
            for kind, gid in (("cold", cold), ("warm", warm)):
                t0 = time.perf_counter()
                out = await service.handle(MakeMove(user, live.chat, action, gid))
                timings[kind].append(time.perf_counter() - t0)
                if out and out[0].kind == "error":
                    raise RuntimeError(out[0].text)
        result.update(cold_ms=statistics.median(timings["cold"]) * 1e3,
                      warm_ms=statistics.median(timings["warm"]) * 1e3, cold_were_in_memory=cold_in_memory,
                      moves=len(timings["cold"]))
    finally:
        await service.close()
    return result


def measure(path: Path, moves: int, timeout: float) -> dict:
    """Run the fresh process; a start that outlasts ``timeout`` is stopped with the memory it reached."""
    with tempfile.TemporaryFile("w+") as out:
        process = subprocess.Popen([sys.executable, "-m", "bench.startup", "--child", str(path), "--moves", str(moves)],
                                   stdout=out, cwd=Path(__file__).resolve().parent.parent)
        t0 = time.perf_counter()
        peak = 0.0
        while process.poll() is None:
            if time.perf_counter() - t0 > timeout:
                peak = max(peak, rss_mb(process.pid))
                process.kill()
                process.wait()
                return {"timeout_s": timeout, "rss_mb": peak}
            try:
                peak = max(peak, rss_mb(process.pid))
            except (FileNotFoundError, ProcessLookupError):
                pass
            time.sleep(0.2)
        if process.returncode != 0:
            raise RuntimeError(f"the measuring process failed ({process.returncode})")
        out.seek(0)
        return json.loads(out.read().strip().splitlines()[-1])


def show(count: int, r: dict) -> str:
    if "timeout_s" in r:
        return (f"{count:>8,}  start > {r['timeout_s']:.0f} s (stopped, still loading; RSS then "
                f"{r['rss_mb']:.0f} MB)")
    return (f"{count:>8,}  start {r['start_s']:6.2f} s   RSS {r['rss_mb']:5.0f} MB (before start "
            f"{r['rss_before_mb']:.0f})   games in memory {r['in_memory']:>7,}   first move: not in memory "
            f"{r['cold_ms']:6.2f} ms, in memory {r['warm_ms']:6.2f} ms (+{r['cold_ms'] - r['warm_ms']:.2f}; "
            f"{r['cold_were_in_memory']}/{r['moves']} 'not in memory' games were held already)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counts", type=int, nargs="+", default=[0, 10_000, 100_000], help="active games stored")
    parser.add_argument("--game", default="koenig_artus")
    parser.add_argument("--moves", type=int, default=20, help="games moved in, each way")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds a start may take before it is stopped")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(asyncio.run(child(args.child, args.moves))))
        return
    with tempfile.TemporaryDirectory(prefix="herald-startup-") as tmp:
        template = Path(tmp) / "template.db"
        asyncio.run(make_template(template, args.game))
        db = sqlite3.connect(template)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all of it in the file that is copied
        db.close()
        print(f"{args.game}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; active games stored (at least "
              f"{2 * args.moves + TEMPLATES}: the moves need them):", flush=True)
        for count in args.counts:
            path = Path(tmp) / f"games-{count}.db"
            shutil.copy(template, path)
            t0 = time.perf_counter()
            clones = max(count - TEMPLATES, 2 * args.moves)
            clone_games(path, clones)
            made = time.perf_counter() - t0
            result = measure(path, args.moves, args.timeout)
            print(show(TEMPLATES + clones, result) + f"   [rows made in {made:.1f} s, {path.stat().st_size / 2**20:.0f} MB]",
                  flush=True)
            path.unlink()


if __name__ == "__main__":
    main()
