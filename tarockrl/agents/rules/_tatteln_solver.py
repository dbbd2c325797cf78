"""Exact endgame search for the Tatteln rule-based player (the final phase, ``docs/rules/tatteln.md`` §5.2).

Once the stock is exhausted both hands are known to both players: every card is either in the seat's own hand,
already played, or in the opponent's hand (``docs/rules/tatteln.md`` §9.1 makes the played cards public and the
stock is empty). The rest of the deal is then a two-player game of perfect information, and a plain alpha-beta
search over the remaining tricks finds the card that maximises the seat's settlement (card points, the 10 for the
last trick, the meld points already scored, the Matsch of §6.3 and the reward mode of §6.4).

Two searches cooperate. While a Matsch is still possible (a seat has not yet won a final-phase trick) the
settlement is not a sum over tricks, and :func:`_search` carries the card points along each line of play. Once
both seats have won a final trick the settlement only grows with the points the seat still takes, so
:func:`_xsearch` values a position at a trick boundary by those points alone (a monotone transform keeps the
minimax choice), which makes positions reached by different lines identical: they are stored in a
transposition table with lower and upper bounds. Both searches are alpha-beta with the best-looking moves first
and interchangeable cards (same suit, same points, nothing in play between them) searched once.

The search is bounded by a node budget; when the budget runs out it reports failure and the caller falls back to
its heuristics. Everything here is int64; the caller provides the transposition table (``new_table``).
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


# Frames of the points search (one per card played): hands, seat to play, leader, led card, moves left, window,
# running best, the window the frame was opened with (for the table), the points of the move being searched,
# and whether the frame is a trick boundary (stored in the table).
X_ME, X_OPP, X_TURN, X_LEADER, X_LED, X_MOVES, X_ALPHA, X_BETA, X_BEST, X_A0, X_B0, X_GAIN, X_KEYED = range(13)
X_FIELDS = 13
TT_BITS = 16
TT_SIZE = 1 << TT_BITS
T_ME, T_OPP, T_LO, T_HI, T_GEN = range(5)
NONE = np.int64(-(1 << 50))


def new_table() -> np.ndarray:
    """A transposition table for :func:`solve_final` (reused across calls; each call uses a new generation)."""
    t = np.zeros((TT_SIZE, 5), dtype=np.int64)
    t[:, T_GEN] = -1
    return t


@njit(cache=True, inline="always")
def _slot(me, opp_lead):
    h = (me * np.int64(0x9E3779B1) + opp_lead * np.int64(0x85EBCA77)) ^ (me >> 17) ^ (opp_lead >> 13)
    return (h ^ (h >> 29)) & (TT_SIZE - 1)


@njit(cache=True)
def _xopen(X, g, alpha, beta, par, pts, strength, higher, tt, gen):
    """Start points-search frame ``g``; returns its value when the table settles it, else NONE."""
    led = X[g, X_LED]
    X[g, X_KEYED] = 0
    if led < 0:
        me = X[g, X_ME]
        opp_lead = X[g, X_OPP] | (X[g, X_LEADER] << 40)
        i = _slot(me, opp_lead)
        if tt[i, T_GEN] == gen and tt[i, T_ME] == me and tt[i, T_OPP] == opp_lead:
            lo = tt[i, T_LO]
            hi = tt[i, T_HI]
            if lo == hi or lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        X[g, X_KEYED] = 1
    hand = X[g, X_ME] if X[g, X_TURN] == 0 else X[g, X_OPP]
    moves = _legal(hand, led, par, higher)
    X[g, X_MOVES] = _distinct(moves, X[g, X_ME], X[g, X_OPP], led, par, pts, strength)
    X[g, X_ALPHA] = alpha
    X[g, X_BETA] = beta
    X[g, X_A0] = alpha
    X[g, X_B0] = beta
    X[g, X_BEST] = NEG if X[g, X_TURN] == 0 else POS
    return NONE


@njit(cache=True)
def _xstore(X, g, v, tt, gen):
    """Record the value ``v`` of boundary frame ``g`` in the table as exact, lower or upper bound."""
    me = X[g, X_ME]
    opp_lead = X[g, X_OPP] | (X[g, X_LEADER] << 40)
    i = _slot(me, opp_lead)
    if not (tt[i, T_GEN] == gen and tt[i, T_ME] == me and tt[i, T_OPP] == opp_lead):
        tt[i, T_GEN] = gen
        tt[i, T_ME] = me
        tt[i, T_OPP] = opp_lead
        tt[i, T_LO] = NEG
        tt[i, T_HI] = POS
    if v <= X[g, X_A0]:
        if v < tt[i, T_HI]:
            tt[i, T_HI] = v
    elif v >= X[g, X_B0]:
        if v > tt[i, T_LO]:
            tt[i, T_LO] = v
    else:
        tt[i, T_LO] = v
        tt[i, T_HI] = v


@njit(cache=True, inline="always")
def _back_cols(frames, f, v, turn, best, alpha, beta):
    """Take value ``v`` of a child into row ``f`` of a frame stack whose columns ``turn``, ``best``, ``alpha``,
    ``beta`` are given (max for the seat, turn 0, min for the opponent): the one backing-up rule of both searches."""
    if frames[f, turn] == 0:
        if v > frames[f, best]:
            frames[f, best] = v
        if v > frames[f, alpha]:
            frames[f, alpha] = v
    else:
        if v < frames[f, best]:
            frames[f, best] = v
        if v < frames[f, beta]:
            frames[f, beta] = v


@njit(cache=True, inline="always")
def _xback(X, f, v):
    """:func:`_back_cols` on the trick-boundary search's frames ``X``."""
    _back_cols(X, f, v, X_TURN, X_BEST, X_ALPHA, X_BETA)


