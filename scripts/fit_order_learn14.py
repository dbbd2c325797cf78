"""Fit the learned move-ordering score of the Dreierles solver (``LEARN_W`` in tarockrl/solvers/adapters/dreierles.py;
docs/solver_round_learn14.md).

Data: card-play positions of random deals (seeds ``--seed0`` ..; never 0-24, the whole-deal test set) with 6-11 tricks
left, at the trick start and after one or two random cards; each legal card labelled by its exact value from
``Solver("dreierles").solve`` (every root action). Features: ``learn_feats`` of the adapter (the same kernel the
search calls). Model: per node kind (``hint_ctx``'s kind: position in the trick x declarer or defender) a linear score
fitted as a conditional logit (softmax over the node's moves, the best-valued moves the target), L2-regularised,
seeded; the weights are printed as integers (``--scale``) ready to paste into ``LEARN_W``.

usage: python scripts/fit_order_learn14.py collect OUT.npz [--seed0 1000 --deals 600]
       python scripts/fit_order_learn14.py fit OUT.npz [--scale 16]
"""

from __future__ import annotations

import argparse
import random
import sys

import numpy as np
from numba import njit

import tarockrl
from tarockrl.games.dreierles import layout as L
from tarockrl.solvers import SearchLimitError, Solver
from tarockrl.solvers.adapters import dreierles as A
from tarockrl.solvers.bench import _position

NK = 6


@njit  # not cached: it inlines the adapter's kernels
def node_feats(row, opts, actions, out):
    """Fill ``out[i]`` with ``learn_feats`` of ``actions[i]`` (root = the mover); returns the node kind."""
    root = row[L.CUR]
    hc = A.hint_ctx(row, opts, root)
    for i in range(actions.shape[0]):
        h = A.rules_hint_at(row, opts, actions[i], root, hc)
        f = A.learn_feats(row, actions[i] - L.A_PLAY, h, hc)
        for j in range(A.LEARN_NF):
            out[i, j] = f[j]
    return hc[10]


def collect(out_path, seed0, deals, budget=3_000_000):
    game = tarockrl.make_game("dreierles")
    opts = game.encoded_options
    sol = Solver("dreierles")
    recs = []  # (kind, tricks_left, feats (m, NF), values (m,), hint (m,))
    for seed in range(seed0, seed0 + deals):
        assert seed >= 25
        rng = random.Random(seed)
        left = 6 + seed % 6
        st = _position(game, seed, left)
        if st is None:
            continue
        for pos in range(3):
            if pos:
                st = st.clone()
                st.apply_action(rng.choice(st.legal_actions()))
            if st.is_terminal():
                break
            acts = np.array(st.legal_actions(), dtype=np.int64)
            if acts.shape[0] < 2:
                continue
            try:
                r = sol.solve(st, max_nodes=budget)
            except SearchLimitError:
                continue
            vals = np.array([r.action_values[int(a)] for a in acts], dtype=np.float64)
            f = np.zeros((acts.shape[0], A.LEARN_NF), dtype=np.int64)
            kind = node_feats(st._row, opts, acts, f)
            recs.append((kind, left, f, vals))
        if seed % 50 == 0:
            print(seed, len(recs), file=sys.stderr, flush=True)
    kinds = np.array([r[0] for r in recs])
    lefts = np.array([r[1] for r in recs])
    sizes = np.array([r[2].shape[0] for r in recs])
    np.savez(out_path, kinds=kinds, lefts=lefts, sizes=sizes, feats=np.concatenate([r[2] for r in recs]),
             vals=np.concatenate([r[3] for r in recs]))


def load(path):
    d = np.load(path)
    off = np.concatenate([[0], np.cumsum(d["sizes"])])
    return d["kinds"], d["lefts"], off, d["feats"].astype(np.float64), d["vals"]


def nodes_of(kinds, off, feats, vals, sel):
    """(features, best mask, regret per move) per selected node, only nodes where the moves' values differ."""
    out = []
    for i in np.nonzero(sel)[0]:
        f = feats[off[i]:off[i + 1]]
        v = vals[off[i]:off[i + 1]]
        best = v == v.max()
        if best.all():
            continue
        out.append((f, best, v.max() - v))
    return out


