"""How the neural agents act: decision kinds, per-kind support thresholds and margins, and the exact endgame.

A Deep Monte Carlo agent with an imitation head (:class:`tarockrl.agents.nets.QImitationNet`) plays the legal
action of best ``Q`` among the *plausible* ones: those whose imitation probability is at least ``threshold`` times
that of the imitation favourite (the most probable legal action). This module lets the threshold, and a minimum
``Q`` margin for deviating from the favourite, depend on the kind of action, and adds an exact endgame:

**Action kinds** (:func:`card_actions`). Every action of a game's flat layout is either a *card* action (playing
or discarding a card) or a *call* (everything else: passes and bids, talon choices, announcements, doubles,
knocks, table talk, votes, robbing the turn-up). The split is read from the action layouts of
``docs/rules/<game>.md`` (the constants of ``tarockrl/games/<game>/layout.py``):

* Dreierles (§9): ``DISCARD`` 5–58 and ``PLAY`` 63–116 are cards; ``PASS``, ``BID``, ``ANNOUNCE_PFEIFE``,
  ``NO_ANNOUNCE``, ``KNOCK``, ``NO_KNOCK`` are calls;
* Dreiertarock (§9.1): ``PLAY`` 0–53 and ``DISCARD`` 54–107 are cards; the auction, ``TAKE_PACKET``,
  announcements, doubles and ``GOOD`` are calls;
* Troccas (§9.2): ``CARD`` 0–77 (play and scart alike) and ``LEAD_KING_WITH_JACK`` 78–81 (a way of playing a
  card) are cards; ``TALK``, votes, the dealer's force, the pattern, the Buob demand and ``KNOCK`` are calls;
* Tatteln (§9): ``PLAY`` 0..deck_size−1 are cards; ``ANNOUNCE_SEQ``, ``ANNOUNCE_SET`` and ``ROB`` are calls.

The thresholds and margins are per action, so a decision that mixes kinds (a Tatteln turn where a card or an
announcement may be chosen) compares every action against the favourite with that action's own kind.

**Margins** (``call_margin``, ``card_margin``, in game points): the best plausible action replaces the imitation
favourite only when its ``Q`` exceeds the favourite's by more than the margin of the favourite's kind (0: any
better ``Q`` wins, the behaviour of the training code).

**Exact endgame** (``endgame=solve``, :class:`FinalPhaseSolver`, Tatteln only): once Tatteln's stock is gone the
deal is a game of perfect information (``docs/rules/tatteln.md`` §9.1: the opponent holds exactly the cards the
seat has not seen, and the stock is empty). The agent then draws *one* world from its own view
(``state.resample_hidden(player, seed)``, the seed a hash of the agent's seed and the seat's observation, as in
PIMC, so the real hidden cards are never read), solves it exactly with the open-hand solver
(:func:`tarockrl.solvers.solve`, objective ``returns``: the seat's settlement) and plays an action of maximal
value; among equally good actions it takes the network's choice. Every world consistent with a final-phase view
holds the same cards in the same places (they differ only in the spent shuffle, which play never reads again:
the solver adapter's ``world_key`` ignores it), so the one world is the true position and its solution is exact
(the tests check that worlds drawn with different seeds have the same ``world_key``). A search that exceeds
``max_nodes`` leaves the decision to the network.

**PIMC endgame** (``endgame=pimc``, :class:`EndgamePIMC`, every game): in the card play with at most
``endgame_tricks`` tricks left (default: PIMC's ``solve_tricks`` for the game: 5 tricks in Dreierles and
Dreiertarock, 7 in Troccas), the agent draws ``endgame_worlds`` worlds (default 32) from its own view with the
game's batched sampler, solves every world exactly with the open-hand solver and plays the action of best mean
settlement over the worlds; among equally good actions it takes the network's choice. This is
:class:`tarockrl.agents.pimc.PIMCAgent` restricted to solved positions: the worlds are seeded by a hash of the
agent's seed and the seat's observation and legal actions, so the real hidden cards are never read; if any world
exceeds the solver's node budget (PIMC's ``max_nodes``: 30,000 nodes per world, 300,000 in Troccas), the network
decides. With ``rollout_tricks=R`` (R above ``endgame_tricks``), the card-play decisions with at most R tricks left
and more than ``endgame_tricks`` are made the same way with PIMC's heuristic rollouts (two per world and action) in
place of the solver. Before that (bids, talon choices, discards, announcements before the play, the earlier tricks)
the network decides alone. ``endgame_nodes`` sets the solver's node budget per world (default: PIMC's).

**PIMC at the calls** (``calls=pimc``, :class:`CallPIMC`, every game): a decision whose legal actions are all calls
(see above) is made by PIMC with heuristic rollouts over ``call_worlds`` worlds (default 32) drawn from the seat's
own view; decisions that offer a card stay with the network. PIMC's worlds honour what the rules reveal but not
what the other seats' bids suggest (``docs/agents.md``), so its doubles and announcements after a strong bid are
reckless; docs/training.md gives the measured effect (Dreiertarock: worse than the network's calls).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from tarockrl.errors import BadAgentSpecError

__all__ = ["ActingSettings", "PRETRAINED_ACTING", "ENDGAMES", "CALL_SEARCHES", "card_actions", "FinalPhaseSolver",
           "EndgamePIMC", "CallPIMC", "has_exact_endgame"]

ENDGAMES = ("net", "solve", "pimc")
"""Values of the ``endgame`` parameter: ``net`` (the network decides everywhere), ``solve`` or ``pimc`` (see the
module)."""

CALL_SEARCHES = ("net", "pimc")
"""Values of the ``calls`` parameter: ``net`` (the network makes the calls) or ``pimc`` (see the module)."""


@dataclass(frozen=True)
class ActingSettings:
    """The acting parameters of a neural agent (``None`` threshold: the checkpoint's own ``support_threshold``).

    Attributes:
        call_threshold: support threshold for calls (bids, announcements, talon choices, ...), in (0, 1].
        card_threshold: support threshold for card actions (play and discards), in (0, 1].
        call_margin: game points by which a call's favourite must be beaten in ``Q`` to be replaced (>= 0).
        card_margin: the same for a card favourite (>= 0).
        endgame: ``net``, ``solve`` (exact play in a perfect-information endgame; Tatteln only) or ``pimc``
            (solved sampled worlds in the last tricks of the card play; every game).
        endgame_worlds: worlds per decision of ``endgame=pimc`` (1..4096).
        endgame_tricks: ``endgame=pimc`` decides with at most this many tricks left (1..40; ``None``: PIMC's
            default for the game, :func:`tarockrl.agents.pimc.game_defaults`).
        endgame_nodes: the solver's node budget per world of ``endgame=pimc`` (1..10**9; ``None``: PIMC's default
            for the game, 30,000; a world over it leaves the decision to the network).
        rollout_tricks: ``endgame=pimc`` also decides with at most this many tricks left and more than
            ``endgame_tricks``, valuing the worlds by heuristic rollouts instead of the solver (0: never; 0..40).
        calls: ``net`` (the network makes every call) or ``pimc`` (a decision whose legal actions are all calls is
            made by PIMC with heuristic rollouts, :class:`CallPIMC`).
        call_worlds: worlds per decision of ``calls=pimc`` (1..4096).
    """

    call_threshold: float | None = None
    card_threshold: float | None = None
    call_margin: float = 0.0
    card_margin: float = 0.0
    endgame: str = "net"
    endgame_worlds: int = 32
    endgame_tricks: int | None = None
    endgame_nodes: int | None = None
    rollout_tricks: int = 0
    calls: str = "net"
    call_worlds: int = 32

    def checked(self, who: str) -> ActingSettings:
        """These settings, or :class:`BadAgentSpecError` naming the first bad parameter (``who`` is the agent)."""
        for name in ("call_threshold", "card_threshold"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 < v <= 1.0):
                raise BadAgentSpecError(f"agent {who!r}: {name} must be a number in (0, 1], got {v!r}")
        for name in ("call_margin", "card_margin"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not (math.isfinite(v) and v >= 0.0):
                raise BadAgentSpecError(f"agent {who!r}: {name} must be a finite number >= 0 (game points), "
                                        f"got {v!r}")
        if self.calls not in CALL_SEARCHES:
            raise BadAgentSpecError(f"agent {who!r}: calls must be one of {', '.join(CALL_SEARCHES)}, "
                                    f"got {self.calls!r}")
        if self.endgame not in ENDGAMES:
            raise BadAgentSpecError(f"agent {who!r}: endgame must be one of {', '.join(ENDGAMES)}, "
                                    f"got {self.endgame!r}")
        for name, lo, hi in (("endgame_worlds", 1, 4096), ("call_worlds", 1, 4096), ("endgame_tricks", 1, 40),
                             ("endgame_nodes", 1, 10**9), ("rollout_tricks", 0, 40)):
            v = getattr(self, name)
            if v is None and name in ("endgame_tricks", "endgame_nodes"):
                continue
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
                raise BadAgentSpecError(f"agent {who!r}: {name} must be an integer in {lo}..{hi}, got {v!r}")
        return self

    def merged(self, **overrides: Any) -> ActingSettings:
        """A copy with the given fields replaced where the override is not ``None``."""
        known = {f.name for f in fields(self)}
        return replace(self, **{k: v for k, v in overrides.items() if k in known and v is not None})


PRETRAINED_ACTING: dict[str, ActingSettings] = {
    "dreierles": ActingSettings(endgame="pimc", endgame_tricks=8, endgame_nodes=300_000),
    "dreiertarock": ActingSettings(endgame="pimc", endgame_tricks=8, endgame_worlds=16, endgame_nodes=400_000),
    "tatteln": ActingSettings(endgame="solve"),
    "troccas": ActingSettings(endgame="pimc", endgame_tricks=5, endgame_nodes=30_000, rollout_tricks=8),
}
"""The acting settings of ``make_agent("pretrained", game)`` per game (docs/training.md "Pretrained agents" gives
the duplicate matches that chose them); a spec parameter overrides its entry."""


def card_actions(game: Any) -> np.ndarray:
    """``bool[num_actions]``: True for the card actions of ``game``'s flat layout (see the module docstring)."""
    n = int(game.num_actions)
    out = np.zeros(n, dtype=bool)
    name = game.name
    if name == "dreierles":
        from tarockrl.games.dreierles import layout as L

        out[L.A_DISCARD:L.A_ANNOUNCE] = True
        out[L.A_PLAY:] = True
    elif name == "dreiertarock":
        from tarockrl.games.dreiertarock import layout as L

        out[L.A_PLAY:L.A_PASS] = True
    elif name == "troccas":
        from tarockrl.games.troccas import layout as L

        out[L.A_CARD:L.A_EARLY] = True
    elif name == "tatteln":
        out[:int(game.rules.deck_size)] = True
    else:
        raise BadAgentSpecError(f"no action kinds are known for game {name!r}")
    return out


