"""What the adapters report about people's private chats, and a chat that changed its id.

A private chat opened (Telegram: the person pressed Start) shows in their lobbies and brings the hands of their
running games; one that failed is said once in the game's chat, with the way to open it; one that worked is
remembered. A Telegram group upgraded to a supergroup keeps its games, league and history.
"""
from __future__ import annotations

from bot import i18n
from bot.i18n import L, _
from bot.service import commands as c, lifecycle, places, telling
from bot.service.context import Context
from bot.service.errors import clean
from bot.service.handlers.lobby import lobby_message
from bot.service.languages import chat_language
from bot.service.messages import Message
from bot.service.outbox import outbox_rows


async def private_chat_opened(ctx: Context, command: c.PrivateChatOpened) -> list[Message]:
    """The person's lobbies show that they can get private messages now, and the hands of their running games
    are sent at once."""
    user = command.user
    async with ctx.uow() as uow:
        player = await uow.players.get_or_create(user.platform, clean(user.id, 64), clean(user.name, 100))
        player.dm_ok = True
        out = []
        for row in await uow.games.of_player(player.id, (lifecycle.LOBBY,)):
            note = L("{name} can now get private messages.", name=player.name)
            out.append(await lobby_message(ctx, uow, row, note=note))
        running = await uow.games.of_player(player.id, (lifecycle.ACTIVE,))
        for row in running:  # a later failure is told again
            await uow.slots.drop(user.platform, f"dm-failed:{row.id}:{user.id}")
        await uow.commit()
        _reached(ctx, user)
        for row in running:
            live = await ctx.games.fresh(uow, row.id)
            seat = live.seat_of(user) if live else None
            if seat is not None:
                message = telling.private_message(live, seat, live.state, live.version, ctx.pictures)
                message.fresh = True
                out.append(message)
    return out


async def private_chat_failed(ctx: Context, command: c.PrivateChatFailed) -> list[Message]:
    """A private message could not be delivered: tell the game's chat, once per person and game."""
    user, game_id = command.user, command.game_id
    async with ctx.uow() as uow:
        player = await uow.players.find(user.platform, user.id)
        if player is None and game_id is None:
            return []
        if player is None:  # a person who plays nothing asked for a game's record: remembered, so a second ask
            player = await uow.players.get_or_create(user.platform, user.id, user.name)  # is answered at once
        player.dm_ok = False
        for live in ctx.games.all():
            seat = live.seat_of(user)
            if seat is not None:
                seat.dm_ok = False
        row = await uow.games.get(game_id) if game_id is not None else None
        if row is None:
            await uow.commit()
            return []
        marker = f"dm-failed:{row.id}:{user.id}"
        if await uow.slots.get(user.platform, marker) is not None:
            await uow.commit()
            return []
        await uow.slots.mark(user.platform, marker)
        stored = await uow.chats.get(row.chat_id)
        with i18n.using(chat_language(stored.settings)):
            text = _("⚠ I cannot send private messages to {name}.", name=user.name) + " " + \
                remedy(ctx, user.platform, user.name, playing=any(s.player_id == player.id for s in row.seats))
        # where a bot cannot write first, the chat's message carries the way to open the private chat (the
        # adapter adds its button) and pings the person; elsewhere it names them
        opens = user.platform in ctx.dm_required
        where = await places.game_chat(uow, stored, row.id)  # a running game's own place, when it has one
        out = [Message(text, chat=where, game_id=row.id, kind="dm_needed" if opens else "dm_failed",
                       ping=opens, mentions=[user])]
        await uow.outbox.add(outbox_rows(ctx, out))
        try:
            await uow.commit()
        except Exception:  # another process told the chat at the same moment
            return []
    return out


async def private_chat_delivered(ctx: Context, command: c.PrivateChatDelivered) -> list[Message]:
    user = command.user
    async with ctx.uow(readonly=True) as uow:
        player = await uow.players.find(user.platform, user.id)
        if player is None or player.dm_ok is True:
            return []
    async with ctx.uow() as uow:
        player = await uow.players.find(user.platform, user.id)
        if player is not None and player.dm_ok is not True:
            player.dm_ok = True
            await uow.commit()
            _reached(ctx, user)
    return []


def _reached(ctx: Context, user) -> None:
    """The person's private chat works: the games in memory stop mentioning them in their turn lines."""
    for live in ctx.games.all():
        seat = live.seat_of(user)
        if seat is not None:
            seat.dm_ok = True


async def chat_moved(ctx: Context, command: c.ChatMoved) -> list[Message]:
    """A chat changed its id (Telegram group → supergroup): its games, league, ratings and history move."""
    async with ctx.uow() as uow:
        chat = await uow.chats.find(command.platform, command.old_id)
        if chat is not None and await uow.chats.find(command.platform, command.new_id) is None:
            await uow.chats.move(chat, command.new_id)
            await uow.commit()
    for live in ctx.games.all():
        if live.chat.platform == command.platform and live.chat.id == command.old_id:
            ctx.games.forget(live.id)
    return []


async def games_of(ctx: Context, user, statuses: tuple[str, ...] = ("active",)) -> list[int]:
    """Ids of the person's games in ``statuses``, oldest first."""
    async with ctx.uow(readonly=True) as uow:
        player = await uow.players.find(user.platform, user.id)
        return [g.id for g in await uow.games.of_player(player.id, statuses)] if player else []


def remedy(ctx: Context, platform: str, name: str = "", playing: bool = True) -> str:
    """How a person opens their private chat with the bot, in the platform's terms (the language current now);
    ``playing``: they have a hand in the game (else they asked for something else of it: its record)."""
    if not playing:
        if platform in ctx.dm_required:
            return _("The private chat with me is not open, or I was blocked. {name}, open it with the button "
                     "below and press Start (unblock me first if you blocked me), then ask again.", name=name)
        return _("Please allow direct messages from server members (or start a private chat with me), then ask "
                 "again.")
    if platform in ctx.dm_required:  # a bot that cannot write first: the adapter adds the button that opens it
        return _("The private chat with me is not open, or I was blocked. {name}, open it with the button below and "
                 "press Start (unblock me first if you blocked me) — your hand comes right after.", name=name)
    return _("Please allow direct messages from server members (or start a private chat with me); meanwhile use "
             "/hand or the “My hand” button here.")
