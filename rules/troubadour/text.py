"""Chat text of a Troubadour view: every player's castles, stock, waste and villages, the trios, and for the
active player a list of everything he can do now (what can be built where, which nobles are still usable)."""
from __future__ import annotations

from rules.api import Event
from rules.lang import N_, _, mine, ngettext
from rules.troubadour.cards import SYMBOL, card_of, pretty

NOBLE_POWER = {
    "JS": "clear a village", "QS": "take village tops", "KS": "with J♠Q♠: destroy a castle",
    "JD": "protects vs J♠", "QD": "protects vs Q♠", "KD": "protects vs J♠Q♠K♠",
    "JC": "flip until a card fits", "QC": "+2 flips", "KC": "+3 flips if a rival has J♣/Q♣",
    "JH": "move any face-up card", "QH": "turn a face-down card", "KH": "with Q♥: flip to a named card",
}
STATUS = {"used": N_("used"), "ready": N_("usable"), "later": N_("after the flip"), "idle": N_("not now"),
          "protects": N_("protects")}


HELP = N_("""Troubadour in short: build four castles (A→10 per suit) before anyone else.
Each round: pick 3 nobles in secret (the menu asks one noble, then the next). Then on your turn: flip, build
from the waste or a village top onto a castle (up by suit) or onto a village (down, alternating colours), use each
of your nobles once, and end the turn. ▒ is a face-down card. `board` shows every player's table.""")

# how equal results are placed (Game.tie_rule), and what a score counts (Game.score_unit)
TIE_RULE = N_("The first to complete all four castles wins; everybody else shares second place "
            "(a round-limit draw: everybody shares first place).")
SCORE_UNIT = "castle card"


def seat(s: int | None) -> str:
    return _("nobody") if s is None else f"{{P{s + 1}}}"


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
    return _("{suit} castle", suit=SYMBOL[code[-1]])


VILLAGES_WIDTH = 64  # a row of villages: five short ones fit one row, longer ones wrap to a second


def village_line(k: int, cards: list) -> str:
    """``V2 ▒▒ 7♣ 6♥``: the face-down cards (``▒`` each) then the face-up ones, bottom to top; ``V3 –`` empty."""
    if not cards:
        return f"V{k} –"
    hidden = "▒" * sum(1 for x in cards if x is None)
    shown = " ".join(c(x) for x in cards if x is not None)
    return f"V{k} " + " ".join(part for part in (hidden, shown) if part)


def village_rows(villages: list) -> list[str]:
    """A player's five villages in as few rows as fit ``VILLAGES_WIDTH`` (one or two, seldom three): a turn
    message shows a table in a few lines, not one line a village (issue 23, found 5)."""
    rows: list[str] = []
    for k, cards in enumerate(villages):
        part = village_line(k + 1, cards)
        if rows and len(rows[-1]) + 3 + len(part) <= VILLAGES_WIDTH:
            rows[-1] += " · " + part
        else:
            rows.append(part)
    return rows


def player_block(view: dict, p: int) -> list[str]:
    s = view["seats"][p]
    head = f"P{p + 1} {seat(p)}" + (" " + _("(you)") if view.get("viewer") == p else "")
    trios = view.get("trios") or []
    if trios and trios[p]:
        head += " · " + _("trio {nobles}", nobles=trio(trios[p]))
    elif view["phase"] == "select_trios":
        head += " · " + (_("chose ✓") if view["trio_chosen"][p] else _("choosing…"))
    turn = view.get("turn")
    if turn and turn["seat"] == p:
        head = "▶ " + head
    lines = [head]
    lines.append("  " + _("castles {castles} ({cards}/40) · stock {stock} · waste {waste}", castles=castles_line(
        s['castles']), cards=s['castle_cards'], stock=s['stock'], waste=s['waste']) +
        (" " + _("top {card}", card=c(s['waste_top'])) if s["waste_top"] else ""))
    lines += ["  " + row for row in village_rows(s["villages"])]
    return lines


def rival_line(view: dict, p: int) -> str:
    """Another player in one line (the private view): castles, stock, waste top and the village tops."""
    s = view["seats"][p]
    trios = view.get("trios") or []
    head = f"P{p + 1} {seat(p)}" + (" · " + _("trio {nobles}", nobles=trio(trios[p])) if trios and trios[p] else "")
    tops = " ".join(f"V{k + 1} {c(v[-1]) if v else '·'}" for k, v in enumerate(s["villages"]))
    turn = view.get("turn")
    return ("▶ " if turn and turn["seat"] == p else "") + head + " · " + _(
        "castles {castles} ({cards}/40) · stock {stock} · tops {tops}", castles=castles_line(s['castles']),
        cards=s['castle_cards'], stock=s['stock'], tops=tops)


