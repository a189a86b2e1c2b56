"""The flow of a Troubadour round: every player's secret trio, their reveal and the turn order it gives (rules
4.9, 4.10), the tie-break of identical trios (rock-paper-scissors with a fourth noble, or the die; A31), then each
turn's start and end (ended by the player, or by the engine when nothing else is legal, A36) and the round's end.

A mixin of ``rules.troubadour.state.TroubadourState``; the state's fields are described there."""
from __future__ import annotations

from rules.api import Event, IllegalAction
from rules.lang import _
from rules.troubadour.cards import NOBLE_INDEX, NOBLES, noble_of, trio_key, trio_list
from rules.troubadour.flips import UNUSED

RPS_GAMES = 4  # the first rock-paper-scissors game and three repetitions; all drawn: the die decides (A31)
TIEBREAKS = ("rps", "die")


class RoundMixin:
    """Trios, tie-breaks, turns and rounds (mixed into ``TroubadourState``)."""

    def _choose_trio(self, seat: int, action: dict) -> list[Event]:
        self._fields(action, ("nobles",), "trio JC QC JH")
        if self.trios[seat]:
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
        self.trios[seat] = sum(1 << i for i in idx)
        events = [Event("trio_chosen", {"seat": seat}),
                  Event("own_trio", {"seat": seat, "nobles": list(nobles)}, (seat,))]
        if all(self.trios):
            events += self._reveal()
        return events

    def _reveal(self) -> list[Event]:
        """All trios are in: reveal them and order the round (4.9, 4.10)."""
        events = [Event("trios_revealed", {"trios": [trio_list(t) for t in self.trios]})]
        seats = sorted(range(self.n), key=lambda s: trio_key(self.trios[s]))
        groups: list[list[int]] = []
        for s in seats:
            if groups and self.trios[groups[-1][0]] == self.trios[s]:
                groups[-1].append(s)
            else:
                groups.append([s])
        self.groups = groups
        self.rps = []
        self.tiebreak_log = []
        for k, g in enumerate(groups):
            if len(g) == 1:
                continue
            if len(g) == 2 and self.tiebreak == "rps":
                self.rps.append({"seats": list(g), "picks": [None, None], "games": 0})
                events.append(Event("tiebreak_needed", {"seats": list(g), "method": "rps"}))
            else:
                events += self._die(k)
        if self.rps:
            self.phase = "tiebreak"
            return events
        return events + self._begin_turns()

    def _die(self, k: int, why: str = "identical trios") -> list[Event]:
        group = self.groups[k]
        events = [Event("tiebreak_needed", {"seats": list(group), "method": "die", "why": why})]
        self.groups[k] = self._roll(group, events)
        return events

    def _roll(self, seats: list[int], events: list[Event]) -> list[int]:
        rng = self._rng()
        rolls = {s: rng.randint(1, 6) for s in seats}
        events.append(Event("die_rolled", {"seats": list(seats), "rolls": [rolls[s] for s in seats]}))
        self.tiebreak_log.append({"method": "die", "seats": list(seats), "rolls": [rolls[s] for s in seats]})
        out: list[int] = []
        for value in sorted(set(rolls.values())):
            same = [s for s in seats if rolls[s] == value]
            out += same if len(same) == 1 else self._roll(same, events)
        return out

    def _choose_tiebreak(self, seat: int, action: dict) -> list[Event]:
        self._fields(action, ("noble",), "rps QH")
        group = next((g for g in self.rps if seat in g["seats"]), None)
        if group is None:
            raise IllegalAction(_("Only the players with identical trios choose a tie-break noble."))
        at = group["seats"].index(seat)
        if group["picks"][at] is not None:
            raise IllegalAction(_("You have already chosen your tie-break noble."))
        x = noble_of(action["noble"]) if isinstance(action["noble"], str) and \
            action["noble"] == action["noble"].upper() else None
        if x is None:
            raise IllegalAction(_("Name one noble, e.g. `rps QH`."))
        if self.trios[seat] >> x & 1:
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
        k = next(i for i, g in enumerate(self.groups) if set(g) == {a, b})
        if fa == fb:
            self.tiebreak_log.append({"method": "rps", "seats": [a, b], "nobles": nobles, "first": None})
            events.append(Event("rps_revealed", {"seats": [a, b], "nobles": nobles, "first": None,
                                                 "games": group["games"]}))
            if group["games"] < RPS_GAMES:
                group["picks"] = [None, None]
                return events
            self.rps.remove(group)
            events += self._die(k, why="rock-paper-scissors drawn four times")
        else:
            beats = {"J": "K", "Q": "J", "K": "Q"}  # Queen beats Jack, King beats Queen, Jack beats King
            first = b if beats[fa] == fb else a  # the beaten player plays first
            self.tiebreak_log.append({"method": "rps", "seats": [a, b], "nobles": nobles, "first": first})
            events.append(Event("rps_revealed", {"seats": [a, b], "nobles": nobles, "first": first,
                                                 "games": group["games"]}))
            self.groups[k] = [first, b if first == a else a]
            self.rps.remove(group)
        if self.rps:
            return events
        return events + self._begin_turns()

    def _begin_turns(self) -> list[Event]:
        self.order = [s for g in self.groups for s in g]
        self.phase = "turn"
        self.turn_idx = 0
        self.round_actions = 0
        events = [Event("turn_order", {"order": list(self.order), "round": self.round_no})]
        return events + self._start_turn()

    def _start_turn(self) -> list[Event]:
        p = self.order[self.turn_idx]
        self.flip_slot, self.extra_left, self.used, self.pending_ace, self.turn_actions = UNUSED, 0, 0, None, 0
        events = [Event("turn_started", {"seat": p, "round": self.round_no})]
        if not self._busy(p):
            events += self._end_turn(p, auto=True)
        return events

    def _end_turn(self, p: int, auto: bool = False) -> list[Event]:
        events = [Event("turn_ended", {"seat": p, "auto": auto})]
        if self.turn_idx + 1 < len(self.order):
            self.turn_idx += 1
            return events + self._start_turn()
        self.last_trios = list(self.trios)
        self.trios = [0] * self.n
        self.order, self.groups, self.rps = [], [], []
        self.turn_idx = 0
        self.flip_slot, self.extra_left, self.used, self.pending_ace, self.turn_actions = UNUSED, 0, 0, None, 0
        if self.max_rounds and self.round_no >= self.max_rounds:
            self.phase, self.draw = "over", True
            return events + [Event("game_drawn", {"rounds": self.round_no})]
        self.round_no += 1
        self.round_actions = 0
        self.phase = "select_trios"
        return events + [Event("round_started", {"round": self.round_no})]

    def _end_turn_action(self, p: int, action: dict) -> list[Event]:
        self._fields(action, (), "end")
        self.ended[p] += 1
        self.turn_actions += 1
        self.round_actions += 1
        return self._end_turn(p)