def has_exact_endgame(game: Any) -> bool:
    """True for games with a perfect-information endgame that ``endgame=solve`` plays exactly (Tatteln)."""
    return game.name == "tatteln"


class FinalPhaseSolver:
    """Exact play in Tatteln's final phase from the seat's own view (see the module docstring).

    Args:
        game: the Tatteln :class:`tarockrl.Game`.
        seed: mixed into the world's seed (the world does not depend on it in the final phase).
        max_nodes: the solver's node budget; beyond it :meth:`values` returns ``None``.
    """

    def __init__(self, game: Any, seed: int | None = None, max_nodes: int = 3_000_000) -> None:
        """Find the observation's phase entry for ``game``'s options."""
        if not has_exact_endgame(game):
            raise BadAgentSpecError(f"endgame=solve needs a game whose endgame is of perfect information "
                                    f"(tatteln); {game.name} has none")
        from tarockrl.games.tatteln.observe import obs_offsets

        self.game = game
        self.seed = 0 if seed is None else int(seed)
        self.max_nodes = int(max_nodes)
        self.final_index = int(obs_offsets(game.rules.deck_size, game.rules.max_window_length)["PHASE"]) + 1
        self.last: dict[str, Any] | None = None

    def applies(self, observation: np.ndarray) -> bool:
        """True when the observation shows the final phase (the stock is gone; public, §9.1)."""
        return bool(observation[self.final_index] > 0.5)

    def world_seed(self, observation: np.ndarray, player: int) -> int:
        """The seed of the world: a hash of the agent's seed, ``player`` and its observation only."""
        h = hashlib.blake2b(digest_size=8)
        h.update(np.array([self.seed & 0xFFFFFFFFFFFFFFFF, player], dtype=np.uint64).tobytes())
        h.update(np.ascontiguousarray(observation, dtype=np.float32).tobytes())
        return int.from_bytes(h.digest(), "little") & 0x7FFFFFFFFFFFFFFF

    def values(self, state: Any, observation: np.ndarray) -> dict[int, int] | None:
        """Exact value (the mover's settlement) of every legal action, from a world drawn from the mover's view;
        ``None`` when the search exceeds ``max_nodes``."""
        from tarockrl.solvers import SearchLimitError, solve

        player = state.current_player()
        world = state.resample_hidden(player, self.world_seed(observation, player))
        try:
            res = solve(world, objective="returns", max_nodes=self.max_nodes)
        except SearchLimitError:
            self.last = {"solved": False}
            return None
        self.last = {"solved": True, "value": int(res.value), "nodes": int(res.nodes),
                     "action_values": dict(res.action_values)}
        return dict(res.action_values)


