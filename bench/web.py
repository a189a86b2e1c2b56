"""How fast the web pages answer with a big league: ``python -m bench.web [--games 10000] [--requests 60]``.

A SQLite file gets one chat that shows its pages, 40 players and ``--games`` finished, rated games of all five
(real games: each a copy of one of 20 played by the engines with first-legal moves, with its ratings and rating
changes). The move log is written for the first 500 games only (a log of every game would be millions of rows
and change nothing the pages read: a game's moves are found by the unique (game_id, seq) index). Then the web app
runs on a local port and a client asks over HTTP, one request at a time:

* the league page (every game's standings, recent games);
* a game page, first view (its replay built from the log) and stepping through it (its replay kept);
* a board picture (drawn, then from the cache).

Printed: p50 and p90 per kind, and the machine load. The issue's target: league and game page p50 ≤ 100 ms.

Measured 27 Nov 2026, 10,000 games, 40 requests each, on the shared 2-core machine at load 17–20 (other helpers'
tests): league page p50 860 ms before the indexes of migration 0006_web (the query of recent games read every game
of the chat, state and all), 22 ms after (p90 76 ms; 56 / 279 ms in a run at load 20); game page, first look p50
88 ms (p90 1.9 s: a replay of 2,700 Troubadour moves built twice) before it read the stored end, 5.4 ms after
(p90 40 ms); stepping (replay kept) p50 8–9 ms; a board picture drawn p50 9–49 ms, kept p50 5 ms.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import tempfile
import time
from datetime import datetime, timedelta, timezone

import aiohttp
from aiohttp import web
from sqlalchemy import insert

from bot.service.leagues import DEFAULT_MU, DEFAULT_SIGMA, places_with_resigns, rate
from bot.web.app import make_app
from rules import get_game
from storage import open_database
from storage.models import Chat, GameRow, Move, Player, Rating, RatingChange, Seat

GAMES = [("kardinal", 2), ("list_und_tuecke", 4), ("troubadour", 3), ("guyenne", 2), ("koenig_artus", 3)]
LEAGUE = "telegram:-1001"
LOGGED = 500


def played(name: str, players: int, seed: int) -> tuple[int, dict, list, list[int], list[float]]:
    """A game played to its end by random legal moves: (its seed, final state, moves, ranking, scores)."""
    game, rng = get_game(name), random.Random(seed)
    for attempt in range(20):
        state = game.new_game(players, seed=seed + 1000 * attempt)
        moves = []
        while not state.is_over() and len(moves) < 5000:
            seat = state.to_act()[0]
            action = rng.choice(state.legal_actions(seat))
            events = state.apply(seat, action)
            moves.append((seat, action, [e.to_json() for e in events]))
        if state.is_over():
            return seed + 1000 * attempt, state.to_json(), moves, state.ranking(), state.scores()
    raise RuntimeError(f"no {name} game ended")


async def fill(db, games: int) -> str:
    """The league; returns its slug."""
    templates = [(name, n, *played(name, n, seed)) for seed in range(4) for name, n in GAMES]
    rng = random.Random(7)
    slug = "bench-league-slug-0123456789"
    start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    async with db.engine.begin() as conn:
        await conn.execute(insert(Chat.__table__), [{"platform": "telegram", "external_id": "-1001", "league": LEAGUE,
                                                     "title": "Bench Hall", "settings": {"web": "on",
                                                                                         "web_slug": slug}}])
        await conn.execute(insert(Player.__table__), [
            {"platform": "telegram", "external_id": str(100 + i), "name": f"Player {i}", "web_hidden": i % 10 == 0,
             "created_at": start} for i in range(40)])
        ratings: dict[tuple[str, int], list[float]] = {}
        game_rows, seat_rows, move_rows, change_rows = [], [], [], []
        for gid in range(1, games + 1):
            name, n, seed, state, moves, ranking, scores = templates[gid % len(templates)]
            people = rng.sample(range(1, 41), n)
            finished = start + timedelta(minutes=gid)
            places = places_with_resigns(ranking, set())
            game_rows.append({"id": gid, "chat_id": 1, "game": name, "options": {}, "seed": seed,
                              "status": "finished", "state": state, "version": len(moves), "created_by": people[0], "rated": True,
                              "hinted": False, "created_at": finished, "updated_at": finished,
                              "finished_at": finished, "result": {"ranking": ranking, "scores": scores,
                                                                  "names": [f"Player {p - 1}" for p in people],
                                                                  "resigned": []}})
            seat_rows += [{"game_id": gid, "position": s, "seat": s, "player_id": p, "resigned": False}
                          for s, p in enumerate(people)]
            if gid <= LOGGED:
                move_rows += [{"game_id": gid, "seq": k, "seat": seat, "action": action, "events": events,
                               "by": "player", "created_at": finished} for k, (seat, action, events) in enumerate(moves)]
            before = [ratings.setdefault((name, p), [DEFAULT_MU, DEFAULT_SIGMA, 0]) for p in people]
            after = rate([(r[0], r[1]) for r in before], places)
            for s, p in enumerate(people):
                change_rows.append({"game_id": gid, "player_id": p, "league": LEAGUE, "game": name, "season": 1,
                                    "place": places[s], "mu_before": before[s][0], "sigma_before": before[s][1],
                                    "mu_after": after[s][0], "sigma_after": after[s][1], "created_at": finished})
                before[s][0], before[s][1] = after[s]
                before[s][2] += 1
        for table, rows in ((GameRow, game_rows), (Seat, seat_rows), (Move, move_rows), (RatingChange, change_rows)):
            for i in range(0, len(rows), 2000):
                await conn.execute(insert(table.__table__), rows[i:i + 2000])
        await conn.execute(insert(Rating.__table__), [
            {"league": LEAGUE, "game": name, "season": 1, "player_id": p, "mu": r[0], "sigma": r[1], "games": r[2]}
            for (name, p), r in ratings.items()])
    return slug


def percentiles(times: list[float]) -> str:
    ordered = sorted(times)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000  # noqa: E731
    return f"p50 {pick(0.5):6.1f} ms  p90 {pick(0.9):6.1f} ms  (n={len(ordered)})"


async def timed(session, url: str) -> float:
    began = time.perf_counter()
    async with session.get(url) as response:
        await response.read()
        assert response.status == 200, (response.status, url)
    return time.perf_counter() - began


async def main(games: int, requests: int) -> None:
    folder = tempfile.mkdtemp(prefix="herald-bench-web-")
    url = f"sqlite+aiosqlite:///{folder}/herald.db"
    db = await open_database(url)
    began = time.perf_counter()
    slug = await fill(db, games)
    print(f"{games} finished games written in {time.perf_counter() - began:.1f} s ({folder})")
    await db.close()
    db = await open_database(url, migrate=False)
    runner = web.AppRunner(make_app(db), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    base = f"http://127.0.0.1:{port}/c/{slug}"
    rng = random.Random(1)
    try:
        async with aiohttp.ClientSession() as session:
            await timed(session, base)  # the first request opens the connections
            league = [await timed(session, base) for _ in range(requests)]
            first, stepping, pictures, cached = [], [], [], []
            for gid in rng.sample(range(1, min(LOGGED, games) + 1), min(requests, LOGGED, games)):
                first.append(await timed(session, f"{base}/g/{gid}"))
                viewer = rng.choice(["public", "0", "1", "all"])
                for step in rng.sample(range(0, 20), 3):
                    stepping.append(await timed(session, f"{base}/g/{gid}?seat={viewer}&step={step}"))
                if len(pictures) < 15:
                    picture = f"{base}/g/{gid}/picture.png?seat=public&step=5&show=public"
                    pictures.append(await timed(session, picture))
                    cached.append(await timed(session, picture))
    finally:
        await runner.cleanup()
        await db.close()
    print(f"machine load {'/'.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"league page          {percentiles(league)}")
    print(f"game page, first     {percentiles(first)}")
    print(f"game page, stepping  {percentiles(stepping)}")
    print(f"board picture, drawn {percentiles(pictures)}")
    print(f"board picture, kept  {percentiles(cached)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--requests", type=int, default=60)
    args = parser.parse_args()
    asyncio.run(main(args.games, args.requests))
