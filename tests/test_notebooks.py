"""Every notebook runs top to bottom (code cells executed in order, at a small size)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, capsys):
    cells = json.loads(path.read_text())["cells"]
    namespace: dict = {"__name__": "__notebook__"}
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        if i == 1 or "N = " in source:
            source = source.replace("N = 20_000", "N = 500")
        exec(compile(source, f"{path.name}[cell {i}]", "exec"), namespace)


def test_there_is_a_notebook():
    assert NOTEBOOKS
