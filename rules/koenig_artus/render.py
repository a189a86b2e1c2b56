"""Chat text of a König Artus view: the track, the trump ladder, the trick; the hand for its owner."""
from __future__ import annotations

from rules.api import Event
from rules.koenig_artus.cards import MARKS, SHORT, card_of, marked, short


HELP = """König Artus in short: win tricks to move your pawn (the digit on the track is your seat number) toward King
Arthur's field. Follow the led colour if you can; trumps (strongest last) beat it; Knights (Kn) and Shields (Sh) beat
everything. Landing on a sword field (x) lets you choose a new trump. Cards: R7 is red 7, K7 black 7."""

# how equal results are placed (Game.tie_rule), and what a score counts (Game.score_unit)
TIE_RULE = ("The first pawn on King Arthur's field wins; everybody else shares second place (the rules rank "
            "nobody behind the winner).")
SCORE_UNIT = "field"


def seat(s: int | None) -> str:
    return "nobody" if s is None else f"{{P{s + 1}}}"


def card(text: str) -> str:
    return marked(card_of(text))


def colour(c: str) -> str:
    return f"{MARKS[c]}{SHORT[c]}"


def track_strip(view: dict) -> list[str]:
    """Fields 1..track as characters: a seat number where a pawn stands, ⚔ on a free sword field, · else."""
    where = {p: s for s, p in enumerate(view["pos"]) if p > 0}
    cells = []
    for field in range(1, view["track"] + 1):
        if field in where:
            cells.append(str(where[field] + 1))
        elif field == view["track"]:
            cells.append("A")
        else:
            cells.append("x" if field in view["swords"] else "·")
    start = [str(s + 1) for s, p in enumerate(view["pos"]) if p == 0]
    rows = ["start: " + (",".join(start) if start else "—")]
    line = "".join(cells)
    rows.append(line)
    rows.append("".join("|" if f % 5 == 0 else " " for f in range(1, view["track"] + 1)) +
                "  (| every 5th field, x sword, A King Arthur)")
    return rows


def score_table(view: dict, last: int = 6) -> list[str]:
    """The running score per hand: each pawn's field at the end of every hand (the last ``last`` hands) and now,
    the leader first: ``{P2}  H1 4 · H2 9 · now 12``."""
    ends = view.get("hand_ends") or []
    first = max(0, len(ends) - last)
    order = sorted(range(view["players"]), key=lambda s: (-view["pos"][s], s))
    lines = ["Fields after each hand" + (f" (hands {first + 1}–{len(ends)})" if first else "") + ":"]
    for s in order:
        cells = [f"H{k + 1} {ends[k][s]}" for k in range(first, len(ends))]
        lines.append(f"  P{s + 1} {seat(s)}  " + " · ".join(cells + [f"now {view['pos'][s]}"]))
    return lines


def render(view: dict) -> str:
    lines = [f"Hand {view['hand_no']} · trick {view['trick_no']}/8 · dealer {seat(view['dealer'])} · "
             f"stack {view['stack']}"]
    lines.append("```")
    lines += track_strip(view)
    lines.append("```")
    lines.append("Pawns (the digit on the track is the seat): " +
                 ", ".join(f"P{s + 1} {seat(s)} {p}" for s, p in enumerate(view["pos"])) +
                 f" (King Arthur: {view['track']})")
    if view["viewer"] is None and view.get("hand_ends"):
        lines += score_table(view)
    if view["slots"]:
        lines.append("Trumps, weakest → strongest: " + " < ".join(f"{k + 1}:{colour(c)}" for k, c in
                                                                 enumerate(view["slots"])))
    else:
        lines.append("No trump yet. Knights and shields beat everything.")
    if view["trick"]:
        lines.append(f"Trick (led {view['led']}): " + " · ".join(f"{seat(s)} {card(c)}" for s, c in view["trick"]))
    elif view.get("last_trick"):
        last = view["last_trick"]
        lines.append("Last trick: " + " · ".join(f"{seat(s)} {card(c)}" for s, c in last["cards"]) +
                     f" → {seat(last['winner'])}")
    lines.append("Cards in hand: " + ", ".join(f"{seat(s)} {n}" for s, n in enumerate(view["hand_counts"])))
    if view["deferred"] is not None:
        lines.append(f"{seat(view['deferred'])} decides on trumps after the next deal.")
    phase = view["phase"]
    if phase == "over":
        lines.append(f"🏆 Winner: {seat(view['winner'])}, first to King Arthur's field!")
    elif phase == "play":
        lines.append(f"{seat(view['to_act'][0])} to play.")
    else:
        what = "swaps two trump tokens" if len(view["slots"]) == 6 else "chooses a new trump colour"
        lines.append(f"{seat(view['decider'])} landed on a sword field and {what}" +
                     (" (or defers)." if view["can_defer"] else "."))
    if view["viewer"] is not None:
        lines += _private(view)
    return "\n".join(lines)


