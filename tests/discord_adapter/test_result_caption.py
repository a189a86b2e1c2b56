"""Issue 36 leftover on Discord: after a resignation the finished board (its text beside the picture, and each
person's last view) names the winner the result names — the seat that resigned is last, whatever the AI that
played it on scored —, through the real discord.py against the fake Discord."""
from __future__ import annotations

from tests.discord_adapter.fake_discord import FakeDiscord
from tests.discord_adapter.test_chat_second_pass import play

SEED = 2  # a deal where the AI that plays on Alice's seat after she resigned scores most
text = FakeDiscord.text


async def test_the_finished_board_crowns_who_the_result_crowns_after_a_resignation(dc, monkeypatch):
    monkeypatch.setattr("bot.service.handlers.lobby.secrets.randbits", lambda bits: SEED)  # one known deal
    await dc.slash(dc.alice, "new", game="kardinal")
    await dc.slash(dc.alice, "addai")  # three seats: a resigned seat is played by the greedy AI, at once
    await dc.slash(dc.bob, "join")
    await dc.slash(dc.alice, "start")
    await play(dc, [dc.alice, dc.bob], "resign")  # Alice resigns after a few moves; an AI plays her seat on
    await dc.wait_for(lambda: [m for m in dc.api.channel_messages() if "is over" in text(m)], 60)
    await dc.idle()
    shown = dc.api.channel_messages()
    result = next(text(m) for m in shown if "is over" in text(m))
    board = next(text(m) for m in shown if any(a["filename"].startswith("board") for a in m["attachments"]))
    last_view = [text(m) for m in dc.api.dms(int(dc.bob["id"])) if not m.get("deleted")][-1]
    assert "1\\. 🤖 Sir Greedy — " in result and "3\\. 🤖 Alice — 21 points" in result  # (Markdown-escaped)
    assert "🏆 🤖 Sir Greedy wins!" in board and "Alice wins" not in board
    assert "🏆 🤖 Sir Greedy wins!" in last_view and "Alice wins" not in last_view
