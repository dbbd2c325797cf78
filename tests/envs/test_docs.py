"""The code examples of docs/envs.md and of the env docstrings run (with short loops)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

import tarockrl
from tarockrl.envs import env_class, vector_env_class

DOC = Path(__file__).resolve().parents[2] / "docs" / "envs.md"


def blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def run(code: str) -> None:
    code = code.replace("range(1000)", "range(30)").replace("num_envs=4096", "num_envs=64")
    code = code.replace("total_timesteps=200_000", "total_timesteps=256")
    code = code.replace('sb3_vec_env("dreierles", num_envs=64,', 'sb3_vec_env("dreierles", num_envs=4,')
    code = code.replace("n_steps=32, batch_size=256).learn(total_timesteps=8192)",
                        "n_steps=16, n_epochs=1).learn(total_timesteps=64)")
    code = code.replace('MaskablePPO("MlpPolicy", env, verbose=1)',
                        'MaskablePPO("MlpPolicy", env, verbose=0, n_steps=64, batch_size=64, n_epochs=1)')
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, "<docs>", "exec"), {})


@pytest.mark.parametrize("index", range(len(blocks(DOC.read_text(encoding="utf-8")))))
def test_docs_examples_run(index):
    code = blocks(DOC.read_text(encoding="utf-8"))[index]
    if "sb3_contrib" in code:
        pytest.importorskip("sb3_contrib")
    if "aec_env" in code:
        pytest.importorskip("pettingzoo")
    run(code)


@pytest.mark.parametrize("game", tarockrl.list_games())
def test_docstring_examples_run(game):
    for cls in (env_class(game), vector_env_class(game)):
        example = cls.__doc__.split("Example::\n\n", 1)[1].split("\n\n")[0]
        run("\n".join(line[4:] for line in example.splitlines()))
