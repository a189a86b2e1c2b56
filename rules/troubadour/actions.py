"""The legal turn actions of Troubadour's active player, in the order the rules file's decisions fix (flips, castle
builds, ``end_turn``, village builds, J♥, Q♥, attacks), and whether he has anything left but ending the turn (A36:
if not, the engine ends it).

Plain functions of the state (``rules.troubadour.state.TroubadourState``, whose fields are described there)."""
from __future__ import annotations

from rules.troubadour.cards import FD, FITS, JC, JD, JH, JS, KD, KH, NAMES, QD, QH, QS, SPADES_TRIO, SUITS
from rules.troubadour.flips import UNUSED
from rules.troubadour.seats import target_code


def turn_actions(state, p: int) -> list[dict]:
    return list(gen_actions(state, p))


def gen_actions(state, p: int):
    """The active player's legal actions, in order: flips, castle builds, ``end_turn``, village builds, J♥, Q♥,
    attacks (whoever always takes the first one never loops: flips and castle builds are finite)."""
    if state.pending_ace is not None:
        yield {"type": "hearts_queen_ace", "start_castle": True}
        yield {"type": "hearts_queen_ace", "start_castle": False}
        return
    trio, used = state.trios[p], state.used
    stock, waste = state.stock[p], state.waste[p]
    villages, castles = state.villages[p], state.castles[p]
    if stock or waste:
        if state.flip_slot == UNUSED:
            yield {"type": "standard_flip", "club_jack": False}
            if trio >> JC & 1 and not used >> JC & 1:
                yield {"type": "standard_flip", "club_jack": True}
            if trio >> QH & 1 and trio >> KH & 1 and not used & ((1 << QH) | (1 << KH)) and \
                    not any(x >= FD for v in villages for x in v):
                for c in sorted(stock + waste):
                    yield {"type": "hearts_queen_king_flip", "named_card": NAMES[c]}
        elif state.extra_left > 0:
            yield {"type": "extra_flip"}
    tops = [v[-1] if v else -1 for v in villages]
    wt = waste[-1] if waste else -1
    if wt >= 0 and castles[wt // 10] == wt % 10:
        yield {"type": "build_castle", "card": NAMES[wt]}
    for t in tops:
        if t >= 0 and castles[t // 10] == t % 10:
            yield {"type": "build_castle", "card": NAMES[t]}
    yield {"type": "end_turn"}
    if wt >= 0:
        nm = NAMES[wt]
        fit = FITS[wt]
        for j, t in enumerate(tops):
            if t < 0 or fit[t]:
                yield {"type": "build_village", "card": nm, "village": j + 1}
    for i, v in enumerate(villages):
        if not v:
            continue
        k = len(v) - 1
        while k > 0 and v[k - 1] < FD and FITS[v[k]][v[k - 1]]:
            k -= 1
        for idx in range(k, len(v)):
            c = v[idx]
            fit = FITS[c]
            for j, t in enumerate(tops):
                if j != i and (t < 0 or fit[t]):
                    yield {"type": "build_village", "card": NAMES[c], "village": j + 1}
    if trio >> JH & 1 and not used >> JH & 1:
        for i, v in enumerate(villages):
            last = len(v) - 1
            for idx, c in enumerate(v):
                if c >= FD:
                    continue
                nm = NAMES[c]
                if castles[c // 10] == c % 10:
                    yield {"type": "hearts_jack_move", "card": nm, "destination": "castle"}
                fit = FITS[c]
                for j, t in enumerate(tops):
                    if j == i and idx == last:
                        continue
                    if t < 0 or fit[t]:
                        yield {"type": "hearts_jack_move", "card": nm, "destination": j + 1}
    if trio >> QH & 1 and not used >> QH & 1:
        for i, v in enumerate(villages):
            for idx, c in enumerate(v):
                if c >= FD:
                    yield {"type": "hearts_queen_reveal", "village": i + 1, "position": idx}
    if trio & SPADES_TRIO:
        opps = state.opponents(p)
        if trio >> JS & 1 and not used >> JS & 1:
            for o in opps:
                if not state.has(o, JD):
                    for j, v in enumerate(state.villages[o]):
                        if v:
                            yield {"type": "spade_jack_attack", "target": target_code(o), "village": j + 1}
        if trio >> QS & 1 and not used >> QS & 1:
            for o in opps:
                if not state.has(o, QD) and any(state.villages[o]):
                    yield {"type": "spade_queen_attack", "target": target_code(o)}
        if trio == SPADES_TRIO and not used & SPADES_TRIO:
            for o in opps:
                if not state.has(o, KD):
                    for s in range(4):
                        if state.castles[o][s]:
                            yield {"type": "spade_trio_attack", "target": target_code(o), "suit": SUITS[s]}


def busy(state, p: int) -> bool:
    """Whether ``p`` (the active player) can do anything but end the turn."""
    if state.pending_ace is not None:
        return True
    if (state.stock[p] or state.waste[p]) and (state.flip_slot == UNUSED or state.extra_left > 0):
        return True
    for a in gen_actions(state, p):
        if a["type"] != "end_turn":
            return True
    return False
