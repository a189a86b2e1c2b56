"""``/notify where=mention`` on Telegram (the real python-telegram-bot against the fake Bot API): the turn ping is
one mention in the group's turn line, and the hand comes to the private chat without notifying."""
from __future__ import annotations

from storage import UnitOfWork
from tests.telegram_adapter.conftest import ALICE, BOB, GROUP
from tests.telegram_adapter.test_telegram import buttons, open_private_chats


async def test_where_mention_pings_once_in_the_group_and_the_hand_does_not_notify(tg):
    api = tg.api
    api.group(GROUP, "North")
    await open_private_chats(tg, ALICE, BOB)
    reply = await tg.say(ALICE, GROUP, "/notify where=mention", expect=(ALICE["id"], "Your notifications"))
    assert "where = mention" in reply["text"]
    await tg.idle()
    await tg.say(ALICE, GROUP, "/new toy clock=3d", expect=(GROUP, "clock=3d"))
    await tg.say(BOB, GROUP, "/join", expect=(GROUP, "Bob"))
    sent = len(api.sends)
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "your turn"))
    await tg.idle()
    new = api.sends[sent:]
    rings_alice = [s for s in new if s["notify"] and (s["chat"] == ALICE["id"] or ALICE["id"] in s["mentions"])]
    assert len(rings_alice) == 1 and rings_alice[0]["chat"] == GROUP and "your turn" in rings_alice[0]["text"]
    hands = [s for s in new if s["chat"] == ALICE["id"]]
    assert hands and not any(s["notify"] for s in hands)  # her hand came, quietly
    assert [s["chat"] for s in new if s["notify"] and s["chat"] == BOB["id"]] == [BOB["id"]]  # Bob: by his hand
    assert BOB["id"] not in rings_alice[0]["mentions"]


async def test_next_on_gives_the_person_after_the_one_to_act_one_private_heads_up(tg):
    api = tg.api
    api.group(GROUP, "North")
    await open_private_chats(tg, ALICE, BOB)
    for person in (ALICE, BOB):
        await tg.say(person, GROUP, "/notify next=on", expect=(person["id"], "next = on"))
    await tg.say(ALICE, GROUP, "/new toy clock=3d", expect=(GROUP, "clock=3d"))
    await tg.say(BOB, GROUP, "/join", expect=(GROUP, "Bob"))
    await tg.say(ALICE, GROUP, "/start", expect=(GROUP, "Time left"))
    await tg.idle()
    async with UnitOfWork(tg.service.db) as uow:
        row = (await uow.games.of_player((await uow.players.find("telegram", str(ALICE["id"]))).id,
                                         ("active",)))[0]
        seat_of = {int(s.player.external_id): s.seat for s in row.seats}
        hands = row.state["hands"]
    # the secret choices, in seat order; then seat 0 plays first (its turn came), and the other is next
    for person in sorted((ALICE, BOB), key=lambda p: seat_of[p["id"]]):
        cards = hands[seat_of[person["id"]]][:2]
        await tg.say(person, GROUP, f"/move keep {cards[0]} {cards[1]}")
        await tg.idle()
    first, other = sorted((ALICE, BOB), key=lambda p: seat_of[p["id"]])
    told = [s for s in api.sends if "You are next" in s["text"]]
    assert [(s["chat"], s["notify"]) for s in told] == [(other["id"], True)]
    assert f"{first['first_name']} is to play" in told[0]["text"]


async def test_quiet_hours_without_a_zone_ask_for_it_once_with_a_list_to_tap(tg):
    """Telegram tells no time zone: the first quiet hours set without one ask for it once, with a list of zones to
    tap; a tap saves it; a forged zone button changes nothing; the next change does not ask again."""
    tg.api.group(GROUP, "North")
    await open_private_chats(tg, ALICE)
    reply = await tg.say(ALICE, GROUP, "/notify quiet=22-7", expect=(ALICE["id"], "Which time zone"))
    assert "quiet = 22-7" in reply["text"] and "tz = UTC" in reply["text"]
    zones = {b["text"]: b["callback_data"] for b in buttons(reply)}
    assert len(zones) == 10 and zones["Europe/Amsterdam"] == "z:0"
    before = tg.snapshot()
    await tg.press(ALICE, ALICE["id"], reply, zones["Europe/Amsterdam"])
    saved = await tg.changed(before, ALICE["id"], "tz = Europe/Amsterdam")
    assert "✅" in saved["text"] and "Which time zone" not in saved["text"]
    answer = await tg.press(ALICE, ALICE["id"], reply, "z:10")  # no such zone in the list
    assert "not one of mine" in answer["text"]
    async with UnitOfWork(tg.service.db) as uow:
        player = await uow.players.find("telegram", str(ALICE["id"]))
        assert player.notify["tz"] == "Europe/Amsterdam" and player.notify["quiet"] == "22-7"
    again = await tg.say(ALICE, GROUP, "/notify digest=on", expect=(ALICE["id"], "digest = 9"))
    assert "Which time zone" not in again["text"] and not buttons(again)
