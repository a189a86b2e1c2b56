"""``/notify where=mention`` and ``next=on`` on Discord (the real discord.py against the fake Discord): the turn
ping is one mention in the channel and the hand DM does not notify; the heads-up is a DM to the person next."""
from __future__ import annotations

from storage import UnitOfWork
from tests.discord_adapter.test_discord import act, button, latest_picker, open_table, text


async def start_toy(dc):
    api = dc.api
    _, lobby = await open_table(dc, game="toy", options="clock=3d")
    await dc.click(dc.bob, lobby, button(lobby, "Join"))
    await dc.click(dc.alice, api.messages[int(lobby["id"])], button(api.messages[int(lobby["id"])], "Start"))
    await dc.idle()


async def test_where_mention_pings_once_in_the_channel_and_the_hand_dm_is_silent(dc):
    api = dc.api
    alice, bob = int(dc.alice["id"]), int(dc.bob["id"])
    await dc.slash(dc.alice, "notify", change="where=mention")
    await dc.slash(dc.bob, "notify", change="next=on")
    await dc.idle()
    rang = len(api.notifying(alice)), len(api.notifying(bob))
    await start_toy(dc)
    new = api.notifying(alice)[rang[0]:]
    assert [n["how"] for n in new] == ["mention"]  # both choose at once: Alice is named, her hand DM is silent
    turn_line = api.messages[new[0]["message_id"]]
    assert f"<@{alice}>" in turn_line["content"] and "your turn" in text(turn_line)
    assert latest_picker(dc, dc.alice) is not None  # her hand with its picker did come, privately
    assert [n["how"] for n in api.notifying(bob)[rang[1]:]] == ["dm"]  # Bob: his hand, as ever
    for person in (dc.alice, dc.bob):  # the secret choices
        await act(dc, person, latest_picker(dc, person))
        await dc.idle()
    for _ in range(4):  # the tricks: whoever is to play; each turn that comes to Alice rings once, by a mention
        before = {uid: len(api.notifying(uid)) for uid in (alice, bob)}
        mover = next((p for p in (dc.alice, dc.bob) if latest_picker(dc, p)), None)
        if mover is None:
            break
        await act(dc, mover, latest_picker(dc, mover))
        await dc.idle()
        turn_came = mover is dc.bob and latest_picker(dc, dc.alice) is not None  # (a mover still to act: no ping)
        assert [n["how"] for n in api.notifying(alice)[before[alice]:]] == (["mention"] if turn_came else [])
    assert all(n["how"] == "mention" for n in api.notifying(alice)[rang[0]:])
    # Bob's heads-up: each time Alice led a trick (he plays after her then; after a trick its winner leads)
    async with UnitOfWork(dc.service.db) as uow:
        moves = [m for m in await uow.games.moves(1) if m.action["type"] == "play"]
        alice_seat = next(s.seat for s in (await uow.games.get(1)).seats if s.player.external_id == str(alice))
    led = sum(1 for m in moves[::2] if m.seat == alice_seat)
    told = [text(m) for m in api.dms(bob) if "You are next" in text(m)]
    assert len(told) == led and all("Alice is to play" in t for t in told)
