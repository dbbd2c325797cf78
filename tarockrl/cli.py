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
from tarockrl.errors import TarockError


def _parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``["key=value", ...]`` to a dict; values are read as YAML scalars (numbers, true/false, lists)."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise TarockError(f"rules option {pair!r} must look like name=value")
        key, _, raw = pair.partition("=")
        options[key.strip()] = yaml.safe_load(raw)
    return options


def _add_game_args(p: argparse.ArgumentParser, default_game: str | None = "dreierles") -> None:
    p.add_argument("--game", default=default_game,
                   help=f"one of {', '.join(tarockrl.list_games())} (default dreierles)")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                   help="a rules option of the game (repeatable), e.g. -o raeuber_restrictions=none")


def play_random_deals(game, deals: int, seed: int, chunk: int = 4096, progress: bool = True):
    """Play ``deals`` deals with uniformly random legal actions through the batch API.

    Returns ``(returns[deals, players], lengths[deals])``. Deal ``i`` is ``deal(seed, i)``.
    """
    from tqdm import tqdm

    returns = np.zeros((deals, game.num_players))
    lengths = np.zeros(deals, dtype=np.int64)
    with tqdm(total=deals, unit="deal", disable=not progress, file=sys.stderr) as bar:
        for start in range(0, deals, chunk):
            n = min(chunk, deals - start)
            batch = game.new_batch(n, seed=seed, first_deal_id=start)
            step = 0
            while True:
                # a distinct random stream per (chunk, step): steps never exceed the episode bound
                step_no = start * (game.max_episode_length + 1) + step
                actions = batch.random_actions(seed=seed + 1, step_no=step_no)
                live = actions >= 0
                if not live.any():
                    break
                lengths[start : start + n] += live
                batch.step(actions)
                step += 1
            returns[start : start + n] = batch.returns()
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


def load_play_config(path: str) -> dict[str, Any]:
    """Read a play config (YAML: game, deals, seed, options); unknown keys raise ``BadOptionError``."""
    from tarockrl.errors import BadOptionError

    try:
        with open(path, encoding="utf-8") as fh:
            data = yaml.safe_load(fh) or {}
    except OSError as err:
        raise BadOptionError(f"cannot read config {path!r}: {err}") from None
    except yaml.YAMLError as err:
        raise BadOptionError(f"config {path!r} is not valid YAML: {err}") from None
    if not isinstance(data, dict):
        raise BadOptionError(f"config {path!r} must be a mapping with keys game, deals, seed, options")
    unknown = sorted(set(data) - {"game", "deals", "seed", "options"})
    if unknown:
        raise BadOptionError(f"config {path!r}: unknown key(s) {unknown}; allowed: game, deals, seed, options")
    if not isinstance(data.get("options", {}) or {}, dict):
        raise BadOptionError(f"config {path!r}: options must be a mapping of rules options")
    return data


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
    args.deals = int(args.deals if args.deals is not None else config.get("deals", 1000))
    args.seed = int(args.seed if args.seed is not None else config.get("seed", 0))
    options.update(config.get("options") or {})
    options.update(_parse_options(args.option))
    if args.deals < 1:
        raise TarockError("--deals must be at least 1")
    game = tarockrl.make_game(args.game, **options)
    returns, lengths = play_random_deals(game, args.deals, args.seed, progress=not args.quiet)
    print(f"{game!r}: random legal play, seed {args.seed}")
    print(result_table(returns, lengths))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """``tarockrl show``: one whole deal as a transcript."""
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
    p.add_argument("--deals", type=int, default=None, help="number of deals (default 1000)")
    p.add_argument("--seed", type=int, default=None, help="seed of the deals and of the random agents (default 0)")
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
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--deal-id", type=int, default=0)
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("bench", help="engine benchmark (deals/s, API steps/s, start-up)")
    p.add_argument("--game", action="append")
    p.add_argument("--deals", type=int, default=200_000)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--no-startup", action="store_true")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("selfcheck", help="invariant sweeps over random deals")
    p.add_argument("--game", action="append")
    p.add_argument("--deals", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_selfcheck)

    p = sub.add_parser("warmup", help="compile every kernel ahead of time (fills the cache)")
    p.add_argument("--game", action="append")
    p.set_defaults(func=cmd_warmup)

    p = sub.add_parser("serve", help="play in the browser: a local web app (docs/play.md)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.set_defaults(func=lambda a: __import__("tarockrl.web.app", fromlist=["serve"]).serve(a.host, a.port))

    p = sub.add_parser("games", help="list the games")
    p.add_argument("--options", action="store_true", help="also list every rules option")
    p.set_defaults(func=cmd_games)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``tarockrl`` console command."""
    args = build_parser().parse_args(argv)
    if (getattr(args, "deals", 1) or 1) < 1:
        print("tarockrl: error: --deals must be at least 1", file=sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except TarockError as err:
        print(f"tarockrl: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `tarockrl show | head`
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
