"""Chat text of a Guyenne view: the castle row, this round's fights, the armies; the hand for its owner."""
from __future__ import annotations

from rules.api import Event
from rules.guyenne import cards as C

MARK = {"E": "🟥", "F": "🟦"}


HELP = """Guyenne in short: two armies fight for six castles over several rounds.
Each round the first player opens a castle with 1–5 cards face down, the other answers there, then the second castle;
then reinforce or pass. Fights: higher total wins; a hero wins outright; a defender reveals or concedes.
The menu asks the castle first, then your cards one by one (`done` when the set is complete). Cards: H hero,
T trebuchet, A archer, numbers are their strength."""

# how equal results are placed (Game.tie_rule), and what a score counts (Game.score_unit)
TIE_RULE = ("Equal points: more unspent cards (hand + deck) wins; still equal: a shared place.")
SCORE_UNIT = "point"


def seat(s: int | None) -> str:
    return "nobody" if s is None else f"{{P{s + 1}}}"


def _side(view: dict, s: int) -> str:
    side = view["sides"][s]
    return f"{MARK[side]}{side}"


def castle_row(view: dict) -> str:
    """``1🟥E 2⬜ 3🟦F …``: the controller's colour and letter (colour-blind safe). Two sets: one line per
    frontier, ``◀``/``▶`` for the player named on that side; a player's own view of four frontiers shows his two."""
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
        return "(inner → outer)\n" + "\n".join(lines)
    out = []
    for k, owner in enumerate(view["castles"], start=1):
        out.append(f"{k}" + ("⬜" if owner is None else _side(view, owner)))
    return " ".join(out)