def _private(view: dict) -> list[str]:
    hand = view.get("hand") or []
    lines = ["", "Your hand: " + (" ".join(card(c) for c in hand) or "empty")]
    if view["viewer"] not in view["to_act"]:
        return lines
    if view["phase"] == "play":
        playable = view.get("can_play") or []
        must = " (you must follow the led colour)" if len(playable) < len(hand) else ""
        c0 = card_of(playable[0])
        lines.append(f"Your turn{must}: e.g. /move {short(c0) if c0 is not None else playable[0]}")
    elif view["phase"] == "trump":
        if len(view["slots"]) == 6:
            lines.append("Swap two tokens by slot number, e.g. /move swap 1 6.")
        else:
            lines.append("Choose a trump colour: " + ", ".join(view["free_tokens"]) +
                         f" — e.g. /move trump {view['free_tokens'][0]}. It becomes the strongest trump.")
        if view["can_defer"]:
            lines.append("Or /move defer: decide after the next deal, with your new cards in view.")
    return lines


def describe_event(event: Event) -> str | None:
    d = event.data
    kind = event.kind
    if kind == "hand_dealt":
        return f"Hand {d['hand']}: {seat(d['dealer'])} deals; {d['stack']} cards left in the stack."
    if kind == "reshuffled":
        return "The discard pile is shuffled under the stack."
    if kind == "dealt":
        return "Your new hand: " + " ".join(card(c) for c in d["cards"])
    if kind == "card_played":
        return f"{seat(d['seat'])} plays {card(d['card'])}."
    if kind == "trick_won":
        return f"{seat(d['seat'])} wins the trick: pawn {d['from']} → {d['to']}."
    if kind == "decision_due":
        return f"{seat(d['seat'])} is on a sword field: " + ("two trump tokens to swap." if d["swap"] else
                                                             "a trump colour to choose.")
    if kind == "decision_deferred":
        return f"{seat(d['seat'])} will decide after the next deal."
    if kind == "trump_chosen":
        return f"{seat(d['seat'])} makes {d['color']} trump (slot {d['slot']}, now the strongest)."
    if kind == "tokens_swapped":
        return f"{seat(d['seat'])} swaps slots {d['slots'][0]} and {d['slots'][1]}: " + " < ".join(d["order"])
    if kind == "game_won":
        return f"🏆 Winner: {seat(d['seat'])}, first to King Arthur's field!"
    return None


def describe_action(action: dict) -> str:
    kind = action.get("type")
    if kind == "play_card":
        return card(action["card"])
    if kind == "choose_trump":
        return "Trump " + colour(action["color"])
    if kind == "swap_trump_tokens":
        return "Swap {} ↔ {}".format(*action["slots"])
    if kind == "defer_trump_decision":
        return "Decide after the deal"
    return str(kind)


TYPE_CHOICES = {"play_card": "Play a card", "choose_trump": "Choose a trump", "swap_trump_tokens": "Swap tokens",
                "defer_trump_decision": "Decide after the deal"}


def describe_choice(key: str, value) -> str | None:
    if key == "type":
        return TYPE_CHOICES.get(value)
    if key == "card":
        return card(value)
    if key == "color":
        return colour(value)
    if key == "slots":
        return f"slot {value}"
    return None
