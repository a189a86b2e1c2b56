"""``python -m bench.console_lines``: how long a prompt reads on the console, per game (issue 23's target: a
median of at most 25 lines). Plays whole seeded games through the real console and service on a throwaway SQLite
file, always choosing the first option of the menu, and counts the lines printed before each ``your move>``.

Lines, not time: no duration is measured, so the machine's load does not change the figures (it is printed all
the same, beside them, as every bench here does).
"""
from __future__ import annotations

import argparse
import asyncio
import io
import os
import statistics
import tempfile

WIDTH = 100  # a terminal's columns: a long line takes several rows
STEP = ("  Chosen so far", "  Back to the start")  # how a step of the picker starts
GAMES = [("troubadour", 2, ""), ("troubadour", 4, ""), ("guyenne", 2, ""), ("guyenne", 2, "level=expert"),
         ("guyenne", 4, "mode=two_sets"), ("list_und_tuecke", 4, ""), ("kardinal", 2, ""), ("kardinal", 4, ""),
         ("koenig_artus", 2, ""), ("koenig_artus", 4, "")]


async def prompt_lines(game: str, players: int, options: str, seed: int, moves: int) -> tuple[list[int], list[int],
                                                                                             list[int], bool]:
    """Lines printed before each prompt of one console game (``moves`` answers of ``1``, then quit): of every
    prompt, of the prompts that open a turn or move (the others are steps of the picker: "Chosen so far …"),
    the screen rows of the latter at ``WIDTH`` columns, and whether the game was played to its end."""
    from bot.console import play as play_console

    out = io.StringIO()
    with tempfile.TemporaryDirectory() as tmp:
        await play_console(game, players, seed, options, f"sqlite+aiosqlite:///{tmp}/lines.db", False, out=out,
                           inp=io.StringIO("1\n" * moves + "quit\n"))
    text = out.getvalue()
    parts = text.split("your move> ")[:-1]  # what was printed before each prompt
    counts = [len(part.strip("\n").splitlines()) for part in parts]
    turns = [n for n, part in zip(counts, parts) if not part.lstrip("\n").startswith(STEP)]
    rows = [sum(-(-len(line) // WIDTH) or 1 for line in part.strip("\n").splitlines())
            for part in parts if not part.lstrip("\n").startswith(STEP)]
    return counts, turns, rows, "is over." in text


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=2, help="games per configuration")
    parser.add_argument("--moves", type=int, default=400, help="answers per game (a whole game ends sooner)")
    args = parser.parse_args(argv)
    print(f"load {os.getloadavg()[0]:.2f} (lines are counted, not timed)")
    print(f"{'game':32} {'games over':>10} {'prompts':>7} {'median':>6} │ {'turns':>5} {'median':>6} {'p90':>4} "
          f"{'max':>4} │ rows@{WIDTH}: {'median':>6}")
    for game, players, options in GAMES:
        counts: list[int] = []
        turns: list[int] = []
        rows: list[int] = []
        over = 0
        for seed in range(1, args.seeds + 1):
            every, first, screen, ended = asyncio.run(prompt_lines(game, players, options, seed, args.moves))
            counts += every
            turns += first
            rows += screen
            over += ended
        turns.sort()
        name = f"{game} {players}p {options}".strip()
        p90 = turns[int(0.9 * (len(turns) - 1))] if turns else 0
        print(f"{name:32} {f'{over}/{args.seeds}':>10} {len(counts):7} {statistics.median(counts or [0]):6} │ "
              f"{len(turns):5} {statistics.median(turns or [0]):6} {p90:4} {max(turns, default=0):4} │ "
              f"{'':9}{statistics.median(rows or [0]):6}")


if __name__ == "__main__":
    main()
