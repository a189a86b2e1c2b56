"""Chat text of a Kardinal view: the town as a lettered grid, supplies, stones, and whose turn it is."""
from __future__ import annotations

from rules.api import Event
from rules.lang import N_, _, mine, ngettext, places, translate
from rules.kardinal.geometry import COLOURS, KIND_LETTER, KINDS, LETTER, MARKS, col_label, parse_label, xy
from rules.kardinal.names import BUILDINGS, COLOUR_NAMES, KIND_NAMES
from rules.kardinal.notation import local_move

MARK = dict(zip(COLOURS, MARKS))
CARDINAL = "☩"  # the Cardinal on the grid: not a letter, so it never reads as column K


HELP = N_("""Kardinal in short: build one building each turn next to the town (a `+` site), never next to the same shape
or colour, never the shape or colour just built; every coloured building you touch gives you a stone.
Then move the Cardinal (☩), which blocks a site, or leave it. The menu asks the site, then the building.
On the board: DT/DN the Dom (tower/nave); a building is its colour r y g b and its shape, H house, T tower,
C courtyard (rH a red house); `.` another building site. Type a build as site, colour, shape (a courtyard also
names its 2nd cell), e.g. /move L13 green house.""")

# how equal results are placed (Game.tie_rule), and what a score counts (Game.score_unit)
TIE_RULE = N_("Equal scores: more own buildings touching the Dom wins; still equal: a shared place.")
SCORE_UNIT = "point"


def seat(s: int | None) -> str:
    return _("nobody") if s is None else f"{{P{s + 1}}}"


def colour(c: str) -> str:
    return f"{MARK[c]} {_(COLOUR_NAMES[c]) if c in COLOUR_NAMES else c}"


def building(c: str, kind: str, article: bool = False) -> str:
    """``🟥 red house`` (``a 🟥 red house`` with the article), in the reader's language."""
    names, mark = BUILDINGS.get((c, kind)), MARK.get(c, "")
    if article:
        return _(names[1], mark=mark) if names else f"a {mark} {c} {kind}"
    return f"{mark} " + (_(names[0]) if names else f"{c} {kind}")


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
    return " ".join(held) if held else _("none")


def _ex(view: dict, default: str) -> str:
    return (view.get("examples") or [default])[0]


def board(view: dict) -> str:
    """The table's board (``viewer`` None); a player's own view is short (``_private``): Kardinal hides nothing,
    so repeating the board there would only double it."""
    if view.get("viewer") is not None:
        return _private(view)
    phase = view["phase"]
    lines = []
    if phase == "over":
        lines.append("Kardinal · " + _("game over"))
    else:
        lines.append("Kardinal · " + _("{who} to play · start player {start}", who=seat(view['current']),
                                       start=seat(view['start_player'])))
    lines.append("```")
    lines += grid(view)
    lines.append("```")
    if young(view):  # the legend teaches the first round; later it is in /help (a turn message stays short)
        if phase == "build":
            plus = mine(view['current'], N_("+ {who} can build here · . other site"),
                        N_("+ you can build here · . other site"))
        else:
            plus = _(". site")
        lines.append(_("DT/DN Dom (tower/nave) · r y g b colour, H house T tower C courtyard · ☩ Cardinal · {plus}",
                       plus=plus))
    for p, cs in enumerate(view["colours"]):
        own = ", ".join(f"{colour(c)} {_left(view, c)}" for c in cs)
        lines.append(f"{seat(p)} {own} · " + _("stones {stones} · score {score}", stones=_stones(view['stones'][p]),
                                                score=view['scores'][p]))
    if view["shared"]:
        lines.append(_("Shared {colour} {left} (its stones count for nobody)", colour=colour(view['shared']),
                       left=_left(view, view['shared'])))
    lines.append(_("Stone supply:") + " " + " ".join(f"{MARK[c]}{k}" for c, k in view["stone_supply"].items()) +
                 " · " + _("Cardinal:") + " " + (view["cardinal"] or _("not yet in play")) +
                 "".join(" · " + line for line in _last_built(view)))  # one line: a turn message stays short
    if phase == "over":
        lines.append(_("Final account (stones + own leftovers, best colour doubled; Dom = tie-break):"))
        lines += [account(p, s, *_final(view, p), view["dom_touches"][p]) for p, s in enumerate(view["scores"])]
        lines.append(_winners(view))
    else:
        lines += _prompt(view)
    return "\n".join(lines)


def young(view: dict) -> bool:
    """The first round (fewer buildings than players): the board then shows its legend and how to type a
    build; from the second round on they are in /help, and a turn message is the town and the choice."""
    return len(view["pieces"]) < view["players"] and view["phase"] != "over"


def _last_built(view: dict) -> list[str]:
    last = view["last_built"]
    if not last:
        return []
    return [_("Last built: {building} → next not a {kind}, not {colour}.", building=building(last['color'], last['kind']),
              kind=translate(KIND_NAMES.get(last['kind'], last['kind'])),
              colour=translate(COLOUR_NAMES.get(last['color'], last['color'])))]


def _winners(view: dict) -> str:
    winners = [p for p, r in enumerate(places(view)) if r == 1]
    if len(winners) > 1:
        return "🏆 " + _("{winners} win!", winners=_(" and ").join(seat(p) for p in winners))
    return "🏆 " + mine(winners[0], N_("{who} wins!"), N_("You win!"))


