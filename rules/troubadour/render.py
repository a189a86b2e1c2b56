"""Chat text of a Troubadour view: every player's castles, stock, waste and villages, the trios, and for the
active player a list of everything he can do now (what can be built where, which nobles are still usable)."""
from __future__ import annotations

from rules.api import Event
from rules.troubadour.cards import SYMBOL, card_of, pretty

NOBLE_POWER = {
    "JS": "clear a village", "QS": "take village tops", "KS": "with J♠Q♠: destroy a castle",
    "JD": "protects vs J♠", "QD": "protects vs Q♠", "KD": "protects vs J♠Q♠K♠",
    "JC": "flip until a card fits", "QC": "+2 flips", "KC": "+3 flips if a rival has J♣/Q♣",
    "JH": "move any face-up card", "QH": "turn a face-down card", "KH": "with Q♥: flip to a named card",
}
STATUS = {"used": "used", "ready": "usable", "later": "after the flip", "idle": "not now", "protects": "protects"}


HELP = """Troubadour in short: build four castles (A→10 per suit) before anyone else.
Each round: pick 3 nobles in secret (the menu asks one noble, then the next). Then on your turn: flip, build
from the waste or a village top onto a castle (up by suit) or onto a village (down, alternating colours), use each
of your nobles once, and end the turn. ▒ is a face-down card. `board` shows every player's table."""

# how equal results are placed (Game.tie_rule), and what a score counts (Game.score_unit)
TIE_RULE = ("The first to complete all four castles wins; everybody else shares second place "
            "(a round-limit draw: everybody shares first place).")
SCORE_UNIT = "castle card"


def seat(s: int | None) -> str:
    return "nobody" if s is None else f"{{P{s + 1}}}"


def c(code: str | None) -> str:
    """``7H`` → ``7♥``."""
    if code is None:
        return "▒"
    x = card_of(code)
    return pretty(x) if x is not None else code


def noble(code: str) -> str:
    return code[0] + SYMBOL[code[1]]


def trio(codes: list[str] | None) -> str:
    return " ".join(noble(x) for x in codes) if codes else "?"


def castles_line(castles: list) -> str:
    parts = []
    for s, top in zip("SHDC", castles):
        parts.append(SYMBOL[s] + (top[:-1] if top else "–"))
    return " ".join(parts)


def castle_word(code: str) -> str:
    """``7H`` → ``♥ castle``."""
    return f"{SYMBOL[code[-1]]} castle"


def village_line(k: int, cards: list) -> str:
    return f"V{k} " + (" ".join(c(x) for x in cards) if cards else "· (empty)")


def player_block(view: dict, p: int) -> list[str]:
    s = view["seats"][p]
    head = f"P{p + 1} {seat(p)}" + (" (you)" if view.get("viewer") == p else "")
    trios = view.get("trios") or []
    if trios and trios[p]:
        head += " · trio " + trio(trios[p])
    elif view["phase"] == "select_trios":
        head += " · " + ("chose ✓" if view["trio_chosen"][p] else "choosing…")
    turn = view.get("turn")
    if turn and turn["seat"] == p:
        head = "▶ " + head
    lines = [head]
    lines.append(f"  castles {castles_line(s['castles'])} ({s['castle_cards']}/40) · stock {s['stock']} · waste "
                 f"{s['waste']}" + (f" top {c(s['waste_top'])}" if s["waste_top"] else ""))
    lines += ["  " + village_line(k + 1, v) for k, v in enumerate(s["villages"])]
    return lines


def rival_line(view: dict, p: int) -> str:
    """Another player in one line (the private view): castles, stock, waste top and the village tops."""
    s = view["seats"][p]
    trios = view.get("trios") or []
    head = f"P{p + 1} {seat(p)}" + (f" · trio {trio(trios[p])}" if trios and trios[p] else "")
    tops = " ".join(f"V{k + 1} {c(v[-1]) if v else '·'}" for k, v in enumerate(s["villages"]))
    turn = view.get("turn")
    return ("▶ " if turn and turn["seat"] == p else "") + head + f" · castles {castles_line(s['castles'])} " \
        f"({s['castle_cards']}/40) · stock {s['stock']} · tops {tops}"


def _list(items: list[str], limit: int = 12) -> str:
    shown = items[:limit]
    return ", ".join(shown) + (f" … (+{len(items) - limit})" if len(items) > limit else "")


