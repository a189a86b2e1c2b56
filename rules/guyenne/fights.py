"""How a Guyenne round ends: the fights in the order opened (attackers reveal, the defender reveals or
concedes, the outcome, the advanced losses), then the discards, the refills, the end of the game or the next
round, and the start of a round's choices (the team gift, the two-set direction). The rules of 4 and 5, apart from
the choices that lead up to them (turns.py).

Plain functions of the state (``rules.guyenne.state.GuyenneState``)."""
from __future__ import annotations

from rules.api import Event, IllegalAction
from rules.lang import _
from rules.guyenne import cards as C, checks
from rules.guyenne.board import HAND
from rules.guyenne.cards import CARD_WORTH


def resolve(state) -> list[Event]:
    """Fights in the order opened: attackers reveal, the defender decides, the outcome, the losses."""
    events: list[Event] = []
    while state.fight_index < len(state.fights):
        fight = state.fights[state.fight_index]
        if fight["winner"] is None and "outcome" not in fight:
            for a in fight["pair"]:
                if fight["roles"][a] == "attack" and not fight["revealed"][a]:
                    fight["revealed"][a] = True
                    if "H" in fight["cards"][a]:
                        state.hero_at[a] = 2
                    events.append(Event("revealed", {"seat": fight["actors"][a], "castle": fight["castle"],
                                                     "cards": fight["cards"][a]}))
            if "defend" in fight["roles"] and "decided" not in fight:
                state.phase = "defend"
                return events
            events += outcome(state, fight)
            if state.phase == "losses":
                return events
        state.fight_index += 1
    return events + end_round(state)


def decide(state, seat: int, action: dict) -> list[Event]:
    if state.phase != "defend":
        raise IllegalAction(checks.expected(state, seat))
    checks.check_fields(action, set())
    fight = state.fights[state.fight_index]
    fight["decided"] = True
    events: list[Event] = []
    army = state.army_of[seat]
    if action["type"] == "reveal":
        fight["revealed"][army] = True
        if "H" in fight["cards"][army]:
            state.hero_at[army] = 2
        events.append(Event("revealed", {"seat": seat, "castle": fight["castle"], "cards": fight["cards"][army]}))
    else:
        fight["conceded"] = True
        if state.hero_at[army] == 0:  # the hero may be among the cards discarded unseen
            state.hero_at[army] = 1
        events.append(Event("conceded", {"seat": seat, "castle": fight["castle"]}))
    state.phase = "resolve"
    events += outcome(state, fight)
    if state.phase == "losses":
        return events
    state.fight_index += 1
    return events + resolve(state)


def fight_winner(state, fight: dict) -> int | None:
    """4.1: None is a tie (control unchanged)."""
    roles, cards = fight["roles"], fight["cards"]
    if fight["conceded"]:
        return roles.index("attack")
    pair = fight["pair"]
    heroes = [p for p in pair if "H" in cards[p]]
    if len(heroes) == 2:
        return None
    if heroes:
        return heroes[0]
    a, b = pair
    totals = {p: total(fight, p) for p in pair}
    if "defend" not in roles:
        return None if totals[a] == totals[b] else (a if totals[a] > totals[b] else b)
    attacker = roles.index("attack")
    defender = state.rival(fight, attacker)
    return attacker if totals[attacker] > totals[defender] else defender


def total(fight: dict, p: int, cards: list[str] | None = None) -> int:
    defending = fight["roles"][p] == "defend"
    against = fight["controller"] is not None and fight["controller"] != p
    return sum(map(CARD_WORTH[defending, against].__getitem__, fight["cards"][p] if cards is None else cards))


def outcome(state, fight: dict) -> list[Event]:
    fight["outcome"] = True
    winner = fight_winner(state, fight)
    castle = fight["castle"]
    if winner is not None:
        state.castles[castle - 1] = winner
    totals = [total(fight, p) if fight["revealed"][p] else None for p in range(len(fight["cards"]))]
    events = [Event("fight", {"castle": castle, "winner": winner, "totals": totals,
                              "before": fight["controller"], "controller": state.castles[castle - 1],
                              "conceded": fight["conceded"], "seats": list(fight["actors"])})]
    state.last_fights.append({"castle": castle, "winner": winner, "conceded": fight["conceded"],
                             "roles": list(fight["roles"]),
                             "pair": list(fight["pair"]),
                             "cards": [list(c) if fight["revealed"][p] else None
                                       for p, c in enumerate(fight["cards"])]})
    if state.level == "basic":
        return events
    if fight["controller"] is not None:  # attack on an opponent's castle: the attacker's strongest card
        attacker = fight["roles"].index("attack")
        lost = C.strongest_loss(fight["cards"][attacker])
        events += remove(state, attacker, fight, [lost])
    elif winner is not None:
        loser = state.rival(fight, winner)
        fight["winner"] = winner
        if len(fight["cards"][loser]) == 1:  # his only card is his only choice (two give two choices at least)
            events += remove(state, loser, fight, list(fight["cards"][loser]))
        else:
            state.phase = "losses"
    return events


