"""What the table sees (issues 23 and 22): tie rules from the engines, per-game help, /stats by part of a name,
secret moves refused in the group, resign with a confirmation, /log."""
from __future__ import annotations

import pytest

import rules
from bot.service import ChatRef, UserRef, build_service
from bot.service.narration import final_result_lines
from rules.api import Game
from tests.bot.test_leagues import open_game, play_out

CHAT = ChatRef("discord", "chan1", "guild1", "general")
ALICE, BOB = UserRef("discord", "1", "Alice"), UserRef("discord", "2", "Bob")
ROBERT, ROBERTA = UserRef("discord", "3", "Robert Smith"), UserRef("discord", "4", "Roberta Jones")


@pytest.fixture
async def service(database_url):
    svc = await build_service(database_url)
    yield svc
    await svc.close()


# ---------------------------------------------------------------------------------------------- tie rules
def test_every_game_states_its_own_tie_rule_through_the_engine_hook():
    rules.load_games()
    for name in ("troubadour", "guyenne", "list_und_tuecke", "kardinal", "koenig_artus"):
        game = rules.get_game(name)
        assert game.tie_rule() and game.score_unit()
        lines = final_result_lines(game, [5, 5], [1, 1], ["A", "B"])
        assert lines[-1] == "Tie rule: " + game.tie_rule()
    assert rules.get_game("koenig_artus").score_unit() == "field"


def test_a_game_without_the_hook_states_no_rule_and_an_override_is_used():
    class Plain(Game):
        name = "plain"

    class Ruled(Plain):
        def tie_rule(self):
            return "Ties go to the youngest."

        def score_unit(self):
            return "crown"

    assert final_result_lines(Plain(), [2, 2], [1, 1], ["A", "B"]) == ["1. A — 2 points (shared)",
                                                                       "1. B — 2 points (shared)"]
    lines = final_result_lines(Ruled(), [1, 1], [1, 1], ["A", "B"])
    assert lines == ["1. A — 1 crown (shared)", "1. B — 1 crown (shared)", "Tie rule: Ties go to the youngest."]


# ---------------------------------------------------------------------------------------------- help
async def test_help_lists_games_and_help_of_a_game_is_its_own(service):
    [general] = await service.help(CHAT, ALICE)
    assert "/new" in general.text and "koenig_artus" in general.text and "/help <game>" in general.text
    [artus] = await service.help(CHAT, ALICE, "koenig_artus")
    assert rules.get_game("koenig_artus").help_text() in artus.text and "/new" not in artus.text
    [kardinal] = await service.help(CHAT, ALICE, "Kardinal")
    assert rules.get_game("kardinal").help_text() in kardinal.text
    [unknown] = await service.help(CHAT, ALICE, "chess")
    assert unknown.kind == "error" and "Known games" in unknown.text


async def test_help_inside_a_running_game_gives_that_games_help(service):
    gid = (await service.create_lobby(CHAT, ALICE, "kardinal", seed=3))[0].game_id
    await service.add_ai(CHAT, ALICE, "random", game_id=gid)
    await service.start(CHAT, ALICE, game_id=gid)
    [text] = await service.help(CHAT, ALICE)
    assert f"Game #{gid}" in text.text and rules.get_game("kardinal").help_text() in text.text
    [private] = await service.help(None, ALICE)
    assert rules.get_game("kardinal").help_text() in private.text


# ---------------------------------------------------------------------------------------------- stats
async def test_stats_finds_a_player_by_part_of_the_name_and_asks_when_several_match(service):
    await play_out(service, await open_game(service, [ALICE, ROBERT], seed=1), [ALICE, ROBERT])
    [found] = await service.stats(CHAT, ALICE, "robert")
    assert found.text.startswith("📜 Robert Smith — 1 games") or found.text.startswith("📜 Robert Smith")
    [found] = await service.stats(CHAT, ALICE, "SMITH")
    assert found.text.startswith("📜 Robert Smith")
    await play_out(service, await open_game(service, [ALICE, ROBERTA], seed=2), [ALICE, ROBERTA])
    [which] = await service.stats(CHAT, ALICE, "Robert")
    assert which.kind == "error" and "Robert Smith" in which.text and "Roberta Jones" in which.text
    [exact] = await service.stats(CHAT, ALICE, "robert smith")
    assert exact.text.startswith("📜 Robert Smith")
    assert "has played here yet" in (await service.stats(CHAT, ALICE, "Zed"))[0].text
    assert "has played here yet" in (await service.stats(CHAT, ALICE, "%"))[0].text


