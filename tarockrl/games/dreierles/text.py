"""Dreierles text: the deal notation (parse and produce), action names, the state table and transcripts."""

from __future__ import annotations

from typing import Any

import numpy as np

from tarockrl.errors import BadDealError
from tarockrl.games.dealtext import check_each_once, parse_codes
from tarockrl.games.dreierles import kernels as k
from tarockrl.games.dreierles import layout as L
from tarockrl.games.dreierles.cards import CARD_CODES, CODE_TO_CARD, NUM_CARDS, mask_codes
from tarockrl.games.dreierles.rules import O_AUTO_FORCED

SEAT_NAMES = ("A", "B", "C")


def action_to_string(action: int) -> str:
    """Name of a Dreierles action of the flat layout."""
    a = int(action)
    if a == L.A_PASS:
        return "PASS"
    if 1 <= a <= 4:
        return f"BID {L.CONTRACT_NAMES[a]}"
    if L.A_DISCARD <= a < L.A_DISCARD + NUM_CARDS:
        return f"DISCARD {CARD_CODES[a - L.A_DISCARD]}"
    if a == L.A_ANNOUNCE:
        return "ANNOUNCE_PFEIFE"
    if a == L.A_NO_ANNOUNCE:
        return "NO_ANNOUNCE"
    if a == L.A_KNOCK:
        return "KNOCK"
    if a == L.A_NO_KNOCK:
        return "NO_KNOCK"
    if L.A_PLAY <= a < L.A_PLAY + NUM_CARDS:
        return f"PLAY {CARD_CODES[a - L.A_PLAY]}"
    raise ValueError(f"action {a} is out of range [0, {L.NUM_ACTIONS})")


def parse_deal(deal: Any) -> tuple[int, list[int], list[int]]:
    """Validate a deal dict; return ``(dealer, hand masks per seat, blind cards top first)``."""
    if not isinstance(deal, dict):
        raise BadDealError(f"a Dreierles deal is a dict with keys dealer, hands, blind; got {type(deal).__name__}")
    keys = set(deal)
    if keys != {"dealer", "hands", "blind"}:
        missing = sorted({"dealer", "hands", "blind"} - keys)
        extra = sorted(keys - {"dealer", "hands", "blind"})
        raise BadDealError(
            f"a Dreierles deal has exactly the keys dealer, hands, blind (missing {missing}, extra {extra})"
        )
    dealer = deal["dealer"]
    if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) or not 0 <= dealer <= 2:
        raise BadDealError(f"dealer must be a seat number 0, 1 or 2, got {dealer!r}")
    hands = deal["hands"]
    if not isinstance(hands, (list, tuple)) or len(hands) != 3:
        raise BadDealError("hands must be a list of three hands (one per seat)")
    hand_cards = [parse_codes(h, f"hands[{s}]", 16, CODE_TO_CARD) for s, h in enumerate(hands)]
    blind = parse_codes(deal["blind"], "blind", 6, CODE_TO_CARD)
    everything = [c for h in hand_cards for c in h] + blind
    check_each_once(everything, NUM_CARDS, CARD_CODES)
    masks = [sum(1 << c for c in h) for h in hand_cards]
    return int(dealer), masks, blind


def state_from_deal(game, deal: Any) -> np.ndarray:
    """A fresh state row for an explicit deal (raises ``BadDealError`` naming the problem)."""
    dealer, masks, blind = parse_deal(deal)
    row = np.zeros(L.STATE_LEN, dtype=np.int64)
    k.init_from_deal(
        row, np.asarray(masks, dtype=np.int64), np.asarray(blind, dtype=np.int64), np.int64(dealer),
        game.encoded_options,
    )
    return row


def deal_of(row: np.ndarray) -> dict:
    """The deal of a state in deal notation."""
    return {
        "dealer": int(row[L.DEALER]),
        "hands": [mask_codes(row[L.DEALT + s]) for s in range(3)],
        "blind": [CARD_CODES[int(row[L.BLIND + i])] for i in range(6)],
    }


def _cards(mask: int) -> str:
    codes = mask_codes(mask)
    return " ".join(codes) if codes else "-"


def _seat(s: int) -> str:
    return f"{SEAT_NAMES[s]}({s})"


def state_to_string(game, row: np.ndarray) -> str:
    """A readable table of the whole state (an omniscient view, for people)."""
    phase = L.PHASE_NAMES[int(row[L.PHASE])]
    dealer = int(row[L.DEALER])
    lines = [f"Dreierles  dealer {_seat(dealer)}  phase {phase}  to move "
             + (_seat(int(row[L.CUR])) if row[L.CUR] >= 0 else "-")]
    for s in range(3):
        bid = int(row[L.BID + s])
        said = {-1: "-", 0: "pass"}.get(bid, L.CONTRACT_NAMES[bid] if bid > 0 else "-")
        lines.append(f"  {_seat(s)} hand: {_cards(row[L.HAND + s]):<60} bid: {said}")
    lines.append(f"  blind (top first): {' '.join(CARD_CODES[int(row[L.BLIND + i])] for i in range(6))}")
    d = int(row[L.DECLARER])
    if d >= 0:
        lines.append(f"  declarer {_seat(d)} plays {L.CONTRACT_NAMES[int(row[L.HIGH])]}; took "
                     f"{_cards(row[L.BLIND_TAKEN])}; discards {_cards(row[L.DISCARDS])}; "
                     f"defenders' blind {_cards(row[L.BLIND_REST])}")
        ann = {-1: "-", 0: "declined", 1: "announced"}[int(row[L.ANNOUNCED])]
        lines.append(f"  Pfeife: {ann}  knocks: {int(row[L.KNOCKS])}")
    elif row[L.RAEUBER]:
        lines.append(f"  Räuber (all passed)  knocks: {int(row[L.KNOCKS])}")
    if row[L.PHASE] in (L.PLAY, L.TERMINAL):
        trick = [CARD_CODES[int(row[L.TRICK_CARD + i])] for i in range(int(row[L.TRICK_N]))]
        lead = int(row[L.LEADER])
        lines.append(f"  tricks done: {int(row[L.TRICK_NO])}  current trick (led by {_seat(lead)}): "
                     f"{' '.join(trick) if trick else '-'}")
        for s in range(3):
            lines.append(f"  {_seat(s)} won: {_cards(row[L.WON + s])}")
    if row[L.PHASE] == L.TERMINAL:
        lines.append("  card points: " + ", ".join(f"{_seat(s)} {int(row[L.POINTS + s])}" for s in range(3)))
        lines.append("  settlement (GP): " + ", ".join(f"{_seat(s)} {int(row[L.RESULT + s]):+d}" for s in range(3)))
    return "\n".join(lines)


