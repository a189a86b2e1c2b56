"""Chat text of a Mit List und Tücke view: the table for the channel, plus the hand for its owner."""
from __future__ import annotations

from rules.api import Event
from rules.lang import N_, _, colour_label, mine, ngettext, reader
from rules.list_und_tuecke.cards import COLOUR_MARKS, COLOUR_NAMES, COLOURS


HELP = N_("""Mit List und Tücke in short: the first card of a trick sets its trump colour; play any card, but a trick holds
at most three colours. The highest trump picks 2 cards of the trick (3 with 5–6 players); the lowest card of
another colour takes the rest and leads next. Your piles score: the two largest open piles multiplied, divided by
your other cards. Holding all four colours, you hide two. The menu lists the cards you may play; when you pick,
choose one card, then the next.""")

# how equal results are placed (Game.tie_rule), and what a score counts (Game.score_unit)
TIE_RULE = N_("Equal totals share the place (the game has no tie-break).")
SCORE_UNIT = "point"


def seat(s: int | None) -> str:
    return _("nobody") if s is None else f"{{P{s + 1}}}"


def card(text: str) -> str:
    return COLOUR_MARKS[text[0]] + text


def cards(texts) -> str:
    return " ".join(card(t) for t in texts)


def score_table(view: dict) -> list[str]:
    """The running score per round: ``{P1}  R1 12 · R2 4 · total 16``, best total first."""
    rows = view["round_scores"]
    n = view["players"]
    order = sorted(range(n), key=lambda p: (-view["totals"][p], p))
    lines = [_("Scores by round:")]
    for p in order:
        lines.append(f"  P{p + 1} {seat(p)}: " + " · ".join(f"R{k + 1} {r[p]}" for k, r in enumerate(rows)) +
                     " · " + _("total {total}", total=view['totals'][p]))
    return lines


def mark(c: str) -> str:
    """A colour standing alone (a trump, a hidden colour): ``🟩G``, in French ``🟩 vert``."""
    return colour_label(COLOUR_MARKS[c], c, COLOUR_NAMES[c])


def _pts(n: int) -> str:
    return ngettext("{n} pt", "{n} pts", n)


def _piles(view: dict, p: int) -> str:
    opened = view["open_piles"][p]
    parts = [f"{COLOUR_MARKS[c]}{c}×{len(opened[c])}" for c in COLOURS if c in opened]
    hidden = view["hidden_colours"][p]
    if hidden:
        parts.append(_("hidden {colours}×{n}", colours=''.join(mark(c) for c in hidden), n=view['hidden_counts'][p]))
    return " ".join(parts) or _("nothing collected")  # (the piles taken in tricks, not the hand)


