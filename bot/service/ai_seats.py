"""Which AI plays a seat, and which of those think long enough to need a job of their own. Pure: no I/O.

An AI seat plays at the level it was added with (``/addai strong``). A seat whose person resigned is played by
``takeover_level``: the strong AI only where it met the strength targets of issue #25 at that player count (see
``TAKEOVER_STRONG``), else the greedy one. So is a timed-out turn: the greedy AI plays it at once (handlers/timers.py),
the strong one in ``takeover`` jobs, one decision each, thought like an AI seat's (handlers/ai_turns.py).

Levels in ``THINKING`` search for the chat's ``ai_time``: they are never played inline in the transaction of
another move. The commit that leaves such a seat to act writes a timer of kind ``ai`` for it, and the process
that claims the timer thinks outside any lock or transaction (``handlers/ai_turns.py``).
"""
from __future__ import annotations

from rules.ai import make_player
from rules.api import State
from bot.service.chat_settings import DEFAULT_SETTINGS
from bot.service.live import LiveGame

THINKING = frozenset({"strong"})
INLINE_DEFAULT = "greedy"
# (game, players) where `strong` met its targets in bench/strength.py against greedy (two players: wins >= 70 %;
# more: first place >= 50 %), and (game, players, "teams") where it met them in the game's team mode only; see the
# figures in that module. Elsewhere a resigned seat or a timed-out turn is played by the greedy AI.
TAKEOVER_STRONG: frozenset[tuple] = frozenset({
    ("guyenne", 2), ("guyenne", 4, "teams"), ("list_und_tuecke", 4), ("troubadour", 2), ("troubadour", 4),
    ("kardinal", 2), ("kardinal", 4), ("koenig_artus", 2), ("koenig_artus", 4)})
# Guyenne at 4 only in teams (82.2 % at 200 games): its two_sets mode (free for all) is not measured. König Artus
# at 4 since its race estimate (rules.koenig_artus.ai): 58.5 % at 200 games, 55.3 % ±3.1 over 1000 games of five
# seed sets.


def takeover_level(game: str, players: int, teams: bool = False) -> str:
    """The level that plays a resigned seat or a timed-out turn; ``teams``: the game is played in teams."""
    if (game, players) in TAKEOVER_STRONG or (teams and (game, players, "teams") in TAKEOVER_STRONG):
        return "strong"
    return INLINE_DEFAULT


def takeover_level_of(live: LiveGame) -> str:
    """``takeover_level`` of a running game (its state says whether it is played in teams)."""
    return takeover_level(live.game.name, len(live.seats), live.state.teams() is not None)


def takeover_thinks(live: LiveGame) -> bool:
    """Whether a timed-out turn in this game is played by a thinking AI (in jobs of its own) rather than at once."""
    return takeover_level_of(live) in THINKING


def level_of(live: LiveGame, seat: int) -> str:
    """The level of the AI playing ``seat`` (an AI seat, or a person's seat after they resigned)."""
    s = live.seats[seat]
    if s.user is None and s.ai_level:
        return s.ai_level
    return takeover_level_of(live)


def thinks(live: LiveGame, seat: int) -> bool:
    return live.seats[seat].is_ai and level_of(live, seat) in THINKING


def thinking_seats(live: LiveGame, state: State) -> list[int]:
    """AI seats to act now that think in a job of their own (none once the game is over)."""
    if state.is_over():
        return []
    return [s for s in state.to_act() if thinks(live, s)]


def inline_seat(live: LiveGame, state: State) -> int | None:
    """An AI seat to act now that is played at once, inside the move's transaction (a greedy decision takes
    a fraction of a millisecond), or None."""
    if state.is_over():
        return None
    return next((s for s in state.to_act() if live.seats[s].is_ai and not thinks(live, s)), None)


def ai_time(live: LiveGame) -> float:
    """The chat's thinking time per decision, in seconds."""
    try:
        return float(live.settings.get("ai_time", DEFAULT_SETTINGS["ai_time"]))
    except (TypeError, ValueError):
        return float(DEFAULT_SETTINGS["ai_time"])


AI_STEP_CAP = 5000


def inline_moves(live: LiveGame, state: State) -> list[tuple]:
    """AI seats (and resigned ones) that decide at once act on ``state`` until a human or a thinking AI is to
    act, or the game ends: ``(seat, action, events, "ai")`` each. Pure: no I/O."""
    done: list[tuple] = []
    for _ in range(AI_STEP_CAP):
        seat = inline_seat(live, state)
        if seat is None:
            break
        ai = make_player(level_of(live, seat), seed=live.seed ^ (live.moves + len(done)))
        action = ai.choose(state, seat)
        done.append((seat, action, state.apply(seat, action), "ai"))
    return done
