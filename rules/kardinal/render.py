"""Chat text of a Kardinal view: the town as a lettered grid, supplies, stones, and whose turn it is."""
from __future__ import annotations

from rules.api import Event
from rules.kardinal.geometry import COLOURS, KIND_LETTER, KINDS, LETTER, MARKS, col_label, parse_label, xy

MARK = dict(zip(COLOURS, MARKS))
CARDINAL = "☩"  # the Cardinal on the grid: not a letter, so it never reads as column K


HELP = """Kardinal in short: build one building each turn next to the town (a `+` site), never next to the same shape
or colour, never the shape or colour just built; every coloured building you touch gives you a stone.
Then move the Cardinal (☩), which blocks a site, or leave it. The menu asks the site, then the building."""

# how equal results are placed (Game.tie_rule), and what a score counts (Game.score_unit)
TIE_RULE = ("Equal scores: more own buildings touching the Dom wins; still equal: a shared place.")
SCORE_UNIT = "point"


def seat(s: int | None) -> str:
    return "nobody" if s is None else f"{{P{s + 1}}}"


def colour(c: str) -> str:
    return f"{MARK[c]} {c}"


def _xy(text: str) -> tuple[int, int]:
    return xy(parse_label(text))


def grid(view: dict) -> list[str]:
    """The town, top row first: ``rH`` a red house, ``DT``/``DN`` the Dom, ``☩`` the Cardinal, ``+`` a site where the
    player to move can build, ``.`` any other building site."""
    cells: dict[tuple[int, int], str] = {}
    t, n = view["dom"]
    cells[_xy(t)] = "DT"
    cells[_xy(n)] = "DN"
    for piece in view["pieces"]:
        mark = LETTER[COLOURS.index(piece["color"])] + KIND_LETTER[KINDS.index(piece["kind"])]
        for c in piece["cells"]:
            cells[_xy(c)] = mark
    buildable = set(view.get("build_sites") or [])
    for s in view["sites"]:
        cells[_xy(s)] = "+" if s in buildable else "."
    if view["cardinal"]:
        cells[_xy(view["cardinal"])] = CARDINAL
    xs = [p[0] for p in cells]
    ys = [p[1] for p in cells]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    heads = [col_label(x) for x in range(x0, x1 + 1)]
    width = max(3, max(len(h) for h in heads) + 1)
    rlen = max(len(str(y + 13)) for y in range(y0, y1 + 1))
    lines = [" " * rlen + "".join(h.rjust(width) for h in heads)]
    for y in range(y1, y0 - 1, -1):
        row = "".join(cells.get((x, y), "").rjust(width) for x in range(x0, x1 + 1))
        lines.append(str(y + 13).rjust(rlen) + row.rstrip())
    return lines


def _left(view: dict, c: str) -> str:
    counts = view["buildings"][c]
    return " ".join(f"{counts[k]}{k[0].upper()}" for k in KINDS)


def _stones(stones: dict) -> str:
    held = [f"{MARK[c]}{k}" for c, k in stones.items() if k]
    return " ".join(held) if held else "none"


def _ex(view: dict, default: str) -> str:
    return (view.get("examples") or [default])[0]


def render(view: dict) -> str:
    """The table's board (``viewer`` None); a player's own view is short (``_private``): Kardinal hides nothing,
    so repeating the board there would only double it."""
    if view.get("viewer") is not None:
        return _private(view)
    phase = view["phase"]
    lines = []
    if phase == "over":
        lines.append("Kardinal · game over")
    else:
        lines.append(f"Kardinal · {seat(view['current'])} to play · start player {seat(view['start_player'])}")
    lines.append("```")
    lines += grid(view)
    lines.append("```")
    plus = f"+ {seat(view['current'])} can build here · . other site" if phase == "build" else ". site"
    lines.append(f"DT/DN Dom (tower/nave) · r y g b colour, H house T tower C courtyard · ☩ Cardinal · {plus}")
    for p, cs in enumerate(view["colours"]):
        own = ", ".join(f"{colour(c)} {_left(view, c)}" for c in cs)
        lines.append(f"{seat(p)} {own} · stones {_stones(view['stones'][p])} · score {view['scores'][p]}")
    if view["shared"]:
        lines.append(f"Shared {colour(view['shared'])} {_left(view, view['shared'])} (its stones count for nobody)")
    lines.append("Stone supply: " + " ".join(f"{MARK[c]}{k}" for c, k in view["stone_supply"].items()) +
                 " · Cardinal: " + (view["cardinal"] or "not yet in play"))
    last = view["last_built"]
    if last:
        lines.append(f"Last built: {colour(last['color'])} {last['kind']} → next not a {last['kind']}, "
                     f"not {last['color']}.")
    if phase == "over":
        lines.append("Final account (stones + own leftovers, best colour doubled; Dom = tie-break):")
        lines += [account(p, s, *_final(view, p), view["dom_touches"][p]) for p, s in enumerate(view["scores"])]
        lines.append(_winners(view))
    else:
        lines += _prompt(view)
    return "\n".join(lines)


def _winners(view: dict) -> str:
    winners = [p for p, r in enumerate(view["ranking"]) if r == 1]
    return "🏆 " + " and ".join(seat(p) for p in winners) + (" win!" if len(winners) > 1 else " wins!")


