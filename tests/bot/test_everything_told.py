"""Issue 23's first test: per game, a whole seeded game through the service in which, for every person, each event
of the game's log that their seat may see reaches them in a message they received (0 missed), and every name
printed for a seat is that seat's one name, with its one number."""
from __future__ import annotations

import json
import random
import re

import pytest

import rules
from bot.service import ChatRef, UserRef, build_service, narration
from rules.api import Event
from tests.bot.console_told import shown_by_view

CHAT = ChatRef("discord", "chan9", "guild9", "general")
PEOPLE = [UserRef("discord", "11", "Alice"), UserRef("discord", "12", "Bob")]
GAMES = [("troubadour", 2, 0), ("guyenne", 2, 0), ("guyenne", 2, 1), ("list_und_tuecke", 2, 2), ("kardinal", 2, 1),
         ("koenig_artus", 2, 1)]  # (game, people, AI seats)


@pytest.fixture
async def service(database_url):
    svc = await build_service(database_url)
    yield svc
    await svc.close()


def _key(seq, event: Event) -> tuple:
    return seq, json.dumps(event.to_json(), sort_keys=True)


@pytest.mark.parametrize("name,people,ai", GAMES)
async def test_every_event_a_seat_may_see_reaches_its_person(service, monkeypatch, name, people, ai):
    told: list[tuple[int | None, str, set]] = []  # (viewer, line, events it tells)
    narrate_lines = narration.narrate_lines

    def spy(game, events, viewer, names, condense=True):
        entries = narration._entries(events)
        lines = narrate_lines(game, entries, viewer, names, condense)
        told.extend((viewer, line.text, {_key(*entries[k]) for k in line.events}) for line in lines)
        return lines

    monkeypatch.setattr(narration, "narrate_lines", spy)
    options = "mode=two_sets" if name == "guyenne" and people + ai == 3 else ""
    gid = (await service.create_lobby(CHAT, PEOPLE[0], name, options, seed=8))[0].game_id
    for user in PEOPLE[1:people]:
        await service.join(CHAT, user, game_id=gid)
    for _ in range(ai):
        await service.add_ai(CHAT, PEOPLE[0], "random", game_id=gid)
    received = list(await service.start(CHAT, PEOPLE[0], game_id=gid))
    game = rules.get_game(name)
    rng = random.Random(3)
    from storage import UnitOfWork

    for _ in range(2000):
        async with UnitOfWork(service.db) as uow:
            row = await uow.games.get(gid)
            if row.status != "active":
                break
            state = game.from_json(row.state)
            seat_of = {s.player.external_id: s.seat for s in row.seats if s.player is not None}
        user = next(u for u in PEOPLE[:people] if seat_of[u.id] in state.to_act())
        seat = seat_of[user.id]
        received += await service.act(None, user, rng.choice(state.legal_actions(seat)), game_id=gid)
    async with UnitOfWork(service.db) as uow:
        row = await uow.games.get(gid)
        assert row.status == "finished"
        rows = await uow.games.moves(gid)
        log = [(m.seq, Event.from_json(e)) for m in rows for e in m.events]
        moves = [(m.seq, m.seat) for m in rows]
        names = row.result["names"]
    public_lines = {line[2:] for m in received if m.kind == "board" for line in m.text.splitlines()
                    if line.startswith("· ")}
    for user in PEOPLE[:people]:
        seat = seat_of[user.id]
        texts = "\n".join(m.text for m in received if m.user == user or (m.user is None and m.chat == CHAT))
        keys = {k for viewer, line, ks in told if viewer in (seat, None) and line in texts for k in ks}
        missed = []
        own = {m for m, who in moves if who == seat}
        restated = shown_by_views(received, user)
        for seq, event in log:
            if not event.visible_to(seat) or _key(seq, event) in keys:
                continue
            if event.kind in game.restated_by_view and json.dumps(event.to_json(), sort_keys=True) in restated:
                continue  # a hand as dealt: the view of the message it came with shows that hand ("Your hand: …")
            if seq in own and event.audience is None and event.data.get("seat") == seat:
                continue  # the move itself a person made (what it set off is told)
            line = game.describe_event(event)
            if event.audience is None and line and narration.personal(line, None, names) in public_lines:
                continue  # told on the table's board
            missed.append((seq, event.kind, line))
        assert not missed, f"{user.name} missed {len(missed)} of {len(log)}: {missed[:5]}"
        # one name per seat: wherever a seat number stands before a name (``P2 Bob``), it is that name's seat
        for i, person in enumerate(names):
            for number in re.findall(rf"\bP(\d) {re.escape(person)}\b", texts):
                assert int(number) == i + 1, (number, person)
        assert names[seat] == user.name


def shown_by_views(received, user) -> set[str]:
    """The events the person's hand messages brought without a line of their own, because the view below shows
    them: each one's cards are the hand of that message's view."""
    return {event for message in received if message.user == user and message.kind == "hand" and message.recipe
            for event in shown_by_view(rules.get_game(message.recipe["game"]), message.recipe)}

