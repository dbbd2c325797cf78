"""Text helpers of the deal notation shared by the games' ``text`` modules: card-code lists and the one-card-once
check, with the errors (:class:`tarockrl.errors.BadDealError`) every game raises for them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tarockrl.errors import BadDealError

__all__ = ["parse_codes", "check_each_once"]


def parse_codes(value: Any, what: str, count: int, lookup: Mapping[str, int], unknown_suffix: str = "") -> list[int]:
    """The card indices of ``value``, a list (or tuple) of exactly ``count`` card codes, in order.

    Codes are matched after ``strip().upper()`` against ``lookup`` (upper-case code -> card index). Anything else
    raises ``BadDealError`` naming ``what`` (the field, e.g. ``"hands[1]"``); an unknown code's message ends with
    ``unknown_suffix`` (e.g. ``" for this pack"``).
    """
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise BadDealError(f"{what} must be a list of {count} card codes, got {type(value).__name__}")
    if len(value) != count:
        raise BadDealError(f"{what} must hold exactly {count} cards, got {len(value)}")
    cards = []
    for code in value:
        if not isinstance(code, str) or code.strip().upper() not in lookup:
            raise BadDealError(f"{what}: unknown card code {code!r}{unknown_suffix}")
        cards.append(lookup[code.strip().upper()])
    return cards


def check_each_once(cards: Sequence[int], num_cards: int, codes: Sequence[str],
                    message: str = "every card must appear exactly once") -> None:
    """Raise ``BadDealError`` (``"<message>; repeated: [codes]"``) unless ``cards`` holds ``num_cards`` distinct
    cards (the caller has checked that it holds ``num_cards`` cards); ``codes[c]`` names card ``c``."""
    if len(set(cards)) != num_cards:
        seen: set[int] = set()
        dupes = sorted({codes[c] for c in cards if c in seen or seen.add(c)})
        raise BadDealError(f"{message}; repeated: {dupes}")
