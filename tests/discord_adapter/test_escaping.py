"""Issue 34 (1): what people call themselves, or type, is shown as written on Discord — never as a link,
formatting, a mention or the end of a code block — on every path the bot repeats it: lobby, board, turn line,
hand, log, result, ratings, leaderboard, stats, history and error answers.

Each check reads the exact content the fake Discord received the way a client would (``markdown_reader``)."""
from __future__ import annotations

from bot.service import ChatRef, Message, UserRef
from tests.discord_adapter.fake_discord import CHANNEL_ID, GUILD_ID, FakeDiscord
from tests.discord_adapter.markdown_reader import assert_plain, shown_in_blocks, shown_outside
from tests.discord_adapter.test_discord import act, latest_picker, play_to_the_end

text = FakeDiscord.text
NITRO, FENCE, LOUD = "[Free Nitro](https://e.vil)", "a```b", "@everyone **x**"
NAMES = (NITRO, FENCE, LOUD)


def people(dc) -> tuple[dict, dict, dict]:
    return (dc.api.add_user(1011, NITRO), dc.api.add_user(1012, FENCE), dc.api.add_user(1013, LOUD))


def newest(dc, starting: str) -> dict:
    return [m for m in dc.api.channel_messages() if text(m).startswith(starting)][-1]


async def seat_everyone(dc):
    nitro, fence, loud = people(dc)
    await dc.slash(nitro, "new", game="toy")
    await dc.slash(fence, "join")
    await dc.slash(loud, "join")
    return nitro, fence, loud


async def play_one_game(dc):
    nitro, fence, loud = await seat_everyone(dc)
    await dc.slash(nitro, "start")
    await play_to_the_end(dc, [nitro, fence, loud])
    return nitro, fence, loud


async def test_the_lobby_shows_names_as_written(dc):
    await seat_everyone(dc)
    lobby = [m for m in dc.api.channel_messages() if "table #" in text(m)][-1]
    assert_plain(text(lobby), *NAMES)


async def test_the_board_shows_names_as_written(dc):
    nitro, _, _ = await seat_everyone(dc)
    await dc.slash(nitro, "start")
    board = [m for m in dc.api.channel_messages() if "#1" in text(m) and "Duel" in text(m)][-1]
    assert_plain(text(board), *NAMES)


async def test_the_turn_line_and_dm_notice_show_names_as_written_and_still_ping(dc):
    """Whose DMs are closed is named in the channel and pinged on their turn: the ping stays a mention."""
    nitro, fence, loud = await seat_everyone(dc)
    dc.api.closed_dms.update({int(fence["id"]), int(loud["id"])})
    await dc.slash(nitro, "start")
    notices = [text(m) for m in dc.api.channel_messages() if "cannot send private messages" in text(m)]
    assert len(notices) == 2
    for notice in notices:
        assert_plain(notice)
    await act(dc, nitro, latest_picker(dc, nitro))  # the next turn line names the two left to choose
    turn = newest(dc, "🔔")
    pinged = [int(u["id"]) for u in turn["mentions"]]
    content = text(turn)
    assert pinged and content.endswith(" " + " ".join(f"<@{uid}>" for uid in pinged))
    assert_plain(content.removesuffix(" " + " ".join(f"<@{uid}>" for uid in pinged)))


async def test_hands_show_names_as_written(dc):
    nitro, fence, loud = await seat_everyone(dc)
    await dc.slash(nitro, "start")
    hands = [text(m) for person in (nitro, fence, loud) for m in dc.api.dms(int(person["id"]))]
    assert hands
    for hand in hands:
        assert_plain(hand)


async def test_the_result_shows_names_as_written(dc):
    await play_one_game(dc)
    assert_plain(text(newest(dc, "🏆")), *NAMES)


async def test_the_rating_changes_show_names_as_written(dc):
    await play_one_game(dc)
    assert_plain(text(newest(dc, "📈")), *NAMES)


async def test_the_log_shows_names_as_written(dc):
    _, _, loud = await play_one_game(dc)
    [log] = dc.answers(await dc.slash(loud, "log"))
    assert_plain(log, *NAMES)


async def test_the_leaderboard_keeps_its_table_one_block_whatever_the_names(dc):
    _, fence, _ = await play_one_game(dc)
    await dc.slash(dc.mod, "settings", change="min_games=1")
    [leaderboard] = dc.answers(await dc.slash(fence, "leaderboard"))
    assert_plain(leaderboard, *NAMES)
    [table] = shown_in_blocks(leaderboard)  # every name inside the one table
    assert all(name in table for name in NAMES) and not any(name in shown_outside(leaderboard) for name in NAMES)


async def test_stats_show_the_name_as_written(dc):
    for person in await play_one_game(dc):
        [stats] = dc.answers(await dc.slash(dc.alice, "stats", player=person))
        assert stats.count("📜") == 1 and "1 game" in stats
        assert_plain(stats, person["global_name"])


async def test_history_shows_names_as_written(dc):
    nitro, _, _ = await play_one_game(dc)
    [history] = dc.answers(await dc.slash(nitro, "history"))
    assert_plain(history, *NAMES)


async def test_an_error_answer_shows_the_typed_text_as_written(dc):
    for game in ("[Nitro](https://e.vil)", FENCE, "@everyone"):  # a game name is one word
        [unknown] = dc.answers(await dc.slash(dc.alice, "new", game=game))
        assert "Unknown game" in unknown
        assert_plain(unknown, game)
        [board] = dc.answers(await dc.slash(dc.bob, "leaderboard", game=game))
        assert_plain(board, game)


async def test_a_long_text_goes_in_an_embed_with_its_block_closed(dc):
    """Past 2000 characters the text is an embed (Markdown is live there too); cut to fit, its block still
    ends, and no half escape is left at the cut."""
    chat = ChatRef("discord", str(CHANNEL_ID), str(GUILD_ID))
    lines = [f"{i}. {NITRO} {LOUD} plays *{FENCE}*" for i in range(60)]
    table = "```\n" + "\n".join(f"{i:>3} {FENCE} {NITRO}" for i in range(80)) + "\n```"
    await dc.bot.adapter.deliver([Message("\n".join(lines) + "\n" + table + "\n" + "\n".join(lines), chat=chat)])
    await dc.idle()
    [message] = dc.api.channel_messages()
    [embed] = message["embeds"]
    assert message["content"] == "" and len(embed["description"]) <= 4096
    assert_plain(embed["description"], *NAMES)


async def test_a_ping_names_its_person_after_the_escaped_text(dc):
    chat = ChatRef("discord", str(CHANNEL_ID), str(GUILD_ID))
    nitro = UserRef("discord", "1011", NITRO)
    dc.api.add_user(1011, NITRO)
    await dc.bot.adapter.deliver([Message(f"🔔 your turn, {NITRO} <@{dc.bob['id']}> @here", chat=chat, ping=True,
                                          mentions=[nitro], slot="turn:9", game_id=9)])
    await dc.idle()
    [line] = dc.api.channel_messages()
    assert line["content"].endswith(" <@1011>")
    assert [(n["user"], n["how"]) for n in dc.api.notifications] == [(1011, "mention")]
    assert_plain(line["content"].removesuffix(" <@1011>"), NITRO, f"<@{dc.bob['id']}>", "@here")

