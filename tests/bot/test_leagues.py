"""Leagues on a real SQLite file: ratings equal OpenSkill's for the same results, seasons, leaderboard, stats."""
from __future__ import annotations

import asyncio
import io

import pytest
from openskill.models import PlackettLuce
from PIL import Image
from sqlalchemy import select

from bot.service import ChatRef, UserRef, build_service
from bot.service.leagues import places_with_resigns, rate, widened
from rules import get_game
from storage import UnitOfWork
from storage.models import GameRow, Rating, RatingChange

CHAT = ChatRef("discord", "chan1", "guild1", "general")
SAME_SERVER = ChatRef("discord", "chan2", "guild1", "other")
OTHER_SERVER = ChatRef("discord", "chan9", "guild9", "elsewhere")
ALICE, BOB, CAROL = UserRef("discord", "1", "Alice"), UserRef("discord", "2", "Bob"), UserRef("discord", "3", "Carol")
MOD = UserRef("discord", "9", "Mod")
MODEL = PlackettLuce()


@pytest.fixture
async def service(database_url):
    svc = await build_service(database_url)
    yield svc
    await svc.close()


async def row_of(service, gid) -> GameRow:
    async with UnitOfWork(service.db) as uow:
        return await uow.games.get(gid)


async def open_game(service, users, chat=CHAT, ai=0, seed=1) -> int:
    gid = (await service.create_lobby(chat, users[0], "toy", seed=seed))[0].game_id
    for user in users[1:]:
        await service.join(chat, user, game_id=gid)
    for _ in range(ai):
        await service.add_ai(chat, users[0], "random", game_id=gid)
    await service.start(chat, users[0], game_id=gid)
    return gid


async def play_until_last_move(service, gid, users, chat=CHAT):
    """Everyone plays their first legal action until one move is left; returns (user, action) of that move."""
    game = get_game("toy")
    while True:
        row = await row_of(service, gid)
        if row.status == "finished":
            return None  # an AI seat made the last move
        state = game.from_json(row.state)
        seat_user = {s.seat: next(u for u in users if u.id == s.player.external_id)
                     for s in row.seats if s.player is not None and not s.resigned}
        seat = next(s for s in state.to_act() if s in seat_user)
        action = state.legal_actions(seat)[0]
        trial = state.clone()
        trial.apply(seat, action)
        if trial.is_over():
            return seat_user[seat], action
        out = await service.act(chat, seat_user[seat], action, game_id=gid)
        assert not [m for m in out if m.kind == "error"], [m.text for m in out]


async def play_out(service, gid, users, chat=CHAT):
    last = await play_until_last_move(service, gid, users, chat)
    return await service.act(chat, *last, game_id=gid) if last else []


def expected_ratings(results: list[tuple[list[str], list[int]]]) -> dict[str, tuple[float, float]]:
    """OpenSkill applied directly to (players by seat, places) in order."""
    ratings: dict[str, object] = {}
    for players, places in results:
        teams = [[ratings.get(p) or MODEL.rating()] for p in players]
        for p, [new] in zip(players, MODEL.rate(teams, ranks=places)):
            ratings[p] = new
    return {p: (r.mu, r.sigma) for p, r in ratings.items()}


def flat(ratings: dict) -> dict[str, float]:
    """{name: (mu, sigma, ...)} → {"name.0": mu, "name.1": sigma, ...} for pytest.approx."""
    return {f"{name}.{i}": float(v) for name, values in ratings.items() for i, v in enumerate(values)}


async def stored_ratings(service, season=1) -> dict[str, tuple[float, float, int]]:
    async with UnitOfWork(service.db) as uow:
        rows = await uow.leagues.ratings("discord:guild1", "toy", season)
        players = await uow.leagues.players([r.player_id for r in rows])
        return {players[r.player_id].name: (r.mu, r.sigma, r.games) for r in rows}


async def results_of(service, gids) -> list[tuple[list[str], list[int]]]:
    out = []
    for gid in gids:
        row = await row_of(service, gid)
        out.append(([n.removeprefix("🤖 ") for n in row.result["names"]], places_with_resigns(row.result["ranking"], set(row.result["resigned"]))))
    return out


