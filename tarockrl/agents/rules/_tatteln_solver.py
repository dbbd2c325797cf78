"""Exact endgame search for the Tatteln rule-based player (the final phase, ``docs/rules/tatteln.md`` §5.2).

Once the stock is exhausted both hands are known to both players: every card is either in the seat's own hand,
already played, or in the opponent's hand (``docs/rules/tatteln.md`` §9.1 makes the played cards public and the
stock is empty). The rest of the deal is then a two-player game of perfect information, and a plain alpha-beta
search over the remaining tricks finds the card that maximises the seat's settlement (card points, the 10 for the
last trick, the meld points already scored, the Matsch of §6.3 and the reward mode of §6.4).

The search is bounded by a node budget; when the budget runs out it reports failure and the caller falls back to
its heuristics. Everything here is int64 and allocation-free apart from the small scratch arrays the caller gives.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index

NEG = np.int64(-(1 << 40))
POS = np.int64(1 << 40)

# Parameters packed in one int64 array ``par`` (all public facts or options).
P_TRUMP = 0  # trump suit, -1 under no_trump
P_R = 1  # cards per suit
P_MUST_HEAD = 2
P_MUST_TRUMP = 3
P_MATSCH = 4
P_FORFEIT = 5
P_MULT = 6
P_WINLOSS = 7
P_MELD_ME = 8
P_MELD_OPP = 9
P_BUDGET = 10
P_LEN = 11


@njit(cache=True, inline="always")
def _suit_mask(s, r):
    return ((np.int64(1) << r) - 1) << (r * s)


@njit(cache=True)
def _legal(hand, led, par, higher):
    """Cards of ``hand`` that may follow ``led`` in the final phase (§5.2), or the whole hand when leading."""
    if led < 0:
        return hand
    r = par[P_R]
    same = hand & _suit_mask(led // r, r)
    if same != 0:
        if par[P_MUST_HEAD] != 0:
            hi = same & higher[led]
            if hi != 0:
                return hi
        return same
    t = par[P_TRUMP]
    if par[P_MUST_TRUMP] != 0 and t >= 0:
        tr = hand & _suit_mask(t, r)
        if tr != 0:
            return tr
    return hand


@njit(cache=True)
def _settle(pile_me, pile_opp, fw_me, fw_opp, par):
    """The seat's settlement (§6.3, §6.4) for final card points and final-phase tricks won."""
    d_me = pile_me + par[P_MELD_ME]
    d_opp = pile_opp + par[P_MELD_OPP]
    mult = np.int64(1)
    if par[P_MATSCH] != 0:
        if fw_me == 0:
            mult = par[P_MULT]
            if par[P_FORFEIT] != 0:
                d_me = 0
        elif fw_opp == 0:
            mult = par[P_MULT]
            if par[P_FORFEIT] != 0:
                d_opp = 0
    diff = d_me - d_opp
    if par[P_WINLOSS] != 0:
        if diff > 0:
            return mult * 1000
        if diff < 0:
            return -mult * 1000
        return np.int64(0)
    return mult * diff


# Fields of one frame of the explicit search stack (numba cannot load cached recursive functions, so the
# alpha-beta search keeps its own stack: one frame per card played, at most 2 * 18 + 1 frames).
F_ME, F_OPP, F_TURN, F_LEADER, F_LED, F_PME, F_POPP, F_FWME, F_FWOPP, F_MOVES, F_ALPHA, F_BETA, F_BEST = range(13)
N_FIELDS = 13
MAX_DEPTH = 40


@njit(cache=True)
def _child(frames, f, c, par, pts, strength):
    """Fill frame ``f + 1`` with the position after the player of frame ``f`` plays ``c``; return its value
    when that position is the end of the deal (and leave the frame unused), else NEG."""
    bit = np.int64(1) << c
    g = f + 1
    h_me = frames[f, F_ME]
    h_opp = frames[f, F_OPP]
    turn = frames[f, F_TURN]
    if turn == 0:
        h_me &= ~bit
    else:
        h_opp &= ~bit
    frames[g, F_ME] = h_me
    frames[g, F_OPP] = h_opp
    frames[g, F_PME] = frames[f, F_PME]
    frames[g, F_POPP] = frames[f, F_POPP]
    frames[g, F_FWME] = frames[f, F_FWME]
    frames[g, F_FWOPP] = frames[f, F_FWOPP]
    led = frames[f, F_LED]
    leader = frames[f, F_LEADER]
    if led < 0:
        # a lead: the other seat follows
        frames[g, F_TURN] = 1 - turn
        frames[g, F_LEADER] = leader
        frames[g, F_LED] = c
        return NEG
    # a follow completes the trick (section 5.3)
    r = par[P_R]
    t = par[P_TRUMP]
    if c // r == led // r:
        follower_wins = strength[c] > strength[led]
    else:
        follower_wins = t >= 0 and c // r == t
    winner = (1 - leader) if follower_wins else leader
    gain = pts[c] + pts[led]
    if h_me == 0 and h_opp == 0:
        gain += 10  # the last trick (section 2.3)
    if winner == 0:
        frames[g, F_PME] += gain
        frames[g, F_FWME] += 1
    else:
        frames[g, F_POPP] += gain
        frames[g, F_FWOPP] += 1
    if h_me == 0 and h_opp == 0:
        return _settle(frames[g, F_PME], frames[g, F_POPP], frames[g, F_FWME], frames[g, F_FWOPP], par)
    frames[g, F_TURN] = winner
    frames[g, F_LEADER] = winner
    frames[g, F_LED] = -1
    return NEG


