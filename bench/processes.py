"""``python -m bench.processes``: the service in 1, 2 and 4 processes on one database, SQLite and PostgreSQL side by
side: committed moves per second and the time of a ``MakeMove`` through the bus (p50, p99).

Two ways to share the games, each as quickly as the games let it:

- **own games**: each process plays whole games (game ``g`` belongs to process ``g % N``), as when each Discord
  shard serves its servers;
- **shared games**: seat ``s`` of game ``g`` belongs to process ``(g + s) % N``, so every move is followed by one
  from another process (the worst case: a copy in memory is always stale, writes meet each other's locks).

Every move is judged against the stored game, version-checked, group-committed with its outbox rows. PostgreSQL is a throwaway server started for the run (the tests' helper)
unless ``--postgres URL`` names one.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLES = [("kardinal", 2), ("list_und_tuecke", 4), ("koenig_artus", 3), ("guyenne", 2), ("troubadour", 2)]


async def set_up(url: str, games: int) -> None:
    from bot.service import ChatRef, UserRef, build_service

    service = await build_service(url)
    try:
        for g in range(games):
            name, players = TABLES[g % len(TABLES)]
            chat = ChatRef("discord", f"bench{g}", "bench", f"table {g}")
            people = [UserRef("discord", f"{g}-{k}", f"P{g}.{k}") for k in range(players)]
            gid = (await service.create_lobby(chat, people[0], name, seed=g))[0].game_id
            for person in people[1:]:
                await service.join(chat, person, game_id=gid)
            await service.start(chat, people[0], game_id=gid)
    finally:
        await service.close()


async def work(url: str, index: int, count: int, go: Path, shared: bool) -> dict:
    """One process: once every process is ready (``go`` names the end time), act for its seats until then."""
    import rules
    from bot.service import ChatRef, UserRef, build_service
    from bot.service.commands import MakeMove
    from storage import UnitOfWork

    service = await build_service(url)
    rng = random.Random(index)
    times: list[float] = []
    refused = 0

    async def act(chat, user, gid, action):
        nonlocal refused
        start = time.perf_counter()
        answer = await service.handle(MakeMove(user, chat, action, gid))  # as an adapter hands it over
        times.append(time.perf_counter() - start)
        refused += any(m.kind == "error" for m in answer)

    Path(f"{go}.{index}").touch()  # ready
    while not go.exists() or not go.read_text():
        await asyncio.sleep(0.01)
    until = float(go.read_text())
    try:
        while time.time() < until:
            async with UnitOfWork(service.db, readonly=True) as uow:
                rows = await uow.games.with_status(("active",))
                games = [(r.id, r.game, r.state, {s.seat: s.player for s in r.seats},
                          (await uow.chats.get(r.chat_id)).external_id) for r in rows]
            calls = []
            for gid, name, data, seats, chat_id in games:
                state = rules.get_game(name).from_json(data)
                for seat in state.to_act():
                    if ((gid + seat) if shared else gid) % count == index:
                        player = seats[seat]
                        chat = ChatRef("discord", chat_id, "bench")
                        calls.append(act(chat, UserRef(player.platform, player.external_id, player.name), gid,
                                         rng.choice(state.legal_actions(seat))))
            if not calls:
                if not games:
                    break
                await asyncio.sleep(0.01)
                continue
            await asyncio.gather(*calls)
    finally:
        await service.close()
    return {"times": times, "refused": refused}


def run(url: str, processes: int, games: int, seconds: float, shared: bool) -> dict:
    asyncio.run(set_up(url, games))
    with tempfile.TemporaryDirectory() as tmp:
        outs = [Path(tmp) / f"{i}.json" for i in range(processes)]
        go = Path(tmp) / "go"
        workers = [subprocess.Popen([sys.executable, "-m", "bench.processes", "--worker", url, str(i),
                                     str(processes), str(go), str(outs[i]), "shared" if shared else "own"],
                                    cwd=ROOT)
                   for i in range(processes)]
        while not all(Path(f"{go}.{i}").exists() for i in range(processes)):  # imports, migrations
            time.sleep(0.01)
        go.write_text(str(time.time() + seconds))  # the clock runs once every process is ready
        for worker in workers:
            worker.wait()
        results = [json.loads(out.read_text()) for out in outs if out.exists()]
    times = sorted(t for r in results for t in r["times"])
    acted = len(times) - sum(r["refused"] for r in results)
    return {"moves_s": acted / seconds, "p50": _q(times, 0.5), "p99": _q(times, 0.99),
            "refused": sum(r["refused"] for r in results)}


def _q(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", default="1,2,4")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--postgres", help="a PostgreSQL URL (postgresql+asyncpg://…) to use instead of a throwaway")
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--worker", nargs=6, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        url, index, count, go, out, mode = args.worker
        result = asyncio.run(work(url, int(index), int(count), Path(go), mode == "shared"))
        Path(out).write_text(json.dumps(result))
        return
    counts = [int(n) for n in args.processes.split(",")]
    rows: dict[str, dict[int, dict]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for shared in (False, True):
            for n in counts:
                url = f"sqlite+aiosqlite:///{tmp}/bench{n}{shared}.db"
                rows.setdefault(("SQLite", shared), {})[n] = run(url, n, args.games, args.seconds, shared)
    if not args.no_postgres:
        for (n, shared), url in _postgres_urls(args.postgres, [(n, s) for s in (False, True) for n in counts]):
            rows.setdefault(("PostgreSQL", shared), {})[n] = run(url, n, args.games, args.seconds, shared)
    load = os.getloadavg()
    print(f"{args.games} games, {args.seconds:g} s per run, {os.cpu_count()} cores, load {load[0]:.1f} {load[1]:.1f}; "
          f"committed moves/s, act p50/p99")
    print(f"{'':25}" + "".join(f"{f'{n} process' + ('es' if n > 1 else ''):>26}" for n in counts))
    for (name, shared), by_count in rows.items():
        label = f"{name}, {'shared' if shared else 'own'} games"
        print(f"{label:25}" + "".join(
            f"{by_count[n]['moves_s']:>8.0f} moves/s {by_count[n]['p50']:>5.1f}/{by_count[n]['p99']:>6.1f} ms"
            for n in counts))
    print("(refused moves — made stale by another process first — count in the times, not in moves/s: " +
          ", ".join(f"{name} {'shared' if shared else 'own'} {sum(r['refused'] for r in by.values())}"
                    for (name, shared), by in rows.items()) + ")")


def _postgres_urls(url: str | None, runs: list[tuple[int, bool]]):
    """A fresh database per run, on the given server or a throwaway one."""
    import asyncpg

    def fresh(base: str, name: str) -> str:
        async def make():
            conn = await asyncpg.connect(base.replace("postgresql+asyncpg", "postgresql"))
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            await conn.execute(f'CREATE DATABASE "{name}"')
            await conn.close()
        asyncio.run(make())
        return base.rsplit("/", 1)[0] + "/" + name

    if url:
        for n, shared in runs:
            yield (n, shared), fresh(url, f"bench_processes_{n}_{int(shared)}")
        return
    try:
        sys.path.insert(0, str(ROOT))
        from tests.storage import postgres
    except ImportError:
        print("(no PostgreSQL: pass --postgres URL)")
        return
    if not postgres.available():
        print("(no PostgreSQL server binaries here: pass --postgres URL)")
        return
    with postgres.temporary_postgres() as base:
        for n, shared in runs:
            yield (n, shared), fresh(base, f"bench_processes_{n}_{int(shared)}")


if __name__ == "__main__":
    main()