def test_rate_matches_openskill_with_ties_and_teams():
    before = [(25.0, 8.0), (27.0, 5.0), (20.0, 7.0), (24.0, 6.0)]
    places = [2, 1, 2, 4]  # a tie for second
    direct = MODEL.rate([[MODEL.create_rating(list(r))] for r in before], ranks=places)
    assert rate(before, places) == [(t[0].mu, t[0].sigma) for t in direct]
    teams = [[0, 2], [1, 3]]  # seats 0 and 2 against 1 and 3; the second team wins
    team_places = [2, 1, 2, 1]
    direct = MODEL.rate([[MODEL.create_rating(list(before[0])), MODEL.create_rating(list(before[2]))],
                         [MODEL.create_rating(list(before[1])), MODEL.create_rating(list(before[3]))]], ranks=[2, 1])
    got = rate(before, team_places, teams)
    assert got[0] == (direct[0][0].mu, direct[0][0].sigma) and got[2] == (direct[0][1].mu, direct[0][1].sigma)
    assert got[1] == (direct[1][0].mu, direct[1][0].sigma) and got[3] == (direct[1][1].mu, direct[1][1].sigma)
    assert places_with_resigns([1, 2, 3, 1], {0}) == [4, 2, 3, 1]
    assert places_with_resigns([1, 2, 3], {1, 2}) == [1, 2, 2]


async def test_ratings_equal_openskill_and_are_announced(service):
    gids = []
    for seed in range(4):
        gid = await open_game(service, [ALICE, BOB, CAROL], seed=seed)
        out = await play_out(service, gid, [ALICE, BOB, CAROL])
        announced = [m for m in out if m.text.startswith("📈 Ratings")]
        assert len(announced) == 1 and announced[0].chat == CHAT and "Alice" in announced[0].text
        gids.append(gid)
    results = await results_of(service, gids)
    assert any(len(set(places)) < 3 for _, places in results), "these seeds include a tie"
    expected = expected_ratings(results)
    stored = await stored_ratings(service)
    assert flat({p: stored[p][:2] for p in stored}) == pytest.approx(flat(expected))
    assert all(games == 4 for _, _, games in stored.values())
    assert all([(await row_of(service, g)).rated for g in gids])


async def test_a_resign_is_last_place_and_ai_games_are_not_rated(service):
    gid = await open_game(service, [ALICE, BOB, CAROL], seed=3)
    await service.resign(CHAT, CAROL, gid)
    await play_out(service, gid, [ALICE, BOB, CAROL])
    row = await row_of(service, gid)
    places = places_with_resigns(row.result["ranking"], set(row.result["resigned"]))
    carol_seat = next(s.seat for s in row.seats if s.player.name == "Carol")
    assert places[carol_seat] == 3
    async with UnitOfWork(service.db) as uow:
        changes = {c.player_id: c.place for c in await uow.leagues.changes_of_game(gid)}
    assert sorted(changes.values()) == sorted(places)
    assert flat(await stored_ratings(service)) == pytest.approx(
        flat({p: (*v, 1) for p, v in expected_ratings(await results_of(service, [gid])).items()}))

    ai_game = await open_game(service, [ALICE], ai=1, seed=4)
    await play_out(service, ai_game, [ALICE])
    assert not (await row_of(service, ai_game)).rated
    assert (await stored_ratings(service))["Alice"][2] == 1  # unchanged
    history = (await service.history(CHAT, ALICE))[0].text
    assert f"#{ai_game}" in history and "not rated" in history
    stats = (await service.stats(CHAT, ALICE))[0].text
    assert "2 games" in stats  # the AI game counts in personal stats


