"""A fake Telegram Bot API on 127.0.0.1 (aiohttp): real HTTP long polling for python-telegram-bot.

It keeps every chat's messages (with their inline keyboards) so tests can read what each
person saw and press the buttons they were shown. As strict as Telegram where people notice:

- users must "open" their private chat (send /start there) before the bot may write to them, and one who
  blocked the bot answers 403;
- 4096 UTF-16 units of visible text, 1024 for a caption (counted after the HTML is parsed), 64-byte
  callback data; an edit that changes nothing is refused ("message is not modified");
- a callback query can be answered once, within ``callback_ttl`` (15 s): later "query is too old";
- 429 with ``parameters.retry_after`` beyond ``group_per_minute`` (20) sends+edits a minute in a group and
  beyond ``chat_per_second`` (3) in any one second in any chat; ``scale`` shrinks both windows for tests;
- a group migrated to a supergroup answers the old id with the migrate error (PTB's ``ChatMigrated``);
- forum supergroups (``forum``): ``createForumTopic`` (refused without the right to manage topics, "not enough
  rights to create a topic", or outside a forum), ``closeForumTopic``, sends with ``message_thread_id`` (a deleted
  topic, ``delete_topic``: "message thread not found"), the topic's messages carrying ``message_thread_id`` and
  ``is_topic_message``; people write in a topic with ``send(..., thread=...)``; ``getChat`` says ``is_forum``;
- ``sends`` records every new message and whether it notifies (``disable_notification``; edits never do)
  and whom it mentions (``tg://user?id=`` links).
"""
from __future__ import annotations

import asyncio
import html
import itertools
import json
import math
import re
import time

from aiohttp import web

BOT = {"id": 999, "is_bot": True, "first_name": "Herald", "username": "herald_bot", "can_join_groups": True,
       "can_read_all_group_messages": False, "supports_inline_queries": False}
JSON_FIELDS = {"chat_id", "message_id", "reply_markup", "offset", "timeout", "limit", "allowed_updates",
               "show_alert", "user_id", "commands", "disable_web_page_preview", "link_preview_options",
               "cache_time", "from_chat_id", "media", "disable_notification", "reply_parameters",
               "reply_to_message_id", "allow_sending_without_reply", "protect_content", "message_thread_id"}
COUNTED = {"sendMessage", "sendPhoto", "sendDocument", "editMessageText", "editMessageMedia", "editMessageCaption",
           "editMessageReplyMarkup", "createForumTopic", "closeForumTopic"}
TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"


def visible_units(text: str, parse_mode: str | None) -> int:
    """Telegram's length: UTF-16 code units of what is shown (HTML tags gone, entities one character)."""
    if parse_mode and parse_mode.upper() == "HTML":
        text = html.unescape(re.sub(r"<[^>]*>", "", text))
    return len(text.encode("utf-16-le")) // 2


