"""Game records (issue #41): a record rebuilds the game exactly, its views are the engine's, and a record cut
for a reader holds nothing that reader could not know."""
from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from datetime import datetime, timedelta, timezone

import pytest

import rules
from bot.service import ChatRef, UserRef, build_service
from bot.service.records import ALL, PUBLIC, RecordError, StoredGame, audience_for, build_record, load_game
from bot.service.replay import Replay
from rules.ai import GreedyPlayer
from storage import UnitOfWork
from tests.rules import conformance as kit

REAL = sorted(name for name in rules.GAMES if name != "toy")
CONFIGS = [(name, n, options) for name in REAL for n, options in rules.GAMES[name].configurations()]
IDS = [f"{name}-{n}p-" + ",".join(f"{k}={v}" for k, v in sorted(opts.items())) for name, n, opts in CONFIGS]
CAP = 700


def played(name: str, n: int, options: dict, seed: int, cap: int = CAP):
    """A seeded greedy game (to the end, or ``cap`` moves) as a StoredGame, with the state after every move."""
    game = rules.get_game(name)
    states = []
    moves = []

    def on_step(before, after, seat, action, events):
        states.append(before)
        moves.append((seat, copy.deepcopy(action), [e.to_json() for e in events], "ai" if seat % 2 else "player"))

    state, _log = kit.playout(game, n, options, seed, GreedyPlayer, cap=cap, on_step=on_step)
    states.append(state.clone())
    over = state.is_over()
    stored = StoredGame(id=7, game=name, options=copy.deepcopy(options), seed=seed,
                        status="finished" if over else "active",
                        players=[{"name": f"Seat {s + 1}", "ai": None, "resigned": False, "player_id": 100 + s}
                                 for s in range(n)], moves=moves,
                        result={"ranking": state.ranking(), "scores": state.scores(), "resigned": []} if over else None)
    return stored, states


@pytest.mark.parametrize(("name", "n", "options"), CONFIGS, ids=IDS)
def test_a_whole_record_rebuilds_every_state_and_the_result(name, n, options):
    stored, states = played(name, n, options, seed=5)
    assert stored.status == "finished"
    record = json.loads(json.dumps(build_record(stored, ALL)))
    replay = Replay(record)
    assert replay.steps == len(states) - 1 and record["seed"] == 5
    assert replay.viewers() == [None, *range(n), ALL]
    for step in range(replay.steps + 1):  # every step: its state, and every seat's view of it
        assert kit.dump(replay.state(step)) == kit.dump(states[step])
        for viewer in [None, *range(n)]:
            assert replay.view(step, viewer) == states[step].view(viewer)
        every = replay.view(step, ALL)
        assert every["public"] == states[step].view(None)
        assert every["seats"] == [states[step].view(s) for s in range(n)]
    final = replay.state(replay.steps)
    assert final.is_over()
    assert record["result"]["places"] == final.ranking() and record["result"]["scores"] == final.scores()
    # "all" tells every event of a move, the hidden ones too; a seat only what it may know
    for step in range(1, replay.steps + 1):
        assert len(replay.events(step, ALL)) == len(record["steps"][step - 1]["events"])


@pytest.mark.parametrize(("name", "n", "options"), CONFIGS, ids=IDS)
def test_a_seat_record_of_a_running_game_holds_only_what_the_seat_knew(name, n, options):
    game = rules.get_game(name)
    stored, states = played(name, n, options, seed=9)
    cut = len(stored.moves) // 2  # the game is still running at this step
    stored.moves, stored.status, stored.result, states = stored.moves[:cut], "active", None, states[:cut + 1]
    rng = random.Random(3)
    hidden = everything(states)
    for seat in range(n):
        assert audience_for(stored, 100 + seat) == seat
        record = json.loads(json.dumps(build_record(stored, seat)))
        assert record["seed"] is None and record["audience"] == seat and record["result"] is None
        replay = Replay(record)
        assert replay.viewers() == [None, seat]
        with pytest.raises(RecordError):
            replay.view(0, ALL)
        with pytest.raises(RecordError):
            replay.state(0)
        for step, state in enumerate(states):
            assert replay.view(step, seat) == state.view(seat) and replay.view(step, None) == state.view(None)
        for entry in record["steps"]:
            assert all(rules.api.Event.from_json(e).visible_to(seat) for e in entry["events"])
        # the last view is the same in any world the seat cannot tell from the real one (as the kit checks)
        for _ in range(2):
            assert states[-1].determinize(seat, rng).view(seat) == replay.view(replay.steps, seat)
        # no word of the record is one only other seats or the hidden state held
        assert not secrets(game, states, seat, stored, hidden) & words(record), f"seat {seat}'s record leaks"


