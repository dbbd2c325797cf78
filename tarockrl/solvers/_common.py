"""numba helpers shared by the per-game solver adapters (:mod:`tarockrl.solvers.adapters`).

* :func:`hmix` folds one int64 into a running 64-bit hash (the SplitMix64 finaliser over ``h ^ x``), the
  building block of every adapter's transposition key;
* :func:`no_forced_rest` is the default of the optional adapter kernel ``forced_rest`` (see
  :mod:`tarockrl.solvers._bind`);
* :func:`gen_merged` turns a legal card set (one word of it) into the move list with equivalent-card merging
  (see the package docstring of :mod:`tarockrl.solvers` for the rule);
* :func:`kills`, :func:`sure_trumps` and :func:`cash_tops` bound the value a side surely takes with its trumps
  and with its plain top cards (the static bounds of the Dreierles and Dreiertarock adapters: tarock packs whose
  trumps count 1, some of them 5, with Farbzwang and Tarockzwang);
* :func:`no_root_levels` is the default of the optional adapter kernel ``root_levels``, :func:`copy_prefix` that of
  ``copy_row``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index, popcount
from tarockrl.engine.masktricks import highest_index, winning_card

ONE = np.int64(1)
_MIX_A = np.int64(0xBF58476D1CE4E5B9 - (1 << 64))
_MIX_B = np.int64(0x94D049BB133111EB - (1 << 64))


@njit(cache=True, inline="always")
def _shr(z, k):
    """Logical right shift of an int64 by ``k`` bits (0 < k < 64)."""
    return (z >> np.int64(k)) & ((ONE << np.int64(64 - k)) - ONE)


@njit(cache=True, inline="always")
def hmix(h, x):
    """Fold ``x`` into the hash ``h`` (bijective in ``h ^ x``; order-dependent across calls)."""
    z = (h ^ np.int64(x)) + np.int64(0x1F3D5B79)
    z = (z ^ _shr(z, 30)) * _MIX_A
    z = (z ^ _shr(z, 27)) * _MIX_B
    return z ^ _shr(z, 31)


@njit(cache=True, inline="always")
def no_forced_rest(row):
    """Default ``forced_rest``: never claims that the rest of the deal is forced."""
    return False


@njit(cache=True, inline="always")
def no_tt_skip(row):
    """Default ``tt_skip``: the table is used at every node."""
    return False


@njit(cache=True, inline="always")
def no_root_levels(row, opts, root, objective, out):
    """Default ``root_levels``: -1, the template's own rule (the monotone table's values, and the ends of the
    bonus range, see :func:`tarockrl.solvers._template.solve_root`)."""
    return np.int64(-1)


@njit(cache=True, inline="always")
def copy_prefix(child, row, n):
    """Default ``copy_row``: a child row gets the first ``n`` (the adapter's ``COPY_LEN``) slots of its parent."""
    for j in range(n):
        child[j] = row[j]


@njit(cache=True, inline="always")
def no_hist_slot(row):
    """Default ``hist_slot``: one history table for every position (the slot is 0)."""
    return np.int64(0)


@njit(cache=True, inline="always")
def no_sweep(row, opts, root):
    """Default ``sweep``: no claim (``ok`` False); else ``(ok, f, b)``: the position's exact value is the
    monotone table at the points so far plus ``f``, plus ``b`` (see the Dreierles adapter)."""
    return False, np.int64(0), np.int64(0)


@njit(cache=True, inline="always")
def no_bonus_claim(row, opts, table, base, salt, question):
    """Default ``bonus_claim``: ``(answer, nodes)`` for a bonus decided later in the deal, ``question`` 0 the
    defenders' bonus, 1 the declarer's: ``BONUS_DENIED`` (the other side can make sure it is not scored),
    ``BONUS_SCORED`` (its side can make sure it is) or -1 (unknown; here always, with no nodes searched). The
    Dreierles adapter answers it for the Pfeife."""
    return np.int64(-1), np.int64(0)


@njit(cache=True)
def no_bonus_amounts(row, opts, root):
    """Default ``bonus_amounts``: the bonuses at stake at this node that ``bonus_claim`` answers (question 0 and
    1), each as the change of the root side's value when it is scored (0: not at stake; here neither)."""
    return np.int64(0), np.int64(0)


@njit(cache=True, inline="always")
def no_pre_at(row, opts):
    """Default ``pre_at``: no points-only pre-search at this threshold node (see the Dreierles adapter)."""
    return False


OBJ_NO_BONUS = 2  # the objective of a points-only pre-search (``PRESEARCH``): the bonus in play left out
BONUS_SCORED = 0  # ``bonus_claim``'s answers: its side can make sure of the bonus
BONUS_DENIED = 1  # the other side can make sure it is not scored


@njit(cache=True)
def no_claim_points(row, opts, upper):
    """Default ``claim_points``: the pile points the declarer adds from here in every play, at least (``upper``
    False) or at most (True), for the bounds of ``bonus_claim`` (unused while it answers nothing)."""
    return np.int64(0)


NO_BONUS_BITS = 0  # default ``BONUS_BITS``: no table for ``bonus_claim``, which the template never calls


NO_SWEEP = False  # default ``SWEEP``: the template never calls ``sweep``
NO_PRESEARCH = False  # default ``PRESEARCH``: the template never calls ``pre_at`` (no points-only pre-searches)
NO_BAND_FIRST = False  # default ``BAND_FIRST``: MTD(f) tests the root's levels in one sequence
NO_HIST_MALUS = False  # default ``HIST_MALUS``: a cutoff only rewards the cutting move in the history table
NO_PLAYOUT_GUESS = False  # default ``PLAYOUT_GUESS``: MTD(f) starts from the level nearest 0, not from a playout
NO_BOUND_NEED = False  # default ``BOUND_NEED``: the static bounds ``afmin``/``afmax`` are computed in full
NO_HINT_CTX = False  # default ``HINT_CTX``: the search scores each move with the adapter's ``hint``
NO_MEMO_BITS = 0  # default ``MEMO_BITS``: no refutation memo (``memo_key`` is never called)
NO_MEMO_LEARN = 0  # default ``MEMO_LEARN``: the memo's move is tried first wherever ``memo_key`` gives a slot
NO_ORDER_LEARN = 0  # default ``ORDER_LEARN``: no alternative move ordering (``hint_alt``/``alt_class`` never called)
NO_HIST_BAND_SHIFT = 0  # default ``HIST_BAND_SHIFT``: MTD(f) keeps the history table as it is after the band probes
BW_NO_TTMOVE = np.int64(16)  # ``budget_word`` flag: budgeted rounds only at nodes without a table move
BW_CUT = np.int64(32)  # ``budget_word`` flag: budgeted rounds only at nodes expected to cut (template ``_search``)
BW_ROOT_ALL = np.int64(64)  # ``budget_word`` flag: a search's root is expected to be an all-node, not a cut node
# ``budget_word`` flag: a node whose table entry holds one bound only (not cutting) expects the value near it: a
# lower bound below the window a fail low, an upper bound above it a fail high (else the structural rule)
BW_TT_DIR = np.int64(256)
BW_FLAGS = 16 | 32 | 64 | 256  # every ``budget_word`` flag


def budget_word(b0, shift, k, classes, flags=0, stagger=0):
    """The budgeted rounds' parameters as one word (``ctx[C_BUDGET]``, the adapter's ``BUDGET_ROUNDS``): a node
    whose adapter ``budget_at`` gives class ``c`` (bit ``c`` of ``classes`` set) and size at least ``k`` searches
    its moves in rounds; round ``r`` gives the move of rank ``i`` (in the move order), while it is open, a node
    budget of ``b0 << (shift * r - stagger * i)`` (not tried in the rounds where that is below ``b0``). Flags
    (``BW_*``) of 16..128 share a byte with ``classes`` (bits 36-43); flags of 256 and up go from bit 48 on (bits
    44-47 hold ``stagger``)."""
    return (int(b0) | int(max(shift, 1)) << 24 | int(k) << 28 | (int(classes) | int(flags) & 0xF0) << 36
            | int(stagger) << 44 | (int(flags) >> 8) << 48)


NO_BUDGET_ROUNDS = 0  # default ``BUDGET_ROUNDS``: no node budgets per move (else a ``budget_word``)


@njit(cache=True, inline="always")
def no_budget_at(row):
    """Default ``budget_at``: ``(class, size)`` of a node for the budgeted rounds (read only with
    ``BUDGET_ROUNDS``); class -1: never budgeted. The size must never grow from a node to its child (e.g. the
    tricks or cards left)."""
    return np.int64(-1), np.int64(0)


@njit(cache=True, inline="always")
def no_memo_key(row):
    """Default ``memo_key``: no position has a refutation memo slot (-1)."""
    return np.int64(-1)


@njit(cache=True, inline="always")
def no_hint_ctx(row, opts, root):
    """Default ``hint_ctx``: nothing computed per node (read only with ``HINT_CTX``)."""
    return np.int64(0)


@njit(cache=True, inline="always")
def no_hint_at(row, opts, action, root, hc):
    """Default ``hint_at`` (never called unless the adapter sets ``HINT_CTX``)."""
    return np.int64(0)


@njit(cache=True, inline="always")
def no_hint_alt(row, opts, action, root, hc):
    """Default ``hint_alt`` (never called unless the adapter sets ``ORDER_LEARN``)."""
    return np.int64(0)


@njit(cache=True, inline="always")
def no_alt_class(row, opts, root, hc):
    """Default ``alt_class``: no node has an alternative ordering."""
    return np.int64(-1)


@njit(cache=True, inline="always")
def cards_in_play(row, hand, trick_n, trick_card):
    """The cards still in play of a three-hand game's row: the hands at ``hand`` .. ``hand + 2`` and the
    ``row[trick_n]`` cards of the current trick at ``trick_card`` (the adapters pass their layout's slots)."""
    rem = row[hand] | row[hand + 1] | row[hand + 2]
    for i in range(row[trick_n]):
        rem |= np.int64(1) << row[trick_card + i]
    return rem


NO_PAYOFF_SIM = 0  # default ``PAYOFF_SIM``: additive and threshold entries are keyed by ``akey`` (no similarity)


@njit(cache=True)
def no_skey(row):
    """Default ``skey`` (never called unless the adapter sets ``PAYOFF_SIM``)."""
    return np.int64(0)


@njit(cache=True)
def no_pvec(row):
    """Default ``pvec`` (never called unless the adapter sets ``PAYOFF_SIM``)."""
    return np.int64(0)


@njit(cache=True)
def no_pdelta(old, new, row, opts):
    """Default ``pdelta`` (never called unless the adapter sets ``PAYOFF_SIM``)."""
    return np.int64(0), np.int64(0)


@njit(cache=True, inline="always")
def no_bound_need(row, opts, x):
    """Default ``afmin_need``/``afmax_need`` (never called unless the adapter sets ``BOUND_NEED``)."""
    return np.int64(0)


@njit(cache=True, inline="always")
def kills(killers, targets, cap):
    """The most ``targets`` (trumps) that ``killers`` (trumps of the other side) can beat, each killer beating
    at most ``cap`` targets below it (index order is rank order): a greedy scan from the highest trump down (the
    sets a killer can beat are nested, so this is a maximum matching)."""
    n = np.int64(0)
    avail = np.int64(0)
    m = killers | targets
    while m != 0:
        c = highest_index(m)
        b = ONE << c
        m ^= b
        if (killers & b) != 0:
            avail += cap
        elif avail > 0:
            avail -= 1
            n += 1
    return n


@njit(cache=True, inline="always")
def sure_trumps(own, other, cap, pairs, five):
    """Least value the side holding the trumps ``own`` surely takes with them, when every trump counts 1 and
    those in ``five`` count 5: a trick holding one of ``own`` that no trump of ``other`` above it joins is the
    side's and worth at least that trump's value (its other cards are worth 1 or more, a trick counts its values
    minus 2). Each trump of ``other`` joins one trick and so beats at most ``cap`` of ``own`` (1 for a single
    seat's trumps, 2 for two seats' trumps played into one trick); the beaten ones are at most the ``k`` of a
    maximum matching and weigh at most ``5 f + (k - f)`` (``f`` the most trumps worth 5 that can be beaten at
    once; the beatable sets form a matroid, so a heaviest beaten set holds ``f`` of them). With ``pairs`` (own =
    two seats' trumps) two of them may share a trick, worth one less than their sum: at most one such pair per
    two unbeaten ones. (A beaten set smaller than the matching grows to one of its size by j more trumps worth
    1 or more, which lowers the value by j or more and the pair count by at most j, so the bound holds for every
    beaten set. It is never weaker than counting only the trumps above all of the other side's.)"""
    k = kills(other, own, cap)
    f = kills(other, own & five, cap)
    v = popcount(own) + 4 * popcount(own & five) - 5 * f - (k - f)
    if pairs:
        v -= (popcount(own) - k) // 2
    return v


@njit(cache=True, inline="always")
def cash_cards(own, a, b, opp, suits, a_free, b_free, followers):
    """The one loop of :func:`cash_tops`, :func:`cash_tops_followed` and the Dreierles adapter's bit-plane
    version: per plain suit (``suits``), the tricks the leader's side runs with its cards above all of ``opp``'s
    while both other seats must follow (a flag set: that seat may be void). Returns the number of tricks ``k``
    and the cards they are counted with: the ``k`` highest top cards per suit and, with ``followers``, each
    follower's ``k`` lowest cards of the suit (a trick's least value is then ``k`` plus the sum of ``value - 1``
    over these cards, since the hands are disjoint)."""
    n = np.int64(0)
    counted = np.int64(0)
    for s in range(suits.shape[0]):
        sm = suits[s]
        mine = own & sm
        if mine == 0:
            continue
        sa = a & sm
        sb = b & sm
        if (sa == 0 and not a_free) or (sb == 0 and not b_free):
            continue
        top = mine & ~((ONE << (highest_index(opp & sm) + ONE)) - ONE)
        if top == 0:
            continue
        k = popcount(top)
        if sa != 0 and not a_free:
            k = min(k, popcount(sa))
        if sb != 0 and not b_free:
            k = min(k, popcount(sb))
        if k == 0:
            continue
        drop = popcount(top) - k
        while drop > 0:  # the k highest top cards
            top &= top - ONE
            drop -= 1
        counted |= top
        if followers:
            counted |= low_cards(sa, k) | low_cards(sb, k)
        n += k
    return n, counted


@njit(cache=True, inline="always")
def _cash_run(own, a, b, opp, suits, values, a_free, b_free, followers):
    """:func:`cash_cards` valued by ``values``: ``k`` plus ``value - 1`` per counted card."""
    n, m = cash_cards(own, a, b, opp, suits, a_free, b_free, followers)
    v = n
    while m != 0:
        c = lowest_index(m)
        m &= m - ONE
        v += values[c] - 1
    return v


@njit(cache=True, inline="always")
def cash_tops(own, a, b, opp, suits, values):
    """Least value the side of the seat holding ``own`` (on lead at the start of a trick; ``a`` and ``b`` the
    next two seats' hands, ``opp`` the other side's hands) can make sure of by leading its plain cards that are
    above all the other side's cards of their suit, while both other seats still hold that suit (so they must
    follow and cannot trump; the leader keeps the lead): per suit (``suits``: the plain suits' masks), with
    ``t`` such top cards and the two others holding ``na`` and ``nb`` cards of it, ``min(t, na, nb)`` tricks,
    each worth at least its top card's value (its two other cards are worth 1 or more, a trick counts its values
    minus 2; a partner's higher card wins for the side too). A strategy of the leader's side, so a bound on the
    value with best play, not on every play (the trumps stay untouched: nobody trumps in these tricks, so the
    sure trump tricks of :func:`sure_trumps` come on top)."""
    return _cash_run(own, a, b, opp, suits, values, False, False, False)


@njit(cache=True, inline="always")
def gen_merged(legal, remaining, suit_mask_of_card, values, mergeable, offset, moves, reps, merge, start):
    """Write the actions ``offset + c`` for the cards ``c`` of ``legal`` (ascending) into ``moves``, from index
    ``start`` on (a pack of two words calls it once per word).

    ``reps[i]`` is the index (into ``moves``) of the representative of move ``i``: ``i`` itself, or, when
    ``merge`` is set, the representative of the previous move if card ``c`` and the previous card are
    equivalent: the highest card of ``remaining`` (the cards still in play: every hand and the current trick)
    below ``c`` in its suit is also in ``legal``, both cards are in ``mergeable`` and both have the same
    counting value. Suits occupy contiguous index ranges ordered by rank, so such a card is the previous move.
    Returns the number of moves in ``moves`` (``start`` plus this word's).
    """
    n = start
    m = legal
    while m != 0:
        c = lowest_index(m)
        m &= m - ONE
        moves[n] = offset + c
        reps[n] = n
        if merge != 0 and n > start and ((mergeable >> c) & ONE) != 0:
            below = remaining & suit_mask_of_card[c] & ((ONE << c) - ONE)
            if below != 0:
                p = highest_index(below)
                if ((legal >> p) & ONE) != 0 and ((mergeable >> p) & ONE) != 0 and values[p] == values[c]:
                    reps[n] = reps[n - 1]
        n += 1
    return n


@njit(cache=True, inline="always")
def trick_hint(card, trick, led_mask, trump_mask, partner_wins, value):
    """Static move-ordering score of following with ``card`` (higher is tried first), for one-word packs.

    ``trick`` is the mask of the cards already in the trick, ``partner_wins`` whether its winning card belongs
    to the mover's side. Partner winning: give him the most valuable card that does not overtake; opponent
    winning: the cheapest card that wins (the lowest index), else the least valuable card.
    """
    beats = winning_card(trick | (ONE << card), led_mask, trump_mask) == card
    if partner_wins:
        if beats:
            return np.int64(1)
        return np.int64(8) + value
    if beats:
        return np.int64(100) - card
    return np.int64(8) - value


@njit(cache=True, inline="always")
def fold_card_places(h, h0, h1, h2, t0, rem, values):
    """Fold the cards of ``rem`` (the cards in play) into the key ``h``, in index order, each as its place (hand
    ``h0``/``h1``/``h2``, the trick's first card ``t0``, else its second) and its counting value ``values[c]``:
    the position up to ranks that the adapters' rank keys start from (docs/solver.md)."""
    acc = np.int64(0)
    k = 0
    m = rem
    while m != 0:
        c = lowest_index(m)
        b = m & -m
        m ^= b
        if (h0 & b) != 0:
            o = 0
        elif (h1 & b) != 0:
            o = 1
        elif (h2 & b) != 0:
            o = 2
        elif (t0 & b) != 0:
            o = 3
        else:
            o = 4
        acc = acc * 64 + o + 8 * values[c]
        k += 1
        if k == 10:
            h = hmix(h, acc)
            acc = np.int64(0)
            k = 0
    h = hmix(h, acc + (np.int64(k) << np.int64(60)))
    return h


@njit(cache=True, inline="always")
def third_overtakes(third_hand, trick, card, led_mask, trump_mask):
    """True when, after ``card`` joins ``trick`` (one card, the lead), the third seat's highest card that may
    follow (of the led suit, else a trump) would win the trick. Reads the third seat's hand, so it serves the
    open-hand solver's move ordering only, never a playing policy (see the adapters' ``rollout_hint``)."""
    cand = third_hand & led_mask
    if cand == 0:
        cand = third_hand & trump_mask
    if cand == 0:
        return False
    b3 = highest_index(cand)
    return winning_card(trick | (np.int64(1) << card) | (np.int64(1) << b3), led_mask, trump_mask) == b3


@njit(cache=True, inline="always")
def lead_hint(card, remaining, suit_mask, value):
    """Static move-ordering score of leading ``card``: a card that is the highest still in play of its suit (a sure
    winner) first, the most valuable of those first; then the least valuable other cards."""
    if highest_index(remaining & suit_mask) == card:
        return np.int64(50) + value
    return np.int64(8) - value


@njit(cache=True, inline="always")
def low_cards(m, k):
    """The ``k`` lowest-index cards of ``m`` (all of ``m`` when it holds fewer)."""
    out = np.int64(0)
    while k > 0 and m != 0:
        b = m & -m
        out |= b
        m ^= b
        k -= 1
    return out


@njit(cache=True, inline="always")
def cash_tops_followed(own, a, b, opp, suits, values, a_free, b_free):
    """:func:`cash_tops` counting the followers' cards too, and letting a follower that cannot ruff hold no card
    of the suit. Per suit (``suits``), with ``t`` of ``own``'s cards above all of ``opp``'s of it: a follower
    holding ``n`` cards of the suit limits the run to ``n`` tricks (then he may ruff), unless his flag
    (``a_free``/``b_free``: set by the caller for a seat that holds no trump and so can never ruff, and whose void
    in the suit cannot break the leader's side's hold on the lead) lets him discard instead; the ``k`` tricks are
    worth at least the ``k`` highest top cards plus, for each follower, his ``k`` lowest cards of the suit (he
    must follow with ``k`` different ones; a discard counts 1), less 2 each. Plain suits whose cards' values do
    not fall with the index (the tarock packs' plain suits) only: the ``k`` lowest cards are the ``k`` lowest
    indices. Returns the least value the leader's side makes sure of (a strategy of that side, as
    :func:`cash_tops`)."""
    return _cash_run(own, a, b, opp, suits, values, a_free, b_free, True)


@njit(cache=True, inline="always")
def _safe_cards(hand, decl, suits, trumps):
    """The cards of ``hand`` that win any trick they lead against a declarer holding ``decl`` and no trump: every
    trump, and every plain card above all the declarer's cards of its suit (all of a suit he lacks)."""
    safe = hand & trumps
    for s in range(suits.shape[0]):
        sm = suits[s]
        safe |= hand & sm & ~((ONE << (highest_index(decl & sm) + 1)) - ONE)
    return safe


@njit(cache=True, inline="always")
def _low_excess(hand, k, by_value):
    """The sum of ``values - 1`` of the ``k`` cards of ``hand`` with the least values (``k`` at most its size;
    ``by_value[v]``: the mask of the cards worth ``v``, for ``v`` in 1..5)."""
    v = np.int64(0)
    for want in range(1, 6):
        if k <= 0:
            break
        n = min(k, popcount(hand & by_value[want]))
        v += n * (want - 1)
        k -= n
    return v


@njit(cache=True, inline="always")
def trumpless_run(leader, partner, decl, suits, trumps, by_value):
    """Least value the two seats of a side (``leader`` on lead at the start of a trick, ``partner`` the other)
    make sure of against a third seat holding ``decl`` and no trump: while the seat on lead holds a safe card
    (:func:`_safe_cards`: it wins the trick whatever the others play), it leads one, and the partner plays a card
    that does not beat it when he has one. A safe card stays safe (the third seat only loses cards). The partner
    can be made to win only with a safe card of his own (a trump, or a higher card of the led suit), so with
    ``a`` and ``b`` safe cards (leader, partner) the side wins the next ``a`` tricks when ``b`` is 0, else at
    least ``min(a, b)`` (by induction: each trick costs the seat on lead one safe card and the other at most
    one). Those ``r`` tricks hold ``r`` cards of each hand, so they are worth at least ``r`` plus, per hand, the
    ``values - 1`` of its ``r`` least valuable cards (a trick counts its values minus 2; ``by_value[v]``: the
    mask of the cards worth ``v``, values 1..5)."""
    a = popcount(_safe_cards(leader, decl, suits, trumps))
    if a == 0:
        return np.int64(0)
    b = popcount(_safe_cards(partner, decl, suits, trumps))
    r = a if b == 0 else min(a, b)
    r = min(r, popcount(decl))
    return r + _low_excess(leader, r, by_value) + _low_excess(partner, r, by_value) + _low_excess(decl, r, by_value)
