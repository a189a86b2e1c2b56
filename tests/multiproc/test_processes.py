"""Two and four real service processes on one database (a SQLite file; PostgreSQL), playing the same games at
once for a bounded time (tests/multiproc/worker.py): no legal move refused, no lock error shown to anyone,
every timer fired once, every acknowledged move stored once, every message delivered — after a ``kill -9`` too.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

import pytest

from bot.service import ChatRef, UserRef, build_service
from storage import UnitOfWork

ROOT = Path(__file__).resolve().parents[2]
# (game, players, options, sleepers): sleepers never act — their turns are played by the timers
# (sleepers sit where a timed-out turn is played at once by the greedy AI: the strong AI's takeover, a chain of
# thinking jobs, is tested in tests/bot/test_ai_turns.py; here it would leave 10 s too short on a loaded machine)
TABLES = [("kardinal", 2, "", 0), ("list_und_tuecke", 4, "", 0), ("koenig_artus", 3, "", 1), ("guyenne", 2, "", 0),
          ("troubadour", 3, "", 1), ("kardinal", 3, "", 1)]


async def set_up(url: str) -> list[int]:
    service = await build_service(url)
    try:
        games = []
        for g, (name, players, options, sleepers) in enumerate(TABLES):
            platform = ("discord", "telegram")[g % 2]
            chat = ChatRef(platform, f"chat{g}", f"league{g}" if platform == "discord" else f"chat{g}", f"table {g}")
            people = [UserRef(platform, f"{g}-{k}", ("zz sleeper" if k < sleepers else "player") + f" {g}.{k}")
                      for k in range(players)]
            if sleepers:
                await service.settings(chat, people[0], "turn_timer=30", is_admin=True)
                # a timed-out turn may be thought by the strong AI: the shortest think keeps the 10 s run busy
                await service.settings(chat, people[0], "ai_time=0.1", is_admin=True)
            lobby = await service.create_lobby(chat, people[0], name, options, seed=100 + g)
            gid = lobby[0].game_id
            for person in people[1:]:
                await service.join(chat, person, game_id=gid)
            for person in people:
                await service.dm_opened(person)
            started = await service.start(chat, people[0], game_id=gid)
            assert not [m for m in started if m.kind == "error"], [m.text for m in started]
            games.append(gid)
        return games
    finally:
        await service.close()


def start_worker(url: str, index: int, count: int, clock: Path, out: Path) -> subprocess.Popen:
    """A worker process: once ready it waits for ``clock`` (``start_clock``) and plays until the time it holds."""
    return subprocess.Popen([sys.executable, "-m", "tests.multiproc.worker", url, str(index), str(count),
                             str(clock), str(out)], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stderr=subprocess.PIPE, text=True)


def start_clock(clock: Path, outs: list[Path], workers: list[subprocess.Popen], seconds: float) -> None:
    """When every worker is ready, give them all the same end: ``seconds`` from now. (A fixed end set before they
    started let a loaded machine's start-up of four processes eat most of the run.)"""
    deadline = time.monotonic() + 120
    while not all(out.exists() and '"ready"' in out.read_text() for out in outs):
        assert time.monotonic() < deadline, "a worker never got ready"
        assert all(w.poll() is None for w in workers), "a worker ended before it was ready"
        time.sleep(0.05)
    written = clock.with_suffix(".tmp")
    written.write_text(str(time.time() + seconds))
    written.rename(clock)  # whole, at once: a worker never reads half of it


def finish(workers: list[subprocess.Popen], timeout: float = 120) -> None:
    """Wait for every worker, reading all their outputs at once (a worker never blocks on a full pipe). If one
    is still running at ``timeout``, every running worker prints its threads' stacks (SIGUSR1, faulthandler) and
    the test fails with them and the file locks each process holds: who waits for whom."""
    errors: dict[int, str] = {}
    readers = [threading.Thread(target=lambda i=i, w=w: errors.__setitem__(i, w.communicate()[1]), daemon=True)
               for i, w in enumerate(workers)]
    for reader in readers:
        reader.start()
    deadline = time.monotonic() + timeout
    for reader in readers:
        reader.join(max(0.0, deadline - time.monotonic()))
    stuck = [i for i, w in enumerate(workers) if w.poll() is None]
    if stuck:
        locks = held_locks(workers)
        for worker in workers:
            if worker.poll() is None:
                worker.send_signal(signal.SIGUSR1)
        time.sleep(2)
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
        for reader in readers:
            reader.join(10)
        stacks = "\n".join(f"--- worker {i} (pid {w.pid}){' STUCK' if i in stuck else ''}:\n{errors.get(i, '')[-5000:]}"
                           for i, w in enumerate(workers))
        raise AssertionError(f"workers {stuck} did not finish in time; file locks:\n{locks}\n{stacks}")
    for i, worker in enumerate(workers):
        if worker.returncode not in (0, -signal.SIGKILL):
            raise AssertionError(f"a worker failed ({worker.returncode}):\n{errors.get(i, '')[-3000:]}")


def held_locks(workers: list[subprocess.Popen]) -> str:
    """The lines of /proc/locks held or awaited by these workers (SQLite's byte locks, the writers' flock)."""
    pids = {str(w.pid) for w in workers}
    try:
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return "(no /proc/locks)"
    return "\n".join(line for line in lines if len(line.split()) > 4 and line.split()[4] in pids
                     or "->" in line and line.split()[5] in pids) or "(none)"


def records(paths) -> dict[str, list]:
    found = defaultdict(list)
    for path in paths:
        log = Path(f"{path}.log")
        if log.exists() and log.read_text().strip():
            found["log"].append(log.read_text()[-4000:])
        for line in Path(path).read_text().splitlines():
            if line.strip():
                record = json.loads(line)
                for key, value in record.items():
                    found[key].append(record if key == "refused" else value)
    return found


async def check(url: str, games: list[int], found: dict[str, list]) -> None:
    assert found["acked"], "no move was played"
    assert not found["error"], (found["error"][:5], found["log"][:3])  # no lock error, no "something went wrong"
    wrong = [r for r in found["refused"] if r["wrong"]]
    assert not wrong, wrong[:5]  # no legal move refused
    service = await build_service(url)
    try:
        async with UnitOfWork(service.db) as uow:
            stored = {}
            for gid in games:
                moves = await uow.games.moves(gid)
                assert [m.seq for m in moves] == list(range(len(moves)))  # each move stored once, in order
                stored[gid] = moves
        # every acknowledged move is in the log, exactly as often as it was acknowledged
        acked = defaultdict(int)
        for gid, seat, action in found["acked"]:
            acked[(gid, seat, json.dumps(action, sort_keys=True))] += 1
        logged = defaultdict(int)
        for gid, moves in stored.items():
            for m in moves:
                if m.by == "player":
                    logged[(gid, m.seat, json.dumps(m.action, sort_keys=True))] += 1
        assert acked == {k: v for k, v in logged.items() if k in acked} and sum(acked.values()) <= sum(logged.values())
        # timers: sleepers' turns were played, and no deadline was fired twice (a reminder repeated before the
        # turn it belongs to was played would show it)
        sleeper_games = [g for g, t in zip(games, TABLES) if t[3]]
        assert all(any(m.by == "timer" for m in stored[g]) for g in sleeper_games)
        pending = await service.pending_outbox()
        assert pending == [], [(m.kind, m.text[:40]) for m in pending[:5]]  # every message went out
        notices = await notice_sequence(service)
        assert any("timeout" in kinds for kinds in notices.values())  # (a late reminder's turn may be unplayed)
        for (gid, user), kinds in notices.items():
            assert "remind remind" not in " ".join(kinds), (gid, user, kinds)
    finally:
        await service.close()


async def notice_sequence(service) -> dict:
    """Per game and sleeper, the timer notices in the order they were written: "remind" at half time, "timeout"
    when the AI played the turn. A sleeper's turn ends only by its timeout, so two reminders in a row mean a
    deadline fired twice."""
    from sqlalchemy import select

    from storage.models import OutboxMessage

    seen = defaultdict(list)
    async with UnitOfWork(service.db) as uow:
        for row in await uow.session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)):
            text = row.payload.get("text") or ""  # a board or hand is stored as its recipe: no text
            if "half of your turn" in text and row.payload["user"][2].startswith("zz"):
                seen[(row.game_id, row.payload["user"][2])].append("remind")
            elif "time ran out" in text and text.startswith("⌛ zz"):
                seen[(row.game_id, text[2:].split("'s time")[0])].append("timeout")
    return seen


