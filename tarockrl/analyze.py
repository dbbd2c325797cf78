"""Decision analysis: the expected settlement of each legal action from sampled worlds and rollouts.

::

    from tarockrl.analyze import analyze_hand, analyze_state
    result = analyze_hand("dreierles", "T21 T20 T19 ST T1 ...", seat=0, worlds=200)
    print(result.table())

:func:`analyze_state` takes a position and the seat to move: it draws ``worlds`` deals consistent with what that
seat knows (``game.sample_worlds``, so the game needs a batched sampler), applies each legal action in every
world, and plays the rest of the deal ``rollouts`` times with a chosen agent for every seat (``"rules"`` by
default; ``"heuristic"`` and ``"random"`` run in numba; any agent spec works, ``pimc`` included but slowly).
Every action is played out in the same worlds (common random numbers), so the differences between actions are
paired: the table gives each action's mean settlement for the seat with a 95% confidence interval and its
difference to the best action with the paired 95% interval.

:func:`analyze_hand` builds the position from a hand: a deal in which ``seat`` holds exactly those cards (the
other cards placed at random, from ``seed``) and the dealer chosen so that ``seat`` makes the first decision of
the deal (in Dreierles and Dreiertarock the first bid, so the table is the value of each bid the hand could open
with; the contract that results depends on the auction the agent then plays). ``tarockrl analyze`` is the
command line (``--hand`` / ``--state FILE``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tarockrl.errors import BadDealError, TarockError

__all__ = ["Analysis", "ActionStats", "analyze_state", "analyze_hand", "state_with_hand", "load_state",
           "add_analyze_parser"]

Z95 = 1.959963984540054


@dataclass(frozen=True)
class ActionStats:
    """One legal action's result: mean settlement for the seat, its 95% CI, and the paired difference to the best."""

    action: int
    name: str
    mean: float
    se: float
    low: float
    high: float
    diff: float
    diff_low: float
    diff_high: float
    n: int


@dataclass(frozen=True)
class Analysis:
    """The analysis of one decision (see :func:`analyze_state`)."""

    game: str
    player: int
    phase: str
    agent: str
    worlds: int
    rollouts: int
    seed: int
    rows: list[ActionStats]

    def best(self) -> ActionStats:
        """The action with the highest mean."""
        return max(self.rows, key=lambda r: r.mean)

    def table(self) -> str:
        """A plain-text table, best action first."""
        head = (f"{self.game}: seat {self.player} to act in phase {self.phase}; {self.worlds} worlds x "
                f"{self.rollouts} rollout(s) with {self.agent!r}, seed {self.seed}\n"
                "expected settlement of the seat (game points per deal), 95% CIs; the difference to the best "
                "action is paired (same worlds)\n")
        w = max(12, max(len(r.name) for r in self.rows))
        lines = [f"{'action':<{w}}  {'mean':>8}  {'95% CI':>19}  {'vs best':>8}  {'95% CI':>19}",
                 "-" * (w + 64)]
        for r in sorted(self.rows, key=lambda r: -r.mean):
            lines.append(f"{r.name:<{w}}  {r.mean:8.2f}  [{r.low:8.2f}, {r.high:8.2f}]  {r.diff:8.2f}  "
                         f"[{r.diff_low:8.2f}, {r.diff_high:8.2f}]")
        return head + "\n".join(lines)

    def to_dict(self) -> dict:
        """Plain JSON-compatible data."""
        return {"game": self.game, "player": self.player, "phase": self.phase, "agent": self.agent,
                "worlds": self.worlds, "rollouts": self.rollouts, "seed": self.seed,
                "actions": [r.__dict__ for r in self.rows]}


def _finite(x: float) -> float:
    return float(x) if math.isfinite(x) else float("nan")


