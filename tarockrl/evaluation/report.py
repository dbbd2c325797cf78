"""The outputs of ``tarockrl eval``: ``results.json`` (every number), ``report.md`` and ``plots/*.png``."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import numpy as np

from tarockrl.evaluation.match import MatchResult
from tarockrl.evaluation.ratings import bradley_terry
from tarockrl.evaluation.stats import summarize

__all__ = ["build_summary", "write_outputs", "cv_fit"]


def cv_fit(diff: np.ndarray, diff_cv: np.ndarray) -> dict[str, float]:
    """The control variate with its best coefficient: ``d − β*·c`` where ``c = d − d_cv`` (zero-mean correction).

    ``β* = cov(d, c) / var(c)`` is estimated from the same boards, so this estimate is only asymptotically unbiased
    (bias of order 1/boards); its variance reduction is ``corr(d, c)²``, never negative. Returns ``beta``,
    ``reduction`` and ``values`` (the adjusted per-board values).
    """
    d = np.asarray(diff, dtype=np.float64)
    c = d - np.asarray(diff_cv, dtype=np.float64)
    if d.size < 3 or c.var() == 0:
        return {"beta": 0.0, "reduction": 0.0, "values": d}
    beta = float(np.cov(d, c, ddof=1)[0, 1] / c.var(ddof=1))
    adj = d - beta * c
    return {"beta": beta, "reduction": float(1.0 - adj.var(ddof=1) / d.var(ddof=1)) if d.var() > 0 else 0.0,
            "values": adj}


def _pair_json(r: MatchResult, resamples: int, seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {"a": r.labels[0], "b": r.labels[1], "game_points": r.diff, "card_points": r.diff_cp,
                           "control_variate": r.diff_cv, "variance_reduction": r.variance_reduction,
                           "per_board": {"board": [b["board"] for b in r.boards],
                                         "diff": [b["diff"] for b in r.boards]}}
    if r.diff_cp is not None:
        out["per_board"]["diff_cp"] = [b["diff_cp"] for b in r.boards]
    if r.diff_cv is not None:
        d = np.array(out["per_board"]["diff"])
        cv = np.array([b["diff_cv"] for b in r.boards])
        out["per_board"]["diff_cv"] = cv.tolist()
        fit = cv_fit(d, cv)
        out["control_variate_fitted"] = summarize(fit["values"], resamples, seed, r.diff.get("half_width")) | {
            "beta": fit["beta"], "variance_reduction": fit["reduction"]}
    lengths = [s["length"] for b in r.boards for s in b["seatings"]]
    out["mean_actions_per_game"] = float(np.mean(lengths)) if lengths else math.nan
    return out


def build_summary(manifest: dict, labels: list[str], results: dict[tuple[int, int], MatchResult],
                  resamples: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Every number of a run as one JSON-ready dict: settings, pairs, pairwise matrix, ratings."""
    k = len(labels)
    mean = np.full((k, k), np.nan)
    lo = np.full((k, k), np.nan)
    hi = np.full((k, k), np.nan)
    diffs = {}
    for (i, j), r in results.items():
        m, (a, b) = r.diff["mean"], r.diff["ci_bootstrap"]
        mean[i, j], lo[i, j], hi[i, j] = m, a, b
        mean[j, i], lo[j, i], hi[j, i] = -m, -b, -a
        diffs[(i, j)] = np.array([x["diff"] for x in r.boards])
    ratings = bradley_terry(k, diffs, resamples=min(resamples, 1000), seed=seed)
    np.fill_diagonal(mean, 0.0)

    def clean(a: np.ndarray) -> list:
        return [[None if not math.isfinite(x) else float(x) for x in row] for row in a]

    return {
        "settings": manifest,
        "labels": labels,
        "pairs": [_pair_json(r, resamples, seed) for r in results.values()],
        "matrix": {"mean": clean(mean), "ci_low": clean(lo), "ci_high": clean(hi),
                   "meaning": "row agent minus column agent, game points per board (bootstrap 95% CI)"},
        "ratings": ratings | {"labels": labels, "scale": "Bradley-Terry on the Elo scale (400 log10), mean 0"},
    }


def _fmt(x: Any, spec: str = ".3f") -> str:
    return "–" if x is None or (isinstance(x, float) and not math.isfinite(x)) else format(x, spec)


def _ci(c: list) -> str:
    return f"[{_fmt(c[0])}, {_fmt(c[1])}]"


