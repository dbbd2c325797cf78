"""Card codes of a pack: index <-> short code, parsing with errors that name the game, and masks as codes.

Every game names its cards by short codes in its canonical index order (``"T1"``, ``"HK"``, ``"cK"``, ...).
:class:`CardCodes` is the one implementation of the conversions the games, the text modules and the tests
need; a game builds one per pack.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["CardCodes"]


class CardCodes:
    """The codes of one pack in index order; parsing is case-insensitive (an exact match wins first)."""

    def __init__(self, codes: Iterable[str], label: str) -> None:
        self.codes: tuple[str, ...] = tuple(codes)
        self.label = label
        self.index: dict[str, int] = {code: i for i, code in enumerate(self.codes)}
        self._upper: dict[str, int] = {code.upper(): i for i, code in enumerate(self.codes)}
        if len(self.index) != len(self.codes) or len(self._upper) != len(self.codes):
            raise ValueError(f"{label}: card codes must be distinct, also ignoring case")

    def __len__(self) -> int:
        return len(self.codes)

    def code(self, card: int) -> str:
        """The code of card index ``card``."""
        return self.codes[int(card)]

    def parse(self, code: str) -> int:
        """The card index of ``code``; ``ValueError`` naming the game and listing the codes otherwise."""
        if isinstance(code, str):
            key = code.strip()
            if key in self.index:
                return self.index[key]
            if key.upper() in self._upper:
                return self._upper[key.upper()]
        raise ValueError(f"unknown {self.label} card code {code!r}; codes are {', '.join(self.codes)}")

    def mask_codes(self, mask: int) -> list[str]:
        """Codes of the cards of the one-word set ``mask``, in index order."""
        mask = int(mask)
        return [self.codes[i] for i in range(len(self.codes)) if (mask >> i) & 1]

    def mask_of(self, codes: str | Iterable[str]) -> int:
        """The one-word set of a list (or space-separated string) of codes."""
        if isinstance(codes, str):
            codes = codes.split()
        mask = 0
        for code in codes:
            mask |= 1 << self.parse(code)
        return mask
