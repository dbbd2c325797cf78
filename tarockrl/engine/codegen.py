"""The one code generator of tarockrl: numba driver templates bound to one game's kernels, cached on disk.

numba cannot cache a function that receives other jitted functions as arguments, and a kernel made in a factory
or closure never hits its cache. So a driver that is generic over the game (batch stepping, random playouts,
invariant sweeps, perft, the environment drivers, rollouts, search) is written once as a *template module* and
copied per game: :func:`bind` writes the template's source with its bindings block replaced by the game's
names into :func:`kernel_cache_dir`, imports that copy as an ordinary module, and numba caches its compiled
functions like those of any module. The engine never imports a game: the caller passes the game's kernels.

Writing a template
------------------
A template is a module (anywhere in the package) whose source holds one block::

    # ---- bindings (begin)
    NUM_PLAYERS = 1            # placeholders, so that the template itself imports and lints
    deal = None
    HAS_RANDOM_STEP = False
    random_step = None
    # ---- bindings (end)

Everything outside the block is copied verbatim. Drivers refer to the bound names as module globals, which
numba freezes as compile-time constants (an ``if HAS_X:`` on an absent optional kernel is pruned before
typing, so the ``None`` placeholder is never called). Keep drivers ``@njit(cache=True)`` at module level.

Binding a template
------------------
::

    from tarockrl.engine import codegen
    module = codegen.bind(
        my_template,                                   # the template module
        "solver_dreierles",                            # prefix of the generated module's name
        codegen.binding_block(
            constants={"NUM_PLAYERS": 3, "STATE_LEN": 124},
            functions={"deal": kernels.deal, "random_step": None},   # None -> HAS_RANDOM_STEP = False
        ),
        sources=[Path(kernels.__file__).parent],       # folders whose source the compiled code depends on
    )
    module.my_driver(...)

:func:`bind` names the generated module after a hash of the template, of the bindings and of every ``.py`` file
in ``sources`` and in ``tarockrl/engine``, so any change there gives a fresh file and a fresh compile; an
unchanged binding reuses numba's cache across processes. :func:`tarockrl.games.drivers.game_bindings` gives the
standard bindings of a game (its sizes, slots and every kernel of the contract), so a template for games needs
only ``bind(template, prefix, game_bindings(definition), game_sources(definition))``.

The folder is ``$TAROCKRL_CACHE_DIR`` when set, else ``$XDG_CACHE_HOME/tarockrl`` (``~/.cache/tarockrl``), else
a folder in the temporary directory; deleting it is always safe.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import re
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["BEGIN", "END", "bind", "binding_block", "importable", "kernel_cache_dir", "load_generated",
           "source_hash"]

BEGIN = "# ---- bindings (begin)"
END = "# ---- bindings (end)"
ENGINE_DIR = Path(__file__).resolve().parent
_LOCK = threading.RLock()
_LOADED: dict[str, ModuleType] = {}
_FOLDER_HASHES: dict[str, str] = {}
_PRUNE_AGE_S = 7 * 24 * 3600


def kernel_cache_dir() -> Path:
    """The folder holding the generated driver modules and their numba caches (created when missing)."""
    candidates = []
    if os.environ.get("TAROCKRL_CACHE_DIR"):
        candidates.append(Path(os.environ["TAROCKRL_CACHE_DIR"]))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    candidates.append(Path(base) / "tarockrl")
    uid = os.getuid() if hasattr(os, "getuid") else "user"
    candidates.append(Path(tempfile.gettempdir()) / f"tarockrl-{uid}")
    for folder in candidates:
        target = folder / "env_kernels"
        try:
            target.mkdir(parents=True, exist_ok=True)
            probe = target / f".probe-{os.getpid()}-{threading.get_ident()}"
            probe.write_text("ok")
            probe.unlink()
            return target
        except OSError:
            continue
    raise OSError(f"no writable folder for tarockrl's generated kernels (tried {[str(c) for c in candidates]})")


def importable(fn: Any) -> tuple[str, str] | None:
    """``(module, name)`` under which ``fn`` can be imported again, or ``None``."""
    py = getattr(fn, "py_func", fn)
    module, name = getattr(py, "__module__", None), getattr(py, "__qualname__", "")
    if not module or not name or "." in name or "<" in name:
        return None
    try:
        mod = importlib.import_module(module)
    except ImportError:
        return None
    if getattr(mod, name, None) is fn:
        return module, name
    # an alias (``step = apply_unchecked``): find the module-level name bound to this very object
    for attr, value in vars(mod).items():
        if value is fn and not attr.startswith("__"):
            return module, attr
    return None


def binding_block(constants: Mapping[str, Any], functions: Mapping[str, Callable | None],
                  extra_lines: Iterable[str] = ()) -> str:
    """Source of a bindings block: ``NAME = value`` per constant, an import per function.

    A function given as ``None`` is an absent optional kernel: the block says ``HAS_NAME = False`` and
    ``name = None``; a present one also sets ``HAS_NAME = True``. Every function must be importable by name
    (a module-level ``@njit`` function); anything else raises ``ValueError``.
    """
    lines = ["# generated by tarockrl.engine.codegen; do not edit (delete the folder to rebuild)"]
    for name, value in constants.items():
        if isinstance(value, (bool, int, float, str)) or value is None:
            lines.append(f"{name} = {value!r}")
        elif isinstance(value, tuple) and all(isinstance(v, (bool, int, float, str)) for v in value):
            lines.append(f"{name} = {tuple(value)!r}")
        else:
            raise ValueError(f"constant {name} must be a plain number, string or tuple, got {type(value).__name__}")
    for name, fn in functions.items():
        flag = f"HAS_{name.upper()}"
        if fn is None:
            lines.append(f"{flag} = False")
            lines.append(f"{name} = None")
            continue
        place = importable(fn)
        if place is None:
            raise ValueError(f"kernel {name}={fn!r} is not a module-level function importable by name")
        lines.append(f"from {place[0]} import {place[1]} as {name}  # noqa: E402")
        lines.append(f"{flag} = True")
    lines.extend(extra_lines)
    return "\n".join(lines) + "\n"


def _folder_hash(folder: Path) -> str:
    key = str(folder)
    if key not in _FOLDER_HASHES:
        h = hashlib.sha256()
        for path in sorted(folder.glob("*.py")):
            h.update(path.name.encode())
            h.update(path.read_bytes())
        _FOLDER_HASHES[key] = h.hexdigest()
    return _FOLDER_HASHES[key]


def source_hash(sources: Iterable[Path | str]) -> str:
    """Hash of every ``.py`` file in the given folders (files stand for their folder) and in the engine."""
    folders = {ENGINE_DIR}
    for s in sources:
        p = Path(s).resolve()
        folders.add(p if p.is_dir() else p.parent)
    return hashlib.sha256("".join(_folder_hash(f) for f in sorted(folders)).encode()).hexdigest()


def template_source(template: ModuleType | str | Path, bindings: str) -> str:
    """The template's source with its bindings block replaced by ``bindings``."""
    path = Path(template.__file__) if isinstance(template, ModuleType) else Path(template)
    text = path.read_text(encoding="utf-8")
    try:
        start = text.index("\n", text.index(BEGIN)) + 1
        end = text.index(END)
    except ValueError:
        raise ValueError(f"template {path} has no '{BEGIN}' ... '{END}' block") from None
    return text[:start] + bindings + text[end:]


