"""Troubadour's narration: what each event says in the chat (``describe_event``), an action's label
(``describe_action``) and a picker step's (``describe_choice``)."""
from __future__ import annotations

from rules.api import Event
from rules.lang import N_, _, colon, mine, ngettext, reader
from rules.troubadour.cards import SYMBOL
from rules.troubadour.words import c, castle_word, noble, seat, trio


def plays_before(first: int, other: int) -> str:
    """The outcome of a tie-break: who plays before whom (not "plays first": the round's first is another)."""
    if other == reader():  # "vóór jou", "vor dir": the reader as the object
        return _("{who} plays before you", who=seat(first))
    return mine(first, N_("{who} plays before {them}"), N_("You play before {them}"), them=seat(other))


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
        return shown + colon() + (_("same face, again.") if d["first"] is None else
                                  plays_before(d["first"], next(s for s in d["seats"] if s != d["first"])) + ".")
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
    if k == "game_won":  # a fact of the table; who wins is the board's (and the result's) word: he may resign
        return "🏁 " + mine(who, N_("{who} completes all four castles."), N_("You complete all four castles."))
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
