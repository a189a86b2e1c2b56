"""Typed moves: ``M14 red house`` / ``m14 rh``, ``M14 red courtyard N14`` / ``m14 n14 gc`` / ``m14 gc east``,
``bonus blue``, ``cardinal N12`` (place or move), ``stay`` (leave the Cardinal), ``pass`` (refused: passes are
automatic)."""
from __future__ import annotations

import re

from rules.api import IllegalAction
from rules.lang import _, colour_aliases, translate
from rules.kardinal.geometry import (COLOURS, COURT, EAST, HOUSE, LETTER, NORTH, SOUTH, TOWER, WEST,
                                     building_text, label, parse_label)
from rules.kardinal.names import COLOUR_NAMES, KIND_NAMES

# local aliases (issue 26): the colours, shapes and directions in Dutch, German and French, as whole words only —
# Dutch initials would clash (geel/groen, huis/hof), so the one-letter codes stay English (r y g b, h t c).
_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
COLOUR_WORDS = {**_COLOUR_INDEX, **{LETTER[i]: i for i in range(4)}, **colour_aliases(_COLOUR_INDEX)}
KIND_WORDS = {"house": HOUSE, "h": HOUSE, "haus": HOUSE, "tower": TOWER, "t": TOWER, "turm": TOWER,
              "courtyard": COURT, "court": COURT, "yard": COURT, "c": COURT, "hof": COURT,
              "huis": HOUSE, "toren": TOWER, "maison": HOUSE, "tour": TOWER, "cour": COURT}
DIRECTIONS = {"north": NORTH, "up": NORTH, "east": EAST, "right": EAST, "south": SOUTH, "down": SOUTH,
              "west": WEST, "left": WEST, "noord": NORTH, "oost": EAST, "zuid": SOUTH, "nord": NORTH, "est": EAST,
              "sud": SOUTH, "ouest": WEST, "norden": NORTH, "osten": EAST, "süden": SOUTH, "westen": WEST}
CARDINAL_WORDS = {"cardinal", "k", "kardinal", "move", "place", "kardinaal"}
STAY_WORDS = {"stay", "end", "done", "keep", "leave", "ok", "end_turn", "blijf", "bleiben", "rester"}
BONUS_WORDS = {"bonus", "stone", "bonus_stone", "steen", "stein", "pierre"}

_TOKEN = re.compile(r"[a-zäöüß_]+-?\d+|[a-zäöüß_]+")
_CELL = re.compile(r"^[a-z]+-?\d+$")


def local_move(text: str) -> str:
    """A build in notation with its colour and shape in the reader's words where the notation reads those words
    (``L13 yellow house`` → ``L13 geel huis`` in Dutch; a word it would not read stays English): examples in the
    reader's language that still parse (issue 26, item 4)."""
    out = []
    for word in text.split(" "):
        names = COLOUR_NAMES if word in COLOUR_NAMES else KIND_NAMES if word in KIND_NAMES else None
        local = translate(names[word]).lower() if names else word
        out.append(local if names and local in (COLOUR_WORDS if names is COLOUR_NAMES else KIND_WORDS) else word)
    return " ".join(out)


def _example(state, seat: int) -> str:
    if state is not None and getattr(state, "phase", None) == "build" and seat == state.current:
        return state._example()
    return f"`{local_move('M14 red house')}`"


def parse(state, seat: int, text: str) -> dict:
    tokens = _TOKEN.findall((text or "").strip().lower())
    if not tokens:
        raise IllegalAction(_expected(state, seat))
    cells = [t for t in tokens if _CELL.match(t)]
    words = [t for t in tokens if not _CELL.match(t)]
    if words and words[0] == "build" or words[:1] == ["move"] and len(words) > 1:
        words = words[1:]  # "build …" and a copied "move …" (from "/move …") add nothing
    phase = getattr(state, "phase", "build")
    if words == ["pass"] or words == ["pass_turn"]:
        return {"type": "pass_turn"}
    if words and words[0] in STAY_WORDS and not cells and len(words) == 1:
        return {"type": "end_turn"}
    if words and words[0] in BONUS_WORDS or (phase == "bonus" and not cells and len(words) == 1):
        rest = [w for w in words if w not in BONUS_WORDS]
        if len(rest) != 1 or rest[0] not in COLOUR_WORDS or cells:
            raise IllegalAction(_("Name the colour of the free stone, like `bonus blue`."))
        return {"type": "bonus_stone", "color": COLOURS[COLOUR_WORDS[rest[0]]]}
    if (words and words[0] in CARDINAL_WORDS) or (phase in ("place_cardinal", "cardinal") and not words):
        if len(cells) != 1 or any(w not in CARDINAL_WORDS for w in words):
            raise IllegalAction(_("Name one building site for the Cardinal, like `cardinal N12`."))
        c = parse_label(cells[0])
        if c is None:
            raise IllegalAction(_("{cell} is not a cell: cells look like N12 (column, row).",
                                  cell=cells[0].upper()))
        kind = "place_cardinal" if phase == "place_cardinal" else "move_cardinal"
        return {"type": kind, "site": label(c)}
    return _parse_build(state, seat, cells, words)


