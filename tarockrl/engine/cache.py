"""Keep numba's on-disk cache consistent with the package source.

numba keys a cached function on its own source file only: when a kernel in ``kernels.py`` changes, a cached
driver in ``batch.py`` that inlined it would silently keep the old machine code. :func:`ensure_fresh_cache`
hashes the source per package directory and deletes the cached numba files (``*.nbi`` / ``*.nbc``) of every
directory whose source changed since they were written. A change in ``tarockrl/engine`` (used by every game)
clears everything; a change in ``tarockrl/games/<game>`` clears only that game.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
STAMP_DIR_NAME = "__pycache__"


def _hash_files(files: list[Path], root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _groups(root: Path) -> dict[str, list[Path]]:
    """Source files per group: one group per directory holding .py files ('.' for the package root)."""
    groups: dict[str, list[Path]] = {}
    for path in root.rglob("*.py"):
        rel = path.parent.relative_to(root).as_posix()
        groups.setdefault(rel, []).append(path)
    return groups


def _clear_dir(directory: Path) -> int:
    removed = 0
    cache = directory / "__pycache__"
    for pattern in ("*.nbi", "*.nbc"):
        for f in cache.glob(pattern):
            try:
                f.unlink()
                removed += 1
            except OSError:
                pass
    return removed


def clear_numba_cache(root: Path = PACKAGE_ROOT) -> int:
    """Delete every numba cache file of the package; returns how many were removed."""
    return sum(_clear_dir(root / rel) for rel in _groups(root))


def ensure_fresh_cache(root: Path = PACKAGE_ROOT) -> list[str]:
    """Clear the cache files of every source group that changed since its last check; returns those groups.

    Never raises: an unwritable install keeps numba's own per-file behaviour.
    """
    try:
        groups = _groups(root)
        stamp_dir = root / STAMP_DIR_NAME
        stamp_dir.mkdir(exist_ok=True)
        changed = []
        for rel, files in groups.items():
            stamp = stamp_dir / ("numba_stamp_" + (rel.replace("/", "_") if rel != "." else "root") + ".txt")
            current = _hash_files(files, root)
            if not (stamp.is_file() and stamp.read_text().strip() == current):
                changed.append(rel)
                tmp = stamp.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_text(current)
                os.replace(tmp, stamp)
        if any(rel == "engine" or rel.startswith("engine/") for rel in changed):
            clear_numba_cache(root)
        else:
            for rel in changed:
                _clear_dir(root / rel)
        return changed
    except OSError:
        return []
