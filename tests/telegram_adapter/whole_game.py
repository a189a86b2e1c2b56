"""A whole game through the fake Bot API, counted (issue 38; ``bench.calls`` and the tests): the API calls of each
kind per human move, the notifications each person got when their turn came, and what a person who moved and
is still to act saw (issue 36, item 6: edited in place, no ping).

People press the first option of their picker one press at a time, and the bot finishes between presses: a
human-paced table, nothing coalesced.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from storage import UnitOfWork
from tests.telegram_adapter.test_telegram import choose, game_over

VERSION = re.compile(r"^p:\d+:(\d+):")
KINDS = ["group send", "group edit", "group delete", "private send", "private edit", "private delete", "answer"]


def kind_of(method: str, params: dict) -> str | None:
    """What a Bot API call was, by the chat it went to; None for calls no move makes (getUpdates, getMe …)."""
    if method == "answerCallbackQuery":
        return "answer"
    try:
        chat = int(params.get("chat_id"))
    except (TypeError, ValueError):
        return None
    where = "group" if chat < 0 else "private"
    for prefix, what in (("send", "send"), ("edit", "edit"), ("deleteMessage", "delete")):
        if method.startswith(prefix):
            return f"{where} {what}"
    return None


@dataclass
class Count:
    kinds: Counter = field(default_factory=Counter)
    moves: int = 0  # moves people made (the log's rows by a player)
    turn_pings: list[int] = field(default_factory=list)  # notifications of each turn that came to a person
    kept: int = 0  # moves after which their person was still to act
    kept_pinged: int = 0  # … that notified them again
    kept_reposted: int = 0  # … whose picker came in another message than the one pressed
    over: bool = False

    @property
    def calls(self) -> int:
        return sum(self.kinds.values())

    @property
    def per_move(self) -> float:
        return self.calls / max(1, self.moves)


async def human_moves(service, game_id: int = 1) -> int:
    async with UnitOfWork(service.db) as uow:
        return sum(1 for move in await uow.games.moves(game_id) if move.by == "player")


def picker_of(api, person) -> dict | None:
    message = api.last_with_keyboard(person["id"])
    return message if message is not None and choose(message) else None


async def play_counted(tg, people: list[dict], limit: int = 5000) -> Count:
    """Play the started game 1 to its end; count from the first press on."""
    api, count = tg.api, Count()
    await tg.idle()
    rings = {p["id"]: lambda uid=p["id"]: sum(1 for s in api.sends if s["notify"] and s["chat"] == uid)
             for p in people}
    waiting_since = {p["id"]: rings[p["id"]]() for p in people}  # notifications when they last had no picker
    movers = {p["id"] for p in people if picker_of(api, p)}
    count.turn_pings += [rings[uid]() for uid in movers]  # the start: the first hands ping
    first = len(api.calls)
    for _ in range(limit):
        if game_over(api):
            break
        person = next((p for p in people if picker_of(api, p)), None)
        if person is None:
            await api.wait_for(lambda: game_over(api) or any(picker_of(api, p) for p in people), 30)
            continue
        message = picker_of(api, person)
        data = choose(message)
        rang = rings[person["id"]]()
        await tg.press(person, person["id"], message, data)
        await tg.idle()
        after = picker_of(api, person)
        if after is not None and int(VERSION.match(choose(after)).group(1)) > int(VERSION.match(data).group(1)):
            count.kept += 1
            count.kept_pinged += rings[person["id"]]() > rang
            count.kept_reposted += after["message_id"] != message["message_id"]
        now = {p["id"] for p in people if picker_of(api, p)}
        for uid in now - movers:
            count.turn_pings.append(rings[uid]() - waiting_since[uid])
        for uid in {p["id"] for p in people} - now:
            waiting_since[uid] = rings[uid]()
        movers = now
    await tg.idle()
    count.kinds = Counter(k for method, params in api.calls[first:] if (k := kind_of(method, params)))
    count.moves = await human_moves(tg.service)
    count.over = game_over(api)
    return count
