"""What the AI pool's worker processes need in tests: the toy game registered (a spawned worker starts afresh)."""


def register_toy() -> None:
    from rules.api import GAMES, register
    from tests.toygame import TOY

    if TOY.name not in GAMES:
        register(TOY)
