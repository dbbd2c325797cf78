"""Solver adapter for Dreierles (card play: phase ``PLAY``, 16 tricks of three cards).

Sides: the declarer against the two defenders; in Räuber (all passed) every seat plays for himself and the
search is paranoid (the root seat against the other two).

Values: objective 0 is the settlement: the declarer's ``RESULT`` for the declarer's side, minus it (the sum of
the two defenders' settlements) for the defenders' side, the root seat's own in Räuber. Objective 1 is the card
points of the root's side as the game counts them at the end (``POINTS``: the side's pile with the discards or
the defenders' part of the blind, in groups of three; the own pile in Räuber).

Transposition key: the position up to ranks (``rank_key``: the cards still in play in suit and rank order, each
as its place, a hand or its position in the current trick, and its counting value; the seat to move, the leader),
and a summary of the tricks won so far that is exactly what the settlement depends on: the declarer's pile points
so far (discards and completed tricks; the defenders' pile is the rest), or in Räuber the pile points each seat
has won so far (a pile holds whole tricks, so its final points are these plus the points of the tricks it still
wins; a Räuber pile never gets the blind), with the Stieß-played flag, the count of trump leads and which of the
Pfeife, XXI and Stieß are still in play (all read by the Räuber play restrictions). Outside Räuber the play depends
on cards only through suit, rank order and value, and scoring reads only these: ``pile_points`` of a pile depends on its
size and value sum, and for piles whose sizes differ by whole tricks it is additive (a won trick adds its value
minus 2, or 3 value - 6 in exact thirds), so the declarer's final points are the points so far plus the points of
the tricks still to win; the Pfeife bonus depends on the last trick itself; hand bonuses on the hands at the start
of play or as dealt.

Additive positions (not Räuber, and with ``objective="returns"`` the Pfeife out of play, so its bonus is fixed,
or with ``"card_points"`` always): the root side's value is a monotone function (``gtable``) of the declarer's
final pile points = points so far (``apast``) + points of the rest, and the rest does not depend on the past.
There the table key is the position alone (``akey``) and the table stores bounds on the points of the rest,
translated to and from value bounds through the monotone table: transpositions with different pasts share one
entry. With ``PAYOFF_SIM`` (on) the key is the position's structure alone (``skey``: ``akey`` without the counting
values) and the entry also holds the counting values (``pvec``); an entry of a position with other values bounds
this one's rest within ``pdelta`` (over the same play the declarer wins the same cards card for card, so the
rest's points differ by at most the sum of the value differences of one sign), the payoff-similarity of Furtak
and Buro (2011); docs/solver.md, round ps15.
The rest's points lie between ``afmin`` and ``afmax``, so a search window outside the values those reach is cut
off at once. At the start of a trick (``_start_lo``/``_start_hi``): the declarer's sure top trumps, plus the
plain top cards he can cash when he leads (the defenders' forced cards of the suit counted; a defender without
trumps cannot ruff, so his void does not end the run); all points in play less the defenders' sure top trumps and,
when a defender leads, their cashed tops, and against a declarer without trumps the defenders' run of safe cards
(``trumpless_run``). At the third card of a trick (``_third``) the bounds look one play ahead: per legal card, the
trick's points if the declarer wins it plus the trick-start bound after it, the best for the seat to move (an
admissible bound of every child makes one of the parent); at the second card two plays ahead (``_second``).
Strategy bounds (``tarockrl/solvers/adapters/_dreierles_bounds.py``): the declarer's best against one fixed
defender strategy bounds his points from above; at a trick start where a defender leads, ``_start_hi`` is also at
most what he can get after the defenders' run of safe and covered leads (``defender_run``), and with the switches
below, with him on lead (``_lead_hi``), at the look-ahead's leaves, and his own run as a lower bound. The search
tells the bounds where they would cut (``BOUND_NEED``: ``afmin_need``/``afmax_need``), so the look-ahead stops
once it knows the answer; at the third card the bound implied by the second card's is not recomputed
(``IMPLIED_SKIP``), and at the second card ``afmax`` is the every-play bound (``SECOND_HI`` off).

Positions with a monotone past (``monotone_past``: not Räuber, the Pfeife still in play with ``"returns"``): the
value is ``gtable`` of the final points plus the Pfeife bonus decided in the last trick, within ``bonus_range``;
so it is monotone in the points so far for a fixed position, and the search keys the position and the zero-window
threshold and stores the least (most) points so far known to reach (miss) it (with ``PAYOFF_SIM`` keyed by
``skey``, a similar position's pasts shifted by ``pdelta``); the same static bounds cut. There,
at a trick start with at most ``SWEEP_TRICKS`` tricks left, ``sweep`` gives the exact value when the Pfeife's side
can make sure of every trick left and of the Pfeife winning the 16th (the best it can get at all). And at a trick
start where a Pfeife bonus alone decides the zero window once the points are bounded for every play (the
declarer's sure trumps at least, all the points in play less the defenders' sure trumps at most: ``claim_points``),
``bonus_claim`` asks the Pfeife bonus game (``_dreierles_bonus.py``): can the declarer keep the silent bonus from
the defenders (a defender's Pfeife winning the 16th trick, his own losing it), and can he make his own Pfeife,
announced or silent, win it? A question of cards and lead only, answered by a small boolean search with its own
table; the side that can make sure of the outcome settles the node (docs/solver.md, rounds "session 22" and
"session 23"). With an announced Pfeife the template's pre-search (``PRESEARCH``, ``pre_at``) first solves such a
trick start with at most ``PRE_MAX`` tricks left for the points alone: the announced bonus can only add to that
value (its failure is in ``gtable``), so a result at or above the window settles the node (round "session 24").

Equivalent cards: everything except the Pfeife, XXI and the Stieß (the Pfeife bonus and the Räuber rules single
them out); with the canonical index every suit (trumps included) is ordered by rank.

Value dominance (``DOMINANCE``, below the root and in the look-ahead bounds; not in Räuber): a run of equivalent
cards of *different* values (e.g. a queen and a king with no card in play between them) is searched as one card
where the current trick's outcome for the mover's side is sure whatever the others play after him
(``_sure_outcome``): the most valuable card of the run when his side wins the trick, the least valuable when it
loses it. The two plays then lead to positions that correspond move for move with the same trick winners, and
the mover's side gets at least as many points over every pair of corresponding plays (``_dominate``); the
settlement is non-decreasing in the declarer's points. docs/solver.md, round "session 27".
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index, popcount
from tarockrl.engine.masktricks import beating_cards, highest_index, winning_card
from tarockrl.engine.tricks import follow_or_trump
from tarockrl.games.dreierles import layout as L
from tarockrl.games.dreierles.cards import CARD_VALUES, PFEIFE, STIESS, SUIT_OF_CARD, T21, TRUMPS
from tarockrl.games.dreierles.kernels import (
    _add_hand_bonuses,
    _apply_play,
    auto_play_forced,
    contract_payment,
    pile_points,
    play_legal,
)
from tarockrl.games.dreierles.rules import (
    O_AUTO_FORCED,
    O_BONUS_BASIS,
    O_COUNTING,
    O_FACTORS,
    O_KNOCK_DOUBLES_BONUSES,
    O_PFEIFE_ANNOUNCED,
    O_PFEIFE_DEF_LOSS,
    O_PFEIFE_SILENT,
)
from tarockrl.solvers._bits import pext
from tarockrl.solvers._common import (
    BW_CUT,
    BW_TT_DIR,
    budget_word,
    cards_in_play,
    cash_cards,
    cash_tops_followed,
    gen_merged,
    hmix,
    lead_hint,
    third_overtakes,
    trick_hint,
    trumpless_run,
)
from tarockrl.solvers.adapters._dreierles_bonus import bonus_game, suit_counts
from tarockrl.solvers.adapters._dreierles_bounds import (
    _by_value,
    _k_sum,
    declarer_run,
    defender_run,
    pfeife_declarer_sweep,
    pfeife_defender_sweep,
)

ONE = np.int64(1)
MERGEABLE = np.int64(((1 << 54) - 1) & ~(PFEIFE | T21 | STIESS))
VALUES = CARD_VALUES
COPY_LEN = L.HIST_LEN + 1
MAX_DEPTH = 52
MAX_MOVES = 20
NUM_PLAYERS = 3
NUM_ACTIONS = L.NUM_ACTIONS
GT_LEN = 256  # declarer pile points 0..70 (0..210 with exact thirds)
ALL_CARDS = np.int64((1 << 54) - 1)


@njit(cache=True, inline="always")
def _cards_in_play(row):
    """The cards still in play: every hand and the current trick."""
    return cards_in_play(row, L.HAND, L.TRICK_N, L.TRICK_CARD)


@njit(cache=True, inline="always")
def in_play(row):
    """The row is in the card-play phase."""
    return row[L.PHASE] == L.PLAY


@njit(cache=True, inline="always")
def is_over(row):
    """The deal is over."""
    return row[L.PHASE] == L.TERMINAL


@njit(cache=True, inline="always")
def cur(row):
    """The seat to move."""
    return row[L.CUR]


@njit(cache=True, inline="always")
def forced_rest(row):
    """Every play left is forced: the seat to move holds its last card (so does every seat still to play)."""
    return popcount(row[L.HAND + row[L.CUR]]) == 1


@njit(cache=True, inline="always")
def tt_skip(row):
    """Positions the search keeps out of the table: the last card of a trick (its children, the next trick's
    start, are in the table; measured: as few nodes or fewer, and less time per node)."""
    return row[L.TRICK_N] == 2


@njit(cache=True, inline="always")
def hist_slot(row):
    """The history heuristic's table per position in the trick (cards already played to it): a card's record
    as a lead says little about it as a follow (measured, with ``PLAYOUT_GUESS``: docs/solver.md)."""
    return row[L.TRICK_N]


# budgeted rounds (the template's ``budget_word``) at the second and third cards of the first three tricks (14 or
# more cards in hand) where the node is expected to cut (a table entry with one bound says which way it fails,
# ``BW_TT_DIR``): the move of rank i gets 128 << (2r - 2i) nodes in round r (measured: 25 whole deals, sum 391.8M ->
# 368.2M nodes, median 15.7M -> 12.5M; docs/solver.md, round round12, also budget11's second cards only)
BUDGET_ROUNDS = budget_word(128, 2, 14, 6, int(BW_CUT | BW_TT_DIR), 2)


@njit(cache=True, inline="always")
def budget_at(row):
    """The budgeted rounds' class of a node (its position in the trick) and size (the cards left in the hand of
    the seat to move: at a trick start the tricks left)."""
    return row[L.TRICK_N], np.int64(popcount(row[L.HAND + row[L.CUR]]))


BAND_FIRST = True  # MTD(f) finds the settlement step first, then the Pfeife bonus inside it (docs/solver.md)
HIST_BAND_SHIFT = 2  # then the history table is divided by 4 before the bonus probes (docs/solver.md, round semi9)
# the refutation memo (docs/solver.md, round oracle11): at a defender's trick start of the first ``MEMO_TRICKS``
# tricks without a table move, the lead that last cut at a trick start with the same mover and hand is tried first
MEMO_BITS = 18  # 2 ** 18 slots (key and move each)
# 10 since session 15 (was 9): with the payoff-similar table the hand-keyed slot pays at trick 10 too (25 deals:
# sum 240.7M -> 238.5M nodes, median 4.58M -> 3.94M; docs/solver.md, round "whole deal: session 15")
MEMO_TRICKS = 10
# both sides' trick starts have a memo slot; a side's memo is read only where its moves cut in at least
# ``MEMO_LEARN`` % of the nodes in the current probe, per trick (docs/solver.md, round memo12)
MEMO_LEARN = 25
# the second card of those tricks has a memo slot too, keyed by the mover, his hand and the led card; it is read by
# the same rule (the same counters as its trick's start; docs/solver.md, round memo13)
MEMO_SECOND = True
# the trick starts of the tricks after those, up to trick ``MEMO_DEEP``, have a memo slot keyed by the leader, his hand
# and the cards in play (the hand alone misleads there: docs/solver.md, round memo14); 0: none
MEMO_DEEP = 12


@njit(cache=True, inline="always")
def memo_key(row):
    """The refutation memo's key of ``row`` (template ``MEMO_BITS``), or -1 for no slot: a trick start of one of
    the first ``MEMO_TRICKS`` tricks (a contract, not Räuber), keyed by the leader and his hand. A defender's
    first lead at such a node fails when it is a plain top card that the declarer ruffs; the lead that refuted it
    is mostly the refutation at the next trick start with the same hand too (whatever the other hands' earlier
    cards were). The declarer's trick starts have slots too: read everywhere, the memo of the side that loses the
    probe blew up seed 13's proofs (docs/solver.md, round oracle11); ``MEMO_LEARN`` reads it only where it cuts.
    With ``MEMO_SECOND`` the second card of those tricks too, keyed by the mover, his hand and the led card.
    With ``MEMO_DEEP`` the trick starts of tricks ``MEMO_TRICKS`` + 1 to ``MEMO_DEEP`` too, keyed by the leader,
    his hand and the cards in play: the lead that refuted at the same hands but for how the other two split
    their cards (and the points so far)."""
    p = row[L.CUR]
    n = row[L.TRICK_N]
    t = row[L.TRICK_NO]
    if row[L.RAEUBER] != 0:
        return np.int64(-1)
    if t >= MEMO_TRICKS:
        if n != 0 or t >= MEMO_DEEP:
            return np.int64(-1)
        rem = row[L.HAND] | row[L.HAND + 1] | row[L.HAND + 2]
        return hmix(hmix(hmix(np.int64(0x51ED27), row[L.HAND + p]), rem), p) & np.int64(0x7FFFFFFFFFFFFF)
    if n > (1 if MEMO_SECOND else 0):
        return np.int64(-1)
    h = row[L.HAND + p] + p * np.int64(0x5851F42D4C957F2D)
    if n == 1:  # the led card too (a second card's slot never matches a trick start's)
        h += (row[L.TRICK_CARD] + 1) * np.int64(0x2545F4914F6CDD1D)
    h *= np.int64(-7046029254386353131)
    h ^= h >> np.int64(31)
    return h & np.int64(0x3FFFFFFFFFFFFFFF)


HIST_MALUS = True  # a cutoff also takes history from the moves tried before it (measured, docs/solver.md)
PLAYOUT_GUESS = 2  # MTD(f)'s first guess: a playout by the ``hint`` with a one-step lookahead (docs/solver.md)


@njit(cache=True, inline="always")
def paranoid(row):
    """1 in Räuber (everyone plays for himself)."""
    return np.int64(1) if row[L.RAEUBER] != 0 else np.int64(0)


@njit(cache=True, inline="always")
def side(row, seat, root):
    """0 when ``seat`` is on ``root``'s side."""
    if row[L.RAEUBER] != 0:
        return np.int64(0) if seat == root else np.int64(1)
    d = row[L.DECLARER]
    return np.int64(0) if (seat == d) == (root == d) else np.int64(1)


