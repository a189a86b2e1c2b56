"""Building in Troubadour, everything that moves a player's cards among his own waste, villages and castles:
castle and village builds (rules 3.3; a run moves as a block), J♥'s move of any face-up village card, Q♥'s reveal
of a face-down card and the decision on an ace it reveals, and the auto-reveal of a face-down card that becomes a
village's top (A18); the checks of an action's parameters are ``checks``.

Plain functions of the state (``rules.troubadour.state.TroubadourState``, whose fields are described there); an
action's function is the state's ``TURN_HANDLERS`` entry for it."""
from __future__ import annotations

from rules.api import Event, IllegalAction
from rules.lang import _
from rules.troubadour import checks
from rules.troubadour.cards import FD, JH, NAMES, QH, SUITS, fits_on, name


def locate(state, p: int, c: int) -> tuple[int, int] | None:
    for i, v in enumerate(state.villages[p]):
        for idx, x in enumerate(v):
            if x == c:
                return i, idx
    return None


def after_removal(state, p: int, v: int, events: list[Event]) -> None:
    """Auto-reveal (A18): a face-down card that became the top of a village turns face up."""
    village = state.villages[p][v]
    if village and village[-1] & FD:
        village[-1] &= ~FD
        events.append(Event("revealed", {"seat": p, "village": v + 1, "position": len(village) - 1,
                                         "card": name(village[-1]), "by": "auto"}))