class _PIMCSearch:
    """A :class:`tarockrl.agents.pimc.PIMCAgent` bound for a neural agent's searches (shared by
    :class:`EndgamePIMC` and :class:`CallPIMC`): construction with a named error, the seed, and the per-action means.
    """

    def __init__(self, game: Any, who: str, seed: int | None, worlds: int, solve_tricks: int,
                 max_nodes: int | None = None) -> None:
        """Bind a PIMC agent to ``game`` (``BadAgentSpecError`` naming ``who`` when the game has no sampler)."""
        from tarockrl.agents.pimc import PIMCAgent, PIMCUnavailableError

        try:
            self.pimc = PIMCAgent(game, seed=seed, worlds=int(worlds), solve_tricks=int(solve_tricks),
                                  max_nodes=max_nodes)
        except PIMCUnavailableError as exc:
            raise BadAgentSpecError(f"{who}: {exc}") from None
        self.game = game
        self.last: dict[str, Any] | None = None

    @property
    def seed(self) -> int:
        """The agent's seed."""
        return self.pimc.seed

    @seed.setter
    def seed(self, value: int) -> None:
        self.pimc.seed = int(value)

    @staticmethod
    def means(d: Any) -> dict[int, float]:
        """``{action: mean value}`` of a PIMC decision, without the actions no world could value."""
        return {int(a): float(m) for a, m in zip(d.actions, d.means, strict=True) if np.isfinite(m)}


