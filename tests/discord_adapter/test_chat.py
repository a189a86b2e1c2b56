"""Issue 22 on Discord: acknowledged in time under load, pings, buttons removed, 429 confined to its channel.

Behaviour only (what the fake saw, in which order): durations are measured in bench/chat.py."""
from __future__ import annotations

import asyncio

import pytest

from bot.service import Button, ChatRef, Message, UserRef
from bot.service.commands import PrivateChatFailed
from storage.models import GameRow
from tests.discord_adapter.fake_discord import CHANNEL_ID, GUILD_ID, OTHER_CHANNEL_ID, FakeDiscord
from tests.discord_adapter.test_discord import act, board, components, latest_picker, open_table, pick

text = FakeDiscord.text


def ref(person) -> UserRef:
    return UserRef("discord", person["id"], person["global_name"])


def channel(cid=CHANNEL_ID) -> ChatRef:
    return ChatRef("discord", str(cid), str(GUILD_ID))


async def deliver(dc, messages):
    await dc.bot.adapter.deliver(messages)
    await dc.idle()


def hand(person, words, **kw) -> Message:
    return Message(f"#9 your view — {words}", user=ref(person), slot="hand:9", game_id=9, kind="hand", **kw)


async def two_player_game(dc):
    await open_table(dc)
    await dc.slash(dc.bob, "join")
    await dc.slash(dc.alice, "start")


async def test_every_interaction_is_acknowledged_in_time_while_the_channel_is_rate_limited(dc):
    api = dc.api
    api.ack_deadline = 1.0  # stricter than Discord's 3 s
    _, lobby = await open_table(dc)
    api.rate_limit_channel[CHANNEL_ID] = 40  # every post in the game channel meets 429s for a while
    records = await asyncio.gather(*(
        [api.slash(p, "rules", game="kardinal") for p in (dc.alice, dc.bob, dc.carol, dc.mod) * 3] +
        [api.slash(dc.carol, "games", channel_id=OTHER_CHANNEL_ID) for _ in range(4)] +
        [api.click(dc.bob, lobby, next(c["custom_id"] for c in components(lobby) if c["label"] == "Join"))]))
    for record in records:
        await dc.settle(record)
    assert api.late == [] and all(r.callback is not None for r in records)
    assert all(any("Kardinal" in a for a in dc.answers(r)) for r in records[:12])


async def test_a_ping_dm_is_a_new_message_that_notifies_and_the_old_one_is_deleted(dc):
    api = dc.api
    alice = int(dc.alice["id"])
    await deliver(dc, [hand(dc.alice, "waiting", buttons=[[Button("R7", "p:9:1:0")]])])  # still pressable
    first = api.dms(alice)[-1]
    assert api.notifying(alice) == [dict(api.notifying(alice)[0])]  # a new DM notifies
    await deliver(dc, [hand(dc.alice, "your turn", ping=True, buttons=[[Button("R7", "p:9:1:0")]])])
    assert len(api.notifying(alice)) == 2
    assert api.messages[int(first["id"])].get("deleted")
    newest = [m for m in api.dms(alice) if not m.get("deleted")]
    assert len(newest) == 1 and "your turn" in text(newest[0]) and components(newest[0])
    await deliver(dc, [hand(dc.alice, "waiting again")])  # without ping: edited in place, silently
    assert api.messages[int(newest[0]["id"])]["edits"] == 1 and len(api.notifying(alice)) == 2
    assert components(api.messages[int(newest[0]["id"])]) == []  # no buttons any more: view removed
    # issue 38: a hand without buttons stays where it is when the next turn pings (a delete saved)
    await deliver(dc, [hand(dc.alice, "your turn again", ping=True, buttons=[[Button("R7", "p:9:1:0")]])])
    assert not api.messages[int(newest[0]["id"])].get("deleted") and len(api.notifying(alice)) == 3


async def test_a_public_ping_mentions_only_the_people_named_and_replaces_the_previous_line(dc):
    api = dc.api
    alice, bob = int(dc.alice["id"]), int(dc.bob["id"])
    await deliver(dc, [Message("⏳ #9: Bob to play", chat=channel(), slot="turn:9", game_id=9, ping=True)])
    assert api.notifications == []
    # the text names Bob too, but only Alice is in mentions: only she is pinged
    await deliver(dc, [Message(f"⏳ #9: Alice to play (after <@{bob}>)", chat=channel(), slot="turn:9",
                               game_id=9, ping=True, mentions=[ref(dc.alice)])])
    assert [(n["user"], n["how"]) for n in api.notifications] == [(alice, "mention")]
    lines = [m for m in api.channel_messages() if "to play" in text(m)]
    assert len(lines) == 1 and f"<@{alice}>" in text(lines[0])
    # ordinary messages ping nobody, whatever their text says
    await deliver(dc, [Message(f"Board for <@{alice}>", chat=channel(), slot="board:9", game_id=9)])
    assert len(api.notifications) == 1


