"""Service buttons and menus as discord.py components that survive a restart.

Every component is a ``DynamicItem``: its custom id carries the service's button data (game id, state
version, picker path), so a click after a restart is routed by pattern, with no view kept in memory.
"""
from __future__ import annotations

import discord

from bot.service import Button, Menu, Message


STYLES = {"primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
          "success": discord.ButtonStyle.success, "danger": discord.ButtonStyle.danger}
BUTTON_PREFIX, MENU_PREFIX = "hb:", "hs:"
MAX_ROWS, PER_ROW = 5, 5
BUTTONS_UP_TO = 5  # a single choice of at most this many options stays buttons; more (or a multi-choice) is a menu


class HeraldButton(discord.ui.DynamicItem[discord.ui.Button], template=r"hb:(?P<data>.{1,97})"):
    def __init__(self, data: str, label: str = "…", style: discord.ButtonStyle = discord.ButtonStyle.secondary):
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=BUTTON_PREFIX + data))
        self.data = data

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match):
        return cls(match["data"], item.label or "…", item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client  # the HeraldBot: it has the adapter
        await bot.adapter.on_press(interaction, self.data)


class HeraldMenu(discord.ui.DynamicItem[discord.ui.Select], template=r"hs:(?P<data>.{1,97})"):
    def __init__(self, data: str, options: list[discord.SelectOption] | None = None, min_values: int = 1,
                 max_values: int = 1, placeholder: str | None = None):
        select = discord.ui.Select(custom_id=MENU_PREFIX + data, options=options or [], min_values=min_values,
                                   max_values=max_values, placeholder=placeholder)
        super().__init__(select)
        self.data = data

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match):
        return cls(match["data"], list(item.options), item.min_values, item.max_values, item.placeholder)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client  # the HeraldBot: it has the adapter
        values = list((interaction.data or {}).get("values", []))
        await bot.adapter.on_menu(interaction, self.data, values)


def _button(button: Button, row: int) -> discord.ui.Item:
    if button.url:  # a link: Discord opens it, nothing comes back
        return discord.ui.Button(label=button.label[:80], url=button.url, row=row)
    item = HeraldButton(button.data, button.label, STYLES.get(button.style, discord.ButtonStyle.secondary))
    item.item.row = row
    return item


def _menu(menu: Menu) -> HeraldMenu:
    options = [discord.SelectOption(label=label[:100] or "…", value=value) for label, value in menu.options[:25]]
    item = HeraldMenu(menu.data, options, menu.min_values, max(1, menu.max_values), menu.placeholder)
    item.item.row = 0
    return item


def build_view(message: Message) -> discord.ui.View | None:
    """A view of dynamic items (never stored: clicks are matched by pattern), or None without buttons."""
    menu = message.menu
    use_menu = menu is not None and menu.options and (menu.multi or len(menu.options) > BUTTONS_UP_TO)
    rows: list[list[Button]] = []
    if not use_menu:
        for source in message.buttons:
            rows.extend(source[i:i + PER_ROW] for i in range(0, len(source), PER_ROW))
    if not use_menu and len(rows) > MAX_ROWS and menu is not None and menu.options:
        use_menu = True
    if not rows and not use_menu:
        return None
    view = discord.ui.View(timeout=None)
    if use_menu:
        view.add_item(_menu(menu))
        rows = [menu.controls[i:i + PER_ROW] for i in range(0, len(menu.controls), PER_ROW)]
        rows = [[]] + rows  # row 0 holds the menu
    for number, row in enumerate(rows[:MAX_ROWS]):
        for button in row:
            view.add_item(_button(button, number))
    view.stop()  # nothing to wait for: every click is routed through the dynamic item patterns
    return view
