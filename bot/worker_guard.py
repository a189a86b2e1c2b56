"""Worker processes (the AI's, the pictures') end when the bot process that started them is gone.

Why: a ``ProcessPoolExecutor`` worker waits on its call queue, and it holds both ends of that queue's pipe itself,
so the end of its parent never reaches it as end-of-file. A bot process killed with ``kill -9`` (or by the OOM
killer, or a crash) therefore left its workers running for ever, ~90 MB each, and a restarted bot started new
ones beside them. A daemon thread in each worker watches the parent and ends the worker once it is gone.
(``prctl(PR_SET_PDEATHSIG)`` would be Linux only, and fires when the parent's *thread* that spawned the worker
ends, which for an executor's workers is not the process ending.)
"""
from __future__ import annotations

import os
import threading
import time

CHECK_EVERY = 0.5  # seconds


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(CHECK_EVERY)
    os._exit(0)  # orphaned: nothing of this worker's is owed to anyone (its caller is gone)


def exit_with_parent() -> None:
    """Call first thing in a worker process: it exits within ``CHECK_EVERY`` seconds of its parent's end."""
    threading.Thread(target=_watch, args=(os.getppid(),), name="exit-with-parent", daemon=True).start()


def start_worker(initializer=None, *args) -> None:
    """A pool's ``initializer``: guard the worker, then run the pool's own initializer (if any)."""
    exit_with_parent()
    if initializer is not None:
        initializer(*args)