async def test_429_in_one_channel_never_holds_up_another_and_the_message_gets_through(dc):
    api = dc.api
    api.rate_limit_channel[CHANNEL_ID] = 7  # beyond discord.py's own five tries
    await dc.bot.adapter.deliver([Message("busy channel", chat=channel(CHANNEL_ID)),
                                  Message("quiet channel", chat=channel(OTHER_CHANNEL_ID))])
    await dc.idle()
    order = [m["channel_id"] for m in api.channel_messages(CHANNEL_ID) + api.channel_messages(OTHER_CHANNEL_ID)]
    assert sorted(order) == sorted([str(CHANNEL_ID), str(OTHER_CHANNEL_ID)])
    posted = [c for _, c in api.posted]
    assert posted.index(OTHER_CHANNEL_ID) < posted.index(CHANNEL_ID)


async def test_every_closed_dm_is_reported_to_the_service_with_its_game(dc):
    api = dc.api
    api.closed_dms.add(int(dc.bob["id"]))
    calls = []
    original = dc.service.handle

    async def spy(command):
        if isinstance(command, PrivateChatFailed):
            calls.append((command.user.id, command.game_id))
        return await original(command)
    dc.service.handle = spy
    await deliver(dc, [hand(dc.bob, "one")])
    await deliver(dc, [Message("#9 other", user=ref(dc.bob), game_id=9, kind="info")])
    assert calls == [(dc.bob["id"], 9), (dc.bob["id"], 9)]


async def test_the_fake_is_strict_like_discord(dc):
    api = dc.api
    api.ack_deadline = 0.0
    record = await api.slash(dc.alice, "help")
    await dc.wait_for(lambda: record.id in api.late)
    await dc.wait_for(lambda: dc.bot.adapter.busy == 0)
    assert record.callback is None  # answered too late: 10062, nothing shown


async def test_after_abort_the_pickers_in_dms_lose_their_buttons(dc):
    await two_player_game(dc)
    await dc.slash(dc.mod, "abort")
    for person in (dc.alice, dc.bob):
        assert latest_picker(dc, person) is None


async def test_closed_dms_are_told_in_each_games_channel(dc):
    api = dc.api
    api.closed_dms.add(int(dc.bob["id"]))
    await two_player_game(dc)
    await dc.slash(dc.mod, "abort")
    await dc.slash(dc.alice, "new", game="koenig_artus")
    await dc.slash(dc.bob, "join")
    await dc.slash(dc.alice, "start")
    notices = [m for m in api.channel_messages() if "cannot send private messages to Bob" in text(m)]
    assert len(notices) == 2


async def test_exactly_one_notification_per_turn_change_to_the_person_to_act(dc):
    api = dc.api
    api.closed_dms.add(int(dc.bob["id"]))  # Bob plays from ephemerals: mentioned in the channel instead
    await two_player_game(dc)
    for _ in range(6):
        mover = dc.alice if latest_picker(dc, dc.alice) else dc.bob
        if mover is dc.bob:
            answer = await dc.slash(dc.bob, "hand")
            message = api.messages[answer.original_id]
            if not pick(message):
                break
        else:
            message = latest_picker(dc, mover)
        rings = {p["id"]: len(api.notifying(int(p["id"]))) for p in (dc.alice, dc.bob)}
        await act(dc, mover, message)
        other = dc.bob if mover is dc.alice else dc.alice
        async with dc.service.ctx.uow() as uow:
            row = await uow.session.get(GameRow, 1)
        if board(dc) and other["global_name"] in text(board(dc)).split("To act:")[-1]:
            assert len(api.notifying(int(other["id"]))) == rings[other["id"]] + 1
            assert len(api.notifying(int(mover["id"]))) == rings[mover["id"]]
        assert row is not None


def turn_lines(dc) -> list[dict]:
    return [m for m in dc.api.channel_messages() if "your turn" in text(m)]


async def test_the_turn_line_goes_when_the_game_ends(dc):
    from tests.discord_adapter.test_discord import play_to_the_end
    await open_table(dc, game="toy")
    await dc.slash(dc.bob, "join")
    await dc.slash(dc.alice, "start")
    await play_to_the_end(dc, [dc.alice, dc.bob])
    await dc.idle()
    # issue 38: with every DM open, no turn line is posted at all (the board names who acts)
    assert turn_lines(dc) == []


async def test_the_turn_line_goes_when_the_game_is_aborted(dc):
    await two_player_game(dc)
    await dc.idle()
    await dc.slash(dc.alice, "abort")
    await dc.idle()
    assert any("aborted" in text(m) for m in dc.api.channel_messages())
    assert turn_lines(dc) == []
