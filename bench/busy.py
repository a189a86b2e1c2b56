"""The five figures of a busy server, side by side in one run (issue 24's table):

1. the floor: a bare aiosqlite transaction with the service's pragmas (WAL, synchronous=NORMAL, BEGIN IMMEDIATE)
   that writes the same snapshot version-checked and appends one log row — what the database itself costs;
2. the service's overhead per move, one game at a time (a ``MakeMove`` through the bus minus the engine's own work), p50/p99 and
   the ratio of its p50 to the floor;
3. 100 games moving at once, text only: committed moves/s and act p50;
4. one board picture per game, p50/max (drawn and encoded in this process, warm caches);
5. 100 games moving at once with pictures on, as on the platforms: every message goes through a per-chat
   ``Delivery`` (coalescing by slot) whose send costs nothing; moves/s counts until every message is delivered,
   so pictures drawn count, pictures superseded before sending do not.

    python -m bench.busy                    # the default game, then pictures of every game
    python -m bench.busy --game kardinal --games 100 --moves 30 --workers 1 2

Figures (König Artus, 4 seats, 100 games × 30 moves) on this 2-core host. The issue's own column, then the third
round (h-perf3, load 2–4) and the fourth (session 11, a quiet machine, load 0.4–0.9):

    figure                                  issue 24 (quiet)      third round (load 2–4)    fourth round (load 0.4–0.9)
    bare commit floor p50                   0.40 ms               0.15 ms                   0.35 ms
    quiet overhead p50/p99 (×floor)         2.34 / 3.06 (5.8×)    0.51 / 0.70 ms (3.3×)     0.54 / 1.04 ms (1.6×)
    the loop's CPU per act p50              —                     0.37 ms                   0.38 ms
    100 games, text only                    1,787 moves/s         1,010 moves/s             1,068 moves/s
    one picture p50 / max (worst game)      6.5–18 ms / —         1.9 / 8.8 ms              2.0 / 4.1 ms
    100 games, pictures on, 1 / 2 workers   30 moves/s            823 / 832 moves/s         1,027 / 1,077 moves/s
    100 games, text only, 1 / 2 processes   —                     959 / 1,108 moves/s       1,125 / 2,208 moves/s

The floor is what a woken thread costs: on a quiet machine each of its four hops to aiosqlite's thread wakes a
sleeping core (~0.07 ms), at load 2–4 a core is awake and the same floor measured 0.15 ms; the service pays one
hop, so its ratio to the floor is best on a quiet machine (the issue's table is one) and worst on a busy one.
The text-only figure counts a move once its ~6 messages are rendered and delivered (0.32 ms of the loop's CPU a
move); committed moves alone, the messages left in the outbox, make 2,712 moves/s (``python -m bench.service
--game koenig_artus``). The issue's 1,787 came from its own harness (game and seats not stated).

What changed in the third round: a hand's narration is told when it is rendered (at sending, never for a hand
superseded first), not on the move's path; the lean write converts a value its rows share once and dumps JSON
without orjson's slower non-string-key option; the outbox stores a view once (not again in the picture
request); and SQLite's WAL is checkpointed in the background (storage/checkpoint.py): 3 % of quiet moves had
checkpointed in their commit (11–18 ms) — the whole p99 of the commit (11.5 ms → 0.22 ms in SQLite's thread).
Skipping the views of seats whose view cannot have changed saves nothing here: bench.view_changes finds a move
leaves a seat's view unchanged in 0 % of cases (Guyenne teams of 3: 0.3–0.6 %), every view showing the table.
In the fourth: processes' batch writes queue on an flock (storage/writers.py) instead of SQLite's busy sleeps
(BEGIN IMMEDIATE waited p90 11–18 ms, max 230 ms, between two processes; two processes now make 1.9–2.0× one).

Why 5,000 moves/s text only is not met on this host, and how it scales. One process's event loop spends ~0.8 ms
of CPU a move, the whole process ~0.95 ms (so one core makes ~1,100 moves/s): the move itself ~0.38 ms (the
engine's apply, clone and snapshot 0.04, five views 0.04, the messages' recipes 0.07, the outbox rows and their
JSON 0.08, the rest — judging, the group commit, the pool's checkout, the hop's own Python — ~0.15), rendering
the ~6 messages a move tells (the board, four hands, the turn line) when they are sent 0.32, and the delivery
queues ~0.1; SQLite's own work, ~0.14 ms a move, runs in its thread. No single item is large enough that
removing it would make 5,000 on one core: that needs ~4.5 cores of processes, each playing its own games (Discord
shards, Telegram webhook replicas), and they scale: 1 process 1,125 moves/s on one core, 2 processes 2,208 on two
(1.96×, the processes' CPU 1.83 cores). Four processes on two cores only take turns on them. Pictures drawn in
the pool leave the loop: 1 and 2 workers are alike when the machine is quiet; under load 2 workers take the
loop's core in turns, so 1 worker (a core each but the loop's) is the default on 2 cores.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import rules
from bench import pictures as picture_bench
from bench.service import open_tables, percentile, play
from bot.delivery import Delivery
from bot.render import boards
from bot.service import ChatRef, UserRef, build_service


async def _service(path: Path, pictures: bool, workers: int | None):
    kwargs = {"pictures": pictures}
    if workers is not None:
        kwargs["picture_workers"] = workers
    try:
        service = await build_service(f"sqlite+aiosqlite:///{path}", **kwargs)
    except TypeError:  # a service without a picture pool (before issue 24)
        service = await build_service(f"sqlite+aiosqlite:///{path}", pictures=pictures)
    for i in range(10):  # no turn timers: moves, not timer bookkeeping
        await service.settings(ChatRef("bench", f"chat{i}", "bench"), UserRef("bench", "admin", "admin"),
                               "turn_timer=0", is_admin=True)
    return service


async def floor(path: Path, game_name: str, rounds: int) -> dict[str, list[float]]:
    """Seconds per bare transaction (``floor``): BEGIN IMMEDIATE, version-checked UPDATE of the snapshot, one
    INSERT, COMMIT — four awaits, each a hop to aiosqlite's thread and back. Interleaved with it, what it is made
    of: ``hop``, one round trip to the thread that does nothing (``SELECT 1``); ``one_hop``, the same transaction
    handed to the thread in one call (as storage/lean.py does); ``sqlite``, that transaction's own time in the
    thread (SQLite's work: no hop)."""
    import aiosqlite

    service = await _service(path, False, None)
    gid, _ = (await open_tables(service, game_name, 1, 90_000))[0]
    live = service.ctx.games.loaded(gid)
    state = live.state
    seat = state.to_act()[0]
    action = state.legal_actions(seat)[0]
    events = [e.to_json() for e in state.clone().apply(seat, action)]
    snapshot = json.dumps(state.to_json())
    await service.close()
    times: dict[str, list[float]] = {"floor": [], "hop": [], "one_hop": [], "sqlite": []}
    update = "UPDATE games SET state = ?, version = ?, status = ?, updated_at = ? WHERE id = ? AND version = ?"
    insert = ("INSERT INTO moves (game_id, seq, seat, action, events, by, created_at) "
              "VALUES (?, ?, ?, ?, ?, ?, ?)")

    def whole(connection, version: int, seq: int) -> float:  # in aiosqlite's thread: no hop between statements
        start = time.perf_counter()
        now = datetime.now(timezone.utc).isoformat()
        connection.execute("BEGIN IMMEDIATE")
        assert connection.execute(update, (snapshot, version + 1, "active", now, gid, version)).rowcount == 1
        connection.execute(insert, (gid, seq, seat, json.dumps(action), json.dumps(events), "player", now))
        connection.execute("COMMIT")
        return time.perf_counter() - start

    async with aiosqlite.connect(path, isolation_level=None) as db:
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=5000"):
            await db.execute(f"PRAGMA {pragma}")
        version = (await (await db.execute("SELECT version FROM games WHERE id = ?", (gid,))).fetchone())[0]
        seq = 10_000
        for i in range(rounds):
            start = time.perf_counter()
            now = datetime.now(timezone.utc).isoformat()
            await db.execute("BEGIN IMMEDIATE")
            done = await db.execute(update, (snapshot, version + 1, "active", now, gid, version))
            assert done.rowcount == 1
            await db.execute(insert, (gid, seq, seat, json.dumps(action), json.dumps(events), "player", now))
            await db.execute("COMMIT")
            times["floor"].append(time.perf_counter() - start)
            version, seq = version + 1, seq + 1
            start = time.perf_counter()
            await db.execute("SELECT 1")
            times["hop"].append(time.perf_counter() - start)
            start = time.perf_counter()
            times["sqlite"].append(await db._execute(whole, db._connection, version, seq))
            times["one_hop"].append(time.perf_counter() - start)
            version, seq = version + 1, seq + 1
    return times


async def quiet(path: Path, game_name: str, tables: int, moves: int,
                writes: dict[str, list[float]] | None = None) -> tuple[list[float], list[float]]:
    """Service overhead per move (act minus twice the engine's apply), one game at a time; and the event loop's
    CPU time of each act (its own work, without the waits for the database's thread). ``writes``: filled with
    each commit's ``sqlite`` time (SQLite's own work, in aiosqlite's thread) and ``write`` time (the same seen
    from the event loop: the hop there and back included), timed around storage/lean.py's transaction."""
    from storage import lean

    service = await _service(path, False, None)
    over: list[float] = []
    cpu: list[float] = []
    transaction, run = lean._transaction, lean.run
    if writes is not None:
        def timed_transaction(connection, steps, *args, **kwargs):
            start = time.perf_counter()
            try:
                return transaction(connection, steps, *args, **kwargs)
            finally:
                writes.setdefault("sqlite", []).append(time.perf_counter() - start)

        async def timed_run(db, statements):
            start = time.perf_counter()
            try:
                return await run(db, statements)
            finally:
                writes.setdefault("write", []).append(time.perf_counter() - start)

        lean._transaction, lean.run = timed_transaction, timed_run
    try:
        for gid, chat in await open_tables(service, game_name, tables, 10_000):
            await play(service, gid, chat, moves, random.Random(gid), [], over, cpu)
    finally:
        lean._transaction, lean.run = transaction, run
        await service.close()
    return over, cpu


async def loaded(path: Path, game_name: str, games: int, moves: int, pictures: bool,
                 workers: int | None, profile=None, first: int = 0, before_clock=None) -> dict:
    """``games`` games moving at once; every returned message goes through a Delivery (send costs nothing).
    ``profile``: a ``cProfile.Profile`` enabled while the games move and their messages are delivered;
    ``first``: the number of the first table (processes sharing a database each open their own);
    ``before_clock``: awaited once the tables are open, just before the clock starts."""
    service = await _service(path, pictures, workers)
    pool = getattr(service, "pictures_pool", None)
    if pictures and pool is not None and hasattr(pool, "ready"):
        await pool.ready()  # workers started and warm before the clock starts

    rendering = [0.0]  # the loop's CPU spent rendering messages at delivery

    async def send(message, meta, pace):
        await pace()

    async def finish(message):  # as the platform adapters' deliveries do: rendered and drawn only when really sent
        started = time.thread_time()
        await service.finish_one(message)
        rendering[0] += time.thread_time() - started

    delivery = Delivery(send, on_delivered=service.marks.delivered, on_queued=service.marks.holding, name="bench",
                        prepare=finish)
    drawn_before = getattr(pool, "drawn", 0)
    tables = await open_tables(service, game_name, games, first)
    if before_clock is not None:
        await before_clock()
    latencies: list[float] = []

    class Submitting:  # as an adapter: play() hands a command to the bus, its messages go to the delivery queues
        def __init__(self, inner):
            self.inner = inner
            self.ctx = inner.ctx

        async def handle(self, command):
            out = await self.inner.handle(command)
            delivery.submit([m for m in out if m.kind != "error"])
            return out

    if profile is not None:
        profile.enable()
    start, loop_cpu, process_cpu = time.perf_counter(), time.thread_time(), time.process_time()
    counts = await asyncio.gather(*[play(Submitting(service), gid, chat, moves, random.Random(gid), latencies, [])
                                    for gid, chat in tables])
    moved = time.perf_counter() - start
    await delivery.idle()
    elapsed = time.perf_counter() - start
    if profile is not None:
        profile.disable()
    loop_cpu, process_cpu = time.thread_time() - loop_cpu, time.process_time() - process_cpu
    figures = {"moves": sum(counts), "moves_per_s": sum(counts) / elapsed, "act_p50": percentile(latencies, 50),
               "act_p99": percentile(latencies, 99), "moving_s": moved, "elapsed_s": elapsed,
               "sent": delivery.sent, "superseded": delivery.superseded,
               "drawn": getattr(pool, "drawn", 0) - drawn_before,
               "loop_cpu_ms": loop_cpu / max(1, sum(counts)) * 1e3,
               "process_cpu_ms": process_cpu / max(1, sum(counts)) * 1e3,
               "render_cpu_ms": rendering[0] / max(1, sum(counts)) * 1e3,
               }
    await delivery.close()
    await service.close()
    return figures


def picture_figures(names: list[str], states: int) -> dict[str, dict]:
    boards.warm(names)
    return {name: picture_bench.bench_game(name, picture_bench.sample_views(name, states)) for name in names}


async def _process_worker(path: Path, game_name: str, games: int, moves: int, index: int, go: Path,
                          out: Path) -> None:
    """One of ``processes``' processes: its own tables, then all move at once when ``go`` appears."""
    async def wait_for_go():
        Path(f"{go}.{index}").touch()
        while not go.exists():
            await asyncio.sleep(0.005)

    figures = await loaded(path, game_name, games, moves, False, None, first=100_000 * (index + 1),
                           before_clock=wait_for_go)
    out.write_text(json.dumps(figures))


def processes(path: Path, game_name: str, games: int, moves: int, count: int) -> dict:
    """Text only, ``games`` games in ``count`` processes on one SQLite file (each its own games, as Discord
    shards): committed moves/s of them all together, from the first move to the last message delivered."""
    import subprocess
    import sys

    asyncio.run(_migrated(path))
    go = path.with_suffix(".go")
    outs = [path.with_suffix(f".{i}.json") for i in range(count)]
    per = games // count
    children = [subprocess.Popen([sys.executable, "-m", "bench.busy", "--worker", str(path), game_name, str(per),
                                  str(moves), str(i), str(go), str(outs[i])]) for i in range(count)]
    while not all(Path(f"{go}.{i}").exists() for i in range(count)):
        if any(c.poll() is not None for c in children):
            raise RuntimeError("a bench process ended before it was ready")
        time.sleep(0.01)
    go.touch()
    for child in children:
        child.wait()
    results = [json.loads(out.read_text()) for out in outs]
    moved = sum(r["moves"] for r in results)
    slowest = max(r["elapsed_s"] for r in results)
    cpu = sum(r["process_cpu_ms"] * r["moves"] for r in results) / 1e3  # seconds of CPU of all the processes
    return {"moves_per_s": moved / slowest, "act_p50": statistics.median(r["act_p50"] for r in results),
            "loop_cpu_ms": statistics.mean(r["loop_cpu_ms"] for r in results), "cores_busy": cpu / slowest}


async def _migrated(path: Path) -> None:
    service = await build_service(f"sqlite+aiosqlite:///{path}")
    await service.close()


def _load() -> str:
    return "load {:.1f}".format(os.getloadavg()[0])


async def main_async(args) -> None:
    loads = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        bare = await floor(tmp / "floor.db", args.game, args.floor)
        loads["floor"] = _load()
        writes: dict[str, list[float]] = {}
        over, cpu = await quiet(tmp / "quiet.db", args.game, 5, args.moves, writes)
        loads["quiet"] = _load()
        text = await loaded(tmp / "text.db", args.game, args.games, args.moves, False, None)
        loads["text"] = _load()
        drawn = picture_figures(args.pictures, args.states)
        loads["pictures"] = _load()
        with_pictures = {}
        for w in args.workers:
            with_pictures[w] = await loaded(tmp / f"pictures{w}.db", args.game, args.games, args.moves, True, w)
            loads[w] = _load()
        by_processes = {}
        for n in args.processes:
            by_processes[n] = await asyncio.to_thread(processes, tmp / f"processes{n}.db", args.game, args.games,
                                                      args.moves, n)
            loads[f"p{n}"] = _load()
    floor_p50 = percentile(bare["floor"], 50) * 1e3
    quiet_p50, quiet_p99 = percentile(over, 50) * 1e3, percentile(over, 99) * 1e3
    print(f"game {args.game} ({rules.get_game(args.game).title}), {args.games} games × {args.moves} moves, "
          f"{os.cpu_count()} cores; the machine's load average is printed beside each figure")
    print(f"{'figure':<52} {'measured':>34}   target")
    print(f"{'bare commit (the floor), p50 / p99':<52} {floor_p50:>15.2f} ms / "
          f"{percentile(bare['floor'], 99) * 1e3:6.2f} ms   —   ({loads['floor']})")
    hop, one_hop, own = (percentile(bare[k], 50) * 1e3 for k in ("hop", "one_hop", "sqlite"))
    print(f"    made of: 4 hops to aiosqlite's thread (one empty round trip p50 {hop:.3f} ms) and SQLite's own work "
          f"({own:.3f} ms); the same transaction in one hop (the service's lean write) {one_hop:.3f} ms")
    print(f"{'service overhead per move, quiet, p50 / p99':<52} {quiet_p50:>15.2f} ms / {quiet_p99:6.2f} ms "
          f"({quiet_p50 / floor_p50:3.1f}×)   ≤ 2× floor, p99 ≤ 1.5 ms   ({loads['quiet']})")
    print(f"    the event loop's CPU per act p50 {percentile(cpu, 50) * 1e3:.2f} ms (its own Python work: judging, "
          f"views, recipes, outbox rows; the engine's part included) + one hop for the write")
    if writes.get("sqlite"):
        print(f"    the commit: SQLite's own work p50 {percentile(writes['sqlite'], 50) * 1e3:.3f} / p99 "
              f"{percentile(writes['sqlite'], 99) * 1e3:.3f} ms in its thread (the move, its log row and ~6 outbox "
              f"rows), seen from the loop (the hop included) p50 {percentile(writes['write'], 50) * 1e3:.3f} / p99 "
              f"{percentile(writes['write'], 99) * 1e3:.3f} ms")
    print(f"{'100 games at once, text only: moves/s (act p50)':<52} {text['moves_per_s']:>20.0f} moves/s "
          f"({text['act_p50'] * 1e3:5.1f} ms)   ≥ 5000   ({loads['text']})")
    print(f"    event-loop CPU {text['loop_cpu_ms']:.2f} ms a move, the whole process {text['process_cpu_ms']:.2f} ms "
          f"(the loop's CPU per move bounds moves/s at {1e3 / text['loop_cpu_ms']:.0f} on a free core): "
          f"{text['render_cpu_ms']:.2f} ms rendering {text['sent'] / max(1, text['moves']):.1f} messages at delivery "
          f"({text['superseded']} superseded unrendered), the rest the move itself and the delivery's queues")
    if drawn:
        worst = max(drawn.values(), key=lambda r: r["p50_ms"])
        print(f"{'one board picture, p50 / max (worst game)':<52} {worst['p50_ms']:>15.2f} ms / "
              f"{max(r['max_ms'] for r in drawn.values()):6.2f} ms   p50 ≤ 4 ms, max ≤ 20 ms   ({loads['pictures']})")
        for name, r in drawn.items():
            print(f"    {name:<22} p50 {r['p50_ms']:6.2f} ms  max {r['max_ms']:6.2f} ms  (cpu p50 {r['cpu_p50_ms']:.2f})")
    for w, r in with_pictures.items():
        label = f"100 games at once, pictures on ({w} worker{'s' if w > 1 else ''}): moves/s"
        print(f"{label:<52} {r['moves_per_s']:>20.0f} moves/s (act p50 {r['act_p50'] * 1e3:5.1f} ms)   ≥ 500   "
              f"({loads[w]})")
        print(f"    {r['moves']} moves; moving {r['moving_s']:.2f} s, all delivered {r['elapsed_s']:.2f} s; "
              f"{r['sent']} messages sent, {r['superseded']} superseded before sending, {r['drawn']} pictures drawn "
              f"by the pool; event-loop CPU {r['loop_cpu_ms']:.2f} ms a move, the process {r['process_cpu_ms']:.2f}")
    for n, r in by_processes.items():
        label = f"100 games at once, text only, {n} process{'es' if n > 1 else ''}"
        print(f"{label:<52} {r['moves_per_s']:>20.0f} moves/s (act p50 {r['act_p50'] * 1e3:5.1f} ms)   "
              f"({loads[f'p{n}']}; loop CPU {r['loop_cpu_ms']:.2f} ms a move each, the processes' CPU "
              f"{r['cores_busy']:.2f} cores)")
    if by_processes:
        one = by_processes[min(by_processes)]
        per_core = one["moves_per_s"] / max(0.01, one["cores_busy"])
        best = max(by_processes.values(), key=lambda r: r["moves_per_s"])
        print(f"    scaling: {best['moves_per_s'] / one['moves_per_s']:.2f}× the moves/s of one process; a busy core "
              f"commits and delivers ~{per_core:.0f} moves/s, so 5000 moves/s takes ~{5000 / per_core:.1f} cores of "
              f"processes, each its own games (Discord shards, Telegram webhook replicas)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="koenig_artus")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--moves", type=int, default=30, help="moves per game")
    parser.add_argument("--floor", type=int, default=400, help="bare transactions measured")
    parser.add_argument("--states", type=int, default=15, help="random states per game for the picture figure")
    parser.add_argument("--pictures", nargs="*", default=[g for g in sorted(rules.GAMES) if boards.has_picture(g)])
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2], help="picture pool sizes to run")
    parser.add_argument("--processes", type=int, nargs="*", default=[1, 2],
                        help="text only, the games split between this many processes on one SQLite file")
    parser.add_argument("--worker", nargs=7, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        path, game, games, moves, index, go, out = args.worker
        asyncio.run(_process_worker(Path(path), game, int(games), int(moves), int(index), Path(go), Path(out)))
        return
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
