"""The game registry: ``rules.get_game`` finds a registered game without scanning the package folder (it is
called for every message rendered; a scan cost more than the rest of a move), and still names the known games
when asked for one that does not exist."""
from __future__ import annotations

import pkgutil

import pytest

import rules
from rules.api import IllegalAction


def test_a_registered_game_is_found_without_a_folder_scan(monkeypatch):
    scans = []
    real = pkgutil.iter_modules
    monkeypatch.setattr(pkgutil, "iter_modules", lambda *a, **k: scans.append(a) or real(*a, **k))
    for name in sorted(rules.GAMES):
        assert rules.get_game(name).name == name
        assert rules.get_game(f"  {name.upper()} ").name == name
    assert scans == []
    with pytest.raises(IllegalAction, match="Known games: .*koenig_artus"):
        rules.get_game("no_such_game")
    assert len(scans) == 1  # an unknown name imports the game packages once more, then says what is known
