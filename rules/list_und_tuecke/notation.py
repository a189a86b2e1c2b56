"""Typed moves: ``R10`` (play), ``pick R14 R10 Y16``, ``hide B Y`` — case and spaces do not matter."""
from __future__ import annotations

import re

from rules.api import IllegalAction
from rules.lang import _, colour_aliases
from rules.list_und_tuecke.cards import COLOURS, COLOUR_NAMES, name, parse_card

# local aliases (issue 26): colour names in Dutch, German and French as whole words (Dutch initials would clash:
# geel/groen), and the verbs
_CODE_OF = {v: k for k, v in COLOUR_NAMES.items()}  # "red" → "R"
_COLOUR_WORDS = {**{c.lower(): c for c in COLOURS}, **_CODE_OF, **colour_aliases(_CODE_OF)}
PLAY_WORDS = ("play", "p", "speel", "spiel", "spielen", "jouer", "joue")
PICK_WORDS = ("pick", "take", "pak", "neem", "nimm", "nehmen", "prendre", "prends")
HIDE_WORDS = ("hide", "verberg", "verstecke", "verstecken", "cacher", "cache")


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,;+/]+", text.strip().lower()) if t]


def _cards(tokens: list[str]) -> list[int] | None:
    cards = [parse_card(t) for t in tokens]
    if not cards or any(c is None for c in cards):
        # also accept cards written together, e.g. "r14r10y16"
        joined = "".join(tokens)
        found = re.findall(r"[rgby]\d{1,2}", joined)
        if not found or "".join(found) != joined:
            return None
        cards = [parse_card(t) for t in found]
        if any(c is None for c in cards):
            return None
    return cards


def _colours(tokens: list[str]) -> list[str] | None:
    if len(tokens) == 1 and len(tokens[0]) == 2 and all(ch in "rgby" for ch in tokens[0]):
        tokens = list(tokens[0])
    colours = [_COLOUR_WORDS.get(t) for t in tokens]
    return None if not colours or None in colours else colours


def parse(state, seat: int, text: str) -> dict:
    phase = getattr(state, "phase", "play")
    tokens = _tokens(text or "")
    if not tokens:
        raise IllegalAction(_expected(state, seat))
    verb = tokens[0]
    if verb in PLAY_WORDS:
        cards = _cards(tokens[1:])
        if cards is None or len(cards) != 1:
            raise IllegalAction(_("Play one card, like `R14` or `play G3`.") + _hand_hint(state, seat))
        return {"type": "play_card", "card": name(cards[0])}
    if verb in PICK_WORDS:
        cards = _cards(tokens[1:])
        if cards is None:
            raise IllegalAction(_("Name the cards you take from the trick, like `pick R14 R10 Y16`."))
        return {"type": "pick_cards", "cards": [name(c) for c in sorted(cards)]}
    if verb in HIDE_WORDS:
        colours = _colours(tokens[1:])
        if colours is None or len(colours) != 2:
            raise IllegalAction(_("Name two colours to hide, like `hide B Y` (R, G, B or Y)."))
        return {"type": "hide_colors", "colors": sorted(colours, key=COLOURS.index)}
    # no verb: decide by the phase
    if phase == "hide":
        colours = _colours(tokens)
        if colours is not None and len(colours) == 2:
            return {"type": "hide_colors", "colors": sorted(colours, key=COLOURS.index)}
    cards = _cards(tokens)
    if cards is not None:
        if phase == "pick":
            return {"type": "pick_cards", "cards": [name(c) for c in sorted(cards)]}
        if len(cards) == 1:
            return {"type": "play_card", "card": name(cards[0])}
    raise IllegalAction(_expected(state, seat))


def _hand_hint(state, seat: int) -> str:
    try:
        hand = state.view(seat).get("hand") or []
    except Exception:  # a seat outside the game: no hint
        return ""
    return (" " + _("You hold: {cards}.", cards=" ".join(hand))) if hand else ""


def _expected(state, seat: int) -> str:
    phase = getattr(state, "phase", "play")
    if phase == "pick":
        return _("Pick {n} cards of the trick, like `pick {cards}`.", n=state.h,
                 cards=" ".join(c for _seat, c in state.view(None)["trick"][:state.h]))
    if phase == "hide":
        return _("Choose two colours to hide, like `hide B Y` (R, G, B or Y).")
    return _("Play a card like `R14` or `G3`.") + _hand_hint(state, seat)


def format_action(action: dict) -> str:
    kind = action.get("type")
    if kind == "play_card":
        return action["card"]
    if kind == "pick_cards":
        return "pick " + " ".join(action["cards"])
    if kind == "hide_colors":
        return "hide " + " ".join(action["colors"])
    raise IllegalAction(_("Unknown action type {kind}.", kind=repr(kind)))
