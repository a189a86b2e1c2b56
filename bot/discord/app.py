"""The Discord adapter: slash commands and component clicks in, service messages out (``sending.py``). Only
translation.

Every interaction is acknowledged first (deferred), then handed to the service; what comes back is
delivered: public messages to the channel (lobbies and boards edited in place, re-posted when they have
scrolled away), private ones by DM (hands and pickers), answers to the person who acted as ephemeral
messages. When a DM fails with 50007 the service tells the channel once; ``/hand`` and the board's
"My hand" button then show the same view and picker ephemerally.

Answer first: an interaction is deferred before anything else, the answer to its person goes by its token at
once, and everything else is queued in ``bot.delivery`` (one ordered queue per channel or DM, coalesced by
slot): a 429 makes only its own channel wait (discord.py's own retries, then the queue's, as often as needed),
never a handler and never another guild. A ``ping`` message is posted anew (a new DM notifies; a channel
message pings only the users in ``mentions``, by ``allowed_mentions``) and the previous one of its slot is
deleted; every other message mentions nobody. Every text is shown as plain text (``format``): what people call
themselves or type is never Markdown, a link or a mention; the pings are added after it.
"""
from __future__ import annotations

import logging
from typing import Callable

import discord
from discord.ext import commands

from bot.discord.commands import register_commands
from bot.discord.components import BUTTON_PREFIX, MENU_PREFIX, HeraldButton, HeraldMenu, build_view
from bot.discord.format import payload, to_markdown
from bot.discord.sending import PLATFORM, Sending, files_of
from bot.discord.threads import DEFAULT_GRACE, Threads
from bot import i18n
from bot.i18n import _
from bot.discord.translator import HeraldTranslator
from bot.service import ChatRef, Message, Service, UserRef
from bot.service.commands import Command, PressButton

log = logging.getLogger(__name__)


