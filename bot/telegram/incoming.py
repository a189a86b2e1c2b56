"""Telegram's words → the service's commands: a typed ``/command`` with its arguments, in a group or in the
private chat; and how a refusal that missed its toast is said instead."""
from __future__ import annotations

from bot.service import ChatRef, Message, UserRef
from bot.service import commands as c

YES = ("yes", "y", "confirm")  # /resign yes: no question asked
ADMIN_COMMANDS = frozenset({"abort", "settings", "newseason"})  # the group's admins may do more here
PRIVATE = frozenset({"hand", "move", "rules", "settings", "hint", "help", "log", "mygames", "record",
                     "replay", "away", "back", "notify"})  # what the private chat takes


def command_of(name: str, args: list[str], user: UserRef, chat: ChatRef | None, admin: bool) -> c.Command | None:
    """The command ``/name args`` stands for (``chat`` None: the private chat, where only ``PRIVATE`` commands
    work: None for any other)."""
    text = " ".join(args)
    number = int(args[0].lstrip("#")) if args and args[0].lstrip("#").isdigit() else None
    if chat is None and name not in PRIVATE:
        return None
    if name == "new":
        return c.CreateLobby(user, chat, args[0] if args else "", " ".join(args[1:]))
    if name in ("join", "leave", "start", "hand", "hint", "board"):
        kind = {"join": c.Join, "leave": c.Leave, "start": c.Start, "hand": c.ShowHand, "hint": c.Hint,
                "board": c.ShowBoard}[name]
        return kind(user, chat, number)
    if name == "addai":
        level = next((a for a in args if not a.isdigit()), "greedy")
        return c.AddAI(user, chat, level, next((int(a) for a in args if a.isdigit()), None))
    if name == "move":
        return c.MakeMove(user, chat, text)
    if name == "undo":
        return c.TakeBack(user, chat, number)
    if name == "resign":
        return c.Resign(user, chat, number, confirmed=any(a.lower() in YES for a in args))
    if name == "abort":
        return c.Abort(user, chat, number, admin)
    if name == "settings":
        return c.ChangeSettings(user, chat, text, admin)
    if name == "newseason":
        return c.NewSeason(user, chat, text, admin)
    if name == "record":
        return c.SendRecord(user, chat, number)
    if name == "replay":
        return c.ShowReplay(user, chat, None, text)
    kinds = {"log": c.ShowLog, "rules": c.ShowRules, "leaderboard": c.ShowLeaderboard, "stats": c.ShowStats,
             "history": c.ShowHistory, "web": c.ShowWeb, "help": c.ShowHelp}
    if name == "games":
        return c.ShowGames(user, chat)
    if name == "mygames":
        return c.ShowMyGames(user, chat)
    if name == "away":
        return c.GoAway(user, chat, text)
    if name == "back":
        return c.ComeBack(user, chat)
    if name == "notify":
        return c.ChangeNotify(user, chat, text)
    return kinds.get(name, c.ShowHelp)(user, chat, text)


def late_refusal(refusal: Message, user: UserRef, chat: ChatRef | None) -> Message:
    """A button's refusal that came after the press was answered cannot be its toast: it is said where the button
    was — in a group, naming the person it is for."""
    if chat is None:
        return Message(refusal.text, user=user, kind="error", game_id=refusal.game_id)
    return Message(f"{user.name}: {refusal.text}", chat=chat, user=user, kind="error", game_id=refusal.game_id)
