"""``scripts/oracle_ordering.py``: both solves agree on the value, the oracle's ordering needs no more nodes on a
small deal, and a budget overrun is reported."""

from __future__ import annotations

import re

from tests.solvers._scripts import run_script


def _run(*args: str):
    return run_script("oracle_ordering.py", *args)


def test_oracle_line_and_budget():
    """Deal 7 (value -124, about 39k nodes): the line gives the value, both node counts and their ratio, and the
    oracle solve takes fewer nodes. With a 1000-node budget the deal is reported as over it."""
    out = _run("7", "--max-nodes", "1000")
    assert out.returncode == 0, out.stderr
    assert re.fullmatch(r"seed\s+7 over 1,000 nodes\n", out.stdout)
    out = _run("7")
    assert out.returncode == 0, out.stderr
    m = re.fullmatch(r"seed\s+7 value\s+-124 nodes\s+([\d,]+) oracle\s+([\d,]+) ratio\s+([\d.]+)\n", out.stdout)
    assert m, out.stdout
    first, oracle = (int(m.group(i).replace(",", "")) for i in (1, 2))
    assert 0 < oracle < first
    assert abs(float(m.group(3)) - first / oracle) < 0.01