def test_a_person_not_in_the_game_gets_the_public_record():
    stored, states = played("guyenne", 3, {"level": "basic", "mode": "teams"}, seed=4)
    stored.moves, stored.status, stored.result = stored.moves[:30], "active", None
    states = states[:31]
    assert audience_for(stored, 999) == PUBLIC and audience_for(stored, None) == PUBLIC
    record = build_record(stored, PUBLIC)
    replay = Replay(json.loads(json.dumps(record)))
    assert replay.viewers() == [None]
    for step, state in enumerate(states):
        assert replay.view(step, None) == state.view(None)
    with pytest.raises(RecordError):
        replay.view(3, 0)
    assert all(e["audience"] is None for entry in record["steps"] for e in entry["events"])
    # secret placements are hidden from the table: their notation is not in the record
    game = rules.get_game("guyenne")
    hidden = [entry for entry, (seat, action, _, _) in zip(record["steps"], stored.moves)
              if states[entry["n"] - 1].is_secret(seat, action)]
    assert hidden and all(entry["action"] is None for entry in hidden)
    assert not secrets(game, states, None, stored) & words(record)


def test_the_whole_record_only_after_the_end_and_only_if_the_chat_reveals():
    stored, _ = played("koenig_artus", 2, {}, seed=2)
    assert audience_for(stored, 100) == ALL and audience_for(stored, 999) == ALL
    stored.reveal_after_end = False
    assert audience_for(stored, 101) == 1 and audience_for(stored, 999) == PUBLIC
    running = copy.copy(stored)
    running.status, running.reveal_after_end = "active", True
    assert audience_for(running, 100) == 0
    with pytest.raises(RecordError):
        build_record(running, ALL)


def test_bad_records_and_steps_are_refused_with_a_reason():
    stored, _ = played("kardinal", 2, {}, seed=1, cap=10)
    record = build_record(stored, 0)
    for bad, reason in [({}, "not a Herald game record"), ({**record, "version": 99}, "version 99"),
                        ({**record, "game": "chess"}, "unknown game")]:
        with pytest.raises(RecordError, match=reason):
            Replay(bad)
    replay = Replay(record)
    for step in (-1, replay.steps + 1, "3", True):
        with pytest.raises(RecordError, match="no step"):
            replay.view(step, None)
    broken = copy.deepcopy(stored)
    seat, action, events, by = broken.moves[3]
    broken.moves[3] = (1 - seat, action, events, by)  # the wrong seat: the log no longer replays
    with pytest.raises(RecordError, match="step 4"):
        build_record(broken, 0)


TOKEN = re.compile(r"[^\s,.;:()\[\]{}\"'→—–!?/|=+*<>·…]+")


def _tokens(value, out: set) -> set:
    if isinstance(value, dict):
        for key, item in value.items():
            _tokens(key, out)
            _tokens(item, out)
    elif isinstance(value, list):
        for item in value:
            _tokens(item, out)
    elif isinstance(value, str):
        out.update(TOKEN.findall(value))
    elif value is not None and not isinstance(value, bool):
        out.add(str(value))
    return out


def words(record: dict) -> set:
    """The words (not the bare numbers: step numbers, counts) of what a record tells of the game: its actions,
    events and views."""
    told = [record.get("start"), [[s["action"], s["events"], s.get("views")] for s in record["steps"]]]
    return {word for word in _tokens(told, set()) if not word.replace(".", "").replace("-", "").isdigit()}


def everything(states) -> set:
    """The words of the full states and every seat's views."""
    hidden: set = set()
    for state in states:
        _tokens(state.to_json(), hidden)
        for other in range(state.num_players):
            _tokens(state.view(other), hidden)
    return hidden


def secrets(game, states, seat, stored, hidden: set | None = None) -> set:
    """Words in the full states and every seat's views up to the end of ``states`` (``hidden``: ``everything``
    of them) that ``seat`` never saw: in none of its views (or the public ones), none of the events it may know,
    no action it could see."""
    hidden = everything(states) if hidden is None else hidden
    known: set = set()
    for state in states:
        _tokens(state.view(None), known)
        if seat is not None:
            _tokens(state.view(seat), known)
    for (actor, action, events, _), before in zip(stored.moves, states):
        for event in events:
            if rules.api.Event.from_json(event).visible_to(seat):
                _tokens(event, known)
        if actor == seat or not before.is_secret(actor, action):
            _tokens(game.format_action(action), known)
    return hidden - known


