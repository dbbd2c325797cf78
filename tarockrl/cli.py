"""The ``tarockrl`` command: play random deals, show a deal, benchmark, self-check.

Examples::

    tarockrl play --game dreierles --deals 1000
    tarockrl show --game dreierles --seed 7
    tarockrl bench --game dreierles
    tarockrl selfcheck --deals 20000
    tarockrl games
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

import numpy as np
import yaml

import tarockrl
from tarockrl.errors import BadOptionError, TarockError

MAX_SEED = 2**63 - 2
"""Largest seed the commands accept (``seed + 1`` keys the random agents' stream and must stay an int64)."""
MAX_DEAL_ID = 2**63 - 1
MAX_DEALS = 10_000_000
"""Most deals one ``play`` run keeps in memory (per-deal settlements for the result table)."""
MAX_SECONDS = 3600.0


# -- argument types: each raises ArgumentTypeError with a message naming the value ----------------------------
def bounded_int(lo: int, hi: int, what: str = "an integer"):
    """An argparse ``type`` accepting integers in ``[lo, hi]`` (written in decimal)."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip().replace("_", ""), 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what} (an integer in [{lo}, {hi}])") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{value} is out of range: expected {what} in [{lo}, {hi}]")
        return value

    parse.__name__ = what  # argparse names the type in its messages
    return parse


seed_arg = bounded_int(0, MAX_SEED, "a seed")
deal_id_arg = bounded_int(0, MAX_DEAL_ID, "a deal id")
deals_arg = bounded_int(1, MAX_DEALS, "a number of deals")


def seconds_arg(text: str) -> float:
    """An argparse ``type``: a finite number of seconds in ``(0, MAX_SECONDS]``."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"{text!r} is out of range: expected seconds in (0, {MAX_SECONDS:g}]")
    return value


def game_arg(text: str) -> str:
    """An argparse ``type``: the name of a registered game."""
    key = text.strip().lower()
    if key not in tarockrl.list_games():
        raise argparse.ArgumentTypeError(f"unknown game {text!r}; available games: {', '.join(tarockrl.list_games())}")
    return key


def _parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``["key=value", ...]`` to a dict; values are read as YAML scalars (numbers, true/false, lists)."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise BadOptionError(f"rules option {pair!r} must look like name=value")
        key, _, raw = pair.partition("=")
        try:
            options[key.strip()] = yaml.safe_load(raw)
        except yaml.YAMLError as err:
            reason = str(getattr(err, "problem", None) or err).strip()
            raise BadOptionError(f"rules option {key.strip()!r}: cannot read the value {raw!r} ({reason})") from None
    return options


def _add_game_args(p: argparse.ArgumentParser, default_game: str | None = "dreierles") -> None:
    p.add_argument("--game", default=default_game, type=game_arg,
                   help=f"one of {', '.join(tarockrl.list_games())} (default dreierles)")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                   help="a rules option of the game (repeatable), e.g. -o raeuber_restrictions=none")


def play_random_deals(game, deals: int, seed: int, chunk: int = 65536, progress: bool = True):
    """Play ``deals`` deals with uniformly random legal actions (the engine's ``random_playouts`` driver).

    Returns ``(returns[deals, players], lengths[deals])``. Deal ``i`` is ``deal(seed, i)``; the result does not
    depend on ``chunk`` (the size of the pieces between progress updates).
    """
    from tqdm import tqdm

    returns = np.zeros((deals, game.num_players))
    lengths = np.zeros(deals, dtype=np.int64)
    if progress:  # load/compile the kernels before the bar starts, so that its rate is the playing rate alone
        print("compiling/loading kernels ...", file=sys.stderr, flush=True)
        warm = game.new_batch(1, seed=seed)
        for step in range(game.max_episode_length + 1):
            if warm.random_actions(seed=seed, step_no=step)[0] < 0:
                break
            warm.step(warm.random_actions(seed=seed, step_no=step))
        warm.returns()
    with tqdm(total=deals, unit="deal", disable=not progress, file=sys.stderr) as bar:
        for start in range(0, deals, chunk):
            n = min(chunk, deals - start)
            r, ln = game.random_playouts(n, seed=seed, return_lengths=True, first_deal_id=start)
            returns[start : start + n] = r
            lengths[start : start + n] = ln
            bar.update(n)
    return returns, lengths


def result_table(returns: np.ndarray, lengths: np.ndarray) -> str:
    """Per-seat mean settlement with a 95% confidence interval, share of deals won / lost, episode length."""
    n = returns.shape[0]
    lines = [f"{n} deals, {lengths.mean():.2f} actions per deal on average (min {lengths.min()}, "
             f"max {lengths.max()})",
             f"{'seat':>4}  {'mean GP':>9}  {'95% CI':>17}  {'std':>7}  {'won':>6}  {'lost':>6}  {'total GP':>10}"]
    for s in range(returns.shape[1]):
        r = returns[:, s]
        mean = r.mean()
        half = 1.96 * r.std(ddof=1) / math.sqrt(n) if n > 1 else float("nan")
        lines.append(f"{s:>4}  {mean:>9.3f}  [{mean - half:>7.3f}, {mean + half:>7.3f}]  {r.std():>7.2f}  "
                     f"{(r > 0).mean():>6.1%}  {(r < 0).mean():>6.1%}  {r.sum():>10.0f}")
    lines.append(f"zero-sum check: largest |sum of a deal's settlement| = {np.abs(returns.sum(axis=1)).max():g}")
    return "\n".join(lines)