# ---------------------------------------------------------------------------------------------- secret moves
async def _started(service, name, seed=5, ai=1, options=""):
    gid = (await service.create_lobby(CHAT, ALICE, name, options, seed=seed))[0].game_id
    for _ in range(ai):
        await service.add_ai(CHAT, ALICE, "random", game_id=gid)
    await service.start(CHAT, ALICE, game_id=gid)
    return gid


async def _state(service, gid):
    from storage import UnitOfWork

    async with UnitOfWork(service.db) as uow:
        row = await uow.games.get(gid)
        seat = next(s.seat for s in row.seats if s.player is not None and s.player.external_id == ALICE.id)
        return rules.get_game(row.game).from_json(row.state), seat, row.version


@pytest.mark.parametrize("name", ["troubadour", "guyenne"])
async def test_a_secret_move_typed_in_the_group_is_refused_and_shows_nothing(service, name):
    gid = await _started(service, name)
    state, seat, version = await _state(service, gid)
    game = rules.get_game(name)
    action = state.legal_actions(seat)[0]
    assert state.is_secret(seat, action)
    typed = game.format_action(action)
    out = await service.act(CHAT, ALICE, "/move " + typed, game_id=gid)
    assert [m.kind for m in out] == ["error"] and "privately" in out[0].text
    assert out[0].user == ALICE and typed not in out[0].text
    assert (await _state(service, gid))[2] == version  # nothing played
    played = await service.act(None, ALICE, typed, game_id=gid)  # in the private chat it is a move
    assert not any(m.kind == "error" for m in played)
    assert (await _state(service, gid))[2] > version


async def test_a_public_move_typed_in_the_group_is_played(service):
    gid = await _started(service, "kardinal")
    state, seat, version = await _state(service, gid)
    while seat not in state.to_act():
        pytest.skip("the AI starts")
    action = state.legal_actions(seat)[0]
    assert not state.is_secret(seat, action)
    out = await service.act(CHAT, ALICE, rules.get_game("kardinal").format_action(action), game_id=gid)
    assert not any(m.kind == "error" for m in out)


# ---------------------------------------------------------------------------------------------- resign
async def _seated(service, gid, user):
    from storage import UnitOfWork

    async with UnitOfWork(service.db) as uow:
        row = await uow.games.get(gid)
        return [s for s in row.seats if s.player is not None and s.player.external_id == user.id and not s.resigned]


