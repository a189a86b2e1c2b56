"""Troubadour's AI shortlist: which village-to-village moves the AIs leave out as pointless, which trios they
consider, and how much they like each noble (``noble_values``: the favourite trio and the greedy player's choice).
``ai_actions`` hands the shortlist to the AIs (the state's contract hook hands over to it).

The rules let a run move between villages back and forth for as long as the player likes (rules file: village
builds are unlimited). A search-based AI then can loop: two moves that only swap which of two equal cards the
run lies on look the same to ``evaluate``, and the search tends to prefer the branch that postpones the turn's end
(its tree plays the opponents' replies better than its rollouts do, so a branch that delays them looks better).
Seen in bench/strength.py: seed 3, ``8S 7H 6S`` moved between 9♦ and 9♥ until the 5000-action cap.

This only narrows the AI's shortlist (``ai_actions``); every move stays legal for a person. A move is pointless
when it only relabels the villages:
- the run lies on a face-up card and goes onto a card of the same rank and colour, and the card it uncovers cannot
  go to its castle (nothing new becomes possible);
- the run is a whole village (nothing under it) and goes into an empty village.
- the run goes back where the turn's last move took it from (``state.back``): that undoes it.
Other moves between villages can still form a cycle (a lone card into an empty village and back onto its old
card), so after ``MOVES_PER_TURN`` actions in one turn the AI makes no more village-to-village moves: a turn of
the greedy player takes at most about 35 actions (40 games of 2 and 4 players).
"""
from __future__ import annotations

from rules.troubadour.cards import FD, JC, JD, JH, JS, KC, KD, KH, KS, NAMES, NOBLES, QC, QD, QH, QS, is_red, rank_of

MOVES_PER_TURN = 40
CARD_OF = {name: c for c, name in enumerate(NAMES)}
SPADES = [JS, QS, KS]
CLUBS = [JC, QC, KC]
NOBLE_VALUE = {JS: 8, QS: 8, KS: 0, JD: 4, QD: 4, KD: 4, JC: 20, QC: 30, KC: 8, JH: 25, QH: 15, KH: 4}
DIG = 48  # Q♥'s value when it is all that can uncover the cards the castles wait for


def sensible(state, seat: int, actions: list[dict]) -> list[dict]:
    """``actions`` without the pointless village-to-village moves (never empty when ``actions`` is not)."""
    villages = state.villages[seat]
    where = {c: (i, k) for i, v in enumerate(villages) for k, c in enumerate(v) if c < FD}
    late = state.turn_actions >= MOVES_PER_TURN
    back = getattr(state, "back", None)  # the turn's last village move, [card, village it came from]
    kept = []
    for action in actions:
        if action.get("type") == "build_village":
            place = where.get(CARD_OF.get(action.get("card"), -1))
            if place is not None and (late or pointless(state, seat, place, action.get("village"))):
                continue
            if back is not None and CARD_OF.get(action.get("card")) == CARD_OF.get(back[0]) and \
                    action.get("village") == back[1]:
                continue  # it would undo the move just made (V1 → V3 → V1 → V3 …)
        kept.append(action)
    return kept or actions


