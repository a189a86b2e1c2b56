"""Game options typed at ``/new`` (``key=value``): parsed, bounded and checked against the engine at once, so a
table is never opened with options it could not start with."""
from __future__ import annotations

from rules.api import Game, IllegalAction
from bot.i18n import _

MAX_NUMBER_DIGITS = 6  # no option of any game is larger; longer numbers are typing accidents
MAX_LIST = 32


def parse_options(game: Game, text: str) -> dict:
    """``key=value`` pairs (values typed like the defaults) over the game's default options, refused with the
    engine's own reason unless some seat count of the game accepts them."""
    options = dict(game.default_options())
    for token in (text or "").split():
        key, sep, value = token.partition("=")
        key = key.strip().lower()
        if not sep:
            matches = [k for k, v in options.items() if isinstance(v, str) and _allowed(game, {k: token.lower()})]
            if len(matches) == 1:
                key, value = matches[0], token
            else:
                raise IllegalAction(_("Options are written key=value, e.g. {example}.", example=_example(game)))
        if key not in options:
            if not options:
                raise IllegalAction(_("{game} has no options.", game=game.title))
            raise IllegalAction(_("{game} has no option “{key}”. Options: {known}.", game=game.title, key=key[:40],
                                  known=", ".join(options)))
        options[key] = _coerce(key, value, options[key])
    check_options(game, options)
    return options


def check_options(game: Game, options: dict) -> None:
    """The engine's reason if no seat count of ``game`` can start with ``options``."""
    reason = None
    for players in range(game.min_players, game.max_players + 1):
        try:
            game.new_game(players, seed=0, options=dict(options))
            return
        except IllegalAction as error:
            reason = reason or str(error)
        except (ValueError, TypeError, KeyError, IndexError, OverflowError):
            reason = reason or _("These options do not fit the game.")
    raise IllegalAction(reason or _("These options do not fit the game."))


def _allowed(game: Game, change: dict) -> bool:
    try:
        check_options(game, {**game.default_options(), **change})
        return True
    except IllegalAction:
        return False


def _example(game: Game) -> str:
    opts = game.default_options()
    return " ".join(f"{k}={v}" for k, v in list(opts.items())[:2]) or _("(this game has no options)")


def _number(key: str, text: str) -> int:
    text = text.strip()
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()):
        raise IllegalAction(_("Option {key} takes a whole number.", key=key))
    if len(digits) > MAX_NUMBER_DIGITS:
        raise IllegalAction(_("Option {key}: {value}… is far too large.", key=key, value=text[:12]))
    return int(text)


def _coerce(key: str, value: str, default):
    value = value.strip()
    if isinstance(default, bool):
        if value.lower() in ("1", "true", "yes", "on"):
            return True
        if value.lower() in ("0", "false", "no", "off"):
            return False
        raise IllegalAction(_("Option {key} takes on/off.", key=key))
    if isinstance(default, int):
        return _number(key, value)
    if isinstance(default, list):
        items = [v for v in value.split(",") if v]
        if len(items) > MAX_LIST:
            raise IllegalAction(_("Option {key} takes at most {most} numbers.", key=key, most=MAX_LIST))
        try:
            return [_number(key, v) for v in items]
        except IllegalAction:
            raise IllegalAction(_("Option {key} takes numbers separated by commas, e.g. 3,7,11.", key=key)) from None
    if len(value) > 40:
        raise IllegalAction(_("Option {key}: that value is too long.", key=key))
    return value.lower()
