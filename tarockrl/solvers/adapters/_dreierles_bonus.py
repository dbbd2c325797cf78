"""The Pfeife bonus game of Dreierles: which side can make sure of the Pfeife bonus's outcome?

The Pfeife (the lowest trump) decides its bonus in the 16th trick (docs/rules/dreierles.md §6.4). Two questions:

* ``THEIRS``, the silent bonus for the defenders: a defender's Pfeife scores for them when it wins that trick (it is
  his last card and neither other seat plays a trump to it); the declarer's silent Pfeife scores for them when it
  is played to that trick and loses it (another seat plays a trump). ``DENIED``: the declarer can prevent it;
  ``SCORED``: the defenders can make sure of it.
* ``MINE``, the declarer's own Pfeife (announced or silent) winning the 16th trick for him. ``SCORED``: he can make
  sure of it; ``DENIED``: the defenders can prevent it.

Neither depends on the card points at all: only on who holds which card, the rank order within each suit and who
is on lead. This module answers both exactly, by a small boolean search over the three hands (bit masks; the
follow rule of §5.2: follow suit, else trump, else any card; outside Räuber only):

* the nodes of the side against the bonus need one card after which it is denied, the other side's nodes need it
  after every card of theirs;
* the bonus is denied once the Pfeife has been played to an earlier trick; a defender's Pfeife also when the
  declarer or the holder's partner holds nothing but trumps (his last card is then a trump, which beats it), the
  declarer's own winning also when a defender holds nothing but trumps;
* cards of one hand and suit with no card in play between them are equivalent (the points do not count here, so
  unlike the main search's merging their values may differ); one of each class is tried;
* results at trick starts go into a direct-mapped table keyed by the question and the position up to ranks (the
  places of the cards in play in rank order, the counts per suit, the seat on lead and the declarer's seat), so
  positions that differ only in which cards of the same structure were played share an entry. An answer does not
  depend on the search, the deal or the rules options; the keys carry a salt per solve (the solver's), so a solve
  never reads another solve's answers and its node count does not depend on the solves before it.

The solver uses it as a cut (``tarockrl/solvers/adapters/dreierles.py``, ``bonus_claim``): where, with the
points bounded for every play, the bonus's outcome alone decides the zero window, the side that can make sure of
that outcome settles the node. A search that would need more than its budget of nodes gives up (no answer, nothing
stored); docs/solver.md, rounds "session 22" and "session 23", has the figures.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index, popcount
from tarockrl.engine.masktricks import highest_index, winning_card
from tarockrl.engine.tricks import follow_or_trump
from tarockrl.games.dreierles.cards import PFEIFE, SUIT_OF_CARD, TRUMPS
from tarockrl.solvers._bits import pext
from tarockrl.solvers._common import BONUS_DENIED, BONUS_SCORED, hmix

ONE = np.int64(1)
DENIED = np.int64(BONUS_DENIED)  # the side against the bonus can make sure it is not scored
SCORED = np.int64(BONUS_SCORED)  # the bonus's side can make sure of it
UNKNOWN = np.int64(-1)  # the search ran out of its budget
THEIRS = np.int64(0)  # the question: the defenders' bonus (a defender's Pfeife winning, the declarer's losing)
MINE = np.int64(1)  # the question: the declarer's bonus (his own Pfeife winning the 16th trick)


@njit(cache=True, inline="always")
def suit_counts(cards):
    """The number of ``cards`` per suit (trumps, then the four plain suits), five 5-bit counts in one word (at
    most 22 cards a suit); the Dreierles table keys (``rank_key`` in the adapter) read it too."""
    return (popcount(cards & TRUMPS) + 32 * popcount(cards & SUIT_OF_CARD[22])
            + 1024 * popcount(cards & SUIT_OF_CARD[30]) + 32768 * popcount(cards & SUIT_OF_CARD[38])
            + 1048576 * popcount(cards & SUIT_OF_CARD[46]))


@njit(cache=True, inline="always")
def _position_key(h0, h1, h2, leader, declarer, question):
    """The key of a trick start for ``question`` up to ranks: the places of the cards in play in rank order (hand
    2 holds the rest), the number of cards per suit, the seat on lead and the declarer's seat. The Pfeife, when in
    play, is the lowest trump, so its place is part of it."""
    rem = h0 | h1 | h2
    h = hmix(np.int64(0x5EED_B0B0) + declarer + 4 * question, pext(h0, rem) | (leader << np.int64(48)))
    return hmix(hmix(h, pext(h1, rem)), suit_counts(rem))


@njit(cache=True)
def _search(hands, c0, c1, n, leader, declarer, holder, question, table, base, bits, salt, counter):
    """``DENIED``, ``SCORED`` or ``UNKNOWN`` for the position of ``hands`` (int64[3], changed and restored) with
    ``n`` cards of the current trick played (``c0``, ``c1``; -1 when not played) by the seats from ``leader``
    on. ``counter[0]`` counts the nodes, ``counter[1]`` is the budget."""
    own = holder == declarer
    mine = question == MINE  # the declarer's own Pfeife winning the 16th trick, for him
    partner = 3 - declarer - holder
    key = np.int64(0)
    slot = np.int64(0)
    if n == 0:
        if (hands[holder] & PFEIFE) == 0:  # played to an earlier trick
            return DENIED
        if popcount(hands[holder]) == 1:  # the 16th trick: every card is forced
            others = (hands[0] | hands[1] | hands[2]) & ~PFEIFE & TRUMPS
            if mine:
                return DENIED if others != 0 else SCORED
            if own:
                return SCORED if others != 0 else DENIED
            return DENIED if others != 0 else SCORED
        if not own and ((hands[declarer] & ~TRUMPS) == 0 or (hands[partner] & ~TRUMPS) == 0):
            return DENIED  # a hand of trumps only ends with a trump in the 16th trick
        if mine and ((hands[(declarer + 1) % 3] & ~TRUMPS) == 0 or (hands[(declarer + 2) % 3] & ~TRUMPS) == 0):
            return DENIED
        # the salt by xor: two positions share a slot (or a stored key) in every solve or in none, so a solve's
        # node count does not depend on its salt; the stored key is never 0 (an empty slot)
        key = _position_key(hands[0], hands[1], hands[2], leader, declarer, question) ^ salt
        slot = base + 2 * (key & ((ONE << bits) - ONE))
        key |= ONE
        if table[slot] == key:
            return table[slot + 1]
    counter[0] += 1
    if counter[0] > counter[1]:
        return UNKNOWN
    mover = (leader + n) % 3
    hand = hands[mover]
    legal = hand if n == 0 else follow_or_trump(hand, SUIT_OF_CARD[c0], TRUMPS)  # the game's own follow rule
    in_play = hands[0] | hands[1] | hands[2]
    if n >= 1:
        in_play |= ONE << c0
    if n == 2:
        in_play |= ONE << c1
    # the side against the bonus needs one card after which it is denied, the bonus's side one after which it is not
    good = DENIED if (mover == declarer) != mine else SCORED
    unknown = False
    rest = legal & ~PFEIFE
    pfeife_left = (legal & PFEIFE) != 0  # the holder tries it last
    prev = np.int64(-1)
    while rest != 0 or pfeife_left:
        if rest != 0:  # the declarer's high cards first (plain cards before trumps), the defenders' low first
            c = highest_index(rest) if mover == declarer else lowest_index(rest)
            rest &= ~(ONE << c)
        else:
            c = np.int64(0)
            pfeife_left = False
        if prev > 0 and c > 0 and SUIT_OF_CARD[c] == SUIT_OF_CARD[prev]:
            lo = min(c, prev)
            hi = max(c, prev)
            if (in_play & ((ONE << hi) - (ONE << (lo + ONE)))) == 0:
                continue  # equivalent to the card tried before
        prev = c
        hands[mover] = hand & ~(ONE << c)
        if n == 0:
            r = _search(hands, c, np.int64(-1), np.int64(1), leader, declarer, holder, question, table, base,
                        bits, salt, counter)
        elif n == 1:
            r = _search(hands, c0, c, np.int64(2), leader, declarer, holder, question, table, base, bits, salt,
                        counter)
        else:
            trick = (ONE << c0) | (ONE << c1) | (ONE << c)
            w = winning_card(trick, SUIT_OF_CARD[c0], TRUMPS)
            if (trick & PFEIFE) != 0:  # the Pfeife decides its bonus only in the 16th trick
                last = (hands[0] | hands[1] | hands[2]) == 0
                r = SCORED if last and (w != 0 if own and not mine else w == 0) else DENIED
            else:
                winner = leader if w == c0 else ((leader + 1) % 3 if w == c1 else (leader + 2) % 3)
                r = _search(hands, np.int64(-1), np.int64(-1), np.int64(0), winner, declarer, holder, question,
                            table, base, bits, salt, counter)
        hands[mover] = hand
        if r == good:
            if n == 0:
                table[slot] = key
                table[slot + 1] = good
            return good
        if r == UNKNOWN:
            unknown = True
    if unknown:
        return UNKNOWN
    if n == 0:
        table[slot] = key
        table[slot + 1] = DENIED + SCORED - good
    return DENIED + SCORED - good


@njit(cache=True)
def bonus_game(h0, h1, h2, leader, declarer, holder, table, base, bits, salt, budget, question=THEIRS):
    """``(DENIED | SCORED | UNKNOWN, nodes)`` for ``question`` about the Pfeife of ``holder`` from a trick start
    with the hands ``h0``-``h2`` and ``leader`` on lead: ``THEIRS`` (``holder`` a defender, or the declarer with a
    silent Pfeife), whether the declarer can keep it from scoring for the defenders in the 16th trick (a
    defender's winning it, his own losing it); ``MINE`` (``holder`` the declarer), whether he can make it win the
    16th trick. The table is ``table[base:base + 2 ** (bits + 1)]`` (key, answer per slot), its keys mixed with
    ``salt``; at most ``budget`` nodes."""
    hands = np.empty(3, dtype=np.int64)
    hands[0] = h0
    hands[1] = h1
    hands[2] = h2
    counter = np.empty(2, dtype=np.int64)
    counter[0] = 0
    counter[1] = budget
    r = _search(hands, np.int64(-1), np.int64(-1), np.int64(0), leader, declarer, holder, question, table, base,
                bits, salt, counter)
    return r, counter[0]
