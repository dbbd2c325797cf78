"""Every ```python block of README.md and docs/*.md runs as pasted (issue 15, item 6).

The blocks of one file run in order in one namespace (later blocks may use names of earlier ones), with only
their sizes shrunk (:data:`SHRINK`) and their output captured. A block that must not run (e.g. one that needs a
server or hours) is marked by the HTML comment ``<!-- no-run -->`` on the line just before its opening fence; the
marker is invisible in rendered Markdown. Blocks needing an optional extra are skipped when it is missing.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NO_RUN = "<!-- no-run -->"
SHRINK = [  # (pasted text, test size): sizes only, never the logic
    ("range(1000)", "range(30)"),
    ("num_envs=4096", "num_envs=64"),
    ("new_batch(4096", "new_batch(64"),
    ("random_playouts(1_000_000", "random_playouts(1_000"),
    ("total_timesteps=200_000", "total_timesteps=64"),
    ('sb3_vec_env("dreierles", num_envs=64,', 'sb3_vec_env("dreierles", num_envs=4,'),
    ('n_steps=32, batch_size=256).learn(total_timesteps=8192)', 'n_steps=16, n_epochs=1).learn(total_timesteps=64)'),
    ('MaskablePPO("MlpPolicy", env, verbose=1)',
     'MaskablePPO("MlpPolicy", env, verbose=0, n_steps=64, batch_size=64, n_epochs=1)'),
]
EXTRAS = {"sb3_contrib": "sb3_contrib", "stable_baselines3": "stable_baselines3", "aec_env": "pettingzoo",
          "torch": "torch", "pyspiel": "pyspiel"}


def python_blocks(text: str) -> list[tuple[str, bool]]:
    """``(code, runnable)`` of every ```python block, in order."""
    out = []
    for m in re.finditer(r"^```python\n(.*?)^```", text, flags=re.S | re.M):
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1].strip()
        out.append((m.group(1), before != NO_RUN))
    return out


def shrink(code: str) -> str:
    for a, b in SHRINK:
        code = code.replace(a, b)
    return code


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_python_block_runs(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # run where a user would paste them (a checkout: configs/ at hand), without writing into the repository
    (tmp_path / "configs").symlink_to(ROOT / "configs")
    monkeypatch.chdir(tmp_path)
    blocks = python_blocks(path.read_text(encoding="utf-8"))
    if path.name == "README.md":
        assert blocks, "README.md has no python block"
    namespace: dict = {"__name__": "__docs__"}
    for i, (code, runnable) in enumerate(blocks):
        if not runnable:
            continue
        for word, module in EXTRAS.items():
            if word in code:
                pytest.importorskip(module)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(shrink(code), f"{path.name}:block{i}", "exec"), namespace)
        except Exception as err:  # name the block, not just the line of the exec
            raise AssertionError(f"{path.name} block {i} fails as pasted:\n{code}") from err


def test_markers_and_shrinking_are_detected() -> None:
    text = "a\n```python\nx = 1\n```\n\n<!-- no-run -->\n```python\nraise SystemExit\n```\n"
    assert python_blocks(text) == [("x = 1\n", True), ("raise SystemExit\n", False)]
    assert shrink("range(1000)") == "range(30)"
