"""Pieces the training algorithms share: devices, seeding, random legal actions, minibatches."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import torch

__all__ = ["resolve_device", "random_legal", "minibatches", "to_tensor", "rng_state", "set_rng_state"]


def resolve_device(name: str) -> torch.device:
    """``auto``: the first GPU when one is present, else the CPU; otherwise the named device (checked)."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name.startswith("cuda") and not torch.cuda.is_available():
        from tarockrl.training.config import BadConfigError

        raise BadConfigError(f"device {name!r} was asked for but torch sees no GPU; use device: auto or cpu")
    return torch.device(name)


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``masks`` (int8/bool ``[m, num_actions]``)."""
    m = masks.astype(bool, copy=False)
    counts = m.sum(axis=1)
    pick = np.floor(rng.random(m.shape[0]) * counts).astype(np.int64)
    return np.argmax(np.cumsum(m, axis=1) > pick[:, None], axis=1).astype(np.int64)


def minibatches(n: int, size: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """Index arrays covering a random permutation of ``range(n)`` in chunks of ``size`` (the last may be short)."""
    perm = rng.permutation(n)
    for start in range(0, n, size):
        yield perm[start : start + size]


def to_tensor(a: np.ndarray, device: torch.device, dtype: torch.dtype | None = None) -> torch.Tensor:
    """``torch.from_numpy`` on ``device`` (no copy on the CPU for contiguous arrays)."""
    t = torch.from_numpy(np.ascontiguousarray(a))
    if dtype is not None:
        t = t.to(dtype)
    return t.to(device, non_blocking=True)


def rng_state(rng: np.random.Generator) -> dict:
    """Every random stream's state as plain values (numpy generator, torch CPU, and CUDA when present)."""
    state = {"numpy": rng.bit_generator.state, "torch": torch.get_rng_state()}
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def set_rng_state(rng: np.random.Generator, state: dict) -> None:
    """Restore what :func:`rng_state` saved."""
    rng.bit_generator.state = state["numpy"]
    torch.set_rng_state(state["torch"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])