async def test_resign_asks_first_and_its_buttons_are_checked(service):
    gid = (await service.create_lobby(CHAT, ALICE, "kardinal", seed=3))[0].game_id
    await service.join(CHAT, BOB, game_id=gid)
    await service.start(CHAT, ALICE, game_id=gid)
    [question] = await service.resign(CHAT, ALICE, gid, confirmed=False)
    assert question.user == ALICE and question.chat == CHAT and "Resign from game" in question.text
    yes, cancel = question.buttons[0]
    assert yes.data.startswith(f"r:{gid}:") and cancel.data.startswith(f"rc:{gid}:")
    assert await _seated(service, gid, ALICE)  # asking changed nothing
    # Bob presses Alice's buttons (Telegram shows a reply to the whole group): refused, nothing changes
    [refused] = await service.press(BOB, yes.data, chat=CHAT)
    assert refused.kind == "error" and "someone else" in refused.text
    assert await _seated(service, gid, ALICE) and await _seated(service, gid, BOB)
    [kept] = await service.press(ALICE, cancel.data, chat=CHAT)
    assert "play on" in kept.text and await _seated(service, gid, ALICE)
    for forged in (f"r:{gid}:x:{ALICE.id}", f"r:{gid}:1", f"rc:{gid}", f"r:999:1:{ALICE.id}"):
        [answer] = await service.press(ALICE, forged, chat=CHAT)
        assert answer.kind == "error", forged
    assert await _seated(service, gid, ALICE)
    # a question the game moved on from is asked again, not acted on
    state, seat, version = await _state(service, gid)
    mover = ALICE if seat in state.to_act() else BOB
    mover_seat = seat if mover is ALICE else 1 - seat
    await service.act(None, mover, state.legal_actions(mover_seat)[0], game_id=gid)
    [again] = await service.press(ALICE, yes.data, chat=CHAT)
    assert "moved on" in again.text and again.buttons and await _seated(service, gid, ALICE)
    out = await service.press(ALICE, again.buttons[0][0].data, chat=CHAT)
    assert any("resigned" in m.text for m in out) and not await _seated(service, gid, ALICE)


async def test_resign_yes_resigns_at_once(service):
    gid = (await service.create_lobby(CHAT, ALICE, "kardinal", seed=3))[0].game_id
    await service.join(CHAT, BOB, game_id=gid)
    await service.start(CHAT, ALICE, game_id=gid)
    out = await service.resign(CHAT, BOB, gid, confirmed=True)
    assert any("resigned" in m.text for m in out) and not await _seated(service, gid, BOB)


# ---------------------------------------------------------------------------------------------- /log
async def test_log_tells_the_public_log_and_only_the_asker_their_private_lines(service):
    from bot.service.live import seat_names
    from bot.service.narration import narrate
    from rules.api import Event
    from storage import UnitOfWork

    gid = await _started(service, "list_und_tuecke", seed=4, ai=3)
    for _ in range(12):  # Alice plays her first legal move a dozen times (the AIs answer)
        state, seat, _ = await _state(service, gid)
        if seat not in state.to_act():
            break
        await service.act(None, ALICE, state.legal_actions(seat)[0], game_id=gid)
    out = await service.log(CHAT, ALICE, "200")
    public = next(m for m in out if m.chat == CHAT)
    assert public.user == ALICE and public.kind == "log"  # an answer to the asker (Discord: ephemeral)
    async with UnitOfWork(service.db) as uow:
        moves = await uow.games.moves(gid)
        seats = (await uow.games.get(gid)).seats
        by_position = seat_names(seats)  # AI seats are named by their level (issue #25)
        names = [by_position[s.position] for s in sorted(seats, key=lambda s: s.seat)]
    entries = [(m.seq, Event.from_json(e)) for m in moves for e in m.events]
    told = narrate(rules.get_game("list_und_tuecke"), entries, None, names)
    assert told and all(line in public.text for line in told[-10:])
    private = [m for m in out if m.is_private]
    hidden = [e for _, e in entries if e.audience is not None]
    assert all(m.user == ALICE for m in private)
    if any(ALICE_SEAT in e.audience for e in hidden for ALICE_SEAT in [seat]):
        assert private and "what only you saw" in private[0].text
    short = next(m for m in await service.log(CHAT, ALICE, "3") if m.chat == CHAT)
    assert short.text.count("\n· ") == 3 and "/log" in short.text.splitlines()[0]
    # someone not at the table reads the public log and gets nothing private
    out = await service.log(CHAT, BOB)
    assert [m.is_private for m in out] == [False] and out[0].kind == "log"
    assert (await service.log(CHAT, ALICE, "lots"))[0].kind == "error"


async def test_log_fits_a_message_and_the_console_has_it(service):
    gid = await _started(service, "troubadour", seed=2, ai=1)
    out = await service.log(CHAT, ALICE, "200", game_id=gid)
    assert all(len(m.text) <= 2000 for m in out)


