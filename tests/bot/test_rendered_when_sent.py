"""A move's board and hands are rendered when they are sent, not when the move is committed (issue 24): the outbox
stores what they are rendered from (never the engine's hidden state), a board superseded in its chat's queue is
never rendered, each text speaks its reader's language whatever language is current when it is rendered, and a
hand delivered from the outbox by another process gets the picker of the game as stored then."""
from __future__ import annotations

import asyncio
from datetime import timedelta

from bot import i18n
from bot.delivery import Delivery
from bot.i18n import _
from bot.service import ChatRef, UserRef, build_service
from bot.service.commands import MakeMove
from bot.service.rendering import render
from storage import UnitOfWork

CHAT = ChatRef("discord", "7", "guild", "round-table")
ALICE, BOB = UserRef("discord", "1", "Alice"), UserRef("discord", "2", "Bob")


async def _game(service) -> int:
    await service.create_lobby(CHAT, ALICE, "koenig_artus", seed=3)
    await service.join(CHAT, BOB)
    out = await service.start(CHAT, ALICE)
    return next(m.game_id for m in out if m.game_id)


async def _move(service, gid):
    live = service.ctx.games.loaded(gid)
    seat = live.state.to_act()[0]
    who = ALICE if live.seats[seat].user == ALICE else BOB
    out = await service.handle(MakeMove(who, CHAT, live.state.legal_actions(seat)[0], gid))  # as an adapter gets it
    assert out[0].kind != "error", out[0].text
    return out


async def test_the_outbox_stores_recipes_and_a_superseded_board_is_never_rendered(tmp_path):
    service = await build_service(f"sqlite+aiosqlite:///{tmp_path}/lazy.db")
    gate, at_gate = asyncio.Event(), asyncio.Event()
    sent = []

    async def send(message, meta, pace):
        if message.kind == "board" and not gate.is_set():
            at_gate.set()
            await gate.wait()  # the first board is on its way: the next ones wait behind it
        render(message)  # as an adapter's delivery does, just before sending
        sent.append(message)

    delivery = Delivery(send)
    try:
        gid = await _game(service)
        delivery.submit(await _move(service, gid))
        await asyncio.wait_for(at_gate.wait(), 30)
        boards = []
        for _ in range(3):  # three moves while the first board is still being sent
            moved = await _move(service, gid)
            assert not any(m.rendered for m in moved if m.kind in ("board", "hand"))  # nothing rendered yet
            boards += [m for m in moved if m.kind == "board"]
            delivery.submit(moved)
        async with UnitOfWork(service.db) as uow:  # what is stored: the recipe, not the text
            stored = [r.payload for r in await uow.outbox.pending("discord") if r.payload["kind"] == "board"]
        assert stored and all(p["text"] is None and p["recipe"]["view"] is not None for p in stored)
        assert all("state" not in p["recipe"] for p in stored)  # only views are stored, never the whole state
        gate.set()
        await delivery.idle(30)
    finally:
        await delivery.close()
        await service.close()
    sent_boards = [m for m in sent if m.kind == "board"]
    assert len(sent_boards) == 2 and sent_boards[-1] is boards[-1]
    assert all(not m.rendered for m in boards[:-1])  # the two in the middle were never rendered
    assert all(m.rendered and m.text.startswith(f"#{gid} ") for m in sent_boards)


async def test_texts_speak_their_readers_language_whenever_they_are_rendered(tmp_path):
    service = await build_service(f"sqlite+aiosqlite:///{tmp_path}/lang.db")
    try:
        await service.settings(None, BOB, "mylanguage=de")
        await service.settings(CHAT, ALICE, "language=nl", is_admin=True)
        gid = await _game(service)
        out = await _move(service, gid)
        with i18n.using("fr"):  # whatever the language where the delivery runs
            texts = {(m.kind, m.user.id if m.user else None): render(m).text for m in out if m.kind in ("board", "hand")}
        live = service.ctx.games.loaded(gid)
        bob_seat = next(s.seat for s in live.seats if s.user == BOB)
        with i18n.using("de"):
            bob_head = _("#{id} {game} — your view (seat {seat})", id=gid, game=live.game.title, seat=bob_seat + 1)
        with i18n.using("nl"):
            to_act = _("⏳ To act: {names}", names="")
        assert bob_head in texts[("hand", BOB.id)] and "your view" not in texts[("hand", BOB.id)]
        assert to_act in texts[("board", None)] and "To act" not in texts[("board", None)]
    finally:
        await service.close()


async def test_a_hand_delivered_from_the_outbox_gets_the_picker_of_the_stored_game(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/two.db"
    one, two = await build_service(url), await build_service(url)
    try:
        gid = await _game(one)
        for message in await one.pending_outbox():
            await one.delivered([message.outbox_id])
        await one.flush_delivered()
        said = await _move(one, gid)  # ... and "one" dies before sending
        two.ctx.delivery_lease = timedelta(0)
        recovered = {m.outbox_id: m for m in await two.claim_outbox(["discord"])}
        live = one.ctx.games.loaded(gid)
        for message in said:
            if message.kind == "hand" and message.outbox_id in recovered:
                again, message = render(recovered[message.outbox_id]), render(message)
                assert again.text == message.text and again.buttons == message.buttons
                assert again.menu == message.menu
        to_act = next(s.user for s in live.seats if s.seat in live.state.to_act())
        hands = [render(m) for m in recovered.values() if m.kind == "hand" and m.user == to_act]
        assert hands and all(b.data.startswith(f"p:{gid}:{live.version}:") for m in hands for row in m.buttons
                             for b in row)
        assert any(m.buttons for m in hands)
    finally:
        await one.close()
        await two.close()
