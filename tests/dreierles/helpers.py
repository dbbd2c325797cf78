"""Helpers for Dreierles tests: play scripted deals and build hand-made rows for kernel-level checks."""

from __future__ import annotations

import numpy as np

import tarockrl
from tarockrl.games.dreierles import layout as L
from tarockrl.games.dreierles.cards import CODE_TO_CARD, parse_card


def codes(text: str) -> list[str]:
    """Split a space-separated list of card codes."""
    return text.split()


def mask(text: str) -> int:
    """The card mask of a space-separated list of codes."""
    m = 0
    for c in codes(text):
        m |= 1 << CODE_TO_CARD[c]
    return m


def act(state, name: str) -> None:
    """Apply an action given by its readable name (e.g. "BID Zweier", "PLAY T21", "KNOCK")."""
    for a in state.legal_actions():
        if state.action_to_string(a) == name:
            state.apply_action(a)
            return
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    raise AssertionError(f"{name} is not legal; legal: {legal}")


def play_tricks(state, lines: list[str]) -> None:
    """Play trick lines such as "B CK, C C7, A C9" (seat letters are checked against the mover)."""
    for line in lines:
        for part in line.split(","):
            seat, card = part.split()
            assert state.current_player() == "ABC".index(seat), (line, state.current_player())
            state.apply_action(L.A_PLAY + parse_card(card))


def legal_names(state) -> set[str]:
    """The legal actions as names."""
    return {state.action_to_string(a) for a in state.legal_actions()}


def legal_cards(state) -> set[str]:
    """The card codes of the legal PLAY or DISCARD actions."""
    return {state.action_to_string(a).split()[1] for a in state.legal_actions()}


def play_row(hand: str, trick: str = "", *, raeuber: bool = False, trick_no: int = 1,
             stiess_played: bool = False, n_trump_led: int = 0) -> np.ndarray:
    """A hand-made PLAY-phase row: seat 0 leads the current trick, the mover holds ``hand``."""
    row = np.zeros(L.STATE_LEN, dtype=np.int64)
    row[L.MAGIC] = L.LAYOUT_MAGIC
    row[L.PHASE] = L.PLAY
    row[L.LEADER] = 0
    cards = codes(trick)
    for i in range(3):
        row[L.TRICK_CARD + i] = CODE_TO_CARD[cards[i]] if i < len(cards) else -1
    row[L.TRICK_N] = len(cards)
    mover = len(cards)
    row[L.CUR] = mover
    row[L.HAND + mover] = mask(hand)
    row[L.RAEUBER] = 1 if raeuber else 0
    row[L.DECLARER] = -1 if raeuber else 0
    row[L.TRICK_NO] = trick_no - 1
    row[L.STIESS_PLAYED] = 1 if stiess_played else 0
    row[L.N_TRUMP_LED] = n_trump_led
    return row


def state_of(game, row: np.ndarray):
    """Wrap a hand-made row as a State of ``game``."""
    return tarockrl.State(game, row)