def remove(state, a: int, fight: dict, cards: list[str]) -> list[Event]:
    fight["cards"][a] = [c for c in fight["cards"][a] if c not in cards]
    state.removed[a] = C.order(state.removed[a] + cards)
    last = dict(state.last_fights[-1])  # a new entry: clones share the old ones (they never change)
    removed = [list(r) for r in last.get("removed", [[] for _ in fight["cards"]])]
    removed[a] = list(cards)
    last["removed"] = removed
    state.last_fights[-1] = last
    return [Event("removed", {"seat": fight["actors"][a], "castle": fight["castle"], "cards": list(cards)})]


def lose(state, seat: int, action: dict) -> list[Event]:
    if state.phase != "losses":
        raise IllegalAction(checks.expected(state, seat))
    checks.check_fields(action, {"cards"})
    fight = state.fights[state.fight_index]
    chosen = action["cards"]
    mine = fight["cards"][state.army_of[seat]]
    top = max(C.PRINTED[c[0]] for c in mine)
    if not state._is_loss_option(chosen, mine, top):
        raise IllegalAction(_("Remove your strongest card at castle {castle}, or cards worth at least {top} together "
                              "(from: {cards}).", castle=fight["castle"], top=top, cards=' '.join(mine)))
    events = remove(state, state.army_of[seat], fight, chosen)
    fight["winner"] = None
    state.phase = "resolve"
    state.fight_index += 1
    return events + resolve(state)


# ------------------------------------------------------------------ round end
def end_round(state) -> list[Event]:
    events: list[Event] = []
    winners = [a for a in state.armies if all(state.castles[k - 1] == a for k in state.line(a))]
    if winners:  # 5.1.1 / 7.2: all six of one's castles at a round's end (A37: with 4 players, maybe two)
        state.end, state.six_winners, state.phase = "six", winners, "over"
        return events + [Event("game_over", {"reason": "six", "winners": winners, "scores": state.scores()})]
    for fight in state.fights:
        for a in fight["pair"]:
            state.discards[a] = state.discards[a] + fight["cards"][a]  # a new list: clones share the old one
            if fight["revealed"][a]:
                state.seen[a] = state.seen[a] + fight["cards"][a]  # a new list: clones share the old one
            elif len(state.members[a]) == 2:
                state.mine[fight["actors"][a]].extend(fight["cards"][a])
    state.fights = []
    for a in state.armies:
        if len(state.members[a]) == 2:  # teams alternate the drawer every round (7.1)
            state.drawer[a] = 1 - state.drawer[a]
            one, two = state.members[a]  # a gift placed is gone from what the giver can follow
            for giver, holder in ((one, two), (two, one)):
                if state.given[giver]:
                    state.given[giver] = [c for c in state.given[giver] if c in state.hands[holder]]
        events += refill(state, a)
    state.first = (state.first + 1) % len(state.members) if state.mode == "two_sets" else state.second
    state.round_no += 1
    state.last_fights = state.last_fights[-len(state.members):] if state.mode == "two_sets" else state.last_fights[-2:]
    if any(state.army_hand(a) <= 1 for a in state.armies):  # 5.1.2, A32
        state.end, state.phase = "exhaustion", "over"
        return events + [Event("game_over", {"reason": "exhaustion", "scores": state.scores(),
                                             "unspent": [state.unspent(a) for a in state.armies]})]
    events.append(Event("round_started", {"round": state.round_no, "first": state.first,
                                          "seats": list(state.members[state.first])}))
    return events + start_round_phase(state)


def start_round_phase(state) -> list[Event]:
    """Teams hand cards over (7.1) before the placement; with two sets the first player picks a direction;
    a duel goes straight to the placement."""
    if state.mode == "two_sets":
        state.phase = "direction"
        return []
    state.givers = []
    for a, team in enumerate(state.members):
        if len(team) == 2:
            drawer = team[state.drawer[a]]
            partner = team[1 - state.drawer[a]]
            giver = partner if not state.hands[drawer] and len(state.hands[partner]) >= 2 else drawer
            state.givers.append(giver)
        else:
            state.leader[a] = team[0]
    state.phase = "give" if state.givers else "open1"
    return []


def refill(state, a: int) -> list[Event]:
    """3.6: the army's drawer draws until the army's hands hold six; an empty deck is rebuilt from the discard
    while reshuffles last (A16)."""
    p = state.members[a][state.drawer[a]]
    drawn: list[str] = []
    reshuffled = False
    wanted = HAND - state.army_hand(a)
    deck = state.decks[a] = state.decks[a][:]  # its own copy to draw from: clones share the old one
    while len(drawn) < wanted:
        if deck:
            drawn.append(deck.pop())
        elif state.reshuffles[a] > 0 and state.discards[a]:
            deck = state.decks[a] = state.discards[a][:]
            state.discards[a] = []
            state.rng.shuffle(deck)
            state.reshuffles[a] -= 1
            state.seen[a] = []
            if len(state.members[a]) == 2:
                for m in state.members[a]:
                    state.mine[m] = []
            if state.hero_at[a] == 1:
                state.hero_at[a] = 2
            reshuffled = True
        else:
            break
    state.hands[p] = C.order(state.hands[p] + drawn)
    events = [Event("refilled", {"seat": p, "count": len(drawn), "reshuffled": reshuffled})]
    if drawn:
        events.append(Event("drawn", {"seat": p, "cards": C.order(drawn)}, (p,)))
    return events


