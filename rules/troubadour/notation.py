"""Typed moves (case-insensitive; suits as letters S H D C or symbols ♠ ♥ ♦ ♣):

``trio JC QC JH`` (or just the three nobles) · ``rps QH`` · ``flip`` · ``flip JC`` · ``extra`` · ``QHKH 7S`` ·
``7C castle`` · ``8H V4`` (a waste top or a run from another village) · ``JH 8H castle`` / ``JH 8H V2`` ·
``QH V2 1`` (village, position counted from the bottom, 1 = bottom card) · ``ace castle`` / ``ace keep`` ·
``JS P2 V3`` · ``QS P2`` · ``JQK P2 H`` (the spade trio against a castle) · ``end``.
With two players the target ``P2`` may be left out. The combinations may also be typed as their nobles
(``QH KH 7S``, ``JS QS KS P2 H``), an extra flip as ``QC`` / ``KC``.
"""
from __future__ import annotations

import re

from rules.api import IllegalAction
from rules.lang import _
from rules.troubadour.cards import NOBLE_INDEX, NOBLES, SUITS, card_of, name, normal, rps_example, trio_list

END_WORDS = {"end", "done", "end_turn", "endturn", "stop", "pass"}
FLIP_WORDS = {"flip", "f", "standard", "standard_flip", "draw"}
EXTRA_WORDS = {"extra", "x", "e", "extra_flip", "more"}
QK_WORDS = {"qhkh", "qk", "khqh", "name", "named", "hearts_qk"}
CASTLE_WORDS = {"castle", "c", "k", "castles"}
TRIO_ATTACK_WORDS = {"jqk", "spades", "jsqsks", "trio_attack", "sss"}
ACE_YES = {"castle", "c", "yes", "y", "start", "true"}
ACE_NO = {"keep", "no", "n", "stay", "leave", "false"}
EXAMPLES = "`7C castle`, `8H V4`, `flip`, `extra`, `JH 8H castle`, `QH V2 1`, `JS P2 V3`, `QS P2`, `end`"

_TOKEN = re.compile(r"[^\s,;:→>+-]+")


def tokens_of(text: str) -> list[str]:
    return _TOKEN.findall(normal(text or ""))


def _village(tok: str) -> int | None:
    t = tok[1:] if tok.startswith("v") else tok
    return int(t) if t.isdigit() and 1 <= int(t) <= 5 else None


def _target(state, seat: int, toks: list[str], example: str) -> tuple[str, list[str]]:
    """The opponent named by a ``P2`` token (or the only opponent) and the remaining tokens."""
    for i, t in enumerate(toks):
        if re.fullmatch(r"p\d", t):
            return t.upper(), toks[:i] + toks[i + 1:]
    n = getattr(state, "n", 2)
    if n == 2 and isinstance(seat, int) and 0 <= seat < 2:
        return f"P{2 - seat}", toks
    raise IllegalAction(_("Which opponent? Name the player number, e.g. `{example}`.", example=example))


