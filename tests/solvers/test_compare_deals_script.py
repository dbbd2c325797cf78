"""``scripts/compare_deals.py``: two ``solve_deals.py`` outputs compared deal by deal."""

from __future__ import annotations

from tests.solvers._scripts import ROOT, run_script

BASE = """  probe   -42 H   -42     196,588
seed   0 value   -48 nodes   2,000,000 cpu   0.52 s
seed   1 value   -45 nodes     400,000 cpu   0.09 s
seed   2 over 20,000,000 nodes
seed   3 value   -52 nodes   4,000,000 cpu   1.20 s
median of all 4 deals: 0.86 s
"""


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_report_of_two_runs(tmp_path):
    """Per group of two deals and over all four: solved counts, medians (an over-budget deal counts as the budget)
    and the geometric mean over the deals both solved; the deals that moved more than 1.5x with over 1M nodes;
    exit status 0 when every value both found agrees."""
    new = BASE.replace("2,000,000", "1,000,000").replace("seed   2 over 20,000,000 nodes",
                                                          "seed   2 value    -8 nodes  12,000,000 cpu 3.0 s")
    out = run_script("compare_deals.py", _write(tmp_path, "a.txt", BASE), _write(tmp_path, "b.txt", new),
                     "--groups", "2")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "values: the same on all 3 deals both runs solved",
        "deals 0-1 (2): solved 2 -> 2, median 1.20M -> 0.70M nodes, geometric mean 0.707 over 2 solved by both",
        "deals 2-3 (2): solved 1 -> 2, median 12.00M -> 8.00M nodes, geometric mean 1.000 over 1 solved by both",
        "deals 0-3 (4): solved 3 -> 4, median 3.00M -> 2.50M nodes, geometric mean 0.794 over 3 solved by both",
        "moved more than 1.5x: 0: 2.00M -> 1.00M; 2: 20.00M -> 12.00M",
    ]


def test_a_changed_value_fails_and_bad_input_is_a_clear_error(tmp_path):
    """A value that differs between the runs is listed and the exit status is 1; runs of different deals, a file
    without deal lines and a missing file are errors (exit status 2) that say what is wrong."""
    base = _write(tmp_path, "a.txt", BASE)
    out = run_script("compare_deals.py", base, _write(tmp_path, "b.txt", BASE.replace("-45", "-43")))
    assert out.returncode == 1
    assert out.stdout.splitlines()[0] == "VALUES DIFFER: deal 1: -45 -> -43"
    out = run_script("compare_deals.py", base, _write(tmp_path, "c.txt", BASE.replace("seed   3", "seed   9")))
    assert out.returncode == 2 and "the runs cover different deals (in one only: [3, 9])" in out.stderr
    out = run_script("compare_deals.py", base, _write(tmp_path, "d.txt", "median of all 0 deals\n"))
    assert out.returncode == 2 and "no 'seed N value V nodes K' or 'seed N over' lines" in out.stderr
    out = run_script("compare_deals.py", base, str(tmp_path / "missing.txt"))
    assert out.returncode == 2 and "missing.txt" in out.stderr


def test_committed_reference_matches_the_search():
    """``docs/data/solve_deals_75.txt``, main's run that variants are compared with, holds the 75 deals, and five
    cheap ones solve to its values and node counts today. A change to the search that moves a node count fails
    here: refresh the file with the command in its header."""
    import importlib.util

    import tarockrl
    from tarockrl.solvers import Solver
    from tarockrl.solvers.bench import _position

    spec = importlib.util.spec_from_file_location("compare_deals", ROOT / "scripts" / "compare_deals.py")
    compare_deals = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(compare_deals)
    ref = compare_deals.read_run(ROOT / "docs" / "data" / "solve_deals_75.txt")
    assert sorted(ref) == list(range(75))
    game = tarockrl.make_game("dreierles")
    solver = Solver("dreierles")
    for seed in (1, 7, 19, 25, 39):  # 19: the bonus game cuts
        r = solver.solve(_position(game, seed, 16), value_only=True, max_nodes=20_000_000)
        assert (r.value, r.nodes) == ref[seed], f"deal {seed}: refresh docs/data/solve_deals_75.txt"
