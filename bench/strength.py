"""How strong the ``strong`` AI is: it plays against ``greedy`` opponents, its seat rotated game by game, and
the bench prints its win rate (two sides) or first-place rate (more) per configuration, with its decision time
against the budget.

``python -m bench.strength [game ...] --games N --budget S [--iterations K] [--jobs J]``

With ``--iterations`` each decision stops at K iterations (or at the budget, whichever comes first): that makes
hundreds of games affordable on a small machine, and the figures repeatable. In a team game the strong side is
both seats of one team. A tie for first counts as a share (two tied of two: half a win).

Measured 24 Nov 2026 (h-ai3, finished by h-ai4) on the shared 2-core machine at load 2-10, under ``nice -n 19``,
40 iterations a decision (``--iterations 40 --budget 5``; at the chat's default ``ai_time`` of 1 s a decision makes
several hundred), strong against greedy, seats rotated, games 0-199 (``--first 0``). Guyenne duel alone
(``bench_config``); the rest interleaved with ``--log`` (94 games each in h-ai3, completed to 200 in h-ai4 with the
same code; König Artus at 4 replayed from game 0 with its race estimate, rules.koenig_artus.ai):

    configuration        target  games  strong   ±2se   CPU s
    Guyenne duel            70 %   200   73.2 %   6.3 %   341
    Guyenne teams           70 %   200   82.2 %   5.4 %   425
    List und Tücke 4        50 %   200   63.7 %   6.8 %   129
    Troubadour 2            70 %   200   99.5 %   1.0 %   352   (42.5 % before its trio shortlist, 40 games;
                                                                 one game of the 200 stopped at the action cap)
    Troubadour 4            50 %   200   59.0 %   7.0 %   296   (30 % before, 40 games)
    Kardinal 2              70 %   200   94.2 %   3.3 %   101
    Kardinal 4              50 %   200   56.2 %   7.0 %   344   (47.5 % at rollouts of 12 actions, 100 games)
    König Artus 2           70 %   200   75.0 %   6.1 %    34
    König Artus 4           50 %   200   58.5 %   7.0 %    70   (53.2 % at 94 games before its race estimate;
                                                                 over five seed sets, 1000 games: 55.3 % ±3.1,
                                                                 51.2 % ±3.3 before, 894 games)

Every configuration meets its target; Kardinal 4 and König Artus 4 by less than two standard errors, so the
service hands resigned seats to the strong AI everywhere measured (bot/service/ai_seats.py; Guyenne at 4 in teams
only). Troubadour games seldom hit the action cap since rules.troubadour.ai (the strong AI shuffled a run between two
equal cards for ever); game 171 of Troubadour 2 still did (5000 actions, counted as a loss): with nothing left to
flip, the trios the AIs considered held no Q♥ to dig out a buried card. Since session 11 (rules/troubadour/ai.py,
``flips_are_useless``) it ends in 571 actions, won; games 0–59 of Troubadour 2 and 4 gave 100 % and 65 % as
before, and no game of any sample hit the cap. Decision time and
event-loop lag: ``python -m bench.ai_timing`` (through the service)."""
from __future__ import annotations

import argparse
import copy
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from rules import GAMES, load_games
from rules.ai import GreedyPlayer, StrongPlayer

CAP = 5000

# (game, players, options, label): the common player counts the issue names
CONFIGS = [
    ("guyenne", 2, {"mode": "duel"}, "duel"),
    ("guyenne", 4, {"mode": "teams"}, "teams"),
    ("list_und_tuecke", 4, {}, ""),
    ("troubadour", 2, {}, ""),
    ("troubadour", 4, {}, ""),
    ("kardinal", 2, {}, ""),
    ("kardinal", 4, {}, ""),
    ("koenig_artus", 2, {}, ""),
    ("koenig_artus", 4, {}, ""),
]


def strong_seats(state, seat: int) -> set[int]:
    teams = state.teams()
    if teams:
        return set(next(t for t in teams if seat in t))
    return {seat}