@njit(cache=True)
def leaf(row, opts, root, objective):
    """Value of a finished deal for ``root``'s side."""
    if objective == 1:
        return row[L.POINTS + root]
    if row[L.RAEUBER] != 0:
        return row[L.RESULT + root]
    d = row[L.DECLARER]
    return row[L.RESULT + d] if root == d else -row[L.RESULT + d]


# ``inline="always"`` (numba's own inlining, before LLVM) on ``gen`` and the bound kernels of the search's nodes
# (``_start_lo_run``, ``_start_hi_above``, ``_third_at``, ``_third_m``, ``_second_need``, ``defender_run``,
# ``declarer_run``): about 7 % less time per whole deal, the same nodes, about a minute more of first compilation
# (docs/solver.md, round "session 25"). Not on ``rank_key``, ``key`` or ``akey``: inlined, numba miscompiled them
# (round ``speed12``); nor on ``afmin_need``/``afmax_need`` (with ``_second_win``, the search took over 15 minutes
# to compile) or on ``_second_win`` alone (1-4 %, within the noise, for a longer compilation).
@njit(cache=True, inline="always")
def gen(row, opts, moves, reps, merge):
    """Legal card plays (ascending card) with their equivalence representatives; returns their number. With
    ``merge >= 2`` (the search below the root) a run of equivalent cards of different values is also merged
    into one card where the trick's outcome for the mover's side is sure (:func:`_dominate`)."""
    legal = play_legal(row, opts)
    rem = _cards_in_play(row)
    n = gen_merged(legal, rem, SUIT_OF_CARD, VALUES, MERGEABLE, np.int64(L.A_PLAY), moves, reps, merge, 0)
    if merge >= 2 and DOMINANCE and row[L.RAEUBER] == 0 and opts[O_FACTORS + row[L.HIGH] - 1] >= 0:
        _dominate(row, legal, rem, reps)
    return n


DOMINANCE = True  # value dominance among equivalent cards of different values (docs/solver.md, session 27)


@njit(cache=True, inline="always")
def _sure_outcome(row, c):
    """1 when the mover's side wins the current trick whatever the others play after the mover's card ``c``, -1
    when it loses it whatever they play, 0 when that depends on their cards (outside Räuber: a seat follows the
    led suit, else trumps, else plays any card). ``beating_cards(ALL_CARDS, t, ...)`` is every card that would beat
    the winner of the cards ``t``."""
    n = row[L.TRICK_N]
    me = row[L.CUR]
    d = row[L.DECLARER]
    mine_decl = me == d
    if n == 0:
        led = SUIT_OF_CARD[c]
        lead = ONE << c
        b = beating_cards(ALL_CARDS, lead, led, TRUMPS)
        s2 = (me + 1) % 3
        s3 = (me + 2) % 3
        l2 = follow_or_trump(row[L.HAND + s2], led, TRUMPS)
        l3 = follow_or_trump(row[L.HAND + s3], led, TRUMPS)
        if mine_decl:  # both others are defenders: whoever of them beats the lead, they win
            if (l2 & b) == 0 and (l3 & b) == 0:
                return np.int64(1)
            if (l2 != 0 and (l2 & ~b) == 0) or (l3 != 0 and (l3 & ~b) == 0):
                return np.int64(-1)
            return np.int64(0)
        if s2 == d:  # the declarer second, the partner third
            bd = l2 & b
            if bd == 0:  # he cannot beat the lead
                return np.int64(1)
            if l3 != 0 and (l3 & ~beating_cards(ALL_CARDS, lead | bd, led, TRUMPS)) == 0:
                return np.int64(1)  # the partner must beat even his strongest card that beats the lead
            if (l2 & ~b) == 0 and (l3 & beating_cards(ALL_CARDS, lead | (ONE << lowest_index(l2)), led, TRUMPS)) == 0:
                return np.int64(-1)  # he must beat the lead, and the partner cannot beat even his weakest card
            return np.int64(0)
        # the partner second, the declarer third: the weakest card that can be winning when he plays is the lead
        # itself (the partner may stay under it) or the partner's lowest card (all of them beat it)
        weakest = lead if (l2 & ~b) != 0 else lead | (ONE << lowest_index(l2))
        if (l3 & beating_cards(ALL_CARDS, weakest, led, TRUMPS)) == 0:
            return np.int64(1)
        if l3 != 0 and (l3 & ~beating_cards(ALL_CARDS, l2 | lead, led, TRUMPS)) == 0:
            return np.int64(-1)  # every card of his beats whatever the partner plays
        return np.int64(0)
    led = SUIT_OF_CARD[row[L.TRICK_CARD]]
    trick = np.int64(0)
    for i in range(n):
        trick |= ONE << row[L.TRICK_CARD + i]
    trick |= ONE << c
    w = winning_card(trick, led, TRUMPS)
    owner = me
    for i in range(n):
        if row[L.TRICK_CARD + i] == w:
            owner = (row[L.LEADER] + i) % 3
    wins = (owner == d) == mine_decl
    if n == 2:
        return np.int64(1) if wins else np.int64(-1)
    t = (me + 1) % 3  # the third seat
    return _third_seat_outcome(wins, (t == d) == mine_decl, follow_or_trump(row[L.HAND + t], led, TRUMPS),
                               beating_cards(ALL_CARDS, trick, led, TRUMPS))


@njit(cache=True, inline="always")
def _third_seat_outcome(wins, third_mine, lt, b):
    """``_sure_outcome`` after the second card: ``wins`` whether the trick's winning card so far is the mover's
    side's, ``third_mine`` whether the third seat is on the mover's side, ``lt`` his legal cards and ``b`` the
    cards that would beat the winning card."""
    if third_mine == wins:  # the third seat is on the side winning now: it keeps the trick or overtakes
        return np.int64(1) if wins else np.int64(-1)
    if lt == 0:
        return np.int64(0)
    if (lt & b) == 0:  # he cannot overtake
        return np.int64(1) if wins else np.int64(-1)
    if (lt & ~b) == 0:  # he must overtake
        return np.int64(-1) if wins else np.int64(1)
    return np.int64(0)


@njit(cache=True, inline="always")
def _run_after(c, m, rem, same):
    """The cards of ``m`` (the cards above ``c`` still to look at, lowest first) that continue a run of equivalent
    cards from ``c`` for value dominance: of ``c``'s suit, none singled out by a rule, all in ``same``, each with
    no card of ``rem`` between it and the one before."""
    run = np.int64(0)
    last = c
    while m != 0:
        x = lowest_index(m)
        if (((MERGEABLE & same) >> x) & ONE) == 0 or ((SUIT_OF_CARD[x] >> last) & ONE) == 0 or (
                rem & ((ONE << x) - (ONE << (last + ONE)))) != 0:
            break
        m &= m - ONE
        run |= ONE << x
        last = x
    return run


@njit(cache=True, inline="always")
def _best_of_run(c, run, most):
    """The most valuable card of ``c`` and ``run`` (``most``), else the least valuable; the lowest on ties."""
    best = c
    m = run
    while m != 0:
        x = lowest_index(m)
        m &= m - ONE
        if (VALUES[x] > VALUES[best]) if most else (VALUES[x] < VALUES[best]):
            best = x
    return best


