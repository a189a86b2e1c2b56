"""Service messages → Telegram: HTML text (``` blocks become <pre>), inline keyboards, and texts that fit.

Telegram counts a text's length (4096) and a photo caption's (1024) in UTF-16 code units of the text people
see, after the HTML is parsed: an emoji outside the basic plane counts two, ``&lt;`` counts one.
"""
from __future__ import annotations

import html
import re

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import N_, translate
from bot.service import Button

TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
CALLBACK_DATA_LIMIT = 64  # bytes
PICTURE_NOTE = N_("🖼 (the board is in the picture)")  # said in the language current when a caption is cut
CUT = "…"
FENCE = "```"
# "/record 12" in a text: Telegram makes only "/record" tappable, and a tap sends it bare. As "/record_12" the whole
# command is one tap; ``bot.telegram.app`` reads it back as "/record 12".
TAPPABLE = re.compile(r"(?<![\w/])/(record) #?(\d+)\b")
TAPPED = re.compile(r"^/(record)_(\d+)(@\w+)?(\s|$)")


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def visible_len(text: str) -> int:
    """What Telegram counts once ``to_html(text)`` is parsed: fence lines vanish, everything else is shown."""
    return utf16_len("\n".join(line for line in text.splitlines() if line.strip() != FENCE))


def to_html(text: str) -> str:
    """Escape everything; a block between two lines that are exactly ``` is shown in a fixed-width font.
    Callers fit the text first (``fit_text``/``caption``): cutting HTML afterwards could break a tag."""
    out: list[str] = []
    block: list[str] | None = None
    for line in text.splitlines():
        if line.strip() == FENCE:
            if block is None:
                block = []
            else:
                out.append("<pre>" + html.escape("\n".join(block)) + "</pre>")
                block = None
            continue
        if block is not None:
            block.append(line)
        else:
            out.append(TAPPABLE.sub(r"/\1_\2", html.escape(line)))
    if block is not None:  # an unclosed block: show it anyway
        out.append("<pre>" + html.escape("\n".join(block)) + "</pre>")
    return "\n".join(out)


def keyboard(rows: list[list[Button]], extra: list[list[InlineKeyboardButton]] | None = None
             ) -> InlineKeyboardMarkup | None:
    markup = [[InlineKeyboardButton(b.label[:60], url=b.url) if b.url else
               InlineKeyboardButton(b.label[:60], callback_data=b.data) for b in row
               if b.url or len(b.data.encode()) <= CALLBACK_DATA_LIMIT] for row in rows if row]
    markup = [row for row in markup if row] + (extra or [])
    return InlineKeyboardMarkup(markup) if markup else None


def blocks(text: str, *, fences_as: str | None = None) -> list[list[str]]:
    """The text as blocks that must stay whole: a fenced block; a line with the indented lines under it (one
    player's seat with their villages); any other line. With ``fences_as``, a fenced block becomes that line."""
    out: list[list[str]] = []
    fenced: list[str] | None = None
    for line in text.splitlines():
        if line.strip() == FENCE:
            if fenced is None:
                fenced = [line]
            else:
                fenced.append(line)
                out.append([fences_as] if fences_as is not None else fenced)
                fenced = None
            continue
        if fenced is not None:
            fenced.append(line)
        elif line[:1] in (" ", "\t") and line.strip() and out and out[-1][0].strip() != FENCE \
                and out[-1][0] != fences_as:
            out[-1].append(line)
        else:
            out.append([line])
    if fenced is not None:
        fenced.append(FENCE)
        out.append([fences_as] if fences_as is not None else fenced)
    return out


def _cost(block: list[str]) -> int:
    return visible_len("\n".join(block)) + 1  # and its newline


def shorten_blocks(parts: list[list[str]], limit: int) -> str:
    """Keep whole blocks from the top and the bottom alternately (what happened, whose turn, what to type);
    the dropped middle becomes one "…" line. A single block too long for the limit is cut by its lines."""
    budget = limit - utf16_len(CUT) - 1
    head: list[list[str]] = []
    tail: list[list[str]] = []
    front, back = 0, len(parts) - 1
    side = 0
    while front <= back:
        block = parts[front] if side == 0 else parts[back]
        cost = _cost(block)
        if cost > budget:
            if side == 0 and not head:  # the first block alone is too long: keep its lines that fit
                kept = []
                for line in block:
                    if _cost(kept + [line]) > budget:
                        break
                    kept.append(line)
                if kept and kept[0].strip() == FENCE:
                    kept = [l for l in kept if l.strip() != FENCE]
                head.append(kept)
                budget -= _cost(kept)
            break
        budget -= cost
        if side == 0:
            head.append(block)
            front += 1
        else:
            tail.insert(0, block)
            back -= 1
        side = 1 - side
    dropped = front <= back
    lines = [l for b in head for l in b] + ([CUT] if dropped else []) + [l for b in tail for l in b]
    return "\n".join(lines)


def caption(text: str, limit: int = CAPTION_LIMIT) -> str:
    """A photo's caption from a message text: whole when it fits; otherwise without its fixed-width blocks (the
    picture shows them); otherwise whole blocks from the middle are dropped — never single lines from inside
    a block, so no player's villages appear under another player's name."""
    if visible_len(text) <= limit:
        return text
    parts = blocks(text, fences_as=translate(PICTURE_NOTE))
    short = "\n".join(line for block in parts for line in block)
    if visible_len(short) <= limit:
        return short
    return shorten_blocks(parts, limit)


def fit_text(text: str, limit: int = TEXT_LIMIT) -> str:
    """A message text within Telegram's 4096: whole blocks dropped from the middle when it is longer."""
    if visible_len(text) <= limit:
        return text
    return shorten_blocks(blocks(text), limit)