def play_one(name: str, n: int, options: dict, game_index: int, budget: float | None,
             iterations: int | None, search: dict | None = None) -> dict:
    """One game, the strong side at seat ``game_index % n``: its share of first place and its decision times."""
    load_games()
    game = GAMES[name]
    merged = game.default_options()
    merged.update(copy.deepcopy(options))
    state = game.new_game(n, seed=game_index, options=merged)
    mine = strong_seats(state, game_index % n)
    players = {s: (StrongPlayer(game_index * 31 + s, budget=budget, iterations=iterations,
                                                 **(search or {})) if s in mine
                   else GreedyPlayer(game_index * 31 + s)) for s in range(n)}
    times: list[float] = []
    iters: list[int] = []
    actions = 0
    cpu = time.process_time()
    while not state.is_over() and actions < CAP:
        seat = state.to_act()[0]
        player = players[seat]
        start = time.perf_counter()
        action = player.choose(state, seat)
        if seat in mine:
            times.append(time.perf_counter() - start)
            iters.append(player.last_iterations)
        state.apply(seat, action)
        actions += 1
    share = 0.0
    if state.is_over():
        places = state.ranking()
        firsts = {s for s in range(n) if places[s] == 1}
        teams = state.teams()
        sides = len({tuple(next(t for t in teams if s in t)) for s in firsts}) if teams else len(firsts)
        if firsts & mine:
            share = 1.0 / sides
    return {"share": share, "over": state.is_over(), "times": times, "iterations": iters, "actions": actions,
            "cpu": time.process_time() - cpu}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_config(name: str, n: int, options: dict, games: int, budget: float | None, iterations: int | None,
                 jobs: int, search: dict | None = None, first: int = 0) -> dict:
    with ProcessPoolExecutor(jobs) as pool:
        results = list(pool.map(play_one, [name] * games, [n] * games, [options] * games, range(first, first + games),
                                [budget] * games, [iterations] * games, [search] * games))
    times = [t for r in results for t in r["times"]]
    iters = [i for r in results for i in r["iterations"] if i]
    return {"rate": sum(r["share"] for r in results) / games, "finished": sum(r["over"] for r in results),
            "p50": percentile(times, 0.5), "p99": percentile(times, 0.99), "max": max(times, default=float("nan")),
            "decisions": len(times), "iterations": statistics.mean(iters) if iters else 0.0,
            "cpu": sum(r["cpu"] for r in results), "actions": max(r["actions"] for r in results)}


def play_logged(task: tuple) -> dict:
    """``play_one`` for an interleaved run: the configuration's label comes back with the result."""
    key, name, n, options, index, budget, iterations, search = task
    row = play_one(name, n, options, index, budget, iterations, search)
    del row["times"], row["iterations"]
    return {"config": key, "game": index, **row}


def interleaved(chosen: list, games: int, budget: float | None, iterations: int | None, jobs: int,
                search: dict | None, log: str, first: int = 0) -> None:
    """Every configuration's game 0, then every game 1, ...: each result is appended to ``log`` (JSON lines) as
    it comes, so a run stopped early (a shared machine, a deadline) still has as many games of each
    configuration, and ``--summary`` tables them. Games already in ``log`` are not played again."""
    import json

    done = set()
    if os.path.exists(log):
        with open(log) as f:
            done = {(r["config"], r["game"]) for r in map(json.loads, f)}
    tasks = [(f"{name}/{n}/{label}", name, n, options, i, budget, iterations, search)
             for i in range(first, first + games) for name, n, options, label in chosen
             if (f"{name}/{n}/{label}", i) not in done]
    with ProcessPoolExecutor(jobs) as pool, open(log, "a") as out:
        for row in pool.map(play_logged, tasks, chunksize=1):
            out.write(json.dumps(row) + "\n")
            out.flush()


def summary(log: str) -> None:
    """The table of an interleaved run's log: per configuration, games, the strong side's rate and its margin."""
    import json

    rows: dict[str, list[dict]] = {}
    with open(log) as f:
        for r in map(json.loads, f):
            rows.setdefault(r["config"], []).append(r)
    print(f"{'configuration':<24} {'target':>6} {'games':>6} {'strong':>7} {'±2se':>6} {'finished':>8} {'cpu s':>7}")
    for key, results in rows.items():
        name, n, label = key.split("/")
        games = len(results)
        rate = sum(r["share"] for r in results) / games
        target = "70%" if n == "2" or label == "teams" else "50%"
        print(f"{name + ' ' + n + ' ' + label:<24} {target:>6} {games:>6} {rate:>7.1%} "
              f"{2 * (rate * (1 - rate) / games) ** 0.5:>6.1%} {sum(r['over'] for r in results):>8} "
              f"{sum(r['cpu'] for r in results):>7.0f}")


def timing(name: str, n: int, options: dict, budget: float, decisions: int) -> dict:
    """Decision times of the strong AI at a real budget (no iteration cap), along one game against greedy."""
    load_games()
    game = GAMES[name]
    merged = game.default_options()
    merged.update(copy.deepcopy(options))
    state = game.new_game(n, seed=1, options=merged)
    strong, greedy = StrongPlayer(1, budget=budget), GreedyPlayer(2)
    times: list[float] = []
    iters: list[int] = []
    while not state.is_over() and len(times) < decisions:
        seat = state.to_act()[0]
        if seat == 0 and len(state.ai_actions(seat)) > 1:
            start = time.perf_counter()
            action = strong.choose(state, seat)
            times.append(time.perf_counter() - start)
            iters.append(strong.last_iterations)
        else:
            action = greedy.choose(state, seat)
        state.apply(seat, action)
    return {"p50": percentile(times, 0.5), "p99": percentile(times, 0.99), "max": max(times, default=0.0),
            "decisions": len(times), "iterations": statistics.median(iters) if iters else 0}