def analyze_state(state: Any, agent: str = "rules", worlds: int = 200, rollouts: int = 1, seed: int = 0,
                  player: int | None = None) -> Analysis:
    """Expected settlement of every legal action of the seat to move (see the module docstring).

    Args:
        state: a position with a seat to move (not changed).
        agent: the agent spec that plays the rest of the deal for every seat (or ``"heuristic"``/``"random"``).
        worlds: worlds sampled from the seat's view.
        rollouts: playouts per world and action (useful with a random or heuristic agent).
        seed: seed of the worlds and the rollouts.
        player: must be ``None`` or the seat to move (the analysis is of that seat's decision).
    """
    from tarockrl.agents.pimc import PIMCUnavailableError, has_sampler
    from tarockrl.agents.pimc_rollouts import RolloutPolicy

    game = state.game
    if state.is_terminal():
        raise TarockError("analyze: the deal is over, there is no decision to analyse")
    mover = state.current_player()
    if player is not None and player != mover:
        raise TarockError(f"analyze: seat {player} is not to act (seat {mover} is); analyse the seat to move")
    for name, value, lo, hi in (("worlds", worlds, 2, 1_000_000), ("rollouts", rollouts, 1, 10_000),
                                ("seed", seed, 0, 2**63 - 1)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
            raise TarockError(f"analyze: {name} must be an integer in {lo}..{hi}, got {value!r}")
    if not has_sampler(game):
        raise PIMCUnavailableError(f"analyze needs a batched hidden-card sampler for {game.name} "
                                   f"(tarockrl/games/{game.name}/resample.py does not exist yet)")
    policy = RolloutPolicy(game, agent)
    legal = state.legal_actions()
    base = game.sample_worlds(state, mover, int(worlds), seed=int(seed)).rows
    opts = game.encoded_options
    values = np.full((len(legal), base.shape[0]), np.nan)
    for j, a in enumerate(legal):
        rows = base.copy()
        status = np.zeros(rows.shape[0], dtype=np.int64)
        policy.kernels.step_rows(rows, np.full(rows.shape[0], a, dtype=np.int64), opts, status)
        out = policy.run(rows, seed=int(seed) * 1_000_003 + 17, repeats=int(rollouts))
        v = out[:, :, mover].mean(axis=1)
        v[status != 0] = np.nan
        values[j] = v
    means = np.nanmean(values, axis=1)
    best = int(np.nanargmax(means))
    stats = []
    for j, a in enumerate(legal):
        v = values[j][~np.isnan(values[j])]
        n = v.size
        se = v.std(ddof=1) / math.sqrt(n) if n > 1 else float("nan")
        both = ~np.isnan(values[j]) & ~np.isnan(values[best])
        d = values[j][both] - values[best][both]
        dse = d.std(ddof=1) / math.sqrt(d.size) if d.size > 1 else float("nan")
        dm = float(d.mean()) if d.size else float("nan")
        stats.append(ActionStats(int(a), state.action_to_string(a), _finite(means[j]), _finite(se),
                                 _finite(means[j] - Z95 * se), _finite(means[j] + Z95 * se), dm,
                                 _finite(dm - Z95 * dse) if j != best else 0.0,
                                 _finite(dm + Z95 * dse) if j != best else 0.0, int(n)))
    return Analysis(game.name, mover, state.phase(), agent, int(base.shape[0]), int(rollouts), int(seed), stats)


def _card_lists(node: Any, path: tuple = ()) -> list[tuple[tuple, list]]:
    """Every list of card-code strings in a deal dict, with its path."""
    out = []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _card_lists(v, path + (k,))
    elif isinstance(node, list):
        if node and all(isinstance(x, str) for x in node):
            out.append((path, node))
        else:
            for i, v in enumerate(node):
                out += _card_lists(v, path + (i,))
    return out


def state_with_hand(game: Any, hand: str | list[str], seat: int = 0, dealer: int | None = None,
                    seed: int = 0) -> Any:
    """A fresh deal in which ``seat`` holds exactly ``hand`` and makes the first decision.

    The other cards are placed as in ``deal(seed, 0)`` with the named cards swapped in; ``dealer=None`` picks the
    dealer that makes ``seat`` act first (an error if no dealer does; give one explicitly to analyse a later
    seat's first decision is not supported: the seats before it would act with hidden information).
    """
    if isinstance(game, str):
        import tarockrl

        game = tarockrl.make_game(game)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise TarockError(f"seat must be in 0..{game.num_players - 1}, got {seat!r}")
    cards = hand.replace(",", " ").split() if isinstance(hand, str) else [str(c) for c in hand]
    cards = [c.strip().upper() for c in cards if c.strip()]
    deal = game.new_initial_state(seed=seed).deal()
    lists = _card_lists(deal)
    known = {c for _, lst in lists for c in lst}
    unknown = [c for c in cards if c not in known]
    if unknown:
        raise BadDealError(f"unknown card code(s) {', '.join(unknown)}; the {game.name} codes are "
                           f"{' '.join(sorted(known))}")
    if len(set(cards)) != len(cards):
        raise BadDealError("a card is named twice in the hand")
    own = deal["hands"][seat]
    if len(cards) != len(own):
        raise BadDealError(f"a {game.name} hand has {len(own)} cards, got {len(cards)}")
    give = [c for c in own if c not in cards]  # own cards that must go
    for c in cards:
        if c in own:
            continue
        for _, lst in lists:
            if lst is not own and c in lst:
                lst[lst.index(c)] = give.pop()
                break
    deal["hands"][seat] = list(cards)
    dealers = [dealer] if dealer is not None else list(range(game.num_players))
    for d in dealers:
        deal["dealer"] = int(d)
        state = game.new_initial_state(deal=deal)
        if state.current_player() == seat:
            return state
    raise TarockError(f"with dealer {dealer}, seat {seat} does not make the first decision; leave --dealer out")


def analyze_hand(game: Any, hand: str | list[str], seat: int = 0, dealer: int | None = None, agent: str = "rules",
                 worlds: int = 200, rollouts: int = 1, seed: int = 0) -> Analysis:
    """:func:`analyze_state` of the first decision of a deal in which ``seat`` holds ``hand``."""
    state = state_with_hand(game, hand, seat=seat, dealer=dealer, seed=seed)
    return analyze_state(state, agent=agent, worlds=worlds, rollouts=rollouts, seed=seed)


def load_state(game: Any, path: str | Path) -> Any:
    """A position from a file: bytes of ``State.to_bytes()``, or JSON ``{"deal": {...}, "actions": [...]}``
    (``"history"`` is accepted for ``"actions"``; a game record of ``tarockrl play --human`` has this form)."""
    data = Path(path).read_bytes()
    if data[:4] == b"TRKL":
        return game.state_from_bytes(data)
    try:
        record = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TarockError(f"{path}: neither a saved state (State.to_bytes) nor JSON: {exc}") from None
    if not isinstance(record, dict) or "deal" not in record:
        raise TarockError(f"{path}: JSON needs a 'deal' (the deal notation) and 'actions' (the action ids so far)")
    actions = record.get("actions", record.get("history", []))
    state = game.new_initial_state(deal=record["deal"])
    for a in actions:
        state.apply_action(int(a))
    return state


def add_analyze_parser(sub: Any) -> None:
    """Register ``tarockrl analyze`` on an ``argparse`` subparsers object."""
    p = sub.add_parser("analyze", help="expected settlement of each bid / legal action from sampled worlds",
                       description="Sample worlds consistent with what the seat knows, play every legal action "
                                   "out with an agent, and print each action's expected settlement with 95% CIs.")
    p.add_argument("--game", default="dreierles")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="a rules option (repeatable)")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--hand", help='the seat\'s cards, e.g. "T21 T20 ST T1 HK ..." (its first decision)')
    src.add_argument("--state", help="a saved position: State.to_bytes() bytes or JSON {deal, actions}")
    p.add_argument("--seat", type=int, default=0, help="with --hand: the seat holding it (default 0)")
    p.add_argument("--dealer", type=int, default=None, help="with --hand: the dealer (default: seat acts first)")
    p.add_argument("--agent", default="rules", help="agent playing the rest (default rules; heuristic, random, ...)")
    p.add_argument("--worlds", type=int, default=200, help="sampled worlds (default 200)")
    p.add_argument("--rollouts", type=int, default=1, help="playouts per world and action (default 1)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print JSON instead of the table")
    p.set_defaults(func=cmd_analyze)


def cmd_analyze(args: Any) -> int:
    """``tarockrl analyze``."""
    import tarockrl
    from tarockrl.cli import _parse_options

    game = tarockrl.make_game(args.game, **_parse_options(args.option))
    if args.hand is not None:
        result = analyze_hand(game, args.hand, seat=args.seat, dealer=args.dealer, agent=args.agent,
                              worlds=args.worlds, rollouts=args.rollouts, seed=args.seed)
    else:
        try:
            state = load_state(game, args.state)
        except OSError as exc:
            raise TarockError(f"cannot read {args.state}: {exc.strerror or exc}") from None
        result = analyze_state(state, agent=args.agent, worlds=args.worlds, rollouts=args.rollouts,
                               seed=args.seed)
    if args.json:
        print(json.dumps(result.to_dict(), indent=1))
    else:
        print(result.table())
    return 0
