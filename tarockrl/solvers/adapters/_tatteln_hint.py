"""A static Tatteln move score: the solver's move ordering and PIMC's ``heuristic`` rollout policy.

``tatteln_hint(row, opts, action, root)`` scores one legal action of the seat to move (higher is better; the
solver adapter's ``hint``). It is a pure function of the row, cheap (a few table look-ups), and written as rules
a card player can check. Scores are in half card points, so they compare the points a trick brings with the
value of the cards spent (``docs/rules/tatteln.md`` §2.3 card points, §4 decisions, §5 play):

1. **Rob the turn-up** (§4.3) always: the trump seven is the lowest trump and worth nothing.
2. **Announce** a meld class (§4.4, §4.5) exactly when the announcement is *good* (own best key above the
   opponent's, in the row as it stands, which is the world being simulated), or always when a *not good*
   outcome costs nothing (``blocker_scores`` off); never otherwise (a *not good* announcement scores the
   opponent's atoms).
3. Every card has a **holding value**: what keeping it is worth (low plain cards nothing, the ace a little,
   trumps their points plus their trick-winning power, cards of unscored melds in hand the melds' value). The
   rules player uses the same table (:func:`tarockrl.agents.rules.tatteln.holding_values`).
4. **Following**: the points the trick brings (won: +, given away: -) minus the holding value spent. So: take a
   led ten with the ace, trump a led ace with a low trump, otherwise throw the cheapest card. At the last stock
   trick the loser draws the face-up bottom card (§5.4): winning costs its value. In the final phase (§5.2)
   winning a first final trick is worth a lot (the Matsch, §6.3) and winning the last trick brings 10.
5. **Leading** in the stock phase: the expected loss of the card: a card the opponent may beat (a higher card of
   its suit or a trump not yet seen) is likely lost with its points, a card nobody can beat wins its points;
   minus the holding value. In the final phase the opponent's hand is known (every card not seen elsewhere is
   his, §9.1), so a lead is a **sure winner** when he can neither beat it in its suit nor trump it; sure winners
   are led first (the most valuable first), then the cheapest card.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index
from tarockrl.games.tatteln import layout as L
from tarockrl.games.tatteln.cards import CARD_POINTS, HIGHER, STRENGTH, SUIT_MASK, TRUMP_STRENGTH
from tarockrl.games.tatteln.melds import (
    SEQ_HELD,
    WIN_CARDS,
    WIN_LEN,
    best_seq_key,
    best_set_key,
    meld_cfg,
    rank_slices,
    set_ranks,
    window_value,
)
from tarockrl.games.tatteln.rules import O_BLOCKER, O_BONUS, O_DECK, O_HAND, O_MATSCH, O_V_FOUR, O_V_TRIO

ONE = np.int64(1)
M32 = np.int64(0xFFFFFFFF)

# Holding value of a plain card by plain rank r, in half points (7 8 9 J Q K T A; with 36 cards 6 7 8 9 J Q K T A):
# the rules player's table times two.
E_PLAIN2 = np.array([[-2, -2, -2, 0, 1, 2, 2, 8, 0], [-2, -2, -2, -2, 0, 1, 2, 2, 8]], dtype=np.int64)
TRUMP_BASE2 = np.int64(6)  # a trump's trick-winning power: 3 points plus its rank in the trump order (times 2)
ROB_SCORE = np.int64(1 << 20)
ANNOUNCE_SCORE = np.int64(1 << 19)
NEVER = np.int64(-(1 << 20))
SURE_LEAD = np.int64(200)  # final phase: a lead the opponent cannot take
FIRST_FINAL_TRICK = np.int64(80)  # final phase: winning the first final trick (a Matsch doubles and forfeits)
AVG_DRAW2 = np.int64(4)  # the holding value of an average unseen card, in half points
E_PLAIN2.setflags(write=False)


@njit(cache=True, inline="always")
def _points(c, trump, d, opts):
    return CARD_POINTS[d, 1 if opts[O_BONUS] != 0 else 0, trump + 1, c]


@njit(cache=True)
def holding2(c, trump, d, r, opts):
    """Holding value of card ``c`` without melds, in half points (rule 3)."""
    if trump >= 0 and c // r == trump:
        return 2 * _points(c, trump, d, opts) + TRUMP_BASE2 + 2 * TRUMP_STRENGTH[d, c % r]
    return E_PLAIN2[d, c % r]


@njit(cache=True)
def meld_bonus2(row, p, c, d, r, opts):
    """Value of the unscored melds in ``p``'s hand that card ``c`` belongs to, in half points (rule 3)."""
    hand = row[L.HAND + p]
    cfg = meld_cfg(opts, d)
    rm = (ONE << r) - ONE
    s = c // r
    q = c % r
    scored = (row[L.SCORED + 2 * p + (s >> 1)] >> (32 * (s & 1))) & M32
    u = SEQ_HELD[cfg, (hand >> (r * s)) & rm] & ~scored
    v = np.int64(0)
    while u != 0:
        w = lowest_index(u)
        u &= u - ONE
        if (WIN_CARDS[cfg, w] >> q) & ONE:
            v += window_value(WIN_LEN[cfg, w], opts)
    ge3, four = rank_slices(hand, r)
    if (set_ranks(opts, d) >> q) & ONE:
        sets = row[L.SETS] >> (18 * p)
        trio_sc = sets & 511
        four_sc = (sets >> 9) & 511
        if (four >> q) & ONE:
            if not (four_sc >> q) & ONE:
                v += opts[O_V_FOUR]
        elif (ge3 >> q) & ONE:
            if not ((trio_sc | four_sc) >> q) & ONE:
                v += opts[O_V_TRIO]
    return 2 * v


@njit(cache=True)
def _announce_good(row, opts, p, cls, d, r):
    """True when announcing class ``cls`` (0 sequences, 1 sets) now is *good* for ``p`` (§4.5)."""
    hp = row[L.HAND + p]
    ho = row[L.HAND + 1 - p]
    if cls == 0:
        cfg = meld_cfg(opts, d)
        return best_seq_key(hp, cfg, r) > best_seq_key(ho, cfg, r)
    elig = set_ranks(opts, d)
    return best_set_key(hp, d, r, elig) > best_set_key(ho, d, r, elig)


@njit(cache=True)
def tatteln_hint(row, opts, action, root):
    """Static score of a legal ``action`` for the seat to move (see the module docstring); higher is better."""
    n = opts[O_DECK]
    d = 1 if n == 36 else 0
    r = 8 + d
    p = row[L.CUR]
    if action == n + 2:
        return ROB_SCORE
    if action >= n:
        if opts[O_BLOCKER] == 0 or _announce_good(row, opts, p, action - n, d, r):
            return ANNOUNCE_SCORE
        return NEVER
    c = action
    o = 1 - p
    trump = row[L.TRUMP]
    t1 = trump + 1
    final = row[L.PHASE] == L.FINAL_PHASE
    pts2 = 2 * _points(c, trump, d, opts)
    keep = holding2(c, trump, d, r, opts) + meld_bonus2(row, p, c, d, r, opts)
    led = row[L.LED]
    if led >= 0:  # rule 4: following
        if c // r == led // r:
            beats = STRENGTH[d, t1, c] > STRENGTH[d, t1, led]
        else:
            beats = trump >= 0 and c // r == trump
        swing = pts2 + 2 * _points(led, trump, d, opts)
        score = (swing if beats else -swing) - keep
        if not final:
            sl = n - 2 * opts[O_HAND] - row[L.STOCK_POS]
            if sl == 2 and row[L.BOTTOM] >= 0 and beats:  # the loser draws the face-up bottom card
                score -= holding2(row[L.BOTTOM], trump, d, r, opts) - AVG_DRAW2
        elif beats:
            if opts[O_MATSCH] != 0 and row[L.FINAL_WON + p] == 0:
                score += FIRST_FINAL_TRICK
            if row[L.TRICKS] == n // 2 - 1:
                score += 20
        return score
    # rule 5: leading
    suit = SUIT_MASK[d, c // r]
    is_trump = trump >= 0 and c // r == trump
    if final:
        opp = row[L.HAND + o]
        if opp & suit:
            safe = (opp & HIGHER[d, t1, c]) == 0
        else:
            safe = is_trump or trump < 0 or (opp & SUIT_MASK[d, trump]) == 0
        if safe:
            bonus = FIRST_FINAL_TRICK if (opts[O_MATSCH] != 0 and row[L.FINAL_WON + p] == 0) else np.int64(0)
            return SURE_LEAD + bonus + pts2
        return -pts2 - keep
    outside = ((ONE << n) - ONE) & ~row[L.HAND + p] & ~row[L.PLAYED] & ~row[L.PLAYED + 1]
    if row[L.BOTTOM] >= 0:
        outside &= ~(ONE << row[L.BOTTOM])
    if (outside & HIGHER[d, t1, c]) != 0:
        score = -(9 * pts2) // 10
    elif (not is_trump) and trump >= 0 and (outside & SUIT_MASK[d, trump]) != 0:
        score = -pts2 // 2
    else:
        score = pts2 // 2
    return score - keep
