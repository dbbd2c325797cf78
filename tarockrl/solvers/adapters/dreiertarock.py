"""Solver adapter for Dreiertarock (card play: phase ``PLAY``, 16 tricks of three cards).

Sides: the declarer against the two defenders; in Trischaken (all passed) every seat plays for himself and the
search is paranoid (the root seat against the other two).

Values: objective 0 is the settlement: the declarer's ``RESULT`` for the declarer's side, minus it (the sum of
the defenders' settlements) for the defenders, the root seat's own in Trischaken. Objective 1 is ``POINTS`` of
the root's side at the end (the side's pile with discards or talon as the rules give them; own pile in
Trischaken).

Transposition key: the position up to ranks (``_rank_key``: the cards still in play, hands and current trick,
in suit and rank order, each as its place and counting value, with the number of them per suit, which of the
Pagat, Uhu, Kakadu, Mond and Sküs are among them, the seat to move, the leader and the trick size), and a
summary of the tricks won so far that is exactly what the settlement reads of them (``_past_code`` and the
points): the declarer's tricks' points so far in thirds (a pile holds whole tricks, so the final points are
these plus the points of the tricks still to win, docs/rules/dreiertarock.md §2.3; his discards are fixed in a
solve); whether the declarer has won every trick so far or none (valat, and Solo Valat); per side whether its
tricks hold a Trull card, and a king (Trull and King Trull need all of them in one side's tricks or pile: with
the cards in play known and the talon and discards fixed in a solve, that is all they read of the past, also
with ``trull_counts_non_trick_cards``, §6.4; kings and Trull cards are never discarded); the Mondfang (none, the
declarer's, the defenders'); per bird whether it was played to its own trick, whether it won it and whether the
declarer played it (all that §6.4 reads of a bird). In Trischaken: each seat's points so far in thirds (no
bonuses, §6.8).

Why cards may be keyed up to ranks: the play rules (follow suit, else a tarock; Trischaken's duty to beat) and
trick winning read only suit and rank order among the cards in play; the counting reads values; the only cards
a rule names are the Pagat, Uhu and Kakadu (birds, the Trischaken Pagat rule, Kaiserstich), the Mond and the
Sküs (Trull, Mondfang, Kaiserstich): they are flagged, and as the lowest and highest tarocks their place in the
rank order then identifies them. Kings are the only plain cards worth 5, so King Trull is read off the values.

Thresholds on the points so far (``monotone_past``: outside Trischaken and Solo Valat, once both sides have won
a trick, so no valat is possible): along every continuation the settlement is the game item, a step function of
the declarer's final pile points (``gtable``: ``±2 g`` in the root side's view, won from 107 thirds, §6.3,
§6.6), plus bonuses that the past summary and the rest of the play decide; for a fixed position and summary
(``akey``) it is therefore monotone in the points so far (``apast``), and the template's threshold entries
(keyed by ``akey``: "with at least ``lo`` thirds so far the value is at least ``vlo``", and the converse) serve
the zero-window searches of every threshold, across transpositions with different points so far. The same
positions get static bounds, checked before the key: the thirds the rest can add for the declarer lie between
``afmin`` (his sure tarock tricks: a tarock of his that no higher defender tarock joins wins its trick, each
defender tarock beating at most one of his, by a greedy matching, ``sure_trumps``; plus, when he leads, the
plain top cards he can cash while both defenders must follow, ``cash_tops``) and ``afmax`` (all thirds in play
less the defenders' sure tarock tricks and cashable tops; with the Kaiserstich a Pagat counts as the highest
tarock among the killers), and the bonuses between the ends of ``bonus_range`` (a bird is open while it can still
be played to its trick, Trull/King Trull while no card of it lies out of that side's reach, the Sküs taking its
trick for its holder's side without the Kaiserstich, a Mondfang while Mond and Sküs are in play on opposite
sides; everything else counts what the past decided). With ``objective="card_points"`` every position outside
Trischaken and Solo Valat is additive (the value is the side's share of the declarer's final thirds): keyed by
``akey``, bounds on the thirds still to win. ``root_levels`` lists a superset of the values the root can take
(every sum of one value per item: game or valat, each bird, Trull, King Trull, Mondfang; Trischaken's five
payments), so MTD(f) tests only values that exist. The last card of a trick stays out of the table and the
last trick is played out (``tt_skip``, ``forced_rest``).

Measured (``nice -n 10 python scripts/bench_search.py --solver-only --games dreiertarock --positions 15
--max-nodes 1000000 --tricks 6 7 8``, the previous version and this one back to back at load average 3.9-4.2 on
the shared 2-core machine), median nodes / ms before → after: 6 tricks 9,140 / 9 ms → 437 / 0.5 ms; 7 tricks
61,461 / 40 ms → 1,786 / 4.5 ms; 8 tricks 216,263 / 166 ms (2 of 15 over a million nodes) → 11,958 / 11 ms. The
rank key alone gave 26,263 and 109,545 nodes at 7 and 8 tricks; the thresholds and static bounds most of the
rest. On worlds resampled from rules self-play positions (what PIMC solves): 7 tricks left, median 39.7k → 3.1k
nodes (7 of 240 over 400,000 before, none after); 8 tricks left, 160k → 8.2k (28 of 160 over 400,000 before,
none after). The values equal the previous version's on all of these and on 170 random 7-trick positions
(default rules, bonus options, Trischaken; both objectives), and plain minimax / alpha-beta without table,
bounds and merging in ``tests/solvers/test_dreiertarock_solver.py``.

Equivalent cards: everything except Pagat, Uhu, Kakadu, Mond and Sküs (birds, Trull, Mondfang and the Kaiserstich
single them out); kings never merge (no other card of a suit counts five).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import popcount
from tarockrl.engine.masktricks import winning_card
from tarockrl.engine.pack54 import thirds
from tarockrl.games.dreiertarock import layout as L
from tarockrl.games.dreiertarock.cards import CARD_VALUES, KINGS, SUIT_MASK_OF_CARD, TAROCKS, TRULL
from tarockrl.games.dreiertarock.kernels import (
    BIRD_ANNOUNCED_VALUE,
    BIRD_SILENT_VALUE,
    GAME_VALUE,
    TRULL_BONUS,
    play_legal,
    step,
)
from tarockrl.games.dreiertarock.rules import (
    O_KAISERSTICH,
    O_SILENT_PENALTY,
    O_SOLO_BONUS,
    O_TRISCHAKEN_VALUE,
    O_TRULL_PILES,
    O_VALAT_FACTOR,
)
from tarockrl.solvers._common import (
    cards_in_play,
    cash_tops,
    fold_card_places,
    gen_merged,
    hmix,
    lead_hint,
    sure_trumps,
    third_overtakes,
    trick_hint,
)

ONE = np.int64(1)
NAMED = np.int64(0b111 | (1 << 20) | (1 << 21))  # Pagat, Uhu, Kakadu, Mond, Sküs: the cards a rule names
MERGEABLE = np.int64(((1 << 54) - 1) & ~NAMED)
VALUES = CARD_VALUES
COPY_LEN = L.HIST_LEN + 1
MAX_DEPTH = 52
MAX_MOVES = 20
NUM_PLAYERS = 3
NUM_ACTIONS = L.NUM_ACTIONS
BIRD_TRICK_NO = np.array(L.BIRD_TRICK_NUMBERS, dtype=np.int64)
SUIT_FIRST = (0, 22, 30, 38, 46)  # a card of each suit (tarocks, hearts, diamonds, clubs, spades)


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
    start, are in the table)."""
    return row[L.TRICK_N] == 2