# ---------------------------------------------------------------------------------------------- score tables
def _play_until(game, state, stop, limit=3000):
    import random

    rng = random.Random(1)
    for _ in range(limit):
        if stop(state) or state.is_over():
            break
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def test_koenig_artus_board_has_a_running_score_table_per_hand():
    game = rules.get_game("koenig_artus")
    state = _play_until(game, game.new_game(3, seed=7), lambda s: s.view(None)["hand_no"] >= 3)
    view = state.view(None)
    assert len(view["hand_ends"]) == view["hand_no"] - 1 >= 2
    text = game.render_view(view)
    assert "Fields after each hand:" in text
    rows = [line for line in text.splitlines() if line.strip().startswith("P") and " H1 " in line]
    assert len(rows) == 3 and all("H2" in r and "now" in r for r in rows)
    assert "Fields after each hand" not in game.render_view(state.view(0))  # the turn message stays short
    again = game.from_json(state.to_json())
    assert again.view(None) == view and again.clone().view(None) == view


def test_list_und_tuecke_board_has_a_running_score_table_per_round():
    game = rules.get_game("list_und_tuecke")
    state = _play_until(game, game.new_game(4, seed=7), lambda s: len(s.view(None)["round_scores"]) >= 2)
    view = state.view(None)
    text = game.render_view(view)
    assert "Scores by round:" in text
    rows = [line for line in text.splitlines() if " R1 " in line]
    assert len(rows) == 4 and all("R2" in r and "total" in r for r in rows)
    mine = game.render_view(state.view(0))
    assert "Scores by round:" not in mine and "Totals after 2 rounds" in mine  # the turn message stays short