@njit(cache=True)
def _open(frames, g, alpha, beta, par, higher):
    """Start frame ``g``: its legal moves, its window and its running best."""
    hand = frames[g, F_ME] if frames[g, F_TURN] == 0 else frames[g, F_OPP]
    frames[g, F_MOVES] = _legal(hand, frames[g, F_LED], par, higher)
    frames[g, F_ALPHA] = alpha
    frames[g, F_BETA] = beta
    frames[g, F_BEST] = NEG if frames[g, F_TURN] == 0 else POS


@njit(cache=True, inline="always")
def _back(frames, f, v):
    """Take value ``v`` of a child into frame ``f`` (max for the seat, min for the opponent)."""
    if frames[f, F_TURN] == 0:
        if v > frames[f, F_BEST]:
            frames[f, F_BEST] = v
        if v > frames[f, F_ALPHA]:
            frames[f, F_ALPHA] = v
    else:
        if v < frames[f, F_BEST]:
            frames[f, F_BEST] = v
        if v < frames[f, F_BETA]:
            frames[f, F_BETA] = v


@njit(cache=True)
def _search(frames, alpha, beta, par, pts, strength, higher, nodes):
    """Alpha-beta value of the position in ``frames[1]`` (fields set except the moves and the window)."""
    _open(frames, 1, alpha, beta, par, higher)
    sp = 1
    while True:
        if frames[sp, F_MOVES] == 0 or frames[sp, F_ALPHA] >= frames[sp, F_BETA]:
            v = frames[sp, F_BEST]
            sp -= 1
            if sp == 0:
                return v
            _back(frames, sp, v)
            continue
        moves = frames[sp, F_MOVES]
        c = lowest_index(moves)
        frames[sp, F_MOVES] = moves & (moves - 1)
        v = _child(frames, sp, c, par, pts, strength)
        if v != NEG:
            _back(frames, sp, v)
            continue
        nodes[0] += 1
        if nodes[0] > par[P_BUDGET]:
            return np.int64(0)
        _open(frames, sp + 1, frames[sp, F_ALPHA], frames[sp, F_BETA], par, higher)
        sp += 1


@njit(cache=True)
def solve_final(h_me, h_opp, me_leads, led, pile_me, pile_opp, fw_me, fw_opp, par, pts, strength, higher, values):
    """Value every legal card of the seat to move (``values[c]``, NEG for cards not legal).

    ``me_leads``: 1 when the seat leads this trick (``led`` = -1), 0 when it follows the opponent's ``led``.
    Cards worse than the best are only bounded (their value is at most the best minus one), which is all the
    choice needs. Returns 1 when the search finished within the node budget, 0 otherwise (``values`` is then
    meaningless).
    """
    nodes = np.zeros(1, dtype=np.int64)
    frames = np.zeros((MAX_DEPTH, N_FIELDS), dtype=np.int64)
    values[:] = NEG
    moves = _legal(h_me, led, par, higher)
    frames[0, F_ME] = h_me
    frames[0, F_OPP] = h_opp
    frames[0, F_TURN] = 0
    frames[0, F_LEADER] = 0 if me_leads != 0 else 1
    frames[0, F_LED] = led
    frames[0, F_PME] = pile_me
    frames[0, F_POPP] = pile_opp
    frames[0, F_FWME] = fw_me
    frames[0, F_FWOPP] = fw_opp
    best = NEG
    while moves != 0:
        c = lowest_index(moves)
        moves &= moves - 1
        v = _child(frames, 0, c, par, pts, strength)
        if v == NEG:
            v = _search(frames, best - 1, POS, par, pts, strength, higher, nodes)
        values[c] = v
        if v > best:
            best = v
        if nodes[0] > par[P_BUDGET]:
            return 0
    return 1
