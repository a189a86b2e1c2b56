"""The console adapter: prints what the channel would see and, marked apart, what only you would see.

It translates like the chat adapters do: every move goes through the service and is
stored, so ``--resume`` continues a game after the terminal closed.
"""
from __future__ import annotations

import asyncio
import sys

from bot.service import ChatRef, Message, Service, UserRef, build_service
from storage import DatabaseUnavailable

CHAT = ChatRef("console", "local", "local", "console")
YOU = UserRef("console", "you", "You")
MENU_LIMIT = 60

HELP = """Type the number of a move from the menu, or a move in the game's notation.
Other commands: board, hand, rules, resign, quit, help."""


def _plain(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if line.strip() != "```")


class Console:
    def __init__(self, service: Service, out=sys.stdout, inp=sys.stdin):
        self.service = service
        self.out = out
        self.inp = inp
        self.game_id: int | None = None
        self.over = False

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def show(self, messages: list[Message]) -> None:
        for m in messages:
            if m.game_id is not None and self.game_id is None:
                self.game_id = m.game_id
            if m.kind == "result" and m.chat is not None:
                self.over = True
            if m.is_private:
                self.say("┌─ 🔒 only you see this " + "─" * 30)
                for line in _plain(m.text).splitlines():
                    self.say("│ " + line)
                self.say("└" + "─" * 54)
            elif m.is_reply:
                self.say(("⚠ " if m.kind == "error" else "") + _plain(m.text))
            else:
                self.say("📢 " + _plain(m.text))
            self.say()

    async def read(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = await asyncio.to_thread(self.inp.readline)
        return None if line == "" else line.strip()

    async def new_game(self, game: str, players: int | None, seed: int | None, options: str) -> bool:
        import rules

        try:
            g = rules.get_game(game)
        except ValueError as e:
            self.say(str(e))
            return False
        n = players or g.min_players
        if not g.min_players <= n <= g.max_players:
            self.say(f"{g.title} is for {g.min_players}–{g.max_players} players.")
            return False
        messages = await self.service.create_lobby(CHAT, YOU, game, options, seed=seed)
        if messages[0].kind == "error":
            self.show(messages)
            return False
        self.game_id = messages[0].game_id
        for _ in range(n - 1):
            await self.service.add_ai(CHAT, YOU, "greedy", game_id=self.game_id)
        started = await self.service.start(CHAT, YOU, game_id=self.game_id)
        self.show(started)
        return not any(m.kind == "error" for m in started)

    async def resume(self, game_id: int | None) -> bool:
        ids = await self.service.games_of(YOU)
        if game_id is None and ids:
            game_id = ids[-1]
        if game_id is None or game_id not in ids:
            self.say("No game of yours to resume here. Start one with: python -m bot play <game>")
            return False
        self.game_id = game_id
        self.say(f"Resuming game #{game_id}.")
        self.show(await self.service.show_board(CHAT, game_id=game_id))
        self.show(await self.service.show_private(YOU, game_id=game_id))
        return True

    async def loop(self) -> None:
        while not self.over:
            choices = await self.service.choices(YOU, game_id=self.game_id)
            if choices and isinstance(choices[0], Message):
                self.show(choices)
                return
            if not choices:
                self.say("Nothing for you to do; the game is over.")
                return
            self.menu(choices)
            line = await self.read("your move> ")
            if line is None or line.lower() in ("quit", "exit", "q"):
                self.say(f"Game #{self.game_id} is saved. Continue it with: python -m bot play --resume")
                return
            if not line:
                continue
            word = line.lower()
            if word == "help":
                self.say(HELP)
            elif word == "board":
                self.show(await self.service.show_board(CHAT, game_id=self.game_id))
            elif word == "hand":
                self.show(await self.service.show_private(YOU, game_id=self.game_id))
            elif word == "rules":
                game = await self._game_name()
                self.show(await self.service.rules_text(CHAT, game, user=YOU))
            elif word == "resign":
                self.show(await self.service.resign(CHAT, YOU, game_id=self.game_id))
                return
            elif line.isdigit():
                index = int(line) - 1
                if 0 <= index < len(choices):
                    self.show(await self.service.act(CHAT, YOU, choices[index][1], game_id=self.game_id))
                else:
                    self.say(f"Choose a number from 1 to {len(choices)}, or type a move.")
            else:
                self.show(await self.service.act(CHAT, YOU, line, game_id=self.game_id))

    async def _game_name(self) -> str:
        for m in await self.service.games(CHAT, YOU):
            for line in m.text.splitlines():
                if line.startswith(f"#{self.game_id} "):
                    import rules

                    for name, g in rules.GAMES.items():
                        if g.title in line:
                            return name
        return ""

    def menu(self, choices: list[tuple[str, str]]) -> None:
        shown = choices[:MENU_LIMIT]
        width = max(len(f"{i + 1}. {label}") for i, (label, _) in enumerate(shown)) + 2
        columns = max(1, min(3, 100 // max(width, 1)))
        cells = [f"{i + 1}. {label}".ljust(width) for i, (label, _) in enumerate(shown)]
        for i in range(0, len(cells), columns):
            self.say("  " + "".join(cells[i:i + columns]).rstrip())
        if len(choices) > MENU_LIMIT:
            self.say(f"  … and {len(choices) - MENU_LIMIT} more: type the move, e.g. {choices[-1][1]}")
        self.say("  (a number, a move in notation, or: board, hand, rules, resign, quit, help)")


async def play(game: str | None, players: int | None, seed: int | None, options: str, database_url: str,
               resume: bool, game_id: int | None = None, out=None, inp=None) -> int:
    out, inp = out or sys.stdout, inp or sys.stdin  # looked up now: a caller (or a test) may have replaced them
    try:
        service = await build_service(database_url)
    except DatabaseUnavailable as e:
        print(f"Herald cannot start: {e}", file=out)
        return 2
    console = Console(service, out, inp)
    try:
        if resume or game_id is not None:
            ok = await console.resume(game_id)
        else:
            ok = await console.new_game(game or "", players, seed, options)
        if ok:
            await console.loop()
        return 0 if ok else 2
    finally:
        await service.close()
