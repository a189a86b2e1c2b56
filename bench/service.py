"""Service throughput and latency on a SQLite file: many concurrent games, each move a committed `act`.

Every seat is a bench "person" who picks a random legal action and sends it through
``Service.act``, so each call is exactly one move: snapshot + log row committed,
messages rendered. Prints committed moves/s, p50/p99 of ``act`` (and of the engine's
own share), and memory per active game.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

import rules
from bot.service import ChatRef, UserRef, build_service


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


async def drive_game(service, game_name: str, index: int, moves_per_game: int, latencies: list[float],
                     engine_times: list[float]) -> int:
    game = rules.get_game(game_name)
    chat = ChatRef("bench", f"chat{index % 10}", "bench", None)
    n = game.min_players if game_name != "list_und_tuecke" else 4
    users = [UserRef("bench", f"{index}-{s}", f"P{s}") for s in range(n)]
    lobby = await service.create_lobby(chat, users[0], game_name, seed=index)
    gid = lobby[0].game_id
    for u in users[1:]:
        await service.join(chat, u, game_id=gid)
    await service.start(chat, users[0], game_id=gid)
    rng = random.Random(index)
    done = 0
    while done < moves_per_game:
        live = service._live_games.get(gid)  # the bench's people read the state the service holds
        if live is None:
            break
        row_state = live.state
        if row_state.is_over():
            break
        seat = rng.choice(row_state.to_act())
        action = rng.choice(row_state.legal_actions(seat))
        trial = row_state.clone()
        t0 = time.perf_counter()
        trial.apply(seat, action)
        engine_times.append(time.perf_counter() - t0)
        user = live.seats[seat].user
        t0 = time.perf_counter()
        out = await service.act(chat, user, action, game_id=gid)
        latencies.append(time.perf_counter() - t0)
        if out and out[0].kind == "error":
            raise RuntimeError(out[0].text)
        done += 1
        await asyncio.sleep(0)
    return done


async def run(game_name: str, games: int, moves_per_game: int, db_dir: str) -> dict:
    path = Path(db_dir) / "bench.db"
    service = await build_service(f"sqlite+aiosqlite:///{path}")
    await service.settings(ChatRef("bench", "chat0", "bench"), UserRef("bench", "admin", "admin"), "turn_timer=0",
                           is_admin=True)
    for i in range(10):
        await service.settings(ChatRef("bench", f"chat{i}", "bench"), UserRef("bench", "admin", "admin"),
                               "turn_timer=0", is_admin=True)
    latencies: list[float] = []
    engine_times: list[float] = []
    start = time.perf_counter()
    counts = await asyncio.gather(*[drive_game(service, game_name, i, moves_per_game, latencies, engine_times)
                                    for i in range(games)])
    elapsed = time.perf_counter() - start
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    service._live_games.clear()
    await service.resume()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    await service.close()
    return {"game": game_name, "games": games, "moves": sum(counts), "elapsed": elapsed,
            "moves_per_s": sum(counts) / elapsed, "p50_ms": percentile(latencies, 50) * 1000,
            "p99_ms": percentile(latencies, 99) * 1000, "engine_p50_ms": percentile(engine_times, 50) * 1000,
            "engine_p99_ms": percentile(engine_times, 99) * 1000,
            "mean_ms": statistics.mean(latencies) * 1000, "kb_per_game": grown / games / 1024}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default=None)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--moves", type=int, default=30, help="moves per game")
    args = parser.parse_args(argv)
    names = [args.game] if args.game else sorted(rules.GAMES)
    print(f"{'game':<16} {'games':>5} {'moves':>6} {'moves/s':>8} {'act p50':>8} {'act p99':>8} "
          f"{'engine p99':>10} {'KB/game':>8}")
    for name in names:
        with tempfile.TemporaryDirectory() as tmp:
            r = asyncio.run(run(name, args.games, args.moves, tmp))
        print(f"{r['game']:<16} {r['games']:>5} {r['moves']:>6} {r['moves_per_s']:>8.0f} {r['p50_ms']:>6.2f}ms "
              f"{r['p99_ms']:>6.2f}ms {r['engine_p99_ms']:>8.2f}ms {r['kb_per_game']:>8.1f}")
    print("act = one committed move through the service with 100 games in flight (latency includes waiting "
          "for the shared SQLite writer); engine = State.apply alone.")


if __name__ == "__main__":
    main()