@njit(cache=True, inline="always")
def _dominate(row, legal, rem, reps):
    """Merge each run of equivalent legal cards (adjacent in a suit among the cards in play, none singled out by a
    rule) into one card when the current trick's outcome for the mover's side is sure: the most valuable of the
    run when his side wins the trick, the least valuable when it loses it. At the third card the trick's own
    cards do not break a run (they matter only for who takes the trick), but the run's cards must all beat the
    winning card so far or all stay under it.

    Why it is exact: two such cards ``x`` and ``y`` stay equivalent to the end (no card in play lies between
    them), so the play after ``x`` and the play after ``y`` correspond move for move, with the same trick winners;
    only the card kept in hand changes place. Over any such pair of plays the mover's side gets ``v(y) - v(x)``
    more points by playing ``y`` now when it wins this trick, unless the other card later falls to it as well
    (then as many), so playing the more valuable card into a won trick is never worse for it, and the less
    valuable into a lost one. The settlement is a non-decreasing function of the declarer's points (contract
    factors not negative, checked by the caller), and the Pfeife bonus and the trick winners do not change."""
    # at the third card the trick's own cards matter only for who takes it: a run may pass over them as long as
    # its cards all beat the winning card so far or all stay under it
    third = row[L.TRICK_N] == 2
    beats = np.int64(0)
    if third:
        two = (ONE << row[L.TRICK_CARD]) | (ONE << row[L.TRICK_CARD + 1])
        rem &= ~two
        beats = beating_cards(ALL_CARDS, two, SUIT_OF_CARD[row[L.TRICK_CARD]], TRUMPS)
    i = 0  # the index of ``c`` among the moves (the legal cards in ascending order)
    m = legal
    while m != 0:
        c = lowest_index(m)
        m &= m - ONE
        run = np.int64(0)
        if ((MERGEABLE >> c) & ONE) != 0:
            same = np.int64(-1)
            if third:
                same = beats if ((beats >> c) & ONE) != 0 else ~beats
            run = _run_after(c, m, rem, same)
        k = popcount(run)
        if k > 0 and reps[i + k] != reps[i]:
            o = _sure_outcome(row, c)
            if o != 0:
                best = _best_of_run(c, run, o > 0)
                bi = i + popcount((run | (ONE << c)) & ((ONE << best) - ONE))
                for j in range(i, i + k + 1):
                    reps[j] = bi
        m &= ~run
        i += k + 1


@njit(cache=True, inline="always")
def hint_ctx(row, opts, root):
    """What :func:`hint` reads of a node, for every move alike: on a lead the cards in play; when following the
    trick's cards, the led suit, whether the trick's winner is on the mover's side, second to play the third
    seat's hand when he is an opponent (else -1); last the cards in the hands (for :func:`hint_alt`)."""
    n = row[L.TRICK_N]
    inhand = row[L.HAND] | row[L.HAND + 1] | row[L.HAND + 2]
    if n == 0:
        return inhand, np.int64(0), np.int64(0), np.int64(-1), inhand
    trick = np.int64(0)
    for i in range(n):
        trick |= ONE << row[L.TRICK_CARD + i]
    led = SUIT_OF_CARD[row[L.TRICK_CARD]]
    w = winning_card(trick, led, TRUMPS)
    pos = 0
    for i in range(n):
        if row[L.TRICK_CARD + i] == w:
            pos = i
    me = row[L.CUR]
    partner = np.int64(1) if side(row, (row[L.LEADER] + pos) % 3, root) == side(row, me, root) else np.int64(0)
    h3 = np.int64(-1)
    if n == 1:
        third = (me + 1) % 3
        if side(row, third, root) != side(row, me, root):
            h3 = row[L.HAND + third]
    return trick, led, partner, h3, inhand


@njit(cache=True, inline="always")
def rollout_hint(row, opts, action, root):
    """Static score of a card play from the trick and the cards in play only (``trick_hint`` when following,
    ``lead_hint`` on a lead): the PIMC heuristic rollouts' card choice (tarockrl/agents/pimc_rollouts.py) and
    the base of the solver's :func:`hint`."""
    c = action - L.A_PLAY
    trick, led, partner, _, _ = hint_ctx(row, opts, root)  # on a lead ``trick`` is the cards in play
    if row[L.TRICK_N] == 0:
        return lead_hint(c, trick, SUIT_OF_CARD[c], VALUES[c])
    return trick_hint(c, trick, led, TRUMPS, partner != 0, VALUES[c])


@njit(cache=True, inline="always")
def hint(row, opts, action, root):
    """Static ordering score of a card play (``trick_hint`` when following, ``lead_hint`` on a lead). Second to
    play, a card is tried as a loser (the least valuable first) when the third seat, an opponent, would take the
    trick with his highest card that may follow (of the led suit, else a trump). Measured on 30 positions with
    10-16 tricks left: 0.90 of the nodes (geometric mean) of ``trick_hint`` alone, which tries the cheapest card
    that beats the lead first. (Lead refinements were measured and dropped: a plain top card that an opponent
    can trump not counted as a sure winner, neutral; also a low lead to a partner's top card next, 0.94 of the
    nodes at 10-12 tricks but a whole deal went from 8.9M to over 30M nodes.)"""
    h = rollout_hint(row, opts, action, root)
    if row[L.TRICK_N] == 1:  # second to play: does the third seat, an opponent, overtake?
        me = row[L.CUR]
        third = (me + 1) % 3
        c = action - L.A_PLAY
        led = SUIT_OF_CARD[row[L.TRICK_CARD]]
        if side(row, third, root) != side(row, me, root) and third_overtakes(
                row[L.HAND + third], ONE << row[L.TRICK_CARD], c, led, TRUMPS):
            return np.int64(8) - VALUES[c]  # the opponent takes it: a loser, as cheap as possible
    return h


# the search scores the moves of a node with ``hint_at`` and what ``hint_ctx`` computes once per node (the same
# scores as ``hint``; the trick's winner and the sides are not recomputed per move)
HINT_CTX = True


@njit(cache=True, inline="always")
def hint_at(row, opts, action, root, hc):
    """:func:`hint` of ``action`` from ``hc = hint_ctx(row, opts, root)`` (the same score)."""
    return _hint_rules(row, opts, action, root, hc, np.int64(0))


# an alternative ordering of the follows (``hint_alt``), which the search uses per class of node (``alt_class``)
# where in the current probe its first move has cut more often than the default's (template ``ORDER_LEARN``, a
# percentage; docs/solver.md, round order14). ``ORDER_RULES``, bit mask: 1 -- a plain card that would be the highest
# of its suit still in the hands after the trick (a master) is not smeared onto a trick the mover's side wins: tried
# after the other smears, as a loser; 2 -- second to play against an opponent's lead, when the third seat is a
# partner or cannot overtake, the most valuable plain card that wins first (not the cheapest one); 4 -- at the
# defenders' nodes of a contract only (never in Räuber); 8 -- rule 1 for the trumps too (the highest trump still in
# the hands is not smeared) while a defender holds the Pfeife (measured on 75 deals: docs/solver.md, round
# "session 24"; for every deal, or with the Pfeife elsewhere, it costs as much as it saves)
ORDER_RULES = 15
ORDER_LEARN = 50


@njit(cache=True, inline="always")
def hint_alt(row, opts, action, root, hc):
    """The alternative score of ``action`` (``ORDER_LEARN``): :func:`hint_at` with the follow rules ``ORDER_RULES``."""
    return _hint_rules(row, opts, action, root, hc, np.int64(ORDER_RULES))


@njit(cache=True, inline="always")
def alt_class(row, opts, root, hc):
    """The node's class for ``ORDER_LEARN`` (-1: :func:`hint_alt` is :func:`hint_at` here): 3 * the trick (0-based,
    at most 11) + 0 for a second card after a partner's lead, 1 for a second card after an opponent's lead, 2 for a
    third card when the mover's side wins the trick (a lead, a third card the opponents win, Räuber and, with
    ``ORDER_RULES`` bit 4, the declarer's nodes: -1)."""
    n = row[L.TRICK_N]
    if n == 0 or row[L.RAEUBER] != 0 or (ORDER_RULES & 4 != 0 and row[L.CUR] == row[L.DECLARER]):
        return np.int64(-1)
    partner = hc[2]
    if n == 1:
        k = np.int64(0) if partner != 0 else np.int64(1)
    elif partner != 0:
        k = np.int64(2)
    else:
        return np.int64(-1)
    t = np.int64(16) - popcount(row[L.HAND + row[L.CUR]])
    return np.int64(3) * min(t, np.int64(11)) + k


@njit(cache=True, inline="always")
def _defender_holds_pfeife(row):
    """A defender's hand holds the Pfeife (``_pfeife_holder``)."""
    h = _pfeife_holder(row)
    return h >= 0 and h != row[L.DECLARER]


@njit(cache=True, inline="always")
def _hint_rules(row, opts, action, root, hc, rules):
    """:func:`hint_at` (``rules`` 0) or :func:`hint_alt` (``rules``: ``ORDER_RULES``) of ``action``."""
    c = action - L.A_PLAY
    trick, led, partner, h3, inhand = hc
    if row[L.TRICK_N] == 0:
        return lead_hint(c, trick, SUIT_OF_CARD[c], VALUES[c])
    if h3 >= 0 and third_overtakes(h3, trick, c, led, TRUMPS):
        return np.int64(8) - VALUES[c]
    trump = ((ONE << c) & TRUMPS) != 0
    if rules != 0 and (rules & 4 == 0 or (row[L.RAEUBER] == 0 and row[L.CUR] != row[L.DECLARER])) and (
            not trump or (rules & 8 != 0 and _defender_holds_pfeife(row))):
        beats = winning_card(trick | (ONE << c), led, TRUMPS) == c
        if rules & 1 and partner != 0 and not beats and highest_index(inhand & SUIT_OF_CARD[c]) == c:
            return np.int64(8) - VALUES[c]  # a master: kept, tried after the other smears
        if rules & 2 and partner == 0 and beats and row[L.TRICK_N] == 1 and not trump:
            return np.int64(100) + VALUES[c]  # a sure winner (the third cannot overtake): the most valuable first
    return trick_hint(c, trick, led, TRUMPS, partner != 0, VALUES[c])


# the cards whose counting value is not 1, except XXI and Stieß (the two top trumps, counted together): with the
# number of cards in play per suit they give the counting values of the cards in play in rank order
VALUE_MARKS = np.int64(sum(1 << c for c in range(54) if VALUES[c] != 1) & ~(T21 | STIESS))


@njit(cache=True)  # never inline="always": numba miscompiled it inlined (docs/solver.md, round speed12)
def rank_key(row, h, marks=VALUE_MARKS):
    """Fold the position up to ranks into ``h``: the cards still in play (hands and current trick) in rank order
    within each suit, each as its place (a hand, or its position in the trick) and counting value, the number of
    them per suit, the seat to move, the leader and the trick size. Outside Räuber the rest of the deal depends on
    nothing more (card identity matters only through suit, rank order among the cards still in play and value;
    the Pfeife, the one card whose identity scoring reads, is flagged), so positions that differ only in which
    cards of equal structure were played share a key.

    Computed in O(1) with bit extracts (``pext``, :mod:`tarockrl.solvers._bits`) over the cards in play ``rem``
    (index order = suit, then rank order): ``pext(hand 0, rem)`` and ``pext(hand 1, rem)`` are the places of the
    cards compressed by rank (hand 2 holds the rest but the trick cards, whose compressed positions are keyed), and
    ``pext(rem, VALUE_MARKS)`` with the number of XXI and Stieß in play gives the counting values in rank order
    given the counts per suit (in a plain suit the cards worth more than 1 are its top four, each of its own
    value; in trumps the Pfeife is the lowest and XXI, Stieß the two highest, all worth 5). The three words fit
    in 64 bits each because at most 48 cards are in play (three hands of 16)."""
    h0 = row[L.HAND]
    h1 = row[L.HAND + 1]
    h2 = row[L.HAND + 2]
    n = row[L.TRICK_N]
    t0 = (ONE << row[L.TRICK_CARD]) if n > 0 else np.int64(0)
    t1 = (ONE << row[L.TRICK_CARD + 1]) if n > 1 else np.int64(0)
    rem = h0 | h1 | h2 | t0 | t1
    i0 = popcount(rem & (t0 - ONE)) if n > 0 else np.int64(63)  # the trick cards' positions in rank order
    i1 = popcount(rem & (t1 - ONE)) if n > 1 else np.int64(63)
    w0 = pext(h0, rem) | (i0 << np.int64(48)) | (i1 << np.int64(54)) | (np.int64(n) << np.int64(60))
    w1 = pext(h1, rem) | (np.int64(row[L.CUR]) << np.int64(48)) | (np.int64(row[L.LEADER]) << np.int64(50))
    w1 |= popcount(rem & (T21 | STIESS)) << np.int64(52)
    w2 = pext(rem, marks) | (suit_counts(rem) << np.int64(17))
    return hmix(hmix(hmix(h, w0), w1), w2)


