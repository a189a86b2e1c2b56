"""The terminal the console prints to: lines fitted to its width at spaces, and a line read so that Ctrl-C quits
at once.

The texts come pre-wrapped at ~115 columns (the width of the sources), so an 80-column terminal would break them
inside words ("h / elp"); here a prose paragraph is joined again and every line is cut at spaces to the
terminal's width, a continuation indented like its line ("│ ", "  "). Emoji count two columns."""
from __future__ import annotations

import asyncio
import re
import shutil
import threading
import unicodedata

_LEAD = re.compile(r"^([│·📢]? *(?:[•\-–·] )?)")


def width() -> int:
    """The terminal's columns now (``COLUMNS`` when set; 100 when there is no terminal)."""
    return max(shutil.get_terminal_size((100, 24)).columns, 20)


def cells(text: str) -> int:
    """Columns ``text`` takes: wide characters (emoji, CJK) two, combining marks and selectors none."""
    n = 0
    for ch in text:
        if unicodedata.combining(ch) or ch in "\ufe0f\u200d":
            continue
        n += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return n


def fit_line(line: str, columns: int) -> list[str]:
    """``line`` cut at spaces into lines of at most ``columns`` (a word longer than that stays whole); the
    continuations indented under the line's text."""
    if cells(line) <= columns:
        return [line]
    lead = _LEAD.match(line).group(1)
    indent = "".join(ch if ch in " │" else " " * cells(ch) for ch in lead) + "  "  # under the text, a step in
    if cells(indent) > columns // 2:
        indent = "  "
    words = _glued(line[len(lead):].split(" "))
    out, current = [], lead + words[0]
    for word in words[1:]:
        if cells(current) + 1 + cells(word) > columns:
            out.append(current.rstrip())
            current = indent + word
        else:
            current += " " + word
    out.append(current.rstrip())
    return out


_GLUED_AFTER = {":", ";", "!", "?", "»"}  # French puts a space before them: never the first thing on a line
_GLUED_PAIRS = {("p.", "ex."), ("z.", "B.")}  # "p. ex.", "z. B." stay on one line, and "/move R2"


def _glued(words: list[str]) -> list[str]:
    """The words to place, with the ones that may not start a line joined to the word before them."""
    out: list[str] = []
    for word in words:
        last = out[-1].rsplit(" ", 1)[-1] if out else ""
        if out and (word in _GLUED_AFTER or (last, word) in _GLUED_PAIRS or last == "/move" or
                    (len(last) == 1 and cells(last) == 2)):  # a colour's square stays with its name: "🟦 bleu"
            out[-1] += " " + word
        else:
            out.append(word)
    return out


def fit(text: str, columns: int | None = None) -> str:
    """Every line of ``text`` fitted to the terminal (``columns``, else its width now)."""
    columns = columns or width()
    return "\n".join(part for line in text.split("\n") for part in fit_line(line, columns))


def reflow(text: str) -> str:
    """A pre-wrapped help or rules text as paragraphs again: a line that continues the sentence above (not a
    list item, not indented, not after a blank line, a heading ending in ':' or a row of an indented table) joins
    it."""
    out: list[str] = []
    for line in text.split("\n"):
        if out and out[-1].strip() and line.strip() and not out[-1].rstrip().endswith(":") and \
                not out[-1].startswith((" ", "\t")) and \
                not re.match(r"^\s|^[-•·]\s|^\d+[.)]\s|^[A-Z][\w ]{0,30}:", line) and len(out[-1]) > 60:
            out[-1] = out[-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
    return "\n".join(out)


async def read_line(stream) -> str:
    """One line of ``stream`` (``""`` at its end), read in a daemon thread: Ctrl-C while waiting quits at once
    (a worker of asyncio's default pool would be waited for at exit — until Enter)."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future = loop.create_future()

    def reader() -> None:
        try:
            line = stream.readline()
        except Exception:  # a closed stream: its end
            line = ""
        try:
            loop.call_soon_threadsafe(lambda: done.done() or done.set_result(line))
        except RuntimeError:  # the console quit meanwhile (Ctrl-C): nobody waits for the line
            pass

    threading.Thread(target=reader, name="console-input", daemon=True).start()
    return await done