def _list(items: list[str], limit: int = 12) -> str:
    shown = items[:limit]
    return ", ".join(shown) + (f" … (+{len(items) - limit})" if len(items) > limit else "")


def options_lines(view: dict) -> list[str]:
    turn = view["turn"]
    o = view["options"]
    p = turn["seat"]
    lines = [mine(p, N_("{who} may now:"), N_("You may now:"))]
    if turn["pending_ace"]:
        a = turn["pending_ace"]
        lines.append("  " + _("Q♥ revealed {card} in V{village}: `ace castle` starts its castle, `ace keep` leaves "
                              "it there.", card=c(a['card']), village=a['village']))
        return lines
    flips = []
    if o["flip"]:
        flips.append(_("`flip` (1 card)"))
    if o["club_jack"]:
        flips.append(_("`flip JC` (J♣: until a card fits)"))
    if o["extra_flip"]:
        flips.append(ngettext("`extra` ({n} extra flip left)", "`extra` ({n} extra flips left)",
                              turn['extra_flips_left']))
    if o["hearts_qk"]:
        flips.append(_("`QHKH {card}` (Q♥+K♥: flip until the named card)", card=o['hearts_qk'][0]))
    if flips:
        lines.append("  🔄 " + " · ".join(flips))
    elif turn["flip"] == "unused":
        lines.append("  🔄 " + _("nothing to flip"))
    else:
        lines.append("  🔄 " + _("flips done"))
    eg = "  " + _("e.g.") + " "
    if o["castle"]:
        lines.append("  🏰 " + _("to castle:") + " " + _list([c(x) for x in o["castle"]]) + eg +
                     f"`{o['castle'][0]} castle`")
    if o["village"]:
        moves = [f"{c(card)}→" + "/".join(f"V{v}" for v in vs) for card, vs in o["village"].items()]
        first = next(iter(o["village"].items()))
        lines.append("  🏘 " + _("to villages:") + " " + _list(moves) + eg + f"`{first[0]} V{first[1][0]}`")
    if o["hearts_jack"]:
        moves = [f"{c(card)}→" + "/".join("🏰" if d == "castle" else f"V{d}" for d in ds)
                 for card, ds in o["hearts_jack"].items()]
        lines.append("  " + _("J♥ (any face-up card, once):") + " " + _list(moves, 8) + eg + "`JH "
                     + next(iter(o["hearts_jack"])) + " " + _dest(next(iter(o["hearts_jack"].values()))[0]) + "`")
    if o["hearts_queen"]:
        spots = [f"V{v} {pos + 1}" for v, pos in o["hearts_queen"]]
        lines.append("  " + _("Q♥ turn a face-down card (village, nth from bottom):") + " " + _list(spots, 8) +
                     eg + f"`QH {spots[0]}`")
    if o["spade_jack"]:
        lines.append("  " + _("J♠ clear a village:") + " " + "; ".join(f"{t} " + " ".join(f"V{v}" for v in vs)
                                                                   for t, vs in o["spade_jack"].items()) +
                     eg + f"`JS {next(iter(o['spade_jack']))} V{next(iter(o['spade_jack'].values()))[0]}`")
    if o["spade_queen"]:
        lines.append("  " + _("Q♠ take all village tops of:") + " " + ", ".join(o["spade_queen"]) +
                     eg + f"`QS {o['spade_queen'][0]}`")
    if o["spade_trio"]:
        lines.append("  " + _("J♠Q♠K♠ destroy a castle:") + " " + "; ".join(
            f"{t} " + " ".join(SYMBOL[s] for s in ss) for t, ss in o["spade_trio"].items()) +
            eg + f"`JQK {next(iter(o['spade_trio']))} {next(iter(o['spade_trio'].values()))[0]}`")
    nobles = turn["nobles"]
    if nobles:
        lines.append("  " + _("Nobles:") + " " + " · ".join(f"{noble(k)} {_(STATUS[v])}" for k, v in nobles.items()))
    lines.append("  ⏹ " + _("`end` ends the turn"))
    return lines


def _dest(d) -> str:
    return "castle" if d == "castle" else f"V{d}"


