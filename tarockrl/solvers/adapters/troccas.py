"""Solver adapter for Troccas (card play: phases ``PLAY`` and ``BUOB``, 19 tricks of four cards).

Sides: seats 0 and 2 against 1 and 3; both partners receive the team's settlement, so the value is the seat's.
Non-card actions of play (the king-jack demand after a trick, double leads and knocks where the options allow
them) are actions of the search like card plays.

Values: objective 0 is the root seat's settlement (``RESULT``: the team's points minus 36); objective 1 the
team's card points at the end (``POINTS``, after the scart and the Fool's payment).

Transposition key: the slots that play reads or changes (hands, the trick, the team piles and trick counts, the
Fool's records, led suits, played cards, knock targets, the scart-jack flag), without the per-seat played
records, the last-trick record, the demand and swap records and the knock counts, which rules never read.

Additive positions (``additive``): once both teams have won a trick and a payment for the Fool, made or still
possible, is a one-point card, team 0's final points are its points so far (``apast``) plus what the later tricks
add; the table then keys the position up to ranks without the piles (``akey``) and stores bounds on that rest,
cut by the teams' sure trumps at trick starts (``afmin``/``afmax``).

Equivalent cards (docs/solver.md, "Troccas"): two cards of a hand are merged when they are numerals of one suit,
or trumps II-XX while knocking is off, with no card of their suit between them still in play (a hand or the
current trick). Every such card counts one point, and no rule reads such a card other than by its suit and its
rank among the cards in play: the jack swap gives back whichever numeral its holder played, the Fool's payment
takes the lowest middle trump or numeral of a pile (one point whichever it is), must-overtrump compares with the
trumps in the trick. Knocking names the highest trump not yet played, which may lie in the scart between two
trumps of a hand, so trumps are not merged while it is on. Honours, court cards and the Fool are never merged.

Move ordering: the table's move, then ``hint`` (``rollout_hint``: a lead: a card that no card in play beats first,
the most valuable of those first, then the least valuable; a follow: with the partner winning the trick so far the
most valuable card that does not take it over, else the cheapest card that wins, else the least valuable; and third
to play, a partner's winning card that the fourth seat can take over counts as an opponent's), then the history
heuristic, kept per position in the trick (``hist_slot``), and the refutation memo.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index, popcount
from tarockrl.engine.masktricks import highest_index
from tarockrl.games.troccas import layout as L
from tarockrl.games.troccas.cards import CARD_VALUES, FOOL, MID_TRUMPS, NUMERALS, SPLIT, SUIT_MASKS, TRUMPS
from tarockrl.games.troccas.kernels import legal_set, step
from tarockrl.games.troccas.rules import O_KNOCK
from tarockrl.solvers._common import gen_merged, hmix

ONE = np.int64(1)
COPY_LEN = L.HIST_LEN + 1
MAX_DEPTH = 200
MAX_MOVES = 32
NUM_PLAYERS = 4
NUM_ACTIONS = L.NUM_ACTIONS


def _slots() -> np.ndarray:
    keep = [L.PHASE, L.CUR, L.SCART_JACK, L.LEADER, L.TRICK_N, L.IS_DOUBLE, L.LED, L.SETTER_POS, L.TRICK_TW,
            L.TRICK_SW, L.TRICK_WINNER, L.BUOB_SUIT, L.LED_SUITS, L.PLAYED_TW, L.PLAYED_SW, L.TRICK_NO,
            L.FOOL_SEAT, L.FOOL_TRICK_TEAM]
    keep += [L.HAND_TW + i for i in range(4)] + [L.HAND_SW + i for i in range(4)]
    keep += [L.TRICK_CARD + i for i in range(8)] + [L.TRICK_SEAT + i for i in range(8)]
    keep += [L.PILE_TW, L.PILE_TW + 1, L.PILE_SW, L.PILE_SW + 1, L.TRICKS_WON, L.TRICKS_WON + 1]
    keep += [L.KNOCKED_FOR + i for i in range(4)]
    return np.array(sorted(keep), dtype=np.int64)


KEY_SLOTS = _slots()
# ``gen_merged`` per word: the suit of each bit (the trumps; the Fool alone; each suit's block) and the suit word's
# card points
TW_SUIT_MASK = np.array([int(TRUMPS)] * 21 + [int(FOOL)], dtype=np.int64)
SW_SUIT_MASK = np.array([int(SUIT_MASKS[c // 14]) for c in range(56)], dtype=np.int64)
SW_VALUES = CARD_VALUES[SPLIT:].copy()


@njit(cache=True, inline="always")
def in_play(row):
    """The row is in card play (PLAY, or BUOB between a trick and its king-jack demand)."""
    return row[L.PHASE] == L.PLAY or row[L.PHASE] == L.BUOB


@njit(cache=True, inline="always")
def is_over(row):
    """The deal is over."""
    return row[L.PHASE] == L.TERMINAL


@njit(cache=True, inline="always")
def cur(row):
    """The seat to move."""
    return row[L.CUR]


@njit(cache=True, inline="always")
def paranoid(row):
    """Never: Troccas is two teams."""
    return np.int64(0)


@njit(cache=True, inline="always")
def side(row, seat, root):
    """0 when ``seat`` is ``root``'s partner or ``root``."""
    return np.int64(0) if (seat & 1) == (root & 1) else np.int64(1)


