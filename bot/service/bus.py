"""The bus: every command a person gives passes here once, and only here are its errors, floods and language
handled — each handler just does its job and raises ``ServiceError`` to refuse.

- References are made safe first (names cut to what the database holds, NUL removed): a strange name is
  stored whole, never refused with a database error.
- A person who floods a chat gets one "slow down" and then silence (``FloodGuard``), and changes nothing.
- The handler runs in the asker's language (their replies and refusals); it scopes public and others'
  private texts to their own languages itself.
- A refusal becomes one reply to the asker; storage that cannot store says why (disk full, read-only, file
  gone); a move whose write waits behind a frozen process is answered "still pending" (the group commit says so,
  ``StillWaiting``, after ``ctx.pending_after`` seconds; the write is stored when it can); anything unexpected
  is logged and answered "something went wrong": never a traceback in a chat.
"""
from __future__ import annotations

import dataclasses
import logging
from typing import Awaitable, Callable

from rules.api import IllegalAction
from storage import StaleVersion, StorageUnavailable, health
from storage.group_commit import StillWaiting
from bot import i18n
from bot.i18n import _
from bot.service import buttons, commands as c
from bot.service.context import Context
from bot.service.errors import ServiceError, safe_chat, safe_user, unavailable_text
from bot.service.handlers import (away, chat, hints, leagues, lobby, looking, mine, moves, notify, people, places,
                                 records, resign, settings, undo, web)
from bot.service.messages import Message

log = logging.getLogger("bot.service")

Handler = Callable[[Context, c.Command], Awaitable[list]]

HANDLERS: dict[type, Handler] = {
    c.CreateLobby: lobby.create_lobby, c.Join: lobby.join, c.Leave: lobby.leave, c.AddAI: lobby.add_ai,
    c.Start: lobby.start, c.Abort: lobby.abort,
    c.MakeMove: moves.make_move, c.PressPicker: moves.press_picker,
    c.ShowHand: looking.show_hand, c.ShowBoard: looking.show_board, c.ListChoices: looking.list_choices,
    c.ShowLog: looking.show_log,
    c.Hint: hints.hint,
    c.Resign: resign.resign, c.ConfirmResign: resign.confirm, c.CancelResign: resign.cancel,
    c.TakeBack: undo.undo, c.AnswerTakeback: undo.answer,
    c.ShowGames: chat.show_games, c.ShowRules: chat.show_rules, c.ShowHelp: chat.show_help,
    c.ShowMyGames: mine.show_my_games,
    c.ChangeSettings: settings.change_settings,
    c.ShowLeaderboard: leagues.show_leaderboard, c.ShowStats: leagues.show_stats,
    c.ShowHistory: leagues.show_history, c.NewSeason: leagues.new_season, c.ShowWeb: web.show_web,
    c.PrivateChatOpened: people.private_chat_opened, c.PrivateChatFailed: people.private_chat_failed,
    c.PrivateChatDelivered: people.private_chat_delivered, c.ChatMoved: people.chat_moved,
    c.SendRecord: records.send_record, c.ShowReplay: records.show_replay,
    c.GoAway: away.go_away, c.ComeBack: away.come_back, c.ChangeNotify: notify.change_notify,
    c.PlaceOpened: places.place_opened, c.PlaceLost: places.place_lost, c.ClosePlaceLater: places.close_later,
}
# bookkeeping the adapters report: no person typed it, so no flood guard and no reply on failure
UNGUARDED = (c.PrivateChatOpened, c.PrivateChatFailed, c.PrivateChatDelivered, c.ChatMoved, c.PlaceOpened,
             c.PlaceLost, c.ClosePlaceLater)


def made_safe(command: c.Command) -> c.Command:
    return dataclasses.replace(command, user=safe_user(command.user), chat=safe_chat(command.chat))


async def handle(ctx: Context, command: c.Command) -> list[Message]:
    """Run the command's handler and return what it makes the bot say (or its one friendly refusal)."""
    command = made_safe(command)
    if isinstance(command, UNGUARDED):
        return await HANDLERS[type(command)](ctx, command)
    user, chat = command.user, command.chat
    verdict = ctx.flood.allow(chat, user) if ctx.flood is not None and user is not None else True
    if verdict is None:
        return []
    lang = await ctx.languages.of_asker(ctx, user, chat)
    with i18n.using(lang):
        if verdict is False:
            return [refusal(command, _("🐢 Slow down a little, {name} — I will answer again in a few seconds. "
                                       "Nothing was changed.", name=user.name))]
        try:
            if isinstance(command, c.PressButton):
                command = buttons.parse(command)
            return await HANDLERS[type(command)](ctx, command)
        except (ServiceError, IllegalAction) as error:
            said = refusal(command, str(error))
            said.conceal = getattr(error, "conceal", False)  # a secret typed where the table reads it
            return [said]
        except StaleVersion:
            return [refusal(command, _("Someone else moved at the same moment; please try again."))]
        except StillWaiting:
            return [refusal(command, _("⏳ The database is slow to answer (another bot process holds it); your move "
                                       "is still pending and the table will be told once it is stored."), "notice")]
        except StorageUnavailable as error:  # its cause is logged by storage, once a minute
            return [refusal(command, unavailable_text(error))]
        except Exception as error:
            found = health.unavailable(error)  # a driver's error the storage layer did not translate
            if found is not None:
                return [refusal(command, unavailable_text(found))]
            log.exception("service error in %s", type(command).__name__)
            return [refusal(command, _("Sorry, something went wrong on my side. Nothing was changed."))]


def refusal(command: c.Command, text: str, kind: str = "error") -> Message:
    """The one reply to a refused command: to the asker, where they asked."""
    return Message(text=text, chat=command.chat, user=command.user, kind=kind)
