"""A whole game through the fake Discord, counted (issue 38; ``bench.calls`` and the tests): the REST calls of each
kind per human move, the notifications each person got when their turn came, and what a person who moved and is
still to act saw (issue 36, item 6: edited in place, no ping).

People take the first option of their picker one interaction at a time, and the bot finishes between them: a
human-paced table, nothing coalesced.
"""
from __future__ import annotations

import re
from collections import Counter

from tests.discord_adapter.fake_discord import CHANNEL_ID
from tests.discord_adapter.test_discord import act, game_over, latest_picker, pick
from tests.telegram_adapter.whole_game import Count, human_moves

VERSION = re.compile(r"^h[bs]:p:\d+:(\d+):")


def kind_of(method: str, path: str, channel: int = CHANNEL_ID) -> str | None:
    """What a REST call was; None for calls no move makes (the gateway, the commands' sync …)."""
    if "/interactions/" in path or "/webhooks/" in path:
        return "answer"  # an interaction's acknowledgement, its follow-ups and their edits
    parts = path.split("/")
    if "/channels/" in path and "/messages" in path:
        where = "group" if parts[4] == str(channel) else "private"
        return {"POST": f"{where} send", "PATCH": f"{where} edit", "DELETE": f"{where} delete"}.get(method)
    if path.endswith("/users/@me/channels") or (method == "GET" and "/users/" in path and "@me" not in path):
        return "other"  # a DM channel opened, a person fetched
    return None


def _version(message: dict) -> int:
    return int(VERSION.match(pick(message)[1]).group(1))


async def play_counted(dc, people: list[dict], limit: int = 5000) -> Count:
    """Play the started game 1 to its end; count from the first interaction on."""
    api, count = dc.api, Count()
    await dc.idle()
    ids = [int(p["id"]) for p in people]
    waiting_since = {uid: len(api.notifying(uid)) for uid in ids}  # (every new DM notifies: the first hands)
    movers = {int(p["id"]) for p in people if latest_picker(dc, p)}
    count.turn_pings += [len(api.notifying(uid)) for uid in movers]
    first = len(api.requests)
    for _ in range(limit):
        if game_over(dc):
            break
        person = next((p for p in people if latest_picker(dc, p)), None)
        if person is None:
            await dc.wait_for(lambda: game_over(dc) or any(latest_picker(dc, p) for p in people), 30)
            continue
        uid = int(person["id"])
        message = latest_picker(dc, person)
        rang = len(api.notifying(uid))
        version, pressed = _version(message), message["id"]  # (the fake edits its message dicts in place)
        await act(dc, person, message)
        await dc.idle()
        after = latest_picker(dc, person)
        if after is not None and _version(after) > version:
            count.kept += 1
            count.kept_pinged += len(api.notifying(uid)) > rang
            count.kept_reposted += after["id"] != pressed
        now = {int(p["id"]) for p in people if latest_picker(dc, p)}
        for new in now - movers:
            count.turn_pings.append(len(api.notifying(new)) - waiting_since[new])
        for other in set(ids) - now:
            waiting_since[other] = len(api.notifying(other))
        movers = now
    await dc.idle()
    count.kinds = Counter(k for method, path in api.requests[first:] if (k := kind_of(method, path)))
    count.moves = await human_moves(dc.service)
    count.over = game_over(dc)
    return count
