"""What the Telegram adapter sends, in each chat's delivery worker: posts, edits in place, pings that post anew
and retire the previous message of their slot, group-to-supergroup moves, and the private-chat deep link.

A 429 or a network failure goes back to the delivery queue (``RetryLater``) to wait and retry in that chat only.
"""
from __future__ import annotations

import html
import logging
from datetime import timedelta

from telegram import InlineKeyboardButton, InputFile, InputMediaPhoto, LinkPreviewOptions, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TelegramError

from bot import i18n
from bot.delivery import RetryLater, default_slot_key
from bot.i18n import _
from bot.service import Message
from bot.service.commands import ChatMoved, PrivateChatDelivered, PrivateChatFailed
from bot.telegram.format import CAPTION_LIMIT, TEXT_LIMIT, caption, fit_text, keyboard, to_html, utf16_len

log = logging.getLogger(__name__)
PLATFORM = "telegram"
REPOST_AFTER = 15  # a board this many messages back in its group has scrolled away: post a new one
RETIRED = "↓ ⋯"  # the cut-down old message of a slot: an arrow to the newer one, in no language
NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


def _seconds(value) -> float:
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def _settle(meta: dict, reached: bool | None) -> None:
    """Tell whoever waits for this message (``meta["outcome"]``, a My hand press) whether it reached its person."""
    outcome = meta.get("outcome")
    if outcome is not None and not outcome.done():
        outcome.set_result(reached)


