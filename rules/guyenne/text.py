"""Chat text of a Guyenne view: the castle row, this round's fights, the armies; the hand for its owner."""
from __future__ import annotations

from rules.api import Event
from rules.lang import N_, _, mine, ngettext, ours, places, reader, translate
from rules.guyenne import cards as C

MARK = {"E": "🟥", "F": "🟦"}


HELP = N_("""Guyenne in short: two armies fight for six castles over several rounds.
Each round the first player opens a castle with 1–5 cards face down, the other answers there, then the second castle;
then reinforce or pass. Fights: higher total wins; a hero wins outright; a defender reveals or concedes.
The menu asks the castle first, then your cards one by one (`done` when the set is complete). Cards: H hero,
T trebuchet, A archer, numbers are their strength.""")

# how equal results are placed (Game.tie_rule), and what a score counts (Game.score_unit)
TIE_RULE = N_("Equal points: more unspent cards (hand + deck) wins; still equal: a shared place.")
SCORE_UNIT = "point"


def seat(s: int | None) -> str:
    return _("nobody") if s is None else f"{{P{s + 1}}}"


def _side(view: dict, s: int) -> str:
    side = view["sides"][s]
    return f"{MARK[side]}{side}"


def castle_row(view: dict) -> str:
    """``1🟥E 2⬜ 3🟦F …``: the controller's colour and letter (colour-blind safe). Two sets: one line per
    frontier, ``◀``/``▶`` for the player named on that side; a player's own view of four frontiers shows his two,
    chained at him in one line (``B ◀ 7⬜ 8▶ 9◀ ▶ you ◀ 10▶ 11⬜ 12⬜ ▶ C``)."""
    if view["mode"] == "two_sets":
        lines = []
        mine = view["armies"][view["viewer"]] if view.get("viewer") is not None else None
        for f, (a, b) in enumerate(view["frontiers"]):
            if mine is not None and mine not in (a, b) and len(view["frontiers"]) > 3:
                continue  # your own view: your two frontiers (the table's board has all four)
            marks = []
            for k in range(3 * f + 1, 3 * f + 4):
                owner = view["castles"][k - 1]
                marks.append(f"{k}" + ("⬜" if owner is None else "◀" if owner == a else "▶"))
            lines.append(f"{seat(a)} ◀ " + " ".join(marks) + f" ▶ {seat(b)}")
        you = seat(view["viewer"]) if view.get("viewer") is not None else None
        if you and len(lines) == 2 and lines[0].startswith(you + " ◀") and lines[1].endswith("▶ " + you):
            lines.reverse()  # (left neighbour, you) before (you, right neighbour)
        if you and len(lines) == 2 and lines[0].endswith("▶ " + you) and lines[1].startswith(you + " ◀"):
            lines = [lines[0] + lines[1][len(you):]]  # your two frontiers meet at you: one chain, one line
        return _("(inner → outer)") + " " + "\n".join(lines)  # the first frontier on the heading's line
    out = []
    for k, owner in enumerate(view["castles"], start=1):
        out.append(f"{k}" + ("⬜" if owner is None else _side(view, owner)))
    return " ".join(out)


def plural(n: int, word: str = "card") -> str:
    """``1 card``, ``2 cards``."""
    return ngettext("{n} card", "{n} cards", n)


def fight_totals(d: dict, cards_by_army: dict | None = None) -> str:
    """``{P1} 10 vs {P2} 6`` from a ``fight`` event (``cards_by_army``: the revealed cards, shown before the
    total: ``{P1} 5 T = 10``); a side that conceded or was never shown counts as ``?``."""
    parts = []
    for army, total in enumerate(d.get("totals") or []):
        if army >= len(d.get("seats") or []) or d["seats"][army] is None:  # two sets: an army not at this castle
            continue
        shown = (cards_by_army or {}).get(army)
        value = "?" if total is None else str(total)
        parts.append(f"{seat(d['seats'][army])} " + (f"{'+'.join(C.label(c) for c in shown)}={value}" if shown
                                                     else value))
    return " vs ".join(parts) + ("," if parts else "")