def _private(view: dict) -> str:
    """A player's own view: their colours and stones, what the last building forbids, the Cardinal and the
    choice; the town itself is the table's board (``board``). At the end: the winner (the final account is told
    by the game's last line)."""
    me, phase = view["viewer"], view["phase"]
    if phase == "over":
        return "Kardinal · " + _("game over") + " · " + _winners(view)
    lines = ["Kardinal · " + _("{who} to play · the town: the table's board (/board)", who=seat(view['current']))]
    own = ", ".join(f"{colour(c)} {_left(view, c)}" for c in view["colours"][me])
    lines.append(f"{seat(me)} {own} · " + _("stones {stones} · score {score}", stones=_stones(view['stones'][me]),
                                             score=view['scores'][me]))
    lines += _last_built(view)
    lines.append(_("Cardinal:") + " " + (view["cardinal"] or _("not yet in play")))
    if me == view["current"]:
        lines += _prompt(view)
    return "\n".join(lines)


def _prompt(view: dict) -> list[str]:
    """What the player to move may do, with typed examples."""
    phase, current = view["phase"], view["current"]
    lines = []
    if phase == "build":
        sites = view.get("build_sites") or []
        shown = " ".join(sites[:16]) + (" …" if len(sites) > 16 else "")
        lines.append(mine(current, N_("{who} must build. Possible sites: {sites}"),
                          N_("You must build. Possible sites: {sites}"), sites=shown))
        if young(view):
            lines.append(_("Type site, colour, shape (a courtyard also names its 2nd cell), e.g. {examples}.",
                           examples=", ".join(f"/move {local_move(e)}"
                                              for e in view.get("examples") or ["M14 red house"])))
    elif phase == "bonus":
        lines.append(mine(current, N_("{who} takes a free point stone of any colour: /move bonus blue"),
                          N_("You take a free point stone of any colour: /move bonus blue")))
    elif phase == "place_cardinal":
        lines.append(mine(current, N_("{who} puts the Cardinal on a building site: /move {example}"),
                          N_("You put the Cardinal on a building site: /move {example}"),
                          example=_ex(view, 'cardinal N12')))
    else:
        lines.append(mine(current, N_("{who} may move the Cardinal to another site (/move {example}) or leave it "
                                      "(/move stay)."),
                          N_("You may move the Cardinal to another site (/move {example}) or leave it (/move stay)."),
                          example=_ex(view, 'cardinal N12')))
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
    took = " " + _("({stones} from the supply)", stones=' '.join(f'{MARK[c]}{k}' for c, k in leftover.items())) \
        if leftover else ""
    return f"{seat(p)} {score} = {' '.join(parts) or '0'}{took} · Dom {dom}"


def describe_event(event: Event) -> str | None:
    d = event.data
    kind = event.kind
    who = d.get("seat")
    if kind == "built":
        where = "+".join(d["cells"])
        what = building(d['color'], d['kind'], article=True)
        if d["stones"]:
            got = ngettext("+{marks} stone", "+{marks} stones", len(d["stones"]),
                           marks=" ".join(MARK[c] for c in d["stones"]))
            return mine(who, N_("{who} builds {building} at {cells}: {stones}."),
                        N_("You build {building} at {cells}: {stones}."), building=what, cells=where, stones=got)
        return mine(who, N_("{who} builds {building} at {cells}."), N_("You build {building} at {cells}."),
                    building=what, cells=where)
    if kind == "bonus_stone":
        return mine(who, N_("{who} takes a free {colour} stone."), N_("You take a free {colour} stone."),
                    colour=colour(d['color']))
    if kind == "cardinal_placed":
        return mine(who, N_("{who} puts the Cardinal on {site}."), N_("You put the Cardinal on {site}."),
                    site=d['site'])
    if kind == "cardinal_moved":
        return mine(who, N_("{who} moves the Cardinal {start} → {site}."), N_("You move the Cardinal {start} → {site}."),
                    start=d['from'], site=d['site'])
    if kind == "cardinal_stays":
        return mine(who, N_("{who} leaves the Cardinal on {site}."), N_("You leave the Cardinal on {site}."),
                    site=d['site'])
    if kind == "skipped":
        return mine(who, N_("{who} has no buildings left and is skipped."),
                    N_("You have no buildings left and are skipped."))
    if kind == "passed":
        return mine(who, N_("{who} cannot build anywhere and passes."), N_("You cannot build anywhere and pass."))
    if kind == "game_over":
        return "\n".join([_("Nobody can build any more: game over.")] + [
            account(p, s, d["final"][p], d["doubled"][p], d["leftover"][p], d["dom"][p])
            for p, s in enumerate(d["scores"])])
    return None


def describe_action(action: dict) -> str:
    kind = action.get("type")
    if kind == "build":
        parts = action["building"].split()
        cells = action["site"] + ("+" + parts[2] if len(parts) > 2 else "")
        return f"{cells}: {building(parts[0], parts[1])}"
    if kind == "bonus_stone":
        return _("Free stone {colour}", colour=colour(action['color']))
    if kind in ("place_cardinal", "move_cardinal"):
        return _("Cardinal → {site}", site=action['site'])
    if kind == "end_turn":
        return _("Leave the Cardinal")
    if kind == "pass_turn":
        return _("Pass")
    return str(kind)


TYPE_CHOICES = {"build": N_("Build"), "bonus_stone": N_("Free stone"), "place_cardinal": N_("Place the Cardinal"),
                "move_cardinal": N_("Move the Cardinal"), "end_turn": N_("Leave the Cardinal"), "pass_turn": N_("Pass")}


def describe_choice(key: str, value) -> str | None:
    if key == "type":
        return _(TYPE_CHOICES[value]) if value in TYPE_CHOICES else None
    if key == "building":
        parts = value.split()
        return building(parts[0], parts[1]) + (f" + {parts[2]}" if len(parts) > 2 else "")
    if key == "color":
        return colour(value)
    return None
