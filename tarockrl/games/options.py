"""Rules options shared machinery: frozen dataclasses whose fields are a spec's named variants.

A game's options class declares each field with :func:`choice`, :func:`flag` or :func:`integer`. The helpers
validate values on construction (a bad value raises :class:`~tarockrl.errors.BadOptionError` naming the option
and what is allowed) and convert the options once to the int64 array that the kernels read.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from tarockrl.errors import BadOptionError


def choice(default: str, *choices: str, doc: str = "") -> Any:
    """A field whose value is one of ``choices`` (strings); encoded as its position in ``choices``."""
    if default not in choices:
        raise AssertionError("default must be one of the choices")
    return dataclasses.field(default=default, metadata={"kind": "choice", "choices": choices, "doc": doc})


def flag(default: bool, doc: str = "") -> Any:
    """A boolean field; encoded as 0 or 1."""
    return dataclasses.field(default=default, metadata={"kind": "flag", "doc": doc})


def integer(default: int, lo: int, hi: int, *, even: bool = False, doc: str = "") -> Any:
    """An integer field in ``[lo, hi]`` (optionally even)."""
    return dataclasses.field(
        default=default, metadata={"kind": "int", "lo": lo, "hi": hi, "even": even, "doc": doc}
    )


def int_tuple(default: tuple[int, ...], lo: int, hi: int, doc: str = "") -> Any:
    """A fixed-length tuple of integers in ``[lo, hi]``."""
    return dataclasses.field(
        default=default, metadata={"kind": "tuple", "lo": lo, "hi": hi, "len": len(default), "doc": doc}
    )


def validate(options: Any, game: str) -> None:
    """Check every field of a rules dataclass instance; raise ``BadOptionError`` naming the first bad one."""
    for f in dataclasses.fields(options):
        meta = f.metadata
        value = getattr(options, f.name)
        kind = meta.get("kind")
        where = f"{game} option {f.name}={value!r}"
        if kind == "choice":
            if value not in meta["choices"]:
                raise BadOptionError(f"{where} is not allowed; choose one of {list(meta['choices'])}")
        elif kind == "flag":
            if not isinstance(value, (bool, np.bool_)):
                raise BadOptionError(f"{where} must be True or False")
        elif kind == "int":
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise BadOptionError(f"{where} must be an integer")
            if not meta["lo"] <= value <= meta["hi"]:
                raise BadOptionError(f"{where} must lie in [{meta['lo']}, {meta['hi']}]")
            if meta["even"] and value % 2:
                raise BadOptionError(f"{where} must be even")
        elif kind == "tuple":
            if not isinstance(value, (tuple, list)) or len(value) != meta["len"]:
                raise BadOptionError(f"{where} must be a sequence of {meta['len']} integers")
            for v in value:
                if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not meta["lo"] <= v <= meta["hi"]:
                    raise BadOptionError(f"{where}: every entry must be an integer in [{meta['lo']}, {meta['hi']}]")


def from_kwargs(cls: type, game: str, kwargs: dict[str, Any]) -> Any:
    """Build ``cls(**kwargs)``, turning an unknown name into a ``BadOptionError`` that lists the known ones."""
    names = [f.name for f in dataclasses.fields(cls)]
    unknown = sorted(set(kwargs) - set(names))
    if unknown:
        raise BadOptionError(f"unknown {game} option(s) {unknown}; known options: {names}")
    clean = {k: (tuple(v) if isinstance(v, list) else v) for k, v in kwargs.items()}
    return cls(**clean)


def encode(options: Any) -> np.ndarray:
    """The int64 array the kernels read: one slot per scalar field, ``len`` slots per tuple field, in field order."""
    out: list[int] = []
    for f in dataclasses.fields(options):
        meta = f.metadata
        value = getattr(options, f.name)
        kind = meta.get("kind")
        if kind == "choice":
            out.append(meta["choices"].index(value))
        elif kind == "tuple":
            out.extend(int(v) for v in value)
        else:
            out.append(int(value))
    return np.asarray(out, dtype=np.int64)


def slot_of(cls: type, name: str) -> int:
    """Index in the encoded array of field ``name`` (the first slot of a tuple field)."""
    pos = 0
    for f in dataclasses.fields(cls):
        if f.name == name:
            return pos
        pos += f.metadata["len"] if f.metadata.get("kind") == "tuple" else 1
    raise KeyError(name)


def choice_code(cls: type, name: str, value: str) -> int:
    """The encoded value of choice ``value`` of option ``name``: kernels compare with these named constants
    (frozen by numba at compile time), never with a position in the list of choices."""
    for f in dataclasses.fields(cls):
        if f.name == name:
            return f.metadata["choices"].index(value)
    raise KeyError(name)


def describe(cls: type) -> list[tuple[str, Any, str]]:
    """``(name, default, doc)`` for every option, for help texts and the README."""
    return [(f.name, f.default, f.metadata.get("doc", "")) for f in dataclasses.fields(cls)]