class EndgamePIMC(_PIMCSearch):
    """PIMC over solved worlds in the last tricks of the card play (``endgame=pimc``, every game).

    With at most ``tricks`` tricks left in the card play, the decision is that of a
    :class:`tarockrl.agents.pimc.PIMCAgent` that only solves: ``worlds`` deals drawn from the mover's own view
    (``game.sample_worlds``, seeded by a hash of the agent's seed and the seat's observation and legal actions, so
    the real hidden cards are never read), each solved exactly by the open-hand solver, and the action of best mean
    settlement over the worlds is played. If any world exceeds the solver's node budget, :meth:`values` returns
    ``None`` and the network decides.

    Args:
        game: the :class:`tarockrl.Game`.
        seed: the agent's seed (mixed into every decision's worlds).
        worlds: worlds per decision.
        tricks: at most this many tricks left (``None``: PIMC's default for the game).
        rollout_tricks: with at most this many tricks left (and more than ``tricks``) the worlds are valued by
            PIMC's heuristic rollouts (two per world and action) instead (0: never).
        max_nodes: the solver's node budget per world (``None``: PIMC's default for the game).
    """

    def __init__(self, game: Any, seed: int | None = None, worlds: int = 32, tricks: int | None = None,
                 rollout_tricks: int = 0, max_nodes: int | None = None) -> None:
        """Bind a PIMC agent to ``game``."""
        from tarockrl.agents.pimc import game_defaults

        tricks = game_defaults(game)[0] if tricks is None else int(tricks)
        super().__init__(game, "endgame=pimc", seed, worlds, tricks, max_nodes)
        self.rollout_tricks = int(rollout_tricks)

    def applies(self, state: Any) -> bool:
        """True in the card play with at most ``tricks`` (or ``rollout_tricks``) tricks left (public)."""
        return self.pimc.in_card_play(state, max(self.pimc.solve_tricks, self.rollout_tricks))

    def values(self, state: Any) -> dict[int, float] | None:
        """Mean value (the mover's settlement) of every legal action over the sampled worlds, solved in the last
        ``tricks`` tricks (``None`` when a world exceeds the solver's node budget), by rollouts before."""
        solved = self.pimc.in_card_play(state, self.pimc.solve_tricks)
        d = self.pimc.evaluate(state, force=True, solve_only=solved)
        if d is None:
            self.last = {"solved": False}
            return None
        out = self.means(d)
        self.last = {"solved": solved, "rollouts": not solved, "values": out}
        return out