def board(view: dict) -> str:
    phase = view["phase"]
    n = view["players"]
    head = "🎻 Troubadour · " + _("round {round}", round=view['round'])
    if view.get("max_rounds"):
        head += f"/{view['max_rounds']}"
    if phase == "turn":
        head += " · " + _("{who} to play", who=seat(view['current']))
    lines = [head]
    viewer = view.get("viewer")
    if phase == "turn" and view.get("order") and viewer is None:
        lines.append(_("Order:") + " " + " → ".join(seat(s) for s in view["order"]))
    for p in range(n):  # your own view: your table in full, the others in a line each (`board` shows all)
        lines += player_block(view, p) if viewer is None or p == viewer else [rival_line(view, p)]
    if view.get("tiebreak_log") and phase in ("tiebreak", "turn"):
        for e in view["tiebreak_log"]:
            if e["method"] == "die":
                lines.append("🎲 " + ", ".join(f"{seat(s)} {r}" for s, r in zip(e["seats"], e["rolls"])))
            else:
                res = _("draw") if e["first"] is None else mine(e['first'], N_("{who} plays first"),
                                                               N_("You play first"))
                lines.append("✊ " + " vs ".join(f"{seat(s)} {noble(x)}" for s, x in zip(e["seats"], e["nobles"]))
                             + f": {res}")
    if phase == "select_trios":
        chosen = view.get("my_trio")
        if chosen:
            lines.append(_("Your trio: {nobles} (secret until everyone has chosen).", nobles=trio(chosen)))
        waiting = [seat(s) for s in view["to_act"]]
        lines.append(_("Everyone chooses 3 nobles in secret: {waiting} still to choose.", waiting=", ".join(waiting)))
        if viewer is not None and viewer in view["to_act"]:
            lines.append(_("/move trio JC QC JH — ♠ attack, ♦ protect, ♣ flip more, ♥ build. Lowest noble "
                           "(♠<♦<♣<♥, J<Q<K) plays first."))
    elif phase == "tiebreak":
        for g in view["tiebreak"]:
            waiting = [seat(s) for s, done in zip(g["seats"], g["chosen"]) if not done]
            lines.append(_("Identical trios: {seats} play rock-paper-scissors with a 4th noble, game {game} of at "
                           "most 4 (Q beats J, K beats Q, J beats K; the beaten player starts). Waiting for "
                           "{waiting}.", seats=_(" and ").join(seat(s) for s in g["seats"]), game=g['games'] + 1,
                           waiting=", ".join(waiting)))
        if view.get("my_tiebreak"):
            lines.append(_("Your choice: {noble}", noble=noble(view['my_tiebreak'])))
        elif viewer is not None and viewer in view["to_act"]:
            lines.append(_("/move rps QH (any noble not in your trio)"))
    elif phase == "turn":
        prot = view["turn"]["protected"]
        shields = [f"{t} {' '.join(noble(x) for x in xs)}" for t, xs in prot.items() if xs]
        if shields:
            lines.append("🛡 " + ", ".join(shields))
        lines += options_lines(view)
    else:
        if view.get("winner") is not None:
            lines.append("🏆 " + _("Winner: {who}, all four castles complete!", who=seat(view['winner'])))
        elif view.get("draw"):
            lines.append(_("The round limit ({rounds}) is reached: a draw.", rounds=view['max_rounds']))
        lines.append(_("Castle cards:") + " " + ", ".join(f"{seat(p)} {int(s)}" for p, s in enumerate(view["scores"])))
    return "\n".join(lines)


