"""Chat-level commands (games of a chat, rules, help, settings) and the adapters' bookkeeping: private chats
opened or closed, message ids of slots, a chat that changed its id."""
from __future__ import annotations

import re

import rules
from rules.api import Event
from storage.models import MessageSlot
from bot import i18n
from bot.i18n import L, _, ngettext
from bot.service import lifecycle, narration, views
from bot.service.languages import chat_language
from bot.service.live import load_live
from bot.service.chat_settings import PERSONAL, describe_mine, describe_settings, effective, parse_settings
from bot.service.errors import ServiceError, answers_errors, clean
from bot.service.messages import ChatRef, Message, UserRef
from bot.service.texts import game_list_text, help_text

LOG_PAGE = 15  # /log without a number: the last lines that fit a phone screen
LOG_MOST = 200
LOG_CHARS = 1900  # within a Discord message (2000) and a Telegram one (4096)
_LOG_ARGS = re.compile(r"^\s*(?:#(?P<game>\d{1,10})\s*)?(?P<n>\d{1,6})?\s*(?:#(?P<game2>\d{1,10}))?\s*$")


class ChatCommands:
    @answers_errors
    async def games(self, chat: ChatRef, user: UserRef | None = None) -> list[Message]:
        async with self._uow(readonly=True) as uow:
            chat_row = await uow.chats.find(chat.platform, chat.id)
            rows = await uow.games.in_chat(chat_row.id, (lifecycle.LOBBY, lifecycle.ACTIVE)) if chat_row else []
            finished = await uow.games.recent_finished([chat_row.id], 3) if chat_row else []
            if not rows:
                text = _("No game is open here. Open one with /new <game>:") + "\n" + game_list_text()
                if finished:
                    text = ngettext("No game is open here; {n} finished recently (/history). Open one with "
                                    "/new <game>:", "No game is open here; {n} finished recently (/history). "
                                    "Open one with /new <game>:", len(finished)) + "\n" + game_list_text()
                return [Message(text, chat=chat, user=user)]
            lines = [_("Games in this chat:")]
            for row in rows:
                game = rules.get_game(row.game)
                if row.status == lifecycle.LOBBY:
                    lines.append(_("#{id} {game} — lobby, {seated}/{most} seated", id=row.id, game=game.title,
                                   seated=len(row.seats), most=game.max_players))
                else:
                    live = await self.fresh_live(uow, row.id)
                    lines.append(_("#{id} {game} — playing; to act: {names}", id=row.id, game=game.title,
                                   names=views.waiting(live, live.state)))
            return [Message("\n".join(lines), chat=chat, user=user)]

    @answers_errors
    async def rules_text(self, chat: ChatRef | None, game_name: str = "", user: UserRef | None = None) -> list[Message]:
        if not game_name.strip():
            return [Message(_("Which game? /rules <game>:") + "\n" + game_list_text(), chat=chat, user=user)]
        game = rules.get_game(clean(game_name, 40).strip())
        return [Message(f"📜 {game.title}\n\n{game.rules_summary()}", chat=chat, user=user)]

    @answers_errors
    async def help(self, chat: ChatRef | None = None, user: UserRef | None = None, text: str = "") -> list[Message]:
        """``/help``: how Herald works and the games; ``/help <game>``: that game's own help (``help_text``); in a
        chat (or, privately, for a person) with one running game, that game's help follows the general text."""
        name = clean(text or "", 40).strip().lstrip("#")
        if name and not name.isdigit():
            game = rules.get_game(name)
            return [Message(f"❓ {game.title}\n\n{game.help_text()}\n\n" + _("The full rules: /rules {name}",
                                                                              name=game.name),
                            chat=chat, user=user)]
        general = help_text() + "\n\n" + _("Games (/help <game> for one):") + "\n" + game_list_text()
        async with self._uow(readonly=True) as uow:
            running = await self._candidates(uow, chat, user, (lifecycle.ACTIVE,))
            if name.isdigit():
                running = [g for g in running if g.id == int(name)]
            elif len(running) > 1 and user is not None:
                running = [g for g in running if self._seat_of(g, user) is not None] or running
        if len(running) == 1:
            game = rules.get_game(running[0].game)
            return [Message(_("❓ Game #{id} — {game}", id=running[0].id, game=game.title) +
                            f"\n\n{game.help_text()}\n\n" + help_text(), chat=chat, user=user)]
        return [Message(general, chat=chat, user=user)]

    @answers_errors
    async def log(self, chat: ChatRef | None, user: UserRef, text: str = "", game_id: int | None = None
                  ) -> list[Message]:
        """``/log [n] [#game]``: the last ``n`` lines of the game's whole public log, narrated, as an answer to the
        asker; and, to the asker alone (their private chat), what only their seat saw in that stretch."""
        found = _LOG_ARGS.match(clean(text or "", 40))
        if not found:
            raise ServiceError(_("Use /log [number of lines] [#game], e.g. /log 30 or /log 30 #12."))
        count = min(max(int(found.group("n") or LOG_PAGE), 1), LOG_MOST)
        game_id = game_id if game_id is not None else (found.group("game") or found.group("game2"))
        async with self._uow(readonly=True) as uow:
            if game_id is None:  # the running game here (the asker's among several), else the last one finished
                running = await self._candidates(uow, chat, user, (lifecycle.ACTIVE,))
                if len(running) > 1 and user is not None:
                    running = [g for g in running if self._seat_of(g, user) is not None] or running
                if len(running) == 1:
                    game_id = running[0].id
                elif not running:
                    finished = await self._candidates(uow, chat, user, (lifecycle.FINISHED,))
                    game_id = max((g.id for g in finished), default=None)
            row = await self.find_game(uow, chat, user, game_id, "log")
            await self.permitted(uow, "log", row, user, chat)
            chat_row = await uow.chats.get(row.chat_id)
            live = load_live(row, chat_row, self.chat_ref(chat_row), 0, [], set())
            moves = await uow.games.moves(row.id)
            seat = self._seat_of(row, user) if user is not None else None
        game, names = live.game, live.names
        entries = [(m.seq, Event.from_json(e)) for m in moves for e in m.events]
        public = narration.narrate(game, entries, None, names)
        shown, skipped = _page(public, count)
        if skipped:
            head = _("📜 #{id} {game} — the log, the last {shown} of {total}", id=row.id, game=game.title,
                     shown=_lines(len(shown)), total=len(public)) + \
                _(" (/log {n} for more)", n=min(len(public), LOG_MOST))
        else:
            head = _("📜 #{id} {game} — the log, {lines}", id=row.id, game=game.title, lines=_lines(len(public)))
        body = "\n".join("· " + line for line in shown) if shown else _("Nothing has happened yet.")
        out = [Message(head + "\n" + body, chat=chat, user=user, game_id=row.id, kind="log")]
        if seat is not None and seat.seat is not None:
            lines = narration.narrate_lines(game, entries, seat.seat, names)
            private = [line.text for line in lines if any(entries[k][1].audience is not None for k in line.events)]
            mine, cut = _page(private, count)
            if mine:
                title = ngettext("🔒 #{id} {game} — what only you saw (the last {n}):",
                                 "🔒 #{id} {game} — what only you saw (the last {n}):", len(mine), id=row.id,
                                 game=game.title) if cut else \
                    _("🔒 #{id} {game} — what only you saw:", id=row.id, game=game.title)
                out.append(Message(title + "\n" + "\n".join("· " + line for line in mine), user=user,
                                   game_id=row.id, kind="log"))
        return out

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
                    await uow.timers.clear(row.id, kinds=("remind", "autoplay"))  # AI jobs stay
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
                note = L("{name} can now get private messages.", name=player.name)
                out.append(await self.lobby_message(uow, row, note=note))
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
            chat_row = await uow.chats.get(row.chat_id)
            chat_ref = self.chat_ref(chat_row)
            with i18n.using(chat_language(chat_row.settings)):
                text = _("⚠ I cannot send private messages to {name}.", name=user.name) + " " + \
                    _dm_remedy(user.platform, user.name)
            out = [Message(text,
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


def _dm_remedy(platform: str, name: str = "") -> str:
    if platform == "telegram":  # Telegram's own terms: the adapter adds the button that opens the private chat
        return _("The private chat with me is not open, or I was blocked. {name}, open it with the button below and "
                 "press Start (unblock me first if you blocked me) — your hand comes right after.", name=name)
    return _("Please allow direct messages from server members (or start a private chat with me); meanwhile use "
             "/hand or the “My hand” button here.")


def _lines(n: int) -> str:
    return ngettext("{n} line", "{n} lines", n)


def _page(lines: list[str], count: int) -> tuple[list[str], bool]:
    """The last ``count`` lines that fit one message; whether older ones were left out."""
    shown, size = [], 0
    for line in reversed(lines[-count:]):
        size += len(line) + 3
        if size > LOG_CHARS and shown:
            break
        shown.append(line if len(line) <= LOG_CHARS else line[:LOG_CHARS - 1] + "…")
    shown.reverse()
    return shown, len(shown) < len(lines)
