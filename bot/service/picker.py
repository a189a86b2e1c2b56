"""The move picker: narrows ``legal_actions`` one parameter at a time, for any game.

A button's data is ``p:<game>:<version>:<path>``, where the path lists the option
chosen at each level (``3.0.m5`` …); a list parameter is a multi-select whose
path token is ``m<hex bitmask>`` while toggling and ``d<hex bitmask>`` when done
(an item a list may hold twice, like Guyenne's ``2`` in ``aside 4 3 2 2 A``, is offered twice); a tick that
fills the largest valid choice is the choice, and a list parameter with at most ``MAX_OPTIONS`` valid choices
offers them whole, one button each; and when the actions left fit one page, each is one button (its index).
Every step costs an answer and an edit on the platforms: as few as the
choice allows.
Everything is derived again from ``legal_actions`` of the stated version, so the
data needs no storage, fits Telegram's 64 bytes and a stale version is detected.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from rules.api import Game, IllegalAction
from bot.i18n import _

MAX_OPTIONS = 24  # per page: fits a Discord select menu (25) and a phone screen of Telegram buttons


def _key(value) -> str:
    """A value as a comparable string; strings, numbers and lists of strings (most parameters) without JSON (a hot
    spot: every option of the picker of every move). JSON never starts with ``s``, ``i`` or ``l``, so the kinds
    never meet."""
    kind = type(value)
    if kind is str:
        return "s" + value
    if kind is int:
        return "i" + str(value)
    if kind is list and all(type(v) is str and "\x1f" not in v for v in value):  # a set of cards, of pieces
        return "l" + "\x1f".join(value)
    return json.dumps(value, sort_keys=True)


@dataclass
class PickerLevel:
    """Where a path leads: a finished action, or the next choice to offer."""

    action: dict | None = None
    key: str | None = None
    options: list[tuple[str, str]] = field(default_factory=list)  # (label, token)
    multi: bool = False
    selected: list = field(default_factory=list)
    can_finish: bool = False
    chosen: list[str] = field(default_factory=list)  # labels of the choices made so far
    has_token: bool = False  # the path already holds this level's token (a multi-select mask or a page)
    page: int = 0  # of a long single choice: options[page * MAX_OPTIONS:][:MAX_OPTIONS] are shown
    sizes: tuple[int, int] = (1, 1)  # of a multi-select: the fewest and most items a valid choice has

    @property
    def pages(self) -> int:
        return 1 if self.multi else max(1, -(-len(self.options) // MAX_OPTIONS))

    def shown(self) -> list[tuple[str, str]]:
        """The options on the current page (all of them for a multi-select)."""
        if self.multi:
            return self.options
        return self.options[self.page * MAX_OPTIONS:(self.page + 1) * MAX_OPTIONS]

    def data_for(self, path: str, token: str) -> str:
        """The path a button of this level leads to."""
        return extend(parent(path) if self.has_token else path, token)


def _label(game: Game, key: str, value, candidates: list[dict]) -> str:
    if len(candidates) == 1:
        return game.describe_action(candidates[0])
    return choice_label(game, key, value) + " …"


def choice_label(game: Game, key: str, value) -> str:
    """One value (or list item; a whole list offered as one choice: its items) of a parameter, in the game's
    symbols; games without the hook: as it is."""
    if isinstance(value, list):
        return " ".join(choice_label(game, key, item) for item in value)
    describe = getattr(game, "describe_choice", None)
    if describe is None:
        return str(value).replace("_", " ").capitalize() if key == "type" else str(value)
    return describe(key, value)


def resolve(game: Game, actions: list[dict], path: str, whole: bool = True) -> PickerLevel:
    """Follow ``path`` through ``actions``; IllegalAction if it does not fit (forged or stale). ``whole``: offer
    whole moves where they fit one page (on a chat platform every step is an answer and an edit); the console
    (no calls to save) keeps the step menus, which are shorter."""
    tokens = [t for t in path.split(".") if t] if path else []
    candidates = list(actions)
    if not candidates:
        raise IllegalAction(_("You have nothing to do right now."))
    fixed: dict = {}
    chosen: list[str] = []
    level = 0
    while True:
        if len(candidates) == 1 and all(k in fixed for k in candidates[0]):
            if tokens[level:]:
                raise IllegalAction(_("That button does not fit this board."))
            return PickerLevel(action=candidates[0], chosen=chosen)
        keys = [k for k in candidates[0] if k not in fixed]
        if not keys:
            return PickerLevel(action=candidates[0], chosen=chosen)
        key = keys[0]
        values: list = []
        seen: set[str] = set()
        for c in candidates:
            if key not in c:
                continue
            k = _key(c[key])
            if k not in seen:
                seen.add(k)
                values.append(c[key])
        if len(values) == 1:  # nothing to choose at this level
            fixed[key] = values[0]
            candidates = [c for c in candidates if _key(c.get(key)) == _key(values[0])]
            continue
        token = tokens[level] if level < len(tokens) else None
        if whole and len(values) < len(candidates) <= MAX_OPTIONS:  # what is left fits one page: each action one button
            return _whole(game, candidates, chosen, token, tokens[level + 1:])
        # a list parameter with few valid choices offers them whole: one press, not a tick per item and Done
        # (each step is an answer and an edit on the platforms)
        multi = all(isinstance(v, list) for v in values) and (len(values) > MAX_OPTIONS or not whole)
        if multi:
            items = _items(values)
            mask = 0
            done = False
            if token is not None:
                if token[:1] not in ("m", "d"):
                    raise IllegalAction(_("That button does not fit this board."))
                try:
                    mask = int(token[1:] or "0", 16)
                except ValueError:
                    raise IllegalAction(_("That button does not fit this board.")) from None
                if mask >> len(items):
                    raise IllegalAction(_("That button does not fit this board."))
                done = token[0] == "d"
            selected = [items[i] for i in range(len(items)) if mask >> i & 1]
            valid = {_bag(v): v for v in values}  # a choice is the items, in whichever order they were ticked
            if whole and len(selected) == max(len(v) for v in values) and _bag(selected) in valid:
                done = True  # nothing more to tick: the last tick is the choice (no Done press, no step)
            if done:
                if _bag(selected) not in valid:
                    raise IllegalAction(_("That is not a valid choice."))
                selected = fixed[key] = valid[_bag(selected)]
                candidates = [c for c in candidates if _key(c.get(key)) == _key(selected)]
                chosen.append(" ".join(choice_label(game, key, item) for item in selected))
                level += 1
                continue
            if level + 1 < len(tokens):
                raise IllegalAction(_("That button does not fit this board."))
            lengths = [len(v) for v in values]
            options = [(("✔ " if mask >> i & 1 else "") + choice_label(game, key, item), f"m{mask ^ (1 << i):x}")
                       for i, item in enumerate(items)]
            return PickerLevel(key=key, options=options, multi=True, selected=selected,
                               can_finish=_bag(selected) in valid, chosen=chosen, has_token=token is not None,
                               sizes=(min(lengths), max(lengths)))
        if token is None or token.startswith("n"):  # the choice itself, or a page of it
            page = 0
            if token is not None:
                if level + 1 < len(tokens) or not token[1:].isdigit():
                    raise IllegalAction(_("That button does not fit this board."))
                page = int(token[1:])
                if page * MAX_OPTIONS >= len(values):
                    raise IllegalAction(_("That button does not fit this board."))
            options = []
            for i, value in enumerate(values):
                group = [c for c in candidates if _key(c.get(key)) == _key(value)]
                options.append((_label(game, key, value, group), str(i)))
            return PickerLevel(key=key, options=options, chosen=chosen, has_token=token is not None, page=page)
        if not token.isdigit() or int(token) >= len(values):
            raise IllegalAction(_("That button does not fit this board."))
        value = values[int(token)]
        fixed[key] = value
        candidates = [c for c in candidates if _key(c.get(key)) == _key(value)]
        chosen.append(choice_label(game, key, value))
        level += 1


def _whole(game: Game, candidates: list[dict], chosen: list[str], token: str | None,
           rest: list[str]) -> PickerLevel:
    """The actions left, one button each (token: the action's index among them — the level is known from the
    actions alone, so the digits cannot be read as a value's): a move of several parameters in one press when
    they fit one page, instead of a step (an answer and an edit) per parameter. Digits, as a Discord menu's
    values must be (``buttons._menu``)."""
    if token is None:
        return PickerLevel(key="move", options=[(game.describe_action(c), str(i)) for i, c in enumerate(candidates)],
                           chosen=chosen)
    if rest or not token.isdigit() or int(token) >= len(candidates):
        raise IllegalAction(_("That button does not fit this board."))
    return PickerLevel(action=candidates[int(token)], chosen=chosen)


def _items(values: list[list]) -> list:
    """The items a multi-select offers: each item of the lists once, or as many times as one list may hold it
    (``["2", "2", "A"]``: pick a 2 twice), copies side by side, in the order they first appear."""
    counts: dict[str, int] = {}
    first: dict[str, object] = {}
    for v in values:
        seen: dict[str, int] = {}
        for item in v:
            k = _key(item)
            seen[k] = seen.get(k, 0) + 1
            first.setdefault(k, item)
        for k, n in seen.items():
            counts[k] = max(counts.get(k, 0), n)
    return [first[k] for k in first for _copy in range(counts[k])]


def _bag(items: list) -> tuple[str, ...]:
    """A list as a multiset: what makes two selections the same choice."""
    return tuple(sorted(_key(item) for item in items))


def extend(path: str, token: str) -> str:
    return f"{path}.{token}" if path else token


def replace_last(path: str, token: str) -> str:
    head = path.rsplit(".", 1)[0] if "." in path else ""
    return extend(head, token)


def parent(path: str) -> str:
    if not path:
        return ""
    parts = path.split(".")
    return ".".join(parts[:-1])