@njit(cache=True, inline="always")
def paranoid(row):
    """1 in Trischaken (everyone plays for himself)."""
    return np.int64(1) if row[L.TRISCHAKEN] != 0 else np.int64(0)


@njit(cache=True, inline="always")
def side(row, seat, root):
    """0 when ``seat`` is on ``root``'s side."""
    if row[L.TRISCHAKEN] != 0:
        return np.int64(0) if seat == root else np.int64(1)
    d = row[L.DECLARER]
    return np.int64(0) if (seat == d) == (root == d) else np.int64(1)


@njit(cache=True)
def leaf(row, opts, root, objective):
    """Value of a finished deal for ``root``'s side."""
    if objective == 1:
        return row[L.POINTS + root]
    if row[L.TRISCHAKEN] != 0:
        return row[L.RESULT + root]
    d = row[L.DECLARER]
    return row[L.RESULT + d] if root == d else -row[L.RESULT + d]


@njit(cache=True, inline="always")
def _in_play(row):
    """The cards still in play: every hand and the current trick."""
    return cards_in_play(row, L.HAND, L.TRICK_N, L.TRICK_CARD)


@njit(cache=True)
def gen(row, opts, moves, reps, merge):
    """Legal card plays (ascending card) with their equivalence representatives; returns their number."""
    legal = play_legal(row, opts)
    return gen_merged(legal, _in_play(row), SUIT_MASK_OF_CARD, VALUES, MERGEABLE, np.int64(L.OFF_PLAY), moves,
                      reps, merge, 0)