def fight_result(d: dict, conceded_by: int | None = None) -> str:
    """The end of a fight line: who holds the castle now (``conceded_by``: the seat that conceded, when known)."""
    if d["winner"] is None:
        return _("a tie — control does not change.")
    who = d["seats"][d["winner"]] if "seats" in d else d["winner"]
    if d.get("conceded") and conceded_by is not None:
        how = " " + mine(conceded_by, N_("({who} conceded unseen)"), N_("(You conceded unseen)"))
    else:
        how = " " + _("(conceded)") if d.get("conceded") else " " + _("(the hero)") if d.get("hero") else ""
    if d["winner"] == d.get("before"):
        return mine(who, N_("{who} keeps the castle{how}."), N_("you keep the castle{how}."), how=how)
    return mine(who, N_("{who} takes the castle{how}."), N_("you take the castle{how}."), how=how)


def cards(cs) -> str:
    return " ".join(C.label(c) for c in cs) if cs else "—"


def army_name(view: dict, a: int) -> str:
    """``{P1} 🟥E`` in a duel, ``{P1}+{P3} 🟥E`` for a team."""
    return "+".join(seat(m) for m in view["members"][a]) + " " + _side(view, a)


LAST_WORDS = {"open": (N_("{who} opened castle {castle}"), N_("{who} opened")),
              "respond": (N_("{who} answered at castle {castle}"), N_("{who} answered")),
              "reinforce": (N_("{who} reinforced castle {castle}"), N_("{who} reinforced")),
              "reveal": (N_("{who} revealed at castle {castle}"), N_("{who} revealed")),
              "lose": (N_("{who} chose losses at castle {castle}"), N_("{who} chose losses")),
              "pass": (N_("{who} passed"),) * 2, "concede": (N_("{who} conceded"),) * 2,
              "set_aside": (N_("{who} set cards aside"),) * 2, "give": (N_("{who} handed cards over"),) * 2,
              "direction": (N_("{who} chose the direction"),) * 2}
ROLES = {"attack": N_("attack"), "defend": N_("defend")}
ROLE_LINES = {"attack": N_("{who} attacks: {what}"), "defend": N_("{who} defends: {what}")}


def last_action(view: dict) -> str | None:
    """``👉 Last: {P1} reinforced castle 4`` — the last action, for the board to highlight."""
    last = view.get("last")
    if not last:
        return None
    with_castle, without = LAST_WORDS.get(last["type"], ("{who} " + last["type"].replace("_", " "),) * 2)
    what = translate(with_castle if last.get("castle") else without, who=seat(last['seat']), castle=last.get("castle"))
    return "👉 " + _("Last: {what}.", what=what)


