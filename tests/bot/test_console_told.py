"""Issue 37, items 3 and 13: over seeded whole games of every title on the console (AI seats for the others),
every event the person's seat may know is printed before their next prompt — their own move too, confirmed — and
none is told twice (``console_told``: what was printed, matched with the events stored with the moves)."""
from __future__ import annotations

import pytest

from tests.bot.console_told import told_report

GAMES = [("troubadour", 2, ""), ("troubadour", 4, ""), ("guyenne", 2, ""), ("guyenne", 2, "level=expert"),
         ("guyenne", 4, "mode=two_sets"), ("list_und_tuecke", 4, ""), ("kardinal", 2, ""), ("kardinal", 4, ""),
         ("koenig_artus", 3, ""), ("koenig_artus", 4, "")]
CASES = [(g, n, o, seed, "en") for g, n, o in GAMES for seed in (1, 2)] + [
    (g, n, o, 3, lang) for (g, n, o), lang in zip(GAMES, ["nl", "de", "fr"] * 4)]


@pytest.mark.parametrize("game,players,options,seed,lang", CASES,
                         ids=[f"{g}-{n}{'-' + o if o else ''}-{s}-{lang}" for g, n, o, s, lang in CASES])
async def test_every_event_told_once_before_the_next_prompt(tmp_path, monkeypatch, game, players, options, seed,
                                                            lang):
    report = await told_report(monkeypatch, f"sqlite+aiosqlite:///{tmp_path}/told.db", game, players, seed, options,
                               lang)
    assert report.over, "the game was not played to its end"
    assert report.expected > 40
    assert not report.missed, f"{len(report.missed)} of {report.expected} missed: {report.missed[:6]}"
    assert not report.twice, f"{len(report.twice)} told twice: {report.twice[:6]}"
    assert not report.disorder, f"{len(report.disorder)} told out of order: {report.disorder[:4]}"



@pytest.mark.parametrize("game,players", [("koenig_artus", 3), ("troubadour", 2)])
async def test_the_winner_is_named_once_in_the_last_private_message(tmp_path, game, players):
    """The last private message said "🏆 Winner: …" twice (the narration, then the view below it), in the chat
    as on the console."""
    from bot.service import ChatRef, UserRef, build_service

    chat, ann = ChatRef("discord", "c37", "g37", "table"), UserRef("discord", "37", "Ann")
    service = await build_service(f"sqlite+aiosqlite:///{tmp_path}/end.db")
    try:
        gid = (await service.create_lobby(chat, ann, game, "", seed=1))[0].game_id
        for _ in range(players - 1):
            await service.add_ai(chat, ann, "greedy", game_id=gid)
        out = await service.start(chat, ann, game_id=gid)
        for _ in range(3000):
            live = service.ctx.games.loaded(gid)  # (dropped from memory when the game ends)
            if live is None or live.state.is_over():
                break
            state = live.state
            out = await service.act(chat, ann, state.legal_actions(live.seat_of(ann).seat)[0], game_id=gid)
        hands = [m for m in out if m.kind == "hand"]
        assert any(m.kind == "result" for m in out) and hands
        assert hands[-1].text.count("🏆") == 1, hands[-1].text
    finally:
        await service.close()