@njit(cache=True, inline="always")
def rollout_hint(row, opts, action, root):
    """Static score of a card play from the trick and the cards in play only (``trick_hint`` when following,
    ``lead_hint`` on a lead): the PIMC heuristic rollouts' card choice (tarockrl/agents/pimc_rollouts.py) and
    the base of the solver's :func:`hint`."""
    n = row[L.TRICK_N]
    if n == 0:
        c = action - L.OFF_PLAY
        rem = row[L.HAND] | row[L.HAND + 1] | row[L.HAND + 2]
        return lead_hint(c, rem, SUIT_MASK_OF_CARD[c], VALUES[c])
    c = action - L.OFF_PLAY
    trick = np.int64(0)
    for i in range(n):
        trick |= ONE << row[L.TRICK_CARD + i]
    led = SUIT_MASK_OF_CARD[row[L.TRICK_CARD]]
    w = winning_card(trick, led, TAROCKS)
    pos = 0
    for i in range(n):
        if row[L.TRICK_CARD + i] == w:
            pos = i
    wseat = (row[L.LEADER] + pos) % 3
    partner = side(row, wseat, root) == side(row, row[L.CUR], root)
    return trick_hint(c, trick, led, TAROCKS, partner, VALUES[c])


@njit(cache=True, inline="always")
def hint(row, opts, action, root):
    """Static ordering score of a card play (``trick_hint`` when following, ``lead_hint`` on a lead). Second to
    play, a card is tried as a loser (the least valuable first) when the third seat, an opponent, would take the
    trick with his highest card that may follow (as in the Dreierles adapter). Measured on 240 worlds sampled
    from rules self-play positions with 7 tricks left: 0.95 of the nodes (geometric mean; 2.57M → 2.45M in all);
    neutral on the benchmark's random positions."""
    h = rollout_hint(row, opts, action, root)
    if row[L.TRICK_N] == 1:  # second to play: does the third seat, an opponent, overtake?
        me = row[L.CUR]
        third = (me + 1) % 3
        c = action - L.OFF_PLAY
        led = SUIT_MASK_OF_CARD[row[L.TRICK_CARD]]
        if side(row, third, root) != side(row, me, root) and third_overtakes(
                row[L.HAND + third], ONE << row[L.TRICK_CARD], c, led, TAROCKS):
            return np.int64(8) - VALUES[c]  # the opponent takes it: a loser, as cheap as possible
    return h


@njit(cache=True)
def _rank_key(row, h):
    """Fold the position up to ranks into ``h`` (see the module docstring): the cards in play in index order,
    each as its place (a hand, or its position in the trick) and counting value, their number per suit, which
    named cards (``NAMED``) are among them, the seat to move, the leader and the trick size."""
    h0 = row[L.HAND]
    h1 = row[L.HAND + 1]
    h2 = row[L.HAND + 2]
    n = row[L.TRICK_N]
    t0 = (ONE << row[L.TRICK_CARD]) if n > 0 else np.int64(0)
    t1 = (ONE << row[L.TRICK_CARD + 1]) if n > 1 else np.int64(0)
    rem = h0 | h1 | h2 | t0 | t1
    h = fold_card_places(h, h0, h1, h2, t0, rem, VALUES)
    su = np.int64(0)
    for s in range(5):
        su = su * 64 + popcount(rem & SUIT_MASK_OF_CARD[SUIT_FIRST[s]])
    return hmix(h, su + (np.int64(row[L.CUR] + 4 * row[L.LEADER] + 16 * n + 64 * (rem & NAMED)) << np.int64(31)))