def board(view: dict) -> str:
    n = view["players"]
    viewer = view["viewer"]
    lines = [mine(view['dealer'],
                  N_("Round {round}/{rounds} · trick {trick}/14 · dealer {dealer} · high takes {pick}, low gets {rest}"),
                  N_("Round {round}/{rounds} · trick {trick}/14 · you deal · high takes {pick}, low gets {rest}"),
                  round=view['round'], rounds=view['rounds'], trick=view['trick_no'], dealer=seat(view['dealer']),
               pick=view['pick'], rest=view['rest'])]
    if view["trick"]:
        lines.append(_("Trick (trump {trump}):", trump=mark(view['trump'])) + " " +
                     " · ".join(f"{seat(s)} {card(c)}" for s, c in view["trick"]))
        if len(view["trick_colours"]) == 3 and view["phase"] == "play":
            lines.append(_("Three colours in the trick: only {colours} may follow.",
                           colours="/".join(mark(c) for c in view["trick_colours"])))
    last = view.get("last_trick")
    if last and not view["trick"]:
        if last.get("aborted"):
            lines.append(_("Last trick was cut short:") + " " +
                         " · ".join(f"{seat(s)} {card(c)}" for s, c in last["cards"]))
        else:
            if last["low"] is not None:
                taken = _("{high} took {picked}; {low} got {rest}", high=seat(last['high']),
                          picked=cards(last['picked']), low=seat(last['low']), rest=cards(last['rest']))
            else:
                taken = _("{high} took {picked}; all trump: {rest} left the round", high=seat(last['high']),
                          picked=cards(last['picked']), rest=cards(last['rest']))
            lines.append(_("Last trick:") + " " + taken)
    lines.append("```")
    width = 4
    for p in range(n):
        marker = "▶" if p in view["to_act"] else " "
        lines.append(f"{marker}P{p + 1} {seat(p):<{width}} {_piles(view, p)} | " +
                     _("{points}, total {total} | {n} in hand", points=_pts(view['round_points'][p]),
                       total=view['totals'][p], n=view['hand_counts'][p]))
    lines.append("```")
    if view["out_of_round"]:
        lines.append(_("Out of this round:") + " " + cards(view["out_of_round"]))
    if view["aborted_by"] is not None and view["phase"] != "over":
        lines.append(mine(view['aborted_by'], N_("{who} could not play: the previous round ended early."),
                          N_("You could not play: the previous round ended early.")))
    if view["round_scores"] and viewer is None:
        lines += score_table(view)
    elif view["round_scores"] and view["phase"] != "over":  # at the end the result says the totals, once
        lines.append(ngettext("Totals after {n} round: {totals} (`board`: per round)",
                              "Totals after {n} rounds: {totals} (`board`: per round)", len(view['round_scores']),
                              totals=" · ".join(f"{seat(p)} {view['totals'][p]}" for p in range(n))))
    phase = view["phase"]
    if phase == "over":
        pass  # the final result is the game's result message (places sorted, shared ones and the tie rule), once
    elif phase == "play":
        lines.append(_("{who} to play a card.", who=seat(view['to_act'][0])))
    elif phase == "pick":
        if view["low"] is None:
            lines.append(mine(view['high'], N_("{who} picks {n} cards of the trick; all trump — the rest leaves the "
                                               "round."),
                              N_("You pick {n} cards of the trick; all trump — the rest leaves the round."),
                              n=view['pick']))
        else:
            lines.append(mine(view['high'], N_("{who} picks {n} cards of the trick; {low} gets the rest."),
                              N_("You pick {n} cards of the trick; {low} gets the rest."), n=view['pick'],
                              low=seat(view['low'])))
    elif phase == "hide":
        lines.append(mine(view['to_act'][0], N_("{who} holds all four colours and hides two of them."),
                          N_("You hold all four colours and hide two of them.")))
    if viewer is not None:
        lines += _private(view)
    return "\n".join(lines)


def _private(view: dict) -> list[str]:
    lines = [""]
    hand = view.get("hand") or []
    by_colour = [" ".join(card(c) for c in hand if c[0] == col) for col in COLOURS]
    lines.append(_("Your hand:") + " " + (" · ".join(part for part in by_colour if part) or _("empty")))
    if view.get("own_hidden"):
        lines.append(_("Your hidden piles:") + " " + " · ".join(f"{c}: {' '.join(v)}"
                                                                for c, v in view["own_hidden"].items()))
    if view["viewer"] in view["to_act"]:
        phase = view["phase"]
        if phase == "play":
            playable = view.get("can_play") or []
            lines.append(_("Your turn — play one of: {cards}  (type e.g. /move {card})", cards=" ".join(playable),
                           card=playable[0]))
        elif phase == "pick":
            example = " ".join(c for _seat, c in view["trick"][:view["pick"]])
            lines.append(_("Your pick — take {n} cards of the trick (type e.g. /move pick {example}).",
                           n=view['pick'], example=example))
        elif phase == "hide":
            lines.append(_("You hold all four colours: hide two of them (type e.g. /move hide B Y). Only your open "
                           "piles multiply."))
    return lines