def bind(template: ModuleType | str | Path, prefix: str, bindings: str,
         sources: Iterable[Path | str] = ()) -> ModuleType:
    """The template bound by ``bindings``: generated (once), imported and cached by numba; see the module doc."""
    source = template_source(template, bindings)
    digest = hashlib.sha256((source + source_hash(sources)).encode()).hexdigest()[:20]
    safe = re.sub(r"[^0-9a-zA-Z_]", "_", prefix)
    modname = f"tarockrl_gen_{safe}_{digest}"
    with _LOCK:
        if modname in _LOADED:
            return _LOADED[modname]
        if modname in sys.modules:
            _LOADED[modname] = sys.modules[modname]
            return sys.modules[modname]
        folder = kernel_cache_dir()
        module = load_generated(modname, source, folder)
        _LOADED[modname] = module
        _prune(folder, f"tarockrl_gen_{safe}_", modname)
        return module


def load_generated(modname: str, source: str, folder: Path) -> ModuleType:
    """Write ``source`` to ``folder/<modname>.py`` (atomically, only when it changed) and import it under
    ``modname``, so that numba's on-disk cache works for it like for any module. The caller holds its lock."""
    path = folder / f"{modname}.py"
    try:
        current = path.read_text(encoding="utf-8") if path.exists() else None
    except OSError:
        current = None
    if current != source:
        tmp = folder / f".{modname}.{os.getpid()}.{threading.get_ident()}.tmp"
        tmp.write_text(source, encoding="utf-8")
        os.replace(tmp, path)
    spec = importlib.util.spec_from_file_location(modname, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[modname]
        raise
    return module


def _prune(folder: Path, prefix: str, keep: str) -> None:
    """Best effort: delete generated modules of ``prefix`` (and their numba caches) older than a week."""
    try:
        now = time.time()
        for path in folder.glob(f"{prefix}*.py"):
            name = path.stem
            if name == keep or now - path.stat().st_mtime < _PRUNE_AGE_S:
                continue
            path.unlink(missing_ok=True)
            for cached in (folder / "__pycache__").glob(f"{name}.*"):
                cached.unlink(missing_ok=True)
    except OSError:
        pass
