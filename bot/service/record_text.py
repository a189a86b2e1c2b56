"""The text record of a game: a record (``records``) told for a person to read, in the language current now.

Seat list and options, then every move narrated with the narration the table saw (for a whole record: every
event, the hidden ones by name, and each seat's cards as dealt, so every hidden card is revealed), then the
final board and result with the game's tie rule and the rating changes. A cut record is told as its reader
knew it: their own lines in the second person, nothing hidden from them.
"""
from __future__ import annotations

from bot.i18n import _
from bot.service import narration
from bot.service.records import ALL, PUBLIC
from bot.service.rendering import substitute
from bot.service.replay import Replay

RULE = "─" * 24


def _seat_line(player: dict) -> str:
    name = f"{player['seat'] + 1}. {player['name']}"
    if player.get("ai") and not player.get("resigned"):
        name += " " + _("(AI: {level})", level=player["ai"])
    if player.get("resigned"):
        name += " " + _("(resigned)")
    return name


def _board(replay: Replay, view: dict) -> str:
    """A view as the chat shows it (a seat's own view speaks to that seat)."""
    text = replay.game.render_view(view)
    return substitute(text, replay.names)


def _move_head(replay: Replay, step: int) -> str:
    entry = replay.record["steps"][step - 1]
    action = entry["action"] if entry["action"] is not None else _("(hidden)")
    head = f"{step}. {replay.names[entry['seat']]}: {action}"
    if entry["flags"].get("timer"):
        head += " " + _("(time ran out: an AI played)")
    elif entry["flags"].get("ai"):
        head += " " + _("(AI)")
    if entry["flags"].get("hint"):  # (absent in records written before the flag: not after a hint)
        head += " " + _("(after a hint)")
    return head


def text_record(record: dict) -> str:
    """The whole text of ``record`` for its reader (see the module's docstring)."""
    replay = Replay(record)
    reader = ALL if replay.whole else (None if replay.audience == PUBLIC else replay.audience)
    out = [_("📜 {game} — game #{id}", game=replay.game.title, id=record.get("game_id") or "?")]
    if record.get("started_at"):
        out.append(_("Started: {time}", time=record["started_at"][:16].replace("T", " ") + " UTC"))
    if record.get("ended_at"):
        out.append(_("Ended: {time}", time=record["ended_at"][:16].replace("T", " ") + " UTC"))
    if record.get("options"):
        out.append(_("Options: {options}", options=", ".join(f"{k}={v}" for k, v in record["options"].items())))
    out.append(_("Seats:"))
    out += ["  " + _seat_line(p) for p in record["players"]]
    if record.get("hinted"):
        out.append(_("A hint was asked for in this game: it was not rated."))
    if replay.whole:
        out.append(_("The game is over: every hidden card is shown."))
    elif reader is None:
        out.append(_("What the table saw: hidden cards stay hidden."))
    else:
        out.append(_("What {name} knew: other players' hidden cards stay hidden.", name=replay.names[reader]))
    out += ["", RULE, _("The deal"), RULE]
    out.append(_board(replay, replay.view(0, None)))
    if replay.whole:
        for seat, name in enumerate(replay.names):
            out += ["", _("As {name} saw it:", name=name), _board(replay, replay.view(0, seat))]
    elif reader is not None:
        out += ["", _("Your cards:"), _board(replay, replay.view(0, reader))]
    out += ["", RULE, _("The moves"), RULE]
    for step in range(1, replay.steps + 1):
        out.append(_move_head(replay, step))
        out += ["   " + line.replace("\n", "\n   ") for line in replay.narration(step, reader)]
    out += ["", RULE, _("The end") if replay.over else _("So far"), RULE]
    out.append(_board(replay, replay.view(replay.steps, None)))
    result = record.get("result")
    if result:
        viewer = reader if isinstance(reader, int) else None
        out.append("")
        out += narration.final_result_lines(replay.game, result["scores"], result["places"], replay.names,
                                            viewer=viewer, resigned=result.get("resigned", []))
        for change in result.get("ratings", []):
            out.append(_("Rating of {name}: {change}", name=replay.names[change["seat"]],
                         change=f"{change['change']:+.1f}"))
        if not result.get("rated"):
            out.append(_("This game was not rated."))
    return "\n".join(out) + "\n"


def seen_as(replay: Replay, viewer) -> str:
    return _("the table") if viewer is None else _("everything") if viewer == ALL else replay.names[viewer]


def step_text(replay: Replay, step: int, viewer, game_id=None) -> str:
    """One step of a replay as text: the head, the move and its narration as ``viewer`` read it, and the view
    (for ``"all"`` the table's and then every seat's) — the /replay message and the console's replay."""
    game, names = replay.game, replay.names
    lines = [_("📼 #{id} {game} — step {step} of {last} · seen as: {who}", id=game_id or "?", game=game.title,
               step=step, last=replay.steps, who=seen_as(replay, viewer))]
    if step == 0:
        lines.append(_("The deal, before the first move."))
    else:
        lines.append(_move_head(replay, step))
        lines += ["· " + line for line in replay.narration(step, viewer)]
    view = replay.view(step, viewer)
    table = _board(replay, view["public"] if viewer == ALL else view)
    lines += ["", table]
    if viewer == ALL:  # each seat's own lines only (its hand, its secrets): the table above is theirs too
        shared = set(table.splitlines())
        for seat, seat_view in enumerate(view["seats"]):
            own = [line for line in _board(replay, seat_view).splitlines() if line.strip() and line not in shared]
            lines += ["", f"— {names[seat]} —", *own]
    return "\n".join(lines)
