"""A command whose write waits behind a frozen process: its asker hears that it is pending, not silence.

On SQLite a process stopped while it holds the writers' queue (SIGSTOP, a paused container, a debugger) makes
every other process's write wait (issue 34). When a command's write has waited ``ctx.pending_after`` seconds
while the queue is stuck, the bus answers "still pending" and the command finishes alone: a move's messages
are stored with it (the outbox) and told by the outbox loop once it is stored. Under mere load the person
waits for the real answer, as before.
"""
from __future__ import annotations

import asyncio
import contextvars
import logging

from rules.api import IllegalAction
from storage import StaleVersion, StorageUnavailable, writers
from storage.group_commit import watch as watch_writes
from bot.service.errors import ServiceError

log = logging.getLogger(__name__)
_late: set[asyncio.Task] = set()  # commands answered "pending" that still run


class StillPending(Exception):
    """The command's write waits for a stuck database; it goes on in the background."""


async def in_time(coroutine, after: float):
    """The command's result, or ``StillPending`` once its write has waited ``after`` seconds behind a stuck
    writers' queue (the command then goes on alone)."""
    context = contextvars.copy_context()
    waiting = context.run(watch_writes)
    task = asyncio.get_running_loop().create_task(coroutine, context=context)
    try:
        while True:
            done, _pending = await asyncio.wait((task,), timeout=after)
            if done:
                return task.result()
            if waiting.writes and writers.stuck():  # a frozen process, not mere load: it may wait long
                _late.add(task)
                task.add_done_callback(_finished_late)
                raise StillPending
    except asyncio.CancelledError:
        task.cancel()
        raise


def _finished_late(task: asyncio.Task) -> None:
    _late.discard(task)
    if task.cancelled():
        return
    error = task.exception()
    if error is not None and not isinstance(error, (ServiceError, IllegalAction, StaleVersion, StorageUnavailable)):
        log.error("a command answered as pending failed: %r", error)