@pytest.mark.parametrize("count", [2, 4])
async def test_processes_playing_the_same_games(database_url, tmp_path, count):
    games = await set_up(database_url)
    outs = [tmp_path / f"worker{i}.jsonl" for i in range(count)]
    clock = tmp_path / "clock"
    workers = [start_worker(database_url, i, count, clock, outs[i]) for i in range(count)]
    start_clock(clock, outs, workers, 10)
    finish(workers)
    found = records(outs)
    assert len(found["done"]) == count
    await check(database_url, games, found)
    print(f"{count} processes: {len(found['acked'])} moves acknowledged, {len(found['refused'])} refusals "
          f"(all of moves made stale by another process first), {sum(len(d) for d in found['delivered'])} messages "
          "delivered")


async def test_kill_9_mid_play_then_restart(database_url, tmp_path):
    """One of two processes is killed mid-play; a restarted one takes over its seats: everything it had committed
    but not sent is delivered, and play goes on."""
    games = await set_up(database_url)
    outs = [tmp_path / "worker0.jsonl", tmp_path / "worker1.jsonl", tmp_path / "worker1-restarted.jsonl"]
    clock = tmp_path / "clock"
    survivor = start_worker(database_url, 0, 2, clock, outs[0])
    victim = start_worker(database_url, 1, 2, clock, outs[1])
    start_clock(clock, outs[:2], [survivor, victim], 15)
    deadline = time.monotonic() + 60
    while not (outs[1].exists() and outs[1].read_text().count("acked") >= 5):
        assert time.monotonic() < deadline and victim.poll() is None, "the worker never played"
        time.sleep(0.05)
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    restarted = start_worker(database_url, 1, 2, clock, outs[2])  # the same end as the others
    finish([survivor, restarted])
    found = records(outs)
    assert len(found["done"]) == 2  # the killed one never said done
    await check(database_url, games, found)
