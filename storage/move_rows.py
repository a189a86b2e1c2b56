"""A move's write, encoded once: the statements a batch of ``MoveWrite``s makes, and the rows of each.

Every path that stores moves sends the same statements, in this order:

1. ``UPDATE games SET state, version, status, updated_at, finished_at WHERE id = ? AND version = ?`` — the
   version check: it must change one row per write (``Step.expect``), or a game moved on under us; a game
   with time banks: ``UPDATE games SET clocks`` too;
2. ``INSERT INTO moves`` — the log rows (and ``UPDATE moves SET taken_back`` for an undo's); 3. ``DELETE FROM timers WHERE game_id = ? AND seat = ?``;
4. ``INSERT INTO timers``; 5. ``INSERT INTO outbox`` — what the moves make the bot say;
6. ``UPDATE outbox SET sent_at = ? WHERE key = ?`` — the sent marks riding with the batch.

``encode`` turns the writes (in the order given: the group commit sorts them by game id, so every process locks
rows in one order) and the sent marks into ``Step``s: a table, its columns and the rows. An UPDATE's or a DELETE's
rows are tuples (the values of ``columns``, then of ``where``); an INSERT's rows are dicts, their keys the columns.
Two things run them and neither knows what a move is: ``execute`` through a SQLAlchemy session (one write in a
caller's unit of work, ``group_commit.write_one``; a batch on PostgreSQL), and ``storage/lean.py``'s
``Statements`` straight on SQLite's connection (the group commit's hot path).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple, Sequence

from sqlalchemy import Table, and_, bindparam, delete, insert, update

from storage.models import GameRow, Move, OutboxMessage, Timer

GAMES = GameRow.__table__
MOVES = Move.__table__
TIMERS = Timer.__table__
OUTBOX = OutboxMessage.__table__
ENDED = ("finished", "aborted")  # a game written with one of these statuses gets its ``finished_at``


@dataclass
class MoveWrite:
    """Everything one committed move changes in the database."""

    game_id: int
    version: int  # the version the move was judged against; the write fails if the game moved on
    state: dict
    moves: list[dict]  # rows of the move log: seq, seat, action, events, by
    status: str = "active"
    drop_timer_seats: set[int] = field(default_factory=set)
    new_timers: list[dict] = field(default_factory=list)  # seat, kind, version, due_at
    outbox: list[dict] = field(default_factory=list)  # rows of the outbox: what the move makes the bot say
    taken_back: list[int] = field(default_factory=list)  # seqs of logged moves an undo takes back
    clocks: dict | None = None  # the game's time banks after the move (``bot/service/clocks.py``); None: unchanged

    @property
    def new_version(self) -> int:
        return self.version + 1


class Step(NamedTuple):
    """One statement of a batch, run once per row (``executemany``)."""

    kind: str  # "update", "insert" or "delete"
    table: Table
    columns: tuple[str, ...]  # an UPDATE's SET columns (an INSERT's are its rows' keys)
    where: tuple[str, ...]  # an UPDATE's or a DELETE's WHERE columns, each ``= ?``, joined by AND
    rows: list  # tuples for UPDATE and DELETE, dicts for INSERT; never empty
    expect: int | None = None  # the rows the statement must change, or the batch is not written


_GAME_SET = ("state", "version", "status", "updated_at", "finished_at")
_BY_GAME = ("id", "version")
_BY_SEAT = ("game_id", "seat")


def encode(writes: Sequence[MoveWrite], sent: Sequence[str], now: datetime) -> list[Step]:
    """The statements storing ``writes`` and stamping ``sent_at`` = ``now`` on the outbox rows keyed ``sent``."""
    steps = []
    if writes:
        steps.append(Step("update", GAMES, _GAME_SET, _BY_GAME, [
            (w.state, w.version + 1, w.status, now, now if w.status in ENDED else None, w.game_id, w.version)
            for w in writes], expect=len(writes)))
        clocks = [(w.clocks, w.game_id) for w in writes if w.clocks is not None]
        if clocks:  # the banks go with the version-checked write above (the same transaction)
            steps.append(Step("update", GAMES, ("clocks",), ("id",), clocks))
    moves = [dict(m, game_id=w.game_id, created_at=now) for w in writes for m in w.moves]
    if moves:
        steps.append(Step("insert", MOVES, (), (), moves))
    back = [(True, w.game_id, seq) for w in writes for seq in w.taken_back]
    if back:
        # no count expected: the game's version check above guards the write (and asyncpg's executemany does
        # not sum the rows it changed)
        steps.append(Step("update", MOVES, ("taken_back",), ("game_id", "seq"), back))
    drops = [(w.game_id, seat) for w in writes if w.drop_timer_seats for seat in sorted(w.drop_timer_seats)]
    if drops:
        steps.append(Step("delete", TIMERS, (), _BY_SEAT, drops))
    timers = [dict(t, game_id=w.game_id) for w in writes for t in w.new_timers]
    if timers:
        steps.append(Step("insert", TIMERS, (), (), timers))
    outbox = [row for w in writes for row in w.outbox]
    if outbox:
        steps.append(Step("insert", OUTBOX, (), (), outbox))
    if sent:
        steps.append(Step("update", OUTBOX, ("sent_at",), ("key",), [(now, key) for key in sent]))
    return steps


_CORE: dict[tuple, Any] = {}  # (kind, table, columns, where) → the SQLAlchemy statement


def _core(step: Step):
    """The step as a SQLAlchemy Core statement (built once per shape): bind names ``s_<column>`` for SET,
    ``w_<column>`` for WHERE (a column's own name is SQLAlchemy's in a SET clause)."""
    key = (step.kind, step.table.name, step.columns, step.where)
    statement = _CORE.get(key)
    if statement is None:
        table = step.table
        if step.kind == "insert":
            statement = insert(table)
        else:
            where = and_(*(table.c[c] == bindparam(f"w_{c}") for c in step.where))
            statement = (update(table).where(where).values({c: bindparam(f"s_{c}") for c in step.columns})
                         if step.kind == "update" else delete(table).where(where))
        _CORE[key] = statement
    return statement


def _parameters(step: Step) -> list[dict]:
    if step.kind == "insert":
        return step.rows
    names = [f"s_{c}" for c in step.columns] + [f"w_{c}" for c in step.where]
    return [dict(zip(names, row)) for row in step.rows]


async def execute(session, steps: list[Step]) -> bool:
    """Run ``steps`` in ``session``'s transaction (the caller commits or rolls back); False as soon as a step
    changed another number of rows than it ``expect``s (a game moved on: its rows are not written)."""
    for step in steps:
        done = await session.execute(_core(step), _parameters(step))
        if step.expect is not None and done.rowcount != step.expect:
            return False
    return True
