"""Photo captions: Telegram allows 1024 characters; a longer board text keeps its first and last lines."""
from __future__ import annotations

from bot.telegram.format import PICTURE_NOTE, caption, to_html


def test_short_text_is_the_whole_caption():
    assert caption("#1 Kardinal\n\nAlice to play") == "#1 Kardinal\n\nAlice to play"


def test_long_board_drops_its_grid_for_the_picture_and_keeps_head_and_turn():
    grid = ["```"] + [f"{r:>2}" + " rH" * 20 for r in range(30)] + ["```"]
    text = "\n".join(["#4 Kardinal", "· Alice builds a red house at M14."] + grid +
                     ["Stone supply: 🟥10", "⏳ To act: Bob"])
    short = caption(text)
    assert len(to_html(short)) <= 1024
    assert short.splitlines() == ["#4 Kardinal", "· Alice builds a red house at M14.", PICTURE_NOTE,
                                  "Stone supply: 🟥10", "⏳ To act: Bob"]


def test_very_long_text_keeps_first_and_last_lines():
    text = "\n".join(["#2 Troubadour"] + [f"line {i} " + "x" * 60 for i in range(60)] + ["⏳ To act: Carol"])
    short = caption(text)
    lines = short.splitlines()
    assert len(short) <= 1000 and lines[0] == "#2 Troubadour" and lines[-1] == "⏳ To act: Carol" and "…" in lines
