"""Issue 26 on Telegram: a person's ``language_code`` picks the language of their answers, the group speaks the
language of the first person who used it there; ``/settings mylanguage=`` in the private chat; the command menu per
language."""
from __future__ import annotations

from tests.telegram_adapter.conftest import ALICE, GROUP

BERT = {"id": 103, "is_bot": False, "first_name": "Bert", "language_code": "de"}
OTHER_GROUP = -700


async def test_a_german_player_is_answered_in_german_while_the_group_speaks_english(tg):
    api = tg.api
    api.group(GROUP)
    await tg.say(ALICE, GROUP, "/new koenig_artus", expect=(GROUP, "Alice opened a table"))
    await tg.say(BERT, GROUP, "/join", expect=(GROUP, "Bert joined."))
    await tg.say(BERT, GROUP, "/join", expect=(GROUP, "Du hast schon einen Platz an Tisch #1."))
    # his own choice, made in the private chat, beats his app's language
    await tg.say(BERT, BERT["id"], "/settings mylanguage=fr", expect=(BERT["id"], "✅ Réglages enregistrés."))
    await tg.say(BERT, GROUP, "/join", expect=(GROUP, "Tu as déjà une place à la table n° 1."))
    await tg.say(ALICE, GROUP, "/join", expect=(GROUP, "You already have a seat at table #1."))


async def test_a_new_group_speaks_the_language_of_its_first_player(tg):
    tg.api.group(OTHER_GROUP)
    await tg.say(BERT, OTHER_GROUP, "/new koenig_artus",
                 expect=(OTHER_GROUP, "Bert hat einen Tisch für König Artus Tafelrunde eröffnet."))
    await tg.say(ALICE, OTHER_GROUP, "/join", expect=(OTHER_GROUP, "Alice ist beigetreten."))


async def test_the_command_menu_is_set_per_language(tg):
    menus = tg.api.commands_by_language
    assert set(menus) == {"", "nl", "de", "fr"}
    assert [c["command"] for c in menus["nl"]] == [c["command"] for c in menus[""]]  # names stay English
    join = {lang: next(c["description"] for c in menu if c["command"] == "join") for lang, menu in menus.items()}
    assert join == {"": "take a seat", "nl": "neem plaats", "de": "nimm Platz", "fr": "prends place"}


async def test_a_german_players_hand_is_german_while_the_group_speaks_english(tg):
    """The engines' texts follow their reader: Bert's hand (``language_code=de``) is German, the board English."""
    api = tg.api
    api.group(GROUP)
    await tg.say(ALICE, GROUP, "/new koenig_artus", expect=(GROUP, "Alice opened a table"))
    await tg.say(ALICE, ALICE["id"], "/start", expect=(ALICE["id"], "Hello"))
    await tg.say(BERT, BERT["id"], "/start", expect=(BERT["id"], "Hallo"))
    await tg.say(BERT, GROUP, "/join", expect=(GROUP, "Bert joined."))
    await tg.say(ALICE, GROUP, "/start", expect=(BERT["id"], "Keine Trumpffarbe"))
    board = "\n".join(m["text"] for m in api.bot_messages(GROUP))
    assert "Game #1 of König Artus Tafelrunde starts." in board and "Trumpf" not in board