def options_lines(view: dict) -> list[str]:
    turn = view["turn"]
    o = view["options"]
    p = turn["seat"]
    who = "You" if view.get("viewer") == p else seat(p)
    lines = [f"{who} may now:"]
    if turn["pending_ace"]:
        a = turn["pending_ace"]
        lines.append(f"  Q♥ revealed {c(a['card'])} in V{a['village']}: `ace castle` starts its castle, "
                     "`ace keep` leaves it there.")
        return lines
    flips = []
    if o["flip"]:
        flips.append("`flip` (1 card)")
    if o["club_jack"]:
        flips.append("`flip JC` (J♣: until a card fits)")
    if o["extra_flip"]:
        flips.append(f"`extra` ({turn['extra_flips_left']} extra flip{'s' if turn['extra_flips_left'] > 1 else ''}"
                     " left)")
    if o["hearts_qk"]:
        flips.append(f"`QHKH {o['hearts_qk'][0]}` (Q♥+K♥: flip until the named card)")
    if flips:
        lines.append("  🔄 " + " · ".join(flips))
    elif turn["flip"] == "unused":
        lines.append("  🔄 nothing to flip")
    else:
        lines.append("  🔄 flips done")
    if o["castle"]:
        lines.append("  🏰 to castle: " + _list([c(x) for x in o["castle"]]) + f"  e.g. `{o['castle'][0]} castle`")
    if o["village"]:
        moves = [f"{c(card)}→" + "/".join(f"V{v}" for v in vs) for card, vs in o["village"].items()]
        first = next(iter(o["village"].items()))
        lines.append("  🏘 to villages: " + _list(moves) + f"  e.g. `{first[0]} V{first[1][0]}`")
    if o["hearts_jack"]:
        moves = [f"{c(card)}→" + "/".join("🏰" if d == "castle" else f"V{d}" for d in ds)
                 for card, ds in o["hearts_jack"].items()]
        lines.append("  J♥ (any face-up card, once): " + _list(moves, 8) + "  e.g. `JH "
                     + next(iter(o["hearts_jack"])) + " " + _dest(next(iter(o["hearts_jack"].values()))[0]) + "`")
    if o["hearts_queen"]:
        spots = [f"V{v} {pos + 1}" for v, pos in o["hearts_queen"]]
        lines.append("  Q♥ turn a face-down card (village, nth from bottom): " + _list(spots, 8) +
                     f"  e.g. `QH {spots[0]}`")
    if o["spade_jack"]:
        lines.append("  J♠ clear a village: " + "; ".join(f"{t} " + " ".join(f"V{v}" for v in vs)
                                                       for t, vs in o["spade_jack"].items()) +
                     f"  e.g. `JS {next(iter(o['spade_jack']))} V{next(iter(o['spade_jack'].values()))[0]}`")
    if o["spade_queen"]:
        lines.append("  Q♠ take all village tops of: " + ", ".join(o["spade_queen"]) +
                     f"  e.g. `QS {o['spade_queen'][0]}`")
    if o["spade_trio"]:
        lines.append("  J♠Q♠K♠ destroy a castle: " + "; ".join(f"{t} " + " ".join(SYMBOL[s] for s in ss)
                                                             for t, ss in o["spade_trio"].items()) +
                     f"  e.g. `JQK {next(iter(o['spade_trio']))} {next(iter(o['spade_trio'].values()))[0]}`")
    nobles = turn["nobles"]
    if nobles:
        lines.append("  Nobles: " + " · ".join(f"{noble(k)} {STATUS[v]}" for k, v in nobles.items()))
    lines.append("  ⏹ `end` ends the turn")
    return lines


def _dest(d) -> str:
    return "castle" if d == "castle" else f"V{d}"


