"""The validation boundary in front of the kernels: a state row is accepted only if the game can reach it.

Numba kernels do no bounds checks, so a row that did not come from the engine (decoded bytes, an unpickled
state, a row handed to :meth:`Game.batch_from_states`) is checked here, in plain Python, before any kernel
reads it. :func:`check_row` accepts a row only if it is *exactly* a state the game can reach:

1. a structural pre-check: shape and dtype, the layout tag, the history length within its capacity, every
   history entry an action id, and the slots the initial deal is rebuilt from within their ranges;
2. the initial deal is rebuilt from those slots by the engine's own constructors (a deal dict checked by the
   game's deal parser, a Tatteln shuffle or the Troccas card orders and redeal generator), so nothing unchecked
   reaches a kernel;
3. the history is replayed through the checked single-state ``apply_action`` (each action must be legal);
4. the replayed row must equal the given row slot by slot.

A row that fails raises :class:`~tarockrl.errors.CorruptStateError` naming the first bad field by its layout
name (e.g. ``hand[1]``). Per-game hooks (how to rebuild the initial deal) are keyed by game name below.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

from tarockrl.errors import BadDealError, CorruptStateError

__all__ = ["check_row", "slot_name", "check_out_array", "check_int_array"]

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15  # the SplitMix64 increment (tarockrl.engine.rng.GOLDEN as an unsigned number)


def _layout(game: Any):
    return importlib.import_module(f"tarockrl.games.{game.name}.layout")


def slot_name(game: Any, index: int) -> str:
    """The layout name of slot ``index`` of ``game``'s state row, e.g. ``"hand[1]"`` or ``"hist[12]"``."""
    widths = _layout(game).SLOT_WIDTHS
    start = 0
    names = list(widths.items())
    for pos, (name, width) in enumerate(names):
        last = pos == len(names) - 1
        if start <= index < start + width or (last and index >= start):
            off = index - start
            return name if width == 1 and off == 0 else f"{name}[{off}]"
        start += width
    return f"slot {index}"  # pragma: no cover - the last field absorbs the tail


def _corrupt(game: Any, what: str) -> CorruptStateError:
    return CorruptStateError(f"not a reachable {game.name} state: {what}")


def _signed(x: int) -> int:
    x &= _MASK64
    return x - (1 << 64) if x >= 1 << 63 else x


# ---------------------------------------------------------------------------------------------------------
# per-game rebuild of the initial row (before any action)
# ---------------------------------------------------------------------------------------------------------
def _slot(row: np.ndarray, game: Any, name: str, lo: int, hi: int) -> int:
    """Read slot ``name`` (layout constant) and check it lies in ``[lo, hi]``."""
    L = _layout(game)
    idx = getattr(L, name)
    v = int(row[idx])
    if not lo <= v <= hi:
        raise _corrupt(game, f"slot {slot_name(game, idx)!r} is {v}, expected a value in [{lo}, {hi}]")
    return v


def _from_deal_dict(game: Any, deal: dict, field: str) -> np.ndarray:
    try:
        return game.definition.state_from_deal(game, deal)
    except BadDealError as exc:
        raise _corrupt(game, f"slots {field} do not hold a deal: {exc}") from None


def _rebuild_dreierles(game: Any, row: np.ndarray) -> list[np.ndarray]:
    from tarockrl.games.dreierles import layout as L
    from tarockrl.games.dreierles.cards import CARD_CODES, mask_codes

    dealer = _slot(row, game, "DEALER", 0, 2)
    blind = []
    for i in range(6):
        c = int(row[L.BLIND + i])
        if not 0 <= c < len(CARD_CODES):
            raise _corrupt(game, f"slot 'blind[{i}]' is {c}, not a card index in [0, {len(CARD_CODES)})")
        blind.append(CARD_CODES[c])
    deal = {"dealer": dealer, "hands": [mask_codes(row[L.DEALT + s]) for s in range(3)], "blind": blind}
    return [_from_deal_dict(game, deal, "'dealt' and 'blind'")]


def _rebuild_dreiertarock(game: Any, row: np.ndarray) -> list[np.ndarray]:
    from tarockrl.games.dreiertarock import layout as L
    from tarockrl.games.dreiertarock.cards import mask_codes

    dealer = _slot(row, game, "DEALER", 0, 2)
    deal = {
        "dealer": dealer,
        "hands": [mask_codes(row[L.DEALT + s]) for s in range(3)],
        "talon_packets": [mask_codes(row[L.PACKET]), mask_codes(row[L.PACKET + 1])],
    }
    return [_from_deal_dict(game, deal, "'dealt' and 'packet'")]