@njit(cache=True)
def _xsearch(h_me, h_opp, leader, alpha, beta, X, par, pts, strength, higher, tt, ctl):
    """Points the seat takes from a trick boundary to the end (last-trick ten included), both playing to
    maximise / minimise them; ``ctl[0]`` counts nodes, ``ctl[1]`` is the table generation."""
    gen = ctl[1]
    X[0, X_ME] = h_me
    X[0, X_OPP] = h_opp
    X[0, X_TURN] = leader
    X[0, X_LEADER] = leader
    X[0, X_LED] = -1
    v = _xopen(X, 0, alpha, beta, par, pts, strength, higher, tt, gen)
    if v != NONE:
        return v
    r = par[P_R]
    t = par[P_TRUMP]
    sp = 0
    while True:
        if X[sp, X_MOVES] == 0 or X[sp, X_ALPHA] >= X[sp, X_BETA]:
            v = X[sp, X_BEST]
            if X[sp, X_KEYED] != 0:
                _xstore(X, sp, v, tt, gen)
            if sp == 0:
                return v
            sp -= 1
            _xback(X, sp, v + X[sp, X_GAIN])
            continue
        moves = X[sp, X_MOVES]
        led = X[sp, X_LED]
        c = _next_move(moves, led, pts, strength, par)
        X[sp, X_MOVES] = moves & ~(np.int64(1) << c)
        bit = np.int64(1) << c
        turn = X[sp, X_TURN]
        h_me = X[sp, X_ME] & ~bit if turn == 0 else X[sp, X_ME]
        h_opp = X[sp, X_OPP] & ~bit if turn == 1 else X[sp, X_OPP]
        g = sp + 1
        if led < 0:
            gain = np.int64(0)
            X[g, X_TURN] = 1 - turn
            X[g, X_LEADER] = turn
            X[g, X_LED] = c
        else:
            leader = X[sp, X_LEADER]
            if c // r == led // r:
                follower_wins = strength[c] > strength[led]
            else:
                follower_wins = t >= 0 and c // r == t
            winner = (1 - leader) if follower_wins else leader
            gain = np.int64(0)
            if winner == 0:
                gain = pts[c] + pts[led]
                if h_me == 0 and h_opp == 0:
                    gain += 10
            if h_me == 0 and h_opp == 0:
                _xback(X, sp, gain)
                continue
            X[g, X_TURN] = winner
            X[g, X_LEADER] = winner
            X[g, X_LED] = -1
        X[sp, X_GAIN] = gain
        X[g, X_ME] = h_me
        X[g, X_OPP] = h_opp
        ctl[0] += 1
        if ctl[0] > par[P_BUDGET]:
            return np.int64(0)
        v = _xopen(X, g, X[sp, X_ALPHA] - gain, X[sp, X_BETA] - gain, par, pts, strength, higher, tt, gen)
        if v != NONE:
            _xback(X, sp, v + gain)
            continue
        sp += 1


@njit(cache=True)
def _child(frames, f, c, par, pts, strength, higher, X, tt, ctl):
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
    if par[P_MATSCH] == 0 or (frames[g, F_FWME] > 0 and frames[g, F_FWOPP] > 0):
        # no Matsch can happen any more: the rest is a sum of trick points, searched with the table
        rest = np.int64(10)
        m = h_me | h_opp
        while m != 0:
            rest += pts[lowest_index(m)]
            m &= m - 1
        x = _xsearch(h_me, h_opp, winner, NEG, POS, X, par, pts, strength, higher, tt, ctl)
        return _settle(frames[g, F_PME] + x, frames[g, F_POPP] + rest - x, frames[g, F_FWME], frames[g, F_FWOPP],
                       par)
    frames[g, F_TURN] = winner
    frames[g, F_LEADER] = winner
    frames[g, F_LED] = -1
    return NEG


