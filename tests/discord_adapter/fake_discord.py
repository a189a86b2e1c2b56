"""A fake Discord: REST API and gateway on 127.0.0.1, enough for discord.py 2.7 to log in, sync slash
commands, receive interactions and send, edit and DM messages.

The gateway speaks ``zlib-stream`` like the real one (one compressor per connection, each frame flushed
with Z_SYNC_FLUSH). REST answers carry ``Content-Type: application/json`` exactly. Real errors people
hit are faked: 50007 (closed DMs); 10062 (an interaction answered after ``ack_deadline``, 3 s); 40060 (answered
twice); 50027 (a token used after ``token_ttl``, 15 min, configurable for tests); 429 with ``retry_after``
(injected per channel, or beyond ``channel_rate`` posts in a window).

Threads (issue 39): a public thread started from a message (its id is the message's, as on Discord), refused
without Create Public Threads (50013), for a name over 100 characters (50035), a second time for one message
(160004) and beyond ``thread_limit`` active threads (160006); members added (Send Messages in Threads, else 50013);
archive and lock by PATCH (locking, or opening a locked thread, without Manage Threads: 50013); an edit in an
archived thread (50083); a post in a thread without Send Messages in Threads (50013), in one archived and
locked (50083), or deleted (10003 Unknown Channel); an unlocked archived thread is unarchived by a post, as on
Discord. ``bot_permissions``: the bot's own (its role's) permissions; ``thread_permissions`` gives it the three.

``notifications`` records whom each new message notified: a new DM its recipient (unless
SUPPRESS_NOTIFICATIONS), a new channel message the users it mentions as allowed by ``allowed_mentions``
(absent: every mentioned user). Edits never notify.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
import zlib
from dataclasses import dataclass, field

from aiohttp import web

APP_ID = 900000000000000001
GUILD_ID = 910000000000000001
CHANNEL_ID = 910000000000000002
OTHER_CHANNEL_ID = 910000000000000003
MOD_ROLE_ID = 910000000000000009
MANAGE_GUILD = 1 << 5
EVERYONE_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 16) | (1 << 31)  # view, send, history, use commands
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
THREAD_PERMISSIONS = MANAGE_THREADS | CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
BOT_ROLE_ID = 910000000000000008
PUBLIC_THREAD = 11
EPHEMERAL = 1 << 6
SUPPRESS_NOTIFICATIONS = 1 << 12
TIMESTAMP = "2026-11-23T10:00:00+00:00"

BOT_USER = {"id": str(APP_ID), "username": "Herald", "discriminator": "0", "global_name": "Herald",
            "avatar": None, "bot": True, "flags": 0, "public_flags": 0}


def user(uid: int, name: str) -> dict:
    return {"id": str(uid), "username": name.lower(), "discriminator": "0", "global_name": name, "avatar": None,
            "bot": False, "flags": 0, "public_flags": 0}


def json_response(payload, status: int = 200) -> web.Response:
    return web.Response(body=json.dumps(payload).encode(), status=status,
                        headers={"Content-Type": "application/json"})


def error(status: int, code: int, message: str, **extra) -> web.Response:
    response = json_response({"code": code, "message": message, **extra}, status)
    if status == 429:  # like Discord's own (not Cloudflare's): discord.py waits retry_after and tries again
        response.headers.update({"Via": "1.1 google", "X-RateLimit-Scope": "user"})
    return response


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard a server's events go to: Discord's ``(guild_id >> 22) % shard_count``."""
    return (guild_id >> 22) % shard_count


@dataclass
class Interaction:
    id: int
    token: str
    kind: int
    user: dict
    channel_id: int
    message_id: int | None = None  # the message a component was on
    callback: dict | None = None
    original_id: int | None = None  # the message the response created or updated
    followups: list[int] = field(default_factory=list)
    choices: list[dict] | None = None  # an autocomplete answer
    created: float = 0.0
    acked: float | None = None


