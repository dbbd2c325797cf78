"""Checkpoints: written atomically, checked when read, and usable as agents.

A checkpoint is one ``torch.save`` file holding only tensors and plain Python values (read back with
``weights_only=True``, so loading never runs code): the format tag and version, the game and its rules options,
the observation/action layout fingerprint, the network spec and weights, the optimizer state, every random
generator's state, the counters and the resolved config. Files are written to a temporary name in the same
folder, flushed and fsynced, then renamed over the target, so a kill at any moment leaves either the old file or
the new one, never a torn one.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any

import torch

from tarockrl.errors import TarockError

__all__ = [
    "CheckpointError",
    "FORMAT",
    "VERSION",
    "layout_fingerprint",
    "save_atomic",
    "load_checkpoint",
    "check_game",
    "list_checkpoints",
    "latest_checkpoint",
    "export_for_inference",
    "INFERENCE_KEYS",
]

FORMAT = "tarockrl-checkpoint"
VERSION = 1
_NAME = re.compile(r"^ckpt_(\d{10})\.pt$")


class CheckpointError(TarockError):
    """A checkpoint that cannot be read, is not a tarockrl checkpoint, or belongs to another game or options."""


def layout_fingerprint(game: Any) -> str:
    """A short hash of what a network's inputs and outputs mean: game, rules options, observation and actions."""
    text = repr((game.name, sorted(game.options.items()), game.observation_size, game.num_actions))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def save_atomic(payload: dict[str, Any], path: str | Path) -> Path:
    """Write ``payload`` to ``path`` atomically (temporary file, flush, fsync, rename, fsync of the folder)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            torch.save(payload, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    try:
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:  # pragma: no cover - folders cannot be fsynced on some platforms
        pass
    return path


def load_checkpoint(path: str | Path, map_location: str | torch.device = "cpu") -> dict[str, Any]:
    """Read and check a checkpoint file; ``CheckpointError`` naming the file and the problem otherwise."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"no checkpoint file at {str(path)!r}")
    try:
        payload = torch.load(path, map_location=map_location, weights_only=True)
    except Exception as err:  # torch raises many kinds on damaged files
        raise CheckpointError(f"{str(path)!r} is not a readable checkpoint ({type(err).__name__}: {err})") from None
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise CheckpointError(f"{str(path)!r} is not a tarockrl checkpoint")
    if payload.get("version") != VERSION:
        raise CheckpointError(f"{str(path)!r} has checkpoint format version {payload.get('version')!r}; "
                              f"this tarockrl reads version {VERSION}")
    for key in ("game", "game_options", "layout", "network", "model"):
        if key not in payload:
            raise CheckpointError(f"{str(path)!r} lacks the field {key!r}")
    return payload


def check_game(payload: dict[str, Any], game: Any, path: str | Path = "checkpoint") -> None:
    """Raise ``CheckpointError`` unless the checkpoint was trained on ``game`` with the same options and layout."""
    if payload["game"] != game.name:
        raise CheckpointError(f"{str(path)!r} was trained on {payload['game']!r}, not on {game.name!r}")
    if dict(payload["game_options"]) != dict(game.options):
        diff = sorted(k for k in set(payload["game_options"]) | set(game.options)
                      if payload["game_options"].get(k) != game.options.get(k))
        raise CheckpointError(f"{str(path)!r} was trained with other rules options (differing: {', '.join(diff)})")
    if payload["layout"] != layout_fingerprint(game):
        raise CheckpointError(f"{str(path)!r} was trained with another observation/action layout "
                              f"(layout {payload['layout']} vs {layout_fingerprint(game)})")


def list_checkpoints(folder: str | Path) -> list[Path]:
    """The ``ckpt_<iteration>.pt`` files of a folder, oldest first."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    return sorted((p for p in folder.iterdir() if _NAME.match(p.name)), key=lambda p: p.name)


def latest_checkpoint(folder: str | Path) -> Path | None:
    """The newest checkpoint of a folder that loads (a damaged newest file is skipped), or None."""
    for p in reversed(list_checkpoints(folder)):
        try:
            load_checkpoint(p)
        except CheckpointError:
            continue
        return p
    return None


INFERENCE_KEYS = ("format", "version", "game", "game_options", "layout", "algo", "network", "model", "counters",
                  "config")
"""What an inference-only checkpoint keeps (:func:`export_for_inference`)."""


def export_for_inference(src: str | Path, dst: str | Path) -> Path:
    """Write the acting part of a training checkpoint to ``dst`` (atomically): the weights of the acting network,
    its spec, the game, options and layout, the counters and the config; no optimizer, generator states or opponent
    pool. ``make_agent("ckpt:DST", game)`` plays exactly like ``ckpt:SRC``; it cannot be resumed from."""
    payload = load_checkpoint(src)
    return save_atomic({k: payload[k] for k in INFERENCE_KEYS if k in payload}, dst)
