"""Strategy-based static bounds on the declarer's future pile points in Dreierles (outside Räuber).

The value of a position with best play of both sides is ``min over defender strategies of max over declarer
strategies``; so the declarer's best result against **one fixed defender strategy** is an upper bound of it, and
his result with one fixed strategy of his own against best defence a lower bound. These kernels play such fixed
strategies forward from a trick start on the three hands (bit masks; card index order is suit, then rank, see
``tarockrl/games/dreierles/cards.py``) and count what they make sure of, whatever the other side plays:

* :func:`defender_run` (upper bound): the defenders on lead lead *safe* cards (cards that win whatever the declarer
  plays) as long as the seat on lead holds one;
* :func:`declarer_lead_hi` (upper bound): the declarer on lead; per card he may lead, the defenders beat it when
  they can (fixed choices), then :func:`defender_run` from the trick's winner;
* :func:`declarer_run` (lower bound): the declarer on lead leads his safe cards, top trumps first.

The follow rule is docs/rules/dreierles.md §5.2: follow suit, else trump, else any card.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index, popcount
from tarockrl.engine.masktricks import highest_index, winning_card
from tarockrl.games.dreierles.cards import CARD_VALUES, SUIT_OF_CARD, TRUMPS

ONE = np.int64(1)
VALUES = CARD_VALUES
# the five suits: trumps, then the four plain suits (each a contiguous index range in rank order)
SUITS = np.array([TRUMPS, SUIT_OF_CARD[22], SUIT_OF_CARD[30], SUIT_OF_CARD[38], SUIT_OF_CARD[46]], dtype=np.int64)
BY_VALUE = np.array([sum(1 << c for c in range(54) if CARD_VALUES[c] == v) for v in range(6)], dtype=np.int64)
# ``value - 1`` of every card in three bit planes (bits 0, 1, 2 of it): its sum over a mask is three popcounts
EX1 = np.int64(sum(1 << c for c in range(54) if (int(CARD_VALUES[c]) - 1) & 1))
EX2 = np.int64(sum(1 << c for c in range(54) if (int(CARD_VALUES[c]) - 1) & 2))
EX4 = np.int64(sum(1 << c for c in range(54) if (int(CARD_VALUES[c]) - 1) & 4))


@njit(cache=True, inline="always")
def _above(m):
    """The cards above the highest card of ``m`` (every card when ``m`` is empty)."""
    if m == 0:
        return np.int64(-1)
    return ~((ONE << (highest_index(m) + 1)) - ONE)


@njit(cache=True, inline="always")
def _by_value(m, top):
    """The most (``top``) or least valuable card of ``m`` (non-empty), the lowest index among equals."""
    for i in range(5):
        x = m & BY_VALUE[5 - i if top else 1 + i]
        if x != 0:
            return lowest_index(x)
    return lowest_index(m)


@njit(cache=True, inline="always")
def _value_sum(m):
    """The sum of the counting values of the cards of ``m``: one per card plus ``value - 1`` by bit planes."""
    return popcount(m) + popcount(m & EX1) + 2 * popcount(m & EX2) + 4 * popcount(m & EX4)


@njit(cache=True, inline="always")
def _k_sum(m, k, top):
    """The sum of the ``k`` greatest (``top``) or least counting values of ``m`` (``k`` at most its size)."""
    s = np.int64(0)
    for i in range(5):
        if k <= 0:
            break
        v = 5 - i if top else 1 + i
        n = min(k, popcount(m & BY_VALUE[v]))
        s += n * v
        k -= n
    return s


@njit(cache=True, inline="always")
def _def_safe(dtop, td, follow):
    """The defenders' cards that win any trick they lead, whatever the declarer plays: ``dtop`` holds, per suit,
    the cards above all the declarer's cards of that suit at the start of the run (he only loses cards), ``td`` is
    the number of trumps he still holds and ``follow`` the plain suits of which he still holds a card while he
    holds a trump. Every trump above all his trumps, every trump once he holds none; a plain card above all his
    cards of its suit when he holds no trump (he cannot ruff) or still holds a card of its suit (he must follow)."""
    if td == 0:
        return TRUMPS | dtop
    return dtop & (TRUMPS | follow)


@njit(cache=True, inline="always")
def _cover(oth, sm, dtop, td, follow):
    """The partner's cards that win a trick his side leads in suit ``sm`` with a card that is not safe, whatever
    the declarer plays (``_def_safe``'s arguments): a trump above all the declarer's trumps; of a plain suit the
    declarer cannot ruff (he must follow it or holds no trump), a card of it above all his, or, the partner void in
    it, any trump; of a plain suit the declarer may ruff, the partner void in it: a trump above all his trumps."""
    if sm == TRUMPS:
        return oth & dtop & TRUMPS if td > 0 else np.int64(0)
    no_ruff = td == 0 or (follow & sm) != 0
    if (oth & sm) != 0:
        return oth & dtop & sm if no_ruff else np.int64(0)
    if no_ruff:
        return oth & TRUMPS
    return oth & dtop & TRUMPS


@njit(cache=True, inline="always")
def _partner_reply(oth, x, sm, safe):
    """The partner's fixed reply to his side's safe lead ``x`` of the suit ``sm``: ``(card, cls)`` with ``cls`` 0
    (a card that is not safe and does not overtake), 1 (a safe card that does not overtake) or 2 (he overtakes: all
    his cards of the suit are above ``x``, or he is void and must trump a plain lead). Not overtaking, he gives
    his most valuable unsafe card, else his least valuable safe one; overtaking, his lowest card that he may."""
    f = oth & sm
    if f != 0:
        cand = f & ((ONE << x) - ONE)  # same suit, below x (index order is rank order within a suit)
        if cand == 0:
            return lowest_index(f), np.int64(2)
    elif sm != TRUMPS and (oth & TRUMPS) != 0:
        return lowest_index(oth & TRUMPS), np.int64(2)
    else:
        cand = oth
    un = cand & ~safe
    if un != 0:
        return _by_value(un, True), np.int64(0)
    return _by_value(cand, False), np.int64(1)


@njit(cache=True, inline="always")
def defender_run(lh, ph, dh):
    """Upper bound (in counting units, before any thirds scaling) on the declarer's pile points from a trick start
    where a defender with hand ``lh`` leads, ``ph`` is his partner's hand and ``dh`` the declarer's (equal sizes).

    The defenders' fixed strategy: while the seat on lead holds a safe card (:func:`_def_safe`) or a card of a
    suit where his partner covers (:func:`_cover`), he leads such a card; first a safe one where his partner's
    reply (:func:`_partner_reply`) neither overtakes nor spends a safe card, then one where it spends a safe card,
    then one where it overtakes (the partner leads next), then a covered one (his most valuable card of the suit
    that is not safe; the partner plays his lowest covering card and leads next); a safe lead is his highest safe
    card of its suit. Each such trick is the defenders' whatever the declarer plays, and their cards in it do not
    depend on his play. The declarer's trumps and, while he holds trumps, his cards per plain suit are counted down
    exactly: holding a trump he must follow the led suit, else trump (§5.2), so a trump lead or a lead of a suit
    he no longer holds costs him a trump and a lead of a suit he holds one card of it. Once he holds no trump,
    every trump is safe and he can never ruff.
    Then (``k`` tricks left): ``k = 0``, nothing; ``k = 1``, the last trick is the two defenders' last cards (the
    seat on lead leads) and the declarer's one card, any of his hand: the most he can take in it; ``k >= 2``, all
    the points still in play with the declarer's ``k`` most valuable cards (his ``r`` cards in the run are the
    rest)."""
    dtop = np.int64(0)
    follow = np.int64(0)
    for g in range(5):
        sm = SUITS[g]
        dtop |= sm & _above(dh & sm)
        if g > 0 and (dh & sm) != 0:
            follow |= sm
    td = popcount(dh & TRUMPS)
    led = np.int64(0)  # one card per lead of a suit he followed (counts his cards of the suit played)
    cur = lh
    oth = ph
    n = popcount(dh)
    r = np.int64(0)
    while cur != 0:
        safe = _def_safe(dtop, td, follow)
        cand = cur & safe
        best = np.int64(9)
        bx = np.int64(-1)
        by = np.int64(-1)
        bs = np.int64(0)
        for g in range(5):
            sm = SUITS[g]
            cs = cand & sm
            if cs == 0:
                continue
            x = highest_index(cs)
            y, cls = _partner_reply(oth, x, sm, safe)
            if cls < best:
                best = cls
                bx = x
                by = y
                bs = sm
                if cls == 0:
                    break
        if best > 2:
            for g in range(5):
                sm = SUITS[g]
                un = cur & sm & ~safe
                if un == 0:
                    continue
                cv = _cover(oth, sm, dtop, td, follow)
                if cv != 0:
                    best = np.int64(3)
                    bx = _by_value(un, True)
                    by = lowest_index(cv)
                    bs = sm
                    break
        if best == 9:
            break
        cur ^= ONE << bx
        oth ^= ONE << by
        r += 1
        if td > 0:  # the declarer's forced play: the led suit if he holds it, else a trump
            if bs == TRUMPS or (follow & bs) == 0:
                td -= 1
            else:
                left = popcount(dh & bs) - popcount(led & bs) - 1  # his cards of the suit after this trick
                if left == 0:
                    follow &= ~bs
                led |= ONE << bx
        if best >= 2:  # the partner took the trick: he leads the next one
            t = cur
            cur = oth
            oth = t
    k = n - r
    if k == 0:
        return np.int64(0)
    if k == 1:
        x = lowest_index(cur)
        y = lowest_index(oth)
        # his cards that beat the better of the two: a trump above it (any trump when it is plain, then of the
        # led suit), or a higher card of the led suit; his most valuable such card (a trick is worth at least 1)
        w = winning_card((ONE << x) | (ONE << y), SUIT_OF_CARD[x], TRUMPS)
        above_w = ~((ONE << (w + 1)) - ONE)
        beat = dh & (TRUMPS & above_w if w < 22 else TRUMPS | (SUIT_OF_CARD[w] & above_w))
        if beat == 0:
            return np.int64(0)
        return VALUES[x] + VALUES[y] + VALUES[_by_value(beat, True)] - 2
    return _value_sum(cur | oth) + _k_sum(dh, k, True) - 2 * k


@njit(cache=True, inline="always")
def declarer_run(dh, h1, h2):
    """Lower bound (in counting units, before any thirds scaling) on the declarer's pile points from a trick start
    where he leads with hand ``dh`` against the defenders' hands ``h1`` and ``h2``: a fixed strategy of his.
    While he holds a safe card he leads one, a trump first while a defender holds trumps (drawing them): a trump
    is safe when it is above all the defenders' trumps or neither holds a trump any more; a plain card when it is
    above all their cards of its suit and each defender holds no trump (he cannot ruff) or still holds a card of
    the suit (he must follow). Each such trick is his whatever they play. Their trumps and, while a defender holds
    trumps, his cards per suit are counted down exactly: holding a trump he must follow the led suit (§5.2), so a
    trump lead costs each defender holding trumps one of them and a safe plain lead costs a defender holding trumps
    a card of its suit. The ``r`` tricks are worth their led cards plus each defender's ``r`` least valuable
    cards, less 2 each."""
    other = h1 | h2
    ttop = TRUMPS & _above(other & TRUMPS)
    ptop = np.int64(0)
    for g in range(1, 5):
        sm = SUITS[g]
        ptop |= sm & _above(other & sm)
    t1 = popcount(h1 & TRUMPS)
    t2 = popcount(h2 & TRUMPS)
    led = np.int64(0)
    cur = dh
    r = np.int64(0)
    v = np.int64(0)
    while cur != 0:
        x = np.int64(-1)
        if t1 == 0 and t2 == 0:
            safe_t = cur & TRUMPS
        else:
            safe_t = cur & ttop
        if safe_t != 0 and (t1 > 0 or t2 > 0):
            x = highest_index(safe_t)
        else:
            m = cur & ptop
            for g in range(1, 5):  # the plain suits in index order (the suit of the lowest such card first)
                sm = SUITS[g]
                if (m & sm) == 0:
                    continue
                nl = popcount(led & sm)
                if (t1 == 0 or popcount(h1 & sm) > nl) and (t2 == 0 or popcount(h2 & sm) > nl):
                    x = highest_index(m & sm)
                    break
            if x < 0 and safe_t != 0:
                x = highest_index(safe_t)
        if x < 0:
            break
        b = ONE << x
        cur ^= b
        led |= b
        if x < 22:  # a trump lead: each defender holding trumps follows with one
            if t1 > 0:
                t1 -= 1
            if t2 > 0:
                t2 -= 1
        r += 1
        v += VALUES[x]
    if r == 0:
        return np.int64(0)
    return v + _k_sum(h1, r, False) + _k_sum(h2, r, False) - 2 * r


# ---- the Pfeife sweeps: the Pfeife's side takes every trick left and the Pfeife wins the 16th -----------------
PFEIFE_BIT = ONE  # the Pfeife, trump 1 (index 0): the lowest trump


@njit(cache=True, inline="always")
def _drop(h, sm):
    """``h`` less one card of ``sm`` (its lowest; only the count per suit is read)."""
    return h & ~(h & sm & -(h & sm))


@njit(cache=True, inline="always")
def _pop_lowest(masks, t):
    """The lowest card of ``masks[t]``, removed from it (the next choice of a search level in the sweeps)."""
    c = lowest_index(masks[t])
    masks[t] &= masks[t] - ONE
    return c


@njit(cache=True, inline="always")
def _sweep_reps(m, other, top):
    """One card of ``m`` per class of cards equivalent in a sweep (the lowest): cards of one suit with no card of
    ``other`` between them and on the same side of ``top`` (the cards the opponents cannot beat) are alike there,
    except the Pfeife."""
    out = np.int64(0)
    last = np.int64(-1)
    x = m
    while x != 0:
        c = lowest_index(x)
        x &= x - ONE
        if (last > 0 and SUIT_OF_CARD[c] == SUIT_OF_CARD[last]
                and (other & ((ONE << c) - (ONE << (last + 1)))) == 0
                and ((top >> c) & ONE) == ((top >> last) & ONE)):
            last = c
            continue
        out |= ONE << c
        last = c
    return out


@njit(cache=True)
def pfeife_defender_sweep(hh, hp, dh, holder_leads, budget):
    """True when the defenders (the Pfeife's holder with hand ``hh``, his partner ``hp``) can make sure, from a
    trick start where one of them leads (``holder_leads``), of every trick left **and** of the Pfeife winning the
    16th trick, whatever the declarer (hand ``dh``, equal sizes) plays. Then the declarer adds no pile points and
    pays the Pfeife bonus: his least possible result, so the position's value exactly.

    A depth-first search over the defenders' own cards only (a fixed strategy of theirs, found by search): each
    trick must be theirs whatever the declarer plays, judged pessimistically against his cards at the start
    (``dtop``: the cards above all of his of their suit; he only loses cards). Holding a trump he must follow the
    led suit, else trump (§5.2), so he never discards and never chooses between a trump and another card: his
    trump count and his count per plain suit are exact (his hand ``d`` keeps the counts, not the cards). A trick
    is surely the defenders' when
    * a trump is led: their higher trump is above all his trumps (any trump once he holds none);
    * a plain suit he holds is led (or any plain suit once he holds no trump): a defender trumps it, or their
      higher card of the suit is above all of his;
    * a plain suit he lacks is led while he holds trumps (he must ruff): the partner of the leader trumps it with
      a trump above all of his.
    The holder never plays the Pfeife before the last trick; in the last trick his card is the Pfeife and the
    other two cards are not trumps (the partner's known, the declarer's because he holds no trump any more), so
    the Pfeife wins it (docs/rules/dreierles.md §6.4). ``budget``: the most trick choices tried (False when
    exhausted: no claim)."""
    k = popcount(hh)
    dtop = np.int64(0)
    for g in range(5):
        sm = SUITS[g]
        dtop |= sm & _above(dh & sm)
    if popcount((hh | hp) & dtop & TRUMPS) < popcount(dh & TRUMPS):
        return False  # each trick that takes one of his trumps is won by one of their trumps above all of his
    hs = np.zeros(17, dtype=np.int64)
    ps = np.zeros(17, dtype=np.int64)
    ds = np.zeros(17, dtype=np.int64)
    ls = np.zeros(17, dtype=np.int64)  # 1: the holder leads
    lm = np.zeros(17, dtype=np.int64)  # leads still to try
    fm = np.zeros(17, dtype=np.int64)  # follows still to try for the current lead
    cc = np.zeros(17, dtype=np.int64)  # the current lead
    hs[0] = hh
    ps[0] = hp
    ds[0] = dh
    ls[0] = 1 if holder_leads else 0
    lead_hand = hh if holder_leads else hp
    lm[0] = _sweep_reps(lead_hand & ~PFEIFE_BIT, hp if holder_leads else hh, dtop) if k > 1 else lead_hand
    fm[0] = 0
    steps = 0
    t = 0
    while t >= 0:
        if t == k - 1:  # the last trick: the Pfeife against two cards that are not trumps
            if hs[t] == PFEIFE_BIT and (ps[t] & TRUMPS) == 0 and (ds[t] & TRUMPS) == 0:
                return True
            t -= 1
            continue
        if fm[t] == 0:
            if lm[t] == 0:
                t -= 1
                continue
            c = _pop_lowest(lm, t)
            cc[t] = c
            fh = ps[t] if ls[t] == 1 else hs[t]
            sm = SUIT_OF_CARD[c]
            if (fh & sm) != 0:
                lg = fh & sm
            elif (fh & TRUMPS) != 0:
                lg = fh & TRUMPS
            else:
                lg = fh
            if ls[t] == 0:
                lg &= ~PFEIFE_BIT  # the holder follows: never the Pfeife before the last trick
            fm[t] = _sweep_reps(lg, hs[t] if ls[t] == 1 else ps[t], dtop)
            if lg == 0:
                continue
        f = _pop_lowest(fm, t)
        steps += 1
        if steps > budget:
            return False
        c = cc[t]
        sm = SUIT_OF_CARD[c]
        d = ds[t]
        td = popcount(d & TRUMPS)
        fb = ONE << f
        f_trump = (fb & TRUMPS) != 0
        if sm == TRUMPS:
            hi_c = max(c, f) if f_trump else c
            ok = td == 0 or ((ONE << hi_c) & dtop) != 0
            fwin = f_trump and f > c
            d2 = _drop(d, TRUMPS) if td > 0 else d
        elif td > 0 and (d & sm) == 0:  # he must ruff: only the follower's trump above all his beats it
            ok = f_trump and (fb & dtop) != 0
            fwin = True
            d2 = _drop(d, TRUMPS)
        else:  # he follows (holding trumps) or holds none: a defender's trump, or their top card of the suit
            if f_trump:
                ok = True
                fwin = True
            else:
                fs = (fb & sm) != 0 and f > c
                w = f if fs else c
                ok = ((ONE << w) & dtop) != 0
                fwin = fs
            d2 = _drop(d, sm) if td > 0 else d
        if not ok:
            continue
        lb = ONE << c
        if ls[t] == 1:
            h2 = hs[t] & ~lb
            p2 = ps[t] & ~fb
        else:
            h2 = hs[t] & ~fb
            p2 = ps[t] & ~lb
        nl = ls[t] if not fwin else 1 - ls[t]
        t += 1
        hs[t] = h2
        ps[t] = p2
        ds[t] = d2
        ls[t] = nl
        lead_hand = h2 if nl == 1 else p2
        lm[t] = _sweep_reps(lead_hand & ~PFEIFE_BIT, p2 if nl == 1 else h2, dtop) if t < k - 1 else lead_hand
        fm[t] = 0
    return False


@njit(cache=True)
def pfeife_declarer_sweep(dh, h1, h2, budget):
    """True when the declarer, on lead at a trick start with the Pfeife in his hand ``dh`` (the defenders' hands
    ``h1``, ``h2``, equal sizes), can make sure of every trick left **and** of the Pfeife winning the 16th trick,
    whatever the defenders play: then he takes all the points still in play and the Pfeife bonus, his greatest
    possible result, so the position's value exactly.

    A depth-first search over his leads (he wins every trick, so he leads every trick): a lead must win whatever
    they play, judged against their cards at the start (``top``: above all of theirs of its suit; they only lose
    cards): a trump above all their trumps, or a plain card above all their cards of the suit that no defender
    holding a trump can ruff (each defender holding trumps must follow the led suit, else trump, §5.2, so his
    trump count and count per suit are exact; one without trumps never wins a trick). The Pfeife is his last
    card, and by then neither defender holds a trump. ``budget``: the most leads tried (False when exhausted)."""
    k = popcount(dh)
    other = h1 | h2
    top = np.int64(0)
    for g in range(5):
        sm = SUITS[g]
        top |= sm & _above(other & sm)
    cand0 = _sweep_reps(dh & top & ~PFEIFE_BIT, np.int64(0), top)
    if k > 1 and cand0 == 0:
        return False
    ds = np.zeros(17, dtype=np.int64)
    as_ = np.zeros(17, dtype=np.int64)
    bs = np.zeros(17, dtype=np.int64)
    lm = np.zeros(17, dtype=np.int64)
    ds[0] = dh
    as_[0] = h1
    bs[0] = h2
    lm[0] = cand0 if k > 1 else dh
    steps = 0
    t = 0
    while t >= 0:
        if t == k - 1:
            if ds[t] == PFEIFE_BIT and ((as_[t] | bs[t]) & TRUMPS) == 0:
                return True
            t -= 1
            continue
        if lm[t] == 0:
            t -= 1
            continue
        c = _pop_lowest(lm, t)
        steps += 1
        if steps > budget:
            return False
        sm = SUIT_OF_CARD[c]
        a = as_[t]
        b = bs[t]
        ok = True
        if sm == TRUMPS:
            if (a & TRUMPS) != 0:
                a = _drop(a, TRUMPS)
            if (b & TRUMPS) != 0:
                b = _drop(b, TRUMPS)
        else:
            if (a & sm) != 0:
                a = _drop(a, sm)
            elif (a & TRUMPS) != 0:
                ok = False
            if (b & sm) != 0:
                b = _drop(b, sm)
            elif (b & TRUMPS) != 0:
                ok = False
        if not ok:
            continue
        # a defender without trumps who cannot follow discards: his counts no longer matter (he never wins)
        if (a & TRUMPS) == 0 and popcount(a) == popcount(as_[t]):
            a = a & ~(a & -a)
        if (b & TRUMPS) == 0 and popcount(b) == popcount(bs[t]):
            b = b & ~(b & -b)
        t += 1
        ds[t] = ds[t - 1] & ~(ONE << c)
        as_[t] = a
        bs[t] = b
        lm[t] = _sweep_reps(ds[t] & top & ~PFEIFE_BIT, np.int64(0), top) if t < k - 1 else ds[t]
    return False