def plural(n: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {word}" + ("" if n == 1 else "s")


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


def fight_result(d: dict) -> str:
    """The end of a fight line: who holds the castle now."""
    if d["winner"] is None:
        return "a tie — control does not change."
    who = seat(d["seats"][d["winner"]] if "seats" in d else d["winner"])
    how = " (conceded)" if d.get("conceded") else " (the hero)" if d.get("hero") else ""
    if d["winner"] == d.get("before"):
        return f"{who} keeps the castle{how}."
    return f"{who} takes the castle{how}."


def cards(cs) -> str:
    return " ".join(C.label(c) for c in cs) if cs else "—"


def army_name(view: dict, a: int) -> str:
    """``{P1} 🟥E`` in a duel, ``{P1}+{P3} 🟥E`` for a team."""
    return "+".join(seat(m) for m in view["members"][a]) + " " + _side(view, a)


LAST_WORDS = {"open": "opened", "respond": "answered at", "reinforce": "reinforced", "pass": "passed",
              "reveal": "revealed at", "concede": "conceded", "lose": "chose losses at",
              "set_aside": "set cards aside", "give": "handed cards over", "direction": "chose the direction"}


def last_action(view: dict) -> str | None:
    """``👉 Last: {P1} reinforced castle 4`` — the last action, for the board to highlight."""
    last = view.get("last")
    if not last:
        return None
    what = LAST_WORDS.get(last["type"], last["type"].replace("_", " "))
    where = f" castle {last['castle']}" if last.get("castle") and what.endswith((" at", "opened", "reinforced")) \
        else ""
    return f"👉 Last: {seat(last['seat'])} {what}{where}."


def render(view: dict) -> str:
    armies = range(len(view["members"]))
    names = {a: army_name(view, a) for a in armies}
    teams = view["mode"] == "teams"
    lines = [f"Guyenne · {view['level']}{' · teams' if teams else ''} · round {view['round']} · first: "
             f"{names[view['first']]}"]
    lines.append("Castles: " + castle_row(view))
    for number, fight in enumerate(view["fights"], start=1):
        parts = []
        for a in fight["pair"]:
            if fight["counts"][a]:
                shown = fight["revealed"][a]
                what = cards(shown) if shown is not None else f"{fight['counts'][a]} face down"
                parts.append(f"{seat(fight['actors'][a])} {fight['roles'][a]}s: {what}")
        latest = (view.get("last") or {}).get("castle") == fight["castle"]
        lines.append(("👉" if latest else "") + f"⚔ Castle {fight['castle']} (C{number}): " +
                     (" · ".join(parts) or "—") + (" · conceded" if fight["conceded"] else ""))
    if not view["fights"] and view["last_fights"]:
        for fight in view["last_fights"]:
            who = "tie" if fight["winner"] is None else f"{names[fight['winner']]} wins"
            lines.append(f"Last round, castle {fight['castle']}: {who}" + (" (conceded)" if fight["conceded"] else ""))
    if view["viewer"] is not None:  # your own view: the armies in one line (`board` shows all)
        lines.append("Points " + " · ".join(f"{names[a]} {view['points'][a]}" for a in armies) + " · hands " +
                     " · ".join("+".join(str(view["hand_counts"][m]) for m in view["members"][a]) for a in armies))
    for a in armies if view["viewer"] is None else ():
        hands = " + ".join(str(view["hand_counts"][m]) for m in view["members"][a])
        line = (f"{names[a]}: hand {hands} · deck {view['deck_counts'][a]} · discard {view['discard_counts'][a]} · "
                f"reshuffles left {view['reshuffles_left'][a]} · points {view['points'][a]}")
        if view["removed"][a]:
            line += " · removed " + cards(view["removed"][a])
        lines.append(line)
    if last_action(view):
        lines.append(last_action(view))
    phase = view["phase"]
    if phase == "over":
        how = "holds all six castles" if view["end"] == "six" else "wins on points"
        places = [view["ranking"][view["members"][a][0]] for a in armies]
        points = "–".join(str(p) for p in view["points"])
        best = [a for a in armies if places[a] == 1]
        if len(best) == len(places):
            lines.append("The game ends in a draw (equal points, equal unspent cards).")
        else:
            unspent = " (unspent cards " + "–".join(str(u) for u in view["unspent"]) + ")" \
                if view["end"] != "six" else ""
            lines.append(f"🏆 {' and '.join(names[a] for a in best)} {how}: {points}{unspent}.")
    elif phase == "set_aside":
        lines.append("Expert setup: each army secretly sets aside 5 troop cards (they start in the discard).")
    elif phase == "direction":
        lines.append(f"{seat(view['to_act'][0])} chooses the direction of this round: left or right.")
    elif phase == "give":
        lines.append("Each team's drawer hands cards to the partner and names who leads: " +
                     ", ".join(seat(s) for s in view["to_act"]) + ".")
    else:
        actor = seat(view["to_act"][0]) if view["to_act"] else "nobody"
        lines.append({"open1": f"{actor} opens a castle.", "respond1": f"{actor} answers at the first castle.",
                      "open2": f"{actor} opens the second castle.", "respond2": f"{actor} answers there.",
                      "reinforce": f"{actor} may reinforce (or pass).",
                      "defend": f"{actor} defends: reveal or concede?",
                      "losses": f"{actor} chooses which cards are lost for good.",
                      "place": f"{actor} " + ("opens a castle on the frontier " if view.get("step", {}).get("kind")
                                             == "open" else "answers on the frontier ") +
                      "–".join(seat(a) for a in view["frontiers"][view["step"]["frontier"]]) + "."
                      if phase == "place" else ""}.get(phase, ""))
    if view["viewer"] is not None:
        lines += _private(view)
    return "\n".join(lines)


def _private(view: dict) -> list[str]:
    me = view["viewer"]
    lines = ["", "Your hand: " + cards(view["hand"]) + "  (H hero, T trebuchet, A archer)"]
    for castle, mine in view.get("placed", {}).items():
        if mine:
            lines.append(f"Your cards at castle {castle}: {cards(mine)}")
    if view.get("aside"):
        lines.append(f"Set aside: {cards(view['aside'])}")
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
        up_to = "1–5 cards, keeping one" if keep else "1–5 cards"
        hint = {"open1": f"Open any castle with {up_to}: /move open {free} {card}",
                "open2": f"Open another castle with {up_to}: /move open {free} {card}",
                "respond1": f"Answer with {up_to}: /move respond {card}",
                "respond2": f"Answer with {up_to}: /move respond {card}",
                "reinforce": "Add cards to one of your castles (max 5 there) or pass: /move reinforce "
                             f"{next(iter(view.get('placed') or {}), free)} {card} · /move pass",
                "defend": "Reveal your cards (a tie keeps the castle) or concede unseen: /move reveal · /move concede",
                "losses": "Remove your strongest card there, or cards worth as much together: /move lose "
                          + (cards((view.get("loss_options") or [[]])[0])),
                "set_aside": "Set aside 5 troop cards, not the hero; they come back at your first reshuffle: "
                             "/move aside 4 3 2 2 A",
                "direction": "Choose the way round the table: /move direction left (or right)",
                "place": (f"Open a castle on your frontier with {up_to}: /move open {free} {card}"
                          if step.get("kind") == "open" else f"Answer with {up_to}: /move respond {card}"),
                "give": f"Hand 1–5 cards to your partner (keep one) and say who opens: /move give {card} partner "
                        "leads" if len(hand) > 1 else "You hold one card: keep it and say who opens: /move give me "
                        "leads (or: give partner leads)"}.get(phase)
        if hint:
            lines.append("Your move — " + hint)
    return lines


def describe_event(event: Event) -> str | None:
    d = event.data
    kind = event.kind
    if kind == "placed":
        verb = {"open": "opens", "respond": "answers at", "reinforce": "reinforces"}[d["step"]]
        return f"{seat(d['seat'])} {verb} castle {d['castle']} with {plural(d['count'], 'card')} ({d['role']})."
    if kind == "placed_cards":
        return f"You put {cards(d['cards'])} at castle {d['castle']}."
    if kind == "passed":
        return f"{seat(d['seat'])} passes" + (" (nothing left to add)." if d["auto"] else ".")
    if kind == "revealed":
        return f"{seat(d['seat'])} reveals at castle {d['castle']}: {cards(d['cards'])}."
    if kind == "conceded":
        return f"{seat(d['seat'])} concedes castle {d['castle']} without showing the cards."
    if kind == "fight":  # the winner is an army; name the seat that fought there for it (teams: a member)
        return f"Castle {d['castle']}: " + fight_totals(d) + " " + fight_result(d)
    if kind == "removed":
        return f"{seat(d['seat'])} loses {cards(d['cards'])} for good."
    if kind == "drawn":
        return f"You draw {cards(d['cards'])}."
    if kind == "refilled":
        drew = f"{seat(d['seat'])} draws {plural(d['count'], 'card') if d['count'] else 'nothing (no cards left)'}"
        return drew + (" after reshuffling the discard into a new deck." if d["reshuffled"] else ".")
    if kind == "round_started":
        return f"Round {d['round']}: " + " and ".join(seat(s) for s in d.get("seats", [d["first"]])) + \
            (" open." if len(d.get("seats", [])) > 1 else " opens.")
    if kind == "direction":
        return f"{seat(d['seat'])} goes {d['way']}: " + " → ".join(seat(s) for s in d["order"]) + "."
    if kind == "given":
        return f"{seat(d['seat'])} hands {plural(d['count'], 'card')} to {seat(d['to'])}; {seat(d['leader'])} leads."
    if kind == "given_cards":
        return f"{seat(d['seat'])} → {seat(d['to'])}: {cards(d['cards'])}."
    if kind == "set_aside":
        if d["count"] == 5:
            return f"{seat(d['seat'])} sets 5 cards aside."
        return f"{seat(d['seat'])} sets a card aside ({d['count']}/5)."  # games stored when it was one at a time
    if kind == "set_aside_cards":
        return f"You set aside {cards(d['cards'])}."
    if kind == "set_aside_card":
        return f"You set aside {C.NAMES[d['card'][0]]}."
    if kind == "setup_done":
        return "Both armies are ready."
    if kind == "game_over":
        return "Game over: " + " – ".join(str(int(s)) for s in d["scores"]) + (
            " (all six castles)" if d["reason"] == "six" else "")
    return None


TYPE_CHOICES = {"open": "Open a castle", "respond": "Answer", "reinforce": "Reinforce", "pass": "Pass",
                "reveal": "Reveal", "concede": "Concede", "lose": "Lose", "set_aside": "Set aside",
                "give": "Give cards", "direction": "Direction"}


def describe_choice(key: str, value) -> str | None:
    """A picker step as the board shows it: cards by kind (``5``, not ``5a``), ``Castle 3``."""
    if key == "type":
        return TYPE_CHOICES.get(value)
    if key == "cards":
        return C.label(value)
    if key == "card":
        return C.NAMES.get(value, value)
    if key == "castle":
        return f"Castle {value}"
    if key == "way":
        return "left ↺" if value == "left" else "right ↻"
    if key == "leader":
        return "I lead" if value == "me" else "partner leads"
    return None
