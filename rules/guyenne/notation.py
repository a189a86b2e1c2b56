"""Typed moves: ``open 3 5 2``, ``respond 4 a``, ``reinforce 3 2``, ``pass``, ``reveal``, ``concede``, ``lose 2 2``,
``aside 4 3 2 2 A``. Cards are kinds (H hero, 5, 4, 3, T trebuchet, 2, A archer) or exact ids (``5a``, ``2c``, ``A3``)."""
from __future__ import annotations

from rules.api import IllegalAction
from rules.lang import N_, _
from rules.guyenne import cards as C

VERBS = {"open": "open", "o": "open", "attack": "open", "respond": "respond", "r": "respond", "answer": "respond",
         "reinforce": "reinforce", "add": "reinforce", "+": "reinforce", "pass": "pass", "p": "pass",
         "reveal": "reveal", "show": "reveal", "concede": "concede", "fold": "concede", "lose": "lose",
         "remove": "lose", "aside": "set_aside", "set": "set_aside", "give": "give",
         "direction": "direction", "dir": "direction", "go": "direction"}
WORDS = {"hero": "H", "trebuchet": "T", "treb": "T", "archer": "A", "archers": "A", "crossbow": "A",
         "crossbowman": "A", "crossbowmen": "A"}
EXAMPLES = ("open 3 5 2 · respond 4 A · reinforce 3 2 · pass · reveal · concede · lose 4 · aside 4 3 2 2 A · "
            "give 5 2 partner leads")


def _tokens_to_cards(tokens: list[str], pool: list[str], example: str = "open 3 5 2") -> list[str]:
    chosen: list[str] = []
    for token in tokens:
        exact = token[:1].upper() + token[1:].lower()
        if len(token) > 1 and C.is_card(exact):  # an exact card id (5a, 2c, A3)
            if exact not in pool or exact in chosen:
                raise IllegalAction(_("You cannot use {card} here. You hold: {cards}.", card=exact,
                                      cards=" ".join(pool) or _("nothing")))
            chosen.append(exact)
            continue
        kinds = WORDS.get(token.lower()) or token.upper()
        if not all(k in C.KINDS for k in kinds):
            raise IllegalAction(_("{token} is not a card. Cards: H (hero), 5, 4, 3, T (trebuchet), 2, A (archer); "
                                  "e.g. {example}.", token=repr(token), example=example))
        for k in kinds:
            card = next((c for c in pool if c[0] == k and c not in chosen), None)
            if card is None:
                raise IllegalAction(_("You have no more {card} to use here. You hold: {cards}.", card=_(C.NAMES[k]),
                                      cards=" ".join(C.label(c) for c in pool) or _("nothing")))
            chosen.append(card)
    if not chosen:
        raise IllegalAction(_("Name the cards too, e.g. {example}.", example=example))
    return C.order(chosen)


def _castle(word: str) -> int:
    if not word.isdigit() or not 1 <= int(word) <= 12:
        raise IllegalAction(_("{word} is not a castle: they are numbered from 1 (1 to 6 in a duel), e.g. open 3 5 "
                              "2.", word=repr(word)))
    return int(word)


def parse(state, seat: int, text: str) -> dict:
    words = (text or "").replace(",", " ").split()
    if words[:2] and words[0].lower() == "set" and len(words) > 1 and words[1].lower() == "aside":
        words = ["aside"] + words[2:]
    if not words or words[0].lower() not in VERBS:
        raise IllegalAction(_("Unknown move {text}. Moves: {examples}.",
                              text=repr((text or '').strip()[:40]), examples=EXAMPLES))
    verb, rest = VERBS[words[0].lower()], words[1:]
    hand = state.hands[seat] if isinstance(seat, int) and 0 <= seat < len(state.hands) else []
    if verb in ("pass", "reveal", "concede"):
        if rest:
            raise IllegalAction(_("{verb} takes nothing else: just {verb}.", verb=verb))
        return {"type": verb}
    if verb == "set_aside":
        kinds = [k for token in rest for k in (WORDS.get(token.lower()) or token.upper())]
        if not kinds or not all(k in C.KINDS[1:] for k in kinds):
            raise IllegalAction(_("Set aside five troop cards (not the hero) — 5, 4, 3, T, 2 or A — e.g. "
                                  "aside 4 3 2 2 A."))
        return {"type": "set_aside", "cards": sorted(kinds, key=C.KINDS.index)}
    if verb == "open" or verb == "reinforce":
        if not rest:
            raise IllegalAction(_("Name the castle and the cards, e.g. {verb} 3 5 2.", verb=verb))
        castle = _castle(rest[0])
        return {"type": verb, "castle": castle, "cards": _tokens_to_cards(rest[1:], hand, f"{verb} {castle} 5 2")}
    if verb == "direction":
        if len(rest) != 1 or rest[0].lower() not in ("left", "right", "l", "r"):
            raise IllegalAction(_("Choose the direction of the round: direction left, or direction right."))
        return {"type": "direction", "way": "left" if rest[0].lower() in ("left", "l") else "right"}
    if verb == "give":
        who = None
        if len(rest) >= 2 and rest[-1].lower() in ("leads", "lead", "leader"):
            who = {"me": "me", "i": "me", "self": "me", "partner": "partner"}.get(rest[-2].lower())
        if who is None:
            raise IllegalAction(_("Say who leads this round at the end: give 5 2 partner leads (or: me leads)."))
        cards = _tokens_to_cards(rest[:-2], hand, "give 5 2 partner leads") if rest[:-2] else []
        return {"type": "give", "cards": cards, "leader": who}
    if verb == "respond":
        return {"type": "respond", "cards": _tokens_to_cards(rest, hand, "respond 4 2")}
    fights = getattr(state, "fights", [])
    pool = fights[state.fight_index]["cards"][state.army_of[seat]] if state.phase == "losses" and fights and hand \
        is not None and 0 <= seat < len(state.hands) else []
    return {"type": "lose", "cards": _tokens_to_cards(rest, pool, "lose 4")}


def format_action(action: dict) -> str:
    kind = action.get("type")
    cards = " ".join(action.get("cards") or [])
    if kind in ("open", "reinforce"):
        return f"{kind} {action['castle']} {cards}"
    if kind in ("respond", "lose"):
        return f"{kind} {cards}"
    if kind == "set_aside":
        return f"aside {cards}"
    if kind == "give":
        return " ".join(["give", *action["cards"], action["leader"], "leads"])
    if kind == "direction":
        return f"direction {action['way']}"
    return str(kind)


def describe(action: dict) -> str:
    """A button label: kinds only (``Open 3: 5 4 2``)."""
    kind = action.get("type")
    cards = " ".join(C.label(c) for c in action.get("cards") or [])
    if kind == "open":
        return _("Castle {castle}: {cards}", castle=action['castle'], cards=cards)
    if kind == "reinforce":
        return f"+{action['castle']}: {cards}"
    if kind == "respond":
        return _("Answer: {cards}", cards=cards)
    if kind == "lose":
        return _("Lose {cards}", cards=cards)
    if kind == "set_aside":
        return _("Set aside {cards}", cards=cards)
    if kind == "direction":
        return _("Go left ↺") if action["way"] == "left" else _("Go right ↻")
    if kind == "give":
        if action['leader'] == 'me':
            return _("Give {cards} · I lead", cards=cards or _("nothing"))
        return _("Give {cards} · partner leads", cards=cards or _("nothing"))
    return _(SIMPLE[kind]) if kind in SIMPLE else str(kind)


SIMPLE = {"pass": N_("Pass"), "reveal": N_("Reveal"), "concede": N_("Concede")}