def fit_kind(nodes, l2, seed, regret=0.0):
    """Conditional logit: maximise sum log(sum_best exp(s) / sum_all exp(s)), s = f . w, with feature scaling;
    with ``regret`` > 0, then minimise the expected regret of the softmax's move (value lost against the best,
    ``regret`` the softmax's temperature factor) from that start."""
    from scipy.optimize import minimize

    allf = np.concatenate([f for f, _, _ in nodes])
    sd = allf.std(0)
    sd[sd == 0] = 1.0
    nf = allf.shape[1]

    def loss(w):
        tot = 0.0
        g = np.zeros(nf)
        for f, best, _ in nodes:
            x = f / sd
            s = x @ w
            s -= s.max()
            e = np.exp(s)
            z = e.sum()
            zb = e[best].sum()
            tot -= np.log(zb) - np.log(z)
            g -= (e[best] @ x[best]) / zb - (e @ x) / z
        return tot / len(nodes) + l2 * w @ w, g / len(nodes) + 2 * l2 * w

    rng = np.random.default_rng(seed)
    w0 = rng.normal(0, 0.01, nf)
    res = minimize(loss, w0, jac=True, method="L-BFGS-B", options={"maxiter": 500})
    if regret <= 0:
        return res.x / sd

    def rloss(w):
        tot = 0.0
        g = np.zeros(nf)
        for f, _, r in nodes:
            x = f / sd
            s = regret * (x @ w)
            s -= s.max()
            p = np.exp(s)
            p /= p.sum()
            er = p @ r
            tot += er
            g += regret * ((p * r) @ x - er * (p @ x))
        return tot / len(nodes) + l2 * w @ w, g / len(nodes) + 2 * l2 * w

    res = minimize(rloss, res.x, jac=True, method="L-BFGS-B", options={"maxiter": 500})
    return res.x / sd


def first_best_rate(nodes, score):
    """The share of nodes whose first move (highest score, the lowest index on ties as the search's stable sort
    of ascending cards) is a best move."""
    ok = 0
    reg = 0.0
    for f, best, r in nodes:
        s = score(f)
        ok += best[int(np.argmax(s))]
        reg += r[int(np.argmax(s))]
    return ok / max(1, len(nodes)), reg / max(1, len(nodes))


def fit(path, scale, l2=1e-3, seed=0, regret=0.0):
    kinds, lefts, off, feats, vals = load(path)
    n = kinds.shape[0]
    rng = np.random.default_rng(seed)
    test = rng.random(n) < 0.3
    W = np.zeros((NK, A.LEARN_NF), dtype=np.int64)
    for k in range(NK):
        tr = nodes_of(kinds, off, feats, vals, (kinds == k) & ~test)
        te = nodes_of(kinds, off, feats, vals, (kinds == k) & test)
        if len(tr) < 20:
            continue
        w = fit_kind(tr, l2, seed, regret)
        wi = np.round(w * scale).astype(np.int64)
        W[k] = wi
        rules, rr = first_best_rate(te, lambda f: f[:, 0])
        learned, rl = first_best_rate(te, lambda f, wi=wi: (f @ wi) * 128 + f[:, 0])
        learned_tr, _ = first_best_rate(tr, lambda f, wi=wi: (f @ wi) * 128 + f[:, 0])
        print(f"kind {k}: train {len(tr)} test {len(te)} nodes; first move best (held out): rules {rules:.3f} "
              f"learned {learned:.3f} (train {learned_tr:.3f}); its mean regret: rules {rr:.2f} learned {rl:.2f}")
    print("LEARN_W = np.array([")
    for k in range(NK):
        print("    [" + ", ".join(str(int(x)) for x in W[k, :16]) + ",")
        print("     " + ", ".join(str(int(x)) for x in W[k, 16:]) + "],")
    print("], dtype=np.int64)")
    return W


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["collect", "fit"])
    ap.add_argument("path")
    ap.add_argument("--seed0", type=int, default=1000)
    ap.add_argument("--deals", type=int, default=600)
    ap.add_argument("--scale", type=float, default=16.0)
    ap.add_argument("--l2", type=float, default=1e-3)
    ap.add_argument("--regret", type=float, default=0.0)
    a = ap.parse_args(argv)
    if a.cmd == "collect":
        collect(a.path, a.seed0, a.deals)
    else:
        fit(a.path, a.scale, a.l2, regret=a.regret)


if __name__ == "__main__":
    main()
