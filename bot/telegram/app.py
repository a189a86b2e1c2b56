"""The Telegram adapter: commands and button presses in, service messages out. Only translation lives here.

Groups carry lobbies and boards; each player's hand and move picker live in their private
chat with the bot, which a bot may not open itself: joining shows a deep link
(``t.me/<bot>?start=g<game>``) and the service holds the start until everyone opened it.

How it stays quick and within Telegram's limits:

- **Answer first.** A button press is answered (``answerCallbackQuery``) before anything is delivered: with
  the service's verdict as a toast when it comes within ``verdict_wait`` (0.5 s), else at once without one
  (an error then arrives as a message). Deliveries never happen inside a handler.
- **Concurrent, in order per chat.** Updates are handled concurrently (``concurrent_updates``); a per-chat
  lock keeps one chat's updates in the order they came.
- **Delivery** (``bot.delivery``): per-chat queues that coalesce by slot, at most 20 sends+edits a minute and
  one a second in a group, 429s waited out in that chat's queue only, as often as needed.
- **Pings.** A ``ping`` message is posted anew (a new message notifies; an edit never does) and the previous
  message of its slot is deleted (or, if Telegram refuses, cut down to one line without buttons). Only pings,
  results and notices notify; everything else is sent silently, so the person to act gets one notification.
- **Migration.** A group upgraded to a supergroup answers with ``ChatMigrated`` (sends and edits alike): the
  chat moves (``Service.migrate_chat``) and the message goes to the new id.
"""
from __future__ import annotations

import asyncio
import logging

from telegram import BotCommand, Update
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import (Application, ApplicationBuilder, CallbackQueryHandler, CommandHandler, ContextTypes,
                          MessageHandler, filters)

from bot.delivery import Budget, Delivery, ShownButtons, default_chat_key
from bot import i18n
from bot.i18n import N_, _
from bot.service import ChatRef, Message, Service, UserRef
from bot.service import commands as c
from bot.telegram.format import TAPPED
from bot.telegram.incoming import ADMIN_COMMANDS, command_of, late_refusal
from bot.telegram.outgoing import PLATFORM, Outgoing
from bot.telegram.topics import Topics

log = logging.getLogger(__name__)
GROUP_BUDGET = Budget(((20, 63.0), (1, 1.05)))  # Telegram: 20 a minute in a group, about one a second
PRIVATE_BUDGET = Budget(((3, 1.1),))
OVERALL_BUDGET = Budget(((30, 1.0),))  # about 30 a second for the whole bot
HAND_WAIT = 3.0  # seconds a My hand press waits for its hand to be sent before it is answered (a query lasts 15)

COMMANDS = [
    ("new", N_("open a table: /new <game> [options]")), ("join", N_("take a seat")),
    ("leave", N_("leave your seat")), ("addai", N_("add an AI player: /addai [greedy|strong|random]")),
    ("start", N_("start the game")), ("hand", N_("your private view and moves")),
    ("move", N_("make a move: /move <notation>")),
    ("hint", N_("privately, what the strong AI would play (the game is then not rated)")),
    ("board", N_("show the board again")), ("log", N_("what happened: /log [lines] [#game]")),
    ("undo", N_("take your last move back (or ask the others to agree)")),
    ("resign", N_("leave a running game (an AI takes over): /resign [yes]")),
    ("abort", N_("end a table or game (creator or admin)")), ("games", N_("the games of this group")),
    ("mygames", N_("every game you sit in, yours to play first")),
    ("away", N_("away for a while: your time banks stop, /away 3d")), ("back", N_("back from /away")),
    ("notify", N_("your pings, reminders and quiet hours: /notify quiet=22-8 tz=Europe/Amsterdam")),
    ("rules", N_("rules of a game: /rules <game>")),
    ("leaderboard", N_("the group's ratings: /leaderboard [game]")), ("stats", N_("a player's record")),
    ("history", N_("recent games")), ("web", N_("the link to this group's league pages")),
    ("record", N_("a game's record, sent privately: /record [#game]")),
    ("replay", N_("step through a finished game: /replay #game [step] [seat N|all]")), ("settings", N_("group settings (admins); /settings mylanguage=de")),
    ("newseason", N_("start a new league season: /newseason [game] (admins)")),
    ("help", N_("how to play here: /help [game]")),
]


def message_link(league: str, chat_id: str, message_id: str, topic: str | None = None) -> str | None:
    """A link to a message: supergroups (ids ``-100…``) have ``t.me/c/<id>/<message>``, in a forum topic
    ``t.me/c/<id>/<topic>/<message>``; a basic group has none."""
    if not chat_id.startswith("-100"):
        return None
    return f"https://t.me/c/{chat_id[4:]}/{topic + '/' if topic else ''}{message_id}"


