"""Service throughput and latency on a SQLite file: each move a committed ``MakeMove`` through the bus.

Every seat is a bench "person" who picks a random legal action and sends it as an adapter does
(``Service.handle(MakeMove(...))``), so each call is exactly one move: moves logged, snapshot written
(version-checked), committed, messages made (rendered only when delivered). Tables are set up before the clock
starts. Prints:

* quiet: one game at a time — the service's own overhead per move (act minus the
  engine's apply), what a player feels when the bot is not busy;
* loaded: N games in flight at once, all moving as fast as they can — committed
  moves/s, and act latency including the wait for the one SQLite writer;
* memory per active game (the in-memory picture the service keeps).
"""
from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
import tracemalloc
from pathlib import Path

import rules
from bot.service import ChatRef, UserRef, build_service
from bot.service.commands import MakeMove


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


def players_for(game_name: str) -> int:
    """The most players up to four that the game's default options take (Guyenne's default duel: two)."""
    game = rules.get_game(game_name)
    for n in range(min(4, game.max_players), game.min_players, -1):
        try:
            game.check_setup(n, {})
            return n
        except rules.IllegalAction:
            continue
    return game.min_players


async def open_tables(service, game_name: str, count: int, first: int,
                      notify: str = "") -> list[tuple[int, ChatRef]]:
    """``notify``: each person's ``/notify`` settings first (``next=on``: the heads-up is worked out every move)."""
    tables = []
    for index in range(first, first + count):
        chat = ChatRef("bench", f"chat{index % 10}", "bench", None)
        users = [UserRef("bench", f"{index}-{s}", f"P{s}") for s in range(players_for(game_name))]
        for user in users if notify else []:
            await service.notify(None, user, notify)
        lobby = await service.create_lobby(chat, users[0], game_name, seed=index)
        gid = lobby[0].game_id
        for u in users[1:]:
            await service.join(chat, u, game_id=gid)
        await service.start(chat, users[0], game_id=gid)
        tables.append((gid, chat))
    return tables


async def play(service, gid: int, chat: ChatRef, moves: int, rng: random.Random, latencies: list[float],
               overheads: list[float], cpu: list[float] | None = None) -> int:
    """``cpu``: when given, the event loop's CPU time of each ``act`` (``time.thread_time``: its own work, not
    the waits for the database's thread)."""
    done = 0
    while done < moves:
        live = service.ctx.games.loaded(gid)  # the bench's people read the state the service holds
        if live is None or live.state.is_over():
            break
        state = live.state
        seat = rng.choice(state.to_act())
        action = rng.choice(state.legal_actions(seat))
        t0 = time.perf_counter()
        state.clone().apply(seat, action)
        engine = time.perf_counter() - t0
        t0, c0 = time.perf_counter(), time.thread_time()
        out = await service.handle(MakeMove(live.seats[seat].user, chat, action, gid))  # an adapter's way in
        elapsed = time.perf_counter() - t0
        if cpu is not None:
            cpu.append(time.thread_time() - c0)
        if out and out[0].kind == "error":
            raise RuntimeError(out[0].text)
        latencies.append(elapsed)
        overheads.append(max(0.0, elapsed - 2 * engine))  # the service clones and applies once more
        done += 1
    return done


async def run(game_name: str, games: int, moves_per_game: int, db_dir: str, pictures: bool = False,
              notify: str = "") -> dict:
    service = await build_service(f"sqlite+aiosqlite:///{Path(db_dir) / 'bench.db'}", pictures=pictures)
    for i in range(10):  # no turn timers: the bench measures moves, not timer bookkeeping
        await service.settings(ChatRef("bench", f"chat{i}", "bench"), UserRef("bench", "admin", "admin"),
                               "turn_timer=0", is_admin=True)
    quiet_lat: list[float] = []
    quiet_over: list[float] = []
    for gid, chat in await open_tables(service, game_name, 5, 10_000, notify):
        await play(service, gid, chat, moves_per_game, random.Random(gid), quiet_lat, quiet_over)

    tables = await open_tables(service, game_name, games, 0, notify)
    group = service.ctx.group
    batches_before, jobs_before = group.batches, group.writes
    latencies: list[float] = []
    overheads: list[float] = []
    start = time.perf_counter()
    counts = await asyncio.gather(*[play(service, gid, chat, moves_per_game, random.Random(gid), latencies,
                                         overheads) for gid, chat in tables])
    elapsed = time.perf_counter() - start
    per_commit = (group.writes - jobs_before) / max(1, group.batches - batches_before)

    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    active = len(service.ctx.games)
    service.ctx.games.clear()
    async with service.ctx.uow(readonly=True) as uow:  # each game loaded again, as its next move would
        for gid, _chat in tables:
            await service.ctx.games.get(uow, gid)
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    await service.close()
    return {"game": game_name, "games": games, "moves": sum(counts), "moves_per_s": sum(counts) / elapsed,
            "quiet_p50": percentile(quiet_over, 50) * 1e3, "quiet_p99": percentile(quiet_over, 99) * 1e3,
            "p50": percentile(latencies, 50) * 1e3, "p99": percentile(latencies, 99) * 1e3,
            "kb_per_game": grown / max(1, active) / 1024, "per_commit": per_commit}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default=None, help="one game (default: every registered game)")
    parser.add_argument("--games", type=int, default=100, help="games in flight at once")
    parser.add_argument("--moves", type=int, default=30, help="moves per game")
    parser.add_argument("--pictures", action="store_true",
                        help="draw board and hand pictures with every message, as on Telegram and Discord")
    parser.add_argument("--notify", default="", help="every person's /notify settings, e.g. next=on")
    args = parser.parse_args(argv)
    if args.game == "toy":  # the tests' tiny game: measures the service with an engine that costs nothing
        from tests.toygame import TOY

        rules.api.register(TOY)
    names = [args.game] if args.game else sorted(rules.GAMES)
    print(f"{'game':<16} {'quiet overhead p50/p99':>22} | {'games':>5} {'moves':>6} {'moves/s':>8} "
          f"{'act p50':>8} {'act p99':>8} {'moves/commit':>12} | {'KB/game':>7}")
    for name in names:
        with tempfile.TemporaryDirectory() as tmp:
            r = asyncio.run(run(name, args.games, args.moves, tmp, args.pictures, args.notify))
        print(f"{r['game']:<16} {r['quiet_p50']:>9.2f} / {r['quiet_p99']:>6.2f} ms | {r['games']:>5} "
              f"{r['moves']:>6} {r['moves_per_s']:>8.0f} {r['p50']:>6.1f}ms {r['p99']:>6.1f}ms {r['per_commit']:>12.1f} | "
              f"{r['kb_per_game']:>7.1f}")
    print(("with pictures: " if args.pictures else "") +
          "quiet = one game at a time, act minus the engine's own apply; loaded = all games moving at once "
          "(latency includes the wait for the single SQLite writer). AI seats are not used: every move is a "
          "person's committed act.")


if __name__ == "__main__":
    main()