@njit(cache=True)
def leaf(row, opts, root, objective):
    """Value of a finished deal for ``root``'s team."""
    if objective == 1:
        return row[L.POINTS + (root & 1)]
    return row[L.RESULT + root]


@njit(cache=True)
def gen(row, opts, moves, reps, merge):
    """Legal actions (ascending), with equivalent cards merged when ``merge`` is set (see the module docstring);
    returns their number."""
    tw, sw, ex = legal_set(row, opts)
    ptw = row[L.TRICK_TW]
    psw = row[L.TRICK_SW]
    for s in range(4):
        ptw |= row[L.HAND_TW + s]
        psw |= row[L.HAND_SW + s]
    tclass = MID_TRUMPS if opts[O_KNOCK] == 0 else np.int64(0)
    n = gen_merged(tw, ptw, TW_SUIT_MASK, CARD_VALUES, tclass, np.int64(0), moves, reps, merge, 0)
    n = gen_merged(sw, psw, SW_SUIT_MASK, SW_VALUES, NUMERALS, np.int64(SPLIT), moves, reps, merge, n)
    while ex != 0:
        moves[n] = 78 + lowest_index(ex)
        reps[n] = n
        ex &= ex - ONE
        n += 1
    return n


@njit(cache=True, inline="always")
def tt_skip(row):
    """The last card of a trick stays out of the table (its children, the next trick's starts, are in it)."""
    return row[L.TRICK_N] == (7 if row[L.IS_DOUBLE] != 0 else 3)


@njit(cache=True, inline="always")
def hist_slot(row):
    """The history heuristic's table per position in the trick (a double lead's trick counts as its fourth)."""
    return min(row[L.TRICK_N], np.int64(3))


@njit(cache=True, inline="always")
def _trick_top(row):
    """The card winning the current trick so far (-1: no card but the Fool yet) and its seat."""
    trumps = row[L.TRICK_TW] & TRUMPS
    led = row[L.LED]
    best = np.int64(-1)
    if trumps != 0:
        best = highest_index(trumps)
    elif 0 <= led < 4:
        m = row[L.TRICK_SW] & SUIT_MASKS[led]
        if m != 0:
            best = SPLIT + highest_index(m)
    seat = np.int64(-1)
    if best >= 0:
        for i in range(row[L.TRICK_N]):
            if row[L.TRICK_CARD + i] == best:
                seat = row[L.TRICK_SEAT + i]
    return best, seat


