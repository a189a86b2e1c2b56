"""Pictures are drawn in the picture pool when a message is really sent: a board replaced in its chat's queue
before it went out is never drawn, and what is sent carries exactly the picture of its own view."""
from __future__ import annotations

import asyncio

from bot.delivery import Delivery
from bot.service import ChatRef, UserRef, build_service
from bot.service.commands import MakeMove, Start

CHAT = ChatRef("discord", "7", "guild", "round-table")
ALICE, BOB = UserRef("discord", "1", "Alice"), UserRef("discord", "2", "Bob")


async def test_a_board_superseded_before_it_is_sent_is_never_drawn(tmp_path):
    service = await build_service(f"sqlite+aiosqlite:///{tmp_path}/lazy.db", pictures=True, picture_workers=1,
                                  warm_pictures=False)
    requested: list[tuple[str, dict]] = []  # what the pool was asked to draw
    draw = service.pictures_pool.draw

    async def counting_draw(game, view, names, *args, **kw):  # args: the language of the labels
        requested.append((game, view))
        return await draw(game, view, names, *args, **kw)

    service.pictures_pool.draw = counting_draw
    gate, at_gate = asyncio.Event(), asyncio.Event()
    sent = []

    async def send(message, meta, pace):
        if message.kind == "board" and not gate.is_set():
            at_gate.set()
            await gate.wait()  # the first board is on its way: the next ones wait behind it
        sent.append(message)

    delivery = Delivery(send, prepare=service.finish_one)
    try:
        await service.create_lobby(CHAT, ALICE, "koenig_artus", seed=3)
        await service.join(CHAT, BOB)
        out = await service.handle(Start(ALICE, CHAT))  # as the adapters get it
        assert all(m.image is None for m in out)  # nothing drawn before delivery
        gid = next(m.game_id for m in out if m.game_id)
        delivery.submit(out)
        await asyncio.wait_for(at_gate.wait(), 60)
        boards_submitted = []
        for _ in range(3):  # three moves while the first board is still being sent
            live = service.ctx.games.loaded(gid)
            seat = live.state.to_act()[0]
            who = ALICE if live.seats[seat].user == ALICE else BOB
            moved = await service.handle(MakeMove(who, CHAT, live.state.legal_actions(seat)[0], gid))
            assert moved[0].kind != "error", moved[0].text
            boards_submitted += [m for m in moved if m.kind == "board"]
            delivery.submit(moved)
        gate.set()
        await delivery.idle(60)
    finally:
        await delivery.close()
        await service.close()

    sent_boards = [m for m in sent if m.kind == "board"]
    assert len(sent_boards) == 2  # the first, then only the newest of the three that waited
    assert sent_boards[-1] is boards_submitted[-1]
    for message in sent:
        assert message.picture is None
        if message.kind in ("board", "hand"):
            assert message.image is not None and message.image.startswith(b"\x89PNG")
    # the two boards in the middle were never drawn: the pool was asked only for the messages sent
    assert len(requested) == len([m for m in sent if m.kind in ("board", "hand")])
    for stale in boards_submitted[:-1]:
        assert stale.image is None