@njit(cache=True)
def _past_code(row):
    """What the settlement reads of the completed tricks besides the declarer's points (module docstring): the
    valat state, per side whether its tricks hold a Trull card and a king, the Mondfang, the birds' records."""
    d = row[L.DECLARER]
    dt = row[L.DECL_TRICKS]
    v = (np.int64(1) if dt == 0 else np.int64(0)) + (np.int64(2) if dt == row[L.TRICK_NO] else np.int64(0))
    wd = row[L.WON + d]
    wf = row[L.WON + (d + 1) % 3] | row[L.WON + (d + 2) % 3]
    v += 4 * ((wd & TRULL) != 0) + 8 * ((wf & TRULL) != 0) + 16 * ((wd & KINGS) != 0) + 32 * ((wf & KINGS) != 0)
    ms = row[L.MOND_SEAT]
    v += 64 * (0 if ms < 0 else (1 if ms == d else 2))
    for b in range(3):
        if row[L.BIRD_TRICK + b] == BIRD_TRICK_NO[b]:
            code = 1 + row[L.BIRD_WON + b] + 2 * (1 if row[L.BIRD_SEAT + b] == d else 0)
            v += code << (8 + 3 * b)
    return v


@njit(cache=True)
def key(row, opts):
    """Transposition key (see the module docstring)."""
    if row[L.TRISCHAKEN] != 0:
        h = _rank_key(row, np.int64(0x7A40C))
        return hmix(h, thirds(row[L.WON]) + 1024 * thirds(row[L.WON + 1]) + 1048576 * thirds(row[L.WON + 2]))
    h = _rank_key(row, np.int64(0x7A40D))
    return hmix(h, _past_code(row) + (thirds(row[L.WON + row[L.DECLARER]]) << np.int64(20)))


@njit(cache=True, inline="always")
def apply(row, action, opts):
    """The game's unchecked step."""
    step(row, action, opts)


# ---- the settlement as a monotone function of the declarer's points (see the module docstring) ---------------
GT_LEN = 256  # the declarer's pile points in thirds, 0..210
WIN_THIRDS = np.int64(L.WIN_THIRDS)
ALL_THIRDS = np.int64(210)
PLAIN_SUITS = np.array([SUIT_MASK_OF_CARD[22], SUIT_MASK_OF_CARD[30], SUIT_MASK_OF_CARD[38], SUIT_MASK_OF_CARD[46]],
                       dtype=np.int64)
PAGAT_BIT = np.int64(1)
MOND_BIT = np.int64(1 << 20)
SKUES_BIT = np.int64(1 << 21)
TOP_BIT = np.int64(1 << 22)  # a Pagat that may win a Kaiserstich, placed above the Sküs as a killer


@njit(cache=True)
def additive(row, objective):
    """True when the value of the rest is a function of the declarer's final pile points alone, and these are
    the points so far plus the rest's: the card points (``objective=1``) outside Trischaken and Solo Valat (whose
    early end leaves cards in no pile)."""
    return objective == 1 and row[L.TRISCHAKEN] == 0 and row[L.CONTRACT] != L.SOLO_VALAT


@njit(cache=True)
def monotone_past(row, objective):
    """True when the settlement is the game item (a step function of the declarer's final pile points) plus
    bonuses decided by the past summary (``akey``) and the rest of the play: outside Trischaken and Solo Valat,
    once both sides have won a trick (no valat: it would replace the game item and cancel silent bonuses).
    For a fixed position and summary the value is then monotone in the points so far."""
    if row[L.TRISCHAKEN] != 0 or row[L.CONTRACT] == L.SOLO_VALAT:
        return False
    dt = row[L.DECL_TRICKS]
    return 0 < dt < row[L.TRICK_NO]


@njit(cache=True)
def akey(row):
    """Transposition key of a position whose value is a monotone function of the points so far: the position up
    to ranks and the past summary (``_past_code``), not the points."""
    return hmix(_rank_key(row, np.int64(0xADD)), _past_code(row))


@njit(cache=True)
def apast(row, opts):
    """The declarer's pile points so far in thirds (discards and completed tricks)."""
    return thirds(row[L.DISCARDS] | row[L.WON + row[L.DECLARER]])


