"""Engine benchmarks (used by ``scripts/bench_engine.py`` and ``tarockrl bench``).

Figures are reported next to a baseline measured in the same process, so that ratios stay meaningful on a
loaded or different machine: the baseline is a minimal numba loop that deals a 54-card pack to three seats
and plays 16 random tricks with follow-suit-or-trump (no bidding, no scoring, no state row) — the "toy
kernel" against which a full game engine is judged.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

import numba
import numpy as np
from numba import njit

from tarockrl.engine.bits import nth_set_index, popcount
from tarockrl.engine.rng import below, stream_seed
from tarockrl.engine.tricks import beats_highest_index, follow_or_trump

_TRUMPS = np.int64((1 << 22) - 1)
_SUIT_MASK = np.array(
    [(1 << 22) - 1 if c < 22 else 0xFF << (22 + 8 * ((c - 22) // 8)) for c in range(54)], dtype=np.int64
)
_ONE = np.int64(1)


@njit(cache=True)
def baseline_play_only(n, seed):
    """The toy baseline: ``n`` deals of 16 random tricks each; returns a checksum."""
    acc = np.int64(0)
    perm = np.empty(54, np.int64)
    for g in range(n):
        rng = stream_seed(seed, g)
        for i in range(54):
            perm[i] = i
        for i in range(53, 0, -1):
            rng, j = below(rng, i + 1)
            t = perm[i]
            perm[i] = perm[j]
            perm[j] = t
        h0 = np.int64(0)
        h1 = np.int64(0)
        h2 = np.int64(0)
        for i in range(16):
            h0 |= _ONE << perm[6 + i]
            h1 |= _ONE << perm[22 + i]
            h2 |= _ONE << perm[38 + i]
        leader = 0
        for _ in range(16):
            best = np.int64(-1)
            pos = 0
            led = np.int64(0)
            for j in range(3):
                p = (leader + j) % 3
                hand = h0 if p == 0 else (h1 if p == 1 else h2)
                legal = hand if j == 0 else follow_or_trump(hand, led, _TRUMPS)
                rng, r = below(rng, popcount(legal))
                c = nth_set_index(legal, r)
                if p == 0:
                    h0 &= ~(_ONE << c)
                elif p == 1:
                    h1 &= ~(_ONE << c)
                else:
                    h2 &= ~(_ONE << c)
                if j == 0:
                    led = _SUIT_MASK[c]
                    best = c
                elif beats_highest_index(c, best, led, _TRUMPS):
                    best = c
                    pos = j
            leader = (leader + pos) % 3
        acc += leader
    return acc


def _rate(fn, min_seconds: float = 1.0) -> float:
    """Work units of ``fn`` (which returns its work count) per wall-clock second, over at least ``min_seconds``."""
    fn()  # compile / warm
    work = 0
    start = time.perf_counter()
    while True:
        work += fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return work / elapsed


def measure_startup(game: str) -> dict[str, float]:
    """Cold (empty cache) and cached start-up: import + make_game + one playout, in fresh interpreters."""
    code = (
        f"import time; t=time.perf_counter(); import tarockrl; g=tarockrl.make_game({game!r}); "
        "g.random_playouts(4, seed=0); s=g.new_initial_state(seed=0); s.apply_action(s.legal_actions()[0]); "
        "s.observation(0); g.new_batch(2).legal_masks(); print(time.perf_counter()-t)"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        runs = []
        for _ in range(2):
            out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            runs.append(float(out.stdout.strip().splitlines()[-1]))
    return {"cold_start_s": runs[0], "cached_start_s": runs[1]}


def run_engine_benchmark(game_name: str = "dreierles", deals: int = 200_000, startup: bool = True,
                         seconds: float = 1.0) -> dict[str, Any]:
    """Measure one game's engine; returns a dict of figures (also printed by the CLI)."""
    import tarockrl

    game = tarockrl.make_game(game_name)
    threads = numba.get_num_threads()
    result: dict[str, Any] = {"game": game_name, "threads": threads, "cores": os.cpu_count()}
    result["state_bytes"] = game.state_len * 8

    baseline_n = deals
    numba.set_num_threads(1)
    try:
        base = _rate(lambda: (baseline_play_only(baseline_n, 1), baseline_n)[1], seconds)
        one = _rate(lambda: (game.random_playouts(deals, seed=1), deals)[1], seconds)
    finally:
        numba.set_num_threads(threads)
    many = _rate(lambda: (game.random_playouts(deals, seed=2), deals)[1], seconds)
    result["baseline_play_only_deals_per_s_1_thread"] = base
    result["full_deals_per_s_1_thread"] = one
    result["full_deals_per_s_all_threads"] = many
    result["full_deals_per_s_per_core"] = many / max(1, threads)
    result["ratio_full_game_vs_baseline"] = one / base

    # Python API: apply_action calls per second (random legal actions, new deals as needed)
    rng = np.random.default_rng(0)

    def api_loop() -> int:
        count = 0
        for deal_id in range(20):
            state = game.new_initial_state(seed=3, deal_id=deal_id)
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
                count += 1
        return count

    result["api_apply_action_per_s"] = _rate(api_loop, seconds)
    _, lengths = game.random_playouts(10_000, seed=5, return_lengths=True)
    result["mean_actions_per_deal"] = float(lengths.mean())
    result["batch_actions_per_s_1_thread"] = result["full_deals_per_s_1_thread"] * float(lengths.mean())
    result["ratio_batch_vs_api_steps"] = result["batch_actions_per_s_1_thread"] / result["api_apply_action_per_s"]
    if startup:
        result.update(measure_startup(game_name))
    return result


