"""Photo captions and long texts: Telegram counts UTF-16 units of the visible text; shortening keeps whole blocks."""
from __future__ import annotations

import re

from bot.telegram.format import PICTURE_NOTE, caption, fit_text, to_html, utf16_len, visible_len


def visible(html_text: str) -> int:
    import html
    return utf16_len(html.unescape(re.sub(r"<[^>]+>", "", html_text)))


def test_short_text_is_the_whole_caption():
    assert caption("#1 Kardinal\n\nAlice to play") == "#1 Kardinal\n\nAlice to play"


def test_long_board_drops_its_grid_for_the_picture_and_keeps_head_and_turn():
    grid = ["```"] + [f"{r:>2}" + " rH" * 20 for r in range(30)] + ["```"]
    text = "\n".join(["#4 Kardinal", "· Alice builds a red house at M14."] + grid +
                     ["Stone supply: 🟥10", "⏳ To act: Bob"])
    short = caption(text)
    assert visible(to_html(short)) <= 1024
    assert short.splitlines() == ["#4 Kardinal", "· Alice builds a red house at M14.", PICTURE_NOTE,
                                  "Stone supply: 🟥10", "⏳ To act: Bob"]


def test_a_caption_of_1100_utf16_units_is_cut_at_a_block_boundary():
    players = []
    for p, name in enumerate(["Alice", "Bob", "Carol", "Dave"]):
        players.append(f"P{p + 1} {name} · trio K♣ J♥ Q♥ · castles 🏰🏰")
        players += [f"  V{v} ▒ ▒ {name[0]}{v}♠ 🂡🂢" for v in range(1, 6)]
    text = "\n".join(["#2 Troubadour", "🎻 round 3"] + players + ["⏳ To act: Carol"])
    filler = 1100 - utf16_len(text)
    text = text.replace("🎻 round 3", "🎻 round 3 " + "·" * (filler - 1))
    assert utf16_len(text) == 1100 and len(text) < 1100  # astral emoji count twice
    short = caption(text)
    assert visible_len(short) <= 1024
    lines = short.splitlines()
    assert lines[0] == "#2 Troubadour" and lines[-1] == "⏳ To act: Carol" and "…" in lines
    owner = None
    for line in lines:  # every village line sits under its own player's line
        if line.startswith("P"):
            owner = line.split()[1]
        elif line.startswith("  V"):
            assert owner is not None and line.split()[3].startswith(owner[0]), (owner, line)
    kept = {l.split()[1] for l in lines if l.startswith("P")}
    for name in kept:  # a kept player keeps all five villages
        assert sum(1 for l in lines if l.startswith("  V") and l.split()[3].startswith(name[0])) == 5


def test_very_long_text_keeps_first_and_last_lines():
    text = "\n".join(["#2 Troubadour"] + [f"line {i} " + "x" * 60 for i in range(60)] + ["⏳ To act: Carol"])
    short = caption(text)
    lines = short.splitlines()
    assert visible_len(short) <= 1024 and lines[0] == "#2 Troubadour" and lines[-1] == "⏳ To act: Carol"
    assert "…" in lines


def test_long_text_messages_fit_4096_without_breaking_a_fixed_width_block():
    grid = ["```"] + ["x" * 80 for _ in range(30)] + ["```"]
    text = "\n".join(["#3 Guyenne"] + ["note " + "y" * 70] * 40 + grid + ["⏳ To act: Bob"])
    short = fit_text(text)
    rendered = to_html(short)
    assert visible(rendered) <= 4096 and rendered.count("<pre>") == rendered.count("</pre>")
    assert short.splitlines()[-1] == "⏳ To act: Bob"