def to_castle(state, p: int, c: int, events: list[Event]) -> list[Event]:
    state.castles[p][c // 10] = c % 10 + 1
    if all(r == 10 for r in state.castles[p]):
        state.phase, state.winner = "over", p
        events.append(Event("game_won", {"seat": p}))
    return events


def build_castle(state, p: int, action: dict) -> list[Event]:
    checks.fields(action, ("card",), "7C castle")
    c = checks.card(action)
    waste = state.waste[p]
    if waste and waste[-1] == c:
        source = "waste"
    else:
        at = locate(state, p, c)
        if at is None or at[1] != len(state.villages[p][at[0]]) - 1:
            raise IllegalAction(_("{card} is not the top card of your waste or of a village.", card=name(c)))
        source = f"V{at[0] + 1}"
    if not state.castle_accepts(p, c):
        top, suit = state.castles[p][c // 10], c // 10
        if top:
            raise IllegalAction(_("{card} does not fit your castles: the {suit} castle needs {next} next.",
                                  card=name(c), suit=SUITS[suit], next=NAMES[suit * 10 + top]))
        raise IllegalAction(_("{card} does not fit your castles: there is no {suit} castle yet (it starts with "
                              "{ace}).", card=name(c), suit=SUITS[suit], ace=NAMES[suit * 10]))
    events = [Event("built_castle", {"seat": p, "card": name(c), "from": source})]
    if source == "waste":
        waste.pop()
    else:
        state.villages[p][at[0]].pop()
        after_removal(state, p, at[0], events)
    return to_castle(state, p, c, events)


def build_village(state, p: int, action: dict) -> list[Event]:
    checks.fields(action, ("card", "village"), "8H V4")
    c = checks.card(action)
    v = checks.village(action["village"])
    waste = state.waste[p]
    target = state.villages[p][v]
    if target and not fits_on(c, target[-1]):
        raise IllegalAction(_("{card} does not fit on V{village}: its top {card2} needs a card one rank lower "
                              "of the opposite colour.", card=name(c), village=v + 1, card2=name(target[-1])))
    if waste and waste[-1] == c:
        waste.pop()
        target.append(c)
        return [Event("built_village", {"seat": p, "cards": [name(c)], "from": "waste", "to": v + 1})]
    at = locate(state, p, c)
    if at is None:
        raise IllegalAction(_("{card} is neither your waste top nor in one of your villages.", card=name(c)))
    i, idx = at
    if i == v:
        raise IllegalAction(_("{card} is already in V{village}.", card=name(c), village=v + 1))
    if idx < state.run_start(p, i):
        raise IllegalAction(_("{card} and the cards above it do not form a run: only a run can be moved.",
                              card=name(c)))
    src = state.villages[p][i]
    moved = src[idx:]
    del src[idx:]
    target.extend(moved)
    events = [Event("built_village", {"seat": p, "cards": [name(x) for x in moved], "from": f"V{i + 1}",
                                      "to": v + 1})]
    after_removal(state, p, i, events)
    return events


def hearts_jack(state, p: int, action: dict) -> list[Event]:
    checks.fields(action, ("card", "destination"), "JH 8H castle")
    if not state.has(p, JH):
        raise IllegalAction(_("J♥ is not in your trio."))
    if not state.usable(p, JH):
        raise IllegalAction(_("J♥ has already been used this turn."))
    c = checks.card(action)
    dest = action["destination"]
    at = locate(state, p, c)
    if at is None:
        raise IllegalAction(_("{card} is not a face-up card in one of your villages.", card=name(c)))
    i, idx = at
    src = state.villages[p][i]
    if dest == "castle":
        if not state.castle_accepts(p, c):
            raise IllegalAction(_("{card} does not fit your castles.", card=name(c)))
    else:
        j = checks.village(dest, destination=True)
        top = state.villages[p][j]
        if j == i and idx == len(src) - 1:
            raise IllegalAction(_("{card} is already the top of V{j}.", card=name(c), j=j + 1))
        if top and not fits_on(c, top[-1]):
            raise IllegalAction(_("{card} does not fit on V{j} (top {card2}).",
                                  card=name(c), j=j + 1, card2=name(top[-1])))
    state.used |= 1 << JH
    del src[idx]
    events = [Event("noble_used", {"seat": p, "noble": "JH"}),
              Event("hearts_jack_moved", {"seat": p, "card": name(c), "from": i + 1,
                                          "to": dest})]
    after_removal(state, p, i, events)
    if dest == "castle":
        return to_castle(state, p, c, events)
    state.villages[p][dest - 1].append(c)
    return events


def hearts_queen_reveal(state, p: int, action: dict) -> list[Event]:
    checks.fields(action, ("village", "position"), "QH V2 1")
    if not state.has(p, QH):
        raise IllegalAction(_("Q♥ is not in your trio."))
    if not state.usable(p, QH):
        raise IllegalAction(_("Q♥ has already been used this turn."))
    v = checks.village(action["village"])
    pos = action["position"]
    village = state.villages[p][v]
    if not isinstance(pos, int) or isinstance(pos, bool) or not 0 <= pos < len(village):
        raise IllegalAction(_("V{village} has no card at that position.", village=v + 1))
    if not village[pos] & FD:
        raise IllegalAction(_("That card of V{village} is already face up.", village=v + 1))
    state.used |= 1 << QH
    village[pos] &= ~FD
    c = village[pos]
    events = [Event("noble_used", {"seat": p, "noble": "QH"}),
              Event("revealed", {"seat": p, "village": v + 1, "position": pos, "card": name(c), "by": "QH"})]
    if c % 10 == 0:
        state.pending_ace = [v, pos]
    return events


def hearts_queen_ace(state, p: int, action: dict) -> list[Event]:
    checks.fields(action, ("start_castle",), "ace castle")
    if state.pending_ace is None:
        raise IllegalAction(_("There is no ace revealed by Q♥ waiting for a decision."))
    start = action["start_castle"]
    if not isinstance(start, bool):
        raise IllegalAction(_("Decide: `ace castle` (start its castle) or `ace keep`."))
    v, pos = state.pending_ace
    state.pending_ace = None
    c = state.villages[p][v][pos]
    events = [Event("ace_decided", {"seat": p, "card": name(c), "start_castle": start})]
    if not start:
        return events
    del state.villages[p][v][pos]
    after_removal(state, p, v, events)
    return to_castle(state, p, c, events)