class Outgoing:
    """The sending half of ``TelegramAdapter`` (a mixin: it uses the adapter's ``app``, ``service``,
    ``delivery``, ``latest_message``, ``moved`` and ``removed``)."""

    async def _send(self, message: Message, meta: dict, pace) -> None:
        """Deliver one message; a 429 or a network failure is handed back to the queue to wait and retry."""
        try:
            await self._deliver_one(message, meta, pace)
            _settle(meta, True)
        except RetryAfter as error:
            raise RetryLater(_seconds(error.retry_after), str(error)) from None
        except Forbidden as error:
            if message.is_private:  # the person never opened the private chat, or blocked me
                _settle(meta, False)
                await self._dm_failed(message)
            else:
                log.warning("not allowed to post a %s message: %s", message.kind, error)
        except BadRequest as error:
            log.warning("Telegram refused a %s message: %s", message.kind, error)
        except NetworkError as error:
            raise RetryLater(1.0, str(error)) from None
        except TelegramError as error:
            log.warning("could not deliver a %s message: %s", message.kind, error)
        _settle(meta, None)  # refused for another reason: whoever waits is told it is not known

    async def _dm_failed(self, message: Message) -> None:
        """Tell the game's group, in Telegram's own terms: open the private chat and press Start (the service's
        ``dm_needed`` message, to which ``_deep_link`` adds the button)."""
        self.delivery.submit(await self.service.handle(PrivateChatFailed(message.user, None, message.game_id)))

    def _resolve(self, chat_id: str) -> str:
        seen = set()
        while chat_id in self.moved and chat_id not in seen:
            seen.add(chat_id)
            chat_id = self.moved[chat_id]
        return chat_id

    async def _moved_to(self, old_id, new_id) -> int:
        old, new = str(old_id), str(new_id)
        if self.moved.get(old) != new:
            self.moved[old] = new
            await self.service.handle(ChatMoved(None, None, PLATFORM, old, new))
        return int(new)

    @staticmethod
    def _notifies(message: Message) -> bool:
        """Pings notify (the person to act; in a group only when it names someone), and so do results and
        notices; everything else is sent silently."""
        if message.kind in ("result", "notice", "dm_needed", "dm_failed"):
            return True
        if message.is_private:
            return message.ping
        return message.ping and bool(message.mentions) or message.kind == "lobby"

    def _html(self, message: Message) -> str:
        mention = ""
        if message.mentions and message.chat is not None:
            mention = "🔔 " + ", ".join(u.name for u in message.mentions)
        captioned = message.image is not None or bool(message.files)
        limit = (CAPTION_LIMIT if captioned else TEXT_LIMIT) - (utf16_len(mention) + 1 if mention else 0)
        text = caption(message.text, limit) if captioned else fit_text(message.text, limit)
        rendered = to_html(text)
        if mention:
            rendered += "\n🔔 " + ", ".join(f'<a href="tg://user?id={int(u.id)}">{html.escape(u.name)}</a>'
                                           for u in message.mentions)
        return rendered

    async def _deliver_one(self, message: Message, meta: dict, pace) -> None:
        slot_key = default_slot_key(message)
        if message.retire:
            await self._retire_slot(slot_key, pace)
            return
        chat_id = int(self._resolve(message.chat.id if message.chat is not None else message.user.id))
        text = self._html(message)
        markup = keyboard(message.buttons, self._deep_link(message))
        renew = message.ping or message.fresh
        known = superseded = None
        if slot_key:
            found = await self.service.slots.lookup(PLATFORM, slot_key)
            # a slot shown in a group that became a supergroup is posted anew in the new chat (and remembered
            # there): its old message cannot be edited or deleted any more
            if found and found[0] == str(chat_id):
                known = (int(found[0]), int(found[1]))
        if known is not None and not renew and not self._scrolled_away(known[0], known[1]):
            try:  # one call: the slot's message shows the news (a board, a hand after its person's move)
                await pace()
                await self._edit(known[0], known[1], text, markup, message)
                self.shown_buttons.note(slot_key, markup is not None and not message.lapsing)
                return
            except BadRequest as error:
                if "not modified" in str(error).lower():
                    return
                # gone (deleted, too old) or of the other kind (text ↔ photo): post a new one below, and the old
                # one (if it is still there) loses its buttons
                superseded, known = known, None
            except ChatMigrated as moved:
                chat_id = await self._moved_to(known[0], moved.new_chat_id)
                known = None
        # one call: a new message (it notifies only when it is a ping, see ``_notifies``)
        sent = await self._post(chat_id, text, markup, message, meta, pace)
        if known is not None and renew and (message.ping or message.is_private) and \
                (not message.is_private or message.fresh or self.shown_buttons.pressable(slot_key)):
            # one more only where the old message misleads: a group's old turn line, a hand still pressable, or
            # the copy a person asked to see anew (/hand)
            if await self._retire(known[0], known[1], pace) and not message.is_private:
                self.removed.setdefault(str(known[0]), set()).add(known[1])
        elif (known is not None and self.shown_buttons.pressable(slot_key)) or superseded is not None:
            # the older message stays (a board asked for again, or a picture followed by text): its buttons go
            await self._strip(*(known or superseded), pace)
        self.shown_buttons.note(slot_key, markup is not None and not message.lapsing)
        if message.is_private and message.kind == "hand":
            await self.service.handle(PrivateChatDelivered(message.user, None))
        if slot_key:
            await self.service.slots.remember(PLATFORM, slot_key, str(sent.chat.id), str(sent.message_id))
        if not message.is_private:
            self.latest_message[str(sent.chat.id)] = max(self.latest_message.get(str(sent.chat.id), 0),
                                                          sent.message_id)

    async def _edit(self, chat_id: int, message_id: int, text: str, markup, message: Message) -> None:
        """A board or hand in place: a picture with editMessageMedia (new photo and caption), text with
        editMessageText. Telegram refuses to turn one kind into the other (BadRequest)."""
        if message.image is not None:
            media = InputMediaPhoto(message.image, filename=message.image_name or "board.png", caption=text,
                                    parse_mode=ParseMode.HTML)
            await self.app.bot.edit_message_media(media, chat_id=chat_id, message_id=message_id,
                                                  reply_markup=markup)
        else:
            await self.app.bot.edit_message_text(text, chat_id=chat_id, message_id=message_id,
                                                 parse_mode=ParseMode.HTML, reply_markup=markup,
                                                 link_preview_options=NO_PREVIEW)

    async def _post(self, chat_id: int, text: str, markup, message: Message, meta: dict, pace):
        kwargs = {"parse_mode": ParseMode.HTML, "reply_markup": markup,
                  "disable_notification": not self._notifies(message)}
        if meta.get("reply_to") and chat_id < 0:
            kwargs["reply_parameters"] = ReplyParameters(meta["reply_to"], allow_sending_without_reply=True)
        for _attempt in range(3):
            try:
                await pace()
                if message.files:  # documents (a game's record): each its own message, the text on the last
                    return await self._documents(chat_id, text, message, kwargs, pace)
                if message.image is not None:  # a board, hand or chart: the picture with the text as caption
                    return await self.app.bot.send_photo(
                        chat_id, InputFile(message.image, filename=message.image_name), caption=text, **kwargs)
                return await self.app.bot.send_message(chat_id, text, link_preview_options=NO_PREVIEW, **kwargs)
            except ChatMigrated as moved:  # the group became a supergroup: its games move with it
                chat_id = await self._moved_to(chat_id, moved.new_chat_id)
                kwargs.pop("reply_parameters", None)
        raise BadRequest("the chat keeps moving")

    async def _documents(self, chat_id: int, text: str, message: Message, kwargs: dict, pace):
        """Each file by sendDocument; the message's text is the last one's caption."""
        sent = None
        for i, (name, data) in enumerate(message.files):
            last = i == len(message.files) - 1
            if i:
                await pace()
            sent = await self.app.bot.send_document(chat_id, InputFile(data, filename=name),
                                                    caption=text if last else None,
                                                    **(kwargs if last else {"disable_notification": True}))
        return sent

    async def _retire_slot(self, slot_key: str | None, pace) -> None:
        """A slot whose message is no longer true (a finished game's turn line): its message goes, nothing new."""
        found = await self.service.slots.lookup(PLATFORM, slot_key) if slot_key else None
        if found is None:
            return
        chat_id, message_id = int(found[0]), int(found[1])
        if await self._retire(chat_id, message_id, pace):
            self.removed.setdefault(str(chat_id), set()).add(message_id)

    async def _retire(self, chat_id: int, message_id: int, pace) -> bool:
        """The previous message of a slot, now that a newer one notified: deleted (True), or cut to one line.
        One in a group that became a supergroup stays as it is (that chat takes no calls any more)."""
        bot = self.app.bot
        if str(chat_id) in self.moved:
            return False
        try:
            await bot.delete_message(chat_id, message_id)
            return True
        except ChatMigrated as moved:
            await self._moved_to(chat_id, moved.new_chat_id)
            return False
        except (BadRequest, Forbidden) as error:
            log.info("could not delete an old message (%s): cutting it down instead", error)
        try:
            await pace()
            await bot.edit_message_text(RETIRED, chat_id=chat_id, message_id=message_id, reply_markup=None)
        except BadRequest as error:
            if "no text" in str(error).lower():
                try:
                    await pace()
                    await bot.edit_message_caption(chat_id=chat_id, message_id=message_id, caption=RETIRED,
                                                   reply_markup=None)
                except BadRequest:
                    pass
        return False

    async def _strip(self, chat_id: int, message_id: int, pace) -> None:
        """A message superseded by a newer one of its slot keeps its text and loses its buttons (a press there
        would act on a board that is no longer the one shown)."""
        try:
            await pace()
            await self.app.bot.edit_message_reply_markup(chat_id=chat_id, message_id=message_id, reply_markup=None)
        except BadRequest as error:  # it had none, or it is gone
            log.info("could not remove the buttons of an older message: %s", error)

    def _scrolled_away(self, chat_id: int, message_id: int) -> bool:
        latest = self.latest_message.get(str(chat_id), message_id)
        gone = sum(1 for m in self.removed.get(str(chat_id), ()) if message_id < m <= latest)
        return latest - message_id - gone > REPOST_AFTER

    def _deep_link(self, message: Message) -> list[list[InlineKeyboardButton]]:
        """Open lobbies and 'open a private chat' notes carry the link that opens the private chat."""
        if message.kind not in ("lobby", "dm_needed") or message.game_id is None:
            return []
        if message.kind == "lobby" and not message.buttons:  # the table started (everyone opened it): no link
            return []
        with i18n.using(message.chat.locale if message.chat is not None else None):
            label = _("🔔 Open private chat with me")
        return [[InlineKeyboardButton(label, url=self.start_link(message.game_id))]]

    def start_link(self, game_id: int | None) -> str:
        """The deep link that opens the private chat with the bot (and, pressing Start, brings the hands)."""
        return f"https://t.me/{self.app.bot.username}?start=g{game_id}"
