"""Boards: the seeded deals a duplicate match replays in every seating.

A **board** is one deal in the game's deal notation (``state.deal()``: the dealer, the hands, and where the game has
them the blind / talon packets, the turn-up and the stock order top first) plus where it came from (the seed and
deal id that generated it). Every seating of a duplicate match starts from ``game.new_initial_state(deal=...)`` of
the same board, so every agent sees exactly the same cards from the same seat.

In-episode randomness:

* **Troccas** redeals (throw-in votes, the dealer's forced redeal) draw new card orders inside the episode. For a
  seeded deal the generator state lives in the row (slot ``RNG``) and continues the ``(seed, deal_id)`` stream;
  every redeal shuffles a fresh identity order with :func:`tarockrl.engine.shuffle.shuffle_prefix_pairs`. A board
  therefore stores the ``max_redeals`` redeal orders that stream would produce under ``"redeals"`` (the notation's
  supplied-redeals list), so a board replays exactly the episode of ``new_initial_state(seed, deal_id)`` whatever
  the actions. (A deal dict without supplied redeals would still replay deterministically: the engine then seeds
  the generator from the dict's contents; but it would not match the seeded deal.)
* **Tatteln** keeps the whole shuffle in the row; the notation's ``turn_up`` and ``stock`` (top first) give it
  back exactly. Dreierles and Dreiertarock have no randomness after the deal.

A **board set** is a JSON-lines file: a header line ``{"format": "tarockrl-boards", "version": 1, "game": ...,
"options": {...}, "seed": ..., "count": ...}`` then one line per board ``{"board": i, "seed": s, "deal_id": d,
"deal": {...}}``. Shipped sets (``tarockrl/evaluation/boards/<game>-{bench,dev}.jsonl.gz``, gzipped JSON
lines) are frozen; they
were written by ``python -m tarockrl.evaluation --write`` (see :data:`SHIPPED`).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tarockrl.errors import TarockError, WrongGameError

__all__ = [
    "Board",
    "BadBoardFileError",
    "SHIPPED",
    "generate_boards",
    "load_boards",
    "save_boards",
    "shipped_boards",
    "board_state",
    "boards_digest",
    "resolve_board_set",
]

FORMAT = "tarockrl-boards"
VERSION = 1
BOARDS_DIR = Path(__file__).resolve().parent / "boards"

SHIPPED: dict[str, dict[str, int]] = {
    "bench": {"seed": 20261201, "count": 500},
    "dev": {"seed": 777, "count": 200},
}
"""The shipped board sets: ``name -> {seed, count}`` (the same for every game, default rules options)."""


class BadBoardFileError(TarockError):
    """A board file that cannot be read, is not a board set, belongs to another game or holds an invalid deal."""


@dataclass(frozen=True)
class Board:
    """One board: a deal in the game's notation, its index in its set and the seed/deal id that made it."""

    index: int
    deal: dict = field(hash=False, compare=True)
    seed: int | None = None
    deal_id: int | None = None

    def to_json(self) -> dict:
        """The board as one JSON-lines record."""
        out: dict[str, Any] = {"board": self.index}
        if self.seed is not None:
            out["seed"] = self.seed
            out["deal_id"] = self.deal_id
        out["deal"] = self.deal
        return out


def _troccas_redeals(game, state) -> list:
    """The redeal orders the seeded stream of a fresh Troccas state would draw (as hands, for the notation)."""
    from tarockrl.engine.shuffle import shuffle_prefix_pairs
    from tarockrl.games.troccas import layout as L
    from tarockrl.games.troccas.rules import TroccasRules  # noqa: F401  (documents where max_redeals lives)
    from tarockrl.games.troccas.text import _order_to_hands

    row = state.row
    rng = np.int64(row[L.RNG])
    dealer = int(row[L.DEALER])
    out = []
    for _ in range(int(game.rules.max_redeals)):
        perm = np.arange(78, dtype=np.int64)
        rng = shuffle_prefix_pairs(rng, perm, np.int64(78))
        out.append(_order_to_hands(perm, dealer))
    return out