async def test_two_games_ending_at_once_both_count_once(service):
    first = await open_game(service, [ALICE, BOB], seed=5)
    second = await open_game(service, [ALICE, BOB], chat=SAME_SERVER, seed=6)
    last_first = await play_until_last_move(service, first, [ALICE, BOB])
    last_second = await play_until_last_move(service, second, [ALICE, BOB], chat=SAME_SERVER)
    await asyncio.gather(service.act(CHAT, *last_first, game_id=first),
                         service.act(SAME_SERVER, *last_second, game_id=second))
    async with UnitOfWork(service.db) as uow:
        changes = list(await uow.session.scalars(select(RatingChange).order_by(RatingChange.id)))
    assert len(changes) == 4 and {c.game_id for c in changes} == {first, second}
    stored = await stored_ratings(service)
    assert stored["Alice"][2] == stored["Bob"][2] == 2
    results = await results_of(service, [first, second])
    orders = [expected_ratings(results), expected_ratings(results[::-1])]
    assert any(flat({p: stored[p][:2] for p in stored}) == pytest.approx(flat(o)) for o in orders)
    # each game's recorded "before" is the other's "after" (or the start): applied one after the other
    by_player = {}
    for c in changes:
        by_player.setdefault(c.player_id, []).append(c)
    for first_change, second_change in by_player.values():
        assert (second_change.mu_before, second_change.sigma_before) == (first_change.mu_after,
                                                                          first_change.sigma_after)


async def test_seasons_and_leaderboard_minimum_games(service):
    for seed in range(3):
        await play_out(service, await open_game(service, [ALICE, BOB], seed=seed), [ALICE, BOB])
    await play_out(service, await open_game(service, [ALICE, CAROL], seed=9), [ALICE, CAROL])
    await service.settings(CHAT, MOD, "min_games=2", is_admin=True)
    board = (await service.leaderboard(CHAT, ALICE, "toy"))[0].text
    assert "Alice" in board and "Bob" in board and "Carol" not in board
    assert "1 more with fewer than 2 games" in board
    lines = [line for line in board.splitlines() if line.strip()[:2].rstrip(".").isdigit()]
    season1 = await stored_ratings(service)
    order = sorted(["Alice", "Bob"], key=lambda p: -(season1[p][0] - 3 * season1[p][1]))
    assert [line.split()[1] for line in lines] == order
    other = (await service.leaderboard(OTHER_SERVER, ALICE, "toy"))[0].text
    assert "Alice" not in other and "Nobody has played enough yet" in other  # another server, another league
    assert "No rated games" in (await service.leaderboard(OTHER_SERVER, ALICE))[0].text

    refused = await service.new_season(CHAT, ALICE, "toy", is_admin=False)
    assert refused[0].kind == "error"
    started = await service.new_season(CHAT, MOD, "toy", is_admin=True)
    assert "season 2" in started[0].text
    season2 = await stored_ratings(service, season=2)
    for name, (mu, sigma, games) in season2.items():
        assert mu == season1[name][0] and sigma == pytest.approx(widened(season1[name][1])) and games == 0
        assert sigma > season1[name][1]
    assert "Nobody has played enough yet" in (await service.leaderboard(CHAT, ALICE, "toy"))[0].text
    assert "Bob" in (await service.leaderboard(CHAT, ALICE, "toy 1"))[0].text  # past seasons stay viewable
    await play_out(service, await open_game(service, [ALICE, BOB], seed=11), [ALICE, BOB])
    assert (await stored_ratings(service, season=2))["Alice"][2] == 1
    assert (await stored_ratings(service, season=1))["Alice"][2] == 4


async def test_stats_and_history_with_a_chart(service):
    for seed in range(3):
        await play_out(service, await open_game(service, [ALICE, BOB], seed=seed), [ALICE, BOB])
    [mine] = await service.stats(CHAT, ALICE)
    assert mine.text.startswith("📜 Alice — 3 games") and "Favourite game: Duel of Cards" in mine.text
    assert "season 1: rating" in mine.text
    picture = Image.open(io.BytesIO(mine.image))
    assert picture.format == "PNG" and picture.size == (900, 480)
    [bobs] = await service.stats(CHAT, ALICE, "<@2>")
    assert bobs.text.startswith("📜 Bob — 3 games")
    [by_name] = await service.stats(CHAT, ALICE, "@bob")
    assert by_name.text.startswith("📜 Bob")
    assert "has played here yet" in (await service.stats(CHAT, ALICE, "@nobody"))[0].text
    history = (await service.history(CHAT, ALICE))[0].text
    assert history.count("Duel of Cards") == 3 and "(+" in history or "(-" in history
    async with UnitOfWork(service.db) as uow:
        assert len(list(await uow.session.scalars(select(Rating)))) == 2