@njit(cache=True)  # never inline="always": numba miscompiled it inlined (docs/solver.md, round speed12)
def key(row, opts):
    """Transposition key (see the module docstring)."""
    if row[L.RAEUBER] != 0:  # the Räuber rules also read the Pfeife, XXI and Stieß themselves and the trumps led
        rem = _cards_in_play(row)
        h = rank_key(row, hmix(np.int64(0x7A0), rem & (PFEIFE | T21 | STIESS)))
        for s in range(3):  # a pile holds whole tricks: its final points are these plus the tricks still won
            h = hmix(h, pile_points(row[L.WON + s], opts))
        return hmix(h, row[L.STIESS_PLAYED] + 2 * row[L.N_TRUMP_LED])
    # the position up to ranks, and the declarer's pile points so far (the final points are these plus the
    # rest's, see apast)
    return hmix(rank_key(row, np.int64(0x5EED)), _pile_points(row[L.DISCARDS] | row[L.WON + row[L.DECLARER]], opts))


@njit(cache=True, inline="always")
def copy_row(child, row, n):
    """What a child row copies from its parent (``n``, the template's ``COPY_LEN``, is not needed): the slots the
    card play changes, the phase, the seat to move, the hands and the trick state, piles and flags (``TRICK_NO``
    to ``N_TRUMP_LED``). Every other slot the search reads is the same in every row of a search (its rows start
    as copies of the root; the auction, the contract and the hands at the start of play do not change), except the
    slots only a finished deal fills and only ``leaf`` reads (the last trick, ``POINTS``, ``RESULT``: the game's
    scoring writes them anew at the end) and the history (never read)."""
    for j in range(L.PHASE, L.HAND + 3):
        child[j] = row[j]
    for j in range(L.TRICK_NO, L.N_TRUMP_LED + 1):
        child[j] = row[j]


@njit(cache=True, inline="always")
def apply(row, action, opts):
    """The game's unchecked step (``kernels.step``) of a card play without the history: the card played
    (``_apply_play``, which scores the deal after the 16th trick), then with ``auto_play_forced`` the forced
    plays. The same row as ``step`` in every slot but ``HIST_LEN`` and ``HIST`` (tests/solvers)."""
    _apply_play(row, action - L.A_PLAY, opts)
    if opts[O_AUTO_FORCED] != 0:
        auto_play_forced(row, opts)


# ---- additive positions (see the module docstring) -----------------------------------------------------------
@njit(cache=True)
def additive(row, objective):
    """True when the value of the rest is a monotone function of the declarer's final pile points."""
    if row[L.RAEUBER] != 0:
        return False
    if objective != 0:  # the card points, or the settlement without the Pfeife bonus (the template's pre-search)
        return True
    rem = _cards_in_play(row)
    return (rem & PFEIFE) == 0


@njit(cache=True)  # never inline="always": numba miscompiled it inlined (docs/solver.md, round speed12)
def akey(row):
    """Transposition key of an additive position: the position up to ranks (``rank_key``), no summary of the
    past."""
    return rank_key(row, np.int64(0xADD))


# ---- payoff-similar table entries (``PAYOFF_SIM``, docs/solver.md, round ps15) ----------------------------------
PAYOFF_SIM = 1
FACE_MARKS = np.int64(VALUE_MARKS & ~PFEIFE)  # the jack, cavall, queen and king of each plain suit


@njit(cache=True)
def skey(row):
    """Table key of an additive or threshold position with ``PAYOFF_SIM``: ``rank_key`` without the counting values
    (the Pfeife's place stays flagged, XXI and the Stieß are the top two trumps and counted by the key). Positions
    with this key in common play alike card for card (rank order within each suit), so a bound on the rest's points
    of one holds for another up to the points of the cards whose values differ (``pdelta``)."""
    return rank_key(row, np.int64(0x5F1), PFEIFE)


@njit(cache=True)
def pvec(row):
    """The counting values of the cards in play given ``skey``: which jacks, cavalls, queens and kings are in play
    (4 bits per plain suit; the rest of a suit's cards in play are worth 1 each)."""
    rem = _cards_in_play(row)
    return pext(rem, FACE_MARKS)


def _face_deltas():
    """``DELTA_LO/HI[k, a, b]``: over a plain suit with ``k`` cards in play whose face cards in play are ``a``
    (bits: jack, cavall, queen, king) in one position and ``b`` in another, the sums of the negative and of the
    positive differences (b - a) of the counting values card for card in rank order."""
    lo = np.zeros((9, 16, 16), np.int64)
    hi = np.zeros((9, 16, 16), np.int64)
    for k in range(9):
        for a in range(16):
            for b in range(16):
                va = [5 - j for j in range(4) if a >> (3 - j) & 1]
                vb = [5 - j for j in range(4) if b >> (3 - j) & 1]
                if len(va) > k or len(vb) > k:
                    continue  # no position has more face cards than cards of the suit in play
                va += [1] * (k - len(va))
                vb += [1] * (k - len(vb))
                lo[k, a, b] = sum(min(0, y - x) for x, y in zip(va, vb, strict=True))
                hi[k, a, b] = sum(max(0, y - x) for x, y in zip(va, vb, strict=True))
    return lo, hi


DELTA_LO, DELTA_HI = _face_deltas()
@njit(cache=True)
def pdelta(old, new, row, opts):
    """Bounds on (the rest's points of ``row``) - (those of a position with the same ``skey`` and counting values
    ``old``; ``new`` is ``pvec(row)``) over the same play: the declarer wins some of the cards in play, so the
    difference lies between the sums of the negative and of the positive value differences card for card (points
    per counting unit, ``_scale``)."""
    rem = _cards_in_play(row)
    lo = np.int64(0)
    hi = np.int64(0)
    for s in range(4):
        k = popcount(rem & PLAIN_SUITS[s])
        a = (old >> (4 * s)) & 15
        b = (new >> (4 * s)) & 15
        lo += DELTA_LO[k, a, b]
        hi += DELTA_HI[k, a, b]
    sc = _scale(opts)
    return lo * sc, hi * sc


FIVE_TRUMPS = np.int64(PFEIFE | T21 | STIESS)  # the trumps worth 5 (every other trump is worth 1)


# ``value - 1`` of every card in three bit planes (bit 0, 1 and 2 of it): the sum of ``value - 1`` over a mask is
# three popcounts (``_excess``)
EX1 = np.int64(sum(1 << c for c in range(54) if (int(VALUES[c]) - 1) & 1))
EX2 = np.int64(sum(1 << c for c in range(54) if (int(VALUES[c]) - 1) & 2))
EX4 = np.int64(sum(1 << c for c in range(54) if (int(VALUES[c]) - 1) & 4))


@njit(cache=True, inline="always")
def _excess(m):
    """The sum of ``value - 1`` over the cards of ``m``."""
    return popcount(m & EX1) + 2 * popcount(m & EX2) + 4 * popcount(m & EX4)


