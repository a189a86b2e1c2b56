"""What every Guyenne action handler checks first (turns.py, fights.py): what the seat is expected to do in this
phase (said when it tries something else), exactly the action's fields, and cards the seat holds."""
from __future__ import annotations

from rules.api import IllegalAction
from rules.lang import N_, _, ngettext
from rules.guyenne import cards as C

# what a seat may do in each phase, said when it tries something else
EXPECTED = {"direction": N_("Choose the direction of this round: direction left (or right)."),
            "set_aside": N_("Set aside a card: e.g. aside 2."),
            "give": N_("Give cards to your partner and name who leads: e.g. give 5 2 partner leads."),
            "open1": N_("Open a castle: e.g. open 3 5 2."), "open2": N_("Open a second castle: e.g. open 5 4 3."),
            "respond1": N_("Answer at the castle: e.g. respond 4 2."),
            "respond2": N_("Answer at the castle: e.g. respond 4 2."),
            "reinforce": N_("Reinforce or pass: e.g. reinforce 3 2, or pass."), "defend": N_("Reveal or concede."),
            "losses": N_("Choose your losses: e.g. lose 4.")}


def expected(state, seat: int) -> str:
    if state.phase == "place":
        kind, _step, frontier = state.steps[state.step_index]
        if kind == "respond":
            return _("Answer first at castle {castle} on your frontier: e.g. respond 4 2.",
                     castle=state._respond_castle())
        return _("Open a castle on your frontier: {a}, {b} or {c}, e.g. open {a} 5 2.", a=3 * frontier + 1,
                 b=3 * frontier + 2, c=3 * frontier + 3)
    return _(EXPECTED[state.phase])


def check_fields(action: dict, allowed: set[str]) -> None:
    extra = set(action) - allowed - {"type"}
    if extra or not allowed <= set(action):
        if allowed:
            raise IllegalAction(_("This action takes {fields}.", fields=', '.join(sorted(allowed))))
        raise IllegalAction(_("This action takes nothing else."))


def cards_from(chosen, pool: list[str], most: int) -> list[str]:
    if not isinstance(chosen, list) or not chosen or not all(isinstance(c, str) for c in chosen):
        raise IllegalAction(_("Name at least one card, e.g. 5 or 2."))
    if len(set(chosen)) != len(chosen) or any(c not in pool for c in chosen):
        raise IllegalAction(_("You can only use cards you hold: {cards}.", cards=" ".join(C.label(c) for c in pool)))
    if chosen != C.order(chosen):
        raise IllegalAction(_("List the cards strongest first."))
    if len(chosen) > most:
        raise IllegalAction(ngettext("You may put at most {n} card there now.",
                                     "You may put at most {n} cards there now.", most))
    return chosen