def _openspiel_timers(batch: int = 2000):
    """``(set_up_only, full_games)`` for OpenSpiel's C++ Slovenian tarok, or ``None`` without ``open_spiel``.

    Each callable plays ``batch`` games and returns ``batch``: ``full_games`` deals, applies the three bids
    (Pass, Pass, Klop) from Python and lets ``pyspiel.evaluate_bots`` play the 48 cards in C++ with uniform random
    bots; ``set_up_only`` does only the Python set-up (whose time is subtracted, which favours OpenSpiel).
    """
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("tarok", {"players": 3, "rng_seed": 12345})
    bots = [pyspiel.make_uniform_random_bot(p, 1000 + p) for p in range(3)]
    probe = game.new_initial_state()
    probe.apply_action(probe.chance_outcomes()[0][0])
    bids = []
    for want in ("Pass", "Pass", "Klop"):
        action = next(a for a in probe.legal_actions() if probe.action_to_string(a) == want)
        bids.append(action)
        probe.apply_action(action)
    pyspiel.evaluate_bots(probe, bots, 1)
    if len(probe.history()) != 1 + 3 + 48:
        raise RuntimeError(f"unexpected OpenSpiel tarok game length {len(probe.history())}")
    chance = game.new_initial_state().chance_outcomes()[0][0]

    def setup():
        state = game.new_initial_state()
        state.apply_action(chance)
        for action in bids:
            state.apply_action(action)
        return state

    def set_up_only() -> int:
        for _ in range(batch):
            setup()
        return batch

    seed = [0]

    def full_games() -> int:
        for _ in range(batch):
            seed[0] += 1
            pyspiel.evaluate_bots(setup(), bots, seed[0])
        return batch

    return set_up_only, full_games


def openspiel_full_games_per_s(seconds: float = 1.0, batch: int = 2000) -> dict[str, float] | None:
    """OpenSpiel's C++ Slovenian tarok (3 players): full-length random games per second, or ``None`` without it.

    A full-length game is the longest one: a deal, all three seats pass (Pass, Pass, Klop) and 48 random card
    plays. The card play runs in C++ (``pyspiel.evaluate_bots`` with uniform random bots); the deal and the
    three bids are applied from Python, and the time of that set-up, measured alone, is subtracted (it favours
    OpenSpiel). ``open_spiel`` is not a dependency: ``pip install "tarockrl[bench]"`` or ``pip install open_spiel``.
    """
    timers = _openspiel_timers(batch)
    if timers is None:
        return None
    set_up_only, full_games = timers
    setup_rate = _rate(set_up_only, seconds / 2)
    total_rate = _rate(full_games, seconds)
    per_game = 1.0 / total_rate - 1.0 / setup_rate
    return {
        "openspiel_tarok_full_games_per_s_with_setup": total_rate,
        "openspiel_tarok_full_games_per_s": 1.0 / per_game if per_game > 0 else total_rate,
    }


def _cpu_rate(fn, min_seconds: float) -> float:
    """Work units of ``fn`` (already warm; returns its work count) per CPU second of this process."""
    work = 0
    start = time.process_time()
    wall = time.perf_counter()
    while True:
        work += fn()
        if time.perf_counter() - wall >= min_seconds:
            return work / max(time.process_time() - start, 1e-9)


