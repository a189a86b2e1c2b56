"""Applying a Guyenne action: each kind of action checked and carried out by its handler (expert set-aside, the
team gift, the two-set direction, the placements, reinforcing and passing), every bad input refused with a
friendly reason before anything changes, and the turn passed on until the fights begin (fights.py).

Plain functions of the state (``rules.guyenne.state.GuyenneState``)."""
from __future__ import annotations

from rules.api import Event, IllegalAction, check_move
from rules.lang import _, translate
from rules.guyenne import cards as C, checks, fights
from rules.guyenne.board import MAX_AT_CASTLE, PLACING


def apply(state, seat: int, action: dict) -> list[Event]:
    check_move(action, seat, state.num_players, state.phase == "over")
    if seat not in state.to_act():
        raise IllegalAction(_("It is not your turn."))
    kind = action["type"]
    handler = HANDLERS.get(kind)
    if handler is None:
        raise IllegalAction(_("Unknown action {kind} here. {expected}",
                              kind=repr(kind), expected=checks.expected(state, seat)))
    events = handler(state, seat, action)
    castle = next((e.data["castle"] for e in events if e.audience is None and "castle" in e.data), None)
    state.last = {"seat": seat, "type": kind, "castle": castle}  # a new dict each time: clones may share it
    return events


def set_aside(state, seat: int, action: dict) -> list[Event]:
    """One choice of the 5 troop cards (rules: ``expert_set_aside(cards)``), named by kind; equal cards are
    interchangeable, so the first unused id of each kind goes. A game stored mid-way through the old five
    single picks chooses the cards still missing."""
    if state.phase != "set_aside":
        raise IllegalAction(checks.expected(state, seat))
    checks.check_fields(action, {"cards"})
    army = state.army_of[seat]
    want = 5 - len(state.aside[army])
    kinds = action["cards"]
    if not isinstance(kinds, list) or not all(isinstance(k, str) and k in C.KINDS[1:] for k in kinds):
        raise IllegalAction(_("Set aside troop cards (not the hero): 5, 4, 3, T, 2 or A, e.g. aside 4 3 2 2 A."))
    if kinds != sorted(kinds, key=C.KINDS.index):
        raise IllegalAction(_("List the cards strongest first, e.g. aside 4 3 2 2 A."))
    if len(kinds) != want:
        example = " ".join("4 3 2 2 A".split()[:want])
        raise IllegalAction(_("Set aside exactly {want} troop cards, e.g. aside {example}.",
                              want=want, example=example))
    left = [c for c in C.ARMY if c != "H" and c not in state.aside[army]]
    picks = []
    for k in kinds:
        pick = next((c for c in left if c[0] == k and c not in picks), None)
        if pick is None:
            count = sum(1 for c in left if c[0] == k)
            raise IllegalAction(_("Your army has only {count} × {card} to set aside.", count=count,
                                  card=translate(C.NAMES[k])))
        picks.append(pick)
    state.aside[army] = C.order(state.aside[army] + picks)  # a new list: clones share the old one
    events = [Event("set_aside", {"seat": seat, "count": len(state.aside[army])}),
              Event("set_aside_cards", {"seat": seat, "cards": C.order(picks)}, (seat,))]
    if all(len(a) == 5 for a in state.aside):
        for a in state.armies:
            state._deal(a)
        state.aside = [[] for _army in state.armies]  # in the discards now, where determinize re-deals them
        events.append(Event("setup_done", {"first": state.first}))
        events += fights.start_round_phase(state)
    return events


def give(state, seat: int, action: dict) -> list[Event]:
    if state.phase != "give" or seat not in state.givers:
        raise IllegalAction(checks.expected(state, seat))
    checks.check_fields(action, {"cards", "leader"})
    cards, who = action["cards"], action["leader"]
    if not isinstance(cards, list) or cards not in state._gifts(seat):
        hand = state.hands[seat]
        raise IllegalAction(_("You hold one card: give nothing (give me leads).") if len(hand) == 1 else
                            _("Give 1 to {most} of your cards and keep at least one, e.g. give {card} partner "
                              "leads.", most=min(5, len(hand) - 1), card=C.label(hand[0])))
    if who not in ("me", "partner"):
        raise IllegalAction(_("Name who leads this round: me or partner, e.g. give 5 2 partner leads."))
    army = state.army_of[seat]
    partner = next(m for m in state.members[army] if m != seat)
    state.hands[seat] = [c for c in state.hands[seat] if c not in cards]
    state.hands[partner] = C.order(state.hands[partner] + cards)
    state.leader[army] = seat if who == "me" else partner
    state.givers.remove(seat)
    state.given[seat] = state.given[seat] + cards  # 6: the giver knows them; the receiver has them in hand
    if state.given[partner]:
        state.given[partner] = [c for c in state.given[partner] if c not in cards]
    events = [Event("given", {"seat": seat, "to": partner, "count": len(cards), "leader": state.leader[army]}),
              Event("given_cards", {"seat": seat, "to": partner, "cards": list(cards)}, (seat, partner))]
    if not state.givers:
        state.phase = "open1"
    return events


