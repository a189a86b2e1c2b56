"""Chat text of a König Artus view: the track, the trump ladder, the trick; the hand for its owner."""
from __future__ import annotations

from rules.api import Event
from rules.lang import N_, _, colour_label, crowned_instead, mine, ngettext
from rules.koenig_artus.cards import MARKS, SHORT, card_of, marked, short


HELP = N_("""König Artus in short: win tricks to move your pawn (the digit on the track is your seat number) toward King
Arthur's field. Follow the led colour if you can; trumps (strongest last) beat it; Knights (Kn) and Shields (Sh) beat
everything. Landing on a sword field (x) lets you choose a new trump. Cards: R7 is red 7, K7 black 7.""")

# how equal results are placed (Game.tie_rule), and what a score counts (Game.score_unit)
TIE_RULE = N_("The first pawn on King Arthur's field wins; everybody else shares second place (the rules rank "
            "nobody behind the winner).")
SCORE_UNIT = "field"


def seat(s: int | None) -> str:
    return _("nobody") if s is None else f"{{P{s + 1}}}"


def card(text: str) -> str:
    return marked(card_of(text))


def colour(c: str) -> str:
    """A colour standing alone (a trump token): ``⬛K``, in German ``⬛ Schwarz``."""
    return colour_label(MARKS[c], SHORT[c], c)


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
    rows = [_("start:") + " " + (",".join(start) if start else "—")]
    line = "".join(cells)
    rows.append(line)
    rows.append("".join("|" if f % 5 == 0 else " " for f in range(1, view["track"] + 1)) +
                "  " + _("(| every 5th field, x sword, A King Arthur)"))
    return rows


def score_table(view: dict, last: int = 6) -> list[str]:
    """The running score per hand: each pawn's field at the end of every hand (the last ``last`` hands) and now,
    the leader first: ``{P2}  H1 4 · H2 9 · now 12``."""
    ends = view.get("hand_ends") or []
    first = max(0, len(ends) - last)
    order = sorted(range(view["players"]), key=lambda s: (-view["pos"][s], s))
    lines = [_("Fields after each hand (hands {first}–{last}):", first=first + 1, last=len(ends)) if first else
             _("Fields after each hand:")]
    for s in order:
        cells = [f"H{k + 1} {ends[k][s]}" for k in range(first, len(ends))]
        lines.append(f"  P{s + 1} {seat(s)}  " + " · ".join(cells + [_("now {field}", field=view['pos'][s])]))
    return lines


COLOUR_NAMES = {"red": N_("red"), "yellow": N_("yellow"), "green": N_("green"), "blue": N_("blue"),
                "purple": N_("purple"), "black": N_("black")}


# what a trick led by a Knight or a Shield is led with (the view's ``led``)
LED_SUPERTRUMP = N_("supertrump")


def colour_name(c: str) -> str:
    if c == "supertrump":
        return _(LED_SUPERTRUMP)
    return _(COLOUR_NAMES[c]) if c in COLOUR_NAMES else c


def board(view: dict) -> str:
    lines = [mine(view['dealer'], N_("Hand {hand} · trick {trick}/8 · dealer {dealer} · stack {stack}"),
                  N_("Hand {hand} · trick {trick}/8 · you deal · stack {stack}"), hand=view['hand_no'],
                  trick=view['trick_no'], dealer=seat(view['dealer']), stack=view['stack'])]
    lines.append("```")
    lines += track_strip(view)
    lines.append("```")
    lines.append(_("Pawns (the digit on the track is the seat): {pawns} (King Arthur: {track})",
                   pawns=", ".join(f"P{s + 1} {seat(s)} {p}" for s, p in enumerate(view["pos"])),
                   track=view['track']))
    if view["viewer"] is None and view.get("hand_ends"):
        lines += score_table(view)
    if view["slots"]:
        lines.append(_("Trumps, weakest → strongest:") + " " + " < ".join(f"{k + 1}:{colour(c)}" for k, c in
                                                                          enumerate(view["slots"])))
    else:
        lines.append(_("No trump yet. Knights and shields beat everything."))
    if view["trick"]:
        lines.append(_("Trick (led {led}):", led=colour_name(view['led'])) + " " +
                     " · ".join(f"{seat(s)} {card(c)}" for s, c in view["trick"]))
    elif view.get("last_trick"):
        last = view["last_trick"]
        lines.append(_("Last trick:") + " " + " · ".join(f"{seat(s)} {card(c)}" for s, c in last["cards"]) +
                     f" → {seat(last['winner'])}")
    lines.append(_("Cards in hand:") + " " + ", ".join(f"{seat(s)} {n}" for s, n in enumerate(view["hand_counts"])))
    if view["deferred"] is not None:
        lines.append(mine(view['deferred'], N_("{who} decides on trumps after the next deal."),
                          N_("You decide on trumps after the next deal.")))
    phase = view["phase"]
    if phase == "over":
        lines.append(crowned_instead(view, [view["winner"]]) or
                     "🏆 " + mine(view['winner'], N_("Winner: {who}, first to King Arthur's field!"),
                                  N_("You win, first to King Arthur's field!")))
    elif phase == "play":
        if view["to_act"][0] != view["viewer"]:  # (your own turn: "Your turn: e.g. …" below)
            lines.append(_("{who} to play.", who=seat(view['to_act'][0])))
    else:
        if len(view["slots"]) == 6:
            text = mine(view['decider'], N_("{who} landed on a sword field and swaps two trump tokens"),
                        N_("You landed on a sword field and swap two trump tokens"))
        else:
            text = mine(view['decider'], N_("{who} landed on a sword field and chooses a new trump colour"),
                        N_("You landed on a sword field and choose a new trump colour"))
        lines.append(text + (" " + mine(view['decider'], N_("(or defers)."), N_("(or defer).")) if view["can_defer"]
                             else "."))
    if view["viewer"] is not None:
        lines += _private(view)
    return "\n".join(lines)


