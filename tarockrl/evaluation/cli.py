"""``tarockrl eval`` and ``tarockrl show --record``: the command-line side of :mod:`tarockrl.evaluation`.

Examples::

    tarockrl eval --game dreierles --agents random,rules --boards 200 --out runs/first-eval
    tarockrl eval --game troccas --agents random,rules,pimc:worlds=16 --board-set seed=1 --boards 2000 --out DIR
    tarockrl show --record DIR/records.jsonl --index 3
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tarockrl.errors import BadAgentSpecError, TarockError

__all__ = ["add_eval_parser", "add_record_args", "cmd_eval", "cmd_show_record", "default_out_dir", "split_agents"]


def split_agents(text: str) -> list[str]:
    """Split ``"random,rules,pimc:worlds=16,rollout=rules"`` into agent specs.

    Commas separate agents, except that a ``key=value`` part without a ``:`` continues the spec before it, and
    commas inside ``[...]`` never split.
    """
    parts, depth, cur = [], 0, []
    for ch in text:
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    specs: list[str] = []
    for part in parts:
        if not part:
            raise BadAgentSpecError(f"--agents {text!r}: an empty agent spec (two commas in a row?)")
        if "=" in part and ":" not in part.split("=", 1)[0] and specs and ":" in specs[-1]:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def add_eval_parser(sub: Any) -> argparse.ArgumentParser:
    """Register the ``eval`` subcommand on an ``argparse`` subparsers object."""
    import tarockrl

    p = sub.add_parser("eval", help="duplicate match / round robin between agents, with CIs, ratings and a report",
                       description="Compare agents fairly: every board in every fair seating, common random "
                                   "numbers, bootstrap CIs, Bradley-Terry ratings. Resumable: run the same command "
                                   "again to continue a killed run.")
    p.add_argument("--game", default="dreierles", help=f"one of {', '.join(tarockrl.list_games())}")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="a rules option (repeatable)")
    p.add_argument("--agents", required=True, action="append",
                   help="agent specs separated by commas, e.g. random,rules (two or more; repeatable)")
    p.add_argument("--boards", type=int, default=200, help="number of boards (default 200)")
    p.add_argument("--board-set", default="bench",
                   help="bench (default), dev, seed=S (generate from seed S) or a board-file path")
    p.add_argument("--out", help="output directory (report.md, results.json, plots/, results.jsonl); default "
                                  "runs/eval/<game>-<hash of the settings>, so the same command resumes the same run")
    p.add_argument("--seed", type=int, default=0, help="agent seed of the match (common random numbers)")
    p.add_argument("--jobs", type=int, default=None, help="worker processes (default: CPU count; 1: this process)")
    p.add_argument("--control-variate", default="none",
                   help="none (default) or playout[:rollouts=K]: action correction with reference playouts")
    p.add_argument("--records", action="store_true", help="also write every played game to records.jsonl")
    p.add_argument("--half-width", default="10%",
                   help="report the boards needed for a 95%% CI of this half-width: game points (e.g. 1) or a "
                        "percentage of the mean difference's size (default 10%%)")
    p.add_argument("--bootstrap", type=int, default=2000, help="bootstrap resamples (default 2000)")
    p.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--backend", choices=["local", "ray"],
                   help="local worker processes (default) or ray: boards spread over Ray actors (docs/ray.md)")
    p.add_argument("--ray-address", help="the Ray cluster to join (auto, HOST:PORT; implies --backend ray); "
                                         "default: a local Ray instance")
    p.set_defaults(func=cmd_eval)
    return p


def cmd_eval(args: argparse.Namespace) -> int:
    """``tarockrl eval``: run (or resume) the evaluation and print the table."""
    import tarockrl
    from tarockrl.cli import _parse_options
    from tarockrl.evaluation.boards import resolve_board_set
    from tarockrl.evaluation.runner import run_eval

    if args.boards < 1:
        raise TarockError("--boards must be at least 1")
    if args.jobs is not None and args.jobs < 1:
        raise TarockError("--jobs must be at least 1")
    if args.ray_address and args.backend == "local":
        raise TarockError("--ray-address is for --backend ray")
    backend = "ray" if args.ray_address else (args.backend or "local")
    if args.bootstrap < 0:
        raise TarockError("--bootstrap must be non-negative")
    from tarockrl.evaluation.match import resolve_half_width

    resolve_half_width(args.half_width, [1.0])  # validate early
    specs = [s for text in args.agents for s in split_agents(text)]
    game = tarockrl.make_game(args.game, **_parse_options(args.option))
    boards, source = resolve_board_set(game, args.board_set, args.boards)
    cv = None if args.control_variate.strip().lower() in ("", "none", "off") else args.control_variate.strip()
    if args.out is None:
        args.out = default_out_dir(args.game, specs, args.boards, args.board_set, args.seed, args.option, cv)
        print(f"results go to {args.out} (--out to choose)")
    summary = run_eval(game, specs, boards, args.out, seed=args.seed, jobs=args.jobs, control_variate=cv,
                       records=args.records, resamples=args.bootstrap, half_width=args.half_width,
                       progress=not args.quiet, board_source=source, plots=not args.no_plots,
                       backend=backend, ray_address=args.ray_address)
    print(text_table(summary))
    print(f"report: {args.out}/report.md   every number: {args.out}/results.json")
    return 0


def default_out_dir(game: str, specs: list[str], boards: int, board_set: str, seed: int,
                    options: list[str] | None, control_variate: str | None) -> str:
    """The output directory ``tarockrl eval`` uses without ``--out``: ``runs/eval/<game>-<12 hex digits>``.

    The digits hash every setting that changes the results, so running the same command again resumes the same run
    and a different command never mixes its results into another's directory.
    """
    import hashlib
    import json

    key = json.dumps([game, specs, boards, board_set, seed, sorted(options or []), control_variate])
    return f"runs/eval/{game}-{hashlib.sha256(key.encode()).hexdigest()[:12]}"


def _ci(c: list) -> str:
    return "[" + format(c[0], ".3f") + ", " + format(c[1], ".3f") + "]"


def text_table(summary: dict) -> str:
    """The table printed at the end of ``tarockrl eval``."""
    s = summary["settings"]
    h = summary["pairs"][0]["game_points"].get("half_width")
    lines = [f"{s['game']}: {s['boards']} boards ({s.get('board_source')}), every board in every fair seating; "
             f"per-board difference A - B in game points"]
    lines.append(f"{'A vs B':<30} {'mean':>8} {'SE':>6} {'95% CI (bootstrap)':>20} {'A wins':>7} {'ties':>6} "
                 f"{'B wins':>7} {'boards for ±' + (format(h, '.3g') if h else 'h'):>15}")
    for p in summary["pairs"]:
        g = p["game_points"]
        lines.append(f"{p['a'] + ' vs ' + p['b']:<30} {g['mean']:>8.3f} {g['se']:>6.3f} {_ci(g['ci_bootstrap']):>20} "
                     f"{g['win']:>7.1%} {g['tie']:>6.1%} {g['loss']:>7.1%} {g.get('boards_needed') or '-':>15}"
                     + (f" (±{g['half_width']:.3g})" if len(summary["pairs"]) > 1 and g.get("half_width") else ""))
        if p.get("control_variate"):
            c, f = p["control_variate"], p["control_variate_fitted"]
            red = p["variance_reduction"]
            change = f"   variance {-red:+.0%}" if red is not None else ""
            lines.append(f"{'  control variate (β=1)':<30} {c['mean']:>8.3f} {c['se']:>6.3f} "
                         f"{_ci(c['ci_bootstrap']):>20}{change}")
            lines.append(f"{'  control variate (fitted β)':<30} {f['mean']:>8.3f} {f['se']:>6.3f} "
                         f"{_ci(f['ci_bootstrap']):>20}   variance {-f['variance_reduction']:+.0%} "
                         f"(β={f['beta']:.2f})")
        if p.get("card_points"):
            c = p["card_points"]
            lines.append(f"{'  card points':<30} {c['mean']:>8.3f} {c['se']:>6.3f} {_ci(c['ci_bootstrap']):>20}")
    r = summary["ratings"]
    if len(summary["labels"]) > 2:
        lines.append("ratings (Bradley-Terry, Elo scale): " + ", ".join(
            f"{summary['labels'][i]} {r['rating'][i]:+.0f} [{r['ci_low'][i]:+.0f}, {r['ci_high'][i]:+.0f}]"
            for i in range(len(summary["labels"]))))
    return "\n".join(lines)


def add_record_args(p: argparse.ArgumentParser) -> None:
    """Add ``--record FILE`` and ``--index K`` to the ``show`` subcommand."""
    p.add_argument("--record", help="replay a game record (JSON / JSON lines written by tarockrl eval --records)")
    p.add_argument("--index", type=int, default=0, help="with --record: which record of the file (default 0)")


def cmd_show_record(args: argparse.Namespace) -> int:
    """``tarockrl show --record FILE``: replay and print a recorded game."""
    from tarockrl.evaluation.records import show_record

    print(show_record(args.record, args.index))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run ``tarockrl eval`` alone (``python -m tarockrl.evaluation.cli ...``), with the same error handling."""
    parser = argparse.ArgumentParser(prog="tarockrl")
    add_eval_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["eval", *(argv if argv is not None else sys.argv[1:])])
    try:
        return int(args.func(args) or 0)
    except TarockError as err:
        print(f"tarockrl: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
