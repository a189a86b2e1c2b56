"""Which AI takes over a resigned seat: the strong one only where bench/strength.py measured it meeting the targets,
per game, player count and (Guyenne) team mode."""
from types import SimpleNamespace

from bot.service import ai_seats
from bot.service.live import LiveSeat
from rules import GAMES, load_games


def live_game(name: str, n: int, options: dict | None = None):
    """Just what ai_seats reads of a running game: the game, its seats (seat 1 resigned) and its real state."""
    load_games()
    game = GAMES[name]
    merged = {**game.default_options(), **(options or {})}
    seats = [LiveSeat(s, s + 1, SimpleNamespace(id=str(s)), f"P{s}", None, resigned=s == 1) for s in range(n)]
    return SimpleNamespace(game=game, seats=seats, state=game.new_game(n, seed=3, options=merged))


def test_guyenne_teams_at_four_is_taken_over_by_the_strong_ai_but_not_two_sets():
    """Guyenne 4 was left out because its two_sets mode is not measured; its teams met the target (79.8 %)."""
    teams = live_game("guyenne", 4, {"mode": "teams"})
    two_sets = live_game("guyenne", 4, {"mode": "two_sets"})
    assert ai_seats.level_of(teams, 1) == "strong" and ai_seats.takeover_thinks(teams)
    assert ai_seats.level_of(two_sets, 1) == "greedy" and not ai_seats.takeover_thinks(two_sets)
    assert ai_seats.takeover_level("guyenne", 3, teams=True) == "greedy"  # teams of three: not measured
    assert ai_seats.takeover_level("guyenne", 2) == "strong"


def test_an_ai_seat_keeps_the_level_it_was_added_with():
    live = live_game("guyenne", 4, {"mode": "two_sets"})
    live.seats[2] = LiveSeat(2, None, None, "🤖 Strong Merlin", "strong", resigned=False)
    assert ai_seats.level_of(live, 2) == "strong" and ai_seats.level_of(live, 1) == "greedy"


def test_koenig_artus_at_four_is_taken_over_by_the_strong_ai_since_its_race_estimate():
    """53.2 % at 94 games before rules.koenig_artus.ai, within noise of 50 %; 58.5 % at 200 games after it."""
    assert ai_seats.level_of(live_game("koenig_artus", 4), 1) == "strong"
    assert ai_seats.level_of(live_game("koenig_artus", 3), 1) == "greedy"  # not measured
