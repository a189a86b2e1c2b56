"""Chat-level commands (games of a chat, rules, help, settings) and the adapters' bookkeeping: private chats
opened or closed, message ids of slots, a chat that changed its id."""
from __future__ import annotations

import rules
from storage.models import MessageSlot
from bot.service import lifecycle, views
from bot import i18n
from bot.i18n import _
from bot.service.chat_settings import PERSONAL, describe_mine, describe_settings, effective, parse_settings
from bot.service.errors import ServiceError, answers_errors, clean
from bot.service.messages import ChatRef, Message, UserRef
from bot.service.texts import HELP_TEXT, game_list_text


class ChatCommands:
    @answers_errors
    async def games(self, chat: ChatRef, user: UserRef | None = None) -> list[Message]:
        async with self._uow(readonly=True) as uow:
            chat_row = await uow.chats.find(chat.platform, chat.id)
            rows = await uow.games.in_chat(chat_row.id, (lifecycle.LOBBY, lifecycle.ACTIVE)) if chat_row else []
            finished = await uow.games.recent_finished([chat_row.id], 3) if chat_row else []
            if not rows:
                text = "No game is open here. Open one with /new <game>:\n" + game_list_text()
                if finished:
                    text = (f"No game is open here; {len(finished)} finished recently (/history). "
                            "Open one with /new <game>:\n" + game_list_text())
                return [Message(text, chat=chat, user=user)]
            lines = ["Games in this chat:"]
            for row in rows:
                game = rules.get_game(row.game)
                if row.status == lifecycle.LOBBY:
                    lines.append(f"#{row.id} {game.title} — lobby, {len(row.seats)}/{game.max_players} seated")
                else:
                    live = await self.fresh_live(uow, row.id)
                    lines.append(f"#{row.id} {game.title} — playing; to act: " + views.waiting(live, live.state))
            return [Message("\n".join(lines), chat=chat, user=user)]

    @answers_errors
    async def rules_text(self, chat: ChatRef | None, game_name: str = "", user: UserRef | None = None) -> list[Message]:
        if not game_name.strip():
            return [Message("Which game? /rules <game>:\n" + game_list_text(), chat=chat, user=user)]
        game = rules.get_game(clean(game_name, 40).strip())
        return [Message(f"📜 {game.title}\n\n{game.rules_summary()}", chat=chat, user=user)]

    def help(self, chat: ChatRef | None = None, user: UserRef | None = None) -> list[Message]:
        return [Message(HELP_TEXT + "\n\nGames:\n" + game_list_text(), chat=chat, user=user)]

    @answers_errors
    async def settings(self, chat: ChatRef | None, user: UserRef, text: str = "",
                       is_admin: bool = False) -> list[Message]:
        """Show or change the chat's settings (admins), and the asker's own ``mylanguage`` (anyone, anywhere;
        in a private chat it is the only setting)."""
        text = clean(text)
        changes = parse_settings(text) if text.strip() else {}
        mine = changes.pop(PERSONAL, None)
        async with self._uow() as uow:
            player = await uow.players.get_or_create(user.platform, user.id, user.name, user.locale)
            if mine is not None:
                player.language = mine
            chosen = player.language
            if mine is not None:  # the games in memory send their private texts in it from now on
                for live in self._live_games.values():
                    seat = live.seat_of(user)
                    if seat is not None:
                        seat.language = mine
            if chat is None:
                if changes:
                    raise ServiceError(_("Only /settings mylanguage=… can be changed here; a chat's settings are "
                                         "changed in that chat."))
                await uow.commit()
                self.languages.forget(user=user)
                with i18n.using(chosen):
                    return [Message((_("✅ Settings saved.") + "\n" if mine else "") + describe_mine(chosen),
                                    user=user)]
            chat_row = await self._chat_row(uow, chat)
            current = effective(chat_row.settings)
            if changes and not is_admin:
                raise ServiceError(_("Only admins of this server/group can change settings."))
            if not changes:
                await uow.commit()
                self.languages.forget(user=user)
                with i18n.using(chosen):
                    return [Message((_("✅ Settings saved.") + "\n" if mine else "") +
                                    describe_settings(current, chosen), chat=chat, user=user)]
            chat_row.settings = {**effective(chat_row.settings), **changes}
            if changes.get("turn_timer") == 0:  # deadlines already set go too
                for row in await uow.games.in_chat(chat_row.id, (lifecycle.ACTIVE,)):
                    await uow.timers.clear(row.id)
            await uow.commit()
            self.languages.forget(user=user, chat=chat)
            for live in self._live_games.values():
                if live.chat_db_id == chat_row.id:
                    live.settings = effective(chat_row.settings)
                    if changes.get("turn_timer") == 0:
                        live.timer_seats.clear()
            with i18n.using(chosen or (changes.get("language") if not user.locale else None)):
                return [Message(_("✅ Settings saved.") + "\n" + describe_settings({**current, **changes}, chosen),
                                chat=chat, user=user)]

    async def chat_settings(self, chat: ChatRef) -> dict:
        async with self._uow(readonly=True) as uow:
            row = await uow.chats.find(chat.platform, chat.id)
            return effective(row.settings if row else None)

    # ------------------------------------------------------------------ adapter bookkeeping
    async def dm_opened(self, user: UserRef) -> list[Message]:
        """The person can now receive private messages (Telegram: they pressed Start in the private chat): their
        lobbies show it, and the hands of their running games are sent now."""
        async with self._uow() as uow:
            player = await uow.players.get_or_create(user.platform, clean(user.id, 64), clean(user.name, 100))
            player.dm_ok = True
            out = []
            for row in await uow.games.of_player(player.id, (lifecycle.LOBBY,)):
                out.append(await self.lobby_message(uow, row, note=f"{player.name} can now get private messages."))
            await uow.commit()
            for row in await uow.games.of_player(player.id, (lifecycle.ACTIVE,)):
                live = await self.fresh_live(uow, row.id)
                seat = live.seat_of(user) if live else None
                if seat is not None:
                    message = views.private_message(live, seat, live.state, live.version, [], self.pictures)
                    message.fresh = True
                    out.append(message)
        return await self.finish_messages(out)

    async def dm_failed(self, user: UserRef, game_id: int | None) -> list[Message]:
        """A private message could not be delivered: tell the game's chat, once per person and game."""
        async with self._uow() as uow:
            player = await uow.players.find(user.platform, user.id)
            if player is None:
                return []
            player.dm_ok = False
            for live in self._live_games.values():
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
            uow.session.add(MessageSlot(platform=user.platform, slot=marker, chat_external_id="", message_id="-"))
            chat_ref = self.chat_ref(await uow.chats.get(row.chat_id))
            out = [Message(f"⚠ I cannot send private messages to {user.name}. " + _dm_remedy(user.platform),
                           chat=chat_ref, game_id=row.id, kind="dm_failed", mentions=[user])]
            await uow.outbox.add(self.outbox_rows(out))
            try:
                await uow.commit()
            except Exception:  # another process told the chat at the same moment
                return []
        return out

    async def dm_delivered(self, user: UserRef) -> None:
        async with self._uow(readonly=True) as uow:
            player = await uow.players.find(user.platform, user.id)
            if player is None or player.dm_ok is True:
                return
        async with self._uow() as uow:
            player = await uow.players.find(user.platform, user.id)
            if player is not None and player.dm_ok is not True:
                player.dm_ok = True
                await uow.commit()

    async def remember_message(self, platform: str, slot: str, chat_id: str, message_id: str) -> None:
        async with self._uow() as uow:
            await uow.slots.put(platform, slot, chat_id, message_id)
            await uow.commit()

    async def message_for_slot(self, platform: str, slot: str) -> tuple[str, str] | None:
        async with self._uow(readonly=True) as uow:
            row = await uow.slots.get(platform, slot)
            return (row.chat_external_id, row.message_id) if row else None

    async def migrate_chat(self, platform: str, old_id: str, new_id: str) -> None:
        """A chat changed its id (Telegram group → supergroup): its games, league, ratings and history move."""
        async with self._uow() as uow:
            chat = await uow.chats.find(platform, old_id)
            if chat is not None and await uow.chats.find(platform, new_id) is None:
                await uow.chats.move(chat, new_id)
                await uow.commit()
        for live in list(self._live_games.values()):
            if live.chat.platform == platform and live.chat.id == old_id:
                self.forget(live.id)

    async def games_of(self, user: UserRef, statuses: tuple[str, ...] = ("active",)) -> list[int]:
        """Ids of the person's games in ``statuses``, oldest first."""
        async with self._uow(readonly=True) as uow:
            player = await uow.players.find(user.platform, user.id)
            return [g.id for g in await uow.games.of_player(player.id, statuses)] if player else []

    async def active_game_ids(self) -> list[int]:
        async with self._uow(readonly=True) as uow:
            return [g.id for g in await uow.games.with_status(("active",))]

    async def resume(self) -> int:
        """Load every active game (checks its snapshot) so the first move after a restart is fast."""
        count = 0
        async with self._uow(readonly=True) as uow:
            for row in await uow.games.with_status(("active",)):
                await self._live(uow, row.id)
                count += 1
        return count


def _dm_remedy(platform: str) -> str:
    if platform == "telegram":
        return "Please open a private chat with me and press Start (the button on the table); meanwhile nothing " \
               "of your hand can reach you."
    return "Please allow direct messages from server members (or start a private chat with me); meanwhile use " \
           "/hand or the “My hand” button here."