def render(view: dict) -> str:
    phase = view["phase"]
    n = view["players"]
    head = f"🎻 Troubadour · round {view['round']}"
    if view.get("max_rounds"):
        head += f"/{view['max_rounds']}"
    if phase == "turn":
        head += f" · {seat(view['current'])} to play"
    lines = [head]
    viewer = view.get("viewer")
    if phase == "turn" and view.get("order") and viewer is None:
        lines.append("Order: " + " → ".join(seat(s) for s in view["order"]))
    for p in range(n):  # your own view: your table in full, the others in a line each (`board` shows all)
        lines += player_block(view, p) if viewer is None or p == viewer else [rival_line(view, p)]
    if view.get("tiebreak_log") and phase in ("tiebreak", "turn"):
        for e in view["tiebreak_log"]:
            if e["method"] == "die":
                lines.append("🎲 " + ", ".join(f"{seat(s)} {r}" for s, r in zip(e["seats"], e["rolls"])))
            else:
                res = "draw" if e["first"] is None else f"{seat(e['first'])} plays first"
                lines.append("✊ " + " vs ".join(f"{seat(s)} {noble(x)}" for s, x in zip(e["seats"], e["nobles"]))
                             + f": {res}")
    if phase == "select_trios":
        mine = view.get("my_trio")
        if mine:
            lines.append(f"Your trio: {trio(mine)} (secret until everyone has chosen).")
        waiting = [seat(s) for s in view["to_act"]]
        lines.append("Everyone chooses 3 nobles in secret: " + ", ".join(waiting) + " still to choose.")
        if viewer is not None and viewer in view["to_act"]:
            lines.append("/move trio JC QC JH — ♠ attack, ♦ protect, ♣ flip more, ♥ build. Lowest noble "
                         "(♠<♦<♣<♥, J<Q<K) plays first.")
    elif phase == "tiebreak":
        for g in view["tiebreak"]:
            waiting = [seat(s) for s, done in zip(g["seats"], g["chosen"]) if not done]
            lines.append("Identical trios: " + " and ".join(seat(s) for s in g["seats"]) +
                         f" play rock-paper-scissors with a 4th noble, game {g['games'] + 1} of at most 4 "
                         "(Q beats J, K beats Q, J beats K; the beaten player starts). Waiting for " +
                         ", ".join(waiting) + ".")
        if view.get("my_tiebreak"):
            lines.append(f"Your choice: {noble(view['my_tiebreak'])}")
        elif viewer is not None and viewer in view["to_act"]:
            lines.append("/move rps QH (any noble not in your trio)")
    elif phase == "turn":
        prot = view["turn"]["protected"]
        shields = [f"{t} {' '.join(noble(x) for x in xs)}" for t, xs in prot.items() if xs]
        if shields:
            lines.append("🛡 " + ", ".join(shields))
        lines += options_lines(view)
    else:
        if view.get("winner") is not None:
            lines.append(f"🏆 Winner: {seat(view['winner'])}, all four castles complete!")
        elif view.get("draw"):
            lines.append(f"The round limit ({view['max_rounds']}) is reached: a draw.")
        lines.append("Castle cards: " + ", ".join(f"{seat(p)} {int(s)}" for p, s in enumerate(view["scores"])))
    return "\n".join(lines)


def describe_event(event: Event) -> str | None:
    d = event.data
    k = event.kind
    who = seat(d.get("seat"))
    if k == "trio_chosen":
        return f"{who} has chosen a trio."
    if k == "own_trio":
        return f"Your trio: {trio(d['nobles'])}."
    if k == "trios_revealed":
        return "Trios: " + " · ".join(f"{seat(p)} {trio(t)}" for p, t in enumerate(d["trios"]))
    if k == "tiebreak_needed":
        how = "rock-paper-scissors" if d["method"] == "rps" else "the die"
        return "Identical trios of " + " and ".join(seat(s) for s in d["seats"]) + f": {how} decides."
    if k == "tiebreak_chosen":
        return f"{who} has chosen a tie-break noble."
    if k == "own_tiebreak":
        return f"Your tie-break noble: {noble(d['noble'])}."
    if k == "rps_revealed":
        shown = " vs ".join(f"{seat(s)} {noble(x)}" for s, x in zip(d["seats"], d["nobles"]))
        return shown + (": same face, again." if d["first"] is None else f": {seat(d['first'])} plays first.")
    if k == "die_rolled":
        return "🎲 " + ", ".join(f"{seat(s)} rolls {r}" for s, r in zip(d["seats"], d["rolls"]))
    if k == "turn_order":
        return f"Round {d['round']}: " + " → ".join(seat(s) for s in d["order"])
    if k == "turn_started":
        return f"{who}'s turn."
    if k == "turn_ended":
        return f"{who}'s turn ends" + (" (nothing more to do)." if d["auto"] else ".")
    if k == "round_started":
        return f"Round {d['round']}: choose your trios."
    if k == "flipped":
        extra = f" ({d['extra_left']} extra left)" if "extra_left" in d else ""
        return f"{who} flips " + " ".join(c(x) for x in d["cards"]) + extra + "."
    if k == "recycled":
        return f"{who} turns the waste over as the new stock ({d['stock']} cards)."
    if k == "noble_used":
        if d["noble"] == "QH+KH":
            return f"{who} uses Q♥+K♥ and names {c(d['named'])}."
        if d["noble"] == "JC":
            return f"{who} flips with J♣ until a card fits."
        return f"{who} uses " + " ".join(noble(x) for x in d["noble"].split("+")) + "."
    if k == "built_castle":
        src = "the waste" if d["from"] == "waste" else d["from"]
        return f"{who} builds {c(d['card'])} on the {castle_word(d['card'])} from {src}."
    if k == "built_village":
        src = "the waste" if d["from"] == "waste" else d["from"]
        return f"{who} moves " + " ".join(c(x) for x in d["cards"]) + f" from {src} to V{d['to']}."
    if k == "hearts_jack_moved":
        to = "a castle" if d["to"] == "castle" else f"V{d['to']}"
        return f"{who} uses J♥: {c(d['card'])} from V{d['from']} to {to}."
    if k == "revealed":
        how = "Q♥ turns" if d["by"] == "QH" else "Turned up:"
        return f"{how} {c(d['card'])} in {seat(d['seat'])}'s V{d['village']}."
    if k == "ace_decided":
        return f"{who} " + (f"starts the castle with {c(d['card'])}." if d["start_castle"]
                            else f"keeps {c(d['card'])} in the village.")
    if k == "attacked":
        known = " ".join(c(x) for x in d["cards"])
        hidden = f" and {d['hidden']} face-down card{'s' if d['hidden'] > 1 else ''}" if d["hidden"] else ""
        if d["noble"] == "JS":
            what = f"J♠ clears V{d['village']} of {seat(d['target'])}"
        elif d["noble"] == "QS":
            what = f"Q♠ takes the village tops of {seat(d['target'])}"
        else:
            what = f"J♠Q♠K♠ destroy the {SYMBOL[d['suit']]} castle of {seat(d['target'])}"
        return f"⚔ {who}: {what} ({known}{hidden}) — under their stock."
    if k == "game_won":
        return f"🏆 Winner: {who}, all four castles complete!"
    if k == "game_drawn":
        return f"Round limit {d['rounds']} reached: the game is a draw."
    return None


