"""Helpers for Dreiertarock tests: deals from the spec's notation, scripted actions and trick lines."""

from __future__ import annotations

import numpy as np

import tarockrl
from tarockrl.games.dreiertarock import layout as L
from tarockrl.games.dreiertarock.cards import CODE_TO_CARD, parse_card
from tarockrl.games.dreiertarock.text import parse_action


def codes(text: str) -> list[str]:
    """Split a space-separated list of card codes."""
    return text.split()


def mask(text: str) -> int:
    """The card mask of a space-separated list of codes."""
    m = 0
    for c in codes(text):
        m |= 1 << CODE_TO_CARD[c]
    return m


def make_deal(s0: str, s1: str, s2: str, p0: str, p1: str, dealer: int = 2) -> dict:
    """A deal dict in the spec's notation (dealer seat 2 as in all worked examples)."""
    return {"dealer": dealer, "hands": [codes(s0), codes(s1), codes(s2)], "talon_packets": [codes(p0), codes(p1)]}


def act(state, name: str) -> None:
    """Apply an action given by its name (``"BID_ZWEIER"``, ``"PLAY T21"``, ``"DISCARD H1"``, ``"GOOD"`` ...)."""
    state.apply_action(parse_action(name))


def acts(state, script: str) -> None:
    """Apply ``"s0 BID_EINSER; s1 PASS; ..."``, checking the seat to act before each action."""
    for part in script.split(";"):
        part = part.strip()
        if not part:
            continue
        seat, name = part.split(None, 1)
        assert state.current_player() == int(seat[1]), (part, state.current_player())
        act(state, name)


def names(state) -> set[str]:
    """The legal actions as names."""
    return {state.action_to_string(a) for a in state.legal_actions()}


def cards_of(state) -> set[str]:
    """The card codes of the legal PLAY or DISCARD actions."""
    return {state.action_to_string(a).split()[1] for a in state.legal_actions()}


def play_tricks(state, lines: list[str]) -> None:
    """Play trick lines such as ``"s0 T7, s1 T11, s2 T6 -> s1"``, checking every mover and the winner."""
    for line in lines:
        plays, winner = line.split("->")
        winner = int(winner.strip()[1])
        cards = []
        for part in plays.split(","):
            seat, card = part.split()
            assert state.current_player() == int(seat[1]), (line, state.current_player())
            state.apply_action(L.A_PLAY + parse_card(card))
            cards.append(parse_card(card))
        row = state.row
        assert (int(row[L.WON + winner]) >> cards[0]) & 1, (line, "winner")


def play_row(hand: str, trick: str = "", *, trischaken: bool = False, others: str = "") -> np.ndarray:
    """A hand-made PLAY-phase row: seat 0 leads the current trick; the mover holds ``hand``.

    Cards of the trick are attributed to seats 0, 1 in order; every card not named goes to the hands of the two
    other seats (``others`` optional), so the row keeps 54 cards.
    """
    row = np.zeros(L.STATE_LEN, dtype=np.int64)
    row[L.MAGIC] = L.LAYOUT_MAGIC
    row[L.PHASE] = L.PLAY
    row[L.DEALER] = 2
    row[L.LEADER] = 0
    row[L.HOLDER] = -1
    row[L.TAKEN] = -1
    row[L.MOND_SEAT] = -1
    tcards = codes(trick)
    for i in range(3):
        row[L.TRICK_CARD + i] = CODE_TO_CARD[tcards[i]] if i < len(tcards) else -1
        row[L.ANN_BY + i] = -1
        row[L.BIRD_SEAT + i] = -1
    row[L.TRICK_N] = len(tcards)
    mover = len(tcards)
    row[L.CUR] = mover
    row[L.HAND + mover] = mask(hand)
    row[L.TRISCHAKEN] = 1 if trischaken else 0
    row[L.DECLARER] = -1 if trischaken else 0
    row[L.CONTRACT] = 0 if trischaken else 1
    return row


def state_of(game, row: np.ndarray):
    """Wrap a hand-made row as a State of ``game``."""
    return tarockrl.State(game, row)