# ---------------------------------------------------------------------------------------------- Guyenne's last action
@pytest.mark.parametrize("players,options", [(2, {}), (3, {"mode": "two_sets"})])
def test_guyenne_highlights_the_last_action_in_the_text_and_the_picture(players, options):
    import io

    from PIL import Image

    from bot.render import boards
    from bot.render.boards import guyenne as picture

    game = rules.get_game("guyenne")
    state = game.new_game(players, seed=6, options=options)
    state = _play_until(game, state, lambda s: any(f["counts"][0] and f["counts"][1] for f in s.view(None)["fights"])
                        and s.view(None)["last"]["castle"] is not None)
    view = state.view(None)
    last = view["last"]
    assert last["castle"] is not None and last["seat"] in range(players)
    text = game.render_view(view)
    assert f"👉 Last: {{P{last['seat'] + 1}}}" in text and f"castle {last['castle']}" in text
    assert f"👉⚔ Castle {last['castle']}" in text
    canvas = boards.draw("guyenne", view, ["Alice", "Bob", "Carol"])
    assert [k for k in canvas.layout if k.startswith("last:")] == [f"last:{last['castle']}"]
    x0, y0, x1, y1 = canvas.layout[f"last:{last['castle']}"]
    image = Image.open(io.BytesIO(canvas.png())).convert("RGB")
    ring = image.getpixel(((x0 + x1) // 2, y0 + 1))
    assert sum(abs(a - b) for a, b in zip(ring, picture.LAST)) <= 40
    assert "last" not in state.view(0)  # a hand is told the last action in its narration
    again = game.from_json(state.to_json())
    assert again.view(None) == view and again.clone().view(None) == view


# ---------------------------------------------------------------------------------------------- second person
def test_a_line_of_its_own_view_starting_with_the_seat_speaks_to_it_capitalised():
    from rules.lang import speak_to

    assert speak_to("Points {P1} 0 · {P2} 0 · hands 6 · 6\n{P1} opens a castle.", 0).endswith("\nYou open a castle.")
    assert speak_to("Castles: 1⬜\n  {P1} answers there.", 0).endswith("\n  You answer there.")
    assert speak_to("then {P1} answers there.", 0) == "then you answer there."


def test_the_console_board_speaks_to_you():
    from bot.console.play import addressed

    assert addressed("You opens a castle.", "You") == "You open a castle."
    assert addressed("You 🟥E: hand 6 · deck 16", "You") == "You 🟥E: hand 6 · deck 16"


def test_koenig_artus_picture_has_the_compact_score_table():
    from bot.render import boards

    game = rules.get_game("koenig_artus")
    state = _play_until(game, game.new_game(4, seed=7), lambda s: s.view(None)["hand_no"] >= 3)
    canvas = boards.draw("koenig_artus", state.view(None), ["A", "B", "C", "D"])
    assert "hand_ends" in canvas.layout
    fresh = boards.draw("koenig_artus", game.new_game(4, seed=7).view(None), ["A", "B", "C", "D"])
    assert "hand_ends" not in fresh.layout


# ---------------------------------------------------------------------------------------------- the end is told
@pytest.mark.parametrize("name,ai", [("kardinal", 1), ("koenig_artus", 2), ("list_und_tuecke", 3)])
async def test_at_the_end_each_person_is_told_everything_since_their_last_move(service, name, ai):
    from bot.service.narration import since_last_turn
    from rules.api import Event
    from storage import UnitOfWork

    gid = await _started(service, name, seed=9, ai=ai)
    last = []
    for _ in range(400):
        state, seat, _ = await _state(service, gid)
        if state.is_over():
            break
        out = await service.act(None, ALICE, state.legal_actions(seat)[0], game_id=gid)
        last = [m for m in out if m.is_private and m.user == ALICE and m.kind == "hand"]
    assert state.is_over() and last
    async with UnitOfWork(service.db) as uow:
        row = await uow.games.get(gid)
        names = row.result["names"]
        log = [(m.seq, m.seat, [Event.from_json(e) for e in m.events]) for m in await uow.games.moves(gid)]
    told = since_last_turn(rules.get_game(name), log, seat, names, ended=True)
    assert told and all(line in last[-1].text for line in told)  # their own last move too, at the end


async def test_the_console_shows_the_log(tmp_path):
    from tests.bot.test_console import run

    text, code = await run(tmp_path, ["1", "1", "log 2", "log", "quit"], game="kardinal", players=2, seed=3)
    assert code == 0 and "📜 #1 Kardinal — the log" in text
    assert "· log ·" in text  # the command line names it


@pytest.mark.parametrize("name", ["kardinal", "koenig_artus", "guyenne"])
async def test_a_move_that_ends_the_game_tells_the_mover_the_final_lines_and_the_result_once(service, name):
    """The mover's last private message holds what its own move ended with (the final account, the winner),
    spoken to it; the other person is told the same; the result is posted once."""
    gid = (await service.create_lobby(CHAT, ALICE, name, seed=4))[0].game_id
    await service.join(CHAT, BOB, game_id=gid)
    await service.start(CHAT, ALICE, game_id=gid)
    seats = {}
    for _ in range(3000):
        state, alice_seat, _ = await _state(service, gid)
        seats = {alice_seat: ALICE, 1 - alice_seat: BOB}
        seat = state.to_act()[0]
        out = await service.act(None, seats[seat], state.legal_actions(seat)[0], game_id=gid)
        if any(m.kind == "result" for m in out):
            break
    else:
        pytest.fail("the game did not end")
    mover, other = seats[seat], seats[1 - seat]
    assert [m.kind for m in out].count("result") == 1
    last = {m.user: m.text for m in out if m.is_private and m.kind == "hand"}
    end_line = {"kardinal": "Nobody can build any more: game over.", "koenig_artus": "🏆 ",
                "guyenne": "Game over: "}[name]
    assert end_line in last[mover] and end_line in last[other]
    if name == "kardinal":
        assert "\nYou " in last[mover] and "\nyou " not in last[mover]  # its own account, spoken to it
        assert last[mover].count("Dom") == 2  # the account once (the view does not repeat it)
    elif name == "koenig_artus":
        assert "You win, first to King Arthur's field!" in last[mover] + last[other]  # spoken to the winner
    assert "and wins" not in last[mover] + last[other]
