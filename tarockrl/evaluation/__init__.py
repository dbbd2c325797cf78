"""Fair comparisons of agents: duplicate matches, confidence intervals, control variates, ratings and reports.

>>> import tarockrl
>>> from tarockrl.evaluation import duplicate_match, generate_boards
>>> game = tarockrl.make_game("tatteln")
>>> result = duplicate_match(game, ["random", "random"], generate_boards(game, 4, seed=0))
>>> result.diff["mean"]   # an agent against itself under common random numbers: exactly zero
0.0

The command ``tarockrl eval`` (:mod:`tarockrl.evaluation.cli`) runs round robins over processes, resumably, and
writes a Markdown report, ``results.json`` and plots. The method is described in ``docs/evaluation.md``.
"""

from __future__ import annotations

from tarockrl.evaluation.boards import (
    BadBoardFileError,
    Board,
    generate_boards,
    load_boards,
    resolve_board_set,
    save_boards,
    shipped_boards,
)
from tarockrl.evaluation.control import PlayoutValue, ValueFunction, known_policy, make_value_function
from tarockrl.evaluation.match import (
    MatchResult,
    card_points,
    duplicate_match,
    play_board,
    seat_seed,
    seatings,
    summarize_pair,
)
from tarockrl.evaluation.ratings import bradley_terry
from tarockrl.evaluation.records import BadRecordError, read_records, replay_record
from tarockrl.evaluation.stats import boards_needed, bootstrap_ci, normal_ci, summarize

__all__ = [
    "BadBoardFileError",
    "BadRecordError",
    "Board",
    "MatchResult",
    "PlayoutValue",
    "ValueFunction",
    "boards_needed",
    "bootstrap_ci",
    "bradley_terry",
    "card_points",
    "duplicate_match",
    "generate_boards",
    "known_policy",
    "load_boards",
    "make_value_function",
    "normal_ci",
    "play_board",
    "read_records",
    "replay_record",
    "resolve_board_set",
    "round_robin",
    "run_eval",
    "save_boards",
    "seat_seed",
    "seatings",
    "shipped_boards",
    "summarize",
    "summarize_pair",
]


def run_eval(*args, **kwargs):
    """:func:`tarockrl.evaluation.runner.run_eval` (imported on first use)."""
    from tarockrl.evaluation.runner import run_eval as _run

    return _run(*args, **kwargs)


def round_robin(game, agents, boards, out_dir, **kwargs):
    """Every pair of ``agents`` in a duplicate match on ``boards``: pairwise matrix and Bradley–Terry ratings.

    A thin name for :func:`run_eval` (keywords as there: ``seed``, ``jobs``, ``control_variate``, ...); returns the
    summary dict (``pairs``, ``matrix``, ``ratings``) also written to ``out_dir/results.json``.
    """
    if isinstance(game, str):
        import tarockrl

        game = tarockrl.make_game(game)
    return run_eval(game, list(agents), list(boards), out_dir, **kwargs)
