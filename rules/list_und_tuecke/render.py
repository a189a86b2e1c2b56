"""Chat text of a Mit List und Tücke view: the table for the channel, plus the hand for its owner."""
from __future__ import annotations

from rules.api import Event
from rules.lang import N_, _, mine, ngettext
from rules.list_und_tuecke.cards import COLOUR_MARKS, COLOURS


HELP = N_("""Mit List und Tücke in short: the first card of a trick sets its trump colour; play any card, but a trick holds
at most three colours. The highest trump picks 2 cards of the trick (3 with 5–6 players); the lowest card of
another colour takes the rest and leads next. Your piles score: the two largest open piles multiplied, divided by
your other cards. Holding all four colours, you hide two. The menu lists the cards you may play; when you pick,
choose one card, then the next.""")

# how equal results are placed (Game.tie_rule), and what a score counts (Game.score_unit)
TIE_RULE = N_("Equal totals share the place (the game has no tie-break).")
SCORE_UNIT = "point"


def seat(s: int | None) -> str:
    return "nobody" if s is None else f"{{P{s + 1}}}"


def card(text: str) -> str:
    return COLOUR_MARKS[text[0]] + text


def cards(texts) -> str:
    return " ".join(card(t) for t in texts)


def score_table(view: dict) -> list[str]:
    """The running score per round: ``{P1}  R1 12 · R2 4 · total 16``, best total first."""
    rows = view["round_scores"]
    n = view["players"]
    order = sorted(range(n), key=lambda p: (-view["totals"][p], p))
    lines = ["Scores by round:"]
    for p in order:
        lines.append(f"  P{p + 1} {seat(p)}: " + " · ".join(f"R{k + 1} {r[p]}" for k, r in enumerate(rows)) +
                     f" · total {view['totals'][p]}")
    return lines


def _pts(n: int) -> str:
    return f"{n} pt" + ("" if n == 1 else "s")


def _piles(view: dict, p: int) -> str:
    opened = view["open_piles"][p]
    parts = [f"{COLOUR_MARKS[c]}{c}×{len(opened[c])}" for c in COLOURS if c in opened]
    hidden = view["hidden_colours"][p]
    if hidden:
        parts.append(f"hidden {''.join(hidden)}×{view['hidden_counts'][p]}")
    return " ".join(parts) or "no cards"


def render(view: dict) -> str:
    n = view["players"]
    viewer = view["viewer"]
    lines = [f"Round {view['round']}/{view['rounds']} · trick {view['trick_no']}/14 · dealer {seat(view['dealer'])}"
             f" · high takes {view['pick']}, low gets {view['rest']}"]
    if view["trick"]:
        lines.append(f"Trick (trump {COLOUR_MARKS[view['trump']]}{view['trump']}): " +
                     " · ".join(f"{seat(s)} {card(c)}" for s, c in view["trick"]))
        if len(view["trick_colours"]) == 3 and view["phase"] == "play":
            lines.append("Three colours in the trick: only " + "/".join(view["trick_colours"]) + " may follow.")
    last = view.get("last_trick")
    if last and not view["trick"]:
        if last.get("aborted"):
            lines.append("Last trick was cut short: " + " · ".join(f"{seat(s)} {card(c)}" for s, c in last["cards"]))
        else:
            taken = f"{seat(last['high'])} took {cards(last['picked'])}"
            if last["low"] is not None:
                taken += f"; {seat(last['low'])} got {cards(last['rest'])}"
            else:
                taken += f"; all trump: {cards(last['rest'])} left the round"
            lines.append("Last trick: " + taken)
    lines.append("```")
    width = 4
    for p in range(n):
        marker = "▶" if p in view["to_act"] else " "
        lines.append(f"{marker}P{p + 1} {seat(p):<{width}} {_piles(view, p)} | {_pts(view['round_points'][p])}, "
                     f"total {view['totals'][p]} | {view['hand_counts'][p]} in hand")
    lines.append("```")
    if view["out_of_round"]:
        lines.append("Out of this round: " + cards(view["out_of_round"]))
    if view["aborted_by"] is not None and view["phase"] != "over":
        lines.append(f"{seat(view['aborted_by'])} could not play: the previous round ended early.")
    if view["round_scores"] and viewer is None:
        lines += score_table(view)
    elif view["round_scores"]:
        lines.append("Totals after " + f"{len(view['round_scores'])} round" + ("s" if len(view["round_scores"]) > 1
                                                                             else "") + ": " +
                     " · ".join(f"{seat(p)} {view['totals'][p]}" for p in range(n)) + " (`board`: per round)")
    phase = view["phase"]
    if phase == "over":
        order = sorted(range(n), key=lambda p: (view["ranking"][p], p))
        lines.append("Final: " + ", ".join(f"{view['ranking'][p]}. {seat(p)} {view['totals'][p]}" for p in order))
    elif phase == "play":
        lines.append(f"{seat(view['to_act'][0])} to play a card.")
    elif phase == "pick":
        low = "all trump — the rest leaves the round" if view["low"] is None else f"{seat(view['low'])} gets the rest"
        lines.append(f"{seat(view['high'])} picks {view['pick']} cards of the trick; {low}.")
    elif phase == "hide":
        lines.append(f"{seat(view['to_act'][0])} holds all four colours and hides two of them.")
    if viewer is not None:
        lines += _private(view)
    return "\n".join(lines)