def _counted(handler):
    """Counts the updates being handled, so tests and the bench can wait until all is quiet."""
    async def wrapper(self, update, context):
        self.busy += 1
        try:
            return await handler(self, update, context)
        finally:
            self.busy -= 1
    wrapper.__name__ = handler.__name__
    wrapper.__doc__ = handler.__doc__
    return wrapper



class TelegramAdapter(Outgoing):
    def __init__(self, service: Service, app: Application, *, pace_scale: float = 1.0, verdict_wait: float = 0.5):
        self.service = service
        service.ctx.link_makers[PLATFORM] = message_link
        service.ctx.homes.add(PLATFORM)  # a game gets its own forum topic where the group has topics
        self.topics = Topics(service, app)
        self.app = app
        self.verdict_wait = verdict_wait
        self.latest_message: dict[str, int] = {}  # group id → newest message id seen there
        self.moved: dict[str, str] = {}  # old group id → its supergroup's id
        self.removed: dict[str, set[int]] = {}  # group id → our messages deleted there (they push nothing up)
        self.shown_buttons = ShownButtons()  # slots whose message still has buttons (an old hand may stay)
        self._locks: dict[str, asyncio.Lock] = {}
        self.busy = 0  # updates being handled (tests and the bench wait for 0)
        self._group_budget = GROUP_BUDGET.scaled(pace_scale)
        self._private_budget = PRIVATE_BUDGET.scaled(pace_scale)
        # a message is rendered and its picture drawn when it is really sent (``service.finish_one``): a board
        # replaced while it waited is never drawn
        self.delivery = Delivery(self._send, on_delivered=service.marks.delivered, chat_key=default_chat_key,
                                 budget=self._budget, overall=OVERALL_BUDGET.scaled(pace_scale),
                                 prepare=service.finish_one, on_queued=service.marks.holding, name="telegram")

    async def close(self, drain: float = 5.0) -> None:
        """Deliver what is queued (up to ``drain`` seconds), then stop; call before ``app.stop()``."""
        await self.delivery.close(drain=drain)

    def _budget(self, key: str) -> Budget:
        return self._private_budget if ":u:" in key else self._group_budget

    # ------------------------------------------------------------------ references
    @staticmethod
    def user_ref(update: Update) -> UserRef:
        user = update.effective_user
        return UserRef(PLATFORM, str(user.id), user.full_name or user.username or str(user.id),
                       i18n.supported(user.language_code))

    @staticmethod
    def chat_ref(update: Update) -> ChatRef | None:
        chat = update.effective_chat
        if chat is None or chat.type == ChatType.PRIVATE:
            return None
        user = update.effective_user  # a new group speaks the language of the first person who uses it
        message = update.effective_message  # typed (or pressed) in a forum topic: the topic is a game's place
        topic = message.message_thread_id if message is not None and message.is_topic_message else None
        return ChatRef(PLATFORM, str(chat.id), str(chat.id), chat.title,
                       i18n.supported(user.language_code) if user is not None else None,
                       str(topic) if topic else None)

    async def is_admin(self, update: Update) -> bool:
        chat = update.effective_chat
        if chat is None or chat.type == ChatType.PRIVATE:
            return False
        try:
            member = await self.app.bot.get_chat_member(chat.id, update.effective_user.id)
        except TelegramError:
            return False
        return member.status in ("administrator", "creator")

    def _lock(self, update: Update) -> asyncio.Lock:
        """One chat's updates are handled one after another, in the order they came; chats run side by side."""
        chat = update.effective_chat
        key = str(chat.id) if chat is not None else f"u{update.effective_user.id}"
        return self._locks.setdefault(key, asyncio.Lock())

    # ------------------------------------------------------------------ incoming
    async def deliver(self, messages: list[Message]) -> None:
        """Queue service messages for delivery (timers and the outbox loop call this); returns at once."""
        self.delivery.submit(messages)

    def submit(self, messages: list[Message], *, asker: UserRef | None = None, reply_to: int | None = None) -> None:
        """Queue messages; an answer to ``asker``'s own command in a group goes as a reply to their message."""
        for message in messages:
            meta = {}
            if reply_to is not None and message.chat is not None and message.user is not None and \
                    asker is not None and message.user.id == asker.id:
                meta["reply_to"] = reply_to
            self.delivery.submit([message], meta)

    @_counted
    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or update.effective_user is None:
            return
        self._seen(update)
        async with self._lock(update):
            out = await self._command(update, context)
            if any(m.conceal for m in out) and message.chat.type != ChatType.PRIVATE:
                await self._conceal(message, out, self.user_ref(update))
        self.submit(out, asker=self.user_ref(update), reply_to=message.message_id)

    async def _conceal(self, typed, out: list[Message], user: UserRef) -> None:
        """A secret move typed in the group: its message is deleted where the bot may (an admin with the right to
        delete messages), else the person is asked to delete it; the refusal says which."""
        try:
            await self.app.bot.delete_message(typed.chat.id, typed.message_id)
            done = True
        except TelegramError as error:
            log.info("could not delete a secret move typed in a group: %s", error)
            done = False
        with i18n.using(user.locale):
            said = _("I deleted your message so the table cannot read it.") if done else \
                _("Please delete your message: the table can read it.")
        for m in out:
            if m.conceal:
                m.text += "\n" + said

    async def _command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> list[Message]:
        message = update.effective_message
        name = message.text.split()[0][1:].split("@")[0].lower()
        args = list(context.args or [])
        if TAPPED.match(message.text):  # "/record_12", tapped in a text of ours: "/record 12"
            name, number = name.split("_", 1)
            args.insert(0, number)
        chat, user = self.chat_ref(update), self.user_ref(update)
        if chat is None and name == "start":  # the private chat opened: hello, and the hands at once
            with i18n.using(user.locale):
                hello = _("Hello! I will send your hands and moves here. Go back to the group to play.")
            out = [Message(hello, user=user, kind="info")]
            out += await self.service.handle(c.PrivateChatOpened(user, None))
            out += await self._hands(user)  # pressed Start again (after blocking me): the hands at once
            return out
        admin = name in ADMIN_COMMANDS and await self.is_admin(update)
        command = command_of(name, args, user, chat, admin)
        if command is None:
            with i18n.using(user.locale):
                here = _("Here I send your hands; the games themselves are played in a group. Type a move here "
                         "as /move <notation>, or use the buttons; /settings mylanguage=de sets your language.")
            return [Message(here, user=user)]
        return await self.service.handle(command)

    async def _hands(self, user: UserRef) -> list[Message]:
        out: list[Message] = []
        for game_id in await self.service.games_of(user):
            out += [m for m in await self.service.handle(c.ShowHand(user, None, game_id)) if m.kind == "hand"]
        return out

    @_counted
    async def on_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Plain text in the private chat is a move; in a group it only counts toward scrolling."""
        self._seen(update)
        if update.effective_chat and update.effective_chat.type == ChatType.PRIVATE and update.effective_message:
            async with self._lock(update):
                out = await self.service.handle(c.MakeMove(self.user_ref(update), None, update.effective_message.text))
            self.submit(out)

    @_counted
    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Answer first: the query is answered before anything is delivered, with the verdict as a toast when the
        service gives it within ``verdict_wait``; the messages are queued after the answer."""
        query = update.callback_query
        user, chat = self.user_ref(update), self.chat_ref(update)
        data = query.data or ""
        work = asyncio.create_task(self._press(update, user, chat, data))
        try:
            await asyncio.wait({work}, timeout=self.verdict_wait)
        finally:
            out = work.result() if work.done() and not work.cancelled() and work.exception() is None else None
            answer, out, link = self._verdict(out, user, data)
            hands = [m for m in out or [] if m.is_private and m.kind == "hand"] \
                if data.startswith("h:") and not answer else []
            if hands:  # My hand: said to be there only once it is
                out = [m for m in out if not any(m is h for h in hands)]
                answer, link = await self._hand_sent(hands, user)
            try:
                await query.answer(answer[:200] or None, show_alert=len(answer) > 60 and link is None, url=link)
            except TelegramError as error:
                log.warning("could not answer a callback: %s", error)
        if out is None:  # the service is still at work: its refusal comes as a message instead of a toast
            out = [late_refusal(m, user, chat) if m.kind == "error" else m for m in await work]
        self.submit(out)

    async def _press(self, update: Update, user: UserRef, chat: ChatRef | None, data: str) -> list[Message]:
        async with self._lock(update):
            admin = await self.is_admin(update) if data.startswith(("s:", "x:")) else False
            return await self.service.handle(c.PressButton(user, chat, data, None, admin))

    def _verdict(self, out: list[Message] | None, user: UserRef,
                 data: str) -> tuple[str, list[Message] | None, str | None]:
        """The toast for a press (and the messages still to send); a press whose person's private chat is known
        to fail is answered with the deep link that opens it (Telegram opens the link for the person)."""
        if out is None:
            return "", None, None
        errors = [m for m in out if m.kind == "error" and (m.user is None or m.user.id == user.id)]
        if errors:
            return errors[0].text, [m for m in out if m is not errors[0]], None
        closed = next((m for m in out if m.kind == "dm_needed" and m.is_reply and m.user.id == user.id), None)
        if closed is not None:
            return self._closed(user), [m for m in out if m is not closed], self.start_link(closed.game_id)
        return "", out, None

    @staticmethod
    def _closed(user: UserRef) -> str:
        with i18n.using(user.locale):
            return _("🔒 Our private chat is closed: open it and press Start (unblock me first if you blocked me) — "
                     "your hand comes right after.")

    async def _hand_sent(self, hands: list[Message], user: UserRef) -> tuple[str, str | None]:
        """The hand a My hand press asked for is sent before the press is answered (within ``HAND_WAIT``), so the
        answer says what became of it: there, or — the private chat failed — the deep link that opens it."""
        outcome = asyncio.get_running_loop().create_future()
        self.delivery.submit(hands, {"outcome": outcome})
        try:
            reached = await asyncio.wait_for(asyncio.shield(outcome), HAND_WAIT)
        except asyncio.TimeoutError:
            reached = None
        if reached is False:
            return self._closed(user), self.start_link(hands[0].game_id)
        with i18n.using(user.locale):
            return (_("📬 Your hand is in our private chat.") if reached else
                    _("📬 Your hand is on its way to our private chat.")), None

    @_counted
    async def on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id:
            old, new = message.chat.id, message.migrate_to_chat_id
        elif message.migrate_from_chat_id:
            old, new = message.migrate_from_chat_id, message.chat.id
        else:
            return
        # the new chat's first commands wait until its games have moved (updates run concurrently)
        async with self._locks.setdefault(str(new), asyncio.Lock()):
            async with self._locks.setdefault(str(old), asyncio.Lock()):
                await self._moved_to(old, new)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("update failed: %s", context.error, exc_info=context.error)
        if isinstance(update, Update) and update.effective_chat is not None and update.effective_user is not None:
            user, chat = self.user_ref(update), self.chat_ref(update)
            with i18n.using(user.locale):
                text = _("Sorry, something went wrong with that. Nothing was changed.")
            sorry = Message(text, chat=chat, user=user, kind="error")
            reply_to = update.effective_message.message_id if update.message is not None else None
            self.submit([sorry], asker=user, reply_to=reply_to)

    def _seen(self, update: Update) -> None:
        message = update.effective_message
        if message is not None and message.chat.type != ChatType.PRIVATE:
            self.topics.seen(message.chat)
            key = str(message.chat.id)
            if message.is_topic_message and message.message_thread_id:  # a topic scrolls on its own
                key += f"/{message.message_thread_id}"
            self.latest_message[key] = max(self.latest_message.get(key, 0), message.message_id)