def describe_event(event: Event) -> str | None:
    d = event.data
    k = event.kind
    who = d.get("seat")
    if k == "trio_chosen":
        return mine(who, N_("{who} has chosen a trio."), N_("You have chosen a trio."))
    if k == "own_trio":
        return _("Your trio: {nobles}.", nobles=trio(d['nobles']))
    if k == "trios_revealed":
        return _("Trios:") + " " + " · ".join(f"{seat(p)} {trio(t)}" for p, t in enumerate(d["trios"]))
    if k == "tiebreak_needed":
        seats = _(" and ").join(seat(s) for s in d["seats"])
        if d["method"] == "rps":
            return _("Identical trios of {seats}: rock-paper-scissors decides.", seats=seats)
        return _("Identical trios of {seats}: the die decides.", seats=seats)
    if k == "tiebreak_chosen":
        return mine(who, N_("{who} has chosen a tie-break noble."), N_("You have chosen a tie-break noble."))
    if k == "own_tiebreak":
        return _("Your tie-break noble: {noble}.", noble=noble(d['noble']))
    if k == "rps_revealed":
        shown = " vs ".join(f"{seat(s)} {noble(x)}" for s, x in zip(d["seats"], d["nobles"]))
        return shown + (": " + _("same face, again.") if d["first"] is None else ": " + mine(
            d['first'], N_("{who} plays first."), N_("You play first.")))
    if k == "die_rolled":
        return "🎲 " + ", ".join(mine(s, N_("{who} rolls {n}"), N_("you roll {n}"), n=r)
                                for s, r in zip(d["seats"], d["rolls"]))
    if k == "turn_order":
        return _("Round {round}:", round=d['round']) + " " + " → ".join(seat(s) for s in d["order"])
    if k == "turn_started":
        return mine(who, N_("{who}'s turn."), N_("Your turn."))
    if k == "turn_ended":
        if d["auto"]:
            return mine(who, N_("{who}'s turn ends (nothing more to do)."), N_("Your turn ends (nothing more to do)."))
        return mine(who, N_("{who}'s turn ends."), N_("Your turn ends."))
    if k == "round_started":
        return _("Round {round}: choose your trios.", round=d['round'])
    if k == "flipped":
        cards = " ".join(c(x) for x in d["cards"])
        if "extra_left" in d:
            return mine(who, N_("{who} flips {cards} ({left} extra left)."), N_("You flip {cards} ({left} extra left)."),
                        cards=cards, left=d['extra_left'])
        return mine(who, N_("{who} flips {cards}."), N_("You flip {cards}."), cards=cards)
    if k == "recycled":
        return mine(who, N_("{who} turns the waste over as the new stock ({n} cards)."),
                    N_("You turn the waste over as the new stock ({n} cards)."), n=d['stock'])
    if k == "noble_used":
        if d["noble"] == "QH+KH":
            return mine(who, N_("{who} uses Q♥+K♥ and names {card}."), N_("You use Q♥+K♥ and name {card}."),
                        card=c(d['named']))
        if d["noble"] == "JC":
            return mine(who, N_("{who} flips with J♣ until a card fits."), N_("You flip with J♣ until a card fits."))
        return mine(who, N_("{who} uses {nobles}."), N_("You use {nobles}."),
                    nobles=" ".join(noble(x) for x in d["noble"].split("+")))
    if k == "built_castle":
        if d["from"] == "waste":
            return mine(who, N_("{who} builds {card} on the {castle} from the waste."),
                        N_("You build {card} on the {castle} from the waste."), card=c(d['card']),
                        castle=castle_word(d['card']))
        return mine(who, N_("{who} builds {card} on the {castle} from {village}."),
                    N_("You build {card} on the {castle} from {village}."), card=c(d['card']),
                    castle=castle_word(d['card']), village=d["from"])
    if k == "built_village":
        cards = " ".join(c(x) for x in d["cards"])
        if d["from"] == "waste":
            return mine(who, N_("{who} moves {cards} from the waste to V{to}."),
                        N_("You move {cards} from the waste to V{to}."), cards=cards, to=d['to'])
        return mine(who, N_("{who} moves {cards} from {village} to V{to}."),
                    N_("You move {cards} from {village} to V{to}."), cards=cards, village=d["from"], to=d['to'])
    if k == "hearts_jack_moved":
        if d["to"] == "castle":
            return mine(who, N_("{who} uses J♥: {card} from V{village} to a castle."),
                        N_("You use J♥: {card} from V{village} to a castle."), card=c(d['card']), village=d['from'])
        return mine(who, N_("{who} uses J♥: {card} from V{village} to V{to}."),
                    N_("You use J♥: {card} from V{village} to V{to}."), card=c(d['card']), village=d['from'],
                    to=d['to'])
    if k == "revealed":
        if d["by"] == "QH":
            return mine(d['seat'], N_("Q♥ turns {card} in {who}'s V{village}."), N_("Q♥ turns {card} in your V{village}."),
                        card=c(d['card']), village=d['village'])
        return mine(d['seat'], N_("Turned up: {card} in {who}'s V{village}."),
                    N_("Turned up: {card} in your V{village}."), card=c(d['card']), village=d['village'])
    if k == "ace_decided":
        if d["start_castle"]:
            return mine(who, N_("{who} starts the castle with {card}."), N_("You start the castle with {card}."),
                        card=c(d['card']))
        return mine(who, N_("{who} keeps {card} in the village."), N_("You keep {card} in the village."),
                    card=c(d['card']))
    if k == "attacked":
        known = " ".join(c(x) for x in d["cards"])
        if d["hidden"]:
            known = ngettext("{cards} and {n} face-down card", "{cards} and {n} face-down cards", d['hidden'],
                             cards=known)
        if d["noble"] == "JS":
            what = _("J♠ clears V{village} of {target}", village=d['village'], target=seat(d['target']))
        elif d["noble"] == "QS":
            what = _("Q♠ takes the village tops of {target}", target=seat(d['target']))
        else:
            what = _("J♠Q♠K♠ destroy the {suit} castle of {target}", suit=SYMBOL[d['suit']], target=seat(d['target']))
        return "⚔ " + mine(who, N_("{who}: {what} ({cards}) — under their stock."),
                           N_("You: {what} ({cards}) — under their stock."), what=what, cards=known)
    if k == "game_won":
        return "🏆 " + _("Winner: {who}, all four castles complete!", who=seat(who))
    if k == "game_drawn":
        return _("Round limit {rounds} reached: the game is a draw.", rounds=d['rounds'])
    return None