def describe_action(action: dict) -> str:
    t = action.get("type")
    if t == "choose_trio":
        return "Trio " + trio(action["nobles"])
    if t == "choose_tiebreak_noble":
        return f"Tie-break {noble(action['noble'])}"
    if t == "standard_flip":
        return "Flip with J♣ (until a fit)" if action["club_jack"] else "Flip 1 card"
    if t == "extra_flip":
        return "Extra flip (♣)"
    if t == "hearts_queen_king_flip":
        return f"Q♥K♥ flip to {c(action['named_card'])}"
    if t == "build_castle":
        return f"{c(action['card'])} → castle"
    if t == "build_village":
        return f"{c(action['card'])} → V{action['village']}"
    if t == "hearts_jack_move":
        return f"J♥ {c(action['card'])} → " + ("castle" if action["destination"] == "castle"
                                                else f"V{action['destination']}")
    if t == "hearts_queen_reveal":
        return f"Q♥ reveal V{action['village']} card {action['position'] + 1}"
    if t == "hearts_queen_ace":
        return "Ace → castle" if action["start_castle"] else "Keep the ace"
    if t == "spade_jack_attack":
        return f"J♠ {action['target']} V{action['village']}"
    if t == "spade_queen_attack":
        return f"Q♠ tops of {action['target']}"
    if t == "spade_trio_attack":
        return f"J♠Q♠K♠ {action['target']} {SYMBOL[action['suit']]} castle"
    if t == "end_turn":
        return "End turn"
    return str(t)


TYPE_CHOICES = {"choose_trio": "Choose a trio", "choose_tiebreak_noble": "Tie-break noble", "standard_flip": "Flip",
                "extra_flip": "Extra flip (♣)", "hearts_queen_king_flip": "Q♥K♥ flip to a named card",
                "build_castle": "Build a castle", "build_village": "Build on a village",
                "hearts_jack_move": "J♥ move a card", "hearts_queen_reveal": "Q♥ turn a card",
                "hearts_queen_ace": "The ace Q♥ turned", "spade_jack_attack": "J♠ clear a village",
                "spade_queen_attack": "Q♠ take village tops", "spade_trio_attack": "J♠Q♠K♠ destroy a castle",
                "end_turn": "End turn"}


def describe_choice(key: str, value) -> str | None:
    """A picker step in the board's symbols: nobles ``J♠``, cards ``7♥``, villages ``V3``, players ``P2``."""
    if key == "type":
        return TYPE_CHOICES.get(value)
    if key in ("nobles", "noble"):
        return noble(value)
    if key in ("card", "named_card"):
        return c(value)
    if key == "village":
        return f"V{value}"
    if key == "destination":
        return "castle" if value == "castle" else f"V{value}"
    if key == "position":
        return f"card {value + 1} from the bottom"
    if key == "suit":
        return f"{SYMBOL[value]} castle"
    if key == "start_castle":
        return "start its castle" if value else "keep it in the village"
    if key == "club_jack":
        return "with J♣ (until a fit)" if value else "1 card"
    return None