def markdown(summary: dict, plots: list[str]) -> str:
    """The Markdown report."""
    s = summary["settings"]
    lines = [f"# Duplicate evaluation: {s['game']}", "",
             f"- agents: {', '.join(f'`{a}`' for a in s['agents'])}",
             f"- boards: {s['boards']} ({s.get('board_source') or 'given'}), every board in every fair seating",
             f"- rules options: {s['options'] or 'defaults'}; agent seed {s['seed']} (common random numbers)",
             f"- control variate: {s['control_variate'] or 'none'}", ""]
    lines += ["## Pairs", "",
              "Per-board duplicate difference, A minus B (game points per seat-game, averaged over the seatings).", "",
              "| A | B | boards | mean | SE | 95% CI bootstrap | 95% CI normal | A wins | ties | B wins | boards for "
              "±h |", "|---|---|---:|---:|---:|---|---|---:|---:|---:|---:|"]
    for p in summary["pairs"]:
        g = p["game_points"]
        need = f"{g.get('boards_needed')} (h={g.get('half_width')})" if g.get("boards_needed") else "–"
        lines.append(f"| `{p['a']}` | `{p['b']}` | {g['n']} | {_fmt(g['mean'])} | {_fmt(g['se'])} | "
                     f"{_ci(g['ci_bootstrap'])} | {_ci(g['ci_normal'])} | {g['win']:.1%} | {g['tie']:.1%} | "
                     f"{g['loss']:.1%} | {need} |")
    if any(p["card_points"] for p in summary["pairs"]):
        lines += ["", "Card points (each seat's side), A minus B per board:", "",
                  "| A | B | mean | SE | 95% CI bootstrap |", "|---|---|---:|---:|---|"]
        for p in summary["pairs"]:
            c = p["card_points"]
            if c:
                lines.append(f"| `{p['a']}` | `{p['b']}` | {_fmt(c['mean'])} | {_fmt(c['se'])} | "
                             f"{_ci(c['ci_bootstrap'])} |")
    if any(p["control_variate"] for p in summary["pairs"]):
        lines += ["", "Control variate (decisions of agents with a known policy corrected by "
                  f"`{s['control_variate']}` values; plain estimate for comparison):", "",
                  "| A | B | plain mean ± SE | CV (β=1, unbiased) mean ± SE | variance change | CV fitted β | "
                  "fitted mean ± SE | variance change |", "|---|---|---|---|---:|---:|---|---:|"]
        for p in summary["pairs"]:
            c, f, g = p["control_variate"], p.get("control_variate_fitted"), p["game_points"]
            if c:
                red = p["variance_reduction"]
                lines.append(f"| `{p['a']}` | `{p['b']}` | {_fmt(g['mean'])} ± {_fmt(g['se'])} | {_fmt(c['mean'])} ± "
                             f"{_fmt(c['se'])} | {_fmt(-red if red is not None else None, '+.0%')} | "
                             f"{_fmt(f['beta'], '.2f')} | {_fmt(f['mean'])} ± {_fmt(f['se'])} | "
                             f"{_fmt(-f['variance_reduction'], '+.0%')} |")
    labels = summary["labels"]
    if len(labels) > 2:
        m = summary["matrix"]
        lines += ["", "## Pairwise matrix", "", "Row minus column, game points per board (bootstrap 95% CI).", "",
                  "| | " + " | ".join(f"`{x}`" for x in labels) + " |", "|---" * (len(labels) + 1) + "|"]
        for i, a in enumerate(labels):
            cells = ["–" if i == j else f"{_fmt(m['mean'][i][j], '.2f')} [{_fmt(m['ci_low'][i][j], '.2f')}, "
                     f"{_fmt(m['ci_high'][i][j], '.2f')}]" for j in range(len(labels))]
            lines.append(f"| `{a}` | " + " | ".join(cells) + " |")
    r = summary["ratings"]
    lines += ["", "## Ratings", "", "Bradley–Terry on board wins (ties half), Elo scale, mean 0; 95% CI by "
              "resampling boards.", "", "| agent | rating | 95% CI |", "|---|---:|---|"]
    for i in np.argsort(-np.array(r["rating"])):
        lines.append(f"| `{labels[i]}` | {r['rating'][i]:+.0f} | [{_fmt(r['ci_low'][i], '+.0f')}, "
                     f"{_fmt(r['ci_high'][i], '+.0f')}] |")
    if plots:
        lines += ["", "## Plots", ""] + [f"![{Path(p).stem}]({p})" for p in plots]
    lines += ["", "Method: `docs/evaluation.md`. Every number is in `results.json`; per-board results in "
              "`results.jsonl`.", ""]
    return "\n".join(lines)


