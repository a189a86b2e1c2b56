"""How a Discord client reads a message's content, as far as forging goes: which parts are fenced code blocks,
what each part shows, and which Markdown in it is live (would format, link or mention).

A block opens at ``` and closes at the next ``` anywhere (its first line may name a language); outside blocks a
backslash before punctuation shows that character as it is (``escaped`` here).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

ZWSP = "\u200b"
FENCE = "```"
LANGUAGE = re.compile(r"[a-z0-9_+\-.#]+\n")
LIVE_LINE_START = re.compile(r"^\s*(#{1,3}\s|-#\s|>|[-*+]\s|\d+\.\s)", re.MULTILINE)
LIVE_INLINE = re.compile(r"\[[^\]\n]*\]\(|\*|_|~~|\|\||`|@everyone|@here|<[@#:/]|<[ta]:|https?://")


@dataclass
class Part:
    code: bool
    shown: str  # what the person sees (a zero-width space is invisible, so it is left out)
    live: str  # the same with every escaped character replaced by "\0": what Markdown can still act on


def read(content: str) -> list[Part]:
    parts: list[Part] = []
    i = 0
    while i < len(content):
        start = content.find(FENCE, i)
        end = content.find(FENCE, start + 3) if start >= 0 else -1
        if start < 0 or end < 0:  # no (closed) block: the rest is ordinary text
            parts.append(_text(content[i:]))
            break
        if start > i:
            parts.append(_text(content[i:start]))
        inner = content[start + 3:end]
        language = LANGUAGE.match(inner)
        if language:
            inner = inner[language.end():]
        parts.append(Part(True, inner.replace(ZWSP, ""), inner))
        i = end + 3
    return parts


def _text(text: str) -> Part:
    shown, live = [], []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text) and not text[i + 1].isalnum() and not text[i + 1].isspace():
            shown.append(text[i + 1])
            live.append("\0")
            i += 2
            continue
        shown.append(char)
        live.append(char)
        i += 1
    return Part(False, "".join(shown).replace(ZWSP, ""), "".join(live))


def live_markdown(content: str) -> list[str]:
    """Every piece of Markdown a client would act on outside code blocks (empty: the content is plain text)."""
    found = []
    for part in read(content):
        if not part.code:
            found += [m.group(0) for m in LIVE_INLINE.finditer(part.live)]
            found += [m.group(0) for m in LIVE_LINE_START.finditer(part.live)]
    return found


def shown_outside(content: str) -> str:
    return "".join(p.shown for p in read(content) if not p.code)


def shown_in_blocks(content: str) -> list[str]:
    return [p.shown for p in read(content) if p.code]


def assert_plain(content: str, *names: str) -> None:
    """The content has no live Markdown, its blocks are all closed, and each name is shown as it is written."""
    assert content.count(FENCE) % 2 == 0, f"a block is left open: {content!r}"
    assert live_markdown(content) == [], (live_markdown(content), content)
    everything = shown_outside(content) + "".join(shown_in_blocks(content))
    for name in names:
        assert name in everything, (name, content)