def board(view: dict) -> str:
    armies = range(len(view["members"]))
    names = {a: army_name(view, a) for a in armies}
    teams = view["mode"] == "teams"
    lines = [f"Guyenne · {translate(view['level'])}" + (" · " + _("teams") if teams else "") + " · " +
             _("round {round} · first: {army}", round=view['round'], army=names[view['first']])]
    lines.append(_("Castles:") + " " + castle_row(view))
    for number, fight in enumerate(view["fights"], start=1):
        parts = []
        for a in fight["pair"]:
            if fight["counts"][a]:
                shown = fight["revealed"][a]
                what = cards(shown) if shown is not None else _("{n} face down", n=fight['counts'][a])
                role = fight['roles'][a]
                if role in ROLE_LINES:
                    parts.append(_(ROLE_LINES[role], who=seat(fight['actors'][a]), what=what))
                else:
                    parts.append(f"{seat(fight['actors'][a])} {role}s: {what}")
        latest = (view.get("last") or {}).get("castle") == fight["castle"]
        lines.append(("👉" if latest else "") + "⚔ " + _("Castle {castle} (C{number}):", castle=fight['castle'],
                                                           number=number) + " " +
                     (" · ".join(parts) or "—") + (" · " + _("conceded") if fight["conceded"] else ""))
    # the last round's fights are not repeated here: each was told once as it ended (the castle row shows who
    # holds what now, /log tells them again)
    if view["viewer"] is not None:  # your own view: the armies in one line (`board` shows all)
        lines.append(_("Points {points} · hands {hands}", points=" · ".join(f"{names[a]} {view['points'][a]}"
                                                                           for a in armies),
                       hands=" · ".join(f"{names[a]} " + "+".join(str(view["hand_counts"][m])
                                                                   for m in view["members"][a]) for a in armies)))
    for a in armies if view["viewer"] is None else ():
        hands = " + ".join(str(view["hand_counts"][m]) for m in view["members"][a])
        line = names[a] + ": " + _("hand {hand} · deck {deck} · discard {discard} · reshuffles left {reshuffles} · "
                                   "points {points}", hand=hands, deck=view['deck_counts'][a],
                                   discard=view['discard_counts'][a], reshuffles=view['reshuffles_left'][a],
                                   points=view['points'][a])
        if view["removed"][a]:
            line += " · " + _("removed {cards}", cards=cards(view["removed"][a]))
        lines.append(line)
    if last_action(view):
        lines.append(last_action(view))
    phase = view["phase"]
    yours = view["viewer"] is not None and view["viewer"] in view["to_act"] and phase != "over"
    if yours:
        pass  # your own move is said once, by "Your move — …" below (with its example), not also here
    elif phase == "over":
        ranked = places(view)  # an army is placed as its best member (a member who resigned is last)
        placed = [min(ranked[m] for m in view["members"][a]) for a in armies]
        points = "–".join(str(p) for p in view["points"])
        best = [a for a in armies if placed[a] == min(placed)]
        if len(best) == len(placed):
            lines.append(_("The game ends in a draw (equal points, equal unspent cards)."))
        else:
            winners = _(" and ").join(names[a] for a in best)
            engine = view["ranking"]
            if any(engine[m] != 1 for a in best for m in view["members"][a]):  # the winner on the table resigned
                lines.append("🏆 " + _("{winners} wins: the other side resigned ({points}).", winners=winners,
                                      points=points))
            elif view["end"] == "six":
                lines.append("🏆 " + _("{winners} holds all six castles: {points}.", winners=winners, points=points))
            else:
                lines.append("🏆 " + _("{winners} wins on points: {points} (unspent cards {unspent}).",
                                      winners=winners, points=points,
                                      unspent="–".join(str(u) for u in view["unspent"])))
    elif phase == "set_aside":
        lines.append(_("Expert setup: each army secretly sets aside 5 troop cards (they start in the discard)."))
    elif phase == "direction":
        lines.append(mine(view['to_act'][0], N_("{who} chooses the direction of this round: left or right."),
                          N_("You choose the direction of this round: left or right.")))
    elif phase == "give":
        lines.append(_("Each team's drawer hands cards to the partner and names who leads: {who}.",
                       who=", ".join(seat(s) for s in view["to_act"])))
    else:
        actor = view["to_act"][0] if view["to_act"] else None
        if phase == "place":
            frontier = "–".join(seat(a) for a in view["frontiers"][view["step"]["frontier"]])
            if view.get("step", {}).get("kind") == "open":
                lines.append(mine(actor, N_("{who} opens a castle on the frontier {frontier}."),
                                  N_("You open a castle on the frontier {frontier}."), frontier=frontier))
            else:
                lines.append(mine(actor, N_("{who} answers on the frontier {frontier}."),
                                  N_("You answer on the frontier {frontier}."), frontier=frontier))
        elif phase in PHASE_LINES:
            lines.append(mine(actor, *PHASE_LINES[phase]) if actor is not None else
                         _(PHASE_LINES[phase][0], who=_("nobody")))
        else:
            lines.append("")
    if view["viewer"] is not None:
        lines += _private(view)
    return "\n".join(lines)


PHASE_LINES = {"open1": (N_("{who} opens a castle."), N_("You open a castle.")),
               "respond1": (N_("{who} answers at the first castle."), N_("You answer at the first castle.")),
               "open2": (N_("{who} opens the second castle."), N_("You open the second castle.")),
               "respond2": (N_("{who} answers there."), N_("You answer there.")),
               "reinforce": (N_("{who} may reinforce (or pass)."), N_("You may reinforce (or pass).")),
               "defend": (N_("{who} defends: reveal or concede?"), N_("You defend: reveal or concede?")),
               "losses": (N_("{who} chooses which cards are lost for good."),
                          N_("You choose which cards are lost for good."))}


