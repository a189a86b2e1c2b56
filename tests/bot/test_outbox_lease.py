"""Two processes deliver from one outbox (two ``Service`` objects on one SQLite file; PostgreSQL) while sending is
slow: a send that takes longer than the claim's lease, messages queued behind it, a 429 wait. Issue #34: a
reminder was delivered twice, its claim ran out while the process that made it was still sending it. Each
message goes out once; a process closed mid-send still leaves its messages to the other after the lease.
"""
from __future__ import annotations

import asyncio
from collections import Counter
from datetime import timedelta

import pytest

from bot.delivery import Delivery, RetryLater
from bot.service import ChatRef, Message, UserRef, build_service
from bot.service.outbox import outbox_rows
from storage import UnitOfWork

LEASE = timedelta(seconds=1.5)  # renewed every 0.5 s: a loop stalled for a second under load loses nothing
SLOW = 3.0  # seconds a send takes: well beyond the lease
GROUPS = [ChatRef("telegram", f"-10{k}", f"-10{k}", "group") for k in range(2)]
ALICE = UserRef("telegram", "1", "Alice")


class Platform:
    """One chat platform both processes send to: which process sent which outbox message, in what order."""

    def __init__(self, busy_once: set[str] = frozenset()):
        self.sent: list[tuple[str, str, str]] = []  # (process, chat or person, outbox key)
        self.sending = asyncio.Event()
        self.busy_once = set(busy_once)  # texts answered once with a 429 that outlasts the lease

    def sender(self, process: str):
        async def send(message, meta, pace) -> None:
            await pace()
            self.sending.set()
            if message.text in self.busy_once:
                self.busy_once.discard(message.text)
                raise RetryLater(2 * LEASE.total_seconds())
            await asyncio.sleep(SLOW)
            self.sent.append((process, (message.chat or message.user).id, message.outbox_id))
        return send


class Process:
    """A bot process serving Telegram: its service, its delivery queues and its outbox loop."""

    def __init__(self, service, name: str, platform: Platform):
        self.service, self.name = service, name
        service.ctx.serves = {"telegram"}
        service.ctx.delivery_lease = LEASE
        self.delivery = Delivery(platform.sender(name), on_delivered=service.marks.delivered,
                                 on_queued=service.marks.holding, name=name)
        self.loop = asyncio.create_task(service.outbox_loop(self.deliver, ["telegram"], interval=0.05))

    async def deliver(self, messages) -> None:
        self.delivery.submit(messages)

    async def close(self) -> None:
        """As ``python -m bot run`` ends (here mid-send): the queues are dropped, then the service closes."""
        await self.delivery.close(drain=0)
        await self.service.close()


@pytest.fixture
async def platform_and_processes(database_url):
    made = []

    async def start(platform: Platform) -> list[Process]:
        for name in ("one", "two"):
            made.append(Process(await build_service(database_url), name, platform))
        return made

    yield start
    for process in made:
        if not process.loop.done():
            await process.close()


async def told(process: Process, messages):
    """What a timer or move of ``process`` says: stored in its transaction (claimed by the process, which
    serves the platform), then handed to its own delivery, as an adapter does with the service's answer."""
    rows = outbox_rows(process.service.ctx, messages)
    async with UnitOfWork(process.service.db) as uow:
        await uow.outbox.add(rows)
        await uow.commit()
    await process.deliver(messages)
    return [m.outbox_id for m in messages]


def reminders():
    said = []
    for k, chat in enumerate(GROUPS):  # two chats side by side, each a queue of three behind a slow send
        said += [Message(f"half of your turn {k}.{n}", chat=chat, game_id=1, kind="remind") for n in range(3)]
    said.append(Message("your turn", user=ALICE, game_id=1, kind="remind"))
    return said


async def all_sent(processes: list[Process], keys: list[str], platform: Platform, limit: float = 120) -> None:
    """Until every message was sent and marked, and no delivery holds any more (bounded, never timed)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while loop.time() < deadline:
        live = [p for p in processes if not p.loop.done()]
        if {k for _, _, k in platform.sent} >= set(keys) and all(p.delivery.pending() == 0 for p in live):
            for p in live:
                await p.service.flush_delivered()
            if not await live[0].service.pending_outbox("telegram"):
                return
        await asyncio.sleep(0.1)
    raise AssertionError(f"not all sent: {platform.sent}")


async def test_a_message_still_queued_or_being_sent_is_never_claimed_by_another_process(platform_and_processes):
    """Process one said seven reminders and sends them slowly (each send outlasts the lease; a 429 waits two
    leases): process two, whose outbox loop runs all along, never claims one of them; each goes out once, in
    its chat's order."""
    platform = Platform(busy_once={"half of your turn 1.1"})
    one, two = await platform_and_processes(platform)
    said = reminders()
    keys = await told(one, said)

    await all_sent([one, two], keys, platform)

    assert Counter(k for _, _, k in platform.sent) == Counter(keys)  # each exactly once
    assert {p for p, _, _ in platform.sent} == {"one"}
    for chat in GROUPS:
        in_chat = [m.outbox_id for m in said if m.chat == chat]
        assert [k for _, c, k in platform.sent if c == chat.id] == in_chat  # the chat's order


async def test_a_process_closed_mid_send_leaves_its_messages_to_the_other_after_the_lease(platform_and_processes):
    """Process one ends while its first sends are under way: it stops renewing, and once the lease has run out
    process two claims the messages and sends each once, in its chat's order."""
    platform = Platform()
    one, two = await platform_and_processes(platform)
    said = reminders()
    keys = await told(one, said)
    await platform.sending.wait()

    await one.close()  # its sends in progress are cut off: nothing of it reached the platform
    await all_sent([two], keys, platform)

    assert Counter(k for _, _, k in platform.sent) == Counter(keys)
    assert {p for p, _, _ in platform.sent} == {"two"}
    for chat in GROUPS:
        in_chat = [m.outbox_id for m in said if m.chat == chat]
        assert [k for _, c, k in platform.sent if c == chat.id] == in_chat
