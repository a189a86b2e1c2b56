"""People in a line: ``{P<n>}`` placeholders filled with names, the reader as "you" (in English with the verb
turned to agree)."""
from __future__ import annotations

import re
from typing import Sequence

from bot.i18n import _, language


_IRREGULAR = {"has": "have", "is": "are", "does": "do", "goes": "go", "was": "were"}
_NOT_VERBS = {"cards", "points", "castles", "stones", "trumps", "villages", "nobles", "pawns", "tokens", "pts",
              "and", "vs", "is"}
_SUBJECT = re.compile(r"\{P(\d+)\}('s\b| [a-z]+\b)?")


def _base(verb: str) -> str | None:
    """``builds`` → ``build``, ``passes`` → ``pass``, ``has`` → ``have``; None if it is no third-person verb."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb in _NOT_VERBS or not verb.endswith("s") or len(verb) < 3 or verb.endswith("ss"):
        return None
    for end in ("sses", "ches", "shes", "xes", "zes"):
        if verb.endswith(end):
            return verb[:-2]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    return verb[:-1]


def personal(text: str, viewer: int | None, names: Sequence[str]) -> str:
    """Fill in ``{P<n>}`` placeholders: everybody by name but the viewer. The viewer's own sentences are written
    by the engines and the narration in each language (``rules.lang.mine``); what is left of the viewer's
    placeholder is "you" — in English with the verb after it in the base form (``{P1}'s`` as "your", capitalised
    where a sentence starts), in other languages the catalog's word for "you" where no sentence of its own is
    written (an English rule of grammar cannot turn a Dutch verb)."""
    english = language() == "en"
    # TRANSLATORS: the reader, where a line names them without a sentence of its own (e.g. "Slag: jij R9 · …")
    you = _("you")

    def fill(match: re.Match) -> str:
        seat = int(match.group(1)) - 1
        rest = match.group(2) or ""
        if seat != viewer:
            return (names[seat] if 0 <= seat < len(names) else match.group(0)[:-len(rest) or None]) + rest
        start = match.start()
        before = text[:start].rstrip()
        if not english:  # the word begins a line ("Jij → Bob: …"), not a sentence within one
            word = you + rest
            return word[0].upper() + word[1:] if not before or text[:start].rstrip(" ").endswith("\n") else word
        capital = not before or before[-1] in ".:!?·—(\n⚔" or before.endswith("▶") or \
            text[:start].rstrip(" ").endswith("\n")  # a line of its own (Kardinal's final account)
        if rest == "'s":
            word = "your"
        else:
            verb = rest.strip()
            base = _base(verb) if verb else None
            word = "you" + (f" {base}" if base else rest)
        return word[0].upper() + word[1:] if capital else word

    return _SUBJECT.sub(fill, text)