def _rebuild_tatteln(game: Any, row: np.ndarray) -> list[np.ndarray]:
    from tarockrl.games.tatteln import kernels as K
    from tarockrl.games.tatteln import layout as L

    n = int(game.rules.deck_size)
    dealer = _slot(row, game, "DEALER", 0, 1)
    shuffle = [(int(row[L.DECK + i // 10]) >> (6 * (i % 10))) & 63 for i in range(n)]
    if sorted(shuffle) != list(range(n)):
        raise _corrupt(game, f"slot 'deck' does not hold a shuffle of the {n}-card pack")
    out = np.zeros(game.state_len, dtype=np.int64)
    K.init_from_deck(out, np.asarray(shuffle, dtype=np.int64), np.int64(dealer), game.encoded_options)
    return [out]


def _rebuild_troccas(game: Any, row: np.ndarray) -> list[np.ndarray]:
    """The Troccas deal: the card order of every attempt, the dealer, the balance and the redeal generator.

    The generator (slot ``rng``) is SplitMix64, which advances by a fixed increment per draw, and every fresh
    78-card shuffle takes 39 draws; so its state at the start of the episode follows from its state now and the
    number of fresh shuffles since. A seeded deal starts with no archived attempt (the first one was shuffled
    from the generator); a deal dict archives its supplied attempts and seeds the generator from them.
    """
    from tarockrl.games.troccas import kernels as K
    from tarockrl.games.troccas import layout as L
    from tarockrl.games.troccas.text import BALANCE_LIMIT

    max_redeals = int(game.rules.max_redeals)
    dealer = _slot(row, game, "DEALER", 0, 3)
    bal_a = _slot(row, game, "BAL", -BALANCE_LIMIT, BALANCE_LIMIT)
    n_arch = _slot(row, game, "N_ARCHIVED", 0, min(max_redeals + 1, L.MAX_ATTEMPTS))
    redeals = _slot(row, game, "REDEAL_COUNT", 0, max_redeals)
    perm = [int(x) for x in row[L.PERM : L.PERM + 78]]
    if sorted(perm) != list(range(78)):
        raise _corrupt(game, "slot 'perm' does not hold an order of the 78 cards")
    orders = []
    for k in range(n_arch):
        base = L.ARCHIVE + L.ARCHIVE_WORDS * k
        order = [(int(row[base + i // 9]) >> (7 * (i % 9))) & 127 for i in range(78)]
        if sorted(order) != list(range(78)):
            raise _corrupt(game, f"slot 'archive' does not hold an order of the 78 cards for attempt {k}")
        orders.append(order)
    if redeals >= n_arch:
        orders.append(perm)  # the current attempt
    if len(orders) < redeals + 1:
        raise _corrupt(game, f"slot 'n_archived' is {n_arch}, too few for {redeals} redeal(s)")
    rng_now = int(row[L.RNG])
    opts = game.encoded_options
    candidates: list[np.ndarray] = []

    def fresh_after_start(n0: int) -> int:
        """Fresh shuffles during the episode when it started with ``n0`` archived attempts."""
        first = max(n0, 1)
        return redeals - first + 1 if redeals >= first else 0

    # a seeded deal (deal, new_state, Match): attempt 0 shuffled from the generator, nothing archived
    if n_arch == redeals:
        r_pre = _signed(rng_now - (1 + fresh_after_start(0)) * 39 * _GOLDEN)
        out = np.zeros(L.STATE_LEN, dtype=np.int64)
        K.deal_with_rng(out, np.int64(r_pre), np.int64(dealer), np.int64(bal_a), opts, np.int64(0))
        if [int(x) for x in out[L.PERM : L.PERM + 78]] == orders[0]:  # the generator dealt attempt 0
            candidates.append(out)
    # a deal dict with n0 >= 1 supplied attempts
    n0_options = [n_arch] if n_arch > redeals else list(range(1, redeals + 1)) if n_arch == redeals else []
    arr = np.asarray(orders, dtype=np.int64)
    for n0 in n0_options:
        if n0 < 1 or n0 > len(orders):
            continue
        r0 = int(K.orders_seed(arr, np.int64(n0), np.int64(dealer), np.int64(bal_a)))
        if _signed(r0 + fresh_after_start(n0) * 39 * _GOLDEN) != rng_now:
            continue
        out = np.zeros(L.STATE_LEN, dtype=np.int64)
        K.init_from_orders(out, arr, np.int64(n0), np.int64(dealer), np.int64(bal_a), np.int64(r0), opts)
        candidates.append(out)
    if not candidates:
        raise _corrupt(game, "slot 'rng' does not continue the generator of this deal")
    return candidates


_REBUILD: dict[str, Callable[[Any, np.ndarray], list[np.ndarray]]] = {
    "dreierles": _rebuild_dreierles,
    "dreiertarock": _rebuild_dreiertarock,
    "tatteln": _rebuild_tatteln,
    "troccas": _rebuild_troccas,
}


# ---------------------------------------------------------------------------------------------------------
# the check
# ---------------------------------------------------------------------------------------------------------
def _hist_capacity(game: Any) -> int:
    d = game.definition
    return min(game.state_len - d.slot_hist, int(game.max_episode_length))


def _replay(game: Any, start: np.ndarray, hist: list[int]) -> tuple[np.ndarray | None, str]:
    """Replay ``hist`` on ``start`` (in place); returns ``(row, "")`` or ``(None, reason)``."""
    d = game.definition
    opts = game.encoded_options
    n = len(hist)
    while True:
        m = int(start[d.slot_hist_len])
        if m > n:
            return None, f"slot 'hist_len' is {n}, but the replay of the history needs {m} actions"
        for i in range(m):
            if int(start[d.slot_hist + i]) != hist[i]:
                return None, (f"slot {slot_name(game, d.slot_hist + i)!r} is {hist[i]}, the replay records "
                              f"{int(start[d.slot_hist + i])} there")
        if m == n:
            return start, ""
        a = hist[m]
        if int(start[d.slot_phase]) == d.terminal_phase:
            return None, f"slot {slot_name(game, d.slot_hist + m)!r} holds action {a} after the end of the deal"
        status = int(d.apply_action(start, np.int64(a), opts))
        if status != 0:
            return None, (f"slot {slot_name(game, d.slot_hist + m)!r} holds action {a} "
                          f"({d.action_to_string(a)}), which is not legal at that point of the deal")


def check_row(game: Any, row: Any) -> np.ndarray:
    """Return a validated int64 copy of ``row``, or raise ``CorruptStateError`` naming the first bad field.

    The row is accepted only if it equals, slot by slot, the replay of its own deal and history.
    """
    d = game.definition
    arr = np.asarray(row)
    if arr.dtype != np.int64 or arr.shape != (game.state_len,):
        raise CorruptStateError(
            f"a {game.name} state row is int64[{game.state_len}], got {arr.dtype}{list(arr.shape)}"
        )
    arr = np.array(arr, dtype=np.int64, order="C", copy=True)
    if int(arr[d.slot_magic]) != d.magic:
        raise _corrupt(game, f"slot 'magic' is {int(arr[d.slot_magic]):#x}, expected the layout tag {d.magic:#x}")
    cap = _hist_capacity(game)
    n = int(arr[d.slot_hist_len])
    if not 0 <= n <= cap:
        raise _corrupt(game, f"slot 'hist_len' is {n}, expected a value in [0, {cap}]")
    hist = [int(x) for x in arr[d.slot_hist : d.slot_hist + n]]
    for i, a in enumerate(hist):
        if not 0 <= a < game.num_actions:
            raise _corrupt(game, f"slot {slot_name(game, d.slot_hist + i)!r} is {a}, not an action id in "
                                 f"[0, {game.num_actions})")
    rebuild = _REBUILD.get(game.name)
    if rebuild is None:  # pragma: no cover - every registered game has a hook
        raise CorruptStateError(f"no state validator is registered for the game {game.name!r}")
    reasons = []
    for start in rebuild(game, arr):
        replayed, why = _replay(game, start, hist)
        if replayed is None:
            reasons.append(why)
            continue
        diff = np.flatnonzero(replayed != arr)
        if diff.size == 0:
            return arr
        i = int(diff[0])
        reasons.append(f"slot {slot_name(game, i)!r} (index {i}) is {int(arr[i])}, the replay of its deal and "
                       f"history gives {int(replayed[i])}")
    raise _corrupt(game, reasons[0])


# ---------------------------------------------------------------------------------------------------------
# array arguments
# ---------------------------------------------------------------------------------------------------------
def check_out_array(name: str, out: Any, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """Check an ``out=`` buffer: a writable, C-contiguous numpy array of exactly ``shape`` and ``dtype``."""
    want = f"a writable C-contiguous {np.dtype(dtype).name} array of shape {shape}"
    if not isinstance(out, np.ndarray):
        raise ValueError(f"{name} must be {want}, got {type(out).__name__}")
    if out.dtype != np.dtype(dtype) or out.shape != shape:
        raise ValueError(f"{name} must be {want}, got {out.dtype} {out.shape}")
    if not out.flags.c_contiguous:
        raise ValueError(f"{name} must be {want}, got a non-contiguous array")
    if not out.flags.writeable:
        raise ValueError(f"{name} must be {want}, got a read-only array")
    return out


def check_int_array(name: str, values: Any, shape: tuple[int, ...], lo: int, hi: int) -> np.ndarray:
    """An int64 C-contiguous copy of ``values`` (an integer array of ``shape``, entries in ``[lo, hi]``)."""
    try:
        arr = np.asarray(values)
    except Exception as exc:  # noqa: BLE001 - ragged lists and odd objects
        raise ValueError(f"{name} must be an integer array of shape {shape}: {exc}") from None
    if arr.shape != shape or not (np.issubdtype(arr.dtype, np.integer) and arr.dtype != np.bool_):
        raise ValueError(f"{name} must be an integer array of shape {shape}, got {arr.dtype} {arr.shape}")
    if arr.size and (int(arr.min()) < lo or int(arr.max()) > hi):
        raise ValueError(f"{name} must hold values in [{lo}, {hi}], got values in [{int(arr.min())}, "
                         f"{int(arr.max())}]")
    return np.ascontiguousarray(arr, dtype=np.int64)
