"""The words of Troubadour's chat texts shared by the board (``text``) and the narration (``narration``): a player,
a card, a noble, a trio, a castle."""
from __future__ import annotations

from rules.lang import _
from rules.troubadour.cards import SYMBOL, card_of, pretty


def seat(s: int | None) -> str:
    return _("nobody") if s is None else f"{{P{s + 1}}}"


def c(code: str | None) -> str:
    """``7H`` → ``7♥``."""
    if code is None:
        return "▒"
    x = card_of(code)
    return pretty(x) if x is not None else code


def noble(code: str) -> str:
    return code[0] + SYMBOL[code[1]]


def trio(codes: list[str] | None) -> str:
    return " ".join(noble(x) for x in codes) if codes else "?"


def castle_word(code: str) -> str:
    """``7H`` → ``♥ castle``."""
    return _("{suit} castle", suit=SYMBOL[code[-1]])