def direction(state, seat: int, action: dict) -> list[Event]:
    """Two sets: the first player picks the way round the table; that fixes the placement steps (7.2)."""
    if state.phase != "direction":
        raise IllegalAction(checks.expected(state, seat))
    checks.check_fields(action, {"way"})
    way = action["way"]
    if way not in ("left", "right"):
        raise IllegalAction(_("The direction is left or right, e.g. direction left."))
    n = len(state.members)
    order = [(state.first + (k if way == "left" else -k)) % n for k in range(n)]
    # the frontier between Q(k) and Q(k+1): Q(k)'s own (left) frontier going left, Q(k+1)'s going right
    frontier = [order[k] if way == "left" else order[(k + 1) % n] for k in range(n)]
    steps = [["open", order[0], frontier[0]]]
    for k in range(1, n):
        steps += [["respond", order[k], frontier[k - 1]], ["open", order[k], frontier[k]]]
    steps.append(["respond", order[0], frontier[n - 1]])
    state.direction, state.steps, state.step_index = way, steps, 0
    state.rotation = order[1:] + order[:1]  # A35
    state.phase = "place"
    return [Event("direction", {"seat": seat, "way": way, "order": order})]


def place(state, seat: int, action: dict) -> list[Event]:
    phase = state.phase
    if phase == "place":
        kind, _step, frontier = state.steps[state.step_index]
        phase = "open_on" if kind == "open" else "respond_on"
    if phase not in PLACING + ("open_on", "respond_on") or (action["type"] == "open") != phase.startswith("open"):
        raise IllegalAction(checks.expected(state, seat))
    hand = state.hands[seat]
    army = state.army_of[seat]
    most = min(MAX_AT_CASTLE, len(hand) - (1 if state._keep_one(seat) else 0))
    if phase.startswith("open"):
        checks.check_fields(action, {"castle", "cards"})
        castle = action["castle"]
        if not isinstance(castle, int) or isinstance(castle, bool) or not 1 <= castle <= len(state.castles):
            raise IllegalAction(_("Castles are numbered 1 to {n}, e.g. open 3 5 2.", n=len(state.castles)))
        if phase == "open_on" and (castle - 1) // 3 != frontier:
            a, b = state.frontier_armies(frontier)
            raise IllegalAction(_("Open a castle on your frontier with seat {seat}: {a}, {b} or {c}.",
                                  seat=b + 1 if a == seat else a + 1, a=3 * frontier + 1, b=3 * frontier + 2,
                                  c=3 * frontier + 3))
        if state._fight_at(castle):
            raise IllegalAction(_("Castle {castle} is already contested this round: open another one.",
                                  castle=castle))
        cards = checks.cards_from(action["cards"], hand, most)
        controller = state.castles[castle - 1]
        pair = state.pair_of(castle)
        n = len(state.members)
        roles = [("defend" if controller == a else "attack") if a in pair else None for a in range(n)]
        state.fights.append({"castle": castle, "controller": controller, "roles": roles,
                            "cards": [[] for _army in range(n)], "revealed": [False] * n, "conceded": False,
                            "winner": None, "actors": [None] * n, "pair": list(pair)})
        fight = state.fights[-1]
    else:
        checks.check_fields(action, {"cards"})
        fight = state.fights[-1] if phase != "respond_on" else \
            next(f for f in state.fights if (f["castle"] - 1) // 3 == frontier)
        cards = checks.cards_from(action["cards"], hand, most)
    fight["actors"][army] = seat
    fight["cards"][army] = C.order(fight["cards"][army] + cards)
    state.hands[seat] = [c for c in hand if c not in cards]
    events = [Event("placed", {"seat": seat, "castle": fight["castle"], "count": len(cards),
                               "role": fight["roles"][army], "step": action["type"]}),
              Event("placed_cards", {"seat": seat, "castle": fight["castle"], "cards": cards}, (seat,))]
    if state.phase == "place":
        state.step_index += 1
        if state.step_index == len(state.steps):
            state.phase = "reinforce"
    else:
        state.phase = PLACING[PLACING.index(phase) + 1] if phase != "respond2" else "reinforce"
        if state.phase == "reinforce":  # A31: S2 leader, S1 leader, S2 other, S1 other (duel: second, first)
            rotation = [state.actor(state.second, 0), state.actor(state.first, 0), state.actor(state.second, 1),
                        state.actor(state.first, 1)]
            state.rotation = rotation[:2] if state.mode == "duel" else rotation
    if state.phase == "reinforce":
        state.step = 0
        state.passes = []
        events += auto_passes(state)
    return events


def reinforce(state, seat: int, action: dict) -> list[Event]:
    if state.phase != "reinforce":
        raise IllegalAction(checks.expected(state, seat))
    checks.check_fields(action, {"castle", "cards"})
    castle = action["castle"]
    fight = state._fight_at(castle) if isinstance(castle, int) and not isinstance(castle, bool) else None
    if fight is None:
        raise IllegalAction(_("Reinforce one of this round's two castles: {castles}.",
                              castles=_(" or ").join(str(f["castle"]) for f in state.fights)))
    army = state.army_of[seat]
    if fight["actors"][army] != seat:
        raise IllegalAction(_("You do not play castle {castle} this round: reinforce your own castle.",
                              castle=fight['castle']))
    cards = checks.cards_from(action["cards"], state.hands[seat], MAX_AT_CASTLE - len(fight["cards"][army]))
    fight["cards"][army] = C.order(fight["cards"][army] + cards)
    state.hands[seat] = [c for c in state.hands[seat] if c not in cards]
    state.passes = []
    events = [Event("placed", {"seat": seat, "castle": fight["castle"], "count": len(cards),
                               "role": fight["roles"][army], "step": "reinforce"}),
              Event("placed_cards", {"seat": seat, "castle": fight["castle"], "cards": cards}, (seat,))]
    state.step = (state.step + 1) % len(state.rotation)
    return events + auto_passes(state)


def pass_turn(state, seat: int, action: dict) -> list[Event]:
    if state.phase != "reinforce":
        raise IllegalAction(checks.expected(state, seat))
    checks.check_fields(action, set())
    return passed(state, seat, auto=False) + auto_passes(state)


def passed(state, seat: int, auto: bool) -> list[Event]:
    if seat not in state.passes:
        state.passes.append(seat)
    state.step = (state.step + 1) % len(state.rotation)
    return [Event("passed", {"seat": seat, "auto": auto})]


def auto_passes(state) -> list[Event]:
    """Players who cannot add a card pass by themselves (A10); when everyone passed in a row, fights begin."""
    events: list[Event] = []
    while state.phase == "reinforce":
        if set(state.passes) >= set(state.rotation):  # everyone passed, one after another
            state.phase = "resolve"
            state.fight_index = 0
            return events + fights.resolve(state)
        actor = state.rotation[state.step]
        if state._has_room(actor):
            return events
        events += passed(state, actor, auto=True)
    return events


def next_actor(state) -> int | None:
    """``State.next_to_act``: the set order of the placements, and in reinforcing the next player who has room
    whether the one to act adds cards or passes (None when a pass would end the reinforcing, or the turn comes
    back to the one acting, whose room depends on what they add). The fights and the simultaneous phases: None."""
    seat = state.to_act()[0] if len(state.to_act()) == 1 else None
    if seat is None:
        return None
    if state.phase == "place":
        i = state.step_index + 1
        nxt = state.steps[i][1] if i < len(state.steps) else None
    elif state.phase in PLACING[:-1]:
        first, second = state.first, state.second
        nxt = {"open1": state.actor(second, 0), "respond1": state.actor(second, 1),
               "open2": state.actor(first, 1)}[state.phase]
    elif state.phase == "reinforce":
        after_pass, after_adding = _next_with_room(state, seat, state.passes + [seat]), _next_with_room(state, seat, [])
        nxt = after_pass if after_pass == after_adding else None
    else:
        return None
    return None if nxt == seat else nxt


def _next_with_room(state, seat: int, passes: list[int]) -> int | None:
    """Who ``auto_passes`` would stop at after ``seat``'s turn, with ``passes`` passed; None at the end of the
    reinforcing or back at ``seat``."""
    rotation = state.rotation
    step, passed = (state.step + 1) % len(rotation), set(passes)
    for _turn in rotation:
        actor = rotation[step]
        if passed >= set(rotation) or actor == seat:
            return None
        if state._has_room(actor):
            return actor
        passed.add(actor)
        step = (step + 1) % len(rotation)
    return None


# each action's handler (the fights' decisions and losses: fights.py)


HANDLERS = {"set_aside": set_aside, "give": give, "direction": direction, "open": place, "respond": place,
            "reinforce": reinforce, "pass": pass_turn, "reveal": fights.decide, "concede": fights.decide,
            "lose": fights.lose}