@njit(cache=True, inline="always")
def _pile_points(mask, opts):
    """``pile_points`` (the game's kernel) with the values summed by bit planes (``_excess``): the same result."""
    n = popcount(mask)
    total = n + _excess(mask)
    if opts[O_COUNTING] == 1:
        return 3 * total - 2 * n
    return total - 2 * (n // 3) - (np.int64(1) if n % 3 != 0 else np.int64(0))


@njit(cache=True, inline="always")
def _kills_kf(killers, targets, cap):
    """``(kills(killers, targets, cap), kills(killers, targets & FIVE_TRUMPS, cap))`` (``_common.kills``) in one
    pass over the killers only: the greedy scan from the highest trump down gives each killer ``cap`` more and
    the targets between it and the next killer below take ``min(available, their number)`` (the same matching;
    the targets above the highest killer stay unmatched). The killers below the lowest target match nothing (they
    are left out: the lowest killer kept takes every target below it), and without targets worth 5 the second
    count is 0."""
    n = np.int64(0)
    nf = np.int64(0)
    if targets == 0:
        return n, nf
    avail = np.int64(0)
    availf = np.int64(0)
    tf = targets & FIVE_TRUMPS
    kl = killers & ~(((targets & -targets) << ONE) - ONE)
    while kl != 0:
        c = highest_index(kl)
        kl ^= ONE << c
        seg = targets & ((ONE << c) - ONE) & ~((ONE << (highest_index(kl) + ONE)) - ONE)
        avail += cap
        x = min(avail, popcount(seg))
        avail -= x
        n += x
        if tf != 0:
            availf += cap
            x = min(availf, popcount(seg & tf))
            availf -= x
            nf += x
    return n, nf


@njit(cache=True, inline="always")
def _sure_k(own, other, cap, pairs):
    """``(_sure(own, other, cap, pairs), kills(other, own, cap))``: the sure trump value and the size of the
    matching it subtracts (``sure_trumps`` with the trumps worth 5, the kills counted in one pass)."""
    k, f = _kills_kf(other, own, cap)
    v = popcount(own) + 4 * popcount(own & FIVE_TRUMPS) - 5 * f - (k - f)
    if pairs:
        v -= (popcount(own) - k) // 2
    return v, k


@njit(cache=True, inline="always")
def _sure(own, other, cap, pairs):
    """Least value the side holding the trumps ``own`` surely takes with them (``sure_trumps`` with the trumps
    worth 5: the Pfeife, XXI and Stieß; computed by ``_sure_k``)."""
    return _sure_k(own, other, cap, pairs)[0]


@njit(cache=True, inline="always")
def _cash_f(own, a, b, opp, a_free, b_free):
    """``cash_tops_followed(own, a, b, opp, PLAIN_SUITS, VALUES, a_free, b_free)`` with the values summed by bit
    planes (``_excess``) instead of per card (the same result)."""
    n, m = cash_cards(own, a, b, opp, PLAIN_SUITS, a_free, b_free, True)
    return n + _excess(m)


BY_VALUE = np.array([sum(1 << c for c in range(54) if CARD_VALUES[c] == v) for v in range(6)], dtype=np.int64)
# mid-trick bounds: 2 = one play ahead at the third card of a trick and two plays ahead at the second (up to ~25
# trick-start bounds per node; measured against main: whole deals 0.43-0.78 of the nodes and 0.8 of the CPU
# time, 12 tricks 0.69 of the nodes but about 1.2 of the time); 1 = the third card only; 0 = the every-play
# trump bounds
LOOKAHEAD = 2
# strategy upper bounds at trick starts (tarockrl/solvers/adapters/_dreierles_bounds.py): 0 none, 1 a defender on lead
# (``defender_run``), 2 also the declarer on lead (``_lead_hi``). Measured on whole deals (docs: the round
# "strategy bounds"): 1 gives 0.88-0.96 of the nodes and about 0.8 of the CPU time; 2, the look-ahead's leaves
# (``STRATEGY_LEAVES``) and ``STRATEGY_LO`` cut a few more nodes or none but cost more time than they save
STRATEGY_HI = 1
# the strategy bounds also at the leaves of the mid-trick lookahead (``_third_m``): 2 at every leaf, 1 where a
# defender leads the next trick (``defender_run``, not ``_lead_hi``), 0 none (at trick starts only)
STRATEGY_LEAVES = 0
# the declarer's run (``declarer_run``) in ``_start_lo`` when he leads: 1 on, 0 off
STRATEGY_LO = 0
# the declarer's run in ``afmin`` at trick starts only (not at the look-ahead's leaves), with ``BOUND_NEED`` only
# where ``_start_lo`` does not cut already (docs/solver.md, round "Pfeife sweeps, cheaper bounds")
STRATEGY_LO_START = True
# at the third card of a trick, one of the two look-ahead bounds is implied by the parent's (the second card's)
# two-plays-ahead bound over the same leaves: after a defender's second card his ``_second`` upper bound is the
# least of its children's ``_third`` upper bounds, after the declarer's the lower bound the greatest of theirs;
# the parent computed it (the search tests ``afmin`` and ``afmax`` at every additive or threshold node it does
# not cut) and it did not cut the same zero window (the past points do not change within a trick), so this
# child's cannot cut either. With ``IMPLIED_SKIP`` the third card computes only the other one (and the cheap
# every-play bound in its place); sound in any case, since the every-play bounds are admissible
IMPLIED_SKIP = True
# the sure trump tricks also count the other side's cards they capture: bit 1 in ``afmin`` (``_start_lo``, a
# defender on lead), bit 2 in ``afmax`` (``_start_hi_static``, the declarer on lead). Measured (docs/
# solver.md, round bound9): 3 gives the same or fewer nodes on whole deals 0, 1, 4, 8, 10, 11, 17 (8: -26 %) and
# every root action, but whole deal 13 needs over 120M nodes instead of 34.8M (bit 1 alone: over 40M; bit 2
# alone: 28.3M and within 0.1 % of main on the other whole deals measured)
SURE_FOLLOWERS = 3
# ``afmax`` at the second card of a trick: True the two-plays-ahead look-ahead (``_second``), False the every-play
# trump bound. Measured (docs/solver.md, round "Pfeife sweeps, cheaper bounds"): the look-ahead cut only 1-3 % of
# the second-card nodes where it was computed, and without it most whole deals need within 1 % of the nodes and
# a little less time; but seed 13 needs over 80M nodes without it against 34.8M with it, so it stays on
SECOND_HI = True
# the search passes the points at which each bound would cut (``afmin_need``/``afmax_need``), and the bounds stop
# as soon as they know whether they reach them (tarockrl/solvers/_template.py, ``BOUND_NEED``)
BOUND_NEED = True
PLAIN_SUITS = np.array([SUIT_OF_CARD[22], SUIT_OF_CARD[30], SUIT_OF_CARD[38], SUIT_OF_CARD[46]], dtype=np.int64)


@njit(cache=True)
def _cash(row, leader, d):
    """Least value the side of ``leader`` (on lead at the start of a trick) can make sure of by cashing its plain
    top cards (``cash_tops_followed``: above all the other side's cards of their suit, while both other seats
    still hold that suit or, for an opponent without trumps, may discard; the followers' forced cards counted).
    The same computation as inside ``_start_lo``/``_start_hi`` (kept for the tests)."""
    f1 = (leader + 1) % 3
    f2 = (leader + 2) % 3
    h1 = row[L.HAND + f1]
    h2 = row[L.HAND + f2]
    # a follower without trumps never ruffs: his void does not end the run when he is an opponent of the leader
    # (the declarer leading: both; a defender leading: only the declarer; the partner must hold the suit to hand
    # the lead back)
    free1 = (h1 & TRUMPS) == 0 and (leader == d or f1 == d)
    free2 = (h2 & TRUMPS) == 0 and (leader == d or f2 == d)
    opp = (h1 | h2) if leader == d else row[L.HAND + d]
    return cash_tops_followed(row[L.HAND + leader], h1, h2, opp, PLAIN_SUITS, VALUES, free1, free2)


@njit(cache=True, inline="always")
def _trumps_in_play(row, d):
    """The declarer's trumps in hand, the defenders' trumps (hands and current trick) and the declarer's trumps
    (hand and current trick)."""
    hand = row[L.HAND + d] & TRUMPS
    theirs = (row[L.HAND + (d + 1) % 3] | row[L.HAND + (d + 2) % 3]) & TRUMPS
    mine = hand
    for i in range(row[L.TRICK_N]):
        if (row[L.LEADER] + i) % 3 != d:
            theirs |= (ONE << row[L.TRICK_CARD + i]) & TRUMPS
        else:
            mine |= (ONE << row[L.TRICK_CARD + i]) & TRUMPS
    return hand, theirs, mine


@njit(cache=True, inline="always")
def _trump_lo(row, opts):
    """Least pile points the declarer surely adds with the trumps in his hand (every play; ``_sure``: each
    defender trump, also one in the current trick, may beat one of his below it; thirds: three times that)."""
    d = row[L.DECLARER]
    hand, theirs, mine = _trumps_in_play(row, d)
    if hand == 0:
        return np.int64(0)
    v = _sure(hand, theirs, ONE, False)
    return 3 * v if opts[O_COUNTING] == 1 else v


@njit(cache=True, inline="always")
def _trump_hi(row, opts):
    """Most pile points the declarer can add (every play): all cards still in play less what the defenders
    surely win with their trumps (``_sure``: each declarer trump, also one in the current trick, may beat two
    of theirs below it; thirds: three times that)."""
    rem = _cards_in_play(row)
    total = _pile_points(rem, opts)
    d = row[L.DECLARER]
    hand, theirs, mine = _trumps_in_play(row, d)
    if theirs == 0:
        return total
    v = _sure(theirs, mine, np.int64(2), True)
    return total - (3 * v if opts[O_COUNTING] == 1 else v)


@njit(cache=True)
def trump_bounds(row, opts):
    """Bounds on the pile points the declarer adds from ``row`` to the end that hold for every legal play (the
    sure trump tricks of both sides, see ``_sure``): ``(least, most)``."""
    return _trump_lo(row, opts), _trump_hi(row, opts)


@njit(cache=True, inline="always")
def _scale(opts):
    """Points per counting unit: 3 with exact thirds, else 1."""
    return np.int64(3) if opts[O_COUNTING] == 1 else np.int64(1)


@njit(cache=True, inline="always")
def _start_lo(ha, hb, hc, leader, d, opts):
    """``afmin`` at the start of a trick from the hands (seat 0, 1, 2) and the seat on lead: the declarer's sure
    top trumps (``_sure`` against the defenders' trumps) plus, when he leads, his plain top cards (``_cash``)."""
    hd = ha if d == 0 else (hb if d == 1 else hc)
    theirs = (ha | hb | hc) & ~hd & TRUMPS
    v = np.int64(0)
    if (hd & TRUMPS) != 0:
        v, k = _sure_k(hd & TRUMPS, theirs, ONE, False)
        if (SURE_FOLLOWERS & 1) and leader != d:
            # his ``u`` unbeaten trumps win ``u`` distinct tricks, each holding one card of each defender: at
            # least each defender's ``u`` least valuable cards, ``value - 1`` each beyond what ``_sure`` counts
            # (not with the cash below, whose tricks count the defenders' cards of the cashed suits)
            u = popcount(hd & TRUMPS) - k
            if u > 0:
                h1 = ha if d == 2 else (hb if d == 0 else hc)
                h2 = ha if d == 1 else (hb if d == 2 else hc)
                v += _k_sum(h1, u, False) + _k_sum(h2, u, False) - 2 * u
    if leader == d:
        f1 = (d + 1) % 3
        f2 = (d + 2) % 3
        h1 = ha if f1 == 0 else (hb if f1 == 1 else hc)
        h2 = ha if f2 == 0 else (hb if f2 == 1 else hc)
        v += _cash_f(hd, h1, h2, h1 | h2, (h1 & TRUMPS) == 0, (h2 & TRUMPS) == 0)
        if STRATEGY_LO:
            v = max(v, declarer_run(hd, h1, h2))
    return v * _scale(opts)


@njit(cache=True, inline="always")
def _start_hi_static(ha, hb, hc, leader, d, opts):
    """The static part of ``_start_hi`` at the start of a trick from the hands (seat 0, 1, 2) and the seat on
    lead: all points in play less the defenders' sure top trumps (``_sure``, pairs allowed) and, when a defender
    leads, his plain top cards (``_cash``); against a declarer without trumps, the least of that and all points
    less the defenders' run of safe cards (``trumpless_run``)."""
    hd = ha if d == 0 else (hb if d == 1 else hc)
    rem = ha | hb | hc
    total = _pile_points(rem, opts)
    theirs = rem & ~hd & TRUMPS
    v = np.int64(0)
    k = np.int64(0)
    if theirs != 0:
        v, k = _sure_k(theirs, hd & TRUMPS, np.int64(2), True)
    if leader == d:
        if (SURE_FOLLOWERS & 2) and theirs != 0:
            # their ``u`` unbeaten trumps lie in at least ``ceil(u / 2)`` distinct tricks (two defenders, one
            # card each per trick), each holding one card of the declarer: at least his that many least
            # valuable cards, ``value - 1`` each beyond what ``_sure`` counts (not with the defenders' cash)
            u = popcount(theirs) - k
            m = (u + 1) // 2
            if m > 0:
                v += _k_sum(hd, m, False) - m
        return total - v * _scale(opts)
    f1 = (leader + 1) % 3
    f2 = (leader + 2) % 3
    hl = ha if leader == 0 else (hb if leader == 1 else hc)
    h1 = ha if f1 == 0 else (hb if f1 == 1 else hc)
    h2 = ha if f2 == 0 else (hb if f2 == 1 else hc)
    # a follower without trumps never ruffs: only the declarer's void may be crossed (the partner must hold the
    # suit to hand the lead back)
    v += _cash_f(hl, h1, h2, hd, f1 == d and (h1 & TRUMPS) == 0, f2 == d and (h2 & TRUMPS) == 0)
    hi = total - v * _scale(opts)
    if (hd & TRUMPS) == 0:  # the declarer holds no trump: the defenders run their safe cards
        partner = h1 if f2 == d else h2
        r = trumpless_run(hl, partner, hd, PLAIN_SUITS, TRUMPS, BY_VALUE)
        hi = min(hi, total - r * _scale(opts))
    return hi


@njit(cache=True)
def _lead_hi(ha, hb, hc, d, opts, cap):
    """Upper bound at a trick start with the declarer on lead, at most ``cap`` (an upper bound known already;
    returned as soon as the result reaches it): ``defender_run``'s fixed defender strategy one trick earlier. For
    each card he may lead, the defenders' fixed reply: when neither can beat the lead, each gives his least
    valuable card that he may; else the second defender beats it with his lowest card that does when he can (the
    first giving his most valuable card that does not beat it, else his lowest that does), else the first beats it
    with his lowest such card and the second gives his most valuable card. When they win, the next trick's bound
    (``defender_run`` and ``_start_hi_static``, the trick's winner on lead); when they cannot, the trick's points
    plus ``_start_hi_static`` with the declarer on lead. The greatest over his leads bounds the position: against
    the best defence he gets at most what he gets against this reply followed by the best defence."""
    sc = _scale(opts)
    f1 = (d + 1) % 3
    f2 = (d + 2) % 3
    hd = ha if d == 0 else (hb if d == 1 else hc)
    h1 = ha if f1 == 0 else (hb if f1 == 1 else hc)
    h2 = ha if f2 == 0 else (hb if f2 == 1 else hc)
    best = np.int64(-1)
    m = hd
    while m != 0:
        c = lowest_index(m)
        m &= m - ONE
        bc = ONE << c
        sm = SUIT_OF_CARD[c]
        l1 = _legal_m(h1, sm)
        l2 = _legal_m(h2, sm)
        above = ~((bc << ONE) - ONE)
        beats = (sm & above) | TRUMPS if c >= 22 else TRUMPS & above  # a plain lead: a higher card or any trump
        b1 = l1 & beats
        b2 = l2 & beats
        if b1 == 0 and b2 == 0:  # the declarer takes the trick
            t = bc | (ONE << _by_value(l1, False)) | (ONE << _by_value(l2, False))
            g = _pile_points(t, opts) + _start_hi_static(ha & ~t, hb & ~t, hc & ~t, d, d, opts)
        else:
            if b2 != 0:
                nb = l1 & ~b1
                y1 = _by_value(nb, True) if nb != 0 else lowest_index(b1)
                y2 = lowest_index(b2)
            else:
                y1 = lowest_index(b1)
                y2 = _by_value(l2, True)
            t = bc | (ONE << y1) | (ONE << y2)
            ws = f1 if winning_card(t, sm, TRUMPS) == y1 else f2
            g = _start_hi_static(ha & ~t, hb & ~t, hc & ~t, ws, d, opts)
            if g > best:  # else this lead cannot raise the maximum
                hw = h1 & ~t if ws == f1 else h2 & ~t
                hp = h2 & ~t if ws == f1 else h1 & ~t
                g = min(g, defender_run(hw, hp, hd & ~bc) * sc)
        if g > best:
            best = g
            if best >= cap:
                return cap
    return best


@njit(cache=True)
def _start_hi(ha, hb, hc, leader, d, opts):
    """``afmax`` at the start of a trick from the hands (seat 0, 1, 2) and the seat on lead: the least of
    ``_start_hi_static`` and the strategy bounds of ``tarockrl/solvers/adapters/_dreierles_bounds.py`` (a
    defender on lead: ``defender_run``; the declarer on lead: ``_lead_hi``)."""
    return _start_hi_above(ha, hb, hc, leader, d, opts, np.int64(-1))


@njit(cache=True, inline="always")
def _start_hi_above(ha, hb, hc, leader, d, opts, floor):
    """``_start_hi``, or only ``_start_hi_static`` when that is at most ``floor`` (a caller maximising over
    bounds skips the strategy bounds of a child that cannot raise its maximum)."""
    hi = _start_hi_static(ha, hb, hc, leader, d, opts)
    if STRATEGY_HI == 0 or hi <= floor:
        return hi
    hd = ha if d == 0 else (hb if d == 1 else hc)
    if hd == 0:
        return hi
    if leader == d:
        if STRATEGY_HI >= 2:
            hi = min(hi, _lead_hi(ha, hb, hc, d, opts, hi))
        return hi
    hl = ha if leader == 0 else (hb if leader == 1 else hc)
    p = 3 - d - leader
    hp = ha if p == 0 else (hb if p == 1 else hc)
    return min(hi, defender_run(hl, hp, hd) * _scale(opts))


@njit(cache=True, inline="always")
def _legal_m(hand, led):
    """The cards of ``hand`` that may follow a lead of the suit ``led`` (docs/rules/dreierles.md §5.2; outside
    Räuber): that suit, else a trump, else any card."""
    if (hand & led) != 0:
        return hand & led
    if (hand & TRUMPS) != 0:
        return hand & TRUMPS
    return hand


# the look-ahead (``_third_m``, ``_second_win``) evaluates one card per class of equivalent cards only
SKIP_EQUIVALENT = True


@njit(cache=True, inline="always")
def _same_class(prev, c, rem):
    """Card ``c`` is equivalent to ``prev`` (the previous legal card, lower; -1 for none) for the look-ahead
    bounds: same suit, same counting value and no card of ``rem`` (the cards still in play that matter) between
    them. The positions after playing either then differ only by which of two cards adjacent in rank among the
    cards in the hands is gone, so every trick-start bound is the same (``_start_lo``, ``_start_hi_static`` and
    the strategy runs read the suits, the counting values and the rank order of the cards in the hands only; the
    trumps worth 5 are the Pfeife, XXI and Stieß by their value). The caller makes sure the trick's winner is
    the same too. Then the child's bound equals the previous one's, and skipping it changes neither a minimum, a
    maximum nor where the loop stops."""
    return prev >= 0 and ((SUIT_OF_CARD[c] >> prev) & ONE) != 0 and VALUES[c] == VALUES[prev] and (
        rem & ((ONE << c) - (ONE << (prev + ONE)))) == 0


@njit(cache=True, inline="always")
def _third_m(ha, hb, hc, t0, t1, s0, p3, legal, d, lower, opts, stop):
    """``_third`` from masks: the hands (seat 0, 1, 2), the trick's two cards ``t0``, ``t1`` led by ``s0``, the
    seat ``p3`` to play the third card and his legal cards. ``stop`` (``_second``'s running best): once the
    running maximum reaches it (the declarer plays, ``_second`` minimises) or the running minimum falls to it (a
    defender plays, ``_second`` maximises), the rest cannot change ``_second``'s result and the loop returns
    early; ``_third`` passes a ``stop`` no value reaches, so its result is exact."""
    led = SUIT_OF_CARD[t0]
    two = (ONE << t0) | (ONE << t1)
    sc = _scale(opts)
    base = VALUES[t0] + VALUES[t1] - 2
    take_max = p3 == d  # the declarer maximises his points, the defenders minimise them
    inf = np.int64(1) << np.int64(40)
    best = -inf if take_max else inf
    # the better of the two cards and the cards that beat it (a higher trump; when it is plain, so of the led
    # suit, any trump or a higher card of the led suit): the winner per third card without ``winning_card``
    w2 = winning_card(two, led, TRUMPS)
    ws2 = s0 if w2 == t0 else (s0 + 1) % 3
    above_w = ~((ONE << (w2 + ONE)) - ONE)
    beats = TRUMPS & above_w if ((ONE << w2) & TRUMPS) != 0 else TRUMPS | (led & above_w)
    rem = ha | hb | hc
    prev = np.int64(-1)
    m = legal
    while m != 0:
        c = lowest_index(m)
        m &= m - ONE
        if DOMINANCE and ((MERGEABLE >> c) & ONE) != 0:
            # the run of cards equivalent to ``c`` that win the trick or lose it alike: only its best card for the
            # seat to move (the most valuable into his side's trick, else the least), as in ``_dominate``
            wc = ((beats >> c) & ONE) != 0
            run = _run_after(c, m, rem, beats if wc else ~beats)
            m &= ~run
            c = _best_of_run(c, run, ((p3 if wc else ws2) == d) == take_max)
            prev = np.int64(-1)
        else:
            # equivalent to the previous card (the trick cards between them do not matter once the trick is
            # over, but both must win the trick or neither)
            same = SKIP_EQUIVALENT and _same_class(prev, c, rem) and ((beats >> c) & ONE) == ((beats >> prev) & ONE)
            prev = c
            if same:
                continue  # the same child bound as the previous card's (``_same_class``)
        b = ONE << c
        ws = p3 if (b & beats) != 0 else ws2
        g = (base + VALUES[c]) * sc if ws == d else np.int64(0)
        if lower:
            g += _start_lo(ha & ~b, hb & ~b, hc & ~b, ws, d, opts)
        elif STRATEGY_LEAVES == 2 or (STRATEGY_LEAVES == 1 and ws != d):
            # the declarer maximises: a child at most the running best cannot raise it
            g += _start_hi_above(ha & ~b, hb & ~b, hc & ~b, ws, d, opts, best - g if take_max else np.int64(-1))
        else:
            g += _start_hi_static(ha & ~b, hb & ~b, hc & ~b, ws, d, opts)
        if take_max:
            if g > best:
                best = g
                if best >= stop:
                    return best
        elif g < best:
            best = g
            if best <= stop:
                return best
    return best


@njit(cache=True)
def _third(row, opts, lower):
    """``_third_at`` with no stop: the exact one-play look-ahead bound."""
    inf = np.int64(1) << np.int64(40)
    return _third_at(row, opts, lower, inf if row[L.CUR] == row[L.DECLARER] else -inf)


@njit(cache=True, inline="always")
def _third_at(row, opts, lower, stop):
    """Bound (``lower``: the least the declarer makes sure of, else the most he can reach) at the third card of a
    trick, one play ahead: per legal card of the seat to move, the trick's points if the declarer wins it plus
    the trick-start bound of the next trick (``_start_lo``/``_start_hi`` on the hands after it, its winner on
    lead); the greatest of these when the declarer plays, the least when a defender does (minimax over the
    children's admissible bounds is an admissible bound). ``stop`` as in ``_third_m`` (the declarer plays: return
    once the maximum reaches it; a defender: once the minimum falls to it)."""
    p3 = row[L.CUR]
    legal = _legal_m(row[L.HAND + p3], SUIT_OF_CARD[row[L.TRICK_CARD]])
    return _third_m(row[L.HAND], row[L.HAND + 1], row[L.HAND + 2], row[L.TRICK_CARD], row[L.TRICK_CARD + 1],
                    row[L.LEADER], p3, legal, row[L.DECLARER], lower, opts, stop)


@njit(cache=True)
def _second_win(row, opts, lower, alpha, beta):
    """Bound at the second card of a trick, two plays ahead: ``_third_m`` after each legal card of the seat to
    move, the greatest when he is the declarer, else the least (a two-level minimax), searched with the window
    ``(alpha, beta)`` like alpha-beta: a card's loop in ``_third_m`` stops as soon as it cannot change the result
    inside the window, and the loop here returns once its result is at least ``beta`` (the declarer's) or at most
    ``alpha`` (a defender's). With the full window the result is the two-level minimax itself. Otherwise a result
    inside the window is that value, and one outside it is still a bound of the rest on its side: it comes from
    children evaluated in full, or from a minimum (maximum) of children's values that are themselves bounds in the
    right direction (a minimising card's loop that stopped early has a partial minimum, at least the full one, an
    upper bound; a maximising card's a partial maximum, a lower bound)."""
    d = row[L.DECLARER]
    p2 = row[L.CUR]
    p3 = (p2 + 1) % 3
    t0 = row[L.TRICK_CARD]
    led = SUIT_OF_CARD[t0]
    ha = row[L.HAND]
    hb = row[L.HAND + 1]
    hc = row[L.HAND + 2]
    h3 = ha if p3 == 0 else (hb if p3 == 1 else hc)
    l3 = _legal_m(h3, led)
    take_max = p2 == d
    inf = np.int64(1) << np.int64(40)
    best = -inf if take_max else inf
    rem = ha | hb | hc | (ONE << t0)
    prev = np.int64(-1)
    m = _legal_m(row[L.HAND + p2], led)
    while m != 0:
        c = lowest_index(m)
        m &= m - ONE
        o = np.int64(0)
        if DOMINANCE and ((MERGEABLE >> c) & ONE) != 0:
            # where the trick's outcome is sure for the mover's side, only the best card of the run of cards
            # equivalent to ``c`` (the led card counts as in play), as in ``_dominate``
            two = (ONE << t0) | (ONE << c)
            wins = ((p2 if winning_card(two, led, TRUMPS) == c else row[L.LEADER]) == d) == take_max
            o = _third_seat_outcome(wins, (p3 == d) == take_max, l3, beating_cards(ALL_CARDS, two, led, TRUMPS))
        if o != 0:
            run = _run_after(c, m, rem, np.int64(-1))
            m &= ~run
            c = _best_of_run(c, run, o > 0)
            prev = np.int64(-1)
        else:
            # (the led card between them would make the trick's winner differ for some third card)
            same = SKIP_EQUIVALENT and _same_class(prev, c, rem)
            prev = c
            if same:
                continue  # the same ``_third_m`` as the previous card's (``_same_class``)
        b = ONE << c
        # the third seat's loop stops at ``stop`` (a maximum reaching it, or a minimum falling to it)
        if take_max:  # a defender plays third (minimises)
            stop = max(best, alpha)
        elif p3 == d:  # the declarer plays third (maximises)
            stop = min(best, beta)
        else:  # both defenders: a minimum of minima
            stop = alpha
        g = _third_m(ha & ~b, hb & ~b, hc & ~b, t0, c, row[L.LEADER], p3, l3, d, lower, opts, stop)
        if take_max:
            if g > best:
                best = g
                if best >= beta:
                    return best
        elif g < best:
            best = g
            if best <= alpha:
                return best
    return best


@njit(cache=True)
def _second(row, opts, lower):
    """Bound at the second card of a trick, two plays ahead (``_second_win`` with the full window)."""
    inf = np.int64(1) << np.int64(40)
    return _second_win(row, opts, lower, -inf, inf)


@njit(cache=True, inline="always")
def _second_need(row, opts, lower, t):
    """``_second(row, opts, lower)`` where only "at least ``t``?" (``lower``) or "at most ``t``?" matters: the
    two-level minimax with the window next to ``t`` (``_second_win``), which stops as soon as the answer is known.
    When the answer is yes (a result at least ``t``, or at most ``t``), the result is still a bound of the rest;
    otherwise it is only on the right side of ``t``, and the caller discards it."""
    if lower:
        return _second_win(row, opts, lower, t - 1, t)
    return _second_win(row, opts, lower, t, t + 1)


BIG = np.int64(1) << np.int64(20)  # an upper bound of any rest's points (the most is 210 with exact thirds)


@njit(cache=True)
def afmin_need(row, opts, need):
    """``afmin`` for a search that cuts only when it reaches ``need`` (``BOUND_NEED``): a lower bound of the rest's
    points that is at least ``need`` exactly when ``afmin`` is (then it is ``afmin`` or a smaller bound still at
    least ``need``), else 0. The look-ahead stops as soon as the answer is known."""
    if need >= BIG:
        return np.int64(0)
    n = row[L.TRICK_N]
    if n == 0:
        return _start_lo_run(row, opts, need)
    if LOOKAHEAD < 2:
        return _rest_bound(row, opts, True)
    if n == 2:
        if _implied(row, True):
            return _trump_lo(row, opts)
        r = _third_at(row, opts, True, need if row[L.CUR] == row[L.DECLARER] else need - 1)
    else:
        r = _second_need(row, opts, True, need)
    return r if r >= need else np.int64(0)


@njit(cache=True)
def afmax_need(row, opts, lim):
    """``afmax`` for a search that cuts only when it is at most ``lim`` (``BOUND_NEED``): an upper bound of the
    rest's points that is at most ``lim`` exactly when ``afmax`` is, else ``BIG``. At a trick start the strategy
    bound is skipped when the static one is at most ``lim`` already; at the third card the look-ahead stops as
    soon as the answer is known."""
    if lim < 0:
        return BIG
    n = row[L.TRICK_N]
    if n == 0:
        hi = _start_hi_above(row[L.HAND], row[L.HAND + 1], row[L.HAND + 2], row[L.CUR], row[L.DECLARER], opts, lim)
        return hi if hi <= lim else BIG
    if LOOKAHEAD >= 2 and n == 2:
        if _implied(row, False):
            return _trump_hi(row, opts)
        r = _third_at(row, opts, False, lim + 1 if row[L.CUR] == row[L.DECLARER] else lim)
        return r if r <= lim else BIG
    if LOOKAHEAD >= 2 and SECOND_HI:
        r = _second_need(row, opts, False, lim)
        return r if r <= lim else BIG
    return _rest_bound(row, opts, False)


@njit(cache=True, inline="always")
def _start_lo_run(row, opts, need):
    """``afmin`` at a trick start: ``_start_lo``, and with ``STRATEGY_LO_START`` and the declarer on lead the
    greater of it and his run of safe leads (``declarer_run``), computed only when ``_start_lo`` is below
    ``need`` (a caller that cuts from ``need`` up learns nothing more from it otherwise)."""
    d = row[L.DECLARER]
    v = _start_lo(row[L.HAND], row[L.HAND + 1], row[L.HAND + 2], row[L.CUR], d, opts)
    if STRATEGY_LO_START and not STRATEGY_LO and v < need and row[L.CUR] == d:
        v = max(v, declarer_run(row[L.HAND + d], row[L.HAND + (d + 1) % 3], row[L.HAND + (d + 2) % 3]) * _scale(opts))
    return v


@njit(cache=True, inline="always")
def _implied(row, lower):
    """At the third card of a trick: the look-ahead bound (``lower``: ``afmin``, else ``afmax``) is implied by the
    second card's two-plays-ahead bound (``IMPLIED_SKIP``): ``afmin`` after the declarer's second card, ``afmax``
    after a defender's (only when the second card computes ``afmax`` by look-ahead, ``SECOND_HI``)."""
    if not IMPLIED_SKIP or LOOKAHEAD < 2 or row[L.TRICK_N] != 2 or not (lower or SECOND_HI):
        return False
    return (row[L.DECLARER] == (row[L.LEADER] + 1) % 3) == lower


@njit(cache=True, inline="always")
def _rest_bound(row, opts, lower):
    """``afmin`` (``lower``) or ``afmax``: at the start of a trick the trick-start bound, at the third card of a
    trick one play ahead (``_third``), at the second card two plays ahead (``_second``, when ``LOOKAHEAD`` is 2),
    else the sure trump tricks (``_trump_lo``/``_trump_hi``)."""
    n = row[L.TRICK_N]
    if n == 0:
        if lower:
            return _start_lo_run(row, opts, np.int64(1) << np.int64(40))
        return _start_hi(row[L.HAND], row[L.HAND + 1], row[L.HAND + 2], row[L.CUR], row[L.DECLARER], opts)
    if n == 2 and LOOKAHEAD >= 1:
        if _implied(row, lower):  # the parent's bound did not cut, so this one cannot: the every-play bound
            return _trump_lo(row, opts) if lower else _trump_hi(row, opts)
        return _third(row, opts, lower)
    if n == 1 and LOOKAHEAD >= 2 and (lower or SECOND_HI):
        return _second(row, opts, lower)
    return _trump_lo(row, opts) if lower else _trump_hi(row, opts)


@njit(cache=True)
def afmax(row, opts):
    """Most pile points the rest can add for the declarer with best play of the defenders (``_rest_bound``): at
    the start of a trick ``_start_hi``; mid-trick the look-ahead to the next trick's ``_start_hi``; else all
    points still in play less what the defenders surely win with their trumps."""
    return _rest_bound(row, opts, False)


@njit(cache=True)
def afmin(row, opts):
    """Fewest pile points the rest adds for the declarer with his best play (``_rest_bound``): at the start of a
    trick ``_start_lo``; mid-trick the look-ahead to the next trick's ``_start_lo``; else what he surely wins with
    the trumps in his hand."""
    return _rest_bound(row, opts, True)


@njit(cache=True, inline="always")
def _trumps_only(hand):
    """The hand is not empty and holds trumps only."""
    return hand != 0 and (hand & ~TRUMPS) == 0


# ``bonus_range``: a Pfeife that no other seat can beat in the 16th trick (no other seat holds a trump) cannot lose
# it; a declarer without trumps cannot beat a defender's Pfeife
PFB_SURE_WIN = True


@njit(cache=True)
def _pfeife_swing(row, opts):
    """What the Pfeife bonus adds to the declarer's value relative to ``gtable`` (docs/rules/dreierles.md §6.4,
    paid by each defender, doubled per knock with ``knock_doubles_bonuses``): an announced one that wins the 16th
    trick (its failure is in ``gtable`` already), else the silent bonus of whichever side scores it."""
    bm = (ONE << row[L.KNOCKS]) if opts[O_KNOCK_DOUBLES_BONUSES] != 0 else ONE
    if row[L.ANNOUNCED] == 1:
        return 4 * opts[O_PFEIFE_ANNOUNCED] * bm
    return 2 * opts[O_PFEIFE_SILENT] * bm


@njit(cache=True)
def _pfeife_holder(row):
    """The seat whose hand holds the Pfeife, or -1 (played, in the current trick, or out of play)."""
    holder = np.int64(-1)
    for s in range(3):
        if (row[L.HAND + s] & PFEIFE) != 0:
            holder = np.int64(s)
    return holder


@njit(cache=True)
def bonus_range(row, opts, root):
    """With the Pfeife still in play: the range of its bonus in the root side's value, relative to ``gtable``
    (which holds the failed announced bonus, or none when silent), per docs/rules/dreierles.md §6.4: an announced
    bonus (the declarer plays the Pfeife to the 16th trick and wins it) from 0 (failed) up, or nothing above 0 when
    a defender holds the Pfeife; a silent one from minus to plus its value, or nothing above 0 when a defender holds
    it (his side scores it, or his partner beats it, or only with ``pfeife_defender_loss_scores_declarer`` the
    declarer wins it); nothing at all (0, 0) when it lies in the current trick before the 16th (it cannot be played
    to the 16th trick any more). Before the 16th trick, a seat of the other side (or the holder's partner) whose
    hand holds trumps only will play a trump, above the Pfeife, to the 16th trick: then the Pfeife cannot win it,
    so no bonus for the holder's side."""
    d = row[L.DECLARER]
    holder = _pfeife_holder(row)
    if holder < 0 and row[L.TRICK_NO] < 15:  # in the current trick, not the last one: the bonus is decided
        return np.int64(0), np.int64(0)
    defender_holds = holder >= 0 and holder != d
    # a seat whose hand (before the 16th trick) holds trumps only plays a trump to the 16th trick, which beats
    # the Pfeife (the lowest trump): then the Pfeife cannot win the 16th trick for the other side
    early = row[L.TRICK_NO] < 15
    f1 = (d + 1) % 3
    f2 = (d + 2) % 3
    d_trumps_only = early and _trumps_only(row[L.HAND + d])
    f_trumps_only = early and (_trumps_only(row[L.HAND + f1]) or _trumps_only(row[L.HAND + f2]))
    # no other seat (the holder's partner included) holds a trump before the 16th trick: every trump of the 16th
    # trick comes from today's hands, so a Pfeife played to it wins it (it cannot lose the 16th trick)
    # (and a defender's Pfeife is beaten by the declarer, who alone scores it then, only with a trump of his)
    sure_win = False
    d_no_trump = False
    if PFB_SURE_WIN and early and holder >= 0:
        others = np.int64(0)
        for s in range(3):
            if s != holder:
                others |= row[L.HAND + s]
        sure_win = (others & TRUMPS) == 0
        d_no_trump = (row[L.HAND + d] & TRUMPS) == 0
    if row[L.ANNOUNCED] == 1:
        lo = np.int64(0)
        hi = np.int64(0) if defender_holds or f_trumps_only else _pfeife_swing(row, opts)
    else:
        hi = _pfeife_swing(row, opts)
        lo = -hi
        if holder == d and sure_win:
            lo = np.int64(0)  # the declarer's Pfeife is not played to the 16th trick (0) or wins it
        if defender_holds:
            if opts[O_PFEIFE_DEF_LOSS] == 0 or d_no_trump:
                hi = np.int64(0)
            partner = f1 if holder == f2 else f2
            if d_trumps_only or (early and _trumps_only(row[L.HAND + partner])):
                lo = np.int64(0)  # the holder's Pfeife cannot win the 16th trick
        elif holder == d and f_trumps_only:
            hi = np.int64(0)  # the declarer's Pfeife cannot win the 16th trick
    if root == d:
        return lo, hi
    return -hi, -lo


# the Pfeife sweeps (``sweep``): on, the most tricks left where they are tried, and the most trick choices
# each may try (``pfeife_defender_sweep``, ``pfeife_declarer_sweep``)
SWEEP = True
SWEEP_TRICKS = 10
SWEEP_BUDGET = 256
# with the declarer on lead against a defender's Pfeife: the most sweeps tried after his lead (0: none)
SWEEP_AFTER_LEAD = 32


@njit(cache=True)
def _sweep_after_lead(hh, hp, hd, holder_second, k):
    """``pfeife_defender_sweep`` one trick earlier, the declarer (hand ``hd``) on lead: for every card he may lead,
    the defenders (the holder ``hh``, second to play when ``holder_second``, his partner ``hp``) have a reply that
    takes the trick (the three cards known) and after which they sweep from its winner. At most
    ``SWEEP_AFTER_LEAD`` sweeps are tried in all (False when exhausted: no claim)."""
    h2 = hh if holder_second else hp
    h3 = hp if holder_second else hh
    calls = 0
    m = hd
    while m != 0:
        c = lowest_index(m)
        m &= m - ONE
        sm = SUIT_OF_CARD[c]
        l2 = _legal_m(h2, sm)
        l3 = _legal_m(h3, sm)
        if k > 1:  # the holder keeps the Pfeife
            if holder_second:
                l2 &= ~PFEIFE
            else:
                l3 &= ~PFEIFE
        found = False
        x2 = l2
        while x2 != 0 and not found:
            y2 = lowest_index(x2)
            x2 &= x2 - ONE
            x3 = l3
            while x3 != 0:
                y3 = lowest_index(x3)
                x3 &= x3 - ONE
                w = winning_card((ONE << c) | (ONE << y2) | (ONE << y3), sm, TRUMPS)
                if w == c:
                    continue
                calls += 1
                if calls > SWEEP_AFTER_LEAD:
                    return False
                n2 = h2 & ~(ONE << y2)
                n3 = h3 & ~(ONE << y3)
                nh = n2 if holder_second else n3
                npt = n3 if holder_second else n2
                holder_wins = (w == y2) == holder_second
                if pfeife_defender_sweep(nh, npt, hd & ~(ONE << c), holder_wins, SWEEP_BUDGET):
                    found = True
                    break
        if not found:
            return False
    return True


@njit(cache=True)
def sweep(row, opts, root):
    """The exact value of a trick start with the Pfeife in play and its bonus open, when the Pfeife's side can
    make sure of every trick left and of the Pfeife winning the 16th trick (``pfeife_defender_sweep`` with a
    defender on lead, ``pfeife_declarer_sweep`` with the declarer on lead holding it): ``(True, f, b)``, the value
    is ``gtable`` of the points so far plus ``f`` (0, or all the points in play) plus the bonus ``b`` in the root
    side's value. That outcome is the best the Pfeife's side can get at all (no points for the declarer and the
    defenders' bonus, or all the points and his bonus), so it is the value. Else ``(False, 0, 0)``."""
    no = (False, np.int64(0), np.int64(0))
    if row[L.TRICK_N] != 0 or row[L.RAEUBER] != 0:
        return no
    k = 16 - row[L.TRICK_NO]
    if k < 2 or k > SWEEP_TRICKS:
        return no
    holder = _pfeife_holder(row)
    if holder < 0:
        return no
    d = row[L.DECLARER]
    leader = row[L.CUR]
    f1 = (d + 1) % 3
    f2 = (d + 2) % 3
    ha = row[L.HAND]
    hb = row[L.HAND + 1]
    hc = row[L.HAND + 2]
    if holder == d:
        if leader != d:
            return no
        f = pile_points(ha | hb | hc, opts)
        if _start_hi_static(ha, hb, hc, d, d, opts) < f:  # the defenders surely take a trick: no sweep
            return no
        b = _pfeife_swing(row, opts)
        if not pfeife_declarer_sweep(row[L.HAND + d], row[L.HAND + f1], row[L.HAND + f2], SWEEP_BUDGET):
            return no
    else:
        if row[L.ANNOUNCED] == 1:
            return no
        if _start_lo(ha, hb, hc, leader, d, opts) > 0:  # the declarer surely takes a trick: no sweep
            return no
        b = -_pfeife_swing(row, opts)
        partner = f1 if holder == f2 else f2
        hh = row[L.HAND + holder]
        hp = row[L.HAND + partner]
        hd = row[L.HAND + d]
        if leader == d:
            if SWEEP_AFTER_LEAD == 0 or not _sweep_after_lead(hh, hp, hd, holder == f1, k):
                return no
        elif not pfeife_defender_sweep(hh, hp, hd, leader == holder, SWEEP_BUDGET):
            return no
        f = np.int64(0)
    return True, f, (b if root == d else -b)


# the Pfeife bonus game (``tarockrl/solvers/adapters/_dreierles_bonus.py``) as a cut at threshold nodes
# (template ``BONUS_BITS``, ``bonus_amounts``, ``bonus_claim``, ``claim_points``): its table has 2 ** BONUS_BITS
# slots, a search at most BONUS_BUDGET nodes. Measured (docs/solver.md, rounds "session 22" and "session 23"):
# over 75 whole deals the median falls from 9.82M to 6.56M nodes (the defenders' bonus denied, from the points
# so far) and to 6.42M (both bonuses either way, from the points of every play), deal 60 from 11.86M to 1.06M
BONUS_BITS = 20
BONUS_BUDGET = 4000


@njit(cache=True)
def bonus_amounts(row, opts, root):
    """The Pfeife bonuses at stake at a trick start outside Räuber, as the change of the root side's value when
    scored (0: not at stake; both 0 mid-trick, with the Pfeife out of the hands, in Räuber; relative to
    ``gtable``, per docs/rules/dreierles.md §6.4 as in ``bonus_range``): first a silent Pfeife scoring for the
    defenders (a defender's winning the 16th trick, the declarer's losing it), then the declarer's own Pfeife
    (announced or silent) winning it. These are ``bonus_claim``'s questions 0 and 1."""
    zero = np.int64(0)
    if row[L.TRICK_N] != 0 or row[L.RAEUBER] != 0:
        return zero, zero
    d = row[L.DECLARER]
    holder = _pfeife_holder(row)
    if holder < 0:
        return zero, zero
    b = _pfeife_swing(row, opts) if root == d else -_pfeife_swing(row, opts)
    if row[L.ANNOUNCED] == 1:  # his Pfeife; its failure is in ``gtable`` already
        return zero, b
    return -b, (b if holder == d else zero)


@njit(cache=True)
def bonus_claim(row, opts, table, base, salt, question):
    """``(answer, nodes)`` of the Pfeife bonus game (``_dreierles_bonus.py``) at a trick start where
    ``bonus_amounts`` puts the bonus of ``question`` at stake (0 the defenders', 1 the declarer's own Pfeife
    winning the 16th trick): ``DENIED``, ``SCORED`` or -1 (out of budget). The game's table is ``table[base:]``,
    its keys mixed with the solve's ``salt``; ``nodes``: its nodes."""
    d = row[L.DECLARER]
    holder = _pfeife_holder(row)
    return bonus_game(row[L.HAND], row[L.HAND + 1], row[L.HAND + 2], row[L.CUR], d, holder, table, base,
                      np.int64(BONUS_BITS), salt, np.int64(BONUS_BUDGET), np.int64(question))


# the points-only pre-search (template ``PRESEARCH``): at trick starts with an announced Pfeife still in play, from
# ``PRE_MIN`` to ``PRE_MAX`` tricks left. Measured on 75 deals (docs/solver.md, round "session 24"): the announced
# deals 0.907 of the nodes (geometric mean); with any Pfeife, or up to 16 tricks left, it costs as much as it saves
PRESEARCH = True
PRE_MIN = 2
PRE_MAX = 8


@njit(cache=True, inline="always")
def pre_at(row, opts):
    """A threshold node where the template searches the points alone first: a trick start outside Räuber with
    ``PRE_MIN`` to ``PRE_MAX`` tricks left and an announced Pfeife (the template checks that the bonus range has
    an end at 0: the Pfeife is still in play)."""
    k = 16 - row[L.TRICK_NO]
    return row[L.TRICK_N] == 0 and row[L.RAEUBER] == 0 and row[L.ANNOUNCED] == 1 and PRE_MIN <= k <= PRE_MAX


@njit(cache=True)
def claim_points(row, opts, upper):
    """The pile points the declarer adds from a trick start to the end in every play, at least (``upper`` False:
    his sure trumps, ``_trump_lo``) or at most (True: ``_trump_hi``), for ``bonus_claim``."""
    return _trump_hi(row, opts) if upper else _trump_lo(row, opts)


@njit(cache=True)
def apast(row, opts):
    """The declarer's pile points so far (discards and completed tricks): the past part of the final points."""
    return pile_points(row[L.DISCARDS] | row[L.WON + row[L.DECLARER]], opts)


@njit(cache=True)
def gtable(row, opts, root, objective, out):
    """Fill ``out[P]`` with the root side's value when the declarer ends with P pile points (at an additive
    position: the Pfeife is out of play before the last trick, so its bonus is fixed); returns the number of
    entries used (0: no additive positions in this solve)."""
    if row[L.RAEUBER] != 0:
        return np.int64(0)
    d = row[L.DECLARER]
    pmax = np.int64(210) if opts[O_COUNTING] == 1 else np.int64(70)
    if objective == 1:
        total = pile_points(ALL_CARDS, opts)
        for p in range(pmax + 1):
            out[p] = p if root == d else total - p
        return pmax + 1
    knocks = row[L.KNOCKS]
    bm = (ONE << knocks) if opts[O_KNOCK_DOUBLES_BONUSES] != 0 else ONE
    pf = -opts[O_PFEIFE_ANNOUNCED] * bm if row[L.ANNOUNCED] == 1 else np.int64(0)
    scratch = row.copy()
    for s in range(3):
        scratch[L.RESULT + s] = 0
    _add_hand_bonuses(scratch, opts[O_BONUS_BASIS] == 1, bm, opts)
    hb = scratch[L.RESULT + d]
    for p in range(pmax + 1):
        x = contract_payment(np.int64(p), row[L.HIGH], knocks, opts) + pf
        r = 2 * x + hb
        out[p] = r if root == d else -r
    return pmax + 1


@njit(cache=True)
def monotone_past(row, objective):
    """True when the value is a monotone function (in the direction of ``gtable``) of the declarer's pile points
    so far (``apast``) for a fixed position (``akey``): outside Räuber, also while the Pfeife is in play (its
    bonus is decided by the last trick, so each outcome adds a constant to a monotone table)."""
    return row[L.RAEUBER] == 0


# ---- what PIMC reads (plain Python; tarockrl/agents/pimc.py) ---------------------------------------------------


def tricks_left(row: np.ndarray, options: dict) -> int:
    """Tricks still to be completed in the card play, the current one included (PIMC's ``solve_tricks``)."""
    return 16 - int(row[L.TRICK_NO])
