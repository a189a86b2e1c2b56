"""The sending half of the Discord adapter: one message at a time, in its channel's delivery worker.

Public messages go to the channel or the game's thread (lobbies and boards edited in place, re-posted when they
have scrolled away), private ones by DM; a 429 goes back to the queue to wait, a DM that fails with 50007 is
reported to the service (which tells the channel once), a thread that is gone sends the game back to its channel.
"""
from __future__ import annotations

import asyncio
import io
import logging
from collections import defaultdict

import discord

from bot.delivery import Budget, Delivery, RetryLater, ShownButtons, default_slot_key
from bot.discord.components import build_view
from bot.discord.format import payload
from bot.discord.threads import GONE, Threads
from bot.service import Message, Service
from bot.service.commands import PrivateChatDelivered, PrivateChatFailed

log = logging.getLogger(__name__)
PLATFORM = "discord"
REPOST_AFTER = 15  # a board this many messages back in its channel has scrolled away: post a new one
CLOSED_DMS = 50007
RETIRED = "↓ ⋯"  # the cut-down old message of a slot: an arrow to the newer one, in no language
OVERALL_BUDGET = Budget(((50, 1.0),))  # Discord: about 50 requests a second for the whole bot


def files_of(message: Message) -> list[discord.File]:
    """The message's picture and its documents (a game's record), as attachments."""
    files = [discord.File(io.BytesIO(data), filename=name) for name, data in message.files]
    if message.image is None:
        return files
    return [discord.File(io.BytesIO(message.image), filename=message.image_name or "picture.png")] + files