def read_yaml_mapping(path: str, what: str = "config") -> dict[str, Any]:
    """Read a UTF-8 YAML file holding a mapping; any problem raises ``BadOptionError`` naming the file."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
    except UnicodeDecodeError as err:
        raise BadOptionError(f"{what} {path!r} is not UTF-8 text ({err.reason} at byte {err.start})") from None
    except OSError as err:
        raise BadOptionError(f"cannot read {what} {path!r}: {err.strerror or err}") from None
    except yaml.YAMLError as err:
        raise BadOptionError(f"{what} {path!r} is not valid YAML: {err}") from None
    if data is None:
        return {}
    if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
        raise BadOptionError(f"{what} {path!r} must be a mapping of named keys, got {type(data).__name__}")
    return data


def validate_config(model: Any, data: dict[str, Any], where: str) -> Any:
    """``model.model_validate(data)`` with pydantic's errors turned into one ``BadOptionError`` line per field."""
    import pydantic

    try:
        return model.model_validate(data)
    except pydantic.ValidationError as err:
        problems = []
        for e in err.errors():
            field = ".".join(str(x) for x in e["loc"]) or "(top level)"
            msg = "unknown key" if e["type"] == "extra_forbidden" else e["msg"]
            problems.append(f"{field}: {msg} (got {e.get('input')!r})")
        allowed = ", ".join(model.model_fields)
        raise BadOptionError(f"{where}: " + "; ".join(problems) + f" [allowed keys: {allowed}]") from None


def _play_config_model():
    from typing import Annotated

    import pydantic

    class PlayConfig(pydantic.BaseModel):
        """The schema of a ``tarockrl play --config`` file."""

        model_config = pydantic.ConfigDict(extra="forbid", strict=True)
        game: Annotated[str, pydantic.AfterValidator(_config_game)] | None = None
        deals: Annotated[int, pydantic.Field(ge=1, le=MAX_DEALS)] | None = None
        seed: Annotated[int, pydantic.Field(ge=0, le=MAX_SEED)] | None = None
        options: dict[str, Any] | None = None

    return PlayConfig


def _config_game(name: str) -> str:
    try:
        return game_arg(name)
    except argparse.ArgumentTypeError as err:
        raise ValueError(str(err)) from None


def load_play_config(path: str) -> dict[str, Any]:
    """Read a play config (YAML: game, deals, seed, options) checked against its schema.

    Unknown keys, wrong types (``deals: true``, ``deals: 10.7``, ``deals: lots``) and out-of-range values raise
    ``BadOptionError`` naming the field; the rules options are checked when the game is made.
    """
    data = read_yaml_mapping(path)
    cfg = validate_config(_play_config_model(), data, f"config {path!r}")
    return {k: v for k, v in cfg.model_dump().items() if v is not None}


