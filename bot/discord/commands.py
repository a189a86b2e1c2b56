"""The slash commands: each one hands its interaction to the adapter with the service command it stands for.

Descriptions are marked for translation (``N_``); discord.py asks ``HeraldTranslator`` for each locale's text.
Game names and options autocomplete from the service's ``catalog``, moves from the person's legal moves.
"""
from __future__ import annotations

import logging
import discord
from discord import app_commands
from discord.ext.commands import Bot

from bot import i18n
from bot.discord.format import to_markdown
from bot.i18n import N_, _
from bot.service import catalog, commands as cmd


log = logging.getLogger(__name__)


async def _game_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    current = current.lower()
    return [app_commands.Choice(name=f"{game.title} ({game.min_players}–{game.max_players})", value=game.name)
            for game in catalog.games() if current in game.name or current in game.title.lower()][:25]


async def _option_texts(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Suggest the chosen game's options as ``key=value`` with their defaults."""
    try:
        game = catalog.game(str(getattr(interaction.namespace, "game", "") or "").lower())
    except ValueError:
        return []

    def shown(value) -> str:
        return ",".join(map(str, value)) if isinstance(value, list) else str(value).lower()

    defaults = game.default_options
    texts = [" ".join(f"{k}={shown(v)}" for k, v in defaults.items())] if defaults else []
    texts += [f"{k}={shown(v)}" for k, v in defaults.items()]
    return [app_commands.Choice(name=t[:100], value=t[:100]) for t in dict.fromkeys(texts)
            if t and current.lower() in t.lower()][:25]


def register_commands(bot: Bot) -> None:
    """The slash commands on ``bot`` (a ``HeraldBot``: its ``adapter`` runs them)."""
    tree, a, s = bot.tree, bot.adapter, bot.adapter.service
    table = N_("the table number, when several games run here")

    @tree.command(name="new", description=N_("Open a table for a game in this channel"))
    @app_commands.describe(game=N_("which game"), options=N_("options as key=value, e.g. track=27"))
    @app_commands.autocomplete(game=_game_names, options=_option_texts)
    async def new(interaction: discord.Interaction, game: str, options: str | None = None):
        await a.command(interaction, lambda c, u: cmd.CreateLobby(u, c, game, options or ""))

    @tree.command(name="join", description=N_("Take a seat at a table"))
    @app_commands.describe(table=table)
    async def join(interaction: discord.Interaction, table: int | None = None):
        await a.command(interaction, lambda c, u: cmd.Join(u, c, table))

    @tree.command(name="leave", description=N_("Leave your seat before the start"))
    @app_commands.describe(table=table)
    async def leave(interaction: discord.Interaction, table: int | None = None):
        await a.command(interaction, lambda c, u: cmd.Leave(u, c, table))

    @tree.command(name="addai", description=N_("Seat an AI player"))
    @app_commands.describe(level=N_("how the AI plays"), table=table)
    @app_commands.choices(level=[app_commands.Choice(name=N_("greedy (looks one move ahead)"), value="greedy"),
                                 app_commands.Choice(name=N_("strong (searches ahead; takes a moment)"),
                                                     value="strong"),
                                 app_commands.Choice(name=N_("random"), value="random")])
    async def addai(interaction: discord.Interaction, level: str = "greedy", table: int | None = None):
        await a.command(interaction, lambda c, u: cmd.AddAI(u, c, level, table))

    @tree.command(name="start", description=N_("Start the game when enough seats are taken"))
    @app_commands.describe(table=table)
    async def start(interaction: discord.Interaction, table: int | None = None):
        await a.command(interaction, lambda c, u: cmd.Start(u, c, table))

    @tree.command(name="hand", description=N_("Your private view and move buttons (only you see it)"))
    @app_commands.describe(table=table)
    async def hand(interaction: discord.Interaction, table: int | None = None):
        await a.command(interaction, lambda c, u: cmd.ShowHand(u, c, table), guild_only=False,
                        hand_here=True)

    async def _moves(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        user = a.user_ref(interaction.user, interaction.locale)
        table_no = getattr(interaction.namespace, "table", None)
        found = await s.handle(cmd.ListChoices(user, None, table_no))
        if not isinstance(found, list) or (found and not isinstance(found[0], tuple)):
            return []
        return [app_commands.Choice(name=f"{notation} — {label}"[:100], value=notation[:100])
                for label, notation in found if current.lower() in f"{notation} {label}".lower()][:25]

    @tree.command(name="move", description=N_("Make a move in the game's notation"))
    @app_commands.describe(notation=N_("your move, e.g. R10 (the list shows your legal moves)"), table=table)
    @app_commands.autocomplete(notation=_moves)
    async def move(interaction: discord.Interaction, notation: str, table: int | None = None):
        await a.command(interaction, lambda c, u: cmd.MakeMove(u, c, notation, table), guild_only=False)

    @tree.command(name="hint",
                  description=N_("What the strong AI would play now (only you see it; the game is not rated)"))
    @app_commands.describe(table=table)
    async def hint(interaction: discord.Interaction, table: int | None = None):
        await a.command(interaction, lambda c, u: cmd.Hint(u, c, table), guild_only=False, hand_here=True)

    @tree.command(name="board", description=N_("Post the board again"))
    @app_commands.describe(table=table)
    async def board(interaction: discord.Interaction, table: int | None = None):
        await a.command(interaction, lambda c, u: cmd.ShowBoard(u, c, table))

    @tree.command(name="log", description=N_("What happened in the game (what only you saw comes by DM)"))
    @app_commands.describe(lines=N_("how many of the last lines (default 15)"), table=table)
    async def log_(interaction: discord.Interaction, lines: int | None = None, table: int | None = None):
        await a.command(interaction, lambda c, u: cmd.ShowLog(u, c, str(lines or ""), table), guild_only=False)

    @tree.command(name="undo", description=N_("Take your last move back (or ask the others to agree)"))
    @app_commands.describe(table=table)
    async def undo(interaction: discord.Interaction, table: int | None = None):
        await a.command(interaction, lambda c, u: cmd.TakeBack(u, c, table))

    @tree.command(name="resign", description=N_("Leave a running game (an AI takes your seat)"))
    @app_commands.describe(table=table, confirm=N_("yes: resign without being asked"))
    @app_commands.choices(confirm=[app_commands.Choice(name=N_("yes"), value="yes")])
    async def resign(interaction: discord.Interaction, table: int | None = None, confirm: str | None = None):
        await a.command(interaction, lambda c, u: cmd.Resign(u, c, table, confirmed=confirm == "yes"))

    @tree.command(name="abort", description=N_("End a table or game (its creator, or Manage Server)"))
    @app_commands.describe(table=table)
    async def abort(interaction: discord.Interaction, table: int | None = None):
        admin = a.is_admin(interaction)
        await a.command(interaction, lambda c, u: cmd.Abort(u, c, table, admin))

    @tree.command(name="games", description=N_("The games of this channel"))
    async def games(interaction: discord.Interaction):
        await a.command(interaction, lambda c, u: cmd.ShowGames(u, c))

    @tree.command(name="mygames", description=N_("Every game you sit in, in any server — yours to play first"))
    async def mygames(interaction: discord.Interaction):
        await a.command(interaction, lambda c, u: cmd.ShowMyGames(u, c), guild_only=False)

    @tree.command(name="away", description=N_("Away for a while: your time banks stop in all your games"))
    @app_commands.describe(time=N_("how long (3d, 12h) or until a day (friday, 2026-12-24)"))
    async def away(interaction: discord.Interaction, time: str):
        await a.command(interaction, lambda c, u: cmd.GoAway(u, c, time), guild_only=False)

    @tree.command(name="back", description=N_("Back from /away: your time banks run again"))
    async def back(interaction: discord.Interaction):
        await a.command(interaction, lambda c, u: cmd.ComeBack(u, c), guild_only=False)

    @tree.command(name="notify", description=N_("Your pings, reminders and quiet hours (answered privately)"))
    @app_commands.describe(change=N_("e.g. quiet=22-8 tz=Europe/Amsterdam remind=12h (empty: show them)"))
    async def notify(interaction: discord.Interaction, change: str = ""):
        await a.command(interaction, lambda c, u: cmd.ChangeNotify(u, c, change), guild_only=False)

    @tree.command(name="rules", description=N_("How a game is played, and how to play it here"))
    @app_commands.describe(game=N_("which game"))
    @app_commands.autocomplete(game=_game_names)
    async def rules_(interaction: discord.Interaction, game: str = ""):
        await a.command(interaction, lambda c, u: cmd.ShowRules(u, c, game), guild_only=False)

    @tree.command(name="leaderboard", description=N_("This server's ratings"))
    @app_commands.describe(game=N_("which game"), season=N_("a season number (default: the current one)"))
    @app_commands.autocomplete(game=_game_names)
    async def leaderboard(interaction: discord.Interaction, game: str = "", season: str = ""):
        await a.command(interaction, lambda c, u: cmd.ShowLeaderboard(u, c, f"{game} {season}".strip()))

    @tree.command(name="stats", description=N_("A player's record in this server"))
    @app_commands.describe(player=N_("whose record (default: yours)"))
    async def stats(interaction: discord.Interaction, player: discord.User | None = None):
        text = f"<@{player.id}>" if player is not None else ""
        await a.command(interaction, lambda c, u: cmd.ShowStats(u, c, text))

    @tree.command(name="history", description=N_("Recent games of this server"))
    async def history(interaction: discord.Interaction):
        await a.command(interaction, lambda c, u: cmd.ShowHistory(u, c, ""))

    @tree.command(name="web", description=N_("The link to this channel's league pages"))
    async def web(interaction: discord.Interaction):
        await a.command(interaction, lambda c, u: cmd.ShowWeb(u, c, ""))

    @tree.command(name="record", description=N_("A game's record, sent to you privately (JSON and text)"))
    @app_commands.describe(table=table)
    async def record(interaction: discord.Interaction, table: int | None = None):
        await a.command(interaction, lambda c, u: cmd.SendRecord(u, c, table))

    @tree.command(name="replay", description=N_("Step through a finished game: /replay game [step] [seat N|all]"))
    @app_commands.describe(table=table, step=N_("the step to show (default: the last)"),
                           seat=N_("whose view: a seat number, or all (default: the table's)"))
    async def replay(interaction: discord.Interaction, table: int, step: int | None = None, seat: str = ""):
        text = " ".join(part for part in (str(step) if step is not None else "",
                                          f"seat {seat}" if seat.isdigit() else seat) if part)
        await a.command(interaction, lambda c, u: cmd.ShowReplay(u, c, table, text))

    @tree.command(name="settings", description=N_("Channel settings: turn timer and more (Manage Server)"))
    @app_commands.describe(change=N_("e.g. timer=24h (empty: show the settings)"))
    async def settings(interaction: discord.Interaction, change: str = ""):
        admin = a.is_admin(interaction)
        await a.command(interaction, lambda c, u: cmd.ChangeSettings(u, c, change, admin),
                        guild_only=False)  # in a DM: /settings mylanguage=de

    @tree.command(name="newseason", description=N_("Start a new league season (Manage Server)"))
    @app_commands.describe(game=N_("one game (default: every rated game)"))
    @app_commands.autocomplete(game=_game_names)
    async def newseason(interaction: discord.Interaction, game: str = ""):
        admin = a.is_admin(interaction)
        await a.command(interaction, lambda c, u: cmd.NewSeason(u, c, game, admin))

    @tree.command(name="help", description=N_("How Herald works, or how one game is played here"))
    @app_commands.describe(game=N_("one game's help (default: the game running here, or all games)"))
    @app_commands.autocomplete(game=_game_names)
    async def help_(interaction: discord.Interaction, game: str | None = None):
        await a.command(interaction, lambda c, u: cmd.ShowHelp(u, c, game or ""), guild_only=False)

    @tree.error
    async def on_error(interaction: discord.Interaction, error: app_commands.AppCommandError):
        log.error("slash command failed: %s", error, exc_info=error)
        try:
            with i18n.using(i18n.supported(interaction.locale)):
                text = to_markdown(_("Sorry, something went wrong with that. Nothing was changed."))
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass
