"""``scripts/solve_deals.py``: its lines, ``--warm-up`` and its errors on bad arguments."""

from __future__ import annotations

import re

import pytest

from tests.solvers._scripts import run_script


def _run(*args: str):
    return run_script("solve_deals.py", *args)


def test_warm_up_deal_is_not_printed_and_budget_overrun_is_reported():
    """With a 1000-node budget deals 7 and 1 (about 40k and 0.3M nodes) are over it and say so, and the median
    line counts them as the slowest (the warm-up deal 6, over budget too, is neither printed nor fatal). Without
    a budget deal 7 solves to its value (-124); only its line and the median are printed, not the warm-up's."""
    out = _run("--warm-up", "6", "--max-nodes", "1000", "7", "1")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 3, out.stdout
    assert re.match(r"seed\s+7 over 1,000 nodes", lines[0])
    assert re.match(r"seed\s+1 over 1,000 nodes", lines[1])
    assert lines[2] == "median of all 2 deals: over budget"
    out = _run("--warm-up", "6", "7")
    assert out.returncode == 0, out.stderr
    first, last = out.stdout.strip().splitlines()
    assert re.match(r"seed\s+7 value\s+-124 nodes\s+[\d,]+ cpu\s+[\d.]+ s$", first)
    assert last.startswith("median of all 1 deals: ")


@pytest.mark.parametrize("args, message", [
    (("--warm-up", "x", "0"), "--warm-up: invalid int value"),
    (("--max-nodes", "0", "0"), "--max-nodes must be positive"),
    (("--budget-rounds", "1,2", "0"), "expected 4 to 6 non-negative integers"),
    (("--table-bits", "30", "0"), "--table-bits must be in 8..28, got 30"),
])
def test_bad_arguments_exit_with_a_clear_error(args, message):
    """A bad argument exits with status 2 and a message that names it, without a traceback."""
    out = _run(*args)
    assert out.returncode == 2
    assert message in out.stderr and "Traceback" not in out.stderr


def test_table_bits_option_gives_the_same_value():
    """``--table-bits``: a small table (2**12 slots) still solves deal 7 to its value (-124)."""
    out = _run("--table-bits", "12", "7")
    assert out.returncode == 0, out.stderr
    assert re.match(r"seed\s+7 value\s+-124 nodes", out.stdout)


def test_probes_option_prints_each_root_search_before_the_deal():
    """``--probes``: the lines of MTD(f)'s searches of the root's value come before the deal's own line; the last
    one that reached its threshold has the deal's value as its result (deal 7, value -124)."""
    out = _run("--probes", "7")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.rstrip().splitlines()
    probe_lines = [ln for ln in lines if ln.lstrip().startswith("probe ")]
    assert probe_lines and lines[:len(probe_lines)] == probe_lines
    parsed = [re.match(r"\s+probe\s+(-?\d+) ([HL])\s+(-?\d+)\s+([\d,]+)$", ln) for ln in probe_lines]
    assert all(parsed), probe_lines
    assert max(int(m.group(3)) for m in parsed if m.group(2) == "H") == -124
    assert re.match(r"seed\s+7 value\s+-124 nodes", lines[len(probe_lines)])


def test_option_and_pfeife_place():
    """``--pfeife`` ends each line with where the Pfeife lies at the start of play (deal 7: the declarer's,
    announced; deal 1: a defender's; deal 0: in neither hand), also on a line over the budget. ``--option`` solves
    the same deal under another scoring rule: without the Pfeife bonus (silent and announced 0) deal 7 is worth -120
    to the declarer instead of -124 (his announced bonus, 2 from each defender, is lost); a bad option or a missing
    ``=`` is a clear error."""
    out = _run("--max-nodes", "1000", "--pfeife", "7", "1", "0")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert [line.split()[-1] for line in lines[:3]] == ["declarer-announced", "defender", "none"]
    out = _run("--option", "pfeife_value_silent=0", "--option", "pfeife_value_announced=0", "--pfeife", "7")
    assert out.returncode == 0, out.stderr
    assert re.match(r"seed\s+7 value\s+-120 nodes\s+[\d,]+ cpu\s+[\d.]+ s pfeife declarer-announced$",
                    out.stdout.splitlines()[0])
    out = _run("--option", "no_such_rule=1", "7")
    assert out.returncode == 2 and "unknown dreierles option(s) ['no_such_rule']" in out.stderr
    out = _run("--option", "pfeife_value_silent", "7")
    assert out.returncode == 2 and "expected NAME=VALUE" in out.stderr
