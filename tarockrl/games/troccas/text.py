"""Troccas text: the deal notation of docs/rules/troccas.md §3.1 (parse and produce), action names, state table,
transcripts.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tarockrl.errors import BadDealError
from tarockrl.games.dealtext import check_each_once
from tarockrl.games.troccas import kernels as k
from tarockrl.games.troccas import layout as L
from tarockrl.games.troccas.cards import CARD_CODES, NUM_CARDS, SUIT_NAMES, parse_card, set_codes
from tarockrl.games.troccas.rules import O_MAX_REDEALS

TEAM_NAMES = ("A", "B")
BALANCE_LIMIT = 10**9

_NAMED = {
    L.A_KEEP: "VOTE_KEEP",
    L.A_THROW: "VOTE_THROW_IN",
    L.A_DECLINE: "DEALER_DECLINE_FORCE",
    L.A_FORCE: "DEALER_FORCE_REDEAL",
    L.A_PATTERN: "PATTERN_STANDARD",
    L.A_PATTERN + 1: "PATTERN_NINE_TEN",
    L.A_PATTERN + 2: "PATTERN_SINGLE",
    L.A_NO_DEMAND: "BUOB_NO_DEMAND",
    L.A_DEMAND: "BUOB_DEMAND",
    L.A_KNOCK: "KNOCK",
}


def action_to_string(action: int) -> str:
    """Name of a Troccas action of the flat layout (e.g. ``"CARD cK"``, ``"TALK E7 (il narr)"``)."""
    a = int(action)
    if 0 <= a < NUM_CARDS:
        return f"CARD {CARD_CODES[a]}"
    if L.A_DOUBLE <= a < L.A_EARLY:
        return f"LEAD_KING_WITH_JACK {SUIT_NAMES[a - L.A_DOUBLE]}"
    if L.A_EARLY <= a < L.A_FINAL:
        m = a - L.A_EARLY
        return f"TALK E{m} ({L.EARLY_MESSAGES[m]})"
    if L.A_FINAL <= a < L.A_KEEP:
        m = a - L.A_FINAL
        return f"TALK F{m} ({L.FINAL_MESSAGES[m]})"
    if a in _NAMED:
        return _NAMED[a]
    raise ValueError(f"action {a} is out of range [0, {L.NUM_ACTIONS})")


# ---------------------------------------------------------------------------------------------------------
# deal notation
# ---------------------------------------------------------------------------------------------------------
def _is_int(x: Any) -> bool:
    return not isinstance(x, (bool, np.bool_)) and isinstance(x, (int, np.integer))


def _parse_hands(hands: Any, dealer: int, what: str) -> np.ndarray:
    """Validate one set of four ordered hands; return the 78-card order (forehand first, dealer last)."""
    if isinstance(hands, (str, bytes)) or not isinstance(hands, (list, tuple)) or len(hands) != 4:
        raise BadDealError(f"{what} must be a list of four hands (one per seat 0..3)")
    cards_by_seat = []
    for p, hand in enumerate(hands):
        want = 21 if p == dealer else 19
        role = "the dealer" if p == dealer else "a non-dealer"
        if isinstance(hand, (str, bytes)) or not isinstance(hand, (list, tuple)):
            raise BadDealError(f"{what}[{p}] must be a list of {want} card codes, got {type(hand).__name__}")
        if len(hand) != want:
            raise BadDealError(f"{what}[{p}] must hold {want} cards (seat {p} is {role}), got {len(hand)}")
        cards = []
        for code in hand:
            try:
                cards.append(parse_card(code))
            except ValueError:
                raise BadDealError(f"{what}[{p}]: unknown card code {code!r}") from None
        cards_by_seat.append(cards)
    everything = [c for h in cards_by_seat for c in h]
    check_each_once(everything, NUM_CARDS, CARD_CODES, f"{what}: every card must appear exactly once")
    order = np.empty(78, dtype=np.int64)
    for c in range(4):
        seat = (dealer + 1 + c) % 4
        order[19 * c : 19 * c + len(cards_by_seat[seat])] = cards_by_seat[seat]
    return order


def parse_deal(deal: Any) -> tuple[int, int, np.ndarray]:
    """Validate a deal dict; return ``(dealer, bal_A, orders)`` with one 78-card order per attempt."""
    if not isinstance(deal, dict):
        raise BadDealError(
            f"a Troccas deal is a dict with keys dealer, hands and optionally balance, redeals; got "
            f"{type(deal).__name__}"
        )
    keys = set(deal)
    missing = sorted({"dealer", "hands"} - keys)
    extra = sorted(keys - {"dealer", "hands", "balance", "redeals"})
    if missing or extra:
        raise BadDealError(
            f"a Troccas deal has the keys dealer, hands and optionally balance, redeals (missing {missing}, "
            f"unknown {extra})"
        )
    dealer = deal["dealer"]
    if not _is_int(dealer) or not 0 <= dealer <= 3:
        raise BadDealError(f"dealer must be a seat number 0..3, got {dealer!r}")
    dealer = int(dealer)
    balance = deal.get("balance", [0, 0])
    if (
        isinstance(balance, (str, bytes))
        or not isinstance(balance, (list, tuple))
        or len(balance) != 2
        or not all(_is_int(b) for b in balance)
    ):
        raise BadDealError(f"balance must be a list [bal_A, bal_B] of two integers, got {balance!r}")
    if int(balance[0]) + int(balance[1]) != 0:
        raise BadDealError(f"balance must be zero-sum (bal_A + bal_B = 0), got {list(balance)}")
    if abs(int(balance[0])) > BALANCE_LIMIT:
        raise BadDealError(f"balance {list(balance)} is out of range (at most {BALANCE_LIMIT} in size)")
    redeals = deal.get("redeals", [])
    if isinstance(redeals, (str, bytes)) or not isinstance(redeals, (list, tuple)):
        raise BadDealError("redeals must be a list of hand lists (one per redeal)")
    orders = [_parse_hands(deal["hands"], dealer, "hands")]
    for i, hands in enumerate(redeals):
        orders.append(_parse_hands(hands, dealer, f"redeals[{i}]"))
    return dealer, int(balance[0]), np.asarray(orders, dtype=np.int64)


def state_from_deal(game, deal: Any) -> np.ndarray:
    """A fresh state row for an explicit deal (raises ``BadDealError`` naming the problem).

    The in-episode generator (used only for redeals the dict does not supply) is seeded from the stored
    contents of the dict, so the same dict always gives the same episode.
    """
    dealer, bal_a, orders = parse_deal(deal)
    opts = game.encoded_options
    n = min(len(orders), int(opts[O_MAX_REDEALS]) + 1)
    rng = k.orders_seed(orders, np.int64(n), np.int64(dealer), np.int64(bal_a))
    row = np.zeros(L.STATE_LEN, dtype=np.int64)
    k.init_from_orders(row, orders, np.int64(n), np.int64(dealer), np.int64(bal_a), rng, opts)
    return row


def _order_to_hands(order: np.ndarray, dealer: int) -> list[list[str]]:
    hands: list[list[str]] = [[], [], [], []]
    for c in range(4):
        seat = (dealer + 1 + c) % 4
        size = 21 if c == 3 else 19
        hands[seat] = [CARD_CODES[int(x)] for x in order[19 * c : 19 * c + size]]
    return hands


def num_attempts(row: np.ndarray) -> int:
    """Attempts whose card order the row knows: those dealt so far plus supplied future redeals."""
    return max(int(row[L.N_ARCHIVED]), int(row[L.REDEAL_COUNT]) + 1)


def attempt_order(row: np.ndarray, attempt: int) -> np.ndarray:
    """The 78-card order of attempt ``attempt`` (forehand's cards first, the dealer's last)."""
    if attempt < int(row[L.N_ARCHIVED]):
        out = np.empty(78, dtype=np.int64)
        k.unpack_attempt(np.asarray(row, dtype=np.int64), np.int64(attempt), out)
        return out
    if attempt == int(row[L.REDEAL_COUNT]):
        return np.asarray(row[L.PERM : L.PERM + 78], dtype=np.int64).copy()
    raise IndexError(f"attempt {attempt} is not known to this state")


def deal_of(row: np.ndarray) -> dict:
    """The deal of a state in the notation of 3.1, with every redeal that has been dealt or supplied."""
    dealer = int(row[L.DEALER])
    n = num_attempts(row)
    deal: dict[str, Any] = {
        "dealer": dealer,
        "hands": _order_to_hands(attempt_order(row, 0), dealer),
        "balance": [int(row[L.BAL]), int(row[L.BAL + 1])],
    }
    if n > 1:
        deal["redeals"] = [_order_to_hands(attempt_order(row, i), dealer) for i in range(1, n)]
    return deal


# ---------------------------------------------------------------------------------------------------------
# readable output
# ---------------------------------------------------------------------------------------------------------
def _cards(tw: int, sw: int) -> str:
    codes = set_codes(tw, sw)
    return " ".join(codes) if codes else "-"


def _seat(s: int) -> str:
    return f"seat {s} ({TEAM_NAMES[s % 2]})"


def state_to_string(game, row: np.ndarray) -> str:
    """A readable table of the whole state (an omniscient view, for people)."""
    phase = L.PHASE_NAMES[int(row[L.PHASE])]
    dealer = int(row[L.DEALER])
    cur = int(row[L.CUR])
    lines = [
        f"Troccas  dealer {_seat(dealer)}  balance A {int(row[L.BAL]):+d} / B {int(row[L.BAL + 1]):+d}  "
        f"phase {phase}  to act {(_seat(cur) if cur >= 0 else '-')}",
        f"  pattern {L.PATTERN_NAMES[int(row[L.PATTERN_SLOT])] if row[L.PHASE] != L.PATTERN else '(choosing)'}"
        f"  redeals {int(row[L.REDEAL_COUNT])}  packets dealt "
        f"{int(row[L.PACKET]) + 1 if row[L.PHASE] != L.PATTERN else 0}",
    ]
    for s in range(4):
        exp = int(row[L.EXPOSED + s])
        lines.append(
            f"  {_seat(s)} hand: {_cards(row[L.HAND_TW + s], row[L.HAND_SW + s]):<66}"
            f" face-up: {CARD_CODES[exp] if exp >= 0 else '-'}"
        )
    lines.append(f"  scart: {_cards(row[L.SCART_TW], row[L.SCART_SW])}")
    if row[L.PHASE] in (L.PLAY, L.BUOB, L.TERMINAL):
        trick = [
            f"{int(row[L.TRICK_SEAT + i])}:{CARD_CODES[int(row[L.TRICK_CARD + i])]}" for i in range(int(row[L.TRICK_N]))
        ]
        lines.append(f"  tricks done: {int(row[L.TRICK_NO])}  current trick: {' '.join(trick) if trick else '-'}")
        for t in range(2):
            lines.append(
                f"  team {TEAM_NAMES[t]} pile ({int(row[L.TRICKS_WON + t])} tricks): "
                f"{_cards(row[L.PILE_TW + t], row[L.PILE_SW + t])}"
            )
    if row[L.PHASE] == L.TERMINAL:
        lines.append(f"  card points: A {int(row[L.POINTS])}, B {int(row[L.POINTS + 1])}")
        lines.append("  settlement: " + ", ".join(f"seat {s} {int(row[L.RESULT + s]):+d}" for s in range(4)))
    return "\n".join(lines)


def transcript(game, row: np.ndarray) -> str:
    """Replay the episode's history from its deal and describe every step."""
    opts = game.encoded_options
    deal = deal_of(row)
    replay = state_from_deal(game, deal)
    dealer = deal["dealer"]
    out = [
        f"Troccas: dealer {_seat(dealer)}, forehand {_seat((dealer + 1) % 4)}, balance A {deal['balance'][0]:+d} "
        f"/ B {deal['balance'][1]:+d}"
    ]

    def attempt_header(r: np.ndarray) -> None:
        a = int(r[L.REDEAL_COUNT])
        out.append(f"Attempt {a + 1} ({L.PATTERN_NAMES[int(r[L.PATTERN_SLOT])]}):")
        hands = _order_to_hands(attempt_order(r, a), dealer)
        for s in range(4):
            out.append(f"  {_seat(s)} receives: {' '.join(hands[s])}")

    if replay[L.PHASE] != L.PATTERN:
        attempt_header(replay)
    history = [int(x) for x in row[L.HIST : L.HIST + min(int(row[L.HIST_LEN]), L.HIST_CAP)]]
    for a in history:
        before = replay.copy()
        phase = int(before[L.PHASE])
        seat = int(before[L.CUR])
        k.apply_unchecked(replay, np.int64(a), opts)
        if phase == L.PATTERN:
            out.append(f"  {_seat(seat)} chooses {action_to_string(a)}")
            attempt_header(replay)
        elif phase == L.TALK:
            out.append(f"  pause {int(before[L.PACKET]) + 1}: {_seat(seat)} {action_to_string(a)}")
        elif phase == L.VOTE:
            out.append(f"  pause {int(before[L.PACKET]) + 1}: {_seat(seat)} {action_to_string(a)}")
        elif phase == L.FORCE:
            out.append(f"  dealer {_seat(seat)} {action_to_string(a)} (holds no trump)")
        elif phase == L.SCART:
            out.append(f"  dealer {_seat(seat)} discards {CARD_CODES[a]}")
        elif phase == L.BUOB:
            suit = int(before[L.BUOB_SUIT])
            text = f"  {_seat(seat)} {action_to_string(a)} ({SUIT_NAMES[suit]})"
            res = int(replay[L.BUOB_RESULT + suit])
            if res == 2:
                text += (
                    f": seat {int(replay[L.SWAP_SEAT + suit])} gives the jack and takes back "
                    f"{CARD_CODES[int(replay[L.SWAP_CARD + suit])]}"
                )
            elif res == 1:
                text += ": no swap"
            out.append(text)
        elif phase == L.PLAY:
            if a == L.A_KNOCK:
                out.append(f"  {_seat(seat)} knocks (holds {CARD_CODES[int(replay[L.KNOCKED_FOR + seat])]})")
            elif int(replay[L.TRICK_NO]) > int(before[L.TRICK_NO]) or replay[L.PHASE] == L.BUOB:
                _describe_trick(out, replay, before, a)
                for suit in range(4):
                    if replay[L.BUOB_RESULT + suit] != before[L.BUOB_RESULT + suit]:
                        res = int(replay[L.BUOB_RESULT + suit])
                        what = (
                            f"seat {int(replay[L.SWAP_SEAT + suit])} gave the jack and took back "
                            f"{CARD_CODES[int(replay[L.SWAP_CARD + suit])]}" if res == 2 else "no swap"
                        )
                        out.append(f"  automatic jack demand ({SUIT_NAMES[suit]}): {what}")
        if int(replay[L.REDEAL_COUNT]) > int(before[L.REDEAL_COUNT]):
            why = "forced by the dealer" if a == L.A_FORCE else "thrown in"
            out.append(f"  -> cancelled ({why}); the same dealer deals again")
            attempt_header(replay)
        if phase in (L.TALK, L.VOTE) and replay[L.PHASE] != L.PATTERN:
            last = L.NUM_PACKETS[int(replay[L.PATTERN_SLOT])] - 1
            if int(replay[L.PACKET]) == last and int(before[L.PACKET]) < last and replay[L.EXPOSED] >= 0:
                shown = ", ".join(f"seat {s} {CARD_CODES[int(replay[L.EXPOSED + s])]}" for s in range(4))
                out.append(f"  face-up cards: {shown}")
    if row[L.PHASE] == L.TERMINAL:
        out.append("Result:")
        scart = _cards(row[L.SCART_TW], row[L.SCART_SW])
        out.append(f"  scart {scart} goes to team {TEAM_NAMES[int(row[L.SCART_TEAM])]}")
        fo = int(row[L.FOOL_OUTCOME])
        if fo == 1:
            out.append(f"  the Fool is redeemed with {CARD_CODES[int(row[L.FOOL_PAID])]}")
        elif fo == 2:
            out.append("  the Fool is lost (its team won no trick)")
        out.append(f"  card points: A {int(row[L.POINTS])}, B {int(row[L.POINTS + 1])}")
        out.append("  settlement: " + ", ".join(f"seat {s} {int(row[L.RESULT + s]):+d}" for s in range(4)))
    return "\n".join(out)


def _describe_trick(out: list[str], replay: np.ndarray, before: np.ndarray, action: int) -> None:
    """One line for a completed trick (before any swap when a BUOB decision follows)."""
    if replay[L.PHASE] == L.BUOB:
        n = int(replay[L.TRICK_N])
        cards = [(int(replay[L.TRICK_SEAT + i]), int(replay[L.TRICK_CARD + i])) for i in range(n)]
        winner = int(replay[L.TRICK_WINNER])
    else:
        n = int(replay[L.LAST_N])
        cards = [(int(replay[L.LAST_SEAT + i]), int(replay[L.LAST_CARD + i])) for i in range(n)]
        winner = int(replay[L.LAST_WINNER])
    played = ", ".join(f"{s} {CARD_CODES[c]}" for s, c in cards)
    number = int(before[L.TRICK_NO]) + 1
    out.append(f"  trick {number:>2}: {played} -> seat {winner}")


__all__ = [
    "action_to_string",
    "parse_deal",
    "state_from_deal",
    "deal_of",
    "attempt_order",
    "num_attempts",
    "state_to_string",
    "transcript",
]
