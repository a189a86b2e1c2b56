"""Issue 36 leftover: after a resignation the finished board's caption (and each person's last view) names the
winner the result names — the seat that resigned is last, whatever the AI that played it on scored —, through the
real python-telegram-bot against the fake Bot API."""
from __future__ import annotations

from tests.telegram_adapter.conftest import ALICE, BOB, GROUP
from tests.telegram_adapter.test_telegram import open_private_chats
from tests.telegram_adapter.test_whole_games import play

SEED = 2  # a deal where the AI that plays on Alice's seat after she resigned scores most (21 to 18 and 13)


async def test_the_finished_board_crowns_who_the_result_crowns_after_a_resignation(tg, monkeypatch):
    monkeypatch.setattr("bot.service.handlers.lobby.secrets.randbits", lambda bits: SEED)  # one known deal
    api = tg.api
    api.group(GROUP)
    await tg.say(ALICE, GROUP, "/new kardinal", expect=(GROUP, "table #1"))
    await tg.say(ALICE, GROUP, "/addai")  # three seats: a resigned seat is played by the greedy AI, at once
    await tg.idle()
    await tg.say(BOB, GROUP, "/join", expect=(GROUP, "Bob"))
    await open_private_chats(tg, ALICE, BOB)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "🏁"))
    await play(tg, [ALICE, BOB], "resign")  # Alice resigns after a few moves; an AI plays her seat on
    await api.wait_for(lambda: any("is over" in m["text"] for m in api.bot_messages(GROUP)), 60)
    await tg.idle()
    group = api.bot_messages(GROUP)
    result = next(m["text"] for m in group if "is over" in m["text"]).splitlines()
    assert result[1].startswith("1. 🤖 Sir Greedy — ") and result[3].startswith("3. 🤖 Alice — 21 points")
    caption = next(m["text"] for m in group if "photo" in m)
    assert caption.splitlines()[-1] == "🏆 🤖 Sir Greedy wins!" and "Alice wins" not in caption
    last_view = api.bot_messages(BOB["id"])[-1]["text"]
    assert "🏆 🤖 Sir Greedy wins!" in last_view and "Alice wins" not in last_view