@njit(cache=True, inline="always")
def _card_score(row, action, best, seat, partner_holds):
    """The score of card ``action`` against the trick's winning card ``best`` (-1: a lead) of seat ``seat``;
    ``partner_holds``: a partner's winning card is treated as the side's (else as an opponent's)."""
    v = CARD_VALUES[action]
    if best < 0:  # a lead: a card that no card in play beats first, the most valuable first
        if action < SPLIT:
            ptw = np.int64(0)
            for s in range(4):
                ptw |= row[L.HAND_TW + s]
            top = highest_index(ptw & TRUMPS) == action
        else:
            c = action - SPLIT
            psw = np.int64(0)
            for s in range(4):
                psw |= row[L.HAND_SW + s]
            top = highest_index(psw & SUIT_MASKS[c // 14]) == c
        return np.int64(50) + v if top else np.int64(8) - v
    if action < SPLIT:
        beats = best >= SPLIT or action > best
    else:
        beats = best >= SPLIT and (action - SPLIT) // 14 == (best - SPLIT) // 14 and action > best
    if partner_holds and (seat & 1) == (row[L.CUR] & 1):  # the most valuable card that does not overtake
        return np.int64(1) if beats else np.int64(8) + v
    return np.int64(100) - action if beats else np.int64(8) - v


@njit(cache=True)
def rollout_hint(row, opts, action, root):
    """Static score of ``action`` (higher first; see the module docstring) from the trick and the cards in play
    only (not how the hands split them): PIMC's heuristic rollouts play by it (tarockrl/agents/pimc_rollouts.py),
    and it is the base of the solver's :func:`hint`."""
    if action >= 78:  # double leads and knocks after the cards
        return np.int64(0)
    if action == 21:  # the Fool never takes a trick and is never lost: between the two kinds of cards
        return np.int64(4)
    best, seat = _trick_top(row)
    return _card_score(row, action, best, seat, True)


@njit(cache=True, inline="always")
def _can_overtake(row, q, best):
    """Whether seat ``q``, still to play to the trick, holds a card he may play that beats ``best`` (he must
    follow suit, else trump)."""
    led = row[L.LED]
    htw = row[L.HAND_TW + q] & TRUMPS
    if 0 <= led < 4:
        own = row[L.HAND_SW + q] & SUIT_MASKS[led]
        if own != 0:
            return best >= SPLIT and (own >> (best - SPLIT + 1)) != 0
        if best >= SPLIT:
            return htw != 0
    return (htw >> (best + 1)) != 0 if best < SPLIT else htw != 0


@njit(cache=True)
def hint(row, opts, action, root):
    """The solver's ordering score: :func:`rollout_hint`, except third to play with the partner winning so far
    when the fourth seat can take the trick over (read from his hand): then a card is tried as against an
    opponent's card (the cheapest that wins, else the least valuable), not smeared."""
    if action >= 78:
        return np.int64(0)
    if action == 21:
        return np.int64(4)
    best, seat = _trick_top(row)
    p = row[L.CUR]
    holds = not (row[L.TRICK_N] == 2 and row[L.IS_DOUBLE] == 0 and best >= 0 and (seat & 1) == (p & 1)
                 and _can_overtake(row, (p + 1) & 3, best))
    return _card_score(row, action, best, seat, holds)


@njit(cache=True)
def key(row, opts):
    """Transposition key (see the module docstring)."""
    h = np.int64(0x7120CA5)
    for i in range(KEY_SLOTS.shape[0]):
        h = hmix(h, row[KEY_SLOTS[i]])
    return h


@njit(cache=True, inline="always")
def apply(row, action, opts):
    """The game's unchecked step."""
    step(row, action, opts)


# ---- additive positions: the table keys the position without the piles (docs/solver.md, "Troccas") -----------
GT_LEN = 73  # team 0's final card points: 0..72 (the two teams' points always add up to 72)
TOTAL_POINTS = 72
# the slots of an additive position's key besides its cards (``akey``): the seats and the trick's state
AKEY_SCALARS = np.array(sorted([L.PHASE, L.CUR, L.SCART_JACK, L.LEADER, L.TRICK_N, L.IS_DOUBLE, L.LED,
                                L.SETTER_POS, L.TRICK_WINNER, L.BUOB_SUIT, L.LED_SUITS]
                               + [L.TRICK_SEAT + i for i in range(8)]), dtype=np.int64)
# the card blocks in rank order: trumps I-XXI, the Fool (trump word), then the four suits (suit word)
_BLOCK_WORD = np.array([0, 0, 1, 1, 1, 1], dtype=np.int64)
_BLOCK_MASK = np.array([int(TRUMPS), 1 << 21] + [0x3FFF << (14 * s) for s in range(4)], dtype=np.int64)


@njit(cache=True)
def additive(row, objective):
    """True when team 0's final card points are its points so far (``apast``) plus what the tricks still to
    play add, which depend on the position alone: both teams have won a trick (so the scart goes to the dealer's
    team whatever the slam rule says, and the Fool's team pays for it if it must), and a payment for the Fool,
    made or still possible, is a one-point card (a middle trump or numeral is already in the paying team's pile or
    in the scart that team gets). The Fool may still be in play: it ends with its team either way, which then
    adds 4 (its 5 points for a one-point card) if the other team took its trick, and that depends on the
    position alone."""
    if row[L.TRICKS_WON] == 0 or row[L.TRICKS_WON + 1] == 0:
        return False
    ft = np.int64(-1)  # the team that pays (or may still pay) for the Fool
    if row[L.FOOL_TRICK_TEAM] >= 0 or (row[L.TRICK_TW] & FOOL) != 0:
        ft = row[L.FOOL_SEAT] & 1
    else:
        for q in range(4):
            if (row[L.HAND_TW + q] & FOOL) != 0:
                ft = q & 1
    if ft >= 0:
        ptw = row[L.PILE_TW + ft]
        psw = row[L.PILE_SW + ft]
        if (row[L.DEALER] & 1) == ft:
            ptw |= row[L.SCART_TW]
            psw |= row[L.SCART_SW]
        if (ptw & MID_TRUMPS) == 0 and (psw & NUMERALS) == 0:
            return False
    return True


@njit(cache=True)
def monotone_past(row, objective):
    """Never: outside the additive positions the full key is used."""
    return False


@njit(cache=True)
def akey(row):
    """Transposition key of an additive position, up to ranks: the cards in play and in the scart block by block
    (trumps, the Fool, each suit) in rank order, each as its place (a hand, a position in the trick, the scart) and
    its points, with the seats and the trick's state, and per seat whether it has knocked for the highest trump
    not yet played. Not the piles, the trick counts or the Fool's records (their part of the value is ``apast``)
    and not which cards were played: the rules read played cards only as "the jack of a suit is out" and "the
    highest trump not yet played", both read off the cards in play and in the scart. Numerals and middle trumps
    count 1 and no rule reads them other than by rank, so positions that differ only in which of them are in play
    share a key; every other card is told by its block, rank order and points."""
    h = np.int64(0x5A4D1)
    for i in range(AKEY_SCALARS.shape[0]):
        h = hmix(h, row[AKEY_SCALARS[i]])
    unplayed = TRUMPS & ~row[L.PLAYED_TW]
    top = highest_index(unplayed) if unplayed != 0 else np.int64(-1)
    kb = np.int64(0)
    for s in range(4):
        if top >= 0 and row[L.KNOCKED_FOR + s] == top:
            kb |= ONE << s
    h = hmix(h, kb)
    w0 = row[L.TRICK_TW] | row[L.SCART_TW]
    w1 = row[L.TRICK_SW] | row[L.SCART_SW]
    for s in range(4):
        w0 |= row[L.HAND_TW + s]
        w1 |= row[L.HAND_SW + s]
    acc = np.int64(0)
    k = 0
    for b in range(6):
        w = _BLOCK_WORD[b]
        m = (w1 if w else w0) & _BLOCK_MASK[b]
        while m != 0:
            c = lowest_index(m)
            m &= m - ONE
            bit = ONE << c
            card = c + SPLIT * w
            place = np.int64(12)  # the scart unless a hand or the trick holds it
            for q in range(4):
                if (row[(L.HAND_SW if w else L.HAND_TW) + q] & bit) != 0:
                    place = q
            if place == 12 and ((row[L.TRICK_SW] if w else row[L.TRICK_TW]) & bit) != 0:
                for i in range(row[L.TRICK_N]):
                    if row[L.TRICK_CARD + i] == card:
                        place = 4 + i
            acc = (acc << 7) | ((place + 1) << 3) | CARD_VALUES[card]
            k += 1
            if k == 9:
                h = hmix(h, acc)
                acc = np.int64(0)
                k = 0
        acc <<= 7  # the end of the block (code 0)
        k += 1
        if k == 9:
            h = hmix(h, acc)
            acc = np.int64(0)
            k = 0
    return hmix(h, acc)


@njit(cache=True, inline="always")
def _points_of(tw, sw):
    """Raw card points of a card set."""
    s = np.int64(0)
    m = tw
    while m != 0:
        s += CARD_VALUES[lowest_index(m)]
        m &= m - ONE
    m = sw
    while m != 0:
        s += CARD_VALUES[SPLIT + lowest_index(m)]
        m &= m - ONE
    return s


@njit(cache=True)
def apast(row, opts):
    """Team 0's card points so far at an additive position: its pile counted in groups of four (whole tricks:
    3 off per four cards), the scart when it goes to team 0 (one more off for the pair), and the Fool's exchange
    when the Fool's team has it back for a one-point card."""
    p = _points_of(row[L.PILE_TW], row[L.PILE_SW])
    n = popcount(row[L.PILE_TW]) + popcount(row[L.PILE_SW])
    p -= 3 * (n // 4)
    if (row[L.DEALER] & 1) == 0:
        p += _points_of(row[L.SCART_TW], row[L.SCART_SW]) - 1
    if row[L.FOOL_TRICK_TEAM] >= 0:
        p += 4 if (row[L.FOOL_SEAT] & 1) == 0 else -4
    return p


@njit(cache=True)
def gtable(row, opts, root, objective, out):
    """``out[P]``: the root's value when team 0 ends with P card points (settlement: its team's points - 36;
    card points: its team's points)."""
    for p in range(GT_LEN):
        own = p if (root & 1) == 0 else TOTAL_POINTS - p
        out[p] = own if objective == 1 else own - 36
    return np.int64(GT_LEN)


@njit(cache=True, inline="always")
def _rest_max(row):
    """The most the tricks still to play can add to one team: all their points, 3 off per four cards."""
    tw = row[L.TRICK_TW]
    sw = row[L.TRICK_SW]
    for s in range(4):
        tw |= row[L.HAND_TW + s]
        sw |= row[L.HAND_SW + s]
    return _points_of(tw, sw) - 3 * ((popcount(tw) + popcount(sw)) // 4)


@njit(cache=True, inline="always")
def _sure_trumps(row, team):
    """At a trick start, what ``team``'s tricks still to play add at least: the points of the trumps of one of
    its seats that are above every trump the other team holds, the larger of the two seats' sums. Each such trump
    wins the trick it is played to, a seat plays one per trick, and each of those tricks adds at least the
    trump's points (every other card counts at least 1, 3 come off per four cards); the Fool is out of play in
    additive positions. Two partners' trumps could fall to one trick, so only one seat's count."""
    ot = (row[L.HAND_TW + 1 - team] | row[L.HAND_TW + 3 - team]) & TRUMPS
    floor = np.int64(0)
    if ot != 0:
        floor = highest_index(ot) + 1
    best = np.int64(0)
    for s in (team, team + 2):
        t = (row[L.HAND_TW + s] & TRUMPS) >> floor
        pts = np.int64(0)
        while t != 0:
            pts += CARD_VALUES[floor + lowest_index(t)]
            t &= t - ONE
        best = max(best, pts)
    return best


@njit(cache=True)
def afmin(row, opts):
    """A lower bound on what the rest adds to team 0: its sure trumps at a trick start (``_sure_trumps``), else 0
    (every trick adds at least 1 to its winner)."""
    if row[L.TRICK_N] != 0:
        return np.int64(0)
    return _sure_trumps(row, 0)


@njit(cache=True)
def afmax(row, opts):
    """An upper bound on what the rest adds to team 0: all of it, less team 1's sure trumps at a trick start."""
    if row[L.TRICK_N] != 0:
        return _rest_max(row)
    return _rest_max(row) - _sure_trumps(row, 1)


@njit(cache=True)
def bonus_range(row, opts, root):
    """Unused (no positions with a monotone past)."""
    return np.int64(0), np.int64(0)


# ---- what PIMC reads (plain Python; tarockrl/agents/pimc.py) ---------------------------------------------------


def tricks_left(row: np.ndarray, options: dict) -> int:
    """Tricks still to be completed in the card play, the current one included (PIMC's ``solve_tricks``)."""
    return 19 - int(row[L.TRICK_NO])


def pimc_defaults(options: dict) -> tuple[int, int]:
    """PIMC's ``(solve_tricks, max_nodes)``: the solver from 7 tricks left (of 19), with up to 300,000 nodes per
    world (a world over the budget sends the decision to the rollouts). The duplicate matches that chose them are
    in docs/agents.md ("Strength")."""
    return 7, 300_000

PLAYOUT_GUESS = 1
HIST_MALUS = True
MEMO_BITS = 18


@njit(cache=True)
def memo_key(row):
    """The refutation memo's key: the mover, his hand and the cards already in the trick (-1 outside PLAY)."""
    if row[L.PHASE] != L.PLAY:
        return np.int64(-1)
    p = row[L.CUR]
    h = hmix(hmix(hmix(np.int64(0x3E40), row[L.HAND_TW + p]), row[L.HAND_SW + p]), p)
    for i in range(row[L.TRICK_N]):
        h = hmix(h, row[L.TRICK_CARD + i])
    return h & np.int64(0x7FFFFFFFFFFFFF)
