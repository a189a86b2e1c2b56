"""Starting the console: the database, the language of the table (remembered for later games, kept by a resumed
one), its pages, and the game itself (``bot.console.play.Console``)."""
from __future__ import annotations

import asyncio
import sys
from urllib.parse import urlsplit

from bot import i18n
from bot.i18n import N_, _
from bot.service import DatabaseUnavailable, Service, build_service
from bot.console import screen
from bot.console.play import CHAT, Console, table
from bot.console.replay import save_record
from bot.console.words import YOU, you


async def play(game: str | None, players: int | None, seed: int | None, options: str, database_url: str,
               resume: bool, game_id: int | None = None, out=None, inp=None, lang: str | None = None,
               web_base_url: str | None = None, record: str | None = None) -> int:
    """Play in the console; ``lang`` (en, nl, de, fr) is the language of a new game (the table and your texts),
    remembered for later new games (said when chosen and when used); a resumed game speaks the language it was
    started in, whatever ``lang`` says. ``web_base_url``: where ``python -m bot web`` answers — the console's own
    tables are then on the web pages; ``record``: a file the game's record is saved in when you stop
    (``bot.console.replay``)."""
    out, inp = out or sys.stdout, inp or sys.stdin  # looked up now: a caller (or a test) may have replaced them
    with i18n.using(lang):
        try:
            service = await build_service(database_url)
        except DatabaseUnavailable as e:
            print(_("Herald cannot start: {reason}", reason=e), file=out)
            return 2
        try:
            note = None
            if resume or game_id is not None:
                own = await _language_of_game(service, game_id)
                if own and own != lang:  # the game was read in to learn its language: read again, named in it
                    await service.close()
                    service = await build_service(database_url)
                lang = own or lang
            elif lang:
                await service.settings(CHAT, YOU, f"language={lang}", is_admin=True)  # remembered
                note = N_("Language: {language}. Later new games on this console speak it too (--lang en, nl, "
                          "de or fr changes it; a resumed game keeps its own).")
            else:
                lang = (await service.chat_settings(CHAT)).get("language") or i18n.DEFAULT
                if lang != i18n.DEFAULT:
                    note = N_("Language: {language}, remembered from an earlier --lang (--lang en, nl, de or fr "
                              "changes it).")
            lang = i18n.supported(lang) or i18n.DEFAULT
            # the table of this language speaks it, and so do your own texts (mylanguage: the one person here),
            # who is named in it ("Du")
            with i18n.using(lang):
                await service.settings(table(lang), you(), f"language={lang} mylanguage={lang}", is_admin=True)
            if web_base_url:  # the console is one person's own table: its pages are theirs (on this machine)
                service.ctx.web_base_url = web_base_url
                if (await service.chat_settings(table(lang))).get("web") != "on":
                    await service.settings(table(lang), you(), "web=on", is_admin=True)
        except Exception:
            await service.close()
            raise
        with i18n.using(lang):
            if note:
                print(screen.fit(i18n.translate(note, language=LANGUAGE_NAMES.get(lang, lang))), file=out)
            return await _play(service, game, players, seed, options, resume, game_id, out, inp, record, web_base_url)


# each language's name in itself, as the note says it
LANGUAGE_NAMES = {"en": "English", "nl": "Nederlands", "de": "Deutsch", "fr": "français"}


async def _language_of_game(service: Service, game_id: int | None) -> str | None:
    """The language of the game ``--resume`` continues (the one it was started in), None without one."""
    ids = await service.games_of(YOU)
    game_id = game_id if game_id is not None else (ids[-1] if ids else None)
    if game_id not in ids:
        return None
    for m in await service.show_board(CHAT, game_id=game_id):
        if m.recipe and m.recipe.get("lang"):
            return m.recipe["lang"]
    return None


async def _answers(base_url: str) -> bool:
    """Whether something listens where the pages would be (``python -m bot web``)."""
    address = urlsplit(base_url)
    try:
        _reader, writer = await asyncio.wait_for(
            asyncio.open_connection(address.hostname, address.port or (443 if address.scheme == "https" else 80)), 1)
    except (OSError, asyncio.TimeoutError):
        return False
    writer.close()
    return True


async def _play(service, game, players, seed, options, resume, game_id, out, inp, record=None,
                pages: str | None = None) -> int:
    console = Console(service, out, inp)
    try:
        if resume or game_id is not None:
            ok = await console.resume(game_id)
        else:
            ok = await console.new_game(game or "", players, seed, options)
        if ok:
            await console.loop()
        if console.over and pages and not await _answers(pages):  # the replay's link leads nowhere yet
            console.say(_("🌐 The pages open once `python -m bot web` runs (in another terminal, in this folder)."))
        if ok and record:
            await save_record(service, console.game_id, record, out)
        return 0 if ok else 2
    finally:
        await service.close()