def build_telegram_app(service: Service, token: str, base_url: str | None = None, *, pace_scale: float = 1.0,
                       verdict_wait: float = 0.5, concurrent_updates: int = 64) -> Application:
    """The python-telegram-bot Application, not started. ``app.bot_data["deliver"]`` queues service messages;
    ``app.bot_data["adapter"].delivery`` is the delivery (``await ….idle()`` waits until everything is out).

    Telegram's limits are kept by the delivery's per-chat budgets (``pace_scale`` shrinks their windows for
    tests); no rate limiter sleeps inside a handler.
    """
    builder = (ApplicationBuilder().token(token).concurrent_updates(concurrent_updates)
               .connection_pool_size(32).pool_timeout(30.0))
    if base_url:
        builder = builder.base_url(base_url)

    async def drain(app: Application) -> None:  # run_polling/run_webhook call this; otherwise call close()
        await app.bot_data["adapter"].close()

    builder = builder.post_stop(drain)
    app = builder.build()
    adapter = TelegramAdapter(service, app, pace_scale=pace_scale, verdict_wait=verdict_wait)
    app.bot_data["adapter"] = adapter
    app.bot_data["deliver"] = adapter.deliver
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, adapter.on_migrate))
    app.add_handler(CommandHandler([name for name, _text in COMMANDS], adapter.on_command))
    app.add_handler(MessageHandler(filters.Regex(TAPPED), adapter.on_command))
    app.add_handler(CallbackQueryHandler(adapter.on_button))
    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, adapter.on_text))
    app.add_error_handler(adapter.on_error)
    return app


async def register_commands(app: Application) -> None:
    """The command menu (setMyCommands): English for everyone, and one list per other language (Telegram shows
    the list of the person's ``language_code``); call after ``app.initialize()``."""
    try:
        await app.bot.set_my_commands([BotCommand(name, text) for name, text in COMMANDS])
        for lang in i18n.LANGUAGES:
            if lang != i18n.DEFAULT:
                catalog = i18n.translator(lang)
                await app.bot.set_my_commands([BotCommand(name, catalog.gettext(text)) for name, text in COMMANDS],
                                              language_code=lang)
    except TelegramError as error:
        log.warning("could not register the command list: %s", error)
