"""Named fields of a flat vector, allocated in order: the one mechanism behind every state row and observation.

A game describes its state row (int64 slots) and its observation (float entries) as an ordered list of named
fields with widths; :class:`Fields` hands out the offsets, and the same description gives the total length, the
width of every field and a documentation table, so offsets, docs and tests can never disagree::

    slots = Fields()
    PHASE = slots.take("phase")
    HAND = slots.take("hand", 3)
    STATE_LEN = slots.size

Kernels read the offsets as module constants (numba freezes module globals at compile time), so a layout costs
nothing at run time.
"""

from __future__ import annotations

__all__ = ["Fields"]


class Fields:
    """An ordered allocation of named fields (``name -> width``) in one flat vector."""

    def __init__(self) -> None:
        self._widths: dict[str, int] = {}
        self._offsets: dict[str, int] = {}
        self._docs: dict[str, str] = {}
        self._size = 0

    def take(self, name: str, width: int = 1, doc: str = "") -> int:
        """Allocate ``width`` entries for ``name`` after the last field; returns its offset."""
        if name in self._widths:
            raise ValueError(f"field {name!r} is allocated twice")
        if width < 0:
            raise ValueError(f"field {name!r} has a negative width {width}")
        offset = self._size
        self._widths[name] = int(width)
        self._offsets[name] = offset
        self._docs[name] = doc
        self._size += int(width)
        return offset

    @property
    def size(self) -> int:
        """The total length of the vector (the sum of the widths)."""
        return self._size

    @property
    def widths(self) -> dict[str, int]:
        """``name -> width``, in allocation order (a copy)."""
        return dict(self._widths)

    @property
    def offsets(self) -> dict[str, int]:
        """``name -> offset``, in allocation order (a copy)."""
        return dict(self._offsets)

    def markdown_table(self, unit: str = "entries") -> str:
        """A Markdown table of the fields: name, offset, width and the description given to :meth:`take`."""
        lines = [f"| field | offset | {unit} | meaning |", "|---|---:|---:|---|"]
        for name, width in self._widths.items():
            lines.append(f"| `{name}` | {self._offsets[name]} | {width} | {self._docs[name]} |")
        return "\n".join(lines)
