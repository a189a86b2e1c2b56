"""Game records: a stored game as a versioned JSON document (``docs/RECORD.md``), cut to what its reader may know.

A record is built from the stored rows (seed, options, seats, move log, result, rating changes) in a form that
names no platform and no platform id. Who reads it decides what it holds (its ``audience``):

- ``"all"`` — the whole game: the seed and every action, so the engine rebuilds every state (``replay.Replay``);
  given once the game is over (unless the chat set ``reveal_after_end=off``);
- a seat number — what that seat knew: public events and its own, the actions it could see, and at every step
  the public view and its own view (no seed: seed + actions would tell everything);
- ``"public"`` — what the table saw: public events, the actions nobody hid, the public view at every step.

``audience_for`` applies that rule; ``build_record`` is pure (a ``StoredGame`` in, a dict out); ``load_game``
reads a ``StoredGame`` in a unit of work. Stepping through a record is ``bot.service.replay``.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Union

import rules
from bot.service.leagues import conservative
from bot.service.live import seat_names
from bot.service.languages import chat_language
from rules.api import Event

FORMAT = "herald-record"
VERSION = 1
ALL, PUBLIC = "all", "public"
Audience = Union[str, int]  # "all", "public", or a seat number


class RecordError(ValueError):
    """A record that cannot be read (not a record, a newer version, an unknown game, moves that do not replay);
    ``str(e)`` says which, in English (callers answer with their own translated sentence)."""


@dataclass
class StoredGame:
    """What a record is made of, read from the database (or given by a test or the console)."""

    id: int | None
    game: str
    options: dict
    seed: int
    status: str  # active, finished (a lobby or aborted game has no record)
    players: list[dict]  # per engine seat: name, ai (level or None), resigned, player_id (never written out)
    moves: list[tuple[int, dict, list, str]]  # (seat, action, events as Event.to_json(), by) in order
    started_at: datetime | None = None
    ended_at: datetime | None = None
    result: dict | None = None  # the stored result: ranking (places), scores, names, resigned
    rated: bool = False
    hinted: bool = False
    hinted_moves: set[int] = field(default_factory=set)  # indexes in ``moves`` of those made after a hint
    ratings: dict[int, dict] = field(default_factory=dict)  # seat → mu/sigma before and after
    chat_id: int | None = None  # the chat it was played in (its database id; never written out)
    reveal_after_end: bool = True  # the chat's setting

    def seat_of_player(self, player_id: int | None) -> int | None:
        return next((s for s, p in enumerate(self.players) if player_id is not None
                     and p.get("player_id") == player_id), None)


def audience_for(stored: StoredGame, player_id: int | None) -> Audience:
    """What a record given to ``player_id`` may hold: everything once the game is over (unless its chat set
    ``reveal_after_end=off``), else what their seat knew (a person who played it), else what the table saw."""
    if stored.status == "finished" and stored.reveal_after_end:
        return ALL
    seat = stored.seat_of_player(player_id)
    return seat if seat is not None else PUBLIC


def _stamp(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC, saying so (SQLite gives the stored UTC times back without their zone)."""
    if moment is None:
        return None
    return (moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)).isoformat()


def _result(stored: StoredGame) -> dict | None:
    if stored.status != "finished" or not stored.result:
        return None
    result = stored.result
    resigned = sorted(result.get("resigned", []))
    places = result.get("ranking") or []
    ratings = []
    for seat, change in sorted(stored.ratings.items()):
        before = conservative(change["mu_before"], change["sigma_before"])
        after = conservative(change["mu_after"], change["sigma_after"])
        ratings.append({"seat": seat, **{k: round(change[k], 4) for k in
                                         ("mu_before", "sigma_before", "mu_after", "sigma_after")},
                        "change": round(after - before, 2)})
    return {"places": list(places),  # as stored: the engine's places, a resigned seat last (final_places)
            "scores": list(result.get("scores", [])), "resigned": resigned, "rated": stored.rated,
            "ratings": ratings}


