"""Delivery: per-chat ordered queues that coalesce by slot, a per-chat rate budget, retries. Platform-neutral.

An adapter hands the service's messages to ``Delivery.submit`` and returns at once (a button is answered, a
command finished); one worker task per chat sends that chat's messages in order through the adapter's ``send``.

- **Order**: one chat's messages go out in the order they were submitted; chats never wait for each other.
- **Coalescing**: a message for a slot (``board:7`` in a group; ``hand:7`` of one person) that is still waiting
  is replaced by a newer one for the same slot, in place: a board edited ten times while waiting is sent once,
  in its newest form. The replaced messages count as delivered (their ``outbox_id`` is reported with the
  newest's). A replaced ``ping`` is not lost: the newest form still notifies when it still asks for a move.
- **Budget**: before every call that the platform counts, ``send`` awaits ``pace()``, which waits until the
  chat's budget allows it (Telegram groups: 20 a minute and 1 a second) and the token's (``overall``: the
  platform's global limit, Telegram about 30 a second, Discord 50). It sleeps in the chat's worker, never in a
  handler.
- **Admission, when the budget is short**: a chat's next message waits for room in both budgets *before* it is
  taken (``_admit``), so while it waits a newer board for its slot still replaces it — boards are coalesced
  first —, and while pings and answers to a person (a ping, a private message, a reply) wait for the token's
  budget, no other message is admitted: they go first.
- **Retries**: ``send`` raises ``RetryLater(seconds)`` on a 429 (or a network hiccup); the worker sleeps that
  long and tries again — the newest form of the message, should a newer one have arrived meanwhile — up to
  ``max_attempts`` times (far beyond the libraries' own 3 or 5), so four 429s in a row never drop a hand.
- **Drawn when sent**: ``prepare(message)``, when given, is awaited just before each send (the service's
  ``finish_one``: text rendered, picture drawn): what a message shows is made only for the form that is really
  sent, never for one that a newer message replaced while it waited. A ``prepare`` that fails is logged; the
  message goes as it is.
- **Held**: the outbox ids of the messages queued are reported to ``on_queued(outbox_ids)``
  (``DeliveryMarks.holding``, which keeps their claims alive however long they wait: no other process sends
  them meanwhile).
- **Done**: when a message was sent, superseded or given up on, ``on_delivered(outbox_ids)`` is awaited
  (``DeliveryMarks.delivered``).
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict, defaultdict, deque
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Iterable

from bot.service.messages import Message

log = logging.getLogger(__name__)


class RetryLater(Exception):
    """Raised by a ``send``: the platform asked to wait (429 ``retry_after``) or the network failed."""

    def __init__(self, seconds: float, reason: str = ""):
        super().__init__(reason or f"retry after {seconds:g} s")
        self.seconds = max(0.0, float(seconds))


@dataclass(frozen=True)
class Budget:
    """At most ``count`` counted calls in any ``seconds`` window, for each ``(count, seconds)`` limit."""

    limits: tuple[tuple[int, float], ...] = ()

    def wait(self, history: deque, now: float) -> float:
        longest = max((seconds for _, seconds in self.limits), default=0.0)
        while history and now - history[0] >= longest:
            history.popleft()
        delay = 0.0
        for count, seconds in self.limits:
            recent = [t for t in history if now - t < seconds]
            if len(recent) >= count:
                delay = max(delay, recent[-count] + seconds - now)
        return delay

    def scaled(self, factor: float) -> "Budget":
        return Budget(tuple((count, seconds * factor) for count, seconds in self.limits))


UNLIMITED = Budget()


@dataclass
class _Entry:
    message: Message
    meta: dict
    slot: str | None
    ids: list[int] = field(default_factory=list)
    busy: bool = False
    attempts: int = 0
    submitted: float = 0.0


SendFn = Callable[[Message, dict, Callable[[], Awaitable[None]]], Awaitable[Any]]


def default_chat_key(message: Message) -> str:
    if message.chat is not None:
        return f"{message.chat.platform}:c:{message.chat.id}"
    return f"{message.user.platform}:u:{message.user.id}"


def default_slot_key(message: Message) -> str | None:
    if not message.slot:
        return None
    return f"{message.slot}:{message.user.id}" if message.is_private else message.slot


class ShownButtons:
    """Which slots' messages, as this process last sent them, still show buttons (bounded: the least recently
    used are forgotten). A private hand a new ping replaces is deleted only when something on it could still be
    pressed — or when that is not known (sent by another process, before a restart): a hand whose picker went
    with its person's last move stays where it is, an honest record, and saves the platform a call; so does one
    whose only button was Undo (``Message.lapsing``: stale once anyone moved, answered "out of date" if pressed)."""

    def __init__(self, size: int = 50_000):
        self.size = size
        self._shown: OrderedDict[str, bool] = OrderedDict()

    def note(self, slot_key: str | None, buttons: bool) -> None:
        if slot_key:
            self._shown[slot_key] = buttons
            self._shown.move_to_end(slot_key)
            while len(self._shown) > self.size:
                self._shown.popitem(last=False)

    def pressable(self, slot_key: str | None) -> bool:
        return self._shown.get(slot_key, True) if slot_key else True


def urgent(message: Message) -> bool:
    """Goes first when the token's budget is short: a ping, what a person is told privately, a reply to them."""
    return message.ping or message.is_private or message.is_reply


