"""The Telegram adapter: commands and button presses in, service messages out. Only translation lives here.

Groups carry lobbies and boards; each player's hand and move picker live in their private
chat with the bot, which a bot may not open itself: joining shows a deep link
(``t.me/<bot>?start=g<game>``) and the service holds the start until everyone opened it.
"""
from __future__ import annotations

import logging

from telegram import BotCommand, InlineKeyboardButton, InputFile, InputMediaPhoto, Update
from telegram.constants import ChatType, ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, TelegramError
from telegram.ext import (AIORateLimiter, Application, ApplicationBuilder, CallbackQueryHandler, CommandHandler,
                          ContextTypes, MessageHandler, filters)

from bot.service import ChatRef, Message, Service, UserRef
from bot.telegram.format import caption, keyboard, to_html

log = logging.getLogger(__name__)
PLATFORM = "telegram"
REPOST_AFTER = 15  # a board this many messages back in its group has scrolled away: post a new one

COMMANDS = [
    ("new", "open a table: /new <game> [options]"), ("join", "take a seat"), ("leave", "leave your seat"),
    ("addai", "add an AI player: /addai [random|greedy]"), ("start", "start the game"),
    ("hand", "your private view and moves"), ("move", "make a move: /move <notation>"),
    ("board", "show the board again"), ("resign", "leave a running game (an AI takes over)"),
    ("abort", "end a table or game (creator or admin)"), ("games", "the games of this group"),
    ("rules", "rules of a game: /rules <game>"), ("leaderboard", "the group's ratings: /leaderboard [game]"),
    ("stats", "a player's record"), ("history", "recent games"), ("settings", "group settings (admins)"),
    ("newseason", "start a new league season: /newseason [game] (admins)"),
    ("help", "how to play here"),
]


