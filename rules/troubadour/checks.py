"""The checks of an action's parameters that every kind of Troubadour action shares: exactly the named fields, a
building card, a village number."""
from __future__ import annotations

from rules.api import IllegalAction
from rules.lang import _
from rules.troubadour.cards import card_of, name


def fields(action: dict, keys: tuple, example: str) -> None:
    if set(action) != {"type", *keys}:
        if keys:
            raise IllegalAction(_("{type} takes {keys}, e.g. `{example}`.", type=action['type'],
                                  keys=", ".join(keys), example=example))
        raise IllegalAction(_("{type} takes no parameters, e.g. `{example}`.", type=action['type'],
                              example=example))


def card(action: dict, key: str = "card") -> int:
    c = card_of(action[key]) if isinstance(action[key], str) else None
    if c is None or action[key] != name(c):
        raise IllegalAction(_("Name a building card like 7H or 10C (A–10 of S H D C)."))
    return c


def village(value, destination: bool = False) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 5:
        if destination:
            raise IllegalAction(_("The destination (castle or a village) is a number from 1 to 5."))
        raise IllegalAction(_("The village is a number from 1 to 5."))
    return value - 1