def _private(view: dict) -> list[str]:
    lines = [""]
    hand = view.get("hand") or []
    by_colour = [" ".join(card(c) for c in hand if c[0] == col) for col in COLOURS]
    lines.append("Your hand: " + (" · ".join(part for part in by_colour if part) or "empty"))
    if view.get("own_hidden"):
        lines.append("Your hidden piles: " + " · ".join(f"{c}: {' '.join(v)}" for c, v in view["own_hidden"].items()))
    if view["viewer"] in view["to_act"]:
        phase = view["phase"]
        if phase == "play":
            playable = view.get("can_play") or []
            lines.append("Your turn — play one of: " + " ".join(playable) + f"  (type e.g. /move {playable[0]})")
        elif phase == "pick":
            example = " ".join(c for _, c in view["trick"][:view["pick"]])
            lines.append(f"Your pick — take {view['pick']} cards of the trick (type e.g. /move pick {example}).")
        elif phase == "hide":
            lines.append("You hold all four colours: hide two of them (type e.g. /move hide B Y). "
                         "Only your open piles multiply.")
    return lines


def describe_event(event: Event) -> str | None:
    d = event.data
    kind = event.kind
    if kind == "round_started":
        return f"Round {d['round']}: {seat(d['dealer'])} deals, {seat(d['leader'])} leads."
    if kind == "dealt":
        return "Your new hand: " + cards(d["cards"])
    if kind == "card_played":
        return f"{seat(d['seat'])} plays {card(d['card'])}."
    if kind == "trick_resolved":
        low = "all trump, nobody is low" if d["low"] is None else f"{seat(d['low'])} is low"
        return f"trump {d['trump']}: {seat(d['high'])} is high and picks {d['pick']}, {low}."
    if kind == "cards_picked":
        return f"{seat(d['seat'])} takes {cards(d['cards'])}."
    if kind == "cards_received":
        return f"{seat(d['seat'])} gets {cards(d['cards'])}."
    if kind == "cards_removed":
        return f"All-trump trick: {cards(d['cards'])} leave the round."
    if kind == "colors_hidden":
        how = " (automatically, last trick)" if d.get("auto") else ""
        return f"{seat(d['seat'])} hides {' and '.join(d['colors'])}{how}."
    if kind == "next_leader":
        return f"{seat(d['seat'])} leads the next trick."
    if kind == "round_aborted":
        return f"{seat(d['seat'])} cannot play any of the trick's three colours: round {d['round']} ends early."
    if kind == "round_scored":
        return f"Round {d['round']} points: " + ", ".join(f"{seat(p)} {s}" for p, s in enumerate(d["scores"]))
    if kind == "game_over":
        return "Game over: " + ", ".join(f"{seat(p)} {t}" for p, t in enumerate(d["totals"]))
    return None


def describe_action(action: dict) -> str:
    kind = action.get("type")
    if kind == "play_card":
        return "Play " + card(action["card"])
    if kind == "pick_cards":
        return "Take " + cards(action["cards"])
    if kind == "hide_colors":
        return "Hide " + " ".join(COLOUR_MARKS[c] + c for c in action["colors"])
    return str(kind)


TYPE_CHOICES = {"play_card": "Play a card", "pick_cards": "Take cards", "hide_colors": "Hide colours"}


def describe_choice(key: str, value) -> str | None:
    if key == "type":
        return TYPE_CHOICES.get(value)
    if key in ("card", "cards"):
        return card(value)
    if key == "colors":
        return COLOUR_MARKS[value] + value
    return None