class FakeBotApi:
    def __init__(self, *, scale: float = 1.0, group_per_minute: int = 20, chat_per_second: int = 3,
                 callback_ttl: float = 15.0, clock=time.monotonic):
        self.scale = scale
        self.group_per_minute = group_per_minute
        self.chat_per_second = chat_per_second
        self.callback_ttl = callback_ttl
        self.clock = clock
        self.counted: list[tuple[float, int, str]] = []  # (time, chat, method) of every accepted send/edit
        self.refused: list[tuple[float, int, str]] = []  # the same, answered with 429
        self.sends: list[dict] = []  # every new message: chat, message_id, method, notify, mentions
        self.queries: dict[str, float] = {}  # callback query id → when it was made
        self.answered_at: dict[str, float] = {}  # callback query id → when it was answered
        self.blocked: set[int] = set()  # users who blocked the bot
        self.commands_by_language: dict[str, list] = {}  # setMyCommands per language_code ("" = everyone)
        self.updates: list[dict] = []
        self.next_offset = 0  # the bot confirmed every update below this
        self.update_ids = itertools.count(1)
        self.message_ids: dict[int, itertools.count] = {}
        self.chats: dict[int, dict] = {}  # chat id → Chat object
        self.messages: dict[int, list[dict]] = {}  # chat id → messages, in order (bot's and users')
        self.opened: set[int] = set()  # users whose private chat with the bot exists
        self.admins: set[tuple[int, int]] = set()
        self.answers: dict[str, dict] = {}  # callback query id → answerCallbackQuery params
        self.calls: list[tuple[str, dict]] = []
        self.fail_next: dict[str, list[dict]] = {}  # method → queued error replies
        self.migrated: dict[int, int] = {}
        self.new_update = asyncio.Event()
        self.photo_ids = itertools.count(1)
        self.pictures: dict[tuple[int, int], bytes] = {}  # (chat, message id) → the PNG it shows now
        self.documents: dict[tuple[int, int], tuple[str, bytes]] = {}  # (chat, message id) → (file name, content)
        self.deleted: list[tuple[int, int]] = []
        self.topics: dict[int, dict[int, dict]] = {}  # forum chat id → topic id → {"name", "closed"}
        self.topic_managers: set[int] = set()  # forums where the bot may manage topics
        self.runner: web.AppRunner | None = None
        self.port = 0
        # webhook mode: updates are POSTed to the URL set with setWebhook instead of waiting for getUpdates.
        # ``webhook_backends`` plays the load balancer in front of several replicas: each POST goes to the next
        # of these base addresses (with the webhook URL's path), as a proxy behind one public URL would send it.
        self.webhook: dict | None = None
        self.webhook_backends: list[str] | None = None
        self.webhook_posts: list[tuple[str, int, int]] = []  # (backend, update id, HTTP status)
        self._pusher: asyncio.Task | None = None
        self._session = None

    # ------------------------------------------------------------------ server
    async def start(self) -> str:
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self.handle)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{self.port}/bot"

    async def stop(self) -> None:
        if self._pusher:
            self._pusher.cancel()
        if self._session:
            await self._session.close()
        if self.runner:
            await self.runner.cleanup()

    async def handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        form = await request.post()
        params = {}
        for key, value in form.items():
            if hasattr(value, "file"):  # an uploaded file (sendPhoto, editMessageMedia)
                data = value.file.read()
                params[key] = {"filename": value.filename, "size": len(data), "data": data}
            elif key in JSON_FIELDS:
                params[key] = json.loads(value)
            else:
                params[key] = value
        self.calls.append((method, params))
        queued = self.fail_next.get(method)
        if queued:
            reply = queued.pop(0)
            return web.json_response(reply, status=reply.get("error_code", 200))
        handler = getattr(self, "api_" + method, None)
        if handler is None:
            return web.json_response({"ok": False, "error_code": 404, "description": "Not Found: method " + method})
        try:
            if method in COUNTED:
                self._rate(method, params)
            result = await handler(params)
        except ApiError as error:
            return web.json_response(error.reply, status=error.reply["error_code"])
        return web.json_response({"ok": True, "result": result})

    def _rate(self, method: str, p: dict) -> None:
        """Telegram's flood control: 20 a minute in a group, about one a second in any chat."""
        try:
            chat_id = int(p.get("chat_id"))
        except (TypeError, ValueError):
            return
        now = self.clock()
        mine = [t for t, c, _ in self.counted if c == chat_id]
        waits = []
        second = 1.0 * self.scale
        recent = [t for t in mine if now - t < second]
        if len(recent) >= self.chat_per_second:
            waits.append(recent[-self.chat_per_second] + second - now)
        if chat_id < 0:
            minute = 60.0 * self.scale
            recent = [t for t in mine if now - t < minute]
            if len(recent) >= self.group_per_minute:
                waits.append(recent[-self.group_per_minute] + minute - now)
        if waits:
            wait = max(waits)
            retry = max(1, math.ceil(wait)) if self.scale >= 1 else max(1, math.ceil(wait / self.scale)) * self.scale
            self.refused.append((now, chat_id, method))
            raise ApiError(429, f"Too Many Requests: retry after {retry:g}", {"retry_after": retry})
        self.counted.append((now, chat_id, method))

    def group_window_max(self, chat_id: int, window: float | None = None) -> int:
        """The most sends+edits in any ``window`` (60 s, scaled) in a chat: what Telegram's limit looks at."""
        window = 60.0 * self.scale if window is None else window
        times = [t for t, c, _ in self.counted if c == chat_id]
        return max((sum(1 for u in times if t <= u < t + window) for t in times), default=0)

    # ------------------------------------------------------------------ Bot API methods
    async def api_getMe(self, p):
        return BOT

    async def api_deleteWebhook(self, p):
        self.webhook = None
        if str(p.get("drop_pending_updates", "")).lower() == "true":
            self.updates.clear()
        return True

    async def api_setWebhook(self, p):
        url = p.get("url") or ""
        if not url:
            self.webhook = None
            return True
        if not re.match(r"https://|http://127\.0\.0\.1[:/]", url):  # the real one takes https only
            raise ApiError(400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook")
        secret = p.get("secret_token")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", secret):
            raise ApiError(400, "Bad Request: secret token contains unallowed characters")
        self.webhook = {"url": url, "secret_token": secret}
        if self._pusher is None or self._pusher.done():
            self._pusher = asyncio.create_task(self._push_webhook())
        self.new_update.set()
        return True

    async def api_getWebhookInfo(self, p):
        pending = [u for u in self.updates if u["update_id"] >= self.next_offset]
        return {"url": self.webhook["url"] if self.webhook else "", "has_custom_certificate": False,
                "pending_update_count": len(pending)}

    async def _push_webhook(self) -> None:
        """Deliver pending updates one at a time, in order, to the webhook; a refused POST is tried again (the
        real Bot API retries too), so an update reaches the bot at least once."""
        import aiohttp
        from urllib.parse import urlsplit

        self._session = self._session or aiohttp.ClientSession()
        turn = itertools.count()
        while self.webhook is not None:
            ready = [u for u in self.updates if u["update_id"] >= self.next_offset]
            if not ready:
                self.new_update.clear()
                try:
                    await asyncio.wait_for(self.new_update.wait(), 0.5)
                except asyncio.TimeoutError:
                    pass
                continue
            update = ready[0]
            url = self.webhook["url"]
            if self.webhook_backends:
                url = self.webhook_backends[next(turn) % len(self.webhook_backends)] + urlsplit(url).path
            headers = {}
            if self.webhook["secret_token"]:
                headers["X-Telegram-Bot-Api-Secret-Token"] = self.webhook["secret_token"]
            try:
                async with self._session.post(url, json=update, headers=headers) as response:
                    status = response.status
            except aiohttp.ClientError:
                status = 0
            self.webhook_posts.append((url, update["update_id"], status))
            if status == 200:
                self.next_offset = update["update_id"] + 1
            else:
                await asyncio.sleep(0.1)

    async def api_setMyCommands(self, p):
        language = p.get("language_code") or ""
        self.commands_by_language[language] = p.get("commands")
        if not language:
            self.commands = p.get("commands")
        return True

    async def api_getUpdates(self, p):
        if self.webhook is not None:
            raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook "
                                "to delete the webhook first")
        offset = int(p.get("offset") or 0)
        self.next_offset = max(self.next_offset, offset)
        timeout = float(p.get("timeout") or 0)
        deadline = time.monotonic() + timeout
        while True:
            ready = [u for u in self.updates if u["update_id"] >= offset]
            if ready or time.monotonic() >= deadline:
                self.updates = [u for u in self.updates if u["update_id"] >= offset]
                return ready[:100]
            self.new_update.clear()
            try:
                await asyncio.wait_for(self.new_update.wait(), timeout=max(0.01, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                pass

    async def api_getChatMember(self, p):
        chat_id, user_id = int(p["chat_id"]), int(p["user_id"])
        status = "administrator" if (chat_id, user_id) in self.admins else "member"
        member = {"status": status, "user": {"id": user_id, "is_bot": False, "first_name": f"U{user_id}"}}
        if status == "administrator":
            member.update({"can_be_edited": False, "is_anonymous": False, "can_manage_chat": True,
                           "can_delete_messages": True, "can_manage_video_chats": True,
                           "can_restrict_members": True, "can_promote_members": False, "can_change_info": True,
                           "can_invite_users": True, "can_post_stories": False, "can_edit_stories": False,
                           "can_delete_stories": False})
        return member

    def _target(self, chat_id) -> int:
        chat_id = int(chat_id)
        if chat_id in self.migrated:
            raise ApiError(400, "Bad Request: group chat was upgraded to a supergroup chat",
                           {"migrate_to_chat_id": self.migrated[chat_id]})
        if chat_id > 0 and chat_id in self.blocked:
            raise ApiError(403, "Forbidden: bot was blocked by the user")
        if chat_id > 0 and chat_id not in self.opened:
            raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        if chat_id not in self.chats:
            raise ApiError(400, "Bad Request: chat not found")
        return chat_id

    def _store(self, chat_id: int, text: str, markup, sender=None, extra=None) -> dict:
        counter = self.message_ids.setdefault(chat_id, itertools.count(1))
        message = {"message_id": next(counter), "date": int(time.time()), "chat": self.chats[chat_id],
                   "from": sender or BOT, "text": text}
        if markup:
            message["reply_markup"] = markup
        if extra:
            message.update(extra)
        self.messages.setdefault(chat_id, []).append(message)
        return message

    @staticmethod
    def _check_text(p: dict, key: str, limit: int, required: bool = True) -> None:
        text = p.get(key) or ""
        if required and not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        if visible_units(text, p.get("parse_mode")) > limit:
            raise ApiError(400, "Bad Request: message is too long" if key == "text"
                           else "Bad Request: message caption is too long")
        if p.get("parse_mode", "").upper() == "HTML":
            opened = re.findall(r"<(pre|b|i|a|code)\b", text)
            closed = re.findall(r"</(pre|b|i|a|code)>", text)
            if sorted(opened) != sorted(closed):
                raise ApiError(400, "Bad Request: can't parse entities: unclosed start tag")

    @staticmethod
    def _check_markup(p: dict) -> None:
        for row in (p.get("reply_markup") or {}).get("inline_keyboard", []):
            for button in row:
                if "callback_data" in button and len(button["callback_data"].encode()) > 64:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
                if "url" in button and ("callback_data" in button or
                                        not re.match(r"(https?|tg)://\S+$", button["url"])):
                    raise ApiError(400, "Bad Request: BUTTON_URL_INVALID")

    def _sent(self, method: str, p: dict, message: dict) -> dict:
        """A new message: does it notify, and whom does it mention?"""
        text = message.get("text", "")
        self.sends.append({"chat": message["chat"]["id"], "message_id": message["message_id"], "method": method,
                           "notify": not p.get("disable_notification", False), "text": text,
                           "mentions": [int(u) for u in re.findall(r"tg://user\?id=(\d+)", text)],
                           "time": self.clock()})
        reply = p.get("reply_parameters") or ({"message_id": p["reply_to_message_id"]}
                                             if p.get("reply_to_message_id") else None)
        if reply:
            message["x_reply_to"] = int(reply["message_id"])
        return message

    async def api_sendMessage(self, p):
        chat_id = self._target(p["chat_id"])
        self._check_text(p, "text", 4096)
        self._check_markup(p)
        return self._sent("sendMessage", p, self._store(chat_id, p["text"], p.get("reply_markup"),
                                                        extra={"parse_mode": p.get("parse_mode"),
                                                               **self._thread(chat_id, p)}))

    async def api_sendPhoto(self, p):
        chat_id = self._target(p["chat_id"])
        upload = p.get("photo") or {}
        self._check_text(p, "caption", 1024, required=False)
        self._check_markup(p)
        message = self._store(chat_id, p.get("caption", ""), p.get("reply_markup"),
                              extra={"photo": self._photo(upload), **self._thread(chat_id, p)})
        self.pictures[(chat_id, message["message_id"])] = upload.get("data", b"")
        return self._sent("sendPhoto", p, message)

    async def api_sendDocument(self, p):
        """A file (a game's record) with an optional caption; kept in ``documents`` by (chat, message id)."""
        chat_id = self._target(p["chat_id"])
        upload = p.get("document")
        if not isinstance(upload, dict) or not upload.get("filename"):
            raise ApiError(400, "Bad Request: there is no document in the request")
        if upload["size"] > 50 * 1024 * 1024:
            raise ApiError(400, "Bad Request: file is too big")
        self._check_text(p, "caption", 1024, required=False)
        self._check_markup(p)
        message = self._store(chat_id, p.get("caption", ""), p.get("reply_markup"),
                              extra={"document": {"file_id": f"doc{next(self.photo_ids)}", "file_unique_id": "d",
                                                  "file_name": upload["filename"], "file_size": upload["size"]},
                                     **self._thread(chat_id, p)})
        self.documents[(chat_id, message["message_id"])] = (upload["filename"], upload["data"])
        return self._sent("sendDocument", p, message)

    def _thread(self, chat_id: int, p: dict) -> dict:
        """A message sent into a forum topic: the topic must exist (a deleted one: "message thread not found")."""
        thread = p.get("message_thread_id")
        if not thread or not self.chats[chat_id].get("is_forum"):
            return {}
        if int(thread) not in self.topics.get(chat_id, {}):
            raise ApiError(400, "Bad Request: message thread not found")
        return {"message_thread_id": int(thread), "is_topic_message": True}

    async def api_getChat(self, p):
        return self.chats[self._target(p["chat_id"])]

    async def api_createForumTopic(self, p):
        chat_id = self._target(p["chat_id"])
        if not self.chats[chat_id].get("is_forum"):
            raise ApiError(400, "Bad Request: the chat is not a forum")
        if chat_id not in self.topic_managers:
            raise ApiError(400, "Bad Request: not enough rights to create a topic")
        name = p.get("name") or ""
        if not 1 <= len(name) <= 128:
            raise ApiError(400, "Bad Request: TOPIC_NAME_INVALID")
        created = self._store(chat_id, "", None, extra={"forum_topic_created": {"name": name, "icon_color": 7322096}})
        topic = created["message_id"]
        created.update(message_thread_id=topic, is_topic_message=True)
        self.topics.setdefault(chat_id, {})[topic] = {"name": name, "closed": False}
        return {"message_thread_id": topic, "name": name, "icon_color": 7322096}

    async def api_closeForumTopic(self, p):
        chat_id = self._target(p["chat_id"])
        if chat_id not in self.topic_managers:
            raise ApiError(400, "Bad Request: not enough rights to manage topics")
        topic = self.topics.get(chat_id, {}).get(int(p["message_thread_id"]))
        if topic is None:
            raise ApiError(400, "Bad Request: message thread not found")
        if topic["closed"]:
            raise ApiError(400, "Bad Request: TOPIC_NOT_MODIFIED")
        topic["closed"] = True
        return True

    async def api_deleteMessage(self, p):
        """The bot's own messages; in a group also other people's, when the bot is an admin there (with the right
        to delete messages), as on Telegram."""
        chat_id = self._target(p["chat_id"])
        theirs = next((m for m in self.messages.get(chat_id, []) if m["message_id"] == int(p["message_id"])
                       and m["from"]["id"] != BOT["id"]), None)
        if theirs is not None:
            if chat_id > 0 or (chat_id, BOT["id"]) not in self.admins:
                raise ApiError(400, "Bad Request: message can't be deleted")
            message = theirs
        else:
            message = self._own_message(chat_id, p["message_id"], "delete")
        self.messages[chat_id].remove(message)
        self.deleted.append((chat_id, message["message_id"]))
        return True

    def _photo(self, upload: dict) -> list[dict]:
        return [{"file_id": f"photo{next(self.photo_ids)}", "file_unique_id": "u", "width": 960, "height": 600,
                 "file_size": upload.get("size", 0)}]

    def _own_message(self, chat_id: int, message_id, what: str = "edit") -> dict:
        for message in self.messages.get(chat_id, []):
            if message["message_id"] == int(message_id) and message["from"]["id"] == BOT["id"]:
                return message
        raise ApiError(400, f"Bad Request: message to {what} not found")

    @staticmethod
    def _edited(message: dict, p: dict, **changes) -> dict:
        message.update(changes, edited=message.get("edited", 0) + 1)
        if p.get("reply_markup"):
            message["reply_markup"] = p["reply_markup"]
        else:
            message.pop("reply_markup", None)
        return message

    async def api_editMessageMedia(self, p):
        """Replaces a photo message's picture and caption; as on Telegram, a text message cannot become one."""
        chat_id = self._target(p["chat_id"])
        media = p["media"]
        upload = p.get(media["media"].removeprefix("attach://")) or {}
        message = self._own_message(chat_id, p["message_id"])
        self._check_text(media, "caption", 1024, required=False)
        self._check_markup(p)
        if "photo" not in message:
            raise ApiError(400, "Bad Request: there is no media in the message to edit")
        self.pictures[(chat_id, message["message_id"])] = upload.get("data", b"")
        return self._edited(message, p, text=media.get("caption", ""), photo=self._photo(upload))

    async def api_editMessageText(self, p):
        chat_id = self._target(p["chat_id"])
        message = self._own_message(chat_id, p["message_id"])
        self._check_text(p, "text", 4096)
        self._check_markup(p)
        if "photo" in message:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        self._unchanged(message, p, p["text"])
        return self._edited(message, p, text=p["text"])

    @staticmethod
    def _unchanged(message: dict, p: dict, text: str) -> None:
        if message["text"] == text and message.get("reply_markup") == (p.get("reply_markup") or None):
            raise ApiError(400, "Bad Request: message is not modified: specified new message content "
                                "and reply markup are exactly the same")

    async def api_editMessageCaption(self, p):
        chat_id = self._target(p["chat_id"])
        message = self._own_message(chat_id, p["message_id"])
        self._check_text(p, "caption", 1024, required=False)
        if "photo" not in message:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        self._unchanged(message, p, p.get("caption", ""))
        return self._edited(message, p, text=p.get("caption", ""))

    async def api_editMessageReplyMarkup(self, p):
        chat_id = self._target(p["chat_id"])
        message = self._own_message(chat_id, p["message_id"])
        self._unchanged(message, p, message["text"])
        return self._edited(message, p)

    async def api_answerCallbackQuery(self, p):
        query = p["callback_query_id"]
        made = self.queries.get(query)
        if made is None or query in self.answers or self.clock() - made > self.callback_ttl:
            raise ApiError(400, TOO_OLD)
        self.answers[query] = p
        self.answered_at[query] = self.clock()
        return True

    # ------------------------------------------------------------------ what users do
    def group(self, chat_id: int, title: str = "Knights") -> dict:
        chat = {"id": chat_id, "type": "group", "title": title}
        self.chats[chat_id] = chat
        return chat

    def forum(self, chat_id: int, title: str = "Knights", *, manages_topics: bool = True) -> dict:
        """A supergroup with topics; ``manages_topics``: the bot is an admin allowed to manage them."""
        chat = {"id": chat_id, "type": "supergroup", "title": title, "is_forum": True}
        self.chats[chat_id] = chat
        self.topics[chat_id] = {}
        if manages_topics:
            self.topic_managers.add(chat_id)
        return chat

    def delete_topic(self, chat_id: int, topic: int) -> None:
        """Someone deletes a topic: it and its messages are gone."""
        del self.topics[chat_id][topic]
        self.messages[chat_id] = [m for m in self.messages[chat_id] if m.get("message_thread_id") != topic]

    def in_topic(self, chat_id: int, topic: int | None) -> list[dict]:
        """The bot's messages in a topic (None: in General, the messages of no topic)."""
        return [m for m in self.bot_messages(chat_id) if m.get("message_thread_id") == topic
                and "forum_topic_created" not in m]

    def push(self, update: dict) -> int:
        update["update_id"] = next(self.update_ids)
        self.updates.append(update)
        self.new_update.set()
        return update["update_id"]

    def send(self, user: dict, chat_id: int, text: str, thread: int | None = None) -> dict:
        """A person writes in a chat (a private chat is opened by writing in it), in a forum's ``thread``."""
        if chat_id == user["id"]:
            self.chats.setdefault(chat_id, {"id": chat_id, "type": "private", "first_name": user["first_name"]})
            self.opened.add(user["id"])
        entities = []
        if text.startswith("/"):
            entities = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
        extra = {"entities": entities} if entities else {}
        if thread is not None:
            extra.update(message_thread_id=thread, is_topic_message=True)
        message = self._store(chat_id, text, None, sender=user, extra=extra or None)
        self.push({"message": message})
        return message

    def press(self, user: dict, chat_id: int, message: dict, data: str) -> str:
        query_id = f"q{next(self.update_ids)}"
        self.queries[query_id] = self.clock()
        self.push({"callback_query": {"id": query_id, "from": user, "chat_instance": str(chat_id),
                                      "message": message, "data": data}})
        return query_id

    def migrate(self, old_id: int, new_id: int) -> None:
        self.migrated[old_id] = new_id
        chat = {"id": new_id, "type": "supergroup", "title": self.chats[old_id].get("title")}
        self.chats[new_id] = chat
        self.messages[new_id] = []
        counter = self.message_ids.setdefault(old_id, itertools.count(1))
        self.push({"message": {"message_id": next(counter), "date": int(time.time()), "chat": self.chats[old_id],
                               "from": {"id": 1, "is_bot": False, "first_name": "Telegram"},
                               "migrate_to_chat_id": new_id}})

    # ------------------------------------------------------------------ reading
    def notifying(self, user_id: int) -> list[dict]:
        """New messages that made ``user_id``'s phone ring: in their private chat, or any notifying group message
        (it rings for every member who has not muted the group; a mention rings even then)."""
        return [s for s in self.sends if s["notify"] and (s["chat"] == user_id or s["chat"] < 0)]

    def bot_messages(self, chat_id: int) -> list[dict]:
        return [m for m in self.messages.get(chat_id, []) if m["from"]["id"] == BOT["id"]]

    def last_with_keyboard(self, chat_id: int) -> dict | None:
        for message in reversed(self.bot_messages(chat_id)):
            if message.get("reply_markup", {}).get("inline_keyboard"):
                return message
        return None

    async def wait_for(self, condition, timeout: float = 15.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = condition()
            if value:
                return value
            await asyncio.sleep(0.01)
        raise AssertionError("the bot did not do what was expected in time")


class ApiError(Exception):
    def __init__(self, code: int, description: str, parameters: dict | None = None):
        super().__init__(description)
        self.reply = {"ok": False, "error_code": code, "description": description}
        if parameters:
            self.reply["parameters"] = parameters