def _plots(out: Path, summary: dict) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    made = []
    pdir = out / "plots"
    pdir.mkdir(exist_ok=True)
    pairs = summary["pairs"]
    fig, axes = plt.subplots(1, len(pairs), figsize=(5 * len(pairs), 3.6), squeeze=False)
    for ax, p in zip(axes[0], pairs, strict=True):
        d = np.array(p["per_board"]["diff"])
        bins = min(40, max(5, int(np.sqrt(d.size)) + 1))
        ax.hist(d, bins=bins, alpha=0.7, label="plain")
        if "diff_cv" in p["per_board"]:
            ax.hist(np.array(p["per_board"]["diff_cv"]), bins=bins, alpha=0.5, label="control variate")
            ax.legend(fontsize=8)
        ax.axvline(0, color="k", lw=0.8)
        ax.axvline(d.mean(), color="r", lw=1.2)
        ax.set_title(f"{p['a']} − {p['b']}", fontsize=9)
        ax.set_xlabel("per-board difference (game points)")
    axes[0][0].set_ylabel("boards")
    fig.tight_layout()
    fig.savefig(pdir / "differences.png", dpi=110)
    plt.close(fig)
    made.append("plots/differences.png")

    labels = summary["labels"]
    k = len(labels)
    m = np.array([[np.nan if x is None else x for x in row] for row in summary["matrix"]["mean"]])
    fig, ax = plt.subplots(figsize=(1.4 * k + 2.5, 1.2 * k + 1.5))
    lim = np.nanmax(np.abs(m)) or 1.0
    im = ax.imshow(m, cmap="RdBu", vmin=-lim, vmax=lim)
    ax.set_xticks(range(k), labels, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(k), labels, fontsize=8)
    for i in range(k):
        for j in range(k):
            if i != j and np.isfinite(m[i, j]):
                ax.text(j, i, f"{m[i, j]:.1f}", ha="center", va="center", fontsize=8)
    fig.colorbar(im, ax=ax, label="row − column, GP per board")
    ax.set_title("pairwise matrix", fontsize=9)
    fig.tight_layout()
    fig.savefig(pdir / "matrix.png", dpi=110)
    plt.close(fig)
    made.append("plots/matrix.png")

    r = summary["ratings"]
    rating = np.array(r["rating"])
    low = np.array([np.nan if x is None else x for x in r["ci_low"]], dtype=float)
    high = np.array([np.nan if x is None else x for x in r["ci_high"]], dtype=float)
    order = np.argsort(rating)
    fig, ax = plt.subplots(figsize=(5.5, 0.5 * k + 1.5))
    err = np.vstack([rating - low, high - rating])[:, order]
    ax.errorbar(rating[order], range(k), xerr=np.where(np.isfinite(err), err, 0), fmt="o", capsize=4)
    ax.set_yticks(range(k), [labels[i] for i in order], fontsize=8)
    ax.set_xlabel("Bradley–Terry rating (Elo scale), 95% CI")
    ax.axvline(0, color="k", lw=0.6)
    fig.tight_layout()
    fig.savefig(pdir / "ratings.png", dpi=110)
    plt.close(fig)
    made.append("plots/ratings.png")
    return made


def write_outputs(out: Path, summary: dict, results: dict, plots: bool = True) -> None:
    """Write ``results.json``, the plots and ``report.md`` into ``out`` (atomically replacing older ones)."""
    out = Path(out)
    made = _plots(out, summary) if plots else []
    clean = _finite(json.loads(json.dumps(summary, default=_json_default)))
    for name, text in (("results.json", json.dumps(clean, indent=1, allow_nan=False) + "\n"),
                       ("report.md", markdown(summary, made))):
        tmp = out / (name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, out / name)


def _finite(x: Any) -> Any:
    """The same structure with NaN and infinities replaced by ``None`` (strict JSON)."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_finite(v) for v in x]
    return x


def _json_default(x: Any) -> Any:
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating,)):
        return float(x)
    if isinstance(x, np.ndarray):
        return x.tolist()
    raise TypeError(f"not JSON serialisable: {type(x).__name__}")