class FakeDiscord:
    def __init__(self, *, ack_deadline: float = 3.0, token_ttl: float = 900.0,
                 channel_rate: tuple[int, float] | None = None, clock=time.monotonic, guild_id: int = GUILD_ID,
                 thread_permissions: bool = False, thread_limit: int = 1000):
        self.guild_id = guild_id  # the one server the bot is in
        self.bot_permissions = EVERYONE_PERMISSIONS | (THREAD_PERMISSIONS if thread_permissions else 0)
        self.thread_limit = thread_limit  # active threads a server may have (Discord: 1000)
        self.threads: dict[int, dict] = {}  # thread id → its channel object (with "members", "deleted")
        self.guild_locale = "en-US"  # the server's preferred locale (interactions carry it as guild_locale)
        self.ack_deadline = ack_deadline
        self.token_ttl = token_ttl
        self.channel_rate = channel_rate  # (posts, seconds) per channel, like Discord's 5 per 5 s
        self.clock = clock
        self.rate_limit_channel: dict[int, int] = {}  # channel → answer this many posts with 429 first
        self.posted: list[tuple[float, int]] = []  # (time, channel) of every accepted post
        self.refused: list[tuple[float, int]] = []  # the same, answered with 429
        self.notifications: list[dict] = []  # {"user", "channel", "message_id", "how": "dm" | "mention"}
        self.late: list[int] = []  # interactions answered too late (10062)
        self.port = 0
        self.ids = itertools.count(APP_ID + 1000)
        self.users: dict[int, dict] = {}
        self.admins: set[int] = set()
        self.closed_dms: set[int] = set()
        self.dm_channels: dict[int, int] = {}  # user id → DM channel id
        self.messages: dict[int, dict] = {}  # every message, by id (ephemeral ones too)
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.commands: list[dict] = []
        self.requests: list[tuple[str, str]] = []
        self.rate_limit_next: int = 0  # answer this many message posts with 429 first
        self.sockets: list = []
        self.identified = asyncio.Event()
        self.shards_seen: set[tuple[int, int]] = set()  # (shard id, shard count) of every IDENTIFY
        self._runner: web.AppRunner | None = None

    # ------------------------------------------------------------------ server
    async def start(self) -> int:
        app = web.Application(middlewares=[self._log])
        r = app.router
        r.add_get("/gateway", self.gateway)
        r.add_get("/api/v10/users/@me", self.get_me)
        r.add_get("/api/v10/users/{uid}", self.get_user)
        r.add_get("/api/v10/oauth2/applications/@me", self.get_application)
        r.add_put("/api/v10/applications/{app}/commands", self.put_commands)
        r.add_post("/api/v10/users/@me/channels", self.open_dm)
        r.add_post("/api/v10/channels/{cid}/messages", self.post_message)
        r.add_post("/api/v10/channels/{cid}/messages/{mid}/threads", self.start_thread)
        r.add_put("/api/v10/channels/{cid}/thread-members/{uid}", self.add_thread_member)
        r.add_patch("/api/v10/channels/{cid}", self.edit_channel)
        r.add_patch("/api/v10/channels/{cid}/messages/{mid}", self.edit_message)
        r.add_delete("/api/v10/channels/{cid}/messages/{mid}", self.delete_message)
        r.add_post("/api/v10/interactions/{iid}/{token}/callback", self.callback)
        r.add_post("/api/v10/webhooks/{app}/{token}", self.followup)
        r.add_patch("/api/v10/webhooks/{app}/{token}/messages/{mid}", self.edit_webhook_message)
        r.add_delete("/api/v10/webhooks/{app}/{token}/messages/{mid}", self.delete_webhook_message)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        return self.port

    async def stop(self) -> None:
        for ws in list(self.sockets):
            await ws.close()
        if self._runner:
            await self._runner.cleanup()

    @web.middleware
    async def _log(self, request, handler):
        self.requests.append((request.method, request.path))
        return await handler(request)

    # ------------------------------------------------------------------ gateway
    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        compressor = zlib.compressobj()
        sequence = itertools.count(1)
        lock = asyncio.Lock()

        async def send(payload: dict) -> None:
            async with lock:
                data = json.dumps(payload).encode()
                await ws.send_bytes(compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH))

        async def dispatch(event: str, data: dict) -> None:
            await send({"op": 0, "t": event, "s": next(sequence), "d": data})

        ws.dispatch = dispatch  # type: ignore[attr-defined]
        await send({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        async for frame in ws:
            payload = json.loads(frame.data)
            if payload["op"] == 1:
                await send({"op": 11, "d": None, "s": None, "t": None})
            elif payload["op"] == 2:
                # a sharded client names its shard; the gateway sends it only its servers' events (DMs: shard 0)
                ws.shard = tuple(payload["d"].get("shard") or (0, 1))  # type: ignore[attr-defined]
                mine = shard_of(self.guild_id, ws.shard[1]) == ws.shard[0]
                await dispatch("READY", {
                    "v": 10, "user": BOT_USER, "guilds": [{"id": str(self.guild_id), "unavailable": True}] if mine else [],
                    "session_id": "fake-session", "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
                    "application": {"id": str(APP_ID), "flags": 0}, "shard": list(ws.shard),
                    "private_channels": [], "relationships": []})
                if mine:
                    await dispatch("GUILD_CREATE", self.guild())
                self.sockets.append(ws)
                self.shards_seen.add(ws.shard)
                self.identified.set()
        if ws in self.sockets:
            self.sockets.remove(ws)
        return ws

    def guild(self) -> dict:
        roles = [{"id": str(self.guild_id), "name": "@everyone", "permissions": str(EVERYONE_PERMISSIONS),
                  "position": 0, "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0},
                 {"id": str(MOD_ROLE_ID), "name": "Mods", "permissions": str(EVERYONE_PERMISSIONS | MANAGE_GUILD),
                  "position": 1, "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0},
                 {"id": str(BOT_ROLE_ID), "name": "Herald", "permissions": str(self.bot_permissions),
                  "position": 2, "color": 0, "hoist": False, "managed": True, "mentionable": False, "flags": 0}]
        channels = [{"id": str(cid), "type": 0, "name": name, "position": i, "permission_overwrites": [],
                     "guild_id": str(self.guild_id)}
                    for i, (cid, name) in enumerate([(CHANNEL_ID, "games"), (OTHER_CHANNEL_ID, "tavern")])]
        members = [self.member(BOT_USER)] + [self.member(u) for u in self.users.values()]
        return {"id": str(self.guild_id), "name": "Castle", "owner_id": str(next(iter(self.users), APP_ID)),
                "roles": roles, "channels": channels, "members": members, "member_count": len(members),
                "emojis": [], "stickers": [], "features": [], "large": False, "unavailable": False,
                "voice_states": [], "presences": [], "threads": [], "stage_instances": [],
                "guild_scheduled_events": [], "premium_tier": 0, "preferred_locale": "en-US",
                "joined_at": TIMESTAMP}

    def member(self, person: dict) -> dict:
        uid = int(person["id"])
        roles = [str(MOD_ROLE_ID)] if uid in self.admins else [str(BOT_ROLE_ID)] if uid == APP_ID else []
        permissions = EVERYONE_PERMISSIONS | (MANAGE_GUILD if uid in self.admins else 0)
        return {"user": person, "roles": roles, "joined_at": TIMESTAMP, "deaf": False, "mute": False, "flags": 0,
                "permissions": str(permissions), "nick": None, "avatar": None}

    async def dispatch(self, event: str, data: dict) -> None:
        """Send an event to the connection of the shard it belongs to: a server's events to the shard of that
        server, direct messages to shard 0 (as Discord routes them)."""
        await self.identified.wait()
        guild = data.get("guild_id")
        for ws in list(self.sockets):
            shard_id, count = getattr(ws, "shard", (0, 1))
            if (shard_of(int(guild), count) if guild else 0) == shard_id:
                await ws.dispatch(event, data)

    # ------------------------------------------------------------------ people act
    def add_user(self, uid: int, name: str, admin: bool = False) -> dict:
        self.users[uid] = user(uid, name)
        if admin:
            self.admins.add(uid)
        return self.users[uid]

    def _channel_payload(self, channel_id: int) -> dict:
        if channel_id in self.threads:
            return self._thread_payload(self.threads[channel_id])
        for uid, dm in self.dm_channels.items():
            if dm == channel_id:
                return {"id": str(dm), "type": 1, "recipients": [self.users[uid]], "last_message_id": None,
                        "flags": 0}
        return {"id": str(channel_id), "type": 0, "guild_id": str(self.guild_id), "name": "games", "position": 0,
                "permission_overwrites": [], "nsfw": False, "flags": 0}

    def _interaction(self, kind: int, person: dict, channel_id: int, data: dict,
                     message: dict | None = None) -> tuple[Interaction, dict]:
        iid = next(self.ids)
        token = f"token-{iid}"
        record = Interaction(iid, token, kind, person, channel_id, int(message["id"]) if message else None,
                             created=self.clock())
        self.interactions[iid] = record
        self.by_token[token] = record
        in_dm = channel_id in self.dm_channels.values()
        payload = {"id": str(iid), "application_id": str(APP_ID), "type": kind, "data": data, "token": token,
                   "version": 1, "channel_id": str(channel_id), "channel": self._channel_payload(channel_id),
                   "locale": person.get("locale", "en-US"),  # the person's client language
                   "app_permissions": str(self.bot_permissions), "entitlements": [],
                   "authorizing_integration_owners": {"0": str(self.guild_id)} if not in_dm else {"1": person["id"]},
                   "context": 1 if in_dm else 0, "attachment_size_limit": 8 * 1024 * 1024}
        if in_dm:
            payload["user"] = person
        else:
            payload["guild_id"] = str(self.guild_id)
            payload["guild_locale"] = self.guild_locale
            payload["member"] = self.member(person)
        if message is not None:
            payload["message"] = self._public(message)
        return record, payload

    async def slash(self, person: dict, name: str, channel_id: int = CHANNEL_ID, **options) -> Interaction:
        """A slash command; an option given as a person (a user dict) is a USER option with its resolved data."""
        command = next((c for c in self.commands if c["name"] == name), None)
        opts = [{"name": k, "type": 6 if isinstance(v, dict) else 3 if isinstance(v, str) else 4,
                 "value": v["id"] if isinstance(v, dict) else v} for k, v in options.items() if v is not None]
        data = {"id": command["id"] if command else str(next(self.ids)), "name": name, "type": 1, "options": opts}
        people = [v for v in options.values() if isinstance(v, dict)]
        if people:
            data["resolved"] = {"users": {p["id"]: p for p in people},
                                "members": {p["id"]: {k: v for k, v in self.member(p).items() if k != "user"}
                                            for p in people}}
        record, payload = self._interaction(2, person, channel_id, data)
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    async def autocomplete(self, person: dict, name: str, focused: str, value: str,
                           channel_id: int = CHANNEL_ID, **options) -> Interaction:
        command = next(c for c in self.commands if c["name"] == name)
        opts = [{"name": k, "type": 3, "value": v} for k, v in options.items()]
        opts.append({"name": focused, "type": 3, "value": value, "focused": True})
        data = {"id": command["id"], "name": name, "type": 1, "options": opts}
        record, payload = self._interaction(4, person, channel_id, data)
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    def _clickable(self, message: dict) -> None:
        """Like Discord: a deleted message is gone from the client, nobody can click it (a test that tries has
        picked the wrong message, e.g. a hand retired when a newer one pinged)."""
        stored = self.messages.get(int(message["id"]))
        if stored is not None and stored.get("deleted"):
            raise AssertionError(f"message {message['id']} was deleted: it cannot be clicked")

    async def click(self, person: dict, message: dict, custom_id: str) -> Interaction:
        self._clickable(message)
        data = {"custom_id": custom_id, "component_type": 2}
        record, payload = self._interaction(3, person, int(message["channel_id"]), data, message)
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    async def select(self, person: dict, message: dict, custom_id: str, values: list[str]) -> Interaction:
        self._clickable(message)
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        record, payload = self._interaction(3, person, int(message["channel_id"]), data, message)
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    async def chatter(self, person: dict, text: str, channel_id: int = CHANNEL_ID) -> dict:
        """Someone writes in the channel (the bot only counts it, to know when its board scrolled away)."""
        message = self._store(channel_id, person, {"content": text})
        event = dict(message, guild_id=str(self.guild_id), member=self.member(person))
        await self.dispatch("MESSAGE_CREATE", event)
        return message

    # ------------------------------------------------------------------ what people see
    def channel_messages(self, channel_id: int = CHANNEL_ID) -> list[dict]:
        """Public bot messages in a channel (not ephemeral), oldest first."""
        return [m for m in self.messages.values() if int(m["channel_id"]) == channel_id
                and m["author"]["id"] == BOT_USER["id"] and not m["flags"] & EPHEMERAL and not m.get("deleted")]

    def dms(self, uid: int) -> list[dict]:
        dm = self.dm_channels.get(uid)
        return [m for m in self.messages.values() if dm is not None and int(m["channel_id"]) == dm
                and m["author"]["id"] == BOT_USER["id"]]

    def ephemerals(self, uid: int) -> list[dict]:
        return [m for m in self.messages.values() if m["flags"] & EPHEMERAL and m.get("for") == uid
                and not m.get("deleted")]

    @staticmethod
    def text(message: dict) -> str:
        return message["content"] + "".join("\n" + (e.get("description") or "") for e in message["embeds"])

    # ------------------------------------------------------------------ REST
    async def get_me(self, request: web.Request) -> web.Response:
        return json_response(BOT_USER)

    async def get_application(self, request: web.Request) -> web.Response:
        return json_response({"id": str(APP_ID), "name": "Herald", "description": "", "icon": None,
                              "bot_public": True, "bot_require_code_grant": False, "owner": BOT_USER,
                              "verify_key": "0" * 64, "flags": 0, "interactions_endpoint_url": None})

    async def get_user(self, request: web.Request) -> web.Response:
        uid = int(request.match_info["uid"])
        if uid not in self.users:
            return error(404, 10013, "Unknown User")
        return json_response(self.users[uid])

    async def put_commands(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.commands = [dict(c, id=str(next(self.ids)), application_id=str(APP_ID), version="1",
                              default_member_permissions=c.get("default_member_permissions"), dm_permission=True)
                         for c in body]
        return json_response(self.commands)

    async def open_dm(self, request: web.Request) -> web.Response:
        uid = int((await request.json())["recipient_id"])
        channel = self.dm_channels.setdefault(uid, next(self.ids))
        return json_response({"id": str(channel), "type": 1, "recipients": [self.users[uid]],
                              "last_message_id": None, "flags": 0})

    async def _body(self, request: web.Request) -> tuple[dict, list[dict]]:
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            payload, files = {}, []
            async for part in reader:
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                else:
                    files.append({"name": part.filename, "data": await part.read(decode=False)})
            return payload, files
        return (await request.json() if request.can_read_body else {}), []

    def _store(self, channel_id: int, author: dict, body: dict, files: list | None = None,
               flags: int = 0, for_user: int | None = None) -> dict:
        mid = next(self.ids)
        message = {"id": str(mid), "channel_id": str(channel_id), "author": author, "content": body.get("content") or "",
                   "timestamp": TIMESTAMP, "edited_timestamp": None, "tts": False, "mention_everyone": False,
                   "mentions": [], "mention_roles": [], "pinned": False, "type": 0,
                   "embeds": body.get("embeds") or [], "components": body.get("components") or [],
                   "attachments": [], "flags": flags | (body.get("flags") or 0), "edits": 0}
        self._attach(message, files or [])
        if channel_id not in self.dm_channels.values():
            message["guild_id"] = str(self.guild_id)
        if for_user is not None:
            message["for"] = for_user
        self.messages[mid] = message
        return message

    def _attach(self, message: dict, files: list[dict]) -> None:
        if files:
            message["attachments"] = [{"id": str(next(self.ids)), "filename": f["name"], "size": len(f["data"]),
                                       "url": f"http://127.0.0.1/{f['name']}", "proxy_url": "", "data": f["data"]}
                                      for f in files]

    def _edit(self, message: dict, body: dict, files: list[dict]) -> dict:
        for key in ("content", "embeds", "components"):
            if key in body:
                message[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if files or "attachments" in body:
            kept = {a.get("id") for a in body.get("attachments") or []}
            message["attachments"] = [a for a in message["attachments"] if a["id"] in kept]
            if files:
                self._attach(message, files)
        message["edits"] += 1
        message["edited_timestamp"] = TIMESTAMP
        return message

    @staticmethod
    def _public(message: dict) -> dict:
        return {k: v for k, v in message.items() if k not in ("for", "edits", "deleted")} | {
            "attachments": [{k: v for k, v in a.items() if k != "data"} for a in message["attachments"]]}

    def _limited(self, channel_id: int) -> float | None:
        now = self.clock()
        if self.rate_limit_next:
            self.rate_limit_next -= 1
            return 0.05
        if self.rate_limit_channel.get(channel_id):
            self.rate_limit_channel[channel_id] -= 1
            return 0.05
        if self.channel_rate:
            count, seconds = self.channel_rate
            recent = [t for t, c in self.posted if c == channel_id and now - t < seconds]
            if len(recent) >= count:
                return round(recent[-count] + seconds - now, 3) + 0.001
        return None

    async def post_message(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["cid"])
        refused = self._thread_refuses(channel_id)
        if refused is not None:
            return refused
        wait = self._limited(channel_id)
        if wait is not None:
            self.refused.append((self.clock(), channel_id))
            return error(429, 0, "You are being rate limited.", retry_after=wait, **{"global": False})
        recipient = None
        for uid, dm in self.dm_channels.items():
            if dm == channel_id:
                recipient = uid
                if uid in self.closed_dms:
                    return error(403, 50007, "Cannot send messages to this user")
        body, files = await self._body(request)
        self.posted.append((self.clock(), channel_id))
        message = self._store(channel_id, BOT_USER, body, files)
        self._notify(message, body, recipient)
        return json_response(self._public(message))

    def _notify(self, message: dict, body: dict, recipient: int | None) -> None:
        """Who this new message notifies: a DM its recipient; a channel message the allowed mentions."""
        if message["flags"] & SUPPRESS_NOTIFICATIONS:
            return
        base = {"channel": int(message["channel_id"]), "message_id": int(message["id"]), "time": self.clock()}
        if recipient is not None:
            self.notifications.append(dict(base, user=recipient, how="dm"))
            return
        named = [int(u) for u in re.findall(r"<@!?(\d+)>", message["content"] or "")]
        allowed = body.get("allowed_mentions")
        if allowed is None:
            pinged = named
        elif "users" in (allowed.get("parse") or []):
            pinged = named
        else:
            pinged = [u for u in named if str(u) in {str(x) for x in allowed.get("users") or []}]
        pinged = list(dict.fromkeys(u for u in pinged if u in self.users))
        message["mentions"] = [self.users[u] for u in pinged]
        for uid in pinged:
            self.notifications.append(dict(base, user=uid, how="mention"))

    def notifying(self, uid: int) -> list[dict]:
        return [n for n in self.notifications if n["user"] == uid]

    def _token_ok(self, record: Interaction | None) -> bool:
        return record is not None and self.clock() - record.created <= self.token_ttl

    async def edit_message(self, request: web.Request) -> web.Response:
        thread = self.threads.get(int(request.match_info["cid"]))
        if thread is not None and thread.get("deleted"):
            return error(404, 10003, "Unknown Channel")
        if thread is not None and thread["thread_metadata"]["archived"]:
            return error(400, 50083, "Thread is archived")
        message = self.messages.get(int(request.match_info["mid"]))
        if message is None or message.get("deleted"):
            return error(404, 10008, "Unknown Message")
        body, files = await self._body(request)
        return json_response(self._public(self._edit(message, body, files)))

    async def delete_message(self, request: web.Request) -> web.Response:
        message = self.messages.get(int(request.match_info["mid"]))
        if message is None:
            return error(404, 10008, "Unknown Message")
        message["deleted"] = True
        return web.Response(status=204)

    async def callback(self, request: web.Request) -> web.Response:
        record = self.interactions.get(int(request.match_info["iid"]))
        if record is None or record.token != request.match_info["token"]:
            return error(404, 10062, "Unknown interaction")
        if record.callback is None and self.clock() - record.created > self.ack_deadline:
            self.late.append(record.id)
            return error(404, 10062, "Unknown interaction")
        if record.callback is not None:
            return error(400, 40060, "Interaction has already been acknowledged.")
        record.acked = self.clock()
        body, files = await self._body(request)
        record.callback = body
        kind = body["type"]
        data = body.get("data") or {}
        flags = data.get("flags") or 0
        resource: dict = {"type": kind}
        if kind in (4, 5):  # a message (or its "thinking" placeholder)
            message = self._store(record.channel_id, BOT_USER, data if kind == 4 else {}, files, flags,
                                  int(record.user["id"]))
            record.original_id = int(message["id"])
            resource["message"] = self._public(message)
        elif kind in (6, 7):  # a component's message, updated now or later
            record.original_id = record.message_id
            if kind == 7:
                resource["message"] = self._public(self._edit(self.messages[record.message_id], data, files))
        elif kind == 8:
            record.choices = data.get("choices", [])
        interaction = {"id": str(record.id), "type": record.kind, "response_message_id":
                       str(record.original_id) if record.original_id else None,
                       "response_message_loading": kind == 5, "response_message_ephemeral": bool(flags & EPHEMERAL)}
        return json_response({"interaction": interaction, "resource": resource})

    async def followup(self, request: web.Request) -> web.Response:
        record = self.by_token.get(request.match_info["token"])
        if record is None:
            return error(404, 10015, "Unknown Webhook")
        if not self._token_ok(record):
            return error(401, 50027, "Invalid Webhook Token")
        body, files = await self._body(request)
        flags = body.get("flags") or 0
        if record.callback and record.callback["type"] == 5 and not record.followups and \
                not self.messages[record.original_id]["content"]:
            message = self._edit(self.messages[record.original_id], body, files)  # replaces "thinking"
        else:
            message = self._store(record.channel_id, BOT_USER, body, files, flags, int(record.user["id"]))
        record.followups.append(int(message["id"]))
        return json_response(self._public(message))

    def _webhook_message(self, request: web.Request) -> dict | None:
        record = self.by_token.get(request.match_info["token"])
        if record is None or not self._token_ok(record):
            return None
        mid = request.match_info["mid"]
        return self.messages.get(record.original_id if mid == "@original" else int(mid))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        message = self._webhook_message(request)
        if message is None or message.get("deleted"):
            return error(404, 10008, "Unknown Message")
        body, files = await self._body(request)
        return json_response(self._public(self._edit(message, body, files)))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        if not self._token_ok(self.by_token.get(request.match_info["token"])):  # 15 minutes on: as followups
            return error(401, 50027, "Invalid Webhook Token")
        message = self._webhook_message(request)
        if message is None:
            return error(404, 10008, "Unknown Message")
        message["deleted"] = True
        return web.Response(status=204)

    # ------------------------------------------------------------------ threads
    def _thread_payload(self, thread: dict) -> dict:
        return {k: v for k, v in thread.items() if k not in ("members", "deleted")}

    def _thread_refuses(self, channel_id: int) -> web.Response | None:
        """A post in a thread: deleted (10003), no right to post in threads (50013), archived and locked (50083);
        an archived thread that is not locked is unarchived by the post."""
        thread = self.threads.get(channel_id)
        if thread is None:
            return None
        if thread.get("deleted"):
            return error(404, 10003, "Unknown Channel")
        if not self.bot_permissions & SEND_MESSAGES_IN_THREADS:
            return error(403, 50013, "Missing Permissions")
        meta = thread["thread_metadata"]
        if meta["archived"] and meta["locked"]:
            return error(400, 50083, "Thread is archived")
        meta["archived"] = False
        thread["message_count"] += 1
        return None

    def active_threads(self) -> list[dict]:
        return [t for t in self.threads.values() if not t.get("deleted") and not t["thread_metadata"]["archived"]]

    async def start_thread(self, request: web.Request) -> web.Response:
        channel_id, message_id = int(request.match_info["cid"]), int(request.match_info["mid"])
        if not self.bot_permissions & CREATE_PUBLIC_THREADS:
            return error(403, 50013, "Missing Permissions")
        message = self.messages.get(message_id)
        if message is None or message.get("deleted") or int(message["channel_id"]) != channel_id:
            return error(404, 10008, "Unknown Message")
        body = await request.json()
        name = body.get("name") or ""
        if not 1 <= len(name) <= 100:
            return error(400, 50035, "Invalid Form Body", errors={"name": {"_errors": [
                {"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 1 and 100 in length."}]}})
        if message_id in self.threads:
            return error(400, 160004, "A thread has already been created for this message")
        if len(self.active_threads()) >= self.thread_limit:
            return error(400, 160006, "Maximum number of active threads reached")
        thread = {"id": str(message_id), "type": PUBLIC_THREAD, "guild_id": str(self.guild_id),
                  "parent_id": str(channel_id), "name": name, "owner_id": BOT_USER["id"], "flags": 0,
                  "last_message_id": None, "rate_limit_per_user": 0, "message_count": 0, "member_count": 1,
                  "thread_metadata": {"archived": False, "locked": False, "archive_timestamp": TIMESTAMP,
                                      "auto_archive_duration": int(body.get("auto_archive_duration") or 1440)},
                  "members": [APP_ID]}
        self.threads[message_id] = thread
        message["thread"] = self._thread_payload(thread)
        await self.dispatch("THREAD_CREATE", dict(self._thread_payload(thread), newly_created=True))
        return json_response(self._thread_payload(thread))

    async def add_thread_member(self, request: web.Request) -> web.Response:
        thread = self.threads.get(int(request.match_info["cid"]))
        if thread is None or thread.get("deleted"):
            return error(404, 10003, "Unknown Channel")
        if not self.bot_permissions & SEND_MESSAGES_IN_THREADS:
            return error(403, 50013, "Missing Permissions")
        uid = int(request.match_info["uid"])
        if uid not in thread["members"]:
            thread["members"].append(uid)
            thread["member_count"] += 1
        return web.Response(status=204)

    async def edit_channel(self, request: web.Request) -> web.Response:
        """Archive, lock (or reopen) a thread: locking, and opening a locked one, need Manage Threads."""
        thread = self.threads.get(int(request.match_info["cid"]))
        if thread is None or thread.get("deleted"):
            return error(404, 10003, "Unknown Channel")
        body = await request.json()
        opening_locked = thread["thread_metadata"]["locked"] and body.get("archived") is False
        if not self.bot_permissions & MANAGE_THREADS and (body.get("locked") or opening_locked):
            return error(403, 50013, "Missing Permissions")  # (the thread's creator may archive it without)
        for key in ("archived", "locked", "auto_archive_duration"):
            if key in body:
                thread["thread_metadata"][key] = body[key]
        if "name" in body:
            thread["name"] = body["name"]
        await self.dispatch("THREAD_UPDATE", self._thread_payload(thread))
        return json_response(self._thread_payload(thread))

    async def moderate_thread(self, thread_id: int, *, delete: bool = False, archive: bool = False) -> None:
        """A moderator deletes or archives (and locks) a thread."""
        thread = self.threads[thread_id]
        if delete:
            thread["deleted"] = True
            await self.dispatch("THREAD_DELETE", {"id": str(thread_id), "guild_id": str(self.guild_id),
                                                  "parent_id": thread["parent_id"], "type": PUBLIC_THREAD})
        if archive:
            thread["thread_metadata"].update(archived=True, locked=True)
            await self.dispatch("THREAD_UPDATE", self._thread_payload(thread))

    def thread_messages(self, thread_id: int) -> list[dict]:
        return self.channel_messages(thread_id)