def cmd_play(args: argparse.Namespace) -> int:
    """``tarockrl play``: random agents, a result table (``--human``: play one deal in the terminal)."""
    if args.human:
        from tarockrl.play.terminal import run
        return run(args.game or "dreierles", args.opponents, args.seat, args.seed, args.hint_agent, args.record,
                   options=_parse_options(args.option))
    options: dict[str, Any] = {}
    config = load_play_config(args.config) if args.config else {}
    # flags given on the command line win over the config file, which wins over the defaults
    args.game = args.game or config.get("game", "dreierles")
    args.deals = args.deals if args.deals is not None else config.get("deals", 1000)
    args.seed = args.seed if args.seed is not None else config.get("seed", 0)
    options.update(config.get("options") or {})
    options.update(_parse_options(args.option))
    game = tarockrl.make_game(args.game, **options)
    returns, lengths = play_random_deals(game, args.deals, args.seed, progress=not args.quiet)
    print(f"{game!r}: random legal play, seed {args.seed}")
    print(result_table(returns, lengths))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """``tarockrl show``: one whole deal as a transcript."""
    if getattr(args, "record", None):  # tarockrl show --record FILE (tarockrl/evaluation/cli.py)
        from tarockrl.evaluation.cli import cmd_show_record
        return cmd_show_record(args)
    game = tarockrl.make_game(args.game, **_parse_options(args.option))
    state = game.new_initial_state(seed=args.seed, deal_id=args.deal_id)
    rng = np.random.default_rng(args.seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    print(state.transcript())
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    """``tarockrl bench``: the engine benchmark."""
    from tarockrl.bench import main as bench_main

    argv = [x for g in (args.game or []) for x in ("--game", g)]
    argv += ["--deals", str(args.deals), "--seconds", str(args.seconds)]
    if args.no_startup:
        argv.append("--no-startup")
    return bench_main(argv)


def cmd_selfcheck(args: argparse.Namespace) -> int:
    """``tarockrl selfcheck``: invariant sweeps over random deals of every game."""
    failed = 0
    for name in args.game or tarockrl.list_games():
        codes = tarockrl.make_game(name).invariant_sweep(args.deals, seed=args.seed)
        bad = np.flatnonzero(codes)
        status = "ok" if bad.size == 0 else f"FAILED: deal {bad[0]} broke invariant {codes[bad[0]]}"
        print(f"{name:<14} {args.deals} random deals checked after every action: {status}")
        failed += bad.size > 0
    return 1 if failed else 0


def cmd_games(args: argparse.Namespace) -> int:
    """``tarockrl games``: the games, their sizes and rules options."""
    import dataclasses

    for name in tarockrl.list_games():
        game = tarockrl.make_game(name)
        print(f"{name}: {game.num_players} players, {game.num_actions} actions, observation "
              f"{game.observation_size} floats, state {game.state_len * 8} bytes")
        if args.options:
            for f in dataclasses.fields(game.rules):
                print(f"    {f.name} = {f.default!r}  {f.metadata.get('doc', '')}")
    return 0


def cmd_warmup(args: argparse.Namespace) -> int:
    """``tarockrl warmup``: compile every kernel ahead of time (fills numba's cache)."""
    for name, seconds in tarockrl.warmup(args.game).items():
        print(f"{name:<14} ready in {seconds:.1f} s")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``tarockrl`` command."""
    parser = argparse.ArgumentParser(prog="tarockrl", description=__doc__.split("\n")[0])
    parser.add_argument("--version", action="version", version=f"tarockrl {tarockrl.__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("play", help="play random deals and print a result table")
    _add_game_args(p, default_game=None)
    p.add_argument("--deals", type=deals_arg, default=None, help=f"number of deals, 1..{MAX_DEALS} (default 1000)")
    p.add_argument("--seed", type=seed_arg, default=None,
                   help="seed of the deals and of the random agents (default 0)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--config", help="YAML file with game, deals, seed and options (see configs/)")
    p.add_argument("--human", action="store_true", help="play one deal yourself in the terminal (docs/play.md)")
    p.add_argument("--opponents", default="random", help="with --human: agent specs, comma-separated")
    p.add_argument("--seat", type=int, default=0, help="with --human: your seat")
    p.add_argument("--record", help="with --human: game record file (JSON)")
    p.add_argument("--hint-agent", default="rules", help="with --human: the agent that answers 'hint'")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("show", help="play one deal with random agents and print its transcript")
    _add_game_args(p)
    p.add_argument("--seed", type=seed_arg, default=0, help="seed of the deal and of the random agents")
    p.add_argument("--deal-id", type=deal_id_arg, default=0, help="deal number under the seed")
    from tarockrl.evaluation.cli import add_eval_parser, add_record_args

    add_record_args(p)
    p.set_defaults(func=cmd_show)
    add_eval_parser(sub)
    from tarockrl.analyze import add_analyze_parser

    add_analyze_parser(sub)

    p = sub.add_parser("bench", help="engine benchmark (deals/s, API steps/s, start-up)")
    p.add_argument("--game", action="append", type=game_arg)
    p.add_argument("--deals", type=deals_arg, default=200_000, help="deals per timed batch")
    p.add_argument("--seconds", type=seconds_arg, default=1.0, help="minimum time per measurement")
    p.add_argument("--no-startup", action="store_true")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("selfcheck", help="invariant sweeps over random deals")
    p.add_argument("--game", action="append", type=game_arg)
    p.add_argument("--deals", type=deals_arg, default=20_000)
    p.add_argument("--seed", type=seed_arg, default=0)
    p.set_defaults(func=cmd_selfcheck)

    p = sub.add_parser("warmup", help="compile every kernel ahead of time (fills the cache)")
    p.add_argument("--game", action="append", type=game_arg)
    p.set_defaults(func=cmd_warmup)

    p = sub.add_parser("serve", help="play in the browser: a local web app (docs/play.md)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.set_defaults(func=lambda a: __import__("tarockrl.web.app", fromlist=["serve"]).serve(a.host, a.port))

    p = sub.add_parser("games", help="list the games")
    p.add_argument("--options", action="store_true", help="also list every rules option")
    p.set_defaults(func=cmd_games)

    from tarockrl.training.cli import add_parser as add_train_parser

    add_train_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``tarockrl`` console command.

    Returns the exit status: 0 ok, 1 a failed check, 2 bad input (a one-line message on stderr, never a
    traceback), 130 interrupted.
    """
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:  # argparse: --help, --version or a usage error it has already printed
        return stop.code if isinstance(stop.code, int) else 2
    try:
        return int(args.func(args) or 0)
    except (TarockError, ValueError, TypeError, OverflowError) as err:  # the API's checks of bad input
        print(f"tarockrl: error: {err}", file=sys.stderr)
        return 2
    except MemoryError:
        print("tarockrl: error: out of memory; ask for fewer deals", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("tarockrl: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `tarockrl show | head`
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