class Sending:
    """Delivers the service's messages on Discord (``delivery``: the queues), and counts what each channel saw."""

    def __init__(self, service: Service, bot: discord.Client, threads: Threads):
        self.service = service
        self.bot = bot
        self.threads = threads
        self.seen: dict[int, int] = defaultdict(int)  # channel id → messages seen there
        self.posted_at: dict[int, int] = {}  # our message id → ``seen`` of its channel when posted
        self.dm_channels: dict[str, int] = {}  # person → their DM channel (opened once: two calls saved a DM)
        self.shown_buttons = ShownButtons()  # slots whose message still has buttons (an old hand may stay)
        # a message is rendered and its picture drawn when it is really sent (``service.finish_one``): a board
        # replaced while it waited is never drawn
        self.delivery = Delivery(self._send, on_delivered=service.marks.delivered, prepare=service.finish_one,
                                 on_queued=service.marks.holding, name="discord", overall=OVERALL_BUDGET)

    def saw_message(self, message: discord.Message) -> None:
        if message.guild is not None:
            self.seen[message.channel.id] += 1

    async def _channel_of(self, message: Message, thread: int | None = None) -> discord.abc.Messageable:
        if thread is not None:  # the game's own thread
            return self.bot.get_partial_messageable(thread, type=discord.ChannelType.public_thread)
        if message.chat is not None:
            return self.bot.get_partial_messageable(int(message.chat.id), type=discord.ChannelType.text)
        known = self.dm_channels.get(message.user.id)
        if known is not None:  # no call: the DM channel of a person is opened once, then remembered
            return self.bot.get_partial_messageable(known, type=discord.ChannelType.private)
        person = self.bot.get_user(int(message.user.id)) or await self.bot.fetch_user(int(message.user.id))
        channel = person.dm_channel or await person.create_dm()
        self.dm_channels[message.user.id] = channel.id
        return channel

    async def _send(self, message: Message, meta: dict, pace) -> None:
        """One message, in its channel's delivery worker; rate limits go back to the queue to wait and retry."""
        try:
            await self._deliver_one(message, pace)
        except discord.RateLimited as error:
            raise RetryLater(error.retry_after, str(error)) from None
        except discord.Forbidden as error:
            if error.code == CLOSED_DMS and message.is_private:  # each failure; the service tells once a game
                self.delivery.submit(await self.service.handle(PrivateChatFailed(message.user, None,
                                                                                 message.game_id)))
            else:
                log.warning("not allowed to deliver a %s message: %s", message.kind, error)
        except discord.HTTPException as error:
            if error.status == 429 or error.status >= 500:
                raise RetryLater(1.0, str(error)) from None
            log.warning("could not deliver a %s message: %s", message.kind, error)
        except (OSError, asyncio.TimeoutError) as error:
            raise RetryLater(1.0, str(error)) from None

    @staticmethod
    def _mentions(message: Message) -> tuple[str, discord.AllowedMentions]:
        """A public ping names its people, and pings them only: allowed_mentions lists exactly those users. The
        names are added after the text is escaped (``payload``), so they stay mentions."""
        if not message.ping or message.is_private or not message.mentions:
            return "", discord.AllowedMentions.none()
        people = [discord.Object(int(u.id)) for u in message.mentions]
        named = " ".join(f"<@{u.id}>" for u in message.mentions)
        return f" {named}", discord.AllowedMentions(everyone=False, roles=False, users=people, replied_user=False)

    async def _deliver_one(self, message: Message, pace) -> None:
        """One message: each REST call first awaits ``pace`` (the channel's and the token's budget); one of a game
        whose thread is gone (deleted, archived by someone) goes to the channel."""
        if message.kind == "home":  # a game starts: its own thread, where the bot may open one
            self.delivery.submit(await self.threads.open(message))
            return
        if message.kind == "close":  # a finished game's thread, its grace over
            await self.threads.closed(message, pace)
            return
        thread = self.threads.thread_of(message)
        try:
            await self._deliver_where(message, thread, pace)
        except discord.HTTPException as error:
            if thread is None or error.code not in GONE:
                raise
            if thread in self.threads.finished:  # a late word of a game over, its thread archived: not news
                log.info("a %s message of a finished game's archived thread was dropped: %s", message.kind, error)
                return
            self.delivery.submit(await self.threads.gone(message, thread))
            await self._deliver_where(message, None, pace)

    async def _deliver_where(self, message: Message, thread: int | None, pace) -> None:
        slot_key = default_slot_key(message)
        if message.retire:  # a slot whose message is no longer true (a finished game's turn line): it goes
            for key in [slot_key] + ([f"status:{message.game_id}"] if message.kind == "turn" else []):
                found = await self.service.slots.lookup(PLATFORM, key) if key else None
                if found is not None:  # (and the channel's status line of the game with it)
                    await pace()
                    await self._retire(self.bot.get_partial_messageable(int(found[0])), int(found[1]))
            return
        if thread is not None and message.kind == "turn" and not message.mentions:
            await self.threads.told_in_channel(message, thread, files_of)  # the status line only: the board in
            return  # the thread says whose turn, and their hands pinged them
        channel = await self._channel_of(message, thread)
        view = build_view(message)
        pings, allowed = self._mentions(message)
        content = payload(message.text, pings, message.times)
        renew = message.ping or message.fresh
        if thread is not None and message.kind == "turn" and not message.mentions:
            renew = False  # a thread's turn line is edited in place: its people were pinged by their hands
        known = None
        if slot_key:
            found = await self.service.slots.lookup(PLATFORM, slot_key)
            if found and found[0] == str(channel.id):
                known = int(found[1])
        if known is not None and not renew and not self._scrolled_away(channel.id, known):
            try:  # one call: the slot's message shows the news (a board, a hand after its person's move)
                # attachments replace the old picture (or remove it when this one has none); view=None removes
                # the buttons of a message that has none any more (a finished game's picker)
                await pace()
                await channel.get_partial_message(known).edit(**content, view=view, attachments=files_of(message),
                                                              allowed_mentions=allowed)
                self.shown_buttons.note(slot_key, view is not None and not message.lapsing)
                if thread is not None:  # the turn on the channel's status line; an aborted game's board
                    await self.threads.told_in_channel(message, thread, files_of)
                return
            except discord.NotFound:
                known = None  # deleted meanwhile: post a new one
        # one call: a new message (a DM notifies; in a channel only the users in ``allowed`` are pinged)
        await pace()
        sent = await channel.send(content["content"], embed=content["embed"], view=view, files=files_of(message),
                                  allowed_mentions=allowed, silent=message.silent and message.is_private)
        # one more only where the old message misleads: a channel's old turn line, a hand still pressable, or
        # the copy a person asked to see anew (/hand)
        retired = known is not None and (message.ping or message.is_private) and \
            (not message.is_private or message.fresh or self.shown_buttons.pressable(slot_key))
        if retired:
            await pace()
            await self._retire(channel, known)
        elif known is not None and self.shown_buttons.pressable(slot_key):  # the older message stays (a board
            try:  # asked for again): its buttons go — one call, only where it still has some
                await channel.get_partial_message(known).edit(view=None)
            except discord.HTTPException as error:
                log.info("could not remove the buttons of an older message: %s", error)
        self.shown_buttons.note(slot_key, view is not None and not message.lapsing)
        if message.is_private and message.kind == "hand":
            await self.service.handle(PrivateChatDelivered(message.user, None))
        if slot_key:
            await self.service.slots.remember(PLATFORM, slot_key, str(channel.id), str(sent.id))
        if thread is not None:
            await self.threads.told_in_channel(message, thread, files_of)
        if not message.is_private:
            if not retired:  # a message that replaced (deleted) its predecessor pushes nothing up
                self.seen[channel.id] += 1
            self.posted_at[sent.id] = self.seen[channel.id]

    @staticmethod
    async def _retire(channel, message_id: int) -> None:
        """The previous message of a slot, now that a newer one was posted: deleted, or cut to one line."""
        old = channel.get_partial_message(message_id)
        try:
            await old.delete()
            return
        except discord.NotFound:
            return
        except discord.HTTPException as error:
            log.info("could not delete an old message (%s): cutting it down instead", error)
        try:
            await old.edit(content=RETIRED, embed=None, view=None, attachments=[])
        except discord.HTTPException:
            pass

    def _scrolled_away(self, channel_id: int, message_id: int) -> bool:
        posted = self.posted_at.get(message_id)
        return posted is not None and self.seen[channel_id] - posted > REPOST_AFTER
