"""The rule-based Dreiertarock player (``make_agent("rules", "dreiertarock")``).

Every decision of the game (``docs/rules/dreiertarock.md`` §4, §5, §6.8) under every option set, by rules a card
player can check. Section numbers below are those of the rules document.

**What it looks at.** Only what the seat to move may know (§9.2): its own hand, the public part of the state
(auction, declarer and contract, both talon packets and the packet taken in Einser..Fünfer, the face-up tarock
discards, announcements and doublings, played and won cards, the current trick, the suits each seat has shown
it lacks) and, for the declarer, his own discards. These are read from the public slots of the state row and
the seat's own hand slot; the Solo talon and the other hands are never touched
(``tests/agents/test_rules_dreiertarock.py`` checks this by resampling the hidden cards).

**Hand strength** is :func:`tarockrl.agents.rules._cardplay.strength54` (tarocks, high tarocks, kings, voids;
about 11 for a dealt hand).

**Bidding** (§4.1). Levels Einser..Fünfer only raise the stake (30..70, §6.2) and all take a talon packet. A
calibration (forehand made to declare an Einser, and a Solo, on 2,000 random deals against rules-agent
defenders) gave the declarer's chance to reach 36 points by strength: about 40% at 11-12, 61% at 12-13, 68% at
13-14, 80% at 14-15 and over 90% above 15; a Solo (no talon, the talon counts for the defenders) won less than
half the time even at 18. Since every level pays ``(2p - 1)`` times its value, a hand with ``p > 1/2`` wants the
highest stake it can get: a hand with ``strength >= DECLARE`` enters the auction and goes up to level
``1 + (strength - DECLARE) / LEVEL_STEP`` (at most Fünfer), bidding the next level or holding while the current
level is within that limit, and passing above it. A Solo (120) is bid at the first turn only with
``strength >= SOLO``, a Solo Valat (960) with ``strength >= SOLO_VALAT``. With ``forehand_must_bid`` a forehand
without a hand bids Einser, the cheapest way to satisfy the rule.

**Talon and discards** (§4.2). The declarer takes the packet whose best result is highest: the strength of the
hand after taking it and laying three cards away, plus a fifth of the card points of the packet taken minus
those of the packet left to the defenders (both count at the end; weights 0 and 0.5 instead of a fifth were no
better in seat-rotated comparisons). Discards bank points and make voids
(:func:`tarockrl.agents.rules._cardplay.discard_choice`, the same rule as in Dreierles: voids first, then a
bare king, then points; that rule gained 0.75 ± 0.35 per seat and deal over a points-first one in a seat-rotated
comparison); tarocks only when forced, the lowest first.

**Announcements and doubling** (§4.3, §6.4). Birds only with the tarocks to back them: the Pagat with
``PAGAT_TAROCKS`` tarocks including the Sküs and the Mond (so the declarer can draw every other tarock before
trick 16), the Uhu and the Kakadu with two and three more (and the Pagat besides, for the last tricks).
Kontra on the game by a defender whose hand is strong (strength at least ``KONTRA``), Rekontra by a declarer
with ``REKONTRA``, Subkontra by a defender with ``SUBKONTRA``; Kontra on an announced bird by an opponent
holding ``BIRD_KONTRA_TAROCKS`` tarocks (enough to keep one to the end), Rekontra on a bird by its owner with
three tarocks more than his announcement needed.

**Card play** (§5) uses :mod:`tarockrl.agents.rules._cardplay`: lead from strength, smear on the partner's sure
trick, duck cheaply, trump in when it pays; birds kept back for their trick while they can win it (announced
ones always), the Mond kept away from the Sküs (Mondfang, §6.4), and a defender keeps his lowest tarock back
for the last trick while the declarer may hold the Pagat (a Pagat ultimo wins only against empty hands); in
Trischaken (§6.8) take as few points as
possible (the legal set already applies Stichzwang and the Pagat restriction).
"""

from __future__ import annotations

import numpy as np

from tarockrl.agents.rules._base import RowRulesAgentBase
from tarockrl.agents.rules._cardplay import (
    TAROCK54,
    PlayView,
    choose_card,
    discard_choice,
    popcount,
    strength54,
)
from tarockrl.games.dreiertarock import layout as L
from tarockrl.games.dreiertarock.kernels import legal_set

__all__ = ["RulesAgent"]

TRUMPS = (1 << 22) - 1
KINGS = sum(1 << (29 + 8 * s) for s in range(4))
PAGAT, UHU, KAKADU, MOND, SKUES = 0, 1, 2, 20, 21
ALL = (1 << 54) - 1
_BIRD_TRICK = {PAGAT: 16, UHU: 15, KAKADU: 14}

# bits of the legal mask inside each phase (offsets of layout.OFF_*)
_PASS, _HOLD = 0, 1