def message_link(guild_id: str, channel_id: str, message_id: str, thread: str | None = None) -> str:
    """Discord's jump link to a message in a server's channel (a message in a thread is addressed by the thread,
    its channel: ``channel_id`` is already the thread's)."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


class DiscordAdapter:
    def __init__(self, service: Service, bot: "HeraldBot", thread_grace: float = DEFAULT_GRACE):
        self.service = service
        service.ctx.link_makers[PLATFORM] = message_link
        service.ctx.homes.add(PLATFORM)  # a game gets its own thread where the bot may open one
        self.bot = bot
        self.threads = Threads(service, bot, thread_grace)
        self.sending = Sending(service, bot, self.threads)
        self.delivery = self.sending.delivery
        self.seen = self.sending.seen  # channel id → messages seen there (a board scrolls away)
        self.busy = 0  # interactions being handled (tests wait for 0)
        # (person, game) → the webhook of the interaction that last showed their hand ephemerally, and its message:
        # a newer one replaces it (deleted by that webhook while its token lasts, 15 min), so one is kept
        self.ephemeral_hands: dict[tuple[str, int | None], tuple[discord.Webhook, int]] = {}
        self.stale_told: set[tuple[str, int | None]] = set()  # told once that older ones above are out of date

    async def close(self, drain: float = 5.0) -> None:
        await self.delivery.close(drain=drain)

    # ------------------------------------------------------------------ references
    @staticmethod
    def user_ref(person: discord.abc.User, locale: discord.Locale | str | None = None) -> UserRef:
        """The person; ``locale``: their client's language (``interaction.locale``)."""
        return UserRef(PLATFORM, str(person.id), person.display_name, i18n.supported(locale))

    @staticmethod
    def chat_ref(interaction: discord.Interaction) -> ChatRef | None:
        if interaction.guild_id is None or interaction.channel_id is None:
            return None
        channel = interaction.channel
        if isinstance(channel, discord.Thread) and channel.parent_id:  # a thread: a place in its channel
            parent = channel.parent
            return ChatRef(PLATFORM, str(channel.parent_id), str(interaction.guild_id), getattr(parent, "name", None),
                           i18n.supported(interaction.guild_locale), str(channel.id))
        title = getattr(channel, "name", None)
        return ChatRef(PLATFORM, str(interaction.channel_id), str(interaction.guild_id), title,
                       i18n.supported(interaction.guild_locale))  # the server's preferred language

    def chat_ref_for(self, channel_id: int) -> ChatRef:
        channel = self.bot.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        return ChatRef(PLATFORM, str(channel_id), str(guild.id) if guild else None, getattr(channel, "name", None))

    @staticmethod
    def is_admin(interaction: discord.Interaction) -> bool:
        permissions = interaction.permissions
        return interaction.guild_id is not None and (permissions.manage_guild or permissions.administrator)

    # ------------------------------------------------------------------ incoming
    async def command(self, interaction: discord.Interaction, command_for: Callable[[ChatRef | None, UserRef], Command],
                      *, guild_only: bool = True, hand_here: bool = False) -> None:
        """A slash command: acknowledge at once (only the caller sees the 'thinking'), run, deliver."""
        self.busy += 1
        try:
            if not await self._acknowledge(interaction, ephemeral=True, thinking=True):
                return
            chat, user = self.chat_ref(interaction), self.user_ref(interaction.user, interaction.locale)
            if chat is None and guild_only:
                with i18n.using(user.locale):
                    text = _("Games are played in a server channel; use this command there. Here I send your "
                             "hands and move buttons (/hand, /move).")
                out = [Message(text, user=user, chat=None, kind="error")]
                await self.deliver(out, interaction, reply_all=True)
                return
            await self.threads.reopen(interaction.channel, chat)  # a finished game's thread, asked about again
            out = await self.service.handle(command_for(chat, user))
            await self.deliver(out, interaction, hand_here=hand_here and chat is not None)
        finally:
            self.busy -= 1

    async def on_press(self, interaction: discord.Interaction, data: str) -> None:
        await self._component(interaction, lambda chat, user: PressButton(user, chat, data, None,
                                                                          self.is_admin(interaction)),
                              hand_here=data.startswith("h:"))

    async def on_menu(self, interaction: discord.Interaction, data: str, values: list[str]) -> None:
        await self._component(interaction, lambda chat, user: PressButton(user, chat, data, tuple(values)))

    async def _component(self, interaction: discord.Interaction, command_for, hand_here: bool = False) -> None:
        self.busy += 1
        try:
            if not await self._acknowledge(interaction):  # the clicked message changes (or not) below
                return
            out = await self.service.handle(command_for(self.chat_ref(interaction),
                                                        self.user_ref(interaction.user, interaction.locale)))
            await self.deliver(out, interaction, hand_here=hand_here)
        finally:
            self.busy -= 1

    @staticmethod
    async def _acknowledge(interaction: discord.Interaction, **kwargs) -> bool:
        """Defer first, before any work. An interaction Discord no longer knows (10062: it came too late, the
        person already saw "did not respond") is not acted on."""
        try:
            await interaction.response.defer(**kwargs)
            return True
        except discord.NotFound as error:
            log.warning("an interaction expired before it was acknowledged: %s", error)
            return False

    async def on_unknown_component(self, interaction: discord.Interaction) -> None:
        """A component whose id is none of ours (forged, or from another bot's era): answer, change nothing."""
        self.busy += 1
        try:
            with i18n.using(i18n.supported(interaction.locale)):
                text = _("That button is not one of mine.")
            await interaction.response.send_message(to_markdown(text), ephemeral=True)
        finally:
            self.busy -= 1

    def saw_message(self, message: discord.Message) -> None:
        self.sending.saw_message(message)

    # ------------------------------------------------------------------ outgoing
    async def deliver(self, messages: list[Message], interaction: discord.Interaction | None = None, *,
                      hand_here: bool = False, reply_all: bool = False) -> None:
        """Send the service's messages; with ``interaction``, what is meant for its person answers it."""
        answered = False
        later: list[Message] = []
        for message in messages:
            if interaction is not None and self._answers(message, interaction, hand_here, reply_all):
                try:  # by the interaction's token, at once: only its person sees it
                    await self._answer(message, interaction)
                    answered = True
                except discord.HTTPException as error:
                    log.warning("could not answer with a %s message: %s", message.kind, error)
            else:
                later.append(message)
        self.delivery.submit(later)
        if interaction is not None and interaction.type == discord.InteractionType.application_command \
                and not answered:
            try:  # nothing to say to the caller: remove the "thinking…" placeholder
                await interaction.delete_original_response()
            except discord.HTTPException as error:
                log.warning("could not remove a deferred answer: %s", error)

    @staticmethod
    def _answers(message: Message, interaction: discord.Interaction, hand_here: bool, reply_all: bool) -> bool:
        if message.user is None or message.user.id != str(interaction.user.id):
            return False
        if reply_all or message.is_reply or message.kind == "error":
            return True
        if not message.is_private:
            return False
        clicked = interaction.message
        if clicked is not None and clicked.flags.ephemeral:
            return True  # a picker shown ephemerally goes on there
        return hand_here

    async def _answer(self, message: Message, interaction: discord.Interaction) -> None:
        await self.service.finish_one(message)  # answered at once, not through the delivery queues
        view = build_view(message)
        clicked = interaction.message
        answer = payload(message.text, times=message.times)
        if message.is_private and clicked is not None and clicked.flags.ephemeral and message.kind == "hand":
            await interaction.edit_original_response(**answer, view=view, attachments=files_of(message))
            self._keep_hand(message, interaction.followup, clicked.id)  # a fresher token for the same message
            return
        if message.kind == "confirm" and clicked is not None:  # a question answered: its buttons go with it
            await interaction.edit_original_response(**answer, view=view)
            return
        kwargs = {"ephemeral": True, "view": view} if view is not None else {"ephemeral": True}
        if message.image is not None:
            kwargs["files"] = files_of(message)
        if answer["embed"] is not None:
            kwargs["embed"] = answer["embed"]
        sent = await interaction.followup.send(answer["content"], wait=True, **kwargs)
        if message.is_private and message.kind == "hand":
            await self._replace_hand(message, interaction, sent.id)

    def _keep_hand(self, message: Message, webhook: discord.Webhook, message_id: int) -> None:
        key = (message.user.id, message.game_id)
        self.ephemeral_hands.pop(key, None)
        if len(self.ephemeral_hands) >= 10_000:  # the oldest first (a dict keeps its order)
            del self.ephemeral_hands[next(iter(self.ephemeral_hands))]
        self.ephemeral_hands[key] = (webhook, message_id)

    async def _replace_hand(self, message: Message, interaction: discord.Interaction, message_id: int) -> None:
        """A hand shown ephemerally anew: the previous one of the person's game goes while its interaction's
        token lasts; after that it cannot be removed, and the person is told so once."""
        key = (message.user.id, message.game_id)
        previous = self.ephemeral_hands.get(key)
        self._keep_hand(message, interaction.followup, message_id)
        if previous is None or previous[1] == message_id:
            return
        try:
            await previous[0].delete_message(previous[1])
        except discord.NotFound:
            pass  # the person dismissed it already
        except discord.HTTPException as error:  # its token ran out (15 minutes)
            log.info("could not remove an older ephemeral hand: %s", error)
            if key not in self.stale_told:
                self.stale_told.add(key)
                with i18n.using(i18n.supported(interaction.locale)):
                    note = _("Older copies of your hand above are out of date (I can no longer remove them): "
                             "use the newest.")
                await interaction.followup.send(to_markdown(note), ephemeral=True)