@njit(cache=True)
def gtable(row, opts, root, objective, out):
    """Fill ``out[P]`` with the root side's value when the declarer's pile ends with P thirds: the game item of
    the settlement (``2 N`` for the declarer, ``-2 N`` for the defenders, docs/rules/dreiertarock.md §6.3, §6.6;
    the bonuses come from ``bonus_range``), or the side's card points; returns the number of entries (0 in
    Trischaken and Solo Valat: no monotone positions)."""
    if row[L.TRISCHAKEN] != 0 or row[L.CONTRACT] == L.SOLO_VALAT:
        return np.int64(0)
    d = row[L.DECLARER]
    g = GAME_VALUE[row[L.CONTRACT]] << row[L.KLEVEL]
    for p in range(ALL_THIRDS + 1):
        if objective == 1:
            out[p] = p // 3 if root == d else (ALL_THIRDS - p) // 3
        else:
            r = 2 * g if p >= WIN_THIRDS else -2 * g
            out[p] = r if root == d else -r
    return ALL_THIRDS + 1


@njit(cache=True, inline="always")
def _seat_of(row, card_bit):
    """The seat holding ``card_bit`` in hand or having played it to the current trick (-1: neither)."""
    for s in range(3):
        if (row[L.HAND + s] & card_bit) != 0:
            return np.int64(s)
    for i in range(row[L.TRICK_N]):
        if (ONE << row[L.TRICK_CARD + i]) == card_bit:
            return np.int64((row[L.LEADER] + i) % 3)
    return np.int64(-1)


@njit(cache=True, inline="always")
def _tarocks_in_play(row, d):
    """The declarer's tarocks in hand, the defenders' tarocks (hands and current trick) and the declarer's (hand
    and current trick)."""
    hand = row[L.HAND + d] & TAROCKS
    theirs = (row[L.HAND + (d + 1) % 3] | row[L.HAND + (d + 2) % 3]) & TAROCKS
    mine = hand
    for i in range(row[L.TRICK_N]):
        b = (ONE << row[L.TRICK_CARD + i]) & TAROCKS
        if (row[L.LEADER] + i) % 3 != d:
            theirs |= b
        else:
            mine |= b
    return hand, theirs, mine


@njit(cache=True, inline="always")
def _as_killer(m, opts):
    """A tarock set as killers of the other side's tarocks: with the Kaiserstich its Pagat may take the Mond and
    the Sküs, so it counts as the highest tarock (``TOP_BIT``, above the Sküs)."""
    if opts[O_KAISERSTICH] != 0 and (m & PAGAT_BIT) != 0:
        return (m & ~PAGAT_BIT) | TOP_BIT
    return m


@njit(cache=True)
def _trump_lo(row, opts):
    """Least thirds the declarer surely adds with the tarocks in his hand (every play; ``sure_trumps``: each
    defender tarock, also one in the current trick, may beat one of his below it)."""
    d = row[L.DECLARER]
    hand, theirs, mine = _tarocks_in_play(row, d)
    if hand == 0:
        return np.int64(0)
    return 3 * sure_trumps(hand, _as_killer(theirs, opts), ONE, False, TRULL)


@njit(cache=True)
def _trump_hi(row, opts):
    """Most thirds the declarer can add (every play): all cards still in play less what the defenders surely win
    with their tarocks (``sure_trumps``: each declarer tarock, also one in the current trick, may beat two of
    theirs below it)."""
    total = thirds(_in_play(row))
    d = row[L.DECLARER]
    hand, theirs, mine = _tarocks_in_play(row, d)
    if theirs == 0:
        return total
    return total - 3 * sure_trumps(theirs, _as_killer(mine, opts), np.int64(2), True, TRULL)


@njit(cache=True)
def trump_bounds(row, opts):
    """Bounds on the thirds the declarer adds from ``row`` to the end that hold for every legal play (the sure
    tarock tricks of both sides): ``(least, most)``."""
    return _trump_lo(row, opts), _trump_hi(row, opts)


@njit(cache=True)
def _cash(row, leader, d):
    """Least value the side of ``leader`` (on lead at a trick start) makes sure of with its plain top cards
    (``cash_tops``)."""
    f1 = (leader + 1) % 3
    f2 = (leader + 2) % 3
    opp = (row[L.HAND + f1] | row[L.HAND + f2]) if leader == d else row[L.HAND + d]
    return cash_tops(row[L.HAND + leader], row[L.HAND + f1], row[L.HAND + f2], opp, PLAIN_SUITS, VALUES)