def parse(state, seat: int, text: str) -> dict:
    toks = tokens_of(text)
    if not toks:
        raise IllegalAction(expected(state, seat))
    phase = getattr(state, "phase", "turn")
    head, rest = toks[0], toks[1:]
    if head == "trio" or (phase == "select_trios" and all(t.upper() in NOBLE_INDEX for t in toks)):
        return _trio(rest if head == "trio" else toks)
    if head in ("rps", "tiebreak", "tie") or (phase == "tiebreak" and len(toks) == 1):
        nobles = rest if head in ("rps", "tiebreak", "tie") else toks
        if len(nobles) != 1 or nobles[0].upper() not in NOBLE_INDEX:
            raise IllegalAction(_("Choose one noble that is not in your trio, e.g. `rps {noble}` (Queen beats Jack, "
                                  "King beats Queen, Jack beats King).", noble=_own_rps(state, seat)))
        return {"type": "choose_tiebreak_noble", "noble": nobles[0].upper()}
    if phase == "select_trios":
        raise IllegalAction(_("Choose your three nobles for this round, e.g. `trio JC QC JH`."))
    if head in END_WORDS and rest in ([], ["turn"]):
        return {"type": "end_turn"}
    if head in ("qc", "kc") and not rest:
        return {"type": "extra_flip"}
    if head in ("qh", "kh") and rest[:1] == [{"qh": "kh", "kh": "qh"}[head]]:
        head, rest = "qhkh", rest[1:]
    if head == "js" and rest[:2] == ["qs", "ks"]:
        head, rest = "jqk", rest[2:]
    if head in FLIP_WORDS:
        if not rest:
            return {"type": "standard_flip", "club_jack": False}
        if rest in (["jc"], ["club_jack"], ["jack"]):
            return {"type": "standard_flip", "club_jack": True}
        raise IllegalAction(_("`flip` makes the standard flip; `flip JC` extends it with J♣ until a card fits."))
    if head == "jc" and not rest:
        return {"type": "standard_flip", "club_jack": True}
    if head in EXTRA_WORDS and not rest:
        return {"type": "extra_flip"}
    if head in QK_WORDS:
        c = card_of(rest[0]) if len(rest) == 1 else None
        if c is None:
            raise IllegalAction(_("Name the card to flip to with Q♥+K♥, e.g. `QHKH 7S`."))
        return {"type": "hearts_queen_king_flip", "named_card": name(c)}
    if head == "ace":
        if len(rest) == 1 and rest[0] in ACE_YES:
            return {"type": "hearts_queen_ace", "start_castle": True}
        if len(rest) == 1 and rest[0] in ACE_NO:
            return {"type": "hearts_queen_ace", "start_castle": False}
        raise IllegalAction(_("Decide on the revealed ace: `ace castle` (start its castle) or `ace keep`."))
    if head == "jh":
        return _hearts_jack(rest)
    if head == "qh":
        nums = [t[1:] if t.startswith("v") else t for t in rest]
        if len(nums) == 2 and all(x.isdigit() for x in nums) and _village(nums[0]) is not None and int(nums[1]) >= 1:
            return {"type": "hearts_queen_reveal", "village": int(nums[0]), "position": int(nums[1]) - 1}
        raise IllegalAction(_("Q♥ turns one face-down card: village and position from the bottom (1 = bottom), "
                              "e.g. `QH V2 1`."))
    if head == "js":
        target, left = _target(state, seat, rest, "JS P2 V3")
        v = _village(left[0]) if len(left) == 1 else None
        if v is None:
            raise IllegalAction(_("J♠ clears one village of an opponent, e.g. `JS P2 V3`."))
        return {"type": "spade_jack_attack", "target": target, "village": v}
    if head == "qs":
        target, left = _target(state, seat, rest, "QS P2")
        if left:
            raise IllegalAction(_("Q♠ takes the top card of every village of one opponent, e.g. `QS P2`."))
        return {"type": "spade_queen_attack", "target": target}
    if head in TRIO_ATTACK_WORDS:
        target, left = _target(state, seat, rest, "JQK P2 H")
        if len(left) != 1 or left[0].upper() not in SUITS:
            raise IllegalAction(_("J♠+Q♠+K♠ destroys one castle: opponent and suit, e.g. `JQK P2 H`."))
        return {"type": "spade_trio_attack", "target": target, "suit": left[0].upper()}
    return _build(state, seat, toks)


def _trio(nobles: list[str]) -> dict:
    idx = [NOBLE_INDEX.get(t.upper()) for t in nobles]
    if len(idx) != 3 or None in idx or len(set(idx)) != 3:
        raise IllegalAction(_("Choose three different nobles of JS QS KS JD QD KD JC QC KC JH QH KH, e.g. `trio JC "
                              "QC JH`."))
    return {"type": "choose_trio", "nobles": [NOBLES[i] for i in sorted(idx)]}