def _private(view: dict) -> list[str]:
    hand = view.get("hand") or []
    lines = ["", _("Your hand:") + " " + (" ".join(card(c) for c in hand) or _("empty"))]
    if view["viewer"] not in view["to_act"]:
        return lines
    if view["phase"] == "play":
        playable = view.get("can_play") or []
        c0 = card_of(playable[0])
        example = short(c0) if c0 is not None else playable[0]
        if len(playable) < len(hand):
            lines.append(_("Your turn (you must follow the led colour): e.g. /move {card}", card=example))
        else:
            lines.append(_("Your turn: e.g. /move {card}", card=example))
    elif view["phase"] == "trump":
        if len(view["slots"]) == 6:
            lines.append(_("Swap two tokens by slot number, e.g. /move swap 1 6."))
        else:
            lines.append(_("Choose a trump colour: {colours} — e.g. /move trump {first}. It becomes the strongest "
                           "trump.", colours=", ".join(colour_name(c).lower() for c in view["free_tokens"]),
                           first=colour_name(view['free_tokens'][0]).lower()))  # local words: the notation takes them
        if view["can_defer"]:
            lines.append(_("Or /move defer: decide after the next deal, with your new cards in view."))
    return lines


def describe_event(event: Event) -> str | None:
    d = event.data
    kind = event.kind
    who = d.get("seat")
    if kind == "hand_dealt":
        return _("Hand {hand}:", hand=d['hand']) + " " + mine(
            d['dealer'], N_("{who} deals; {stack} cards left in the stack."),
            N_("You deal; {stack} cards left in the stack."), stack=d['stack'])
    if kind == "reshuffled":
        return _("The discard pile is shuffled under the stack.")
    if kind == "dealt":
        return _("Your new hand:") + " " + " ".join(card(c) for c in d["cards"])
    if kind == "card_played":
        return mine(who, N_("{who} plays {card}."), N_("You play {card}."), card=card(d['card']))
    if kind == "trick_won":
        return mine(who, N_("{who} wins the trick: pawn {start} → {end}."),
                    N_("You win the trick: pawn {start} → {end}."), start=d['from'], end=d['to'])
    if kind == "decision_due":
        if d["swap"]:
            return mine(who, N_("{who} is on a sword field: two trump tokens to swap."),
                        N_("You are on a sword field: two trump tokens to swap."))
        return mine(who, N_("{who} is on a sword field: a trump colour to choose."),
                    N_("You are on a sword field: a trump colour to choose."))
    if kind == "decision_deferred":
        return mine(who, N_("{who} will decide after the next deal."), N_("You will decide after the next deal."))
    if kind == "trump_chosen":
        return mine(who, N_("{who} makes {colour} trump (slot {slot}, now the strongest)."),
                    N_("You make {colour} trump (slot {slot}, now the strongest)."), colour=colour_name(d['color']),
                    slot=d['slot'])
    if kind == "tokens_swapped":
        return mine(who, N_("{who} swaps slots {a} and {b}: {order}"), N_("You swap slots {a} and {b}: {order}"),
                    a=d['slots'][0], b=d['slots'][1], order=" < ".join(colour_name(c) for c in d["order"]))
    if kind == "game_won":  # a fact of the table; who wins is the board's (and the result's) word: he may resign
        return "🏁 " + mine(d['seat'], N_("{who} reaches King Arthur's field first."),
                            N_("You reach King Arthur's field first."))
    return None


def describe_action(action: dict) -> str:
    kind = action.get("type")
    if kind == "play_card":
        return card(action["card"])
    if kind == "choose_trump":
        return _("Trump {colour}", colour=colour(action["color"]))
    if kind == "swap_trump_tokens":
        return _("Swap {a} ↔ {b}", a=action["slots"][0], b=action["slots"][1])
    if kind == "defer_trump_decision":
        return _("Decide after the deal")
    return str(kind)


TYPE_CHOICES = {"play_card": N_("Play a card"), "choose_trump": N_("Choose a trump"),
                "swap_trump_tokens": N_("Swap tokens"), "defer_trump_decision": N_("Decide after the deal")}


def describe_choice(key: str, value) -> str | None:
    if key == "type":
        return _(TYPE_CHOICES[value]) if value in TYPE_CHOICES else None
    if key == "card":
        return card(value)
    if key == "color":
        return colour(value)
    if key == "slots":
        return _("slot {n}", n=value)
    return None