@njit(cache=True)
def afmin(row, opts):
    """Fewest thirds the rest adds to the declarer's pile with his best play: what he surely wins with the
    tarocks in his hand and, when he leads a trick, with his plain top cards (three times their value)."""
    lo = _trump_lo(row, opts)
    if row[L.TRICK_N] == 0 and row[L.CUR] == row[L.DECLARER]:
        lo += 3 * _cash(row, row[L.CUR], row[L.DECLARER])
    return lo


@njit(cache=True)
def afmax(row, opts):
    """Most thirds the rest adds to the declarer's pile with best play of the defenders: all cards still in play
    less what the defenders surely win with their tarocks and, when a defender leads a trick, with their plain
    top cards."""
    hi = _trump_hi(row, opts)
    if row[L.TRICK_N] == 0 and row[L.CUR] != row[L.DECLARER]:
        hi -= 3 * _cash(row, row[L.CUR], row[L.DECLARER])
    return hi


@njit(cache=True)
def net_bonus_range(row, opts):
    """Least and most of the bonuses (every item but the game, docs/rules/dreiertarock.md §6.4) in the declarer's
    net ``N``, over every continuation of a position without valat: items decided by the past or by where the
    cards lie count exactly, the others over the values they can still take. A bird can still win its trick
    while it is in a hand before its trick or in its trick; Trull or King Trull for a side while no card of it
    lies outside the cards in play and that side's tricks (pile, with ``trull_counts_non_trick_cards``), the
    Sküs taking its trick for its holder's side (without the Kaiserstich); a Mondfang while Mond and Sküs are
    both in play on opposite sides."""
    d = row[L.DECLARER]
    bf = opts[O_SOLO_BONUS] if row[L.CONTRACT] == L.SOLO else ONE
    rem = _in_play(row)
    tn = row[L.TRICK_NO]
    lo = np.int64(0)
    hi = np.int64(0)
    for b in range(3):
        bird = ONE << b
        req = BIRD_TRICK_NO[b]
        live = False
        holder = np.int64(-1)
        if (rem & bird) != 0:
            holder = _seat_of(row, bird)
            if (row[L.HAND + holder] & bird) != 0:
                live = tn + 1 <= req  # may still be played to its trick
            else:
                live = row[L.BIRD_TRICK + b] == req  # in its trick, not decided yet
        own_trick = row[L.BIRD_TRICK + b] == req and not live
        won = own_trick and row[L.BIRD_WON + b] != 0
        by = row[L.ANN_BY + b]
        if by >= 0:
            v = (BIRD_ANNOUNCED_VALUE[b] << row[L.KLEVEL + 1 + b]) * bf
            if live:
                lo -= v
                hi += v
            else:
                x = v if (by == d) == won else -v
                lo += x
                hi += x
        else:
            v = BIRD_SILENT_VALUE[b] * bf
            pen = opts[O_SILENT_PENALTY] != 0
            if live:
                if holder == d:
                    hi += v
                    if pen:
                        lo -= v
                else:
                    lo -= v
                    if pen:
                        hi += v
            elif own_trick:
                decl_bird = row[L.BIRD_SEAT + b] == d
                x = np.int64(0)
                if won:
                    x = v if decl_bird else -v
                elif pen:
                    x = -v if decl_bird else v
                lo += x
                hi += x
    bonus = TRULL_BONUS * bf
    wd = row[L.WON + d]
    wf = row[L.WON + (d + 1) % 3] | row[L.WON + (d + 2) % 3]
    if opts[O_TRULL_PILES] != 0:
        wd |= row[L.DISCARDS]
        wf |= row[L.DEF_TALON]
    sk = _seat_of(row, SKUES_BIT)
    for t in range(2):
        sm = np.int64(TRULL) if t == 0 else np.int64(KINGS)
        live = (sm & rem) != 0
        out_d = sm & ~rem & ~wd  # cards the declarer's side can no longer get
        out_f = sm & ~rem & ~wf
        if t == 0 and sk >= 0 and opts[O_KAISERSTICH] == 0:  # the Sküs takes its trick for its holder's side
            if sk == d:
                out_f |= SKUES_BIT
            else:
                out_d |= SKUES_BIT
        if out_d == 0:
            hi += bonus
            if not live:
                lo += bonus
        if out_f == 0:
            lo -= bonus
            if not live:
                hi -= bonus
    ms = row[L.MOND_SEAT]
    if ms >= 0:
        x = bonus if ms == d else -bonus
        lo += x
        hi += x
    elif (rem & MOND_BIT) != 0 and sk >= 0:  # both in play: a Mondfang for the Sküs side if from opposite sides
        sm_ = _seat_of(row, MOND_BIT)
        if (sm_ == d) != (sk == d):
            if sk == d:
                hi += bonus
            else:
                lo -= bonus
    return lo, hi