def pointless(state, seat: int, place: tuple[int, int], village) -> bool:
    """Whether moving the run starting at ``place`` (village index, position) into ``village`` (1-based) only
    relabels the villages."""
    villages = state.villages[seat]
    if not isinstance(village, int) or not 1 <= village <= len(villages):
        return False
    source, k = place
    target = villages[village - 1]
    if k == 0:
        return not target
    below = villages[source][k - 1]
    if below >= FD or not target:
        return False
    top = target[-1]
    if top >= FD or rank_of(top) != rank_of(below) or is_red(top) != is_red(below):
        return False
    return state.castles[seat][below // 10] != below % 10


def trio_shortlist(values: list[int], players: int) -> list[dict]:
    """The trios an AI considers: the one it likes best (by ``values``, per noble), the three clubs and, between
    two players, the three spades. The greedy player keeps its favourite (it values nobles one by one); the search
    weighs the others by playing them. Clubs flip the most: K♣'s three extra flips need a rival with J♣ or Q♣, which
    the greedy player nearly always holds. The spades' combination destroys a castle of the one rival; with more
    players the other rivals gain by it, and the search overrates it there (the attacker plays first, so a cut
    rollout sees its attack but not the rivals' whole turns). bench/strength.py, 40 iterations, strong against
    greedy: 2 players 42 % with the favourite only, 100 % with spades and clubs (40 games); 4 players 30 % with the
    favourite only, 18 % with spades and clubs, 67 % with clubs (24 games)."""
    best = sorted(sorted(range(12), key=lambda x: -values[x])[:3])
    out = [{"type": "choose_trio", "nobles": [NOBLES[x] for x in best]}]
    for trio in (SPADES, CLUBS) if players == 2 else (CLUBS,):
        if best != trio:
            out.append({"type": "choose_trio", "nobles": [NOBLES[x] for x in trio]})
    return out


def noble_values(state, p: int) -> list[int]:
    """How much the AI likes each noble for ``p`` (only steers the trio choice): clubs and J♥ speed it up, Q♥ digs.

    When flipping cannot help (``flips_are_useless``) the clubs and Q♥+K♥'s flip are worthless, and the cards the
    castles wait for lie in the villages, where only the hearts reach them (Q♥ turns a face-down card up, J♥ takes
    a card from under others). Valuing flips there anyway kept Q♥ out of every trio the AIs consider, and the
    strong AI chose the spades round after round for ever (bench/strength.py, Troubadour 2, game 171: its last
    castle waited for 2♥, face down under three cards, nothing left to flip; 417 rounds to the 5000-action cap)."""
    down = state.facedown_count(p)
    values = [NOBLE_VALUE[x] for x in range(12)]
    values[QH] = min(8 * down, DIG) if down else 20
    values[KH] = 0 if down else 20
    values[KD] = min(sum(state.castles[p]), 20) // 2
    if flips_are_useless(state, p):
        for x in (JC, QC, KC, KH):
            values[x] = 0
        values[QH] = DIG if down else 0
    return values


def flips_are_useless(state, p: int) -> bool:
    """Whether no card ``p`` can flip would fit a village or a castle now: stock and waste are empty, or every card
    in them is known (the waste is face up; a recycled stock was all seen in public) and none fits. Then the next
    card of every unfinished castle lies in a village (a castle's next card always fits). Decided from what every
    player knows: while the stock holds a card never seen, a flip might bring anything."""
    stock, waste, seen = state.stock[p], state.waste[p], state.seen[p]
    if any(not seen >> c & 1 for c in stock):
        return False
    return not any(state.fits(p, c) for c in stock) and not any(state.fits(p, c) for c in waste)


def ai_actions(state, seat: int) -> list[dict]:
    """The AIs' shortlist. Trios: the one the greedy player likes best (a trio's value is all that tells them
    apart for it) and the few others the strong AI weighs (rules.troubadour.ai.trio_shortlist). Tie-break: one
    noble, its face from the seat and the round (only the face counts). A turn: when a card can go to a castle,
    only those builds (progress that is never wrong for it); else every legal action but the pointless
    village-to-village moves (rules.troubadour.ai: a search could shuffle a run back and forth)."""
    if state.phase == "select_trios" and 0 <= seat < state.n and not state.trios[seat]:
        return trio_shortlist(noble_values(state, seat), state.n)
    actions = state.legal_actions(seat)
    if state.phase == "tiebreak" and actions:
        game = next(g["games"] for g in state.rps if seat in g["seats"])
        face = "JQK"[(seat + state.round_no + game) % 3]
        return [next((a for a in actions if a["noble"][0] == face), actions[0])]
    castle = [a for a in actions if a["type"] == "build_castle"]
    return castle or sensible(state, seat, actions)