@njit(cache=True)
def _distinct(moves, h_me, h_opp, led, par, pts, strength):
    """``moves`` without duplicates: a card is dropped when a lower card of the same suit with the same points is
    also a move and no other card still in play (either hand, or the led card) lies between them in strength;
    the two are then interchangeable for the rest of the deal."""
    r = par[P_R]
    live = h_me | h_opp
    if led >= 0:
        live |= np.int64(1) << led
    out = moves
    m = moves
    while m != 0:
        c = lowest_index(m)
        m &= m - 1
        suit = _suit_mask(c // r, r)
        others = moves & suit & ~(np.int64(1) << c)
        while others != 0:
            d = lowest_index(others)
            others &= others - 1
            if pts[d] != pts[c] or strength[d] >= strength[c] or ((out >> d) & 1) == 0:
                continue
            between = False
            rest = live & suit
            while rest != 0:
                x = lowest_index(rest)
                rest &= rest - 1
                if strength[d] < strength[x] < strength[c]:
                    between = True
                    break
            if not between:
                out &= ~(np.int64(1) << c)
                break
    return out


@njit(cache=True)
def _next_move(moves, led, pts, strength, par):
    """The move to try next (good moves first make alpha-beta cut more): leading, the strongest card; following,
    the cheapest card that wins the trick, else the card with the fewest points."""
    r = par[P_R]
    t = par[P_TRUMP]
    best = np.int64(-1)
    best_key = np.int64(1 << 30)
    m = moves
    while m != 0:
        c = lowest_index(m)
        m &= m - 1
        if led < 0:
            key = -strength[c]
        else:
            if c // r == led // r:
                wins = strength[c] > strength[led]
            else:
                wins = t >= 0 and c // r == t
            key = strength[c] if wins else 1000 + 100 * pts[c] + strength[c]
        if key < best_key:
            best_key = key
            best = c
    return best


@njit(cache=True)
def _open(frames, g, alpha, beta, par, pts, strength, higher):
    """Start frame ``g``: its legal moves (without interchangeable duplicates), its window and its running best."""
    hand = frames[g, F_ME] if frames[g, F_TURN] == 0 else frames[g, F_OPP]
    moves = _legal(hand, frames[g, F_LED], par, higher)
    frames[g, F_MOVES] = _distinct(moves, frames[g, F_ME], frames[g, F_OPP], frames[g, F_LED], par, pts, strength)
    frames[g, F_ALPHA] = alpha
    frames[g, F_BETA] = beta
    frames[g, F_BEST] = NEG if frames[g, F_TURN] == 0 else POS


@njit(cache=True, inline="always")
def _back(frames, f, v):
    """Take value ``v`` of a child into frame ``f`` (max for the seat, min for the opponent; :func:`_back_cols`)."""
    _back_cols(frames, f, v, F_TURN, F_BEST, F_ALPHA, F_BETA)


@njit(cache=True)
def _search(frames, alpha, beta, par, pts, strength, higher, X, tt, ctl):
    """Alpha-beta value of the position in ``frames[1]`` (fields set except the moves and the window)."""
    _open(frames, 1, alpha, beta, par, pts, strength, higher)
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
        c = _next_move(moves, frames[sp, F_LED], pts, strength, par)
        frames[sp, F_MOVES] = moves & ~(np.int64(1) << c)
        v = _child(frames, sp, c, par, pts, strength, higher, X, tt, ctl)
        if v != NEG:
            _back(frames, sp, v)
            continue
        ctl[0] += 1
        if ctl[0] > par[P_BUDGET]:
            return np.int64(0)
        _open(frames, sp + 1, frames[sp, F_ALPHA], frames[sp, F_BETA], par, pts, strength, higher)
        sp += 1


@njit(cache=True)
def solve_final(h_me, h_opp, me_leads, led, pile_me, pile_opp, fw_me, fw_opp, par, pts, strength, higher, values, tt,
                gen):
    """Value every legal card of the seat to move (``values[c]``, NEG for cards not legal).

    ``tt`` is a table from :func:`new_table` and ``gen`` a number not used with it before (entries of other
    generations are ignored). ``me_leads``: 1 when the seat leads this trick (``led`` = -1), 0 when it follows
    the opponent's ``led``.
    Cards worse than the best are only bounded (their value is at most the best minus one), which is all the
    choice needs. Returns the number of nodes searched, or -1 when the node budget ran out (``values`` is then
    meaningless).
    """
    ctl = np.zeros(2, dtype=np.int64)
    ctl[1] = gen
    frames = np.zeros((MAX_DEPTH, N_FIELDS), dtype=np.int64)
    X = np.zeros((MAX_DEPTH, X_FIELDS), dtype=np.int64)
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
        v = _child(frames, 0, c, par, pts, strength, higher, X, tt, ctl)
        if v == NEG:
            v = _search(frames, best - 1, POS, par, pts, strength, higher, X, tt, ctl)
        values[c] = v
        if v > best:
            best = v
        if ctl[0] > par[P_BUDGET]:
            return np.int64(-1)
    return ctl[0]