def _parse_build(state, seat: int, cells: list[str], words: list[str]) -> dict:
    colour = kind = direction = None
    for w in words:
        if w in COLOUR_WORDS and colour is None:
            colour = COLOUR_WORDS[w]
        elif w in KIND_WORDS and kind is None:
            kind = KIND_WORDS[w]
        elif w in DIRECTIONS and direction is None:
            direction = DIRECTIONS[w]
        elif len(w) == 2 and w[0] in LETTER and w[1] in "htc" and colour is None and kind is None:
            colour, kind = LETTER.index(w[0]), "htc".index(w[1])
        else:
            raise IllegalAction(_("I do not understand {word}.", word=repr(w)) + " " + _expected(state, seat))
    if not cells:
        raise IllegalAction(_("Name the building site, e.g. {example}.", example=_example(state, seat)))
    if len(cells) > 2:
        raise IllegalAction(_("A building covers one cell (two for a courtyard), e.g. `M14 red courtyard N14`."))
    parsed = []
    for t in cells:
        c = parse_label(t)
        if c is None:
            raise IllegalAction(_("{cell} is not a cell: cells look like M14 (column letter, row number).",
                                  cell=t.upper()))
        parsed.append(c)
    if kind is None:
        if len(parsed) == 2 or direction is not None:
            kind = COURT
        else:
            raise IllegalAction(_("Which building? Say house, tower or courtyard, e.g. {example}.",
                                  example=_example(state, seat)))
    if colour is None:
        usable = []
        if state is not None and 0 <= seat < getattr(state, "n", 0):
            usable = [c for c in state.usable[seat] if state.supply[c][kind] > 0] or list(state.usable[seat])
        if len(usable) != 1:
            raise IllegalAction(_("Which colour? e.g. {example}.", example=_example(state, seat)))
        colour = usable[0]
    if kind != COURT:
        if len(parsed) != 1 or direction is not None:
            if kind == HOUSE:
                raise IllegalAction(_("A house covers one cell, e.g. `M14 red house`."))
            raise IllegalAction(_("A tower covers one cell, e.g. `M14 red tower`."))
        return {"type": "build", "site": label(parsed[0]), "building": building_text(colour, kind)}
    if len(parsed) == 1:
        if direction is None:
            raise IllegalAction(_("A courtyard covers two cells: name both or a direction, e.g. `M14 red courtyard "
                                  "N14` or `M14 red courtyard east`."))
        parsed.append(parsed[0] + direction)
    elif direction is not None:
        raise IllegalAction(_("Name the courtyard's second cell or a direction, not both."))
    site, other = parsed
    sites = getattr(state, "sites", None)
    if sites is not None and site not in sites and other in sites:
        site, other = other, site
    return {"type": "build", "site": label(site), "building": building_text(colour, COURT, other)}


def _expected(state, seat: int) -> str:
    phase = getattr(state, "phase", "build")
    if phase == "bonus":
        return _("Take your free stone, like `bonus blue`.")
    if phase == "place_cardinal":
        return _("Put the Cardinal on a building site, like `cardinal N12`.")
    if phase == "cardinal":
        return _("Move the Cardinal, like `cardinal N12`, or leave it with `stay`.")
    return _("Build like {example} (site, colour, shape; a courtyard also names its second cell, e.g. `M14 red "
             "courtyard N14`).", example=_example(state, seat))


def format_action(action: dict) -> str:
    kind = action.get("type")
    if kind == "build":
        return f"{action['site']} {action['building']}"
    if kind == "bonus_stone":
        return "bonus " + action["color"]
    if kind in ("place_cardinal", "move_cardinal"):
        return "cardinal " + action["site"]
    if kind == "end_turn":
        return "stay"
    if kind == "pass_turn":
        return "pass"
    raise IllegalAction(_("Unknown action type {kind}.", kind=repr(kind)))
