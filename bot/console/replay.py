"""``python -m bot replay FILE|GAME_ID``: step through a game record on the console, and ``play --record FILE``
saves one.

A record comes from a file (``docs/RECORD.md``) or, by a game's number, from the local database through the
service (``SendRecord``, as a chat asks for it: the whole game once it is over, your own view of a running one).
Typed keys step: Enter or ``n`` next, ``p`` back, a number goes to that step, ``s N`` shows seat N's view,
``t`` the table's, ``a`` everything, ``q`` quits.
"""
from __future__ import annotations

import json
import sys

from bot import i18n
from bot.i18n import N_, _
from bot.service import DatabaseUnavailable, Service, build_service
from bot.service import commands as c
from bot.service.record_text import step_text
from bot.service.records import ALL, RecordError
from bot.service.replay import Replay
from bot.console.words import YOU, _plain

KEYS = N_("(Enter/n next · p back · a step number · s N seat N · t the table · a all · q quit)")


async def fetch_record(service: Service, game_id: int) -> dict:
    """The record of a local game, as the service gives it to you (RecordError with its answer if it won't)."""
    for message in await service.handle(c.SendRecord(YOU, None, game_id)):
        for name, data in message.files:
            if name.endswith(".json"):
                return json.loads(data)
        if message.kind == "error":
            raise RecordError(message.text)
    raise RecordError(_("There is no record of game #{id}.", id=game_id))


class ReplayConsole:
    def __init__(self, replay: Replay, out=sys.stdout, inp=sys.stdin):
        self.replay, self.out, self.inp = replay, out, inp
        self.step, self.viewer = 0, None

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def show(self) -> None:
        self.say(_plain(step_text(self.replay, self.step, self.viewer, self.replay.record.get("game_id"))))
        self.say("  " + i18n.translate(KEYS))

    def command(self, line: str) -> bool:
        """Act on one typed line; False to stop."""
        words = line.strip().lower().split()
        replay = self.replay
        if words and words[0] in ("q", "quit", "exit"):
            return False
        if not words or words[0] in ("n", "next", ">"):
            if self.step == replay.steps:
                self.say(_("That was the last step ({last}).", last=replay.steps))
                return True
            self.step += 1
        elif words[0] in ("p", "prev", "back", "<"):
            self.step = max(0, self.step - 1)
        elif words[0].isdigit() and len(words) == 1:
            if int(words[0]) > replay.steps:
                self.say(_("Steps go from 0 to {last}.", last=replay.steps))
                return True
            self.step = int(words[0])
        elif words[0] in ("t", "a", "s"):
            wanted = None if words[0] == "t" else ALL if words[0] == "a" else \
                int(words[1]) - 1 if len(words) == 2 and words[1].isdigit() else "?"
            if wanted not in replay.viewers():
                allowed = ", ".join("t" if v is None else "a" if v == ALL else f"s {v + 1}" for v in replay.viewers())
                self.say(_("This record can be seen as: {allowed}.", allowed=allowed))
                return True
            self.viewer = wanted
        else:
            self.say(i18n.translate(KEYS))
            return True
        self.show()
        return True

    def loop(self) -> None:
        self.show()
        for line in self.inp:
            if not self.command(line):
                return


async def replay(source: str, database_url: str, out=None, inp=None, lang: str | None = None) -> int:
    """Step through ``source``: a record's file, or a game number of the local database."""
    out, inp = out or sys.stdout, inp or sys.stdin
    with i18n.using(lang):
        try:
            if source.lstrip("#").isdigit():
                try:
                    service = await build_service(database_url)
                except DatabaseUnavailable as e:
                    print(_("Herald cannot start: {reason}", reason=e), file=out)
                    return 2
                try:
                    record = await fetch_record(service, int(source.lstrip("#")))
                finally:
                    await service.close()
            else:
                with open(source, encoding="utf-8") as file:
                    record = json.load(file)
            shown = Replay(record)
        except (OSError, ValueError) as e:  # no file, not JSON, not a record this version reads
            print(_("Cannot replay {source}: {reason}", source=source, reason=e), file=out)
            return 2
        ReplayConsole(shown, out, inp).loop()
        return 0


async def save_record(service: Service, game_id: int | None, path: str, out) -> None:
    """``play --record FILE``: the game's record written to ``path`` when the console game ends or you quit."""
    if game_id is None:
        return
    try:
        record = await fetch_record(service, game_id)
        with open(path, "w", encoding="utf-8") as file:
            json.dump(record, file, ensure_ascii=False, indent=1)
    except (OSError, RecordError) as e:
        print(_("The record was not saved: {reason}", reason=e), file=out)
        return
    print(_("📜 The record of game #{id} is saved in {path}.", id=game_id, path=path), file=out)
