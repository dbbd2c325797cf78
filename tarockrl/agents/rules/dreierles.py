"""The rule-based Dreierles player (``make_agent("rules", "dreierles")``).

Every decision of the game (``docs/rules/dreierles.md`` §4) under every option set, by rules a card player can
check. Section numbers below are those of the rules document.

**What it looks at.** Only what the seat to move may know (§4.9): its own hand, the public part of the state
(auction, declarer and contract, the blind cards turned up for the declarer, fallback discards, the Pfeife
announcement, knocks, played and won cards, the current trick, the suits each seat has shown it lacks), its own
discards when it is the declarer, and the defenders' part of the blind when it is a defender who may see it
(option ``defenders_see_unused_blind``). These are read from the public slots of the state row and the seat's
own hand slot; nothing else is touched (``tests/agents/test_rules_dreierles.py`` checks this by resampling the
hidden cards).

**Hand strength** (:func:`hand_strength`), the one measure behind bidding, knocking and the announcement, in
"trick-taking units": every trump counts 1, the high trumps more (Stieß +2, 21 +1.5, 20 +1, 19 +0.7,
18 +0.4), every king 1.5, a void 1 and a singleton 0.4 (only with at least four trumps, to trump in), the
Pfeife +0.5 with seven or more trumps (it may win the last trick, §6.4). A typical dealt hand scores about 11.

**Bidding** (§4.1): the declarer gets ``k`` = 3, 2, 1, 0 blind cards for Dreier, Zweier, Einer, Solo (factor
1, 2, 3, 4). The player bids the highest contract whose strength threshold ``DECLARE[contract]`` his hand
reaches, if it is above the current bid, and passes otherwise. The thresholds come from a calibration in which
forehand was made to declare each contract on 1,500 random deals against rules-agent defenders: a Dreier starts
to pay from about 12 (its threshold was then lowered to 11.5 by seat-rotated comparisons against the other
rule-based players, where passing risks a Räuber), and each higher contract pays more than the one below it
from about 16 (Zweier), 17.5 (Einer) and 19 (Solo). In last-round mode (§4.8) only Solo can be bid.

**Discards** (§4.4): laid-away cards count for the declarer, so the discard makes voids and banks points
(:func:`tarockrl.agents.rules._cardplay.discard_choice`: a suit without a king that the discards can empty
first, then a suit that keeps only its king, then the most points; kings and trumps are never legal except under
the fallback, where the lowest trump goes).

**Pfeife announcement** (§4.5, §6.4): only with the Pfeife backed by trumps: at least ``ANNOUNCE_TRUMPS``
trumps including the Stieß and the 21 (then the declarer can draw every other trump before trick 16).

**Knocks** (§4.6): an eligible defender knocks when his own hand is strong in trumps (strength at least
``KNOCK``: he was willing to play himself, and sits over the declarer's trumps); the declarer re-knocks with a
strength of at least ``REKNOCK`` after the exchange. **Räuber knocks** (§4.7): a seat knocks when its hand is
"safe", ``safety54(hand) >= RAEUBER_KNOCK`` (few winners: no Stieß, few high trumps and kings; §6.7 makes the
seat with most points pay). Both knock thresholds were set by seat-rotated comparisons between rule variants.

**Card play** (§5): the shared heuristics of :mod:`tarockrl.agents.rules._cardplay` (lead from strength, smear
on the partner's sure trick, duck cheaply, trump in when it pays), with the Pfeife kept back for the last trick
while the declarer's or defender's trumps can clear the way (§6.4; an announced Pfeife is always kept, and the
defenders then keep their lowest trump back to beat it), the 21 kept away from the Stieß, and the Räuber rules
of taking as few points as possible (§5.3 restrictions come with the legal set).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tarockrl.agents.rules._base import RowRulesAgentBase
from tarockrl.agents.rules._cardplay import (
    TAROCK54,
    PlayView,
    choose_card,
    discard_choice,
    popcount,
    safety54,
    strength54,
)
from tarockrl.games.dreierles import layout as L
from tarockrl.games.dreierles.kernels import legal_set

__all__ = ["RulesAgent", "hand_strength", "raeuber_safety"]

TRUMPS = (1 << 22) - 1
KINGS = sum(1 << (29 + 8 * s) for s in range(4))
PFEIFE, T21, STIESS = 0, 20, 21
ALL = (1 << 54) - 1

hand_strength = strength54  # the hand-strength measure (see the module docstring)
raeuber_safety = safety54  # how safe a hand is in Räuber (for the Räuber knock)


class RulesAgent(RowRulesAgentBase):
    """The rule-based Dreierles player: ``step(state)`` returns the action of ``state.current_player()``.

    Args:
        game: a Dreierles :class:`tarockrl.games.api.Game` (any options).
        seed: recorded for the agent protocol; the player is deterministic (it has no random choices).

    The thresholds are class attributes so that experiments can subclass or patch them.
    """

    DECLARE = {1: 11.5, 2: 16.0, 3: 17.5, 4: 19.0}  # strength to bid Dreier, Zweier, Einer, Solo
    KNOCK = 15.0  # an eligible defender knocks with this strength
    REKNOCK = 20.0  # the declarer re-knocks with this strength after the exchange
    ANNOUNCE_TRUMPS = 11  # trumps (Stieß and 21 included) to announce the Pfeife
    RAEUBER_KNOCK = -1.0  # Räuber knock with this safety or more (about the safest third of the hands)

    GAME = "dreierles"
    LEGAL_SET = staticmethod(legal_set)
    SLOT_PHASE = L.PHASE
    SLOT_CUR = L.CUR
    SLOT_HAND = L.HAND

    def __init__(self, game: Any, seed: int | None = None) -> None:
        """Bind the player to ``game`` (its options are public and shape some decisions)."""
        super().__init__(game, seed)
        o = game.options
        self._last_round = bool(o["last_round_raeuber_or_solo"])
        self._see_blind = bool(o["defenders_see_unused_blind"])

    # ---- the decision ---------------------------------------------------------------------------------------

    def decide_row(self, row: np.ndarray, phase: int, me: int, hand: int, mask: int) -> int:
        """The action when several are legal (reads only what the seat to move may know)."""
        if phase == L.AUCTION:
            return self._bid(row, hand, mask)
        if phase == L.DISCARD:
            return L.A_DISCARD + self._discard(hand, mask, int(row[L.DISCARD_LEFT]))
        if phase == L.ANNOUNCE:
            return self._announce(hand)
        if phase == L.KNOCK:
            return L.A_KNOCK if hand_strength(hand) >= self.KNOCK else L.A_NO_KNOCK
        if phase == L.REKNOCK:
            return L.A_KNOCK if hand_strength(hand) >= self.REKNOCK else L.A_NO_KNOCK
        if phase == L.RAEUBER_KNOCK:
            return L.A_KNOCK if raeuber_safety(hand) >= self.RAEUBER_KNOCK else L.A_NO_KNOCK
        return L.A_PLAY + self._play(row, me, hand, mask)

    # ---- auction, exchange, announcement (§4.1, §4.4, §4.5) ------------------------------------------------

    def _bid(self, row: np.ndarray, hand: int, mask: int) -> int:
        """Bid the highest contract the hand supports above the current bid, else pass."""
        s = hand_strength(hand)
        for contract in (4, 3, 2, 1):  # Solo, Einer, Zweier, Dreier
            if (mask >> contract) & 1 and s >= self.DECLARE[contract]:
                return contract
        return L.A_PASS

    def _discard(self, hand: int, legal: int, left: int) -> int:
        """One discard: bank points and make voids (:func:`tarockrl.agents.rules._cardplay.discard_choice`)."""
        return discard_choice(TAROCK54, hand, legal, left, KINGS)

    def _announce(self, hand: int) -> int:
        """Announce the Pfeife only with the trumps to clear the way to trick 16 (§4.5)."""
        n_trumps = popcount(hand & TRUMPS)
        top = (hand >> STIESS) & 1 and (hand >> T21) & 1
        return L.A_ANNOUNCE if top and n_trumps >= self.ANNOUNCE_TRUMPS else L.A_NO_ANNOUNCE

    # ---- card play (§5) ------------------------------------------------------------------------------------

    def _play(self, row: np.ndarray, me: int, hand: int, legal: int) -> int:
        r = row.tolist()
        declarer = r[L.DECLARER]
        raeuber = r[L.RAEUBER] != 0
        played = r[L.PLAYED_BY] | r[L.PLAYED_BY + 1] | r[L.PLAYED_BY + 2]
        known = [0, 0, 0]
        laid_away = r[L.FALLBACK]  # fallback discards are public
        if not raeuber:
            # blind trumps and kings turned up for the declarer are his until played (other blind cards may
            # have been laid away face down)
            known[declarer] = r[L.BLIND_TAKEN] & (TRUMPS | KINGS) & ~played & ~r[L.FALLBACK]
            if r[L.ANNOUNCED] == 1 and not (played & 1):
                known[declarer] |= 1  # an announced Pfeife lies face up
            if me == declarer:
                laid_away |= r[L.DISCARDS]
            elif self._see_blind:
                laid_away |= r[L.BLIND_REST]
        known[me] = 0
        outstanding = ALL & ~hand & ~played & ~laid_away
        leader = r[L.LEADER]
        n = r[L.TRICK_N]
        trick = [((leader + i) % 3, r[L.TRICK_CARD + i]) for i in range(n)]
        if raeuber:
            side = (0, 1, 2)
        else:
            side = tuple(0 if s == declarer else 1 for s in range(3))
        keep: dict[int, int] = {}
        announced: frozenset[int] = frozenset()
        if not raeuber and hand & 1:
            keep = {PFEIFE: 16}
            if me == declarer and r[L.ANNOUNCED] == 1:
                announced = frozenset((PFEIFE,))
        reserve = 0
        if not raeuber and me != declarer and r[L.ANNOUNCED] == 1 and not (played & 1):
            # An announced Pfeife fails if a defender still holds a trump in trick 16: keep the lowest one back.
            spare = hand & TRUMPS & ~1
            if spare:
                reserve = spare & -spare
        view = PlayView(
            pack=TAROCK54, me=me, n_players=3, hand=hand, legal=legal, trick=trick, side=side,
            outstanding=outstanding, voids=(r[L.VOIDS], r[L.VOIDS + 1], r[L.VOIDS + 2]), known=tuple(known),
            trick_no=r[L.TRICK_NO] + 1, keep=keep, announced=announced, avoid_points=raeuber,
            declarer=-1 if raeuber else declarer,
            precious=(1 << T21) if (outstanding >> STIESS) & 1 else 0, reserve=reserve,
        )
        return choose_card(view)
