"""The Troccas observation written one card at a time: the kernel of tarockrl/games/troccas/observe.py before it
wrote its card blocks 8 entries per store (issue 9), kept as the slow reference that the fast kernel must equal."""

from __future__ import annotations

from numba import njit

from tarockrl.engine.bits import lowest_index, popcount
from tarockrl.games.troccas import layout as L
from tarockrl.games.troccas.cards import SPLIT
from tarockrl.games.troccas.observe import (
    OBS_BALANCE,
    OBS_BUOB,
    OBS_DEALER,
    OBS_DOUBLE,
    OBS_EXPOSED,
    OBS_FOOL,
    OBS_FOOL_PAID,
    OBS_FORCE_DECLINED,
    OBS_HAND,
    OBS_HAND_SIZES,
    OBS_KNOCKS,
    OBS_LAST_TRICK,
    OBS_LAST_WINNER,
    OBS_LEADER,
    OBS_LED,
    OBS_LED_SUITS,
    OBS_N_SCART,
    OBS_PACKETS,
    OBS_PATTERN,
    OBS_PATTERN_BY,
    OBS_PHASE,
    OBS_PILES,
    OBS_PLAYED,
    OBS_POINTS,
    OBS_REDEAL_KINDS,
    OBS_REDEALS,
    OBS_RESULT,
    OBS_SCART,
    OBS_SCART_JACK,
    OBS_SECOND_ROUND,
    OBS_SWAPS,
    OBS_TALK,
    OBS_TO_MOVE,
    OBS_TRICK,
    OBS_TRICK_NO,
    OBS_TRICKS_WON,
    OBS_VOTES,
)


@njit(cache=True, inline="always")
def _put_cards(out, offset, tw, sw):
    while tw != 0:
        out[offset + lowest_index(tw)] = 1.0
        tw &= tw - 1
    while sw != 0:
        out[offset + SPLIT + lowest_index(sw)] = 1.0
        sw &= sw - 1