def build_record(stored: StoredGame, audience: Audience) -> dict:
    """The record of ``stored`` for ``audience`` (see the module's docstring); RecordError if its moves do not
    replay. Only the "all" record of a finished game says every hidden thing."""
    game = rules.get_game(stored.game)
    if audience not in (ALL, PUBLIC) and not (isinstance(audience, int) and 0 <= audience < len(stored.players)):
        raise RecordError(f"no such audience: {audience!r}")
    if audience == ALL and stored.status != "finished":
        raise RecordError("a running game's record is never given whole")
    seat_view: int | None = audience if isinstance(audience, int) else None
    try:
        state = game.new_game(len(stored.players), seed=stored.seed, options=copy.deepcopy(stored.options))
    except Exception as error:
        raise RecordError(f"the game does not start: {error}") from None
    cut = audience != ALL

    last: dict = {}

    def views() -> dict:
        """The views of this step that differ from the previous step's (a reader looks back for the others)."""
        now = {"public": state.view(None)}
        if seat_view is not None:
            now["seat"] = state.view(seat_view)
        changed = {key: view for key, view in now.items() if last.get(key) != view}
        last.update(now)
        return copy.deepcopy(changed)

    steps = []
    start = {"views": views()} if cut else {}
    for n, (seat, action, events, by) in enumerate(stored.moves, start=1):
        hidden = cut and seat != seat_view and state.is_secret(seat, action)
        notation = None if hidden else game.format_action(action)
        try:
            state.apply(seat, copy.deepcopy(action))
        except Exception as error:
            raise RecordError(f"step {n} ({game.format_action(action)}) does not replay: {error}") from None
        told = [e for e in events if not cut or Event.from_json(e).visible_to(seat_view)]
        # who asked for a hint is their own business until the end (the table is only told the game is unrated)
        hint = n - 1 in stored.hinted_moves and (not cut or seat == seat_view)
        step = {"n": n, "seat": seat, "action": notation, "by": by,
                "flags": {"timer": by == "timer", "ai": by == "ai", "hint": hint}, "events": copy.deepcopy(told)}
        if cut:
            step["views"] = views()
        steps.append(step)
    players = [{"seat": s, "name": p["name"], "ai": p.get("ai"), "resigned": bool(p.get("resigned"))}
               for s, p in enumerate(stored.players)]
    return {
        "format": FORMAT, "version": VERSION, "game": game.name, "title": game.title, "game_id": stored.id,
        "options": copy.deepcopy(stored.options), "players": players, "status": stored.status,
        "audience": audience, "seed": stored.seed if not cut else None,
        "started_at": _stamp(stored.started_at), "ended_at": _stamp(stored.ended_at), "hinted": stored.hinted,
        "start": start, "steps": steps, "result": _result(stored),
    }


async def load_game(uow, game_id: int) -> StoredGame | None:
    """The game ``game_id`` as a StoredGame (None: no such game, or a lobby or aborted table, which has no
    record). Seat names as the table read them: the stored result's, else named in the chat's language."""
    row = await uow.games.get(game_id)
    if row is None or row.status not in ("active", "finished") or row.state is None:
        return None
    chat = await uow.chats.get(row.chat_id)
    by_position = seat_names(row.seats, chat_language(chat.settings) if chat is not None else None)
    seated = sorted((s for s in row.seats if s.seat is not None), key=lambda s: s.seat)
    told = (row.result or {}).get("names") or []
    players = [{"name": told[s.seat] if s.seat < len(told) else by_position[s.position],
                "ai": (s.ai_level or "greedy") if s.player_id is None else (s.ai_level if s.resigned else None),
                "resigned": s.resigned, "player_id": s.player_id} for s in seated]
    logged = [m for m in await uow.games.moves(game_id) if not m.taken_back]  # the game as it stands after undos
    moves = [(m.seat, m.action, list(m.events or []), m.by) for m in logged]
    # the start: when the lobby started (stored since migration 0008), else the first move's time
    started = row.started_at or (logged[0].created_at if logged else None)
    stored = StoredGame(id=row.id, game=row.game, options=dict(row.options or {}), seed=row.seed,
                        status=row.status, players=players, moves=moves, started_at=started,
                        ended_at=row.finished_at, result=row.result, rated=row.rated, hinted=row.hinted,
                        hinted_moves={k for k, m in enumerate(logged) if m.hinted}, chat_id=row.chat_id,
                        reveal_after_end=(chat.settings or {}).get("reveal_after_end", "on") != "off" if chat else True)
    if row.status == "finished":
        for change in await uow.leagues.changes_of_game(game_id):
            seat = stored.seat_of_player(change.player_id)
            if seat is not None:
                stored.ratings[seat] = {"mu_before": change.mu_before, "sigma_before": change.sigma_before,
                                        "mu_after": change.mu_after, "sigma_after": change.sigma_after}
    return stored

