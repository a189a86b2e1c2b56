"""Service messages → Telegram: HTML text (``` blocks become <pre>) and inline keyboards."""
from __future__ import annotations

import html

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.service import Button

TEXT_LIMIT = 4096


def to_html(text: str) -> str:
    """Escape everything; a block between two lines that are exactly ``` is shown in a fixed-width font."""
    out: list[str] = []
    block: list[str] | None = None
    for line in text.splitlines():
        if line.strip() == "```":
            if block is None:
                block = []
            else:
                out.append("<pre>" + html.escape("\n".join(block)) + "</pre>")
                block = None
            continue
        if block is not None:
            block.append(line)
        else:
            out.append(html.escape(line))
    if block is not None:  # an unclosed block: show it anyway
        out.append("<pre>" + html.escape("\n".join(block)) + "</pre>")
    result = "\n".join(out)
    if len(result) > TEXT_LIMIT:
        result = result[:TEXT_LIMIT - 1] + "…"
    return result


def keyboard(rows: list[list[Button]], extra: list[list[InlineKeyboardButton]] | None = None
             ) -> InlineKeyboardMarkup | None:
    markup = [[InlineKeyboardButton(b.label[:60], callback_data=b.data) for b in row] for row in rows if row]
    markup += extra or []
    return InlineKeyboardMarkup(markup) if markup else None


CAPTION_LIMIT = 1024
PICTURE_NOTE = "🖼 (the board is in the picture)"


def caption(text: str, limit: int = CAPTION_LIMIT - 24) -> str:
    """A photo's caption from a message text: whole when it fits Telegram's 1024 characters; otherwise without its
    fixed-width blocks (the picture shows them), then keeping the first and the last lines (what happened, whose
    turn, what to type) and dropping the middle."""
    if len(text) <= limit:
        return text
    lines: list[str] = []
    in_block = False
    for line in text.splitlines():
        if line.strip() == "```":
            if not in_block:
                lines.append(PICTURE_NOTE)
            in_block = not in_block
            continue
        if not in_block:
            lines.append(line)
    if len("\n".join(lines)) <= limit:
        return "\n".join(lines)
    head, tail = [], []
    budget = limit - 2
    front, back = 0, len(lines) - 1
    while front <= back:  # alternate: a line from the top, a line from the bottom
        for side in (0, 1):
            if front > back:
                break
            line = lines[front] if side == 0 else lines[back]
            if len(line) + 1 > budget:
                front = back + 1
                break
            budget -= len(line) + 1
            if side == 0:
                head.append(line)
                front += 1
            else:
                tail.insert(0, line)
                back -= 1
    return "\n".join(head + ["…"] + tail)