def _still_asks(message: Message) -> bool:
    return not message.is_private or bool(message.buttons) or message.menu is not None


class Delivery:
    def __init__(self, send: SendFn, *, on_delivered: Callable[[list[int]], Awaitable[None]] | None = None,
                 chat_key: Callable[[Message], str] = default_chat_key,
                 slot_key: Callable[[Message], str | None] = default_slot_key,
                 budget: Callable[[str], Budget] = lambda key: UNLIMITED,
                 overall: Budget = UNLIMITED, max_attempts: int = 50,
                 clock: Callable[[], float] = time.monotonic,
                 prepare: Callable[[Message], Awaitable[None]] | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep, name: str = "delivery",
                 on_queued: Callable[[list], None] | None = None):
        self._send = send
        self._on_queued = on_queued
        self._prepare = prepare
        self._on_delivered = on_delivered
        self._chat_key = chat_key
        self._slot_key = slot_key
        self._budget = budget
        self._overall = overall
        self._overall_history: deque = deque()
        self._urgent_waiting = 0  # chats whose next message is urgent and waits for the token's budget
        # while urgent messages wait, others look again this often (the token's shortest spacing)
        self._step = min((seconds / count for count, seconds in overall.limits), default=0.01)
        self.max_attempts = max_attempts
        self.clock = clock
        self.sleep = sleep
        self.name = name
        self._queues: dict[str, deque[_Entry]] = {}
        self._workers: dict[str, asyncio.Task] = {}
        self._history: dict[str, deque] = defaultdict(deque)
        self._idle = asyncio.Event()
        self._idle.set()
        self._closed = False
        # figures for tests and the bench
        self.sent = 0
        self.superseded = 0
        self.retries = 0
        self.dropped = 0
        self.waits: list[float] = []  # submit → sent, seconds, per message

    # ------------------------------------------------------------------ in
    def submit(self, messages: Iterable[Message], meta: dict | None = None) -> None:
        """Queue messages (in order) for their chats; returns at once. ``meta`` goes with each to ``send``."""
        if self._closed:
            log.warning("%s is closed: %d messages not queued", self.name, len(list(messages)))
            return
        queued = []
        for message in messages:
            if message.outbox_id is not None:
                queued.append(message.outbox_id)
            key = self._chat_key(message)
            slot = self._slot_key(message)
            queue = self._queues.setdefault(key, deque())
            entry = None
            if slot is not None:
                entry = next((e for e in queue if e.slot == slot and not e.busy), None)
            if entry is not None:  # a newer form of a message still waiting: it takes the older one's place
                old = entry.message
                if old.ping and not message.ping and _still_asks(message):
                    message.ping = True
                if old.fresh and not message.fresh:
                    message.fresh = True
                if old.mentions and message.ping:
                    message.mentions = list({m.id: m for m in old.mentions + message.mentions}.values())
                entry.message = message
                entry.meta = {**entry.meta, **(meta or {})}
                if message.outbox_id is not None:
                    entry.ids.append(message.outbox_id)
                self.superseded += 1
            else:
                ids = [message.outbox_id] if message.outbox_id is not None else []
                queue.append(_Entry(message, dict(meta or {}), slot, ids, submitted=self.clock()))
            if key not in self._workers:
                self._idle.clear()
                self._workers[key] = asyncio.create_task(self._work(key), name=f"{self.name}:{key}")
        if queued and self._on_queued is not None:
            self._on_queued(queued)

    def pending(self, key: str | None = None) -> int:
        if key is not None:
            return len(self._queues.get(key, ()))
        return sum(len(q) for q in self._queues.values())

    async def idle(self, timeout: float | None = None) -> None:
        """Wait until every queue is empty (tests, the bench, a clean shutdown)."""
        await asyncio.wait_for(self._idle.wait(), timeout)

    async def close(self, drain: float | None = 5.0) -> None:
        """Stop taking messages; give the queues ``drain`` seconds, then cancel what is left."""
        self._closed = True
        if drain:
            try:
                await self.idle(drain)
            except asyncio.TimeoutError:
                log.warning("%s: %d messages were still waiting at shutdown", self.name, self.pending())
        for task in list(self._workers.values()):
            task.cancel()
        for task in list(self._workers.values()):
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        self._workers.clear()
        self._idle.set()

    # ------------------------------------------------------------------ out
    def _pace(self, key: str) -> Callable[[], Awaitable[None]]:
        budget = self._budget(key)

        async def pace() -> None:
            history = self._history[key]
            while True:
                now = self.clock()
                delay = max(budget.wait(history, now), self._overall.wait(self._overall_history, now))
                if delay <= 0:
                    history.append(now)
                    self._overall_history.append(now)
                    return
                await self.sleep(delay)
        return pace

    async def _admit(self, key: str, queue: deque) -> None:
        """Wait, without taking the chat's next message, until both budgets have room for it — and, for a message
        that is not urgent, until no urgent one waits for the token's budget. Nothing is counted here: ``pace``
        counts the calls."""
        budget = self._budget(key)
        history = self._history[key]
        waiting = False
        try:
            while True:
                now = self.clock()
                mine = urgent(queue[0].message)  # the head may be replaced by a newer form meanwhile
                overall = self._overall.wait(self._overall_history, now)
                if mine and overall > 0 and not waiting:
                    waiting = True
                    self._urgent_waiting += 1
                delay = max(budget.wait(history, now), overall)
                if delay <= 0 and (mine or self._urgent_waiting == 0):
                    return
                await self.sleep(delay if delay > 0 else self._step)
        finally:
            if waiting:
                self._urgent_waiting -= 1

    def _sent_now(self, key: str) -> None:
        """The chat's last stamp moves to when its request ended: the platform counts a request when it
        arrives, which a slow one does long after it was paced (its window must not start before then)."""
        history = self._history.get(key)
        if history:
            history[-1] = max(history[-1], self.clock())

    async def _ready(self, message: Message) -> None:
        try:
            await self._prepare(message)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("%s: could not prepare a %s message; it goes as it is", self.name, message.kind,
                        exc_info=True)

    async def _work(self, key: str) -> None:
        queue = self._queues[key]
        pace = self._pace(key)
        try:
            while queue:
                await self._admit(key, queue)
                entry = queue[0]
                entry.busy = True
                entry.attempts += 1
                try:
                    if self._prepare is not None:
                        await self._ready(entry.message)
                    try:
                        await self._send(entry.message, entry.meta, pace)
                    finally:
                        self._sent_now(key)
                except RetryLater as wait:
                    entry.busy = False
                    if entry.attempts < self.max_attempts:
                        self.retries += 1
                        log.info("%s: %s waits %.2f s (attempt %d): %s", self.name, key, wait.seconds, entry.attempts,
                                 wait)
                        await self.sleep(wait.seconds)
                        continue
                    self.dropped += 1
                    log.warning("%s: gave up on a %s message for %s after %d attempts", self.name,
                                entry.message.kind, key, entry.attempts)
                except asyncio.CancelledError:
                    raise
                except Exception:  # the adapter's send reports its own errors; this is a bug, not a reason to stop
                    self.dropped += 1
                    log.warning("%s: a %s message for %s failed", self.name, entry.message.kind, key,
                                exc_info=True)
                else:
                    self.sent += 1
                    self.waits.append(self.clock() - entry.submitted)
                queue.popleft()
                if entry.ids and self._on_delivered is not None:
                    try:
                        await self._on_delivered(entry.ids)
                    except Exception:
                        log.warning("%s: could not mark %s delivered", self.name, entry.ids, exc_info=True)
        finally:
            if self._workers.get(key) is asyncio.current_task():
                del self._workers[key]
            if not queue:
                self._queues.pop(key, None)
            if not self._workers:
                self._idle.set()
