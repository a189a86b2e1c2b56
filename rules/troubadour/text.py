"""Chat text of a Troubadour view: every player's castles, stock, waste and villages, the trios, and for the
active player a list of everything he can do now (what can be built where, which nobles are still usable).

The game's text module (``rules.api.TextGame``): the narration of events and actions lives in ``narration.py`` and
is named here too; the words both use (a card, a noble, a player) in ``words.py``."""
from __future__ import annotations

from rules.lang import N_, _, crowned_instead, mine, ngettext, semicolon
from rules.troubadour.cards import SYMBOL, rps_example
from rules.troubadour.narration import describe_action, describe_choice, describe_event, plays_before
from rules.troubadour.words import c, noble, seat, trio

# the game's text module as rules.api.TextGame and the bot read it (describe_*: narration.py; c: words.py)
__all__ = ["HELP", "SCORE_UNIT", "TIE_RULE", "board", "c", "describe_action", "describe_choice", "describe_event"]

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


def castles_line(castles: list) -> str:
    parts = []
    for s, top in zip("SHDC", castles):
        parts.append(SYMBOL[s] + (top[:-1] if top else "–"))
    return " ".join(parts)


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
        lines.append("  " + _("J♠ clear a village:") + " " + semicolon().join(f"{t} " + " ".join(f"V{v}" for v in vs)
                                                                   for t, vs in o["spade_jack"].items()) +
                     eg + f"`JS {next(iter(o['spade_jack']))} V{next(iter(o['spade_jack'].values()))[0]}`")
    if o["spade_queen"]:
        lines.append("  " + _("Q♠ take all village tops of:") + " " + ", ".join(o["spade_queen"]) +
                     eg + f"`QS {o['spade_queen'][0]}`")
    if o["spade_trio"]:
        lines.append("  " + _("J♠Q♠K♠ destroy a castle:") + " " + semicolon().join(
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
    if view.get("tiebreak_log") and phase == "tiebreak":  # the turns' order says it after (and the log)
        for e in view["tiebreak_log"]:
            if e["method"] == "die":
                lines.append("🎲 " + ", ".join(f"{seat(s)} {r}" for s, r in zip(e["seats"], e["rolls"])))
            else:
                res = _("draw") if e["first"] is None else plays_before(
                    e["first"], next(s for s in e["seats"] if s != e["first"]))
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
            lines.append(_("/move rps {noble} (any noble not in your trio)",
                           noble=rps_example((view.get("trios") or [None] * (viewer + 1))[viewer])))
    elif phase == "turn":
        prot = view["turn"]["protected"]
        shields = [f"{t} {' '.join(noble(x) for x in xs)}" for t, xs in prot.items() if xs]
        if shields:
            lines.append("🛡 " + ", ".join(shields))
        lines += options_lines(view)
    else:
        if view.get("winner") is not None:  # (the first with four castles may have resigned: then the others)
            lines.append(crowned_instead(view, [view["winner"]]) or
                         "🏆 " + mine(view['winner'], N_("Winner: {who}, all four castles complete!"),
                                      N_("You win, all four castles complete!")))
        elif view.get("draw"):
            lines.append(_("The round limit ({rounds}) is reached: a draw.", rounds=view['max_rounds']))
        lines.append(_("Castle cards:") + " " + ", ".join(f"{seat(p)} {int(s)}" for p, s in enumerate(view["scores"])))
    return "\n".join(lines)