class RulesAgent(RowRulesAgentBase):
    """The rule-based Dreiertarock player: ``step(state)`` returns the action of ``state.current_player()``.

    Args:
        game: a Dreiertarock :class:`tarockrl.games.api.Game` (any options).
        seed: recorded for the agent protocol; the player is deterministic (it has no random choices).

    The thresholds are class attributes so that experiments can subclass or patch them.
    """

    # DECLARE 11.2 / 12.4 and LEVEL_STEP 0.25 / 1.0 were no better in seat-rotated comparisons (1,500 deals)
    DECLARE = 11.8  # enter the auction (Einser) with this strength
    LEVEL_STEP = 0.5  # one level higher for every this many units above DECLARE
    SOLO = 21.0  # Solo at the first turn
    SOLO_VALAT = 30.0  # Solo Valat at the first turn
    PAGAT_TAROCKS = 11  # tarocks (Sküs and Mond included) to announce the Pagat
    KONTRA = 15.0  # a defender doubles the game with this strength
    REKONTRA = 18.0  # the declarer redoubles with this strength (after the exchange)
    SUBKONTRA = 19.0
    BIRD_KONTRA_TAROCKS = 8

    GAME = "dreiertarock"
    LEGAL_SET = staticmethod(legal_set)
    SLOT_PHASE = L.PHASE
    SLOT_CUR = L.CUR
    SLOT_HAND = L.HAND

    # ---- the decision ---------------------------------------------------------------------------------------

    def decide_row(self, row: np.ndarray, phase: int, me: int, hand: int, mask: int) -> int:
        """The action when several are legal (reads only what the seat to move may know)."""
        if phase == L.AUCTION:
            return L.OFF_AUCTION + self._bid(row, hand, mask)
        if phase == L.TALON:
            return L.A_TAKE_PACKET + self._talon(hand, int(row[L.PACKET]), int(row[L.PACKET + 1]))
        if phase == L.DISCARD:
            return L.A_DISCARD + self._discard(hand, mask, 3 - int(row[L.N_DISCARDS]))
        if phase == L.ANNOUNCE:
            return L.OFF_ANNOUNCE + self._announce(row, me, hand, mask)
        return L.A_PLAY + self._play(row, me, hand, mask)

    # ---- auction (§4.1) -------------------------------------------------------------------------------------

    def max_level(self, hand: int) -> int:
        """The highest talon level (1..5) this hand will play, 0 if none."""
        s = strength54(hand)
        if s < self.DECLARE:
            return 0
        return min(5, 1 + int((s - self.DECLARE) / self.LEVEL_STEP))

    def _bid(self, row: np.ndarray, hand: int, mask: int) -> int:
        """PASS / HOLD / BID bit (``bit 1 + level`` is the bid of that level)."""
        s = strength54(hand)
        if (mask >> (1 + L.SOLO_VALAT)) & 1 and s >= self.SOLO_VALAT:
            return 1 + L.SOLO_VALAT
        if (mask >> (1 + L.SOLO)) & 1 and s >= self.SOLO:
            return 1 + L.SOLO
        top = self.max_level(hand)
        level = int(row[L.LEVEL])
        if (mask >> _HOLD) & 1 and level <= top:
            return _HOLD
        if level + 1 <= top and (mask >> (1 + level + 1)) & 1:
            return 1 + level + 1
        if not (mask >> _PASS) & 1:  # forehand_must_bid: the cheapest legal bid
            return next(b for b in range(1, 9) if (mask >> b) & 1)
        return _PASS

    # ---- talon and discards (§4.2) ---------------------------------------------------------------------------

    def _discards_for(self, hand: int) -> int:
        """The three cards this rule would lay away from a 19-card ``hand`` (forced-only tarock rule)."""
        out = 0
        for left in (3, 2, 1):
            plain = hand & ~TRUMPS & ~KINGS
            legal = plain if popcount(plain) >= left else plain | (hand & TRUMPS & ~(1 | 1 << MOND | 1 << SKUES))
            c = self._discard(hand, legal, left)
            hand &= ~(1 << c)
            out |= 1 << c
        return out

    def _talon(self, hand: int, p0: int, p1: int) -> int:
        """Take the packet with the better hand after discarding, counting the points each side gets."""
        best, best_v = 0, -1e9
        for i, (take, leave) in enumerate(((p0, p1), (p1, p0))):
            full = hand | take
            kept = full & ~self._discards_for(full)
            v = strength54(kept) + 0.2 * (TAROCK54.points(take) - TAROCK54.points(leave))
            if v > best_v:
                best, best_v = i, v
        return best

    def _discard(self, hand: int, legal: int, left: int) -> int:
        """One discard: bank points and make voids (:func:`tarockrl.agents.rules._cardplay.discard_choice`)."""
        return discard_choice(TAROCK54, hand, legal, left, KINGS)

    # ---- announcements and doubling (§4.3) -------------------------------------------------------------------

    def _announce(self, row: np.ndarray, me: int, hand: int, mask: int) -> int:
        """Bit of the ANNOUNCE phase: 0-2 announce a bird, 3-6 double an item, 7 GOOD."""
        declarer = int(row[L.DECLARER])
        n_t = popcount(hand & TRUMPS)
        top = (hand >> SKUES) & 1 and (hand >> MOND) & 1
        s = strength54(hand)
        # birds this seat holds, with the tarocks to bring them home (Pagat, then Uhu, then Kakadu)
        for b, extra in ((PAGAT, 0), (UHU, 2), (KAKADU, 3)):
            if (mask >> b) & 1 and top and n_t >= self.PAGAT_TAROCKS + extra and (hand & 1 or b == PAGAT):
                return b
        i_am_declarer = me == declarer
        # the game: Kontra (defender, level 0 -> 1), Rekontra (declarer, 1 -> 2), Subkontra (defender, 2 -> 3)
        if (mask >> 3) & 1:
            k = int(row[L.KLEVEL])
            need = {0: self.KONTRA, 1: self.REKONTRA, 2: self.SUBKONTRA}.get(k, 1e9)
            if s >= need:
                return 3
        # announced birds
        for b in (PAGAT, UHU, KAKADU):
            if not (mask >> (4 + b)) & 1:
                continue
            owner = int(row[L.ANN_BY + b])
            owner_is_declarer = owner == declarer
            mine = owner_is_declarer == i_am_declarer
            if mine and n_t >= self.PAGAT_TAROCKS + 3:
                return 4 + b
            if not mine and n_t >= self.BIRD_KONTRA_TAROCKS:
                return 4 + b
        return 7

    # ---- card play (§5) ------------------------------------------------------------------------------------

    def _play(self, row: np.ndarray, me: int, hand: int, legal: int) -> int:
        r = row.tolist()
        declarer = r[L.DECLARER]
        trischaken = r[L.TRISCHAKEN] != 0
        played = r[L.PLAYED_BY] | r[L.PLAYED_BY + 1] | r[L.PLAYED_BY + 2]
        known = [0, 0, 0]
        laid_away = r[L.DISCARDS_UP]  # tarock discards are face up
        if not trischaken and r[L.CONTRACT] < L.SOLO:
            laid_away |= r[L.DEF_TALON]  # the rejected packet was shown
            taken = r[L.PACKET + r[L.TAKEN]] if r[L.TAKEN] >= 0 else 0
            # tarocks and kings of the packet taken are the declarer's until played (plain cards may be laid away)
            known[declarer] = taken & (TRUMPS | KINGS) & ~played & ~r[L.DISCARDS_UP]
        if me == declarer:
            laid_away |= r[L.DISCARDS]
        known[me] = 0
        outstanding = ALL & ~hand & ~played & ~laid_away
        leader = r[L.LEADER]
        trick = [((leader + i) % 3, r[L.TRICK_CARD + i]) for i in range(r[L.TRICK_N])]
        if trischaken:
            side = (0, 1, 2)
        else:
            side = tuple(0 if s == declarer else 1 for s in range(3))
        keep: dict[int, int] = {}
        announced = set()
        if not trischaken and r[L.CONTRACT] != L.SOLO_VALAT:
            for b in (PAGAT, UHU, KAKADU):
                if (hand >> b) & 1:
                    keep[b] = _BIRD_TRICK[b]
                    if r[L.ANN_BY + b] >= 0:
                        announced.add(b)
        reserve = 0
        if not trischaken and me != declarer and r[L.CONTRACT] != L.SOLO_VALAT:
            # The declarer's Pagat (40 silent, 80 announced) wins trick 16 only if the defenders are out of
            # tarocks by then: a defender keeps his lowest tarock above it for the last trick while the Pagat is out.
            if outstanding & 1 and (r[L.ANN_BY] == declarer or r[L.ANN_BY] < 0):
                spare = hand & TRUMPS & ~1
                if spare:
                    reserve = spare & -spare
        view = PlayView(
            pack=TAROCK54, me=me, n_players=3, hand=hand, legal=legal, trick=trick, side=side,
            outstanding=outstanding, voids=(r[L.VOIDS], r[L.VOIDS + 1], r[L.VOIDS + 2]), known=tuple(known),
            trick_no=r[L.TRICK_NO] + 1, keep=keep, announced=frozenset(announced), avoid_points=trischaken,
            declarer=-1 if trischaken else declarer,
            precious=(1 << MOND) if (outstanding >> SKUES) & 1 else 0, reserve=reserve,
        )
        return choose_card(view)
