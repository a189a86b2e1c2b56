"""Slash command descriptions in the language of each Discord client.

Command names stay English (one spelling everywhere, as in help texts); their descriptions, option descriptions
and choice names are looked up in the gettext catalogs when the commands are synced (``Translator``).
"""
from __future__ import annotations

import discord
from discord import app_commands

from bot import i18n

DESCRIPTION_LIMIT = 100  # Discord refuses longer descriptions and choice names


class HeraldTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        lang = i18n.supported(locale.value)
        if lang is None or lang == i18n.DEFAULT:
            return None  # Discord shows the English text
        text = i18n.translator(lang).gettext(string.message)
        if text == string.message or not text:
            return None
        return text[:DESCRIPTION_LIMIT]