def compare_with_openspiel(game_name: str, seconds: float = 1.0, rounds: int = 9,
                           deals: int = 100_000) -> dict[str, float] | None:
    """One thread each: this game's random full deals against OpenSpiel's full-length tarok games, side by side.

    ``rounds`` pairs of windows of ``seconds`` each, measured in the same process one right after the other
    (their order alternating from pair to pair), each rate per CPU second of the process (``time.process_time``:
    numba runs on one thread and OpenSpiel's loop is single-threaded, so time the process spends descheduled on
    a shared machine counts for neither). Each pair gives a ratio; the result is their median (robust to a pair
    disturbed by a burst of load), with the lowest and highest pair ratio and the ratio of the best window of
    each side. OpenSpiel's Python set-up rate (subtracted) is measured in every pair too. ``None`` when
    ``open_spiel`` is not installed.
    """
    import tarockrl

    timers = _openspiel_timers()
    if timers is None:
        return None
    set_up_only, full_games = timers
    game = tarockrl.make_game(game_name)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        game.random_playouts(1000, seed=1)  # compile
        set_up_only()
        full_games()

        def ours_fn() -> int:
            game.random_playouts(deals, seed=1)
            return deals

        ours, theirs, ratios = [], [], []
        for r in range(max(1, rounds)):
            pair = {}
            for side in (("ours", "theirs") if r % 2 == 0 else ("theirs", "ours")):
                if side == "ours":
                    pair[side] = _cpu_rate(ours_fn, seconds)
                else:
                    setup_rate = _cpu_rate(set_up_only, seconds / 4)
                    total_rate = _cpu_rate(full_games, seconds)
                    per_game = 1.0 / total_rate - 1.0 / setup_rate
                    pair[side] = 1.0 / per_game if per_game > 0 else total_rate
            ours.append(pair["ours"])
            theirs.append(pair["theirs"])
            ratios.append(pair["ours"] / pair["theirs"])
    finally:
        numba.set_num_threads(threads)
    return {"full_deals_per_cpu_s_1_thread_median": float(np.median(ours)),
            "openspiel_full_games_per_cpu_s_median": float(np.median(theirs)),
            "ratio_vs_openspiel_full_games": float(np.median(ratios)),
            "ratio_vs_openspiel_lowest_pair": float(min(ratios)),
            "ratio_vs_openspiel_highest_pair": float(max(ratios)),
            "ratio_vs_openspiel_best_windows": max(ours) / max(theirs),
            "openspiel_pairs": len(ratios)}


def format_result(result: dict[str, Any]) -> str:
    """Human-readable lines for a benchmark result."""
    lines = [f"game {result['game']} ({result['threads']} numba threads, {result['cores']} cores)"]
    for key, value in result.items():
        if key in ("game", "threads", "cores"):
            continue
        if isinstance(value, float):
            lines.append(f"  {key:<42} {value:,.3f}" if value < 100 else f"  {key:<42} {value:,.0f}")
        else:
            lines.append(f"  {key:<42} {value}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry of the benchmark script."""
    import argparse

    import tarockrl

    parser = argparse.ArgumentParser(description="tarockrl engine benchmark (figures and in-process ratios)")
    parser.add_argument("--game", action="append", help="game(s) to measure (default: all)")
    parser.add_argument("--deals", type=int, default=200_000, help="deals per timed batch")
    parser.add_argument("--seconds", type=float, default=1.0, help="minimum time per measurement")
    parser.add_argument("--no-startup", action="store_true", help="skip the cold/cached start-up measurement")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument("--vs-openspiel", action="store_true",
                        help="also time OpenSpiel's C++ tarok on full-length random games (needs open_spiel) and "
                             "print each game's ratio (1 thread each, per CPU second: the median ratio of "
                             "--pairs pairs of adjacent windows)")
    parser.add_argument("--pairs", type=int, default=9, help="with --vs-openspiel: pairs of windows (default 9)")
    args = parser.parse_args(argv)
    games = args.game or tarockrl.list_games()
    results = [run_engine_benchmark(g, args.deals, not args.no_startup, args.seconds) for g in games]
    if args.vs_openspiel:
        for r in results:
            versus = compare_with_openspiel(r["game"], args.seconds, rounds=args.pairs,
                                            deals=min(args.deals, 100_000))
            if versus is None:
                print("open_spiel is not installed: pip install 'tarockrl[bench]' (or pip install open_spiel)",
                      file=sys.stderr)
                return 2
            r.update(versus)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print("\n".join(format_result(r) for r in results))
    return 0
