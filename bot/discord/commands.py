"""The slash commands: each one hands its interaction to the adapter with the service call it stands for.

Descriptions are marked for translation (``N_``); discord.py asks ``HeraldTranslator`` for each locale's text.
Game names and options autocomplete from ``rules.GAMES``, moves from the person's legal moves.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

import rules
from bot import i18n
from bot.discord.format import to_markdown
from bot.i18n import N_, _

if TYPE_CHECKING:
    from bot.discord.app import HeraldBot

log = logging.getLogger(__name__)


async def _game_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    current = current.lower()
    return [app_commands.Choice(name=f"{game.title} ({game.min_players}–{game.max_players})", value=name)
            for name, game in sorted(rules.GAMES.items())
            if current in name or current in game.title.lower()][:25]


async def _option_texts(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Suggest the chosen game's options as ``key=value`` with their defaults."""
    game = rules.GAMES.get(str(getattr(interaction.namespace, "game", "") or "").lower())
    if game is None:
        return []

    def shown(value) -> str:
        return ",".join(map(str, value)) if isinstance(value, list) else str(value).lower()

    defaults = game.default_options()
    texts = [" ".join(f"{k}={shown(v)}" for k, v in defaults.items())] if defaults else []
    texts += [f"{k}={shown(v)}" for k, v in defaults.items()]
    return [app_commands.Choice(name=t[:100], value=t[:100]) for t in dict.fromkeys(texts)
            if t and current.lower() in t.lower()][:25]