@njit(cache=True)
def observe_reference(state, player, opts, out):
    """The observation of seat ``player`` into the float32 vector ``out``, one card at a time."""
    out[:] = 0.0
    phase = state[L.PHASE]
    terminal = phase == L.TERMINAL
    dealer = state[L.DEALER]
    me = player % 2
    _put_cards(out, OBS_HAND, state[L.HAND_TW + player], state[L.HAND_SW + player])
    out[OBS_DEALER + (dealer - player) % 4] = 1.0
    out[OBS_BALANCE] = state[L.BAL + me] / 36.0
    out[OBS_BALANCE + 1] = state[L.BAL + 1 - me] / 36.0
    out[OBS_REDEALS + state[L.REDEAL_COUNT]] = 1.0
    out[OBS_REDEAL_KINDS] = state[L.N_THROWN] / 10.0
    out[OBS_REDEAL_KINDS + 1] = state[L.N_FORCED] / 10.0
    # phase and seat to act as this seat may see them (the dealer's FORCE step is private)
    cur = state[L.CUR]
    shown = phase
    if phase == L.FORCE and player != dealer:
        shown = L.SCART
    out[OBS_PHASE + shown] = 1.0
    if cur >= 0:
        out[OBS_TO_MOVE + (cur - player) % 4] = 1.0
    if phase != L.PATTERN:
        out[OBS_PATTERN + state[L.PATTERN_SLOT]] = 1.0
        out[OBS_PACKETS + state[L.PACKET]] = 1.0
    if state[L.PATTERN_BY] >= 0:
        out[OBS_PATTERN_BY + (state[L.PATTERN_BY] - player) % 4] = 1.0
    for r in range(4):
        seat = (player + r) % 4
        x = state[L.EXPOSED + seat]
        if x >= 0:
            out[OBS_EXPOSED + 78 * r + x] = 1.0
        for pause in range(3):
            m = state[L.TALK_LOG + 4 * pause + seat]
            if m >= 0:
                out[OBS_TALK + 48 * pause + 12 * r + m] = 1.0
            v = state[L.VOTE_LOG + 4 * pause + seat]
            if v >= 0:
                out[OBS_VOTES + 8 * pause + 2 * r + v] = 1.0
        _put_cards(out, OBS_PLAYED + 78 * r, state[L.PLAYED_BY_TW + seat], state[L.PLAYED_BY_SW + seat])
        out[OBS_HAND_SIZES + r] = (popcount(state[L.HAND_TW + seat]) + popcount(state[L.HAND_SW + seat])) / 21.0
        kt = state[L.KNOCKS_TW + seat]
        while kt != 0:
            out[OBS_KNOCKS + 21 * r + lowest_index(kt)] = 1.0
            kt &= kt - 1
    if player == dealer and state[L.FORCE_SEEN] == 2:
        out[OBS_FORCE_DECLINED] = 1.0
    if player == dealer or terminal:
        _put_cards(out, OBS_SCART, state[L.SCART_TW], state[L.SCART_SW])
    out[OBS_N_SCART] = state[L.SCART_N] / 2.0
    if state[L.SCART_JACK] >= 0:
        out[OBS_SCART_JACK + state[L.SCART_JACK]] = 1.0
    # the current trick
    if phase >= L.PLAY:
        leader = state[L.LEADER]
        if leader >= 0 and not terminal:
            out[OBS_LEADER + (leader - player) % 4] = 1.0
        for i in range(state[L.TRICK_N]):
            rel = (state[L.TRICK_SEAT + i] - player) % 4
            out[OBS_TRICK + 78 * rel + state[L.TRICK_CARD + i]] = 1.0
        if state[L.LED] >= 0:
            out[OBS_LED + state[L.LED]] = 1.0
        if state[L.IS_DOUBLE] != 0:
            out[OBS_DOUBLE] = 1.0
            for i in range(5, state[L.TRICK_N]):
                out[OBS_SECOND_ROUND + state[L.TRICK_CARD + i]] = 1.0
    for s in range(4):
        if ((state[L.LED_SUITS] >> s) & 1) != 0:
            out[OBS_LED_SUITS + s] = 1.0
        res = state[L.BUOB_RESULT + s]
        if res >= 0:
            out[OBS_BUOB + 3 * s + res] = 1.0
        if state[L.SWAP_SEAT + s] >= 0:
            out[OBS_SWAPS + 14 * s + (state[L.SWAP_SEAT + s] - player) % 4] = 1.0
            out[OBS_SWAPS + 14 * s + 4 + (state[L.SWAP_CARD + s] - SPLIT) % 14] = 1.0
    for i in range(state[L.LAST_N]):
        rel = (state[L.LAST_SEAT + i] - player) % 4
        out[OBS_LAST_TRICK + 78 * rel + state[L.LAST_CARD + i]] = 1.0
    if state[L.LAST_WINNER] >= 0:
        out[OBS_LAST_WINNER + (state[L.LAST_WINNER] - player) % 4] = 1.0
    for k in range(2):
        t = (me + k) % 2
        _put_cards(out, OBS_PILES + 78 * k, state[L.PILE_TW + t], state[L.PILE_SW + t])
        out[OBS_TRICKS_WON + k] = state[L.TRICKS_WON + t] / 19.0
        if terminal:
            out[OBS_POINTS + k] = state[L.POINTS + t] / 72.0
            out[OBS_RESULT + k] = (state[L.POINTS + t] - 36) / 36.0
    out[OBS_TRICK_NO] = state[L.TRICK_NO] / 19.0
    if terminal:
        if state[L.FOOL_OUTCOME] > 0:
            out[OBS_FOOL + state[L.FOOL_OUTCOME] - 1] = 1.0
        if state[L.FOOL_PAID] >= 0:
            out[OBS_FOOL_PAID + state[L.FOOL_PAID]] = 1.0


@njit(cache=True)
def observe_reference_rows(rows, players, opts, out):
    """:func:`observe_reference` of ``rows[i]`` seen by ``players[i]`` into ``out[i]``, every row."""
    for i in range(rows.shape[0]):
        observe_reference(rows[i], players[i], opts, out[i])
