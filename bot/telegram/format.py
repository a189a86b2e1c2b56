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
