"""Service texts → Discord Markdown, so that what people call themselves or type is shown as written.

The service's texts are plain text with ``` fenced blocks (Telegram's ``to_html`` reads them the same way), and
they repeat names, options and queries people chose. Discord would render Markdown in them: a name
``[Free Nitro](https://e.vil)`` would be a link inside the bot's own board, ``a```b`` would end the board's code
block. So outside blocks every Markdown character is escaped (a backslash shows it as it is), and so are the
starts of headings, quotes and lists, mass mentions, ``<…>`` mentions and bare links (no preview card); inside a
block nothing renders but a ``` run, which a zero-width space breaks. Backticks in the service's own help texts
(``/board 2``) therefore show as backticks, as on Telegram. The adapter's own pings are added after this.
"""
from __future__ import annotations

import re

import discord

FENCE = "```"
ZWSP = "\u200b"
CONTENT_LIMIT = 2000
EMBED_LIMIT = 4096
CUT = "…"

_INLINE = re.compile(r"([\\*_~|`\[\]<>])")  # emphasis, spoilers, code, masked links, <@…> <#…> <t:…> <:emoji:>
_LINE_START = re.compile(r"^(\s*)(?:(#{1,3}(?=\s)|-#?(?=\s)|\+(?=\s))|(\d+)(?=\.\s))")  # headings, subtext, lists
_MASS = re.compile(r"@(everyone|here)")
_TICKS = re.compile(r"`(?=`)")


def _plain(line: str) -> str:
    line = _INLINE.sub(r"\\\1", line)
    line = _LINE_START.sub(lambda m: m[1] + ("\\" + m[2] if m[2] else m[3] + "\\"), line)
    return _MASS.sub("@" + ZWSP + r"\1", line).replace("://", ":\\//")


def _lines(text: str):
    """(the line, as shown, inside a block after it) for each line of the text."""
    inside = False
    for line in text.splitlines():
        if line.strip() == FENCE:
            inside = not inside
            yield line, FENCE, inside
        elif inside:
            yield line, _TICKS.sub("`" + ZWSP, line), inside
        else:
            yield line, _plain(line), inside


def to_markdown(text: str, limit: int | None = None) -> str:
    """The text as Discord shows it plainly; with ``limit``, whole lines from the top that fit and a "…" line
    (a first line alone too long is cut). A block left open, by the text or the cut, is closed."""
    out: list[str] = []
    size, inside, cut = 0, False, False
    reserve = len(FENCE) + len(CUT) + 2  # a closing fence and the "…" line
    for source, line, after in _lines(text):
        if limit is not None and size + len(line) + 1 + reserve > limit:
            if not out:  # the first line, never a fence: a part of it (escaping at most doubles its length)
                out.append(_plain(source[:max(0, (limit - reserve) // 2)]))
            cut = True
            break
        out.append(line)
        size += len(line) + 1
        inside = after
    if inside:
        out.append(FENCE)
    if cut:
        out.append(CUT)
    return "\n".join(out)


def payload(text: str, pings: str = "", times: list | None = None) -> dict:
    """``content`` and ``embed`` of a message: the text with ``pings`` (the adapter's own ``<@id>`` mentions)
    after it; past 2000 characters the text goes in an embed (up to 4096), the pings stay in the content.
    ``times``: [said, epoch] — each remaining time the text says is shown as Discord's relative timestamp."""
    content = _timestamps(to_markdown(text), times) + pings
    if len(content) <= CONTENT_LIMIT:
        return {"content": content, "embed": None}
    return {"content": pings.strip() or None,
            "embed": discord.Embed(description=_timestamps(to_markdown(text, EMBED_LIMIT), times))}


def _timestamps(markdown: str, times: list | None) -> str:
    """Each ``said`` (in order, once each) becomes ``<t:epoch:R>`` — added after escaping, so it stays one."""
    for said, epoch in times or []:  # said: " 2d 4h ⏳", the time between a space and its running mark
        markdown = markdown.replace(said, said.replace(said.strip(" ⏳"), f"<t:{int(epoch)}:R>"), 1)
    return markdown