def register_commands(bot: HeraldBot) -> None:
    tree, a, s = bot.tree, bot.adapter, bot.adapter.service
    table = N_("the table number, when several games run here")

    @tree.command(name="new", description=N_("Open a table for a game in this channel"))
    @app_commands.describe(game=N_("which game"), options=N_("options as key=value, e.g. track=27"))
    @app_commands.autocomplete(game=_game_names, options=_option_texts)
    async def new(interaction: discord.Interaction, game: str, options: str | None = None):
        await a.command(interaction, lambda c, u: s.create_lobby(c, u, game, options or ""))

    @tree.command(name="join", description=N_("Take a seat at a table"))
    @app_commands.describe(table=table)
    async def join(interaction: discord.Interaction, table: int | None = None):
        await a.command(interaction, lambda c, u: s.join(c, u, table))

    @tree.command(name="leave", description=N_("Leave your seat before the start"))
    @app_commands.describe(table=table)
    async def leave(interaction: discord.Interaction, table: int | None = None):
        await a.command(interaction, lambda c, u: s.leave(c, u, table))

    @tree.command(name="addai", description=N_("Seat an AI player"))
    @app_commands.describe(level=N_("how the AI plays"), table=table)
    @app_commands.choices(level=[app_commands.Choice(name=N_("greedy (looks one move ahead)"), value="greedy"),
                                 app_commands.Choice(name=N_("strong (searches ahead; takes a moment)"),
                                                     value="strong"),
                                 app_commands.Choice(name=N_("random"), value="random")])
    async def addai(interaction: discord.Interaction, level: str = "greedy", table: int | None = None):
        await a.command(interaction, lambda c, u: s.add_ai(c, u, level, table))

    @tree.command(name="start", description=N_("Start the game when enough seats are taken"))
    @app_commands.describe(table=table)
    async def start(interaction: discord.Interaction, table: int | None = None):
        await a.command(interaction, lambda c, u: s.start(c, u, table))

    @tree.command(name="hand", description=N_("Your private view and move buttons (only you see it)"))
    @app_commands.describe(table=table)
    async def hand(interaction: discord.Interaction, table: int | None = None):
        await a.command(interaction, lambda c, u: s.show_private(u, game_id=table, chat=c), guild_only=False,
                        hand_here=True, fresh=interaction.guild_id is None)

    async def _moves(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        user = a.user_ref(interaction.user, interaction.locale)
        table_no = getattr(interaction.namespace, "table", None)
        found = await s.choices(user, game_id=table_no)
        if not isinstance(found, list) or (found and not isinstance(found[0], tuple)):
            return []
        return [app_commands.Choice(name=f"{notation} — {label}"[:100], value=notation[:100])
                for label, notation in found if current.lower() in f"{notation} {label}".lower()][:25]

    @tree.command(name="move", description=N_("Make a move in the game's notation"))
    @app_commands.describe(notation=N_("your move, e.g. R10 (the list shows your legal moves)"), table=table)
    @app_commands.autocomplete(notation=_moves)
    async def move(interaction: discord.Interaction, notation: str, table: int | None = None):
        await a.command(interaction, lambda c, u: s.act(c, u, notation, game_id=table), guild_only=False)

    @tree.command(name="hint",
                  description=N_("What the strong AI would play now (only you see it; the game is not rated)"))
    @app_commands.describe(table=table)
    async def hint(interaction: discord.Interaction, table: int | None = None):
        await a.command(interaction, lambda c, u: s.hint(c, u, table), guild_only=False, hand_here=True)

    @tree.command(name="board", description=N_("Post the board again"))
    @app_commands.describe(table=table)
    async def board(interaction: discord.Interaction, table: int | None = None):
        await a.command(interaction, lambda c, u: s.show_board(c, game_id=table, user=u), fresh=True)

    @tree.command(name="log", description=N_("What happened in the game (what only you saw comes by DM)"))
    @app_commands.describe(lines=N_("how many of the last lines (default 15)"), table=table)
    async def log_(interaction: discord.Interaction, lines: int | None = None, table: int | None = None):
        await a.command(interaction, lambda c, u: s.log(c, u, str(lines or ""), game_id=table), guild_only=False)

    @tree.command(name="resign", description=N_("Leave a running game (an AI takes your seat)"))
    @app_commands.describe(table=table, confirm=N_("yes: resign without being asked"))
    @app_commands.choices(confirm=[app_commands.Choice(name=N_("yes"), value="yes")])
    async def resign(interaction: discord.Interaction, table: int | None = None, confirm: str | None = None):
        await a.command(interaction, lambda c, u: s.resign(c, u, table, confirmed=confirm == "yes"))

    @tree.command(name="abort", description=N_("End a table or game (its creator, or Manage Server)"))
    @app_commands.describe(table=table)
    async def abort(interaction: discord.Interaction, table: int | None = None):
        admin = a.is_admin(interaction)
        await a.command(interaction, lambda c, u: s.abort(c, u, table, is_admin=admin))

    @tree.command(name="games", description=N_("The games of this channel"))
    async def games(interaction: discord.Interaction):
        await a.command(interaction, lambda c, u: s.games(c, u))

    @tree.command(name="rules", description=N_("How a game is played, and how to play it here"))
    @app_commands.describe(game=N_("which game"))
    @app_commands.autocomplete(game=_game_names)
    async def rules_(interaction: discord.Interaction, game: str = ""):
        await a.command(interaction, lambda c, u: s.rules_text(c, game, user=u), guild_only=False)

    @tree.command(name="leaderboard", description=N_("This server's ratings"))
    @app_commands.describe(game=N_("which game"), season=N_("a season number (default: the current one)"))
    @app_commands.autocomplete(game=_game_names)
    async def leaderboard(interaction: discord.Interaction, game: str = "", season: str = ""):
        await a.command(interaction, lambda c, u: s.leaderboard(c, u, f"{game} {season}".strip()))

    @tree.command(name="stats", description=N_("A player's record in this server"))
    @app_commands.describe(player=N_("whose record (default: yours)"))
    async def stats(interaction: discord.Interaction, player: discord.User | None = None):
        text = f"<@{player.id}>" if player is not None else ""
        await a.command(interaction, lambda c, u: s.stats(c, u, text))

    @tree.command(name="history", description=N_("Recent games of this server"))
    async def history(interaction: discord.Interaction):
        await a.command(interaction, lambda c, u: s.history(c, u, ""))

    @tree.command(name="settings", description=N_("Channel settings: turn timer and more (Manage Server)"))
    @app_commands.describe(change=N_("e.g. timer=24h (empty: show the settings)"))
    async def settings(interaction: discord.Interaction, change: str = ""):
        admin = a.is_admin(interaction)
        await a.command(interaction, lambda c, u: s.settings(c, u, change, is_admin=admin),
                        guild_only=False)  # in a DM: /settings mylanguage=de

    @tree.command(name="newseason", description=N_("Start a new league season (Manage Server)"))
    @app_commands.describe(game=N_("one game (default: every rated game)"))
    @app_commands.autocomplete(game=_game_names)
    async def newseason(interaction: discord.Interaction, game: str = ""):
        admin = a.is_admin(interaction)
        await a.command(interaction, lambda c, u: s.new_season(c, u, game, is_admin=admin))

    @tree.command(name="help", description=N_("How Herald works, or how one game is played here"))
    @app_commands.describe(game=N_("one game's help (default: the game running here, or all games)"))
    @app_commands.autocomplete(game=_game_names)
    async def help_(interaction: discord.Interaction, game: str | None = None):
        await a.command(interaction, lambda c, u: s.help(c, u, game or ""), guild_only=False)

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
