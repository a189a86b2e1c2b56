"""Building in Troubadour, everything that moves a player's cards among his own waste, villages and castles:
castle and village builds (rules 3.3; a run moves as a block), J♥'s move of any face-up village card, Q♥'s reveal
of a face-down card and the decision on an ace it reveals, and the auto-reveal of a face-down card that becomes a
village's top (A18). Also the checks of a card or village parameter, which the attacks share.

A mixin of ``rules.troubadour.state.TroubadourState``; the state's fields are described there."""
from __future__ import annotations

from rules.api import Event, IllegalAction
from rules.lang import _
from rules.troubadour.cards import FD, JH, NAMES, QH, SUITS, card_of, fits_on, name


class BuildMixin:
    """The building actions (mixed into ``TroubadourState``)."""

    def _locate(self, p: int, c: int) -> tuple[int, int] | None:
        for i, v in enumerate(self.villages[p]):
            for idx, x in enumerate(v):
                if x == c:
                    return i, idx
        return None

    def _card(self, action: dict, key: str = "card") -> int:
        c = card_of(action[key]) if isinstance(action[key], str) else None
        if c is None or action[key] != name(c):
            raise IllegalAction(_("Name a building card like 7H or 10C (A–10 of S H D C)."))
        return c

    def _village(self, value, destination: bool = False) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 5:
            if destination:
                raise IllegalAction(_("The destination (castle or a village) is a number from 1 to 5."))
            raise IllegalAction(_("The village is a number from 1 to 5."))
        return value - 1

    def _after_removal(self, p: int, v: int, events: list[Event]) -> None:
        """Auto-reveal (A18): a face-down card that became the top of a village turns face up."""
        village = self.villages[p][v]
        if village and village[-1] & FD:
            village[-1] &= ~FD
            events.append(Event("revealed", {"seat": p, "village": v + 1, "position": len(village) - 1,
                                             "card": name(village[-1]), "by": "auto"}))

    def _to_castle(self, p: int, c: int, events: list[Event]) -> list[Event]:
        self.castles[p][c // 10] = c % 10 + 1
        if all(r == 10 for r in self.castles[p]):
            self.phase, self.winner = "over", p
            events.append(Event("game_won", {"seat": p}))
        return events

    def _build_castle(self, p: int, action: dict) -> list[Event]:
        self._fields(action, ("card",), "7C castle")
        c = self._card(action)
        waste = self.waste[p]
        if waste and waste[-1] == c:
            source = "waste"
        else:
            at = self._locate(p, c)
            if at is None or at[1] != len(self.villages[p][at[0]]) - 1:
                raise IllegalAction(_("{card} is not the top card of your waste or of a village.", card=name(c)))
            source = f"V{at[0] + 1}"
        if not self.castle_accepts(p, c):
            top, suit = self.castles[p][c // 10], c // 10
            if top:
                raise IllegalAction(_("{card} does not fit your castles: the {suit} castle needs {next} next.",
                                      card=name(c), suit=SUITS[suit], next=NAMES[suit * 10 + top]))
            raise IllegalAction(_("{card} does not fit your castles: there is no {suit} castle yet (it starts with "
                                  "{ace}).", card=name(c), suit=SUITS[suit], ace=NAMES[suit * 10]))
        events = [Event("built_castle", {"seat": p, "card": name(c), "from": source})]
        if source == "waste":
            waste.pop()
        else:
            self.villages[p][at[0]].pop()
            self._after_removal(p, at[0], events)
        return self._to_castle(p, c, events)

    def _build_village(self, p: int, action: dict) -> list[Event]:
        self._fields(action, ("card", "village"), "8H V4")
        c = self._card(action)
        v = self._village(action["village"])
        waste = self.waste[p]
        target = self.villages[p][v]
        if target and not fits_on(c, target[-1]):
            raise IllegalAction(_("{card} does not fit on V{village}: its top {card2} needs a card one rank lower "
                                  "of the opposite colour.", card=name(c), village=v + 1, card2=name(target[-1])))
        if waste and waste[-1] == c:
            waste.pop()
            target.append(c)
            return [Event("built_village", {"seat": p, "cards": [name(c)], "from": "waste", "to": v + 1})]
        at = self._locate(p, c)
        if at is None:
            raise IllegalAction(_("{card} is neither your waste top nor in one of your villages.", card=name(c)))
        i, idx = at
        if i == v:
            raise IllegalAction(_("{card} is already in V{village}.", card=name(c), village=v + 1))
        if idx < self.run_start(p, i):
            raise IllegalAction(_("{card} and the cards above it do not form a run: only a run can be moved.",
                                  card=name(c)))
        src = self.villages[p][i]
        moved = src[idx:]
        del src[idx:]
        target.extend(moved)
        events = [Event("built_village", {"seat": p, "cards": [name(x) for x in moved], "from": f"V{i + 1}",
                                          "to": v + 1})]
        self._after_removal(p, i, events)
        return events

    def _hearts_jack(self, p: int, action: dict) -> list[Event]:
        self._fields(action, ("card", "destination"), "JH 8H castle")
        if not self.has(p, JH):
            raise IllegalAction(_("J♥ is not in your trio."))
        if not self.usable(p, JH):
            raise IllegalAction(_("J♥ has already been used this turn."))
        c = self._card(action)
        dest = action["destination"]
        at = self._locate(p, c)
        if at is None:
            raise IllegalAction(_("{card} is not a face-up card in one of your villages.", card=name(c)))
        i, idx = at
        src = self.villages[p][i]
        if dest == "castle":
            if not self.castle_accepts(p, c):
                raise IllegalAction(_("{card} does not fit your castles.", card=name(c)))
        else:
            j = self._village(dest, destination=True)
            top = self.villages[p][j]
            if j == i and idx == len(src) - 1:
                raise IllegalAction(_("{card} is already the top of V{j}.", card=name(c), j=j + 1))
            if top and not fits_on(c, top[-1]):
                raise IllegalAction(_("{card} does not fit on V{j} (top {card2}).",
                                      card=name(c), j=j + 1, card2=name(top[-1])))
        self.used |= 1 << JH
        del src[idx]
        events = [Event("noble_used", {"seat": p, "noble": "JH"}),
                  Event("hearts_jack_moved", {"seat": p, "card": name(c), "from": i + 1,
                                              "to": dest})]
        self._after_removal(p, i, events)
        if dest == "castle":
            return self._to_castle(p, c, events)
        self.villages[p][dest - 1].append(c)
        return events

    def _hearts_queen_reveal(self, p: int, action: dict) -> list[Event]:
        self._fields(action, ("village", "position"), "QH V2 1")
        if not self.has(p, QH):
            raise IllegalAction(_("Q♥ is not in your trio."))
        if not self.usable(p, QH):
            raise IllegalAction(_("Q♥ has already been used this turn."))
        v = self._village(action["village"])
        pos = action["position"]
        village = self.villages[p][v]
        if not isinstance(pos, int) or isinstance(pos, bool) or not 0 <= pos < len(village):
            raise IllegalAction(_("V{village} has no card at that position.", village=v + 1))
        if not village[pos] & FD:
            raise IllegalAction(_("That card of V{village} is already face up.", village=v + 1))
        self.used |= 1 << QH
        village[pos] &= ~FD
        c = village[pos]
        events = [Event("noble_used", {"seat": p, "noble": "QH"}),
                  Event("revealed", {"seat": p, "village": v + 1, "position": pos, "card": name(c), "by": "QH"})]
        if c % 10 == 0:
            self.pending_ace = [v, pos]
        return events

    def _hearts_queen_ace(self, p: int, action: dict) -> list[Event]:
        self._fields(action, ("start_castle",), "ace castle")
        if self.pending_ace is None:
            raise IllegalAction(_("There is no ace revealed by Q♥ waiting for a decision."))
        start = action["start_castle"]
        if not isinstance(start, bool):
            raise IllegalAction(_("Decide: `ace castle` (start its castle) or `ace keep`."))
        v, pos = self.pending_ace
        self.pending_ace = None
        c = self.villages[p][v][pos]
        events = [Event("ace_decided", {"seat": p, "card": name(c), "start_castle": start})]
        if not start:
            return events
        del self.villages[p][v][pos]
        self._after_removal(p, v, events)
        return self._to_castle(p, c, events)