@njit(cache=True)
def bonus_range(row, opts, root):
    """At a position with a monotone past: the range of the bonuses in the root side's value, relative to
    ``gtable`` (which holds the game item only)."""
    lo, hi = net_bonus_range(row, opts)
    if root == row[L.DECLARER]:
        return 2 * lo, 2 * hi
    return -2 * hi, -2 * lo


MAX_LEVELS = 4096


@njit(cache=True)
def _add_item(vals, n, a, b, c, k):
    """Replace ``vals[:n]`` by its sums with each of the first ``k`` of the values ``a, b, c``, sorted and unique;
    returns their number (-1 when there could be more than ``MAX_LEVELS``)."""
    if n < 0 or n * k > MAX_LEVELS:
        return np.int64(-1)
    tmp = np.empty(n * k, dtype=np.int64)
    for i in range(n):
        tmp[k * i] = vals[i] + a
        if k > 1:
            tmp[k * i + 1] = vals[i] + b
        if k > 2:
            tmp[k * i + 2] = vals[i] + c
    tmp = np.sort(tmp)
    m = 0
    for i in range(n * k):
        if m == 0 or tmp[i] != vals[m - 1]:
            vals[m] = tmp[i]
            m += 1
    return np.int64(m)


@njit(cache=True)
def root_levels(row, opts, root, objective, out):
    """A superset of the values the root can take with ``objective=0``, so that the zero-window tests of MTD(f)
    try only values that exist: Trischaken's five payments; otherwise every sum of one value per item as the
    root side's ``2 N`` or ``-2 N``: the game (won or lost, or a valat in its place, or a Solo Valat alone),
    each bird and Trull, King Trull, Mondfang (each also 0: not won, or cancelled). Returns their number, 0 (no
    levels) when there would be too many, -1 (the template's rule: the table's values) for the card points."""
    if objective != 0:
        return np.int64(-1)
    if row[L.TRISCHAKEN] != 0:
        v = opts[O_TRISCHAKEN_VALUE]
        for i in range(5):
            out[i] = (i - 2) * v
        return np.int64(5)
    vals = np.zeros(MAX_LEVELS, dtype=np.int64)
    level = row[L.CONTRACT]
    kgame = row[L.KLEVEL]
    if level == L.SOLO_VALAT:
        v = GAME_VALUE[L.SOLO_VALAT] << kgame
        n = _add_item(vals, np.int64(1), -v, v, np.int64(0), 2)
    else:
        g = GAME_VALUE[level] << kgame
        vv = (GAME_VALUE[level] * opts[O_VALAT_FACTOR]) << kgame
        vals[0] = -g
        vals[1] = g
        vals[2] = -vv
        vals[3] = vv
        n = _add_item(vals, np.int64(4), np.int64(0), np.int64(0), np.int64(0), 1)
        bf = opts[O_SOLO_BONUS] if level == L.SOLO else ONE
        for b in range(3):
            if row[L.ANN_BY + b] >= 0:
                v = (BIRD_ANNOUNCED_VALUE[b] << row[L.KLEVEL + 1 + b]) * bf
            else:
                v = BIRD_SILENT_VALUE[b] * bf
            n = _add_item(vals, n, -v, np.int64(0), v, 3)
        for _ in range(3):
            n = _add_item(vals, n, -TRULL_BONUS * bf, np.int64(0), TRULL_BONUS * bf, 3)
    if n < 0 or n > out.shape[0]:
        return np.int64(0)
    sign = 2 if root == row[L.DECLARER] else -2
    for i in range(n):
        out[i] = sign * vals[i]
    return n


# ---- what PIMC reads (plain Python; tarockrl/agents/pimc.py) ---------------------------------------------------


def tricks_left(row: np.ndarray, options: dict) -> int:
    """Tricks still to be completed in the card play, the current one included (PIMC's ``solve_tricks``)."""
    return 16 - int(row[L.TRICK_NO])
