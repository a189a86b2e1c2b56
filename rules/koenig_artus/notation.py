"""Typed moves: ``red-7`` / ``r7`` / ``knight``, ``trump green`` / ``green``, ``swap 1 6``, ``defer``."""
from __future__ import annotations

import re

from rules.api import IllegalAction
from rules.lang import _
from rules.koenig_artus.cards import COLOUR_WORDS, COLOURS, KNIGHT, SHIELD, card_of, kind_of, name, parse_typed, short


def parse(state, seat: int, text: str) -> dict:
    words = [w for w in re.split(r"[\s,]+", (text or "").strip().lower()) if w]
    if not words:
        raise IllegalAction(_expected(state, seat))
    verb = words[0]
    if verb in ("defer", "later", "wait"):
        if len(words) == 1:
            return {"type": "defer_trump_decision"}
    if verb in ("swap", "exchange", "wissel", "tausch", "tauschen", "échange", "echange"):
        numbers = [int(w) for w in re.findall(r"\d", " ".join(words[1:]))]
        if len(numbers) != 2:
            raise IllegalAction(_("Swap two token slots 1–6, like `swap 1 6`."))
        return {"type": "swap_trump_tokens", "slots": sorted(numbers)}
    if verb in ("trump", "choose", "troef", "trumpf", "atout"):
        colour = COLOUR_WORDS.get(" ".join(words[1:]))
        if colour is None:
            raise IllegalAction(_("Name a colour, like `trump green` ({colours}).", colours=", ".join(COLOURS)))
        return {"type": "choose_trump", "color": colour}
    if verb == "play":
        words = words[1:]
    text = " ".join(words)
    if getattr(state, "phase", "play") == "trump" and text in COLOUR_WORDS and len(text) > 1:
        return {"type": "choose_trump", "color": COLOUR_WORDS[text]}
    exact = card_of(text)
    if exact is not None:
        return {"type": "play_card", "card": name(exact)}
    typed = parse_typed(text)
    if typed is None:
        raise IllegalAction(_expected(state, seat))
    word, number = typed
    if word in ("knight", "shield"):
        base = KNIGHT if word == "knight" else SHIELD
        if number is not None:
            if not 1 <= number <= 3:
                raise IllegalAction(_("There are knights 1–3 only.") if word == "knight" else
                                    _("There are shields 1–3 only."))
            return {"type": "play_card", "card": name(base + number)}
        held = [c for c in _hand(state, seat) if c >= KNIGHT and kind_of(c) == base]
        return {"type": "play_card", "card": name(held[0] if held else base + 1)}
    if not 1 <= number <= 11:
        raise IllegalAction(_("Card values run from 1 to 11, e.g. R7."))
    return {"type": "play_card", "card": f"{word}-{number}"}


def _hand(state, seat: int) -> list[int]:
    hands = getattr(state, "hands", None)
    return sorted(hands[seat]) if hands and isinstance(seat, int) and 0 <= seat < len(hands) else []


def _expected(state, seat: int) -> str:
    phase = getattr(state, "phase", "play")
    if phase == "trump":
        if len(getattr(state, "slots", [])) == 6:
            return _("Swap two trump tokens, like `swap 1 6`, or `defer`.") if state.can_defer else \
                _("Swap two trump tokens, like `swap 1 6`.")
        return _("Choose a trump colour, like `trump green`, or `defer`.") if state.can_defer else \
            _("Choose a trump colour, like `trump green`.")
    hand = _hand(state, seat)
    held = (" " + _("You hold: {cards}.", cards=" ".join(short(c) for c in hand))) if hand else ""
    return _("Play a card like `R7` (red 7; black is K, e.g. `K7`), `Kn1` (a Knight) or `Sh1` (a Shield).") + held


def format_action(action: dict) -> str:
    kind = action.get("type")
    if kind == "play_card":  # the card's one name (R7, Kn1): it parses back to the same card
        c = card_of(action["card"])
        return short(c) if c is not None else action["card"]
    if kind == "choose_trump":
        return "trump " + action["color"]
    if kind == "swap_trump_tokens":
        return "swap {} {}".format(*action["slots"])
    if kind == "defer_trump_decision":
        return "defer"
    raise IllegalAction(_("Unknown action type {kind}.", kind=repr(kind)))
