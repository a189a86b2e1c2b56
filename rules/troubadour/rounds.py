"""The flow of a Troubadour round: every player's secret trio, their reveal and the turn order it gives (rules
4.9, 4.10), the tie-break of identical trios (rock-paper-scissors with a fourth noble, or the die; A31), then each
turn's start and end (ended by the player, or by the engine when nothing else is legal, A36) and the round's end.

Plain functions of the state (``rules.troubadour.state.TroubadourState``, whose fields are described there)."""
from __future__ import annotations

from rules.api import Event, IllegalAction
from rules.lang import _
from rules.troubadour import actions, checks
from rules.troubadour.cards import NOBLE_INDEX, NOBLES, noble_of, rps_example, trio_key, trio_list
from rules.troubadour.flips import UNUSED

RPS_GAMES = 4  # the first rock-paper-scissors game and three repetitions; all drawn: the die decides (A31)
TIEBREAKS = ("rps", "die")


def choose_trio(state, seat: int, action: dict) -> list[Event]:
    checks.fields(action, ("nobles",), "trio JC QC JH")
    if state.trios[seat]:
        raise IllegalAction(_("You have already chosen your trio for this round; it cannot be changed."))
    nobles = action["nobles"]
    if not isinstance(nobles, list) or len(nobles) != 3:
        raise IllegalAction(_("Choose exactly three nobles, e.g. `trio JC QC JH`."))
    idx = [NOBLE_INDEX.get(x) if isinstance(x, str) else None for x in nobles]
    if None in idx:
        raise IllegalAction(_("Nobles are JS QS KS JD QD KD JC QC KC JH QH KH, e.g. `trio JC QC JH`."))
    if not idx[0] < idx[1] < idx[2]:
        if len(set(idx)) != 3:
            raise IllegalAction(_("Choose three different nobles."))
        raise IllegalAction(_("List the trio in noble order ({order}), e.g. {example}.", order=" ".join(NOBLES),
                              example=" ".join(NOBLES[i] for i in sorted(idx))))
    state.trios[seat] = sum(1 << i for i in idx)
    events = [Event("trio_chosen", {"seat": seat}),
              Event("own_trio", {"seat": seat, "nobles": list(nobles)}, (seat,))]
    if all(state.trios):
        events += reveal(state)
    return events


def reveal(state) -> list[Event]:
    """All trios are in: reveal them and order the round (4.9, 4.10)."""
    events = [Event("trios_revealed", {"trios": [trio_list(t) for t in state.trios]})]
    seats = sorted(range(state.n), key=lambda s: trio_key(state.trios[s]))
    groups: list[list[int]] = []
    for s in seats:
        if groups and state.trios[groups[-1][0]] == state.trios[s]:
            groups[-1].append(s)
        else:
            groups.append([s])
    state.groups = groups
    state.rps = []
    state.tiebreak_log = []
    for k, g in enumerate(groups):
        if len(g) == 1:
            continue
        if len(g) == 2 and state.tiebreak == "rps":
            state.rps.append({"seats": list(g), "picks": [None, None], "games": 0})
            events.append(Event("tiebreak_needed", {"seats": list(g), "method": "rps"}))
        else:
            events += die(state, k)
    if state.rps:
        state.phase = "tiebreak"
        return events
    return events + begin_turns(state)


def die(state, k: int, why: str = "identical trios") -> list[Event]:
    group = state.groups[k]
    events = [Event("tiebreak_needed", {"seats": list(group), "method": "die", "why": why})]
    state.groups[k] = roll(state, group, events)
    return events


def roll(state, seats: list[int], events: list[Event]) -> list[int]:
    rng = state._rng()
    rolls = {s: rng.randint(1, 6) for s in seats}
    events.append(Event("die_rolled", {"seats": list(seats), "rolls": [rolls[s] for s in seats]}))
    state.tiebreak_log.append({"method": "die", "seats": list(seats), "rolls": [rolls[s] for s in seats]})
    out: list[int] = []
    for value in sorted(set(rolls.values())):
        same = [s for s in seats if rolls[s] == value]
        out += same if len(same) == 1 else roll(state, same, events)
    return out


