"""Decoding of a Troccas observation for the rule-based player (only what ``docs/rules/troccas.md`` §4.10 shows).

:class:`View` turns the float vector of :mod:`tarockrl.games.troccas.observe` into boolean card arrays (78 wide,
canonical index) and small numbers. Seats are relative to the observer, as in the observation: 0 = the seat
itself, 1 = the opponent on its right (next to play), 2 = its partner, 3 = the other opponent.
"""

from __future__ import annotations

import numpy as np

from tarockrl.games.troccas import observe as ob
from tarockrl.games.troccas.cards import CARD_VALUES, NUM_CARDS

N = NUM_CARDS
CARDS = np.arange(N)
VALUE = CARD_VALUES.astype(np.int64)
IS_TRUMP = CARDS <= 20  # trumps I..XXI (the Fool, 21, is not a trump)
FOOL = 21
T1, T21 = 0, 20
SUIT = np.where(CARDS >= 22, (CARDS - 22) // 14, np.where(IS_TRUMP, 4, -1))  # 0..3 plain, 4 trump, -1 Fool
OFFSET = np.where(CARDS >= 22, (CARDS - 22) % 14, -1)  # 10 jack, 11 cavalier, 12 queen, 13 king
IS_KING = OFFSET == 13
IS_COURT = OFFSET >= 10
IS_FIVE = VALUE == 5  # T1, T21, the Fool and the kings
# Trick-taking power inside the trick: trumps above every plain card; within a suit the index order (§2.3).
POWER = np.where(IS_TRUMP, 100 + CARDS, np.where(CARDS >= 22, OFFSET, -1))
SUIT_MASK = np.array([SUIT == s for s in range(5)])  # [suit, card]; row 4 = trumps


def _rel_block(obs: np.ndarray, off: int, seats: int = 4) -> np.ndarray:
    return obs[off:off + 78 * seats].reshape(seats, 78) > 0.5


class View:
    """The seat's observation, decoded (every field is public or the seat's own, §4.10)."""

    def __init__(self, obs: np.ndarray) -> None:
        """Decode ``obs`` (float32[OBS_LEN])."""
        self.hand = obs[ob.OBS_HAND:ob.OBS_HAND + N] > 0.5
        self.phase = int(np.argmax(obs[ob.OBS_PHASE:ob.OBS_PHASE + 8]))
        self.dealer = int(np.argmax(obs[ob.OBS_DEALER:ob.OBS_DEALER + 4]))  # relative seat of the dealer
        self.balance = float(obs[ob.OBS_BALANCE]) * 36.0  # own team's match balance
        self.exposed = _rel_block(obs, ob.OBS_EXPOSED)  # [rel seat, card]: face-up last cards (§3)
        self.talk = obs[ob.OBS_TALK:ob.OBS_TALK + 144].reshape(3, 4, 12) > 0.5  # [pause, rel seat, message]
        self.scart = obs[ob.OBS_SCART:ob.OBS_SCART + N] > 0.5  # own discards (the dealer only)
        self.played_by = _rel_block(obs, ob.OBS_PLAYED)  # [rel seat, card], the current trick included
        self.played = self.played_by.any(axis=0)
        self.trick = _rel_block(obs, ob.OBS_TRICK)  # [rel seat, card] of the current trick
        lead = obs[ob.OBS_LEADER:ob.OBS_LEADER + 4]
        self.leader = int(np.argmax(lead)) if lead.max() > 0.5 else -1
        led = obs[ob.OBS_LED:ob.OBS_LED + 5]
        self.led = int(np.argmax(led)) if led.max() > 0.5 else -1  # 0..3 plain suit, 4 trumps, -1 none yet
        self.double = bool(obs[ob.OBS_DOUBLE] > 0.5)
        self.led_suits = obs[ob.OBS_LED_SUITS:ob.OBS_LED_SUITS + 4] > 0.5
        self.hand_sizes = np.rint(obs[ob.OBS_HAND_SIZES:ob.OBS_HAND_SIZES + 4] * 21).astype(np.int64)
        self.trick_no = int(round(float(obs[ob.OBS_TRICK_NO]) * 19))
        self.knocks = obs[ob.OBS_KNOCKS:ob.OBS_KNOCKS + 84].reshape(4, 21) > 0.5  # [rel seat, trump]
        pat = obs[ob.OBS_PATTERN:ob.OBS_PATTERN + 3]
        self.final_pause = (2, 1, 0)[int(np.argmax(pat))] if pat.max() > 0.5 else 2  # STANDARD, NINE_TEN, SINGLE
        self.tricks_won = np.rint(obs[ob.OBS_TRICKS_WON:ob.OBS_TRICKS_WON + 2] * 19).astype(np.int64)
        # Cards another seat may still play: neither the seat's own, nor played, nor in its own scart (the face-up
        # cards of the other seats stay in this set: they are theirs to play).
        self.outside = ~self.hand & ~self.played & ~self.scart

    # -- the current trick ------------------------------------------------------------------------------------
    def trick_cards(self) -> np.ndarray:
        """Indices of the cards in the current trick."""
        return np.flatnonzero(self.trick.any(axis=0))

    def winner(self) -> tuple[int, int]:
        """``(relative seat, card)`` winning the current trick so far (§5.6), ``(-1, -1)`` for an empty trick."""
        cards = self.trick_cards()
        cards = cards[cards != FOOL]
        if cards.size == 0:
            return -1, -1
        if IS_TRUMP[cards].any():
            best = int(cards[IS_TRUMP[cards]].max())
        else:
            same = cards[SUIT[cards] == self.led]
            if same.size == 0:
                return -1, -1
            best = int(same.max())
        seat = int(np.argmax(self.trick[:, best]))
        return seat, best

    def still_to_play(self) -> list[int]:
        """Relative seats that play to the current trick after the seat (for a double lead: still owe a card)."""
        need = 2 if self.double else 1
        counts = self.trick.sum(axis=1)
        return [r for r in (1, 2, 3) if counts[r] < need]

    def partner_talk(self) -> np.ndarray:
        """The partner's messages of the current attempt, per pause (-1 none)."""
        t = self.talk[:, 2, :]
        return np.where(t.any(axis=1), np.argmax(t, axis=1), -1)
