"""``to_markdown`` on its own: the cases a played game rarely shows (an unclosed block, a cut, line starts)."""
from __future__ import annotations

from bot.discord.format import EMBED_LIMIT, to_markdown
from tests.discord_adapter.markdown_reader import assert_plain, read, shown_in_blocks, shown_outside


def test_every_line_start_that_would_format_is_shown_as_written():
    text = "# a\n## b\n-# c\n> d\n>>> e\n- f\n* g\n+ h\n  1. i\n#1 König\n-5 points\n1) j"
    assert_plain(to_markdown(text))
    assert shown_outside(to_markdown(text)) == text


def test_a_name_cannot_close_a_block_and_an_open_block_is_closed():
    text = "top\n```\n 1. a```b  [x](https://e.vil) ``\n```\nbelow **a```b**\n```\nopen a````b"
    shown = to_markdown(text)
    assert_plain(shown)
    assert [p.code for p in read(shown)] == [False, True, False, True]
    assert shown_in_blocks(shown) == ["\n 1. a```b  [x](https://e.vil) ``\n", "\nopen a````b\n"]
    assert shown_outside(shown) == "top\n\nbelow **a```b**\n"


def test_a_cut_keeps_whole_lines_closes_its_block_and_says_so():
    text = "head [x](https://e.vil)\n```\n" + "\n".join(f"{i} a```b" for i in range(2000)) + "\n```\ntail"
    shown = to_markdown(text, EMBED_LIMIT)
    assert len(shown) <= EMBED_LIMIT and shown.endswith("\n```\n…")
    assert_plain(shown)
    assert all(line.endswith("a```b") for line in shown_in_blocks(shown)[0].strip().splitlines())


def test_a_first_line_too_long_alone_is_cut_without_a_half_escape():
    shown = to_markdown("*" * 5000, EMBED_LIMIT)
    assert len(shown) <= EMBED_LIMIT and shown.endswith("\n…")
    assert_plain(shown)
    assert set(shown_outside(shown).removesuffix("\n…")) == {"*"}
