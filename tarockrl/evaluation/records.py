"""Game records: one played game as JSON (the deal in the notation, the actions, the agents and their seeds).

Format (one JSON object; a records file holds one object per line, JSON lines)::

    {"format": "tarockrl-record", "version": 1,
     "game": "dreierles", "options": {},            # rules options that differ from the defaults
     "board": 17, "board_seed": 20261201, "deal_id": 17,   # where the board came from (seed/deal id may be null)
     "deal": {...},                                 # the board in the game's deal notation (replays exactly)
     "seating": "AAB",                              # which agent of the pair sat where (optional)
     "agents": ["random", "random", "rules"],       # agent spec per seat
     "seeds": [..., ..., ...],                      # agent seed per seat
     "match_seed": 0,
     "actions": [1, 0, 0, ...],                     # every action from the deal to the end, forced ones included
     "returns": [2.0, 2.0, -4.0]}                   # the settlement (checked when replayed)

``replay_record(record)`` rebuilds the game and plays the actions from the deal; ``tarockrl show --record FILE``
prints the transcript. ``tarockrl eval --records`` writes ``records.jsonl`` with one record per played game.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tarockrl.errors import TarockError

__all__ = ["make_record", "read_records", "replay_record", "BadRecordError", "FORMAT", "VERSION"]

FORMAT = "tarockrl-record"
VERSION = 1
_REQUIRED = ("game", "deal", "actions")


class BadRecordError(TarockError):
    """A game record that cannot be read or does not replay (wrong format, illegal action, other settlement)."""


def make_record(game: Any, board: Any, actions: list[int], agents: list[str], seeds: list[int],
                pattern: str | None = None, returns: list[float] | None = None, match_seed: int | None = None
                ) -> dict[str, Any]:
    """A record of one game of ``board`` (a :class:`tarockrl.evaluation.boards.Board`)."""
    from tarockrl.evaluation.boards import _non_default_options

    return {
        "format": FORMAT, "version": VERSION, "game": game.name, "options": _non_default_options(game),
        "board": board.index, "board_seed": board.seed, "deal_id": board.deal_id, "deal": board.deal,
        "seating": pattern, "agents": list(agents), "seeds": [int(s) for s in seeds], "match_seed": match_seed,
        "actions": [int(a) for a in actions], "returns": list(returns) if returns is not None else None,
    }


def read_records(path: str | os.PathLike) -> list[dict[str, Any]]:
    """Every record of a file (JSON lines, or one JSON object / a JSON list of them)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise BadRecordError(f"cannot read record file {str(path)!r}: {err}") from None
    text = text.strip()
    if not text:
        raise BadRecordError(f"record file {str(path)!r} is empty")
    records: list[Any]
    try:
        whole = json.loads(text)
        records = whole if isinstance(whole, list) else [whole]
    except json.JSONDecodeError:
        records = []
        for lineno, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as err:
                raise BadRecordError(f"{path}:{lineno}: not JSON ({err.msg})") from None
    for i, rec in enumerate(records):
        if not isinstance(rec, dict) or rec.get("format") != FORMAT:
            raise BadRecordError(f"{path}: entry {i} is not a game record (expected \"format\": \"{FORMAT}\")")
        if rec.get("version") != VERSION:
            raise BadRecordError(f"{path}: entry {i} has record version {rec.get('version')!r}, expected {VERSION}")
        missing = [k for k in _REQUIRED if k not in rec]
        if missing:
            raise BadRecordError(f"{path}: entry {i} lacks {', '.join(missing)}")
    return records


def replay_record(record: dict[str, Any], check_returns: bool = True):
    """The terminal state of a record, replayed from its deal; raises :class:`BadRecordError` if it does not fit."""
    import numpy as np

    import tarockrl

    try:
        game = tarockrl.make_game(record["game"], **(record.get("options") or {}))
        state = game.new_initial_state(deal=record["deal"])
    except TarockError as err:
        raise BadRecordError(f"record of board {record.get('board')}: {err}") from None
    for i, a in enumerate(record["actions"]):
        try:
            state.apply_action(a)
        except TarockError as err:
            raise BadRecordError(f"record of board {record.get('board')}: action {i}: {err}") from None
    if check_returns and record.get("returns") is not None:
        if not state.is_terminal():
            raise BadRecordError(f"record of board {record.get('board')}: the actions end before the deal does")
        if not np.allclose(state.returns(), record["returns"]):
            raise BadRecordError(
                f"record of board {record.get('board')}: replay settles {state.returns().tolist()}, the record says "
                f"{record['returns']}"
            )
    return state


def show_record(path: str, index: int = 0) -> str:
    """The text ``tarockrl show --record FILE`` prints: a header line and the replayed transcript."""
    records = read_records(path)
    if not -len(records) <= index < len(records):
        raise BadRecordError(f"{path} holds {len(records)} record(s); --index {index} is out of range")
    rec = records[index]
    state = replay_record(rec)
    agents = rec.get("agents") or []
    head = [f"record {index % len(records)} of {len(records)} in {path}: {rec['game']}, board {rec.get('board')}"
            + (f", seating {rec['seating']}" if rec.get("seating") else "")]
    if agents:
        seeds = rec.get("seeds") or [None] * len(agents)
        head.append("agents: " + ", ".join(f"seat {s} {a} (seed {sd})" for s, (a, sd) in enumerate(zip(agents, seeds,
                                                                                                      strict=False))))
    return "\n".join(head) + "\n" + state.transcript()
