"""Every notebook runs top to bottom (code cells executed in order, at a small size).

The size convention: a notebook's second cell is its parameter cell, and it reads the environment variable
``TAROCKRL_NOTEBOOK_SMALL``; when that is ``"1"`` it picks small values (``N_DEALS = 40 if SMALL else 3_000``).
The test sets the variable, runs each notebook in a fresh temporary working directory (files a notebook writes,
such as a training run, land there) with matplotlib's non-interactive backend, and closes the figures after every
cell.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def code_cells(path: Path) -> list[tuple[int, str]]:
    """The (index, source) of every code cell of a notebook."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [(i, "".join(c["source"])) for i, c in enumerate(cells) if c["cell_type"] == "code"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, tmp_path, monkeypatch, capsys):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    monkeypatch.setenv("TAROCKRL_NOTEBOOK_SMALL", "1")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__notebook__"}
    try:
        for i, source in code_cells(path):
            exec(compile(source, f"{path.name}[cell {i}]", "exec"), namespace)
            plt.close("all")
    finally:
        plt.close("all")
    assert namespace.get("SMALL") is True, "the parameter cell must read TAROCKRL_NOTEBOOK_SMALL into SMALL"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stored_small_with_a_parameter_cell(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert path.stat().st_size < 200_000, "store notebooks without large outputs"
    assert nb["nbformat"] == 4 and nb["metadata"]["kernelspec"]["language"] == "python"
    ids = [c.get("id") for c in nb["cells"]]
    if nb["nbformat_minor"] >= 5:  # nbformat 4.5 requires unique cell ids
        assert all(isinstance(i, str) and re.fullmatch(r"[A-Za-z0-9_-]{1,64}", i) for i in ids), ids
        assert len(set(ids)) == len(ids), "cell ids must be unique"
    for cell in nb["cells"]:
        assert cell["cell_type"] in ("code", "markdown", "raw") and isinstance(cell["source"], (list, str))
    assert nb["cells"][0]["cell_type"] == "markdown", "the first cell is the title and the story"
    assert nb["cells"][1]["cell_type"] == "code", "the second cell holds the parameters"
    assert "TAROCKRL_NOTEBOOK_SMALL" in "".join(nb["cells"][1]["source"])


def test_there_is_a_notebook():
    assert NOTEBOOKS
    assert os.environ.get("TAROCKRL_NOTEBOOK_SMALL") in (None, "", "0", "1")
