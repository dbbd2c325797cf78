"""The learned move-ordering score of the Dreierles solver (``LEARN_ORDER``, docs/solver_round_learn14.md): the
adapter's features and score equal their definition (a plain-Python reimplementation, and the fitting script's
formula ``(f . LEARN_W[kind]) << LEARN_SHIFT + hint``) on every card-play row of random deals, and the values of
positions solved with the score on stay exact (plain minimax)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit

import tarockrl
from tarockrl.games.dreierles import kernels as DK
from tarockrl.games.dreierles import layout as L
from tarockrl.games.dreierles.cards import CARD_VALUES, SUIT_OF_CARD, TRUMPS
from tarockrl.solvers import Solver
from tarockrl.solvers.adapters import dreierles as A
from tarockrl.solvers.bench import _position

TR = int(TRUMPS)


def _rows(game, seed, pass_all=False):
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    rows = []
    while not state.is_terminal():
        if state._row[L.PHASE] == L.PLAY:
            rows.append(state._row.copy())
        legal = state.legal_actions()
        a = L.A_PASS if pass_all and state._row[L.PHASE] == L.AUCTION else rng.choice(legal)
        state.apply_action(a)
    return rows


@njit  # not cached: it inlines the adapter's kernels
def _scores(row, opts, root, actions, feats, rules, at):
    hc = A.hint_ctx(row, opts, root)
    for i in range(actions.shape[0]):
        h = A.rules_hint_at(row, opts, actions[i], root, hc)
        rules[i] = h
        at[i] = A.hint_at(row, opts, actions[i], root, hc)
        f = A.learn_feats(row, actions[i] - L.A_PLAY, h, hc)
        for j in range(A.LEARN_NF):
            feats[i, j] = f[j]
    return hc[10]


def _hi(m):
    return m.bit_length() - 1 if m else -1


def _lo(m):
    return (m & -m).bit_length() - 1 if m else -1


def _winner(cards, led):
    """The winning card of the trick ``cards`` (in order) led in suit mask ``led``."""
    tr = [c for c in cards if (TR >> c) & 1]
    if tr:
        return max(tr)
    return max(c for c in cards if (led >> c) & 1)


def _feats_py(row, c, h, root):
    """The features of ``learn_feats`` from their definition (docs/solver_round_learn14.md)."""
    n, me, decl, raeuber = int(row[L.TRICK_N]), int(row[L.CUR]), int(row[L.DECLARER]), int(row[L.RAEUBER])
    hands = [int(row[L.HAND + i]) for i in range(3)]
    mine = hands[me]
    part = 0
    opp = 0
    for s in ((me + 1) % 3, (me + 2) % 3):
        if not raeuber and me != decl and s != decl:
            part = hands[s]
        else:
            opp |= hands[s]
    S = int(SUIT_OF_CARD[c])
    v = int(CARD_VALUES[c])
    tr = int(c < 22)
    allh = mine | part | opp
    master = int(_hi(allh & S) == c)
    pc = int.bit_count
    olen, otr = pc(opp & S), pc(opp & TR)
    ruffable = int(tr == 0 and (opp & S) == 0 and otr > 0)
    pmaster = int(part != 0 and (part & S) != 0 and _hi(allh & S) == _hi(part & S))
    beats = ruff = disc = cheap = topw = over3o = over3p = ruff3 = pw = 0
    if n:
        cards = [int(row[L.TRICK_CARD + i]) for i in range(n)]
        led = int(SUIT_OF_CARD[cards[0]])
        w = _winner(cards, led)
        wseat = (int(row[L.LEADER]) + cards.index(w)) % 3

        def sd(x):
            return (0 if x == root else 1) if raeuber else (0 if (x == decl) == (root == decl) else 1)

        pw = int(sd(wseat) == sd(me))
        beats = int(_winner(cards + [c], led) == c)
        ruff = int(tr == 1 and led != TR)
        disc = int(tr == 0 and S != led)
        if beats:
            legal = mine & led or mine & TR or mine
            winners = [x for x in range(54) if (legal >> x) & 1 and (S >> x) & 1
                       and _winner(cards + [x], led) == x]
            cheap = int(min(winners) == c)
            topw = int(not [x for x in range(54) if (legal >> x) & 1 and (S >> x) & 1 and x > c])
        if n == 1:
            third = (me + 1) % 3
            t3 = hands[third]
            if t3:
                cand = t3 & led or t3 & TR
                if cand and _winner(cards + [c, _hi(cand)], led) == _hi(cand):
                    if sd(third) == sd(me) and not raeuber:
                        over3p = 1
                    else:
                        over3o = 1
                if led != TR and (t3 & led) == 0 and (t3 & TR) != 0:
                    ruff3 = 1
    return (h, v, tr, int(c == 0), int(c >= 20), master, pc(mine & S), int(_lo(mine & S) == c),
            int(_hi(mine & S) == c) * (1 - master), olen, ruffable, pc(part & S), pmaster, pc(mine & TR), otr,
            v * master, ruffable * v, beats, beats * (1 - pw), v * pw * (1 - beats), v * beats,
            v * (1 - beats) * (1 - pw), over3o, over3p, ruff, disc, cheap, topw, master * pw * (1 - beats),
            v * over3o, ruff3 * v * beats, (16 - int(row[L.TRICK_NO])) * v)


@pytest.mark.parametrize("pass_all", [False, True], ids=["contract", "raeuber"])
def test_learned_score_matches_definition(pass_all):
    """Every legal card of every card-play row of random deals, every root seat: ``learn_feats`` equals the
    plain-Python definition, and ``hint_at`` equals the fitting script's formula for the node kinds in
    ``LEARN_ORDER`` (the rules' ``hint`` elsewhere)."""
    game = tarockrl.make_game("dreierles")
    opts = game.encoded_options
    checked = 0
    for seed in range(12):
        for row in _rows(game, 700 + seed, pass_all):
            legal = int(DK.play_legal(row, opts))
            actions = np.array([L.A_PLAY + c for c in range(54) if (legal >> c) & 1], dtype=np.int64)
            for root in range(3):
                f = np.zeros((actions.shape[0], A.LEARN_NF), dtype=np.int64)
                rules = np.zeros(actions.shape[0], dtype=np.int64)
                at = np.zeros(actions.shape[0], dtype=np.int64)
                kind = _scores(row, opts, np.int64(root), actions, f, rules, at)
                n, me = int(row[L.TRICK_N]), int(row[L.CUR])
                assert kind == 2 * n + int(not row[L.RAEUBER] and me == row[L.DECLARER])
                for i, a in enumerate(actions):
                    assert tuple(int(x) for x in f[i]) == _feats_py(row, int(a) - L.A_PLAY, int(rules[i]), root), \
                        (seed, root, int(a))
                if A.LEARN_ORDER >> kind & 1:
                    want = ((f @ A.LEARN_W[kind]) << A.LEARN_SHIFT) + rules
                else:
                    want = rules
                assert (at == want).all(), (seed, root, at, want)
                checked += actions.shape[0]
    assert checked > 2000


def test_learned_score_is_on_and_fits_the_score_range():
    """The switch is set for the defenders' and the declarer's leads and second cards and the defenders' third
    cards, and no score reaches the search's history part (``HINT_UNIT``: the score times 2**32 fits an int64)."""
    assert A.LEARN_W.shape == (6, A.LEARN_NF)
    f_max = np.array([100, 5, 1, 1, 1, 1, 22, 1, 1, 22, 1, 22, 1, 22, 22, 5, 5, 1, 1, 5, 5, 5, 1, 1, 1, 1, 1, 1, 1,
                      5, 5, 80])
    assert f_max.shape[0] == A.LEARN_NF
    bound = (np.abs(A.LEARN_W) @ f_max).max() * (1 << A.LEARN_SHIFT) + 128
    assert bound < 2 ** 30


@pytest.mark.parametrize("pass_all", [False, True], ids=["contract", "raeuber"])
def test_values_exact_with_learned_order(pass_all):
    """Positions with 4 tricks left at all three positions in the trick, both objectives: every root action's value
    equals plain minimax of the child, and the value-only value equals it too."""
    game = tarockrl.make_game("dreierles")
    sol = Solver("dreierles")
    k = sol.kernels
    opts = game.encoded_options
    checked = 0
    for seed in range(800, 812):
        if pass_all:
            rng = random.Random(seed)
            st = game.new_initial_state(seed=seed)
            while st._row[L.PHASE] != L.PLAY or int(st._row[L.TRICK_NO]) < 12:
                if st.is_terminal():
                    break
                a = L.A_PASS if st._row[L.PHASE] == L.AUCTION else rng.choice(st.legal_actions())
                st.apply_action(a)
            if st.is_terminal() or st._row[L.TRICK_N] != 0:
                continue
        else:
            st = _position(game, seed, 4)
            if st is None:
                continue
        rng = random.Random(seed)
        for pos in range(3):
            if pos:
                st = st.clone()
                st.apply_action(rng.choice(st.legal_actions()))
            root = np.int64(st.current_player())
            for obj, objective in ((0, "returns"), (1, "card_points")):
                r = sol.solve(st, objective=objective)
                for a, v in r.action_values.items():
                    child = st.clone()
                    child.apply_action(a)
                    if child.is_terminal():
                        continue
                    assert v == int(k.minimax_plain(child._row.copy(), opts, root, np.int64(obj))), (seed, pos, a)
                    checked += 1
                assert sol.solve(st, objective=objective, value_only=True).value == r.value
    assert checked > 100
