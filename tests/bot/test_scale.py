"""Ten thousand tables (issue #38): a process reads no game at start, keeps a bounded number in memory, judges a
game it dropped against the stored version, and claims only the timers of the games it serves (its platforms,
its Discord shards' guilds). Each on a real SQLite file and on PostgreSQL."""
from __future__ import annotations

from datetime import timedelta

from bot.service import ChatRef, UserRef, build_service
from bot.service.context import utc_now as now
from storage import UnitOfWork

ALICE = UserRef("telegram", "1", "Alice")
BOB = UserRef("telegram", "2", "Bob")
DORA = UserRef("discord", "11", "Dora")
EMIL = UserRef("discord", "12", "Emil")
# two guilds on different shards of two: (guild id >> 22) % 2
GUILD_ON_0, GUILD_ON_1 = str(2 << 22), str(3 << 22)


def telegram_chat(number: int) -> ChatRef:
    return ChatRef("telegram", f"-{100 + number}", f"-{100 + number}", f"group {number}")


def discord_chat(channel: str, guild: str) -> ChatRef:
    return ChatRef("discord", channel, guild, f"channel {channel}")


async def toy_game(service, chat: ChatRef, first: UserRef, second: UserRef) -> int:
    lobby = await service.create_lobby(chat, first, "toy", seed=3)
    gid = lobby[0].game_id
    await service.join(chat, second)
    if chat.platform == "telegram":  # a Telegram player must have opened the private chat
        for user in (first, second):
            await service.dm_opened(user)
    started = await service.start(chat, first)
    assert not [m for m in started if m.kind == "error"], [m.text for m in started]
    return gid


async def stored(service, gid):
    async with UnitOfWork(service.db) as uow:
        row = await uow.games.get(gid)
        return row, await uow.games.moves(gid), await uow.timers.of_game(gid)


async def keep_both(service, chat, gid, users):
    """Both players keep their two lowest cards (the secret choice); then the tricks begin."""
    for user in users:
        row, _, _ = await stored(service, gid)
        seat = next(s.seat for s in row.seats if s.player and s.player.external_id == user.id)
        hand = row.state["hands"][seat]
        out = await service.act(chat, user, f"keep {hand[0]} {hand[1]}", game_id=gid)
        assert not [m for m in out if m.kind == "error"], out


async def to_act(service, gid, users):
    row, _, _ = await stored(service, gid)
    seat = row.state["leader"] if not row.state["trick"] else (row.state["leader"] + 1) % 2
    player = next(s.player for s in row.seats if s.seat == seat)
    return seat, next(u for u in users if u.id == player.external_id), row


async def make_due(service) -> None:
    """Every deadline in the past, as if the turn time ran out."""
    async with UnitOfWork(service.db) as uow:
        for gid in await service.active_game_ids():
            for timer in await uow.timers.of_game(gid):
                timer.due_at = now() - timedelta(seconds=1)
        await uow.commit()


async def claimed_by(service, gid) -> set[str | None]:
    _, _, timers = await stored(service, gid)
    assert timers
    return {t.claimed_by for t in timers}


async def stored_games(database_url, count: int) -> dict[int, tuple[ChatRef, int]]:
    """``count`` active games, one per chat, made by a process that then ends."""
    maker = await build_service(database_url)
    try:
        return {number: (telegram_chat(number), await toy_game(maker, telegram_chat(number), ALICE, BOB))
                for number in range(count)}
    finally:
        await maker.close()


async def test_a_process_answers_its_first_command_before_loading_the_stored_games(database_url):
    """A process started on a database with many active games reads none of them at start; its first command
    reads the one game it is about."""
    games = await stored_games(database_url, 12)
    service = await build_service(database_url)
    try:
        assert len(await service.active_game_ids()) == 12
        assert len(service.ctx.games) == 0
        chat, gid = games[7]
        board = await service.show_board(chat, game_id=gid)
        assert board[0].kind == "board" and board[0].game_id == gid
        assert len(service.ctx.games) == 1 and gid in service.ctx.games
    finally:
        await service.close()


async def test_the_games_in_memory_never_pass_their_number(database_url):
    """Given room for four games, a process that used twelve keeps the four it used last."""
    games = await stored_games(database_url, 12)
    service = await build_service(database_url, games_in_memory=4)
    try:
        for chat, gid in games.values():
            out = await service.show_board(chat, game_id=gid)
            assert out[0].kind == "board" and out[0].game_id == gid
            assert len(service.ctx.games) <= 4
        assert [gid in service.ctx.games for _, gid in games.values()] == [False] * 8 + [True] * 4
        assert service.ctx.games.loads == 12
    finally:
        await service.close()


async def test_a_game_whose_lock_is_held_stays_in_memory(database_url):
    """A move in flight (its game's lock held or waited for) keeps its game in memory, over the number if need
    be; the next load after it ends brings memory back to the number."""
    games = await stored_games(database_url, 3)
    service = await build_service(database_url, games_in_memory=1)
    try:
        (_, first), (_, second), (_, third) = games.values()
        live_games = service.ctx.games
        async with live_games.lock_for(first):
            async with service.ctx.uow(readonly=True) as uow:
                held = await live_games.get(uow, first)
                await live_games.get(uow, second)
                assert live_games.loaded(first) is held and len(live_games) == 2
                await live_games.get(uow, third)
                assert live_games.loaded(first) is held and third in live_games and second not in live_games
        async with service.ctx.uow(readonly=True) as uow:
            await live_games.get(uow, second)
        assert len(live_games) == 1 and second in live_games
    finally:
        await service.close()


