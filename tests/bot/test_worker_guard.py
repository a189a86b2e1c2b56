"""A bot process killed with ``kill -9`` takes its AI and picture workers with it (they used to run on for ever,
~90 MB each, as orphans: a ProcessPoolExecutor worker never hears that its parent is gone)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PARENT = """
import asyncio
import rules
from bot.ai_pool import AIPool
from bot.render.pool import PicturePool

async def main():
    ai = AIPool(workers=1)
    state = rules.get_game("kardinal").new_game(2, seed=1)
    await ai.choose("kardinal", state.to_json(), state.to_act()[0], "random", 1, None)
    pictures = PicturePool(workers=1, warm=False)
    picture_pids = {f.result() for f in pictures.start()}
    print(*sorted(set(ai._executor._processes) | picture_pids), flush=True)
    await asyncio.sleep(120)

asyncio.run(main())
"""


def running(pid: int) -> bool:
    """Alive and not a zombie (an orphan that ended waits for its new parent to reap it)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def test_workers_end_with_the_bot_process_that_started_them():
    parent = subprocess.Popen([sys.executable, "-c", PARENT], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        pids = [int(p) for p in parent.stdout.readline().split()]
        assert len(pids) == 2 and all(running(p) for p in pids)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 30
        while any(running(p) for p in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [p for p in pids if running(p)]
    finally:
        parent.kill()
        for pid in pids if "pids" in locals() else []:
            if running(pid):
                os.kill(pid, signal.SIGKILL)