class CallPIMC(_PIMCSearch):
    """PIMC with heuristic rollouts at the calls (``calls=pimc``, every game).

    A decision with more than one legal action, all of them calls (:func:`card_actions`: bids and passes, talon
    choices, announcements, doubles, knocks, table talk, votes), is valued by a
    :class:`tarockrl.agents.pimc.PIMCAgent`: ``worlds`` deals drawn from the mover's own view (seeded by a hash of
    the agent's seed and the seat's observation and legal actions, so the real hidden cards are never read), every
    legal call followed in every world by two heuristic playouts, the mean settlement of the mover per call.
    Decisions that offer a card (the card play, discards, a Tatteln turn where a card or a meld may be chosen) are
    left to the network and to the endgame search.

    Args:
        game: the :class:`tarockrl.Game`.
        seed: the agent's seed (mixed into every decision's worlds).
        worlds: worlds per decision.
    """

    def __init__(self, game: Any, seed: int | None = None, worlds: int = 32) -> None:
        """Bind a PIMC agent to ``game`` (rollouts only) and mark its card actions."""
        super().__init__(game, "calls=pimc", seed, worlds, 0)
        self.cards = card_actions(game)

    def applies(self, mask: np.ndarray) -> bool:
        """True when more than one action is legal and none of them is a card action (public)."""
        legal = np.asarray(mask, dtype=bool)
        return int(legal.sum()) > 1 and not bool((legal & self.cards).any())

    def values(self, state: Any) -> dict[int, float]:
        """Mean rollout value (the mover's settlement) of every legal call over the sampled worlds."""
        d = self.pimc.evaluate(state, force=True)
        out = self.means(d)
        self.last = {"values": out, "method": d.method}
        return out
