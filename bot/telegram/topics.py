"""A game's own forum topic, in a supergroup with topics where the bot may manage them (``bot/service/places.py``).

The service asks for a place when a game starts (a ``home`` message); here it becomes a topic
(``createForumTopic``), reported to the service (``PlaceOpened``), and every public message of the game is sent
with its ``message_thread_id`` (edits and deletions name the message alone). A group without topics, or where
the bot lacks the right: nothing is opened, the game is played in the group as ever. A topic deleted mid-game
("message thread not found"): reported (``PlaceLost``), the game goes on in General. At the end the result is
posted in the topic and in General, and the topic is closed.
"""
from __future__ import annotations

import logging

from telegram import LinkPreviewOptions
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.service import Message, Service
from bot.known_places import KnownPlaces
from bot.service.commands import PlaceOpened

log = logging.getLogger(__name__)
PLATFORM = "telegram"
KEPT_IN_CHAT = ("lobby", "home")  # a game's messages that stay in the group itself
TOPIC_NAME_LIMIT = 128


def thread_gone(error: TelegramError) -> bool:
    return "thread not found" in str(error).lower()


class Topics:
    """Which topic each game lives in, for the adapter's sending half (composition: the adapter holds one)."""

    def __init__(self, service: Service, app):
        self.service = service
        self.app = app
        self.forums: dict[str, bool] = {}  # chat id → whether it has topics (seen in updates, else asked once)
        self.unable: set[str] = set()  # forums where the bot may not create topics (it is not told again)
        self.places = KnownPlaces(service, PLATFORM, KEPT_IN_CHAT)  # game → its topic

    def seen(self, chat) -> None:
        if chat is not None and chat.type != "private":
            self.forums[str(chat.id)] = bool(getattr(chat, "is_forum", False))

    def thread_of(self, message: Message) -> int | None:
        """The topic a public message (or an answer in a group) goes to; None: the group itself (General)."""
        return self.places.place_of(message)

    async def open(self, message: Message, pace) -> None:
        """A game's ``home`` request: its topic, unless it has one already (a restart, another process) or the
        group cannot have one."""
        chat_id, game_id = message.chat.id, message.game_id
        if await self.places.settled(game_id):
            return
        if chat_id in self.unable or not await self._is_forum(chat_id):
            return
        try:
            await pace()
            topic = await self.app.bot.create_forum_topic(int(chat_id), message.text[:TOPIC_NAME_LIMIT])
        except (BadRequest, Forbidden) as error:
            log.info("no topic for game %s in %s: %s", game_id, chat_id, error)
            self.unable.add(chat_id)
            return
        place = str(topic.message_thread_id)
        self.places.games[game_id] = place
        await self.service.handle(PlaceOpened(None, message.chat, game_id, place))

    async def _is_forum(self, chat_id: str) -> bool:
        if chat_id not in self.forums:
            try:
                self.forums[chat_id] = bool((await self.app.bot.get_chat(int(chat_id))).is_forum)
            except TelegramError as error:
                log.info("could not look at chat %s: %s", chat_id, error)
                return False
        return self.forums[chat_id]

    async def gone(self, message: Message, thread: int) -> list[Message]:
        """The topic was deleted: the game goes on in General; the service says so once (its notice)."""
        return await self.places.gone(message, thread)

    async def ended(self, message: Message, text: str, markup, pace) -> None:
        """A game's result, posted in its topic: posted in General too, and the topic is closed."""
        chat_id, thread = int(message.chat.id), self.thread_of(message)
        if thread is None:
            return
        bot = self.app.bot
        try:
            await pace()
            await bot.send_message(chat_id, text, parse_mode=ParseMode.HTML, reply_markup=markup,
                                   link_preview_options=LinkPreviewOptions(is_disabled=True))
        except TelegramError as error:
            log.warning("could not post a result in General: %s", error)
        try:
            await pace()
            await bot.close_forum_topic(chat_id, thread)
        except TelegramError as error:
            log.info("could not close the topic of game %s: %s", message.game_id, error)
