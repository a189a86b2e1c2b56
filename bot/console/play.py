"""The console adapter: prints what the channel would see and, marked apart, what only you would see, and reads
your moves (started by ``bot.console.start``).

It translates like the chat adapters do: every move goes through the service and is
stored, so ``--resume`` continues a game after the terminal closed.
"""
from __future__ import annotations

import sys

from bot import i18n
from bot.i18n import _
from bot.service import ChatRef, Message, Service, catalog
from bot.service.rendering import board_news_for, view_for
from bot.console import screen
from bot.console.words import (CHOSEN, COMMAND_WORDS, COMMANDS, HELP, _plain, _strip_move, addressed,
                               command_line, console_rules, you)

CHAT = ChatRef("console", "local", "local", "console")  # the console's own chat: its language is the remembered one


def table(lang: str) -> ChatRef:
    """The chat of the console's games in ``lang``: one a language, so that a game keeps the language (and the
    AI names) it was started with whatever a later game speaks; all of them rated in one league."""
    return ChatRef("console", f"local-{lang}", "local", "console")


class Console:
    def __init__(self, service: Service, out=sys.stdout, inp=sys.stdin):
        self.service = service
        self.you = you()  # named in the language spoken now ("Du")
        self.chat = table(i18n.language())  # the chat of a new game; a resumed one is played in its own
        self.seat: int | None = None  # your seat, once a message about it came
        self.out = out
        self.inp = inp
        self.game_id: int | None = None
        self.game_name = ""
        self.over = False
        self.seen: list[str] = []  # narration lines already printed (the board's lines above it)
        self.levels: list[Message] = []  # the picker: the messages of the steps chosen so far (back = pop)

    def say(self, text: str = "") -> None:
        print(screen.fit(text), file=self.out, flush=True)  # cut at spaces to the terminal, never in a word

    # ------------------------------------------------------------------ printing
    def _news(self, lines: list[str]) -> list[str]:
        """The narration lines not printed before: the board repeats a window of recent lines."""
        for overlap in range(min(len(lines), len(self.seen)), 0, -1):
            if self.seen[-overlap:] == lines[:overlap]:
                lines = lines[overlap:]
                break
        self.seen = (self.seen + lines)[-50:]
        return lines

    def show(self, messages: list[Message], full_board: bool = False, step: bool = False) -> None:
        """Print what the service said: the board as its new lines only (``full_board``: all of it), your view
        in a box (``step``: a picker step, only what you chose so far), answers and errors as they are."""
        said: set[str] = set()  # the board's lines printed by this call: your view does not repeat them
        board_shown = False  # the table's board printed at your turn (a game that hides nothing): no view below
        boxed: set[str] = set()  # what your box tells: the board's news does not repeat it
        covered = False  # your box tells all since your last turn (it is your turn, or the end): news only of you
        ending = any(m.kind == "result" for m in messages)
        deferred: list[str] = []  # the table's board at your turn: printed last, under what led to it
        plain = {id(m): _plain(m.text).replace(f"{self.you.name} {_('(you)')}", self.you.name) for m in messages}
        # ("Du (du)", "You (you)": on the console your name already says it is you)
        for m in messages:
            lines = plain[id(m)].splitlines()
            if m.is_private and not step and "" in lines:
                boxed.update(addressed(line, self.you.name) for line in lines[1:lines.index("")])
                since = "since" in ((m.recipe or {}).get("told") or {})  # all since your last move (your next step too)
                covered = covered or ((m.ping or ending or since) and lines.index("") > 1)
        for m in messages:
            if m.game_id is not None and self.game_id is None:
                self.game_id = m.game_id
            if m.kind == "result" and m.chat is not None:
                self.over = True
            if m.kind == "turn":  # the group's line that pings whose turn it is: here the prompt says it
                continue
            text = plain[id(m)]
            if m.is_private:
                recipe = m.recipe or {}
                if isinstance(recipe.get("seat"), int):
                    self.seat = recipe["seat"]
                if m.buttons or m.menu:
                    self.levels.append(m)
                lines = text.splitlines()
                if step:
                    chosen = [line for line in lines if line.startswith((CHOSEN, i18n.translate(CHOSEN)))]
                    ticked = [b.label[2:] for row in m.buttons for b in row if b.label.startswith("✔ ")]
                    if ticked:
                        chosen = [(chosen[0] + " · " if chosen else _("Chosen so far: ")) + " ".join(ticked)]
                    for line in chosen:
                        self.say("  " + line)
                    continue
                told, view = [], lines[1:]
                if "" in lines:  # the lines above the view are events since your last turn: spoken to you
                    cut = lines.index("")
                    told, view = [addressed(line, self.you.name) for line in lines[1:cut]], lines[cut + 1:]
                view = [] if board_shown else [line for line in view if line not in said and line not in told]
                if told and not view and self._board_not_in_view():  # a game that hides nothing: public news
                    for line in told:
                        self.say("📢 " + line)
                elif told or view:  # the box's title (game and seat) on its top border: one line less
                    self.say("┌─ 🔒 " + _("only you see this") + " · " + (lines[0] if lines else "") + " " + "─" * 6)
                    for line in told + view:
                        self.say("│ " + line)
                    self.say("└" + "─" * 54)
                elif len(lines) == 1 and m.kind != "hand":  # a note of one line (a hint): the line is the box
                    self.say("┌─ 🔒 " + _("only you see this") + " " + "─" * 6)
                    self.say("│ " + lines[0])
                    self.say("└" + "─" * 54)
            elif m.is_reply:
                self.say(("⚠ " if m.kind == "error" else "") + text)
            elif m.kind == "board" and not full_board and not self.over:
                head, _sep, body = text.partition("\n\n")
                told = self.board_news(m, [line[2:] for line in head.splitlines()[1:] if line.startswith("· ")])
                news = told[len(told) - len(self._news([raw for raw, _line, _me in told])):]
                for _raw, line, me in news:
                    if line not in boxed and not covered:  # (your box tells all since your last turn, your move too)
                        self.say("📢 " + line)
                waiting = [line for line in body.splitlines() if line.startswith("⏳")]
                yours = any(w.endswith(self.you.name) or f" {self.you.name}," in w for w in waiting)
                if yours and self._board_not_in_view():  # the table's board, once: your view does not repeat it
                    board = [line for line in self.board_for_you(m, body).splitlines()
                             if not line.startswith("⏳") and line.strip()]
                    said.update(board)
                    board_shown = True
                    deferred.append("📢 " + "\n".join(board))  # after the news of this change (your move's)
                elif waiting and not yours:
                    self.say(waiting[-1])
                continue
            else:
                if m.kind == "board":  # the whole board (at the start, `board`): told to you ("Du musst bauen")
                    head, _sep, body = text.partition("\n\n")
                    told = self.board_news(m, [line[2:] for line in head.splitlines()[1:] if line.startswith("· ")])
                    self._news([raw for raw, _line, _me in told])
                    board, waiting = body.partition("\n\n⏳")[::2]
                    news = [] if covered else ["· " + line for _raw, line, _me in told]  # (your box tells them)
                    text = "\n".join(head.splitlines()[:1] + news) + "\n\n" + \
                        self.board_for_you(m, board) + ("\n\n⏳" + waiting if waiting else "")
                    said.update(text.splitlines())
                    board_shown = self._board_not_in_view()
                self.say("📢 " + text)
            self.say()
        for text in deferred:
            self.say(text)
            self.say()

    def _seat_for(self, recipe: dict) -> int | None:
        names = recipe.get("names") or []
        return self.seat if self.seat is not None else (names.index(self.you.name) if self.you.name in names else None)

    def board_news(self, m: Message, lines: list[str]) -> list[tuple[str, str, bool]]:
        """The board's lines of recent events (``lines``, as the channel reads them) as (that line, the line
        for you, whether it is about you), narrated for your seat by the service (``rendering.board_news_for``)."""
        recipe = m.recipe or {}
        seat = self._seat_for(recipe)
        out = board_news_for(recipe, seat) if seat is not None else None
        if out is None or [raw for raw, _line, _me in out] != lines:  # (told as the board says them)
            return [(line, addressed(line, self.you.name), line.startswith(self.you.name + " ")) for line in lines]
        return out

    def board_for_you(self, m: Message, body: str) -> str:
        """The table's board (``body``, as the channel reads it) told to you: the same public view, its lines
        about you in each language's own second person ("Du musst bauen.", not "Du muss bauen.")."""
        recipe = m.recipe or {}
        seat = self._seat_for(recipe)
        text = view_for(recipe, seat) if seat is not None else None
        if text is None:
            return "\n".join(addressed(line, self.you.name) for line in body.splitlines())
        return _plain(text)

    def _board_not_in_view(self) -> bool:
        """A game that hides nothing (Kardinal) keeps a person's own view short: the console then prints the
        table's board at the person's turn instead."""
        return bool(self.game_name) and not catalog.game(self.game_name).hides

    async def read(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = await screen.read_line(self.inp)
        return None if line == "" else line.strip()

    # ------------------------------------------------------------------ starting
    async def new_game(self, game: str, players: int | None, seed: int | None, options: str) -> bool:
        try:
            g = catalog.game(game)
        except ValueError as e:
            self.say(str(e))
            return False
        n = players or g.min_players
        if not g.min_players <= n <= g.max_players:
            self.say(_("{game} is for {least}–{most} players.", game=g.title, least=g.min_players,
                       most=g.max_players))
            return False
        self.game_name = g.name
        messages = await self.service.create_lobby(self.chat, self.you, game, options, seed=seed)
        if messages[0].kind == "error":
            self.show(messages)
            return False
        self.game_id = messages[0].game_id
        for _seat in range(n - 1):
            await self.service.add_ai(self.chat, self.you, "greedy", game_id=self.game_id)
        started = await self.service.start(self.chat, self.you, game_id=self.game_id)
        self.show(started, full_board=True)
        return not any(m.kind == "error" for m in started)

    async def resume(self, game_id: int | None) -> bool:
        ids = await self.service.games_of(self.you)
        if game_id is None and ids:
            game_id = ids[-1]
        if game_id is None or game_id not in ids:
            self.say(_("No game of yours to resume here. Start one with: {command}", command=command_line("<game>")))
            return False
        self.game_id = game_id
        self.say(_("Resuming game #{id}.", id=game_id))
        board = await self.service.show_board(self.chat, game_id=game_id)
        self.chat = next((m.chat for m in board if m.chat is not None), self.chat)
        await self._game_name()
        self.show(board, full_board=True)
        self.show(await self.service.show_private(self.you, game_id=game_id))
        return True

    # ------------------------------------------------------------------ the loop
    def _options(self) -> list[tuple[str, str]]:
        """The numbered menu of the current picker step: (label, button data); a set's chosen items are not
        offered again (``back`` takes the last one out)."""
        if not self.levels:
            return []
        m = self.levels[-1]
        options = []
        for row in m.buttons:
            for b in row:
                if b.label.startswith("✔ ") or b.label.startswith("↩"):
                    continue
                options.append((b.label, b.data))
        return options

    def _multi(self) -> tuple[int, int] | None:
        m = self.levels[-1] if self.levels else None
        if m is None or m.menu is None or not m.menu.multi:
            return None
        return m.menu.min_values, m.menu.max_values

    def _chosen_count(self) -> int:
        m = self.levels[-1]
        return sum(1 for row in m.buttons for b in row if b.label.startswith("✔ "))

    async def _press(self, data: str) -> list[Message]:
        return await self.service.press(self.you, data)

    async def _step(self, data: str) -> None:
        """Press one option; a set that is complete (as many items as it may hold, and valid) is finished."""
        messages = await self._press(data)
        step = len(messages) == 1 and messages[0].is_private and messages[0].kind == "hand"
        if not step:
            self.levels.clear()
        self.show(messages, step=step)
        multi = self._multi()
        if step and multi and self._chosen_count() >= multi[1]:
            done = next((d for label, d in self._options() if label.startswith("✅")), None)
            if done:
                await self._step(done)

    async def loop(self) -> None:
        while not self.over:
            if not self.levels:
                messages = await self.service.show_private(self.you, game_id=self.game_id)
                if any(m.kind == "error" for m in messages) or not any(m.buttons for m in messages):
                    if messages and messages[0].kind == "error":
                        self.show(messages)
                    else:
                        self.say(_("Nothing for you to do; the game is over."))
                    return
                self.levels = [m for m in messages if m.buttons][-1:]
            options = self._options()
            self.menu(options)
            line = await self.read(_("your move> "))
            if line is None or line.lower() in ("quit", "exit", "q", "/quit"):
                self.say(_("Game #{id} is saved. Continue it with: {command}", id=self.game_id,
                           command=command_line("--resume")))
                return
            if not line:
                continue
            word = line.lower().lstrip("/")
            if word == "help":
                await self.help()
            elif word == "board":
                self.show(await self.service.show_board(self.chat, game_id=self.game_id), full_board=True)
            elif word == "hint":
                self.say("  " + _("The strong AI is thinking…"))
                self.show(await self.service.hint(self.chat, self.you, game_id=self.game_id))
            elif word.split()[:1] == ["log"] and all(w.isdigit() for w in word.split()[1:]):
                self.show(await self.service.log(self.chat, self.you, " ".join(word.split()[1:]), game_id=self.game_id))
            elif word == "hand":
                self.levels.clear()
                self.show(await self.service.show_private(self.you, game_id=self.game_id))
            elif word == "rules":
                name = self.game_name or await self._game_name()
                for m in await self.service.rules_text(self.chat, name, user=self.you):
                    m.text = screen.reflow(console_rules(m.text))
                    self.show([m])
            elif word == "resign":
                # (nobody else plays on the console: the game then ends, unrated — as the service says after)
                answer = await self.read(_("Resign game #{id}? No other person plays here, so the game ends, unrated. "
                                           "(y/n) ", id=self.game_id))
                if (answer or "").lower() in ("y", "yes", _("y"), _("yes")):
                    self.show(await self.service.resign(self.chat, self.you, game_id=self.game_id))
                    return
                self.say(_("You play on."))
            elif word in ("back", "undo", "b", "0"):
                if len(self.levels) > 1:
                    self.levels.pop()
                    chosen = [l for l in self.levels[-1].text.splitlines()
                              if l.startswith((CHOSEN, i18n.translate(CHOSEN)))]
                    self.say("  " + (chosen[0] if chosen else _("Back to the start of your move.")))
                elif word == "undo":  # at the first step: the last move made is taken back (/undo)
                    self.levels.clear()
                    self.show(await self.service.undo(self.chat, self.you, game_id=self.game_id))
                else:
                    self.say(_("Nothing to undo: this is the first step of your move."))
            elif word == "done":
                done = next((d for label, d in options if label.startswith("✅")), None)
                if done:
                    await self._step(done)
                else:
                    self.say(_("Not yet: choose more first.") if self._multi() else
                             _("There is nothing to finish here."))
            elif all(w.isdigit() for w in line.split()):
                numbers = [int(w) for w in line.split()]
                if all(1 <= k <= len(options) for k in numbers) and len(numbers) > 1 and not self._multi():
                    self.say(_("One choice at this step: type one number from 1 to {n}, or a move.", n=len(options)))
                    continue
                if not all(1 <= k <= len(options) for k in numbers):
                    self.say(_("Choose a number from 1 to {n}, or type a move.", n=len(options)))
                    continue
                datas = [options[k - 1][1] for k in numbers]
                if len(datas) > 1:  # several items of a set: each toggle is a step (its own path)
                    labels = [options[k - 1][0] for k in numbers]
                    for label in labels:
                        current = next((d for lab, d in self._options() if lab == label), None)
                        if current is None or not self.levels:
                            break
                        await self._step(current)
                        if not self.levels or self._multi() is None:
                            break
                else:
                    await self._step(datas[0])
            else:
                self.levels.clear()
                self.show(await self.service.act(self.chat, self.you, _strip_move(line), game_id=self.game_id))

    async def help(self) -> None:
        self.say(screen.reflow(i18n.translate(HELP)))
        if i18n.language() != i18n.DEFAULT:
            self.say(i18n.translate(COMMAND_WORDS))
        name = self.game_name or await self._game_name()
        if name:
            self.say("")
            self.say(screen.reflow(console_rules(catalog.game(name).help_text())))

    async def _game_name(self) -> str:
        for m in await self.service.games(self.chat, self.you):
            for line in m.text.splitlines():
                if line.startswith(f"#{self.game_id} "):
                    for info in catalog.games():
                        if info.title in line:
                            self.game_name = info.name
                            return info.name
        return ""

    def menu(self, options: list[tuple[str, str]]) -> None:
        if not options:
            return
        width = max(len(f"{i + 1}. {label}") for i, (label, _data) in enumerate(options)) + 2
        # a whole move per option (one keypress) makes long lists: wider rows where the terminal allows
        columns = max(1, min(4 if len(options) <= 12 else 6, (screen.width() - 2) // max(width, 1)))
        cells = [f"{i + 1}. {label}".ljust(width) for i, (label, _data) in enumerate(options)]
        for i in range(0, len(cells), columns):
            self.say("  " + "".join(cells[i:i + columns]).rstrip())
        self.say("  " + COMMANDS.format(n=len(options)))
