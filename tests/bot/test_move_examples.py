"""Issue 37, item 10: every move example a player is shown — the /rules and /help texts in four languages, the
prompt of a view ("/move respond H"), a refusal that proposes a move ("e.g. open 3 5 2", "like `bonus blue`") —
parses with that game's notation and is legal: a prompt's example in the very position it is shown in, the others
in some position of a few seeded games. Where the notation reads the reader's words (Kardinal's colours and
shapes), the examples use them ("M14 rot haus", not "M14 red house", in German)."""
from __future__ import annotations

import re
from functools import lru_cache

import pytest

import rules
from bot import i18n
from rules.ai.levels import make_player
from rules.api import IllegalAction
from rules.kardinal.notation import local_move
from rules.lang import reading

rules.load_games()
LANGUAGES = ["en", "nl", "de", "fr"]
GAMES = ["kardinal", "list_und_tuecke", "guyenne", "troubadour"]
# what a hurried or lost player types: each refusal may propose a move
NONSENSE = ["xyz", "1", "open", "play", "pick", "trio", "rps", "R", "M14", "M14 house", "M14 red", "bonus", "cardinal",
            "pass", "end", "reveal", "give", "lose", "aside", "hide", "M14 red house N14 N15", "M14 red courtyard",
            "M14 red tower", "flip XX", "JS", "QH V9", "direction"]
COMMAND_WORDS = {"done", "back", "board", "hand", "log", "rules", "help", "hint", "resign", "quit", "+", ".", "▒"}
TICKED = re.compile(r"`([^`]+)`")
EXAMPLE = re.compile(r"(?:e\.g\.|z\. ?B\.|bv\.|p\. ?ex\.)\s+([^`]+?)(?=,? (?:or|oder|of|ou) |[,;)]|\.(?:\s|$)|$)")
PROMPT = re.compile(r"/move ([^·\n(,—`]+?)(?=\s+·|\s*$|\s*\(|\s*\)|\n|,|\.\s|\.$| —)")
# the examples of each game's /rules text (in every language, Kardinal's words in the reader's language)
RULES_EXAMPLES = {
    "kardinal": ["M14 red house", "m14 rh", "M14 red courtyard N14", "m14 gc east", "bonus blue", "cardinal N12",
                 "stay"],
    "list_und_tuecke": ["R14", "pick R14 R10 Y16", "hide B Y"],
    "guyenne": ["open 3 5 2", "respond 4 A", "reinforce 3 2", "pass", "reveal", "concede", "lose 2 2",
                "aside 4 3 2 2 A", "give 5 2 partner leads", "direction left"],
    "troubadour": ["trio JC QC JH", "rps QH", "flip", "flip JC", "extra", "7C castle", "8H V4", "JH 8H castle",
                   "JH 8H V2", "QH V2 1", "ace castle", "ace keep", "QHKH 7S", "JS P2 V3", "QS P2", "JQK P2 H", "end"],
}


# examples whose cards meet in few positions (three named cards in one trick, a Q♥+K♥ flip, a J♠ attack on a
# village with cards): they must parse where that kind of move is made (legal_somewhere, read as their English form)
RARE = {"pick R14 R10 Y16", "QHKH 7S", "JS P2 V3", "QS P2", "JQK P2 H"}


@lru_cache(maxsize=None)
def positions(title: str) -> list[tuple]:
    """(state, seat to act) along greedy games of every configuration of ``title``, two seeds each."""
    game, out = rules.get_game(title), []
    for n, options in game.configurations():
        for seed in (0, 1):
            state = game.new_game(n, seed=seed, options=options)
            ais = [make_player("greedy", seed=seed * 7 + s) for s in range(n)]
            for _ in range(3000):
                if state.is_over():
                    break
                out += [(state, seat) for seat in state.to_act()]
                seat = state.to_act()[0]
                state = state.clone()
                state.apply(seat, ais[seat].choose(state, seat))
    return out


def legal(game, state, seat: int, text: str) -> bool:
    try:
        state.clone().apply(seat, game.parse_action(state, seat, text))
    except IllegalAction:
        return False
    return True


def legal_somewhere(game, text: str) -> bool:
    if any(legal(game, state, seat, text) for state, seat in positions(game.name)):
        return True
    english = next((e for e in RARE if _parsed(game, e) == _parsed(game, text) is not None), None)
    return english is not None  # a rare example (RARE), read as its English form


@lru_cache(maxsize=None)
def _parsed_cached(title: str, text: str):
    game = rules.get_game(title)
    for state, seat in positions(title):
        try:
            return repr(sorted(game.parse_action(state, seat, text).items()))
        except IllegalAction:
            continue
    return None


def _parsed(game, text: str):
    return _parsed_cached(game.name, text)


def proposed(message: str) -> set[str]:
    """The moves a refusal proposes: `ticked` ones and those after "e.g." (in every language's words)."""
    found = {m.strip() for m in TICKED.findall(message)} | {m.strip() for m in EXAMPLE.findall(message)}
    return {m[len("/move "):] if m.startswith("/move ") else m for m in found if m and not m.startswith("/new")}


@pytest.mark.parametrize("title", GAMES)
def test_every_prompt_proposes_a_move_legal_where_it_is_shown(title):
    game, wrong = rules.get_game(title), set()
    for state, seat in positions(title)[::3]:
        for language in LANGUAGES:
            with i18n.using(language), reading(seat):
                for example in PROMPT.findall(game.render_view(state.view(seat))):
                    if not legal(game, state, seat, example.strip()):
                        wrong.add((language, example.strip(), getattr(state, "phase", "")))
    assert not wrong, sorted(wrong)[:10]


@pytest.mark.parametrize("title", GAMES)
def test_every_refusal_proposes_a_move_that_is_legal_in_some_position(title):
    game, said = rules.get_game(title), {}
    for state, seat in positions(title)[::5]:
        for language in LANGUAGES:
            with i18n.using(language), reading(seat):
                for typed in NONSENSE:
                    try:
                        game.parse_action(state, seat, typed)
                        continue
                    except IllegalAction as refusal:
                        for example in proposed(str(refusal)):
                            said.setdefault((language, example), str(refusal))
    wrong = {(language, example): message for (language, example), message in said.items()
             if not legal_somewhere(game, example)}
    assert not wrong, sorted(wrong.items())[:8]
    if title == "kardinal":  # the reader's words where the notation reads them
        english = {(language, example): message for (language, example), message in said.items()
                   if language != "en" and _local(example, language) != example}
        assert not english, sorted(english.items())[:8]


def _local(example: str, language: str) -> str:
    with i18n.using(language):
        return local_move(example)


@pytest.mark.parametrize("title", GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_and_help_show_examples_that_parse(title, language):
    game = rules.get_game(title)
    with i18n.using(language):
        texts = [game.rules_summary(), game.help_text()]
    shown = []
    for example in RULES_EXAMPLES[title]:
        local = _local(example, language) if title == "kardinal" else example
        assert local in texts[0], f"{local!r} is not in the {language} rules of {title}"
        assert legal_somewhere(game, local), local
        shown.append(local)
    for text in texts:  # every `ticked` example of the help too
        for example in TICKED.findall(text):
            if not example.startswith("/") and example not in COMMAND_WORDS:
                assert legal_somewhere(game, example) or example in ("H", "T", "A"), (example, language)