def board_from_seed(game, seed: int, deal_id: int, index: int | None = None) -> Board:
    """The board of ``game.new_initial_state(seed=seed, deal_id=deal_id)``, including any redeal stream."""
    state = game.new_initial_state(seed=seed, deal_id=deal_id)
    deal = state.deal()
    if game.name == "troccas" and int(game.rules.max_redeals) > 0:
        deal["redeals"] = _troccas_redeals(game, state)
    return Board(index=deal_id if index is None else index, deal=deal, seed=int(seed), deal_id=int(deal_id))


def generate_boards(game, n: int, seed: int, first: int = 0) -> list[Board]:
    """``n`` boards ``deal(seed, first + i)`` (indices ``first .. first + n - 1``)."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise TarockError(f"the number of boards must be a non-negative integer, got {n!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TarockError(f"the board seed must be an integer, got {seed!r}")
    return [board_from_seed(game, int(seed), first + i) for i in range(int(n))]


def board_state(game, board: Board):
    """A fresh state of ``board`` (raises ``BadDealError`` if the deal does not fit the game's options)."""
    return game.new_initial_state(deal=board.deal)


def _non_default_options(game) -> dict:
    import dataclasses

    return {
        f.name: getattr(game.rules, f.name)
        for f in dataclasses.fields(game.rules)
        if getattr(game.rules, f.name) != f.default
    }


def save_boards(path: str | os.PathLike, game, boards: list[Board], seed: int | None = None) -> None:
    """Write ``boards`` as a board-set file (header line, then one board per line)."""
    header = {"format": FORMAT, "version": VERSION, "game": game.name, "options": _non_default_options(game),
              "seed": seed, "count": len(boards)}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(header, separators=(",", ":")) + "\n"
    text += "".join(json.dumps(b.to_json(), separators=(",", ":")) + "\n" for b in boards)
    if path.suffix == ".gz":  # gzip without a timestamp, so the same boards give the same bytes
        path.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
    else:
        path.write_text(text, encoding="utf-8")


def load_boards(path: str | os.PathLike, game, check: bool = True) -> list[Board]:
    """Read a board-set file for ``game``; every deal is checked against the game (``check=True``).

    Raises :class:`BadBoardFileError` naming the file and line for anything wrong, and ``WrongGameError`` when the
    file holds boards of another game.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
        text = (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode("utf-8")
    except (OSError, UnicodeDecodeError, EOFError, zlib.error) as err:
        raise BadBoardFileError(f"cannot read board file {str(path)!r}: {err}") from None
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise BadBoardFileError(f"board file {str(path)!r} is empty")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as err:
        raise BadBoardFileError(f"{path}:1: not JSON ({err.msg}); a board file starts with a header line") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise BadBoardFileError(
            f"{path}:1: not a board-set header (expected {{\"format\": \"{FORMAT}\", \"game\": ..., ...}})"
        )
    if header.get("version") != VERSION:
        raise BadBoardFileError(f"{path}:1: board-set version {header.get('version')!r} is not supported")
    if header.get("game") != game.name:
        raise WrongGameError(f"board file {str(path)!r} holds boards of {header.get('game')!r}, not {game.name!r}")
    boards: list[Board] = []
    seen: set[int] = set()
    for lineno, line in enumerate(lines[1:], start=2):
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as err:
            raise BadBoardFileError(f"{path}:{lineno}: not JSON ({err.msg})") from None
        if not isinstance(rec, dict) or not isinstance(rec.get("deal"), dict):
            raise BadBoardFileError(f"{path}:{lineno}: a board line is {{\"board\": i, \"deal\": {{...}}}}")
        index = rec.get("board", len(boards))
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise BadBoardFileError(f"{path}:{lineno}: board index must be a non-negative integer, got {index!r}")
        if index in seen:
            raise BadBoardFileError(f"{path}:{lineno}: board index {index} appears twice")
        seen.add(index)
        board = Board(index=index, deal=rec["deal"], seed=rec.get("seed"), deal_id=rec.get("deal_id"))
        if check:
            try:
                board_state(game, board)
            except TarockError as err:
                raise BadBoardFileError(f"{path}:{lineno}: board {index}: {err}") from None
        boards.append(board)
    if header.get("count") is not None and header["count"] != len(boards):
        raise BadBoardFileError(f"{path}: header says {header['count']} boards, the file holds {len(boards)}")
    return boards


def shipped_path(game_name: str, name: str) -> Path:
    """Path of a shipped board set (``bench`` or ``dev``) of a game."""
    return BOARDS_DIR / f"{game_name}-{name}.jsonl.gz"


def shipped_boards(game, name: str = "bench") -> list[Board]:
    """The shipped ``bench`` or ``dev`` set of ``game`` (default rules options only)."""
    if name not in SHIPPED:
        raise BadBoardFileError(f"unknown shipped board set {name!r}; shipped sets: {', '.join(SHIPPED)}")
    path = shipped_path(game.name, name)
    if not path.exists():
        raise BadBoardFileError(f"no shipped {name} board set for {game.name!r} ({path} is missing)")
    return load_boards(path, game)


def resolve_board_set(game, spec: str, n: int) -> tuple[list[Board], str]:
    """The first ``n`` boards of ``spec``: ``bench``, ``dev``, ``seed=S`` (generated) or a board-file path.

    Returns the boards and a description of the source.
    """
    spec = spec.strip()
    if spec.startswith("seed="):
        try:
            seed = int(spec[5:])
        except ValueError:
            raise BadBoardFileError(f"board set {spec!r}: seed=S needs an integer S") from None
        return generate_boards(game, n, seed), f"generated from seed {seed}"
    if spec in SHIPPED:
        path = shipped_path(game.name, spec)
        if not path.exists():
            raise BadBoardFileError(f"no shipped {spec} board set for {game.name!r} ({path} is missing)")
        source = f"shipped {spec} set ({path.name})"
    else:
        path = Path(spec)
        source = f"file {spec}"
    boards = load_boards(path, game, check=False)
    if n > len(boards):
        raise BadBoardFileError(
            f"the {source} holds {len(boards)} boards, fewer than the {n} asked for; ask for fewer boards or "
            f"generate them with --board-set seed=S"
        )
    for i, board in enumerate(boards[:n]):  # check only the boards that will be played
        try:
            board_state(game, board)
        except TarockError as err:
            raise BadBoardFileError(f"{path}: board {board.index} (line {i + 2}): {err}") from None
    return boards[:n], source


def boards_digest(boards: list[Board]) -> str:
    """A SHA-256 of the boards' canonical JSON (identifies a board list, e.g. to check a resumed run)."""
    h = hashlib.sha256()
    for b in boards:
        h.update(json.dumps(b.to_json(), sort_keys=True, separators=(",", ":")).encode())
        h.update(b"\n")
    return h.hexdigest()


def write_shipped(games: list[str] | None = None) -> list[Path]:
    """(Re)write the shipped bench and dev sets of ``games`` (all by default); returns the paths written."""
    import tarockrl

    written = []
    for name in games or tarockrl.list_games():
        game = tarockrl.make_game(name)
        for set_name, spec in SHIPPED.items():
            path = shipped_path(name, set_name)
            save_boards(path, game, generate_boards(game, spec["count"], spec["seed"]), seed=spec["seed"])
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m tarockrl.evaluation``: write the shipped sets, or a board set from a seed."""
    import tarockrl

    p = argparse.ArgumentParser(prog="python -m tarockrl.evaluation", description=main.__doc__)
    p.add_argument("--write", action="store_true", help="rewrite the shipped bench and dev sets of every game")
    p.add_argument("--game", help="with --out: the game of the board set")
    p.add_argument("--boards", type=int, default=100, help="with --out: number of boards")
    p.add_argument("--seed", type=int, default=0, help="with --out: seed of the deals")
    p.add_argument("--out", help="write a board set generated from --seed to this file (.gz: gzipped)")
    args = p.parse_args(argv)
    if args.write:
        for path in write_shipped():
            print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    if args.out:
        game = tarockrl.make_game(args.game or "dreierles")
        save_boards(args.out, game, generate_boards(game, args.boards, args.seed), seed=args.seed)
        print(f"wrote {args.out}")
    if not (args.write or args.out):
        p.print_help()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