def describe_event(event: Event) -> str | None:
    d = event.data
    kind = event.kind
    who = d.get("seat")
    if kind == "round_started":
        if d['dealer'] == d['leader'] == reader():
            return _("Round {round}: you deal and lead.", round=d['round'])
        if d['leader'] == reader():
            return _("Round {round}: {dealer} deals, you lead.", round=d['round'], dealer=seat(d['dealer']))
        return mine(d['dealer'], N_("Round {round}: {dealer} deals, {leader} leads."),
                    N_("Round {round}: you deal, {leader} leads."), round=d['round'], dealer=seat(d['dealer']),
                    leader=seat(d['leader']))
    if kind == "dealt":
        return _("Your new hand:") + " " + cards(d["cards"])
    if kind == "card_played":
        return mine(who, N_("{who} plays {card}."), N_("You play {card}."), card=card(d['card']))
    if kind == "trick_resolved":
        if d["low"] is None:
            return mine(d['high'], N_("trump {trump}: {who} is high and picks {n}, all trump, nobody is low."),
                        N_("trump {trump}: You are high and pick {n}, all trump, nobody is low."), trump=mark(d['trump']),
                        n=d['pick'])
        if d['low'] == reader():
            return _("trump {trump}: {who} is high and picks {n}, you are low.", trump=mark(d['trump']),
                     who=seat(d['high']), n=d['pick'])
        return mine(d['high'], N_("trump {trump}: {who} is high and picks {n}, {low} is low."),
                    N_("trump {trump}: You are high and pick {n}, {low} is low."), trump=mark(d['trump']), n=d['pick'],
                    low=seat(d['low']))
    if kind == "cards_picked":
        return mine(who, N_("{who} takes {cards}."), N_("You take {cards}."), cards=cards(d['cards']))
    if kind == "cards_received":
        return mine(who, N_("{who} gets {cards}."), N_("You get {cards}."), cards=cards(d['cards']))
    if kind == "cards_removed":
        return _("All-trump trick: {cards} leave the round.", cards=cards(d['cards']))
    if kind == "colors_hidden":
        colours = _(" and ").join(mark(c) for c in d['colors'])
        if d.get("auto"):
            return mine(who, N_("{who} hides {colours} (automatically, last trick)."),
                        N_("You hide {colours} (automatically, last trick)."), colours=colours)
        return mine(who, N_("{who} hides {colours}."), N_("You hide {colours}."), colours=colours)
    if kind == "next_leader":
        return mine(who, N_("{who} leads the next trick."), N_("You lead the next trick."))
    if kind == "round_aborted":
        return mine(who, N_("{who} cannot play any of the trick's three colours: round {round} ends early."),
                    N_("You cannot play any of the trick's three colours: round {round} ends early."),
                    round=d['round'])
    if kind == "round_scored":
        return _("Round {round} points:", round=d['round']) + " " + ", ".join(
            f"{seat(p)} {s}" for p, s in enumerate(d["scores"]))
    if kind == "game_over":
        return _("Game over:") + " " + ", ".join(f"{seat(p)} {t}" for p, t in enumerate(d["totals"]))
    return None


def describe_action(action: dict) -> str:
    kind = action.get("type")
    if kind == "play_card":
        return _("Play {card}", card=card(action["card"]))
    if kind == "pick_cards":
        return _("Take {cards}", cards=cards(action["cards"]))
    if kind == "hide_colors":
        return _("Hide {colours}", colours=" ".join(mark(c) for c in action["colors"]))
    return str(kind)


TYPE_CHOICES = {"play_card": N_("Play a card"), "pick_cards": N_("Take cards"), "hide_colors": N_("Hide colours")}


def describe_choice(key: str, value) -> str | None:
    if key == "type":
        return _(TYPE_CHOICES[value]) if value in TYPE_CHOICES else None
    if key in ("card", "cards"):
        return card(value)
    if key == "colors":
        return mark(value)
    return None