def _private(view: dict) -> list[str]:
    me = view["viewer"]
    lines = [_("Your hand: {cards}  (H hero, T trebuchet, A archer)", cards=cards(view["hand"]))]
    for castle, placed in view.get("placed", {}).items():
        if placed:
            lines.append(_("Your cards at castle {castle}: {cards}", castle=castle, cards=cards(placed)))
    if view.get("aside"):
        lines.append(_("Set aside: {cards}", cards=cards(view['aside'])))
    if me in view["to_act"]:
        phase = view["phase"]
        hand = view["hand"]
        card = C.label(hand[0]) if hand else "2"  # examples use the viewer's own cards and a castle still free
        taken = {f["castle"] for f in view["fights"]}
        step = view.get("step") or {}
        if phase == "place":
            own = range(3 * step["frontier"] + 1, 3 * step["frontier"] + 4)
            keep = (step["kind"] == "open") == (view["armies"][me] == view["first"])  # he still plays a castle
        else:
            own = range(1, len(view["castles"]) + 1)
            keep = phase in ("open1", "respond1") and len(view["members"][view["armies"][me]]) == 1
        free = next((k for k in own if k not in taken), 1)
        up_to = _("1–5 cards, keeping one") if keep else _("1–5 cards")
        # the castle you answer at: the open one of this step's frontier (two sets), or this step's fight (duel)
        number = {"respond1": 0, "respond2": 1}.get(phase)
        at = [f["castle"] for f in view["fights"] if f["castle"] in own] if phase == "place" else \
            [view["fights"][number]["castle"]] if number is not None and len(view["fights"]) > number else []
        answer = _("Answer at castle {castle} with {up_to}: /move respond {card}", castle=at[-1], up_to=up_to,
                   card=card) if at else _("Answer with {up_to}: /move respond {card}", up_to=up_to, card=card)
        hint = {"open1": _("Open any castle with {up_to}: /move open {free} {card}", up_to=up_to, free=free, card=card),
                "open2": _("Open another castle with {up_to}: /move open {free} {card}", up_to=up_to, free=free,
                           card=card),
                "respond1": answer, "respond2": answer,
                "reinforce": _("Add cards to one of your castles (max 5 there) or pass: /move reinforce {castle} "
                               "{card} · /move pass", castle=next(iter(view.get('placed') or {}), free), card=card),
                "defend": _("Reveal your cards (a tie keeps the castle) or concede unseen: /move reveal · "
                            "/move concede"),
                "losses": _("Castle {castle}: remove your strongest card there, or cards worth as much together: "
                            "/move lose {cards}", castle=view.get("loss_castle", "?"),
                            cards=cards((view.get("loss_options") or [[]])[0])),
                "set_aside": _("Set aside 5 troop cards, not the hero; they come back at your first reshuffle: "
                               "/move aside 4 3 2 2 A"),
                "direction": _("Choose the way round the table: /move direction left (or right)"),
                "place": (_("Open a castle on your frontier with {up_to}: /move open {free} {card}", up_to=up_to,
                            free=free, card=card)
                          if step.get("kind") == "open" else answer),
                "give": _("Hand 1–5 cards to your partner (keep one) and say who opens: /move give {card} partner "
                          "leads", card=card) if len(hand) > 1 else _("You hold one card: keep it and say who opens: "
                                                                      "/move give me leads (or: give partner leads)")
                }.get(phase)
        if hint:
            lines.append(_("Your move — {hint}", hint=hint))
    return lines


PLACED = {"open": (N_("{who} opens castle {castle} with {cards} ({role})."),
                   N_("You open castle {castle} with {cards} ({role}).")),
          "respond": (N_("{who} answers at castle {castle} with {cards} ({role})."),
                      N_("You answer at castle {castle} with {cards} ({role}).")),
          "reinforce": (N_("{who} reinforces castle {castle} with {cards} ({role})."),
                        N_("You reinforce castle {castle} with {cards} ({role})."))}


