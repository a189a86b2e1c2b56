"""AI seats' names are said in the chat's language, like everything else a table reads."""
from __future__ import annotations

import pytest

from bot.i18n import using


@pytest.mark.parametrize("language,name", [("en", "🤖 AI 3"), ("fr", "🤖 IA 3"), ("de", "🤖 KI 3"), ("nl", "🤖 AI 3")])
def test_an_ai_seat_without_a_level_name_is_named_in_the_chats_language(language, name):
    """The fallback name of an AI seat (no level name) was always English."""
    from bot.service.live import seat_name

    assert seat_name(None, False, position=4, seat=2, lang=language) == name
    with using(language):
        assert seat_name(None, False, position=2) == name  # no language given: the one texts are built in now
    assert seat_name("Alice", True, position=2, lang=language) == "🤖 Alice"  # a person who resigned