class TelegramAdapter:
    def __init__(self, service: Service, app: Application):
        self.service = service
        self.app = app
        self.latest_message: dict[str, int] = {}  # group id → newest message id seen there

    # ------------------------------------------------------------------ references
    @staticmethod
    def user_ref(update: Update) -> UserRef:
        user = update.effective_user
        return UserRef(PLATFORM, str(user.id), user.full_name or user.username or str(user.id))

    @staticmethod
    def chat_ref(update: Update) -> ChatRef | None:
        chat = update.effective_chat
        if chat is None or chat.type == ChatType.PRIVATE:
            return None
        return ChatRef(PLATFORM, str(chat.id), str(chat.id), chat.title)

    async def is_admin(self, update: Update) -> bool:
        chat = update.effective_chat
        if chat is None or chat.type == ChatType.PRIVATE:
            return False
        try:
            member = await self.app.bot.get_chat_member(chat.id, update.effective_user.id)
        except TelegramError:
            return False
        return member.status in ("administrator", "creator")

    # ------------------------------------------------------------------ incoming
    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or update.effective_user is None:
            return
        self._seen(update)
        command = message.text.split()[0][1:].split("@")[0].lower()
        args = list(context.args or [])
        text = " ".join(args)
        chat, user = self.chat_ref(update), self.user_ref(update)
        number = int(args[0].lstrip("#")) if args and args[0].lstrip("#").isdigit() else None
        s = self.service
        if chat is None:  # the private chat
            if command == "start":
                out = await s.dm_opened(user)
                out.insert(0, Message("Hello! I will send your hands and moves here. Go back to the group to play.",
                                      user=user, kind="info"))
            elif command == "hand":
                out = await s.show_private(user, game_id=number)
            elif command == "move":
                out = await s.act(None, user, text)
            elif command == "rules":
                out = await s.rules_text(None, text, user=user)
            else:
                out = [Message("Here I send your hands; the games themselves are played in a group. "
                               "Type a move here as /move <notation>, or use the buttons.", user=user)]
            await self.deliver(out)
            return
        handlers = {
            "new": lambda: s.create_lobby(chat, user, args[0] if args else "", " ".join(args[1:])),
            "join": lambda: s.join(chat, user, number),
            "leave": lambda: s.leave(chat, user, number),
            "addai": lambda: s.add_ai(chat, user, next((a for a in args if not a.isdigit()), "greedy"),
                                      next((int(a) for a in args if a.isdigit()), None)),
            "start": lambda: s.start(chat, user, number),
            "hand": lambda: s.show_private(user, game_id=number, chat=chat),
            "move": lambda: s.act(chat, user, text),
            "board": lambda: s.show_board(chat, game_id=number, user=user),
            "resign": lambda: s.resign(chat, user, number),
            "games": lambda: s.games(chat, user),
            "rules": lambda: s.rules_text(chat, text, user=user),
            "leaderboard": lambda: s.leaderboard(chat, user, text),
            "stats": lambda: s.stats(chat, user, text),
            "history": lambda: s.history(chat, user, text),
        }
        if command in handlers:
            out = await handlers[command]()
        elif command == "abort":
            out = await s.abort(chat, user, number, is_admin=await self.is_admin(update))
        elif command == "settings":
            out = await s.settings(chat, user, text, is_admin=await self.is_admin(update))
        elif command == "newseason":
            out = await s.new_season(chat, user, text, is_admin=await self.is_admin(update))
        else:
            out = s.help(chat, user)
        if command == "board":
            for m in out:
                m.fresh = True
        await self.deliver(out)

    async def on_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Plain text in the private chat is a move; in a group it only counts toward scrolling."""
        self._seen(update)
        if update.effective_chat and update.effective_chat.type == ChatType.PRIVATE and update.effective_message:
            await self.deliver(await self.service.act(None, self.user_ref(update), update.effective_message.text))

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        user = self.user_ref(update)
        chat = self.chat_ref(update)
        answer = ""
        try:
            admin = await self.is_admin(update) if (query.data or "").startswith(("s:", "x:")) else False
            out = await self.service.press(user, query.data or "", chat=chat, is_admin=admin)
            errors = [m for m in out if m.kind == "error"]
            if errors:
                answer = errors[0].text
                out = [m for m in out if m is not errors[0]]
            await self.deliver(out)
        finally:
            try:  # every callback gets its answer, also when something above failed
                await query.answer(answer[:200] or None, show_alert=bool(answer) and len(answer) > 60)
            except TelegramError as error:
                log.warning("could not answer a callback: %s", error)

    async def on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message and message.migrate_to_chat_id:
            await self.service.migrate_chat(PLATFORM, str(message.chat.id), str(message.migrate_to_chat_id))

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("update failed: %s", context.error, exc_info=context.error)
        if isinstance(update, Update) and update.effective_chat is not None:
            try:
                await self.app.bot.send_message(update.effective_chat.id,
                                                "Sorry, something went wrong with that. Nothing was changed.")
            except TelegramError:
                pass

    def _seen(self, update: Update) -> None:
        message = update.effective_message
        if message is not None and message.chat.type != ChatType.PRIVATE:
            key = str(message.chat.id)
            self.latest_message[key] = max(self.latest_message.get(key, 0), message.message_id)

    # ------------------------------------------------------------------ outgoing
    async def deliver(self, messages: list[Message]) -> None:
        for message in messages:
            try:
                await self._deliver_one(message)
            except Forbidden:
                if message.user is not None and message.chat is None:  # the person never opened or blocked us
                    await self.deliver(await self.service.dm_failed(message.user, message.game_id))
                else:
                    log.warning("not allowed to post in chat of %s", message.slot or message.kind)
            except TelegramError as error:
                log.warning("could not deliver a %s message: %s", message.kind, error)

    async def _deliver_one(self, message: Message) -> None:
        if message.chat is not None:
            chat_id = message.chat.id
        else:
            chat_id = message.user.id
        slot_key = None
        if message.slot:
            slot_key = f"{message.slot}:{message.user.id}" if message.is_private else message.slot
        extra = self._deep_link(message)
        markup = keyboard(message.buttons, extra)
        text = to_html(caption(message.text) if message.image is not None else message.text[:3900])
        if slot_key and not message.fresh:
            known = await self.service.message_for_slot(PLATFORM, slot_key)
            if known and known[0] == str(chat_id) and not self._scrolled_away(chat_id, int(known[1])):
                try:
                    await self._edit(chat_id, int(known[1]), text, markup, message)
                    return
                except BadRequest as error:
                    if "not modified" in str(error).lower():
                        return
                    # gone (deleted, too old) or of the other kind (text ↔ photo): post a new one below
        sent = await self._send(chat_id, text, markup, message)
        if message.is_private and message.kind == "hand":
            await self.service.dm_delivered(message.user)
        if slot_key:
            await self.service.remember_message(PLATFORM, slot_key, str(sent.chat.id), str(sent.message_id))
        if not message.is_private:
            self.latest_message[str(sent.chat.id)] = max(self.latest_message.get(str(sent.chat.id), 0),
                                                          sent.message_id)

    async def _edit(self, chat_id: str, message_id: int, text: str, markup, message: Message) -> None:
        """A board or hand in place: a picture with editMessageMedia (new photo and caption), text with
        editMessageText. Telegram refuses to turn one kind into the other (BadRequest)."""
        if message.image is not None:
            media = InputMediaPhoto(message.image, filename=message.image_name or "board.png", caption=text,
                                    parse_mode=ParseMode.HTML)
            await self.app.bot.edit_message_media(media, chat_id=int(chat_id), message_id=message_id,
                                                  reply_markup=markup)
        else:
            await self.app.bot.edit_message_text(text, chat_id=int(chat_id), message_id=message_id,
                                                 parse_mode=ParseMode.HTML, reply_markup=markup,
                                                 disable_web_page_preview=True)

    async def _send(self, chat_id: str, text: str, markup, message: Message):
        try:
            return await self._post(int(chat_id), text, markup, message)
        except ChatMigrated as moved:  # the group became a supergroup: its games move with it
            await self.service.migrate_chat(PLATFORM, str(chat_id), str(moved.new_chat_id))
            return await self._post(moved.new_chat_id, text, markup, message)

    async def _post(self, chat_id: int, text: str, markup, message: Message):
        if message.image is not None:  # a board, hand or chart: the picture with the text as its caption
            return await self.app.bot.send_photo(chat_id, InputFile(message.image, filename=message.image_name),
                                                 caption=text, parse_mode=ParseMode.HTML, reply_markup=markup)
        return await self.app.bot.send_message(chat_id, text, parse_mode=ParseMode.HTML, reply_markup=markup,
                                               disable_web_page_preview=True)

    def _scrolled_away(self, chat_id: str, message_id: int) -> bool:
        return self.latest_message.get(str(chat_id), message_id) - message_id > REPOST_AFTER

    def _deep_link(self, message: Message) -> list[list[InlineKeyboardButton]]:
        """Lobbies and 'open a private chat' notes carry the link that opens the private chat."""
        if message.kind not in ("lobby", "dm_needed") or message.game_id is None:
            return []
        username = self.app.bot.username
        return [[InlineKeyboardButton("🔔 Open private chat with me",
                                      url=f"https://t.me/{username}?start=g{message.game_id}")]]


def build_telegram_app(service: Service, token: str, base_url: str | None = None, *,
                       rate_limiter: AIORateLimiter | None = None) -> Application:
    """The python-telegram-bot Application, not started. ``app.bot_data["deliver"]`` sends service messages.

    Telegram's limits (about 30 messages/s, 20 per minute in a group) and its 429 answers are handled by
    ``AIORateLimiter``, which waits ``retry_after`` and tries again.
    """
    builder = ApplicationBuilder().token(token).rate_limiter(rate_limiter or AIORateLimiter(max_retries=3))
    if base_url:
        builder = builder.base_url(base_url)
    app = builder.build()
    adapter = TelegramAdapter(service, app)
    app.bot_data["adapter"] = adapter
    app.bot_data["deliver"] = adapter.deliver
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, adapter.on_migrate))
    app.add_handler(CommandHandler([name for name, _ in COMMANDS], adapter.on_command))
    app.add_handler(CallbackQueryHandler(adapter.on_button))
    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, adapter.on_text))
    app.add_error_handler(adapter.on_error)
    return app


async def register_commands(app: Application) -> None:
    """The command menu (setMyCommands); call after ``app.initialize()``."""
    try:
        await app.bot.set_my_commands([BotCommand(name, text) for name, text in COMMANDS])
    except TelegramError as error:
        log.warning("could not register the command list: %s", error)