def load() -> str:
    """The 1/5/15-minute load averages, printed beside the figures (the machine is shared)."""
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games_to_run", nargs="*", metavar="game", help="games to bench (default: all)")
    parser.add_argument("--games", type=int, default=200, help="games per configuration")
    parser.add_argument("--first", type=int, default=0,
                        help="the first game's number (its seed; the strong seat is the number modulo the players): "
                             "another seed set checks a figure is not the luck of the deals")
    parser.add_argument("--budget", type=float, default=0.2, help="seconds per strong decision")
    parser.add_argument("--iterations", type=int, default=None, help="iteration cap per strong decision")
    parser.add_argument("--players", type=int, default=None, help="only this player count")
    parser.add_argument("--jobs", type=int, default=2, help="games played in parallel (processes)")
    parser.add_argument("--cutoff", choices=("gain", "rank"), default=None,
                        help="how a cut rollout is scored (default: the game's ai_search_options, else gain)")
    parser.add_argument("--confidence", type=float, default=None,
                        help="standard errors by which the search must beat the greedy favourite (default 1.5)")
    parser.add_argument("--rollout", type=int, default=None, help="actions per cut rollout (default 2 per seat)")
    parser.add_argument("--timing", type=int, default=0, metavar="D",
                        help="instead: time D strong decisions per configuration at the budget, no cap")
    parser.add_argument("--log", default=None, metavar="FILE",
                        help="interleave the configurations' games, appending each result to FILE (JSON lines)")
    parser.add_argument("--skip", action="append", default=[], metavar="GAME/N/LABEL",
                        help="leave out a configuration (e.g. guyenne/2/duel); may be repeated")
    parser.add_argument("--summary", default=None, metavar="FILE", help="instead: the table of such a log")
    args = parser.parse_args(argv)
    if args.summary:
        summary(args.summary)
        return
    search = {"cutoff": args.cutoff, "rollout_actions": args.rollout, "confidence": args.confidence}
    chosen = [c for c in CONFIGS if (not args.games_to_run or c[0] in args.games_to_run)
              and (args.players is None or c[1] == args.players) and f"{c[0]}/{c[1]}/{c[3]}" not in args.skip]
    print(f"strong vs greedy: budget {args.budget}s, iteration cap {args.iterations}, {args.games} games each, "
          f"cut rollouts of {args.rollout or 'default'} actions scored by {args.cutoff or 'default'}, "
          f"confidence {args.confidence or 'default'}; machine load {load()}", flush=True)
    print(f"{'game':<16} {'N':>2} {'':<6} {'target':>7} {'strong':>7} {'fin':>5} {'iters':>6} "
          f"{'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'p99/budget':>10} {'cpu s':>7} {'±2se':>6}", flush=True)
    if args.timing:
        print(f"strong decision time at budget {args.budget}s (no iteration cap), {args.timing} decisions each")
        for name, n, options, label in chosen:
            row = timing(name, n, options, args.budget, args.timing)
            print(f"{name:<16} {n:>2} {label:<6} p50 {row['p50'] * 1000:7.1f} ms  p99 {row['p99'] * 1000:7.1f} ms  "
                  f"max {row['max'] * 1000:7.1f} ms  p99/budget {row['p99'] / args.budget:.2f}  "
                  f"median iterations {row['iterations']:.0f} ({row['decisions']} decisions)", flush=True)
        return
    if args.log:
        interleaved(chosen, args.games, args.budget, args.iterations, args.jobs, search, args.log, args.first)
        summary(args.log)
        return
    for name, n, options, label in chosen:
        row = bench_config(name, n, options, args.games, args.budget, args.iterations, args.jobs, search, args.first)
        target = "70%" if n == 2 or label == "teams" else "50%"
        print(f"{name:<16} {n:>2} {label:<6} {target:>7} {row['rate']:>7.1%} {row['finished']:>5} "
              f"{row['iterations']:>6.0f} {row['p50'] * 1000:>7.1f} {row['p99'] * 1000:>7.1f} "
              f"{row['max'] * 1000:>7.1f} {row['p99'] / args.budget:>10.2f} {row['cpu']:>7.0f} "
              f"{2 * (row['rate'] * (1 - row['rate']) / args.games) ** 0.5:>6.1%}", flush=True)
    print(f"machine load at the end {load()}")


if __name__ == "__main__":
    main()