def _hearts_jack(rest: list[str]) -> dict:
    if len(rest) == 2:
        c = card_of(rest[0])
        if c is not None:
            if rest[1] in CASTLE_WORDS:
                return {"type": "hearts_jack_move", "card": name(c), "destination": "castle"}
            v = _village(rest[1])
            if v is not None:
                return {"type": "hearts_jack_move", "card": name(c), "destination": v}
    raise IllegalAction(_("J♥ moves one face-up village card: card and destination, e.g. `JH 8H castle` or `JH 8H "
                          "V2`."))


def _build(state, seat: int, toks: list[str]) -> dict:
    cards = [c for c in (card_of(t) for t in toks) if c is not None]
    others = [t for t in toks if card_of(t) is None and t not in ("build", "to", "on", "onto")]
    if len(cards) == 2 and not others:
        raise IllegalAction(_("Name the village by its number (V1–V5), e.g. `{card} V4`; the castle as `{card} "
                              "castle`.", card=name(cards[0])))
    if len(cards) != 1:
        raise IllegalAction(_("I do not understand that. Moves look like {examples}.", examples=EXAMPLES))
    c = cards[0]
    if len(others) == 1 and others[0] in CASTLE_WORDS:
        return {"type": "build_castle", "card": name(c)}
    if len(others) == 1 and _village(others[0]) is not None:
        return {"type": "build_village", "card": name(c), "village": _village(others[0])}
    if not others and state is not None and hasattr(state, "legal_actions"):
        builds = [a for a in state.legal_actions(seat)
                  if a["type"] in ("build_castle", "build_village") and a["card"] == name(c)]
        if len(builds) == 1:
            return builds[0]
        if builds:
            raise IllegalAction(_("Where to? {moves}.", moves=", ".join(f"`{format_action(a)}`" for a in builds[:6])))
        raise IllegalAction(_("{card} cannot be built now. Say where, e.g. `{card} castle` or `{card} V2`.",
                              card=name(c)))
    raise IllegalAction(_("Say where {card} goes: `{card} castle` or a village like `{card} V2`.", card=name(c)))


def _own_rps(state, seat: int | None) -> str:
    """The tie-break example for ``seat``: a noble outside its own trio."""
    trios = getattr(state, "trios", None)
    return rps_example(trio_list(trios[seat]) if trios and seat is not None and 0 <= seat < len(trios) else None)


def expected(state, seat: int | None = None) -> str:
    phase = getattr(state, "phase", "turn")
    if phase == "select_trios":
        return _("Choose your three nobles, e.g. `trio JC QC JH`.")
    if phase == "tiebreak":
        return _("Choose a tie-break noble (not in your trio), e.g. `rps {noble}`.", noble=_own_rps(state, seat))
    return _("Type a move like {examples}.", examples=EXAMPLES)


def format_action(action: dict) -> str:
    kind = action.get("type")
    if kind == "choose_trio":
        return "trio " + " ".join(action["nobles"])
    if kind == "choose_tiebreak_noble":
        return "rps " + action["noble"]
    if kind == "standard_flip":
        return "flip JC" if action["club_jack"] else "flip"
    if kind == "extra_flip":
        return "extra"
    if kind == "hearts_queen_king_flip":
        return "QHKH " + action["named_card"]
    if kind == "build_castle":
        return action["card"] + " castle"
    if kind == "build_village":
        return f"{action['card']} V{action['village']}"
    if kind == "hearts_jack_move":
        d = action["destination"]
        return f"JH {action['card']} " + ("castle" if d == "castle" else f"V{d}")
    if kind == "hearts_queen_reveal":
        return f"QH V{action['village']} {action['position'] + 1}"
    if kind == "hearts_queen_ace":
        return "ace castle" if action["start_castle"] else "ace keep"
    if kind == "spade_jack_attack":
        return f"JS {action['target']} V{action['village']}"
    if kind == "spade_queen_attack":
        return f"QS {action['target']}"
    if kind == "spade_trio_attack":
        return f"JQK {action['target']} {action['suit']}"
    if kind == "end_turn":
        return "end"
    raise IllegalAction(_("Unknown action type {kind}.", kind=repr(kind)))