def choose_tiebreak(state, seat: int, action: dict) -> list[Event]:
    checks.fields(action, ("noble",), "rps QH")
    group = next((g for g in state.rps if seat in g["seats"]), None)
    if group is None:
        raise IllegalAction(_("Only the players with identical trios choose a tie-break noble."))
    at = group["seats"].index(seat)
    if group["picks"][at] is not None:
        raise IllegalAction(_("You have already chosen your tie-break noble."))
    x = noble_of(action["noble"]) if isinstance(action["noble"], str) and \
        action["noble"] == action["noble"].upper() else None
    if x is None:
        raise IllegalAction(_("Name one noble, e.g. `rps {noble}`.", noble=rps_example(trio_list(state.trios[seat]))))
    if state.trios[seat] >> x & 1:
        raise IllegalAction(_("{nobles} is in your trio: choose one of your other nine nobles.",
                              nobles=NOBLES[x]))
    group["picks"][at] = x
    events = [Event("tiebreak_chosen", {"seat": seat}),
              Event("own_tiebreak", {"seat": seat, "noble": NOBLES[x]}, (seat,))]
    if None in group["picks"]:
        return events
    a, b = group["seats"]
    fa, fb = (NOBLES[x][0] for x in group["picks"])
    nobles = [NOBLES[x] for x in group["picks"]]
    group["games"] += 1
    k = next(i for i, g in enumerate(state.groups) if set(g) == {a, b})
    if fa == fb:
        state.tiebreak_log.append({"method": "rps", "seats": [a, b], "nobles": nobles, "first": None})
        events.append(Event("rps_revealed", {"seats": [a, b], "nobles": nobles, "first": None,
                                             "games": group["games"]}))
        if group["games"] < RPS_GAMES:
            group["picks"] = [None, None]
            return events
        state.rps.remove(group)
        events += die(state, k, why="rock-paper-scissors drawn four times")
    else:
        beats = {"J": "K", "Q": "J", "K": "Q"}  # Queen beats Jack, King beats Queen, Jack beats King
        first = b if beats[fa] == fb else a  # the beaten player plays first
        state.tiebreak_log.append({"method": "rps", "seats": [a, b], "nobles": nobles, "first": first})
        events.append(Event("rps_revealed", {"seats": [a, b], "nobles": nobles, "first": first,
                                             "games": group["games"]}))
        state.groups[k] = [first, b if first == a else a]
        state.rps.remove(group)
    if state.rps:
        return events
    return events + begin_turns(state)


def begin_turns(state) -> list[Event]:
    state.order = [s for g in state.groups for s in g]
    state.phase = "turn"
    state.turn_idx = 0
    state.round_actions = 0
    events = [Event("turn_order", {"order": list(state.order), "round": state.round_no})]
    return events + start_turn(state)


def start_turn(state) -> list[Event]:
    p = state.order[state.turn_idx]
    state.flip_slot, state.extra_left, state.used, state.pending_ace, state.turn_actions = UNUSED, 0, 0, None, 0
    events = [Event("turn_started", {"seat": p, "round": state.round_no})]
    if not actions.busy(state, p):
        events += end_turn(state, p, auto=True)
    return events


def end_turn(state, p: int, auto: bool = False) -> list[Event]:
    events = [Event("turn_ended", {"seat": p, "auto": auto})]
    if state.turn_idx + 1 < len(state.order):
        state.turn_idx += 1
        return events + start_turn(state)
    state.last_trios = list(state.trios)
    state.trios = [0] * state.n
    state.order, state.groups, state.rps = [], [], []
    state.turn_idx = 0
    state.flip_slot, state.extra_left, state.used, state.pending_ace, state.turn_actions = UNUSED, 0, 0, None, 0
    if state.max_rounds and state.round_no >= state.max_rounds:
        state.phase, state.draw = "over", True
        return events + [Event("game_drawn", {"rounds": state.round_no})]
    state.round_no += 1
    state.round_actions = 0
    state.phase = "select_trios"
    return events + [Event("round_started", {"round": state.round_no})]


def end_turn_action(state, p: int, action: dict) -> list[Event]:
    checks.fields(action, (), "end")
    state.ended[p] += 1
    state.turn_actions += 1
    state.round_actions += 1
    return end_turn(state, p)