def describe_event(event: Event) -> str | None:
    d = event.data
    kind = event.kind
    who = d.get("seat")
    if kind == "placed":
        return mine(who, *PLACED[d["step"]], castle=d['castle'], cards=plural(d['count']),
                    role=translate(ROLES.get(d['role'], d['role'])))
    if kind == "placed_cards":
        return _("You put {cards} at castle {castle}.", cards=cards(d['cards']), castle=d['castle'])
    if kind == "passed":
        if d["auto"]:
            return mine(who, N_("{who} passes (nothing left to add)."), N_("You pass (nothing left to add)."))
        return mine(who, N_("{who} passes."), N_("You pass."))
    if kind == "revealed":
        return mine(who, N_("{who} reveals at castle {castle}: {cards}."), N_("You reveal at castle {castle}: {cards}."),
                    castle=d['castle'], cards=cards(d['cards']))
    if kind == "conceded":
        return mine(who, N_("{who} concedes castle {castle} without showing the cards."),
                    N_("You concede castle {castle} without showing the cards."), castle=d['castle'])
    if kind == "fight":  # the winner is an army; name the seat that fought there for it (teams: a member)
        return _("Castle {castle}:", castle=d['castle']) + " " + fight_totals(d) + " " + fight_result(d)
    if kind == "removed":
        return mine(who, N_("{who} loses {cards} for good."), N_("You lose {cards} for good."), cards=cards(d['cards']))
    if kind == "drawn":
        return _("You draw {cards}.", cards=cards(d['cards']))
    if kind == "refilled":
        if not d["count"]:
            return mine(who, N_("{who} draws nothing (no cards left)."), N_("You draw nothing (no cards left)."))
        if d["reshuffled"]:
            return mine(who, N_("{who} draws {cards} after reshuffling the discard into a new deck."),
                        N_("You draw {cards} after reshuffling the discard into a new deck."), cards=plural(d['count']))
        return mine(who, N_("{who} draws {cards}."), N_("You draw {cards}."), cards=plural(d['count']))
    if kind == "round_started":
        seats = d.get("seats", [d["first"]])
        if len(d.get("seats", [])) > 1:
            return _("Round {round}:", round=d['round']) + " " + ours(seats, N_("{who} open."),
                                                                       N_("{who} and you open."))
        return _("Round {round}:", round=d['round']) + " " + mine(seats[0], N_("{who} opens."), N_("You open."))
    if kind == "direction":
        order = " → ".join(seat(s) for s in d["order"])
        if d["way"] == "left":
            return mine(who, N_("{who} goes left: {order}."), N_("You go left: {order}."), order=order)
        return mine(who, N_("{who} goes right: {order}."), N_("You go right: {order}."), order=order)
    if kind == "given":
        if d['to'] == reader():  # "aan jou", "à toi": the reader as the object, which no name-slot can say
            return _("{who} hands {cards} to you; {leader} leads.", who=seat(who), cards=plural(d['count']),
                     leader=seat(d['leader']))
        return mine(who, N_("{who} hands {cards} to {to}; {leader} leads."), N_("You hand {cards} to {to}; {leader} leads."),
                    cards=plural(d['count']), to=seat(d['to']), leader=seat(d['leader']))
    if kind == "given_cards":
        return f"{seat(d['seat'])} → {seat(d['to'])}: {cards(d['cards'])}."
    if kind == "set_aside":
        if d["count"] == 5:
            return mine(who, N_("{who} sets 5 cards aside."), N_("You set 5 cards aside."))
        # games stored when it was one at a time
        return mine(who, N_("{who} sets a card aside ({n}/5)."), N_("You set a card aside ({n}/5)."), n=d['count'])
    if kind == "set_aside_cards":
        return _("You set aside {cards}.", cards=cards(d['cards']))
    if kind == "set_aside_card":
        return _("You set aside {card}.", card=translate(C.NAMES[d['card'][0]]))
    if kind == "setup_done":
        return _("Both armies are ready.")
    if kind == "game_over":
        scores = " – ".join(str(int(s)) for s in d["scores"])
        if d["reason"] == "six":
            return _("Game over: {scores} (all six castles)", scores=scores)
        return _("Game over: {scores}", scores=scores)
    return None


TYPE_CHOICES = {"open": N_("Open a castle"), "respond": N_("Answer"), "reinforce": N_("Reinforce"), "pass": N_("Pass"),
                "reveal": N_("Reveal"), "concede": N_("Concede"), "lose": N_("Lose"), "set_aside": N_("Set aside"),
                "give": N_("Give cards"), "direction": N_("Direction")}
LEVEL_WORDS = (N_("basic"), N_("advanced"), N_("expert"))  # the level shown on the board


def describe_choice(key: str, value) -> str | None:
    """A picker step as the board shows it: cards by kind (``5``, not ``5a``), ``Castle 3``."""
    if key == "type":
        return _(TYPE_CHOICES[value]) if value in TYPE_CHOICES else None
    if key == "cards":
        return C.label(value)
    if key == "card":
        return _(C.NAMES[value]) if value in C.NAMES else value
    if key == "castle":
        return _("Castle {castle}", castle=value)
    if key == "way":
        return _("left ↺") if value == "left" else _("right ↻")
    if key == "leader":
        return _("I lead") if value == "me" else _("Partner leads")  # capital: not the notation's "partner leads"
    return None