def _private(view: dict) -> str:
    """A player's own view: their colours and stones, what the last building forbids, the Cardinal and the
    choice; the town itself is the table's board (``board``). At the end: the winner (the final account is told
    by the game's last line)."""
    me, phase = view["viewer"], view["phase"]
    if phase == "over":
        return "Kardinal · game over · " + _winners(view)
    lines = [f"Kardinal · {seat(view['current'])} to play · the town: the table's board (/board)"]
    own = ", ".join(f"{colour(c)} {_left(view, c)}" for c in view["colours"][me])
    lines.append(f"{seat(me)} {own} · stones {_stones(view['stones'][me])} · score {view['scores'][me]}")
    last = view["last_built"]
    if last:
        lines.append(f"Last built: {colour(last['color'])} {last['kind']} → next not a {last['kind']}, "
                     f"not {last['color']}.")
    lines.append("Cardinal: " + (view["cardinal"] or "not yet in play"))
    if me == view["current"]:
        lines += _prompt(view)
    return "\n".join(lines)


def _prompt(view: dict) -> list[str]:
    """What the player to move may do, with typed examples."""
    phase, who = view["phase"], seat(view["current"])
    lines = []
    if phase == "build":
        sites = view.get("build_sites") or []
        shown = " ".join(sites[:16]) + (" …" if len(sites) > 16 else "")
        lines.append(f"{who} must build. Possible sites: {shown}")
        lines.append("Type site, colour, shape (a courtyard also names its 2nd cell), e.g. " +
                     ", ".join(f"/move {e}" for e in view.get("examples") or ["M14 red house"]) + ".")
    elif phase == "bonus":
        lines.append(f"{who} takes a free point stone of any colour: /move bonus blue")
    elif phase == "place_cardinal":
        lines.append(f"{who} puts the Cardinal on a building site: /move {_ex(view, 'cardinal N12')}")
    else:
        lines.append(f"{who} may move the Cardinal to another site (/move {_ex(view, 'cardinal N12')}) or leave "
                     "it (/move stay).")
    return lines


def _final(view: dict, p: int) -> tuple[dict, str | None, dict]:
    """Rules 5.2 from the view: own colours take the leftover supply, the shared colour counts nothing."""
    own, supply = view["colours"][p], view["stone_supply"]
    fin = {c: k + (supply[c] if c in own else 0) for c, k in view["stones"][p].items()}
    if view["shared"]:
        fin[view["shared"]] = 0
    best = max(fin.values())
    doubled = next(c for c in COLOURS if fin[c] == best) if best else None
    return ({c: k for c, k in fin.items() if k}, doubled, {c: supply[c] for c in own if supply[c]})


def account(p: int, score: int, final: dict, doubled: str | None, leftover: dict, dom: int) -> str:
    """``{P1} 26 = 🟥7×2 🟨5 🟩4 🟦3 (🟥7 from the supply) · Dom 1``."""
    parts = ([f"{MARK[doubled]}{final[doubled]}×2"] if doubled else []) + [
        f"{MARK[c]}{k}" for c, k in final.items() if c != doubled]
    took = f" ({' '.join(f'{MARK[c]}{k}' for c, k in leftover.items())} from the supply)" if leftover else ""
    return f"{seat(p)} {score} = {' '.join(parts) or '0'}{took} · Dom {dom}"


def describe_event(event: Event) -> str | None:
    d = event.data
    kind = event.kind
    if kind == "built":
        where = "+".join(d["cells"])
        got = (": +" + " ".join(MARK[c] for c in d["stones"]) + (" stone" if len(d["stones"]) == 1 else " stones")) \
            if d["stones"] else ""
        return f"{seat(d['seat'])} builds a {colour(d['color'])} {d['kind']} at {where}{got}."
    if kind == "bonus_stone":
        return f"{seat(d['seat'])} takes a free {colour(d['color'])} stone."
    if kind == "cardinal_placed":
        return f"{seat(d['seat'])} puts the Cardinal on {d['site']}."
    if kind == "cardinal_moved":
        return f"{seat(d['seat'])} moves the Cardinal {d['from']} → {d['site']}."
    if kind == "cardinal_stays":
        return f"{seat(d['seat'])} leaves the Cardinal on {d['site']}."
    if kind == "skipped":
        return f"{seat(d['seat'])} has no buildings left and is skipped."
    if kind == "passed":
        return f"{seat(d['seat'])} cannot build anywhere and passes."
    if kind == "game_over":
        return "\n".join(["Nobody can build any more: game over."] + [
            account(p, s, d["final"][p], d["doubled"][p], d["leftover"][p], d["dom"][p])
            for p, s in enumerate(d["scores"])])
    return None


def describe_action(action: dict) -> str:
    kind = action.get("type")
    if kind == "build":
        parts = action["building"].split()
        cells = action["site"] + ("+" + parts[2] if len(parts) > 2 else "")
        return f"{cells}: {MARK.get(parts[0], '')} {parts[0]} {parts[1]}"
    if kind == "bonus_stone":
        return f"Free stone {colour(action['color'])}"
    if kind in ("place_cardinal", "move_cardinal"):
        return f"Cardinal → {action['site']}"
    if kind == "end_turn":
        return "Leave the Cardinal"
    if kind == "pass_turn":
        return "Pass"
    return str(kind)


TYPE_CHOICES = {"build": "Build", "bonus_stone": "Free stone", "place_cardinal": "Place the Cardinal",
                "move_cardinal": "Move the Cardinal", "end_turn": "Leave the Cardinal", "pass_turn": "Pass"}


def describe_choice(key: str, value) -> str | None:
    if key == "type":
        return TYPE_CHOICES.get(value)
    if key == "building":
        parts = value.split()
        return f"{MARK.get(parts[0], '')} {parts[0]} {parts[1]}" + (f" + {parts[2]}" if len(parts) > 2 else "")
    if key == "color":
        return colour(value)
    return None
