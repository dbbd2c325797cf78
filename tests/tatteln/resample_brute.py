"""Brute-force references for the Tatteln world sampler (tests only).

``stepwise_consistent`` decides whether a shuffle is a world of ``player``'s view by the definition alone: the
history replays legally on it and ``player``'s observation equals the true one after every action. It uses only
the rule and observation kernels, none of the sampler's reasoning.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
from numba import njit

from tarockrl.games.tatteln import resample as R
from tarockrl.games.tatteln.kernels import apply_unchecked, deck_card, init_from_deck, is_legal
from tarockrl.games.tatteln.layout import DEALER, HIST, HIST_LEN
from tarockrl.games.tatteln.observe import observe
from tarockrl.games.tatteln.rules import O_DECK


@njit(cache=True)
def stepwise_consistent(state, player, opts, wdeck, obs_len):
    """True when the history replays legally on ``wdeck`` and every observation of ``player`` is the true one."""
    n = opts[O_DECK]
    true_deck = np.zeros(n, dtype=np.int64)
    for i in range(n):
        true_deck[i] = deck_card(state, i)
    tr = np.zeros(state.shape[0], dtype=np.int64)
    w = np.zeros(state.shape[0], dtype=np.int64)
    init_from_deck(tr, true_deck, state[DEALER], opts)
    init_from_deck(w, wdeck, state[DEALER], opts)
    o1 = np.zeros(obs_len, dtype=np.float32)
    o2 = np.zeros(obs_len, dtype=np.float32)
    observe(tr, player, opts, o1)
    observe(w, player, opts, o2)
    if not np.array_equal(o1, o2):
        return False
    for i in range(state[HIST_LEN]):
        a = state[HIST + i]
        if not is_legal(w, a, opts):
            return False
        apply_unchecked(tr, a, opts)
        apply_unchecked(w, a, opts)
        observe(tr, player, opts, o1)
        observe(w, player, opts, o2)
        if not np.array_equal(o1, o2):
            return False
    return True


def problem(game, state, player):
    """The sampler's placement problem: ``(deck, cards, bound, caps, slots, nd)`` as Python lists."""
    out = R._prepare(state.row, np.int64(player), game.encoded_options)
    deck, cards, bound, caps, slots, m, nd = out[0], out[1], out[2], out[3], out[4], out[7], out[8]
    return ([int(x) for x in deck], [int(x) for x in cards[:m]], [int(x) for x in bound[:m]],
            [int(x) for x in caps[:nd + 2]], [int(x) for x in slots[:nd + 2]], int(nd))


def hidden_positions(game, state, player) -> list[int]:
    """Shuffle positions hidden from ``player``: the opponent's deal positions, his hidden draws, the hidden rest."""
    deck, cards, bound, caps, slots, nd = problem(game, state, player)
    pos = [i for i, c in enumerate(deck) if c < 0]
    assert len(pos) == len(cards)
    return pos


def enumerate_worlds(game, state, player, key) -> Counter:
    """Every deal satisfying the per-card necessary conditions (the cards ``player`` saw the opponent hold were
    his before that moment), each checked by :func:`stepwise_consistent`; returns the count of consistent deals
    per ``key(shuffle)``. The order of the hidden rest of the stock is enumerated in full."""
    deck, cards, bound, caps, slots, nd = problem(game, state, player)
    opts = game.encoded_options
    obs_len = game.observation_size
    dealer = int(state.row[DEALER])
    opp = 1 - player
    opp_pos = [i for i in range(2 * game.rules.hand_size) if ((1 - dealer) if i % 2 == 0 else dealer) == opp]
    rest_pos = [slots[nd + 1] + t for t in range(caps[nd + 1])]
    counts: Counter = Counter()
    idx = range(len(cards))

    def go(j, used, assign):
        if j == 0:
            left = sorted(cards[k] for k in idx if k not in used)
            if len(left) != caps[0]:
                return
            w = list(deck)
            for i, c in zip(opp_pos, left):
                w[i] = c
            for jj, c in assign.items():
                if jj != "rest":
                    w[slots[jj]] = c
            base = np.array(w, dtype=np.int64)
            for perm in itertools.permutations(assign.get("rest", ())):
                wd = base.copy()
                for i, c in zip(rest_pos, perm):
                    wd[i] = c
                if stepwise_consistent(state.row, np.int64(player), opts, wd, obs_len):
                    counts[key(wd)] += 1
            return
        if j == nd + 1:
            pool = [k for k in idx if bound[k] >= j]
            for combo in itertools.combinations(pool, caps[j]):
                go(j - 1, set(combo), {"rest": tuple(cards[k] for k in combo)})
            return
        for k in idx:
            if k not in used and bound[k] >= j:
                a = dict(assign)
                a[j] = cards[k]
                go(j - 1, used | {k}, a)

    go(nd + 1, set(), {})
    return counts


def leaves(game, state, player) -> float:
    """The number of deals :func:`enumerate_worlds` tries."""
    return float(R.count_candidates(state.row, np.int64(player), game.encoded_options))


def multinomial_placements(bound, caps):
    """Every placement of cards with allowed places ``0..bound[k]`` filling ``caps``: list of place tuples."""
    out = []
    m = len(bound)

    def go(k, rem, cur):
        if k == m:
            if all(r == 0 for r in rem):
                out.append(tuple(cur))
            return
        for j in range(bound[k] + 1):
            if rem[j] > 0:
                rem[j] -= 1
                cur.append(j)
                go(k + 1, rem, cur)
                cur.pop()
                rem[j] += 1

    go(0, list(caps), [])
    return out


def factorial(n: int) -> int:
    """n! (a shorthand for the tests)."""
    return math.factorial(n)


def stock_phase_key(game, state, player):
    """A key of a sampled world's deal for stock-phase uniformity tests: (the stock's next card, the opponent's last
    hidden draw, the opponent's dealt hand as a sorted tuple)."""
    out = R._prepare(state.row, np.int64(player), game.encoded_options)
    slots, nd = out[4], int(out[8])
    top, last = int(slots[nd + 1]), int(slots[nd])
    dealer = int(state.row[DEALER])
    opp_pos = [i for i in range(18) if ((1 - dealer) if i % 2 == 0 else dealer) == 1 - player]

    def key(wd):
        return int(wd[top]), int(wd[last]), tuple(sorted(int(wd[i]) for i in opp_pos))

    return key