def transcript(game, row: np.ndarray) -> str:
    """Replay the deal's history from its start and describe every step."""
    opts = game.encoded_options.copy()
    opts[O_AUTO_FORCED] = 0
    opts.setflags(write=False)  # the same array type as everywhere else: no second compilation of the kernels
    deal = deal_of(row)
    dealer, masks, blind = parse_deal(deal)
    replay = np.zeros(L.STATE_LEN, dtype=np.int64)
    k.init_from_deal(replay, np.asarray(masks, dtype=np.int64), np.asarray(blind, dtype=np.int64),
                     np.int64(dealer), opts)
    out = [f"Dreierles deal: dealer {_seat(dealer)}, forehand {_seat((dealer + 1) % 3)}"]
    for s in range(3):
        out.append(f"  {_seat(s)}: {' '.join(deal['hands'][s])}")
    out.append(f"  blind (top first): {' '.join(deal['blind'])}")
    history = row[L.HIST : L.HIST + int(row[L.HIST_LEN])]
    section = None
    for a in history:
        phase = int(replay[L.PHASE])
        seat = int(replay[L.CUR])
        if phase != section and phase != L.PLAY:
            out.append({L.AUCTION: "Auction:", L.DISCARD: "Discards:", L.ANNOUNCE: "Pfeife:",
                        L.KNOCK: "Knocking:", L.REKNOCK: "Re-knock:", L.RAEUBER_KNOCK: "Räuber knocking:"}[phase])
            section = phase
        if phase == L.PLAY:
            if section != L.PLAY:
                out.append("Play:")
                section = L.PLAY
            n_before = int(replay[L.TRICK_NO])
            leader = int(replay[L.LEADER])
            k.apply_unchecked(replay, np.int64(a), opts)
            if int(replay[L.TRICK_NO]) > n_before:
                if int(replay[L.TRICK_NO]) == 16:
                    cards = [int(replay[L.LAST_TRICK + i]) for i in range(3)]
                    winner = int(replay[L.LAST_WINNER])
                else:
                    winner = int(replay[L.LEADER])
                    cards = [int(x) for x in _last_trick_cards(replay, leader)]
                played = ", ".join(f"{SEAT_NAMES[(leader + i) % 3]} {CARD_CODES[c]}" for i, c in enumerate(cards))
                out.append(f"  {n_before + 1:>2}. {played} -> {SEAT_NAMES[winner]}")
            continue
        k.apply_unchecked(replay, np.int64(a), opts)
        out.append(f"  {_seat(seat)} {action_to_string(int(a))}")
        if phase == L.AUCTION and replay[L.PHASE] != L.AUCTION:
            if replay[L.RAEUBER]:
                out.append("  all passed: Räuber, the blind is put aside unseen")
            else:
                d = int(replay[L.DECLARER])
                out.append(f"  declarer {_seat(d)} ({L.CONTRACT_NAMES[int(replay[L.HIGH])]}) takes "
                           f"{_cards(replay[L.BLIND_TAKEN])}; defenders get {_cards(replay[L.BLIND_REST])}")
    if row[L.PHASE] == L.TERMINAL:
        out.append("Result:")
        d = int(row[L.DECLARER])
        if d >= 0:
            out.append(f"  declarer {_seat(d)} pile: {_cards(row[L.DISCARDS] | row[L.WON + d])}")
            out.append(f"  card points: declarer {int(row[L.POINTS + d])}, defenders "
                       f"{int(row[L.POINTS + (d + 1) % 3])}")
            side, value = k.pfeife_outcome(row, game.encoded_options)
            who = {1: "declarer side", -1: "defender side", 0: "nobody"}[int(side)]
            out.append(f"  Pfeife bonus: {who}" + (f" ({int(value)})" if side else ""))
        else:
            out.append("  card points: " + ", ".join(f"{_seat(s)} {int(row[L.POINTS + s])}" for s in range(3)))
        out.append("  settlement (GP): " + ", ".join(f"{_seat(s)} {int(row[L.RESULT + s]):+d}" for s in range(3)))
    return "\n".join(out)


def _last_trick_cards(replay: np.ndarray, leader: int) -> list[int]:
    """Cards of the trick just completed: the last three actions of the history, in playing order."""
    n = int(replay[L.HIST_LEN])
    return [int(x) - L.A_PLAY for x in replay[L.HIST + n - 3 : L.HIST + n]]


__all__ = ["action_to_string", "parse_deal", "state_from_deal", "deal_of", "state_to_string", "transcript"]