async def test_a_game_dropped_from_memory_is_judged_against_the_stored_version(database_url):
    """Process one keeps one game in memory: using a second drops the first. Process two moves in the first
    meanwhile. Played again through process one, the first game is read once and judged as stored: the one
    who just moved is refused, the one whose turn it is now is answered, no write is refused on the way."""
    one = await build_service(database_url, games_in_memory=1)
    two = await build_service(database_url)
    try:
        chat, other_chat = telegram_chat(1), telegram_chat(2)
        users = (ALICE, BOB)
        gid = await toy_game(one, chat, ALICE, BOB)
        await keep_both(one, chat, gid, users)
        other = await toy_game(one, other_chat, ALICE, BOB)
        await one.show_board(chat, game_id=gid)
        await one.show_board(other_chat, game_id=other)
        assert gid not in one.ctx.games and other in one.ctx.games
        seat, mover, row = await to_act(two, gid, users)
        out = await two.act(chat, mover, f"play {row.state['kept'][seat][0]}", game_id=gid)
        assert not [m for m in out if m.kind == "error"], [m.text for m in out]
        version = row.version + 1
        loads = one.ctx.games.loads

        refused = await one.act(chat, mover, f"play {row.state['kept'][seat][1]}", game_id=gid)
        assert refused[0].kind == "error" and "not your turn" in refused[0].text, [m.text for m in refused]
        assert (await stored(one, gid))[0].version == version
        seat, user, row = await to_act(one, gid, users)
        assert user != mover
        out = await one.act(chat, user, f"play {row.state['kept'][seat][0]}", game_id=gid)
        assert not [m for m in out if m.kind == "error"], [m.text for m in out]
        after, moves, _ = await stored(one, gid)
        assert after.version == version + 1
        assert [m.seq for m in moves] == list(range(len(moves))) and len(moves) == 4
        assert one.ctx.games.loads == loads + 1  # read once, and judged right: no stale write, no second read
    finally:
        await one.close()
        await two.close()


async def test_a_process_claims_only_the_timers_of_its_platform(database_url):
    """A Telegram game and a Discord game, both past their deadline: the Telegram process fires the Telegram
    game's timers only, and does not wait for the other's; the Discord process fires the Discord game's."""
    telegram = await build_service(database_url, serves={"telegram"})
    discord = await build_service(database_url, serves={"discord"})
    try:
        await telegram.settings(telegram_chat(1), ALICE, "turn_timer=60", is_admin=True)
        await discord.settings(discord_chat("500", GUILD_ON_0), DORA, "turn_timer=60", is_admin=True)
        tg_game = await toy_game(telegram, telegram_chat(1), ALICE, BOB)
        dc_game = await toy_game(discord, discord_chat("500", GUILD_ON_0), DORA, EMIL)
        await make_due(telegram)

        fired = await telegram.run_timers()
        assert fired and {m.game_id for m in fired} == {tg_game}
        assert await claimed_by(telegram, dc_game) == {None}
        due = await telegram.next_timer_due()  # the Discord game's deadlines, past, are not its to wait for
        assert due is None or due > now()

        fired = await discord.run_timers()
        assert fired and {m.game_id for m in fired} == {dc_game}
        assert await discord.run_timers() == [] and await telegram.run_timers() == []
    finally:
        await telegram.close()
        await discord.close()


async def test_a_discord_shard_claims_only_the_timers_of_its_guilds(database_url):
    """Two Discord shards of two: each fires the timers of its guilds' games only (a guild's shard is
    (guild id >> 22) % 2); a process serving Telegram and shard 1 fires the Telegram game's and shard 1's."""
    shard_0 = await build_service(database_url, serves={"discord"}, shards=(2, [0]))
    shard_1 = await build_service(database_url, serves={"discord", "telegram"}, shards=(2, [1]))
    try:
        chats = {"zero": discord_chat("500", GUILD_ON_0), "one": discord_chat("600", GUILD_ON_1),
                 "telegram": telegram_chat(1)}
        for chat in chats.values():
            admin = ALICE if chat.platform == "telegram" else DORA
            await shard_1.settings(chat, admin, "turn_timer=60", is_admin=True)
        games = {name: await toy_game(shard_1, chat, *((ALICE, BOB) if chat.platform == "telegram" else (DORA, EMIL)))
                 for name, chat in chats.items()}
        await make_due(shard_0)

        fired = await shard_0.run_timers()
        assert {m.game_id for m in fired} == {games["zero"]}
        assert await claimed_by(shard_0, games["one"]) == {None}
        assert await claimed_by(shard_0, games["telegram"]) == {None}
        fired = await shard_1.run_timers()
        assert {m.game_id for m in fired} == {games["one"], games["telegram"]}
        assert await shard_0.run_timers() == [] and await shard_1.run_timers() == []
    finally:
        await shard_0.close()
        await shard_1.close()