def describe_action(action: dict) -> str:
    t = action.get("type")
    if t == "choose_trio":
        return _("Trio {nobles}", nobles=trio(action["nobles"]))
    if t == "choose_tiebreak_noble":
        return _("Tie-break {noble}", noble=noble(action['noble']))
    if t == "standard_flip":
        return _("Flip with J♣ (until a fit)") if action["club_jack"] else _("Flip 1 card")
    if t == "extra_flip":
        return _("Extra flip (♣)")
    if t == "hearts_queen_king_flip":
        return _("Q♥K♥ flip to {card}", card=c(action['named_card']))
    if t == "build_castle":
        return _("{card} → castle", card=c(action['card']))
    if t == "build_village":
        return f"{c(action['card'])} → V{action['village']}"
    if t == "hearts_jack_move":
        return f"J♥ {c(action['card'])} → " + (_("castle") if action["destination"] == "castle"
                                                else f"V{action['destination']}")
    if t == "hearts_queen_reveal":
        return _("Q♥ reveal V{village} card {n}", village=action['village'], n=action['position'] + 1)
    if t == "hearts_queen_ace":
        return _("Ace → castle") if action["start_castle"] else _("Keep the ace")
    if t == "spade_jack_attack":
        return f"J♠ {action['target']} V{action['village']}"
    if t == "spade_queen_attack":
        return _("Q♠ tops of {target}", target=action['target'])
    if t == "spade_trio_attack":
        return "J♠Q♠K♠ " + _("{target} {suit} castle", target=action['target'], suit=SYMBOL[action['suit']])
    if t == "end_turn":
        return _("End turn")
    return str(t)


TYPE_CHOICES = {"choose_trio": N_("Choose a trio"), "choose_tiebreak_noble": N_("Tie-break noble"),
                "standard_flip": N_("Flip"), "extra_flip": N_("Extra flip (♣)"),
                "hearts_queen_king_flip": N_("Q♥K♥ flip to a named card"), "build_castle": N_("Build a castle"),
                "build_village": N_("Build on a village"), "hearts_jack_move": N_("J♥ move a card"),
                "hearts_queen_reveal": N_("Q♥ turn a card"), "hearts_queen_ace": N_("The ace Q♥ turned"),
                "spade_jack_attack": N_("J♠ clear a village"), "spade_queen_attack": N_("Q♠ take village tops"),
                "spade_trio_attack": N_("J♠Q♠K♠ destroy a castle"), "end_turn": N_("End turn")}


def describe_choice(key: str, value) -> str | None:
    """A picker step in the board's symbols: nobles ``J♠``, cards ``7♥``, villages ``V3``, players ``P2``."""
    if key == "type":
        return _(TYPE_CHOICES[value]) if value in TYPE_CHOICES else None
    if key in ("nobles", "noble"):
        return noble(value)
    if key in ("card", "named_card"):
        return c(value)
    if key == "village":
        return f"V{value}"
    if key == "destination":
        return _("castle") if value == "castle" else f"V{value}"
    if key == "position":
        return _("card {n} from the bottom", n=value + 1)
    if key == "suit":
        return _("{suit} castle", suit=SYMBOL[value])
    if key == "start_castle":
        return _("start its castle") if value else _("keep it in the village")
    if key == "club_jack":
        return _("with J♣ (until a fit)") if value else _("1 card")
    return None