class HeraldBot(commands.Bot):
    """discord.py's Bot with the adapter attached; ``deliver`` sends service messages (timers use it)."""

    def __init__(self, service: Service, thread_grace: float = DEFAULT_GRACE, **kwargs):
        intents = discord.Intents.default()  # guilds, guild and DM messages (counted, never read)
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())  # only pings name people
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None, **kwargs)
        self.adapter = DiscordAdapter(service, self, thread_grace)
        self.deliver = self.adapter.deliver

    async def close(self) -> None:
        await self.adapter.close()
        await super().close()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(HeraldButton, HeraldMenu)
        await self.tree.set_translator(HeraldTranslator())
        try:
            await self.tree.sync()
        except discord.HTTPException as error:
            log.warning("could not sync the slash commands: %s", error)

    async def on_message(self, message: discord.Message) -> None:
        self.adapter.saw_message(message)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type != discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        ours = custom_id.startswith((BUTTON_PREFIX, MENU_PREFIX)) and len(custom_id) <= 100
        if not ours or not _shown_on(interaction.message, custom_id):
            # no dynamic item will pick this up (discord.py only routes ids present on the message): answer here
            await self.adapter.on_unknown_component(interaction)


def _shown_on(message: discord.Message | None, custom_id: str) -> bool:
    if message is None:
        return False
    for row in message.components:
        for item in getattr(row, "children", [row]):
            if getattr(item, "custom_id", None) == custom_id:
                return True
    return False


class HeraldShardedBot(HeraldBot, commands.AutoShardedBot):
    """The same bot over several gateway shards (discord.py's ``AutoShardedBot``): each process of a sharded
    deployment connects its own shards and so serves its share of the servers."""


def build_discord_bot(service: Service, *, shard_count: int | None = None, shard_ids: list[int] | None = None,
                      **kwargs) -> HeraldBot:
    """The discord.py Bot, not logged in: ``await bot.start(token)`` runs it. With ``shard_count`` it connects
    the shards ``shard_ids`` (all of them when None) of that many."""
    if shard_count is not None:
        bot = HeraldShardedBot(service, shard_count=shard_count, shard_ids=shard_ids, **kwargs)
    else:
        bot = HeraldBot(service, **kwargs)
    register_commands(bot)
    return bot
