"""The text record (issue #41): the whole game narrated as the table saw it, every hidden card shown after the
end, nothing hidden shown to anyone else, in the reader's language."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import rules
from bot import i18n
from bot.service import narration
from bot.service.record_text import text_record
from bot.service.records import ALL, PUBLIC, build_record
from bot.service.replay import Replay
from rules.api import Event
from tests.bot.test_records import CONFIGS, IDS, played

SAMPLES = sorted((Path(__file__).parent.parent / "data" / "records").glob("*.json"))


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_the_text_of_a_whole_record_tells_every_event_and_every_hand(path):
    tells_every_event_and_every_hand(json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize(("name", "n", "options"), CONFIGS, ids=IDS)
def test_the_text_record_of_every_game_and_player_count_tells_every_event(name, n, options):
    """Over a seeded game played to the end, for every game, player count and options."""
    stored, _states = played(name, n, options, seed=6)
    assert stored.status == "finished"
    tells_every_event_and_every_hand(json.loads(json.dumps(build_record(stored, ALL))))


def tells_every_event_and_every_hand(record: dict) -> None:
    replay = Replay(record)
    game = replay.game
    text = text_record(record)
    for player in record["players"]:
        assert player["name"] in text
    for step in range(1, replay.steps + 1):
        entry = record["steps"][step - 1]
        assert f"\n{step}. {replay.names[entry['seat']]}: {entry['action']}" in text
        # every event of the move is told: the narration tells each (no event missed), each line is in the text
        for audience in {tuple(e["audience"]) if e["audience"] else None for e in entry["events"]}:
            run = [Event.from_json(e) for e in entry["events"]
                   if (tuple(e["audience"]) if e["audience"] else None) == audience]
            lines = narration.narrate_lines(game, run, audience[0] if audience else None, replay.names)
            assert sorted(k for line in lines for k in line.events) == list(range(len(run)))
        for line in replay.narration(step, ALL):
            assert line.replace("\n", "\n   ") in text
    for seat, name in enumerate(replay.names):  # each hand as dealt
        assert f"As {name} saw it:" in text
        assert game.render_view(replay.view(0, seat)).split("\n")[-1].replace("{P", "") in text.replace("{P", "")
    final = replay.state(replay.steps)
    result = narration.final_result_lines(game, final.scores(), final.ranking(), replay.names)
    assert "\n".join(result) in text


def test_a_cut_text_record_tells_nothing_hidden_from_its_reader():
    stored, states = played("guyenne", 2, {"level": "basic", "mode": "duel"}, seed=4)
    stored.moves, stored.status, stored.result = stored.moves[:40], "active", None
    public = text_record(build_record(stored, PUBLIC))
    mine = text_record(build_record(stored, 0))
    assert "🔒" not in public and "🔒" not in mine and "As Seat" not in mine
    assert "What the table saw" in public and "What Seat 1 knew" in mine
    game = rules.get_game("guyenne")
    private = [(event, game.describe_event(event)) for _seat, _action, events, _by in stored.moves
               for event in map(Event.from_json, events) if event.audience is not None]
    own = {told for event, told in private if 0 in event.audience}
    others = {told for event, told in private if 0 not in event.audience} - own  # (the same words: not a leak)
    assert others and own
    assert not [told for told in others if told in mine]
    assert not [told for told in own | others if told in public]
    hand = next(line for line in game.render_view(states[0].view(1)).split("\n") if line.startswith("Your hand"))
    assert hand.split(":")[1] not in mine and hand.split(":")[1] not in public  # seat 2's hand as dealt
    mine_dealt = next(line for line in game.render_view(states[0].view(0)).split("\n") if line.startswith("Your hand"))
    assert mine_dealt in mine



@pytest.mark.parametrize("lang, words", [("de", "Sitzplätze"), ("fr", "Places"), ("nl", "Plaatsen")])
def test_the_text_record_is_in_the_readers_language(lang, words):
    record = json.loads(SAMPLES[0].read_text(encoding="utf-8"))
    with i18n.using(lang):
        text = text_record(record)
    assert words in text and "Seats:" not in text