# -- through the service, on a SQLite file ------------------------------------------------------------------

CHAT = ChatRef("discord", "chan", "guild", "general")
ALICE = UserRef("discord", "1", "Alice")
BOB = UserRef("discord", "2", "Bob")


@pytest.mark.parametrize("name", REAL)
async def test_a_stored_game_rebuilds_to_its_stored_state_and_result(tmp_path, name):
    """Alice and Bob play against an AI; Alice resigns at once (an AI plays her seat), Bob's turns are played by
    an AI too (his timer runs out): the record of the finished game rebuilds exactly what was stored."""
    game = rules.get_game(name)
    service = await build_service(f"sqlite+aiosqlite:///{tmp_path}/h.db")
    try:
        short = "max_rounds=3" if name == "troubadour" else ""  # (Bob plays badly: a long game otherwise)
        gid = (await service.create_lobby(CHAT, ALICE, name, short, seed=11))[0].game_id
        await service.join(CHAT, BOB, game_id=gid)
        for _ in range(game.min_players - 2):
            await service.add_ai(CHAT, ALICE, "random", game_id=gid)
        await service.settings(CHAT, ALICE, "ai_time=0.1", is_admin=True)
        await service.start(CHAT, ALICE, game_id=gid)
        async with UnitOfWork(service.db) as uow:
            running = await load_game(uow, gid)
        bob = running.seat_of_player(next(p["player_id"] for p in running.players if p["name"] == "Bob"))
        assert audience_for(running, running.players[bob]["player_id"]) == bob
        await service.resign(CHAT, ALICE, game_id=gid)
        rng = random.Random(2)
        for turn in range(3000):
            async with UnitOfWork(service.db) as uow:
                if (await uow.games.get(gid)).status != "active":
                    break
            choices = await service.choices(BOB, game_id=gid)
            if choices and turn % 5:
                await service.act(None, BOB, rng.choice(choices)[1], game_id=gid)
            else:  # Bob lets his time run out now and then (an AI plays his turn); a thinking AI's turn comes
                for _ in range(2):  # (his turn is played in a job of its own, the next time the timers run)
                    await service.run_timers(datetime.now(timezone.utc) + timedelta(days=30))
        async with UnitOfWork(service.db) as uow:
            stored = await load_game(uow, gid)
            row = await uow.games.get(gid)
            assert row.status == "finished"
            assert stored.players[bob]["name"] == "Bob" and not stored.players[bob]["resigned"]
            alice = next(s for s, p in enumerate(stored.players) if p["resigned"])
            assert stored.players[alice]["name"] == row.result["names"][alice]
            record = json.loads(json.dumps(build_record(stored, audience_for(stored, None))))
            replay = Replay(record)
            assert kit.dump(replay.state(replay.steps)) == json.dumps(row.state, sort_keys=True)
            assert record["result"]["places"] == row.result["ranking"]
            assert record["result"]["scores"] == row.result["scores"]
            assert record["result"]["resigned"] == [alice]
            assert {s["by"] for s in record["steps"]} >= {"ai", "player"} | ({"timer"} if name != "troubadour" else set())
            assert all(s["flags"] == {"ai": s["by"] == "ai", "timer": s["by"] == "timer", "hint": False}
                       for s in record["steps"])  # (nobody asked for a hint)
            assert "platform" not in json.dumps(record) and '"1"' not in json.dumps(record["players"])
    finally:
        await service.close()


# -- records written by format version 1 must still replay ----------------------------------------------------

SAMPLES = sorted((Path(__file__).parent.parent / "data" / "records").glob("*.json"))


def test_there_is_a_sample_record_of_every_game():
    assert sorted(p.stem for p in SAMPLES) == REAL


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_a_kept_sample_record_still_replays_to_its_result(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["version"] == 1 and record["audience"] == ALL
    replay = Replay(record)
    n = len(record["players"])
    for step in range(replay.steps + 1):
        state = replay.state(step)
        assert state.is_over() == (step == replay.steps)
        for viewer in [None, *range(n)]:
            assert replay.view(step, viewer) == state.view(viewer)
        assert len(replay.narration(step, ALL)) >= (1 if step and replay.events(step, ALL) else 0)
    final = replay.state(replay.steps)
    assert record["result"]["places"] == final.ranking() and record["result"]["scores"] == final.scores()
