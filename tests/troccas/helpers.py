"""Helpers for Troccas tests: build deals, drive a deal to play, hand-made rows for kernel-level checks."""

from __future__ import annotations

import numpy as np

import tarockrl
from tarockrl.games.troccas import layout as L
from tarockrl.games.troccas.cards import CARD_CODES, SPLIT, parse_card

ALL_CODES = list(CARD_CODES)


def codes(text: str) -> list[str]:
    """Split a space-separated list of card codes."""
    return text.split()


def cards(text: str) -> list[int]:
    """Card indices of a space-separated list of codes."""
    return [parse_card(c) for c in codes(text)]


def words(text: str) -> tuple[int, int]:
    """The two-word set (tw, sw) of a space-separated list of codes."""
    tw = sw = 0
    for c in cards(text):
        if c < SPLIT:
            tw |= 1 << c
        else:
            sw |= 1 << (c - SPLIT)
    return tw, sw


def build_deal(dealer: int, fixed: dict[int, str], *, last: dict[int, str] | None = None,
               avoid: dict[int, str] | None = None, balance=None, redeals=None) -> dict:
    """A deal dict: seat ``p`` gets the cards ``fixed[p]`` first, ``last[p]`` as its last card, and is filled
    up from the rest of the pack in index order, skipping cards listed in ``avoid[p]`` (given to others)."""
    last = last or {}
    avoid = avoid or {}
    used = set()
    for text in list(fixed.values()) + list(last.values()):
        for c in codes(text):
            assert c not in used, c
            used.add(c)
    pool = [c for c in ALL_CODES if c not in used]
    hands = []
    for p in range(4):
        size = 21 if p == dealer else 19
        hand = codes(fixed.get(p, ""))
        tail = codes(last.get(p, ""))
        banned = set(codes(avoid.get(p, "")))
        need = size - len(hand) - len(tail)
        take = [c for c in pool if c not in banned][:need]
        assert len(take) == need, (p, need)
        for c in take:
            pool.remove(c)
        hands.append(hand + take + tail)
    assert not pool
    deal = {"dealer": dealer, "hands": hands}
    if balance is not None:
        deal["balance"] = list(balance)
    if redeals is not None:
        deal["redeals"] = redeals
    return deal


def act(state, name: str) -> None:
    """Apply an action given by its readable name (e.g. "CARD cK", "VOTE_KEEP", "TALK E7 (il narr)")."""
    for a in state.legal_actions():
        if state.action_to_string(a) == name:
            state.apply_action(a)
            return
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    raise AssertionError(f"{name} is not legal; legal: {legal}")


def card(state, code: str, seat: int | None = None) -> None:
    """Play or discard the card ``code`` (checking the seat to act when given)."""
    if seat is not None:
        assert state.current_player() == seat, (code, seat, state.current_player())
    state.apply_action(parse_card(code))


def play(state, text: str) -> None:
    """Play cards given as "seat:code" items, e.g. "1:sK 2:s3 3:s7 0:s2"."""
    for item in text.split():
        seat, code = item.split(":")
        card(state, code, int(seat))


def to_scart(state) -> None:
    """Take silent talk, KEEP votes and DECLINE at every decision until SCART (or PLAY) is reached."""
    while state.phase() in ("talk", "vote", "force"):
        legal = state.legal_actions()
        if state.phase() == "talk":
            state.apply_action(legal[0])  # silent
        elif state.phase() == "vote":
            state.apply_action(L.A_KEEP)
        else:
            state.apply_action(L.A_DECLINE)


def to_play(state, discards: str) -> None:
    """Go to SCART silently, then discard the two given cards."""
    to_scart(state)
    assert state.phase() == "scart", state.phase()
    for c in codes(discards):
        card(state, c)
    assert state.phase() == "play"


def legal_names(state) -> set[str]:
    """The legal actions as names."""
    return {state.action_to_string(a) for a in state.legal_actions()}


def legal_codes(state) -> list[str]:
    """The card codes of the legal card actions, in ascending action order."""
    return [CARD_CODES[a] for a in state.legal_actions() if a < 78]


def _put(row: np.ndarray, slot_tw: int, slot_sw: int, c: int) -> None:
    if c < SPLIT:
        row[slot_tw] |= 1 << c
    else:
        row[slot_sw] |= 1 << (c - SPLIT)


def play_row(hand: str, trick: list[tuple[int, str]] | None = None, *, mover: int | None = None,
             leader: int = 0, led_suits: int = 0, played: str = "", double: bool = False) -> np.ndarray:
    """A hand-made PLAY-phase row: ``trick`` lists (seat, code) in playing order; the mover holds ``hand``.

    Other hands are empty (only the legal-move kernels look at this row). ``played`` lists cards already in
    completed tricks (for the knock rule).
    """
    from tarockrl.games.troccas.cards import SUIT_OF_CARD

    trick = trick or []
    row = np.zeros(L.STATE_LEN, dtype=np.int64)
    row[L.MAGIC] = L.LAYOUT_MAGIC
    row[L.PHASE] = L.PLAY
    row[L.LEADER] = leader
    row[L.LED] = -1
    row[L.SETTER_POS] = -1
    row[L.TRICK_WINNER] = -1
    row[L.BUOB_SUIT] = -1
    row[L.SCART_JACK] = -1
    row[L.IS_DOUBLE] = 1 if double else 0
    for i in range(8):
        row[L.TRICK_CARD + i] = -1
        row[L.TRICK_SEAT + i] = -1
    for s in range(4):
        row[L.KNOCKED_FOR + s] = -1
    for i, (seat, code) in enumerate(trick):
        c = parse_card(code)
        row[L.TRICK_CARD + i] = c
        row[L.TRICK_SEAT + i] = seat
        _put(row, L.TRICK_TW, L.TRICK_SW, c)
        _put(row, L.PLAYED_TW, L.PLAYED_SW, c)
        if c != 21 and row[L.LED] < 0:
            row[L.LED] = SUIT_OF_CARD[c]
            row[L.SETTER_POS] = i
    for c in cards(played):
        _put(row, L.PLAYED_TW, L.PLAYED_SW, c)
    row[L.TRICK_N] = len(trick)
    if mover is None:
        mover = (leader + len(trick)) % 4
    row[L.CUR] = mover
    for c in cards(hand):
        _put(row, L.HAND_TW + mover, L.HAND_SW + mover, c)
    row[L.LED_SUITS] = led_suits
    return row


def scart_row(dealer: int, hand: str) -> np.ndarray:
    """A hand-made SCART row: the dealer holds ``hand`` (only the discard kernel looks at it)."""
    row = np.zeros(L.STATE_LEN, dtype=np.int64)
    row[L.MAGIC] = L.LAYOUT_MAGIC
    row[L.PHASE] = L.SCART
    row[L.DEALER] = dealer
    row[L.CUR] = dealer
    for c in cards(hand):
        _put(row, L.HAND_TW + dealer, L.HAND_SW + dealer, c)
    return row


def state_of(game, row: np.ndarray):
    """Wrap a hand-made row as a State of ``game``."""
    return tarockrl.State(game, row)
