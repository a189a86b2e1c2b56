"""Issue 26 on Discord: a person's ``interaction.locale`` picks the language of their answers, the server's
preferred locale the channel's; slash command descriptions are localized, their names stay English."""
from __future__ import annotations

from tests.discord_adapter.fake_discord import FakeDiscord

text = FakeDiscord.text


def lobby_text(dc) -> str:
    return "\n".join(text(m) for m in dc.api.channel_messages() if "table #1" in text(m) or "tafel" in text(m))


async def test_a_dutch_player_is_answered_in_dutch_while_the_channel_speaks_english(dc):
    dc.bob["locale"] = "nl"
    await dc.slash(dc.alice, "new", game="koenig_artus")
    await dc.slash(dc.bob, "join")
    assert "Bob joined." in lobby_text(dc)
    again = await dc.slash(dc.bob, "join")
    assert dc.answers(again) == ["Je hebt al een plaats aan tafel #1."]
    refused = await dc.slash(dc.carol, "leave")
    assert dc.answers(refused) == ["You have no seat at table #1."]  # Carol's client is English
    # the server's admin makes the channel German: the table speaks German, Bob still Dutch
    await dc.slash(dc.mod, "settings", change="language=de")
    await dc.slash(dc.carol, "join")
    assert "Carol ist beigetreten." in "\n".join(text(m) for m in dc.api.channel_messages())
    again = await dc.slash(dc.bob, "join")
    assert dc.answers(again) == ["Je hebt al een plaats aan tafel #1."]


async def test_a_new_channel_speaks_its_servers_preferred_locale(dc):
    dc.api.guild_locale = "fr"
    await dc.slash(dc.alice, "new", game="koenig_artus")
    assert any("Alice a ouvert une table de König Artus" in text(m) for m in dc.api.channel_messages())


async def test_command_descriptions_are_localized_and_names_stay_english(dc):
    join = next(c for c in dc.api.commands if c["name"] == "join")
    assert join["description"] == "Take a seat at a table"
    assert join["description_localizations"]["nl"] == "Neem plaats aan een tafel"
    assert join["description_localizations"]["de"] == "Nimm Platz an einem Tisch"
    assert join["description_localizations"]["fr"] == "Prends place à une table"
    assert not join.get("name_localizations")
    table = next(o for o in join["options"] if o["name"] == "table")
    assert table["description_localizations"]["nl"] == "het tafelnummer, als hier meerdere spellen lopen"


async def test_a_dutch_players_hand_and_narration_are_dutch_while_the_board_stays_english(dc):
    """The engines' texts follow their reader too: Bob's private hand (client ``nl``) speaks Dutch, "you" included,
    while the channel's board speaks the channel's English."""
    dc.bob["locale"] = "nl"
    await dc.slash(dc.alice, "new", game="koenig_artus")
    await dc.slash(dc.bob, "join")
    await dc.slash(dc.alice, "start")
    await dc.wait_for(lambda: any("Je hand:" in text(m) for m in dc.api.dms(int(dc.bob["id"]))))
    hand = "\n".join(text(m) for m in dc.api.dms(int(dc.bob["id"])))
    assert "Spel 1 · slag 1/8" in hand and "Nog geen troef." in hand
    assert "Your hand" not in hand and "No trump yet" not in hand
    board = "\n".join(text(m) for m in dc.api.channel_messages())
    assert "Hand 1 · trick 1/8" in board and "No trump yet. Knights and shields beat everything." in board
    assert "Nog geen troef" not in board
