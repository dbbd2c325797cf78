"""Dreiertarock text: the deal notation (parse and produce), action names, the state table and transcripts.

Action names are the spec's identifiers (``PASS``, ``HOLD``, ``BID_EINSER`` .. ``BID_SOLO_VALAT``,
``TAKE_PACKET_0``, ``ANNOUNCE_PAGAT``, ``DOUBLE_GAME``, ``GOOD`` ...) and, for cards, ``PLAY HK`` /
``DISCARD D4``. :func:`parse_action` also accepts ``PLAY_HK`` / ``DISCARD_D4``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tarockrl.errors import BadDealError, IllegalActionError
from tarockrl.games.dealtext import check_each_once, parse_codes
from tarockrl.games.dreiertarock import kernels as k
from tarockrl.games.dreiertarock import layout as L
from tarockrl.games.dreiertarock.cards import CARD_CODES, CODE_TO_CARD, NUM_CARDS, mask_codes
from tarockrl.games.dreiertarock.rules import O_AUTO_FORCED

ROLE_NAMES = ("forehand", "middlehand", "rearhand")
DEAL_KEYS = ("dealer", "hands", "talon_packets")


def action_to_string(action: int) -> str:
    """Name of a Dreiertarock action of the flat layout."""
    a = int(action)
    if L.A_PLAY <= a < L.A_PLAY + NUM_CARDS:
        return f"PLAY {CARD_CODES[a - L.A_PLAY]}"
    if L.A_DISCARD <= a < L.A_DISCARD + NUM_CARDS:
        return f"DISCARD {CARD_CODES[a - L.A_DISCARD]}"
    if a == L.A_PASS:
        return "PASS"
    if a == L.A_HOLD:
        return "HOLD"
    if L.A_BID_EINSER <= a <= L.A_BID_SOLO_VALAT:
        return f"BID_{L.LEVEL_ACTION_NAMES[a - L.A_BID]}"
    if a in (L.A_TAKE_PACKET, L.A_TAKE_PACKET + 1):
        return f"TAKE_PACKET_{a - L.A_TAKE_PACKET}"
    if L.A_ANNOUNCE <= a < L.A_DOUBLE:
        return f"ANNOUNCE_{L.BIRD_NAMES[a - L.A_ANNOUNCE]}"
    if L.A_DOUBLE <= a < L.A_GOOD:
        return f"DOUBLE_{L.ITEM_NAMES[a - L.A_DOUBLE]}"
    if a == L.A_GOOD:
        return "GOOD"
    raise ValueError(f"action {a} is out of range [0, {L.NUM_ACTIONS})")


_NAME_TO_ACTION = {action_to_string(a): a for a in range(L.NUM_ACTIONS)}


def parse_action(name: str) -> int:
    """The action index of a name such as ``"BID_ZWEIER"``, ``"PLAY HK"`` or ``"DISCARD_D4"``."""
    if not isinstance(name, str):
        raise IllegalActionError(f"an action name must be a string, got {type(name).__name__}")
    key = " ".join(name.strip().upper().split())
    for prefix in ("PLAY_", "DISCARD_"):
        if key.startswith(prefix) and key[len(prefix):] in CODE_TO_CARD:
            key = prefix[:-1] + " " + key[len(prefix):]
    if key not in _NAME_TO_ACTION:
        raise IllegalActionError(f"unknown Dreiertarock action name {name!r}")
    return _NAME_TO_ACTION[key]


def parse_deal(deal: Any) -> tuple[int, list[int], list[int]]:
    """Validate a deal dict; return ``(dealer, hand masks per seat, [packet 0 mask, packet 1 mask])``."""
    if not isinstance(deal, dict):
        raise BadDealError(
            f"a Dreiertarock deal is a dict with keys dealer, hands, talon_packets; got {type(deal).__name__}"
        )
    keys = set(deal)
    if keys != set(DEAL_KEYS):
        missing = sorted(set(DEAL_KEYS) - keys)
        extra = sorted(str(x) for x in keys - set(DEAL_KEYS))
        raise BadDealError(
            f"a Dreiertarock deal has exactly the keys dealer, hands, talon_packets (missing {missing}, extra {extra})"
        )
    dealer = deal["dealer"]
    if isinstance(dealer, (bool, np.bool_)) or not isinstance(dealer, (int, np.integer)) or not 0 <= dealer <= 2:
        raise BadDealError(f"dealer must be a seat number 0, 1 or 2, got {dealer!r}")
    hands = deal["hands"]
    if isinstance(hands, str) or not isinstance(hands, (list, tuple)) or len(hands) != 3:
        raise BadDealError("hands must be a list of three hands (one per seat, indexed by seat)")
    hand_cards = [parse_codes(h, f"hands[{s}]", 16, CODE_TO_CARD) for s, h in enumerate(hands)]
    packets = deal["talon_packets"]
    if isinstance(packets, str) or not isinstance(packets, (list, tuple)) or len(packets) != 2:
        raise BadDealError("talon_packets must be a list of two packets of three cards")
    packet_cards = [parse_codes(p, f"talon_packets[{i}]", 3, CODE_TO_CARD) for i, p in enumerate(packets)]
    everything = [c for h in hand_cards for c in h] + [c for p in packet_cards for c in p]
    check_each_once(everything, NUM_CARDS, CARD_CODES)
    hand_masks = [sum(1 << c for c in h) for h in hand_cards]
    packet_masks = [sum(1 << c for c in p) for p in packet_cards]
    return int(dealer), hand_masks, packet_masks


def init_row(row: np.ndarray, dealer: int, hands: list[int], packets: list[int], opts: np.ndarray) -> None:
    """Fill ``row`` with the start of the given deal (masks as returned by :func:`parse_deal`)."""
    i64 = np.int64
    k.init_from_deal(row, i64(hands[0]), i64(hands[1]), i64(hands[2]), i64(packets[0]), i64(packets[1]),
                     i64(dealer), opts)


def state_from_deal(game, deal: Any) -> np.ndarray:
    """A fresh state row for an explicit deal (raises ``BadDealError`` naming the problem)."""
    dealer, hands, packets = parse_deal(deal)
    row = np.zeros(L.STATE_LEN, dtype=np.int64)
    init_row(row, dealer, hands, packets, game.encoded_options)
    return row


def deal_of(row: np.ndarray) -> dict:
    """The deal of a state in deal notation (codes in index order)."""
    return {
        "dealer": int(row[L.DEALER]),
        "hands": [mask_codes(row[L.DEALT + s]) for s in range(3)],
        "talon_packets": [mask_codes(row[L.PACKET]), mask_codes(row[L.PACKET + 1])],
    }


def _cards(mask: int) -> str:
    codes = mask_codes(mask)
    return " ".join(codes) if codes else "-"


def _seat(s: int) -> str:
    return f"s{s}"


def _contract_name(row: np.ndarray) -> str:
    if row[L.TRISCHAKEN]:
        return "Trischaken"
    if row[L.THROWN_IN]:
        return "thrown in"
    if row[L.VOID]:
        return "void deal"
    return L.LEVEL_NAMES[int(row[L.CONTRACT])]


def state_to_string(game, row: np.ndarray) -> str:
    """A readable table of the whole state (an omniscient view, for people)."""
    phase = L.PHASE_NAMES[int(row[L.PHASE])]
    dealer = int(row[L.DEALER])
    cur = int(row[L.CUR])
    lines = [f"Dreiertarock  dealer {_seat(dealer)}  phase {phase}  to act {_seat(cur) if cur >= 0 else '-'}"]
    for s in range(3):
        role = ROLE_NAMES[(s - dealer - 1) % 3]
        lines.append(f"  {_seat(s)} ({role:<10}) hand: {_cards(row[L.HAND + s])}")
    lines.append(f"  talon packet 0: {_cards(row[L.PACKET])}   packet 1: {_cards(row[L.PACKET + 1])}")
    holder = int(row[L.HOLDER])
    lines.append(f"  auction: level {L.LEVEL_NAMES[int(row[L.LEVEL])]}, holder "
                 f"{_seat(holder) if holder >= 0 else '-'}, passed "
                 f"{[s for s in range(3) if (int(row[L.PASSED]) >> s) & 1]}")
    d = int(row[L.DECLARER])
    if d >= 0:
        taken = int(row[L.TAKEN])
        lines.append(f"  declarer {_seat(d)} plays {_contract_name(row)}; packet taken "
                     f"{taken if taken >= 0 else '-'}; discards {_cards(row[L.DISCARDS])}; "
                     f"defenders' talon cards {_cards(row[L.DEF_TALON])}")
        ann = ", ".join(f"{L.BIRD_NAMES[b]} by {_seat(int(row[L.ANN_BY + b]))}"
                        for b in range(3) if row[L.ANN_BY + b] >= 0)
        lev = ", ".join(f"{L.ITEM_NAMES[i]} {int(row[L.KLEVEL + i])}" for i in range(4) if row[L.KLEVEL + i])
        lines.append(f"  announced: {ann or '-'}   doubling levels: {lev or '-'}")
    elif row[L.PHASE] != L.AUCTION:
        lines.append(f"  {_contract_name(row)}")
    if row[L.PHASE] in (L.PLAY, L.TERMINAL) and not row[L.THROWN_IN] and not row[L.VOID]:
        trick = [CARD_CODES[int(row[L.TRICK_CARD + i])] for i in range(int(row[L.TRICK_N]))]
        lead = int(row[L.LEADER])
        lines.append(f"  tricks done: {int(row[L.TRICK_NO])}  current trick (led by "
                     f"{_seat(lead) if lead >= 0 else '-'}): {' '.join(trick) if trick else '-'}")
        for s in range(3):
            lines.append(f"  {_seat(s)} won: {_cards(row[L.WON + s])}")
    if row[L.PHASE] == L.TERMINAL:
        if d >= 0:
            lines.append(f"  card points: declarer {int(row[L.POINTS + d])}, defenders "
                         f"{int(row[L.POINTS + (d + 1) % 3])}")
        elif row[L.TRISCHAKEN]:
            lines.append("  card points: " + ", ".join(f"{_seat(s)} {int(row[L.POINTS + s])}" for s in range(3)))
        lines.append("  settlement: " + ", ".join(f"{_seat(s)} {int(row[L.RESULT + s]):+d}" for s in range(3)))
    return "\n".join(lines)


def transcript(game, row: np.ndarray) -> str:
    """Replay the deal's history from its start and describe every step."""
    opts = game.encoded_options.copy()
    opts[O_AUTO_FORCED] = 0  # the history holds the forced actions too
    opts.setflags(write=False)  # the kernels' compiled signature takes a read-only options array
    dealer, hands, packets = parse_deal(deal_of(row))
    replay = np.zeros(L.STATE_LEN, dtype=np.int64)
    init_row(replay, dealer, hands, packets, opts)
    out = [f"Dreiertarock deal: dealer {_seat(dealer)}, forehand {_seat((dealer + 1) % 3)}"]
    for s in range(3):
        out.append(f"  {_seat(s)}: {_cards(hands[s])}")
    out.append(f"  talon: packet 0 {_cards(packets[0])}, packet 1 {_cards(packets[1])}")
    if row[L.VOID]:
        out.append("  void deal: a hand without tarock (redeal_without_tarock)")
    history = row[L.HIST : L.HIST + min(int(row[L.HIST_LEN]), L.MAX_EPISODE_LENGTH)]
    titles = {L.AUCTION: "Auction:", L.TALON: "Talon:", L.DISCARD: "Discard:", L.ANNOUNCE: "Announcements:",
              L.PLAY: "Play:"}
    section = None
    trick: list[str] = []
    for a in history:
        phase = int(replay[L.PHASE])
        seat = int(replay[L.CUR])
        if phase != section:
            out.append(titles[phase])
            section = phase
        if phase == L.PLAY:
            n_before = int(replay[L.TRICK_NO])
            trick.append(f"{_seat(seat)} {CARD_CODES[int(a)]}")
            k.apply_unchecked(replay, np.int64(a), opts)
            if int(replay[L.TRICK_NO]) > n_before:
                winner = _trick_winner(replay, n_before, seat)
                out.append(f"  {n_before + 1:>2}: {', '.join(trick)} -> {_seat(winner)}")
                trick = []
            continue
        k.apply_unchecked(replay, np.int64(a), opts)
        text = action_to_string(int(a))
        if phase == L.DISCARD and int(a) - L.A_DISCARD <= 21:
            text += " (face up)"
        out.append(f"  {_seat(seat)} {text}")
        if phase == L.AUCTION and replay[L.PHASE] != L.AUCTION:
            d = int(replay[L.DECLARER])
            if d >= 0:
                out.append(f"  declarer {_seat(d)}: {_contract_name(replay)}")
            else:
                out.append(f"  all passed: {_contract_name(replay)}")
        if phase == L.TALON:
            out.append(f"  defenders get {_cards(replay[L.DEF_TALON])}")
    if trick:
        out.append(f"  current trick: {', '.join(trick)}")
    if row[L.PHASE] == L.TERMINAL:
        out.append("Result:")
        d = int(row[L.DECLARER])
        if d >= 0:
            out.append(f"  declarer {_seat(d)} pile: {_cards(row[L.DISCARDS] | row[L.WON + d])}")
            out.append(f"  card points: declarer {int(row[L.POINTS + d])}, defenders "
                       f"{int(row[L.POINTS + (d + 1) % 3])}; declarer tricks {int(row[L.DECL_TRICKS])}")
        elif row[L.TRISCHAKEN]:
            out.append("  card points: " + ", ".join(f"{_seat(s)} {int(row[L.POINTS + s])}" for s in range(3)))
        out.append("  settlement: " + ", ".join(f"{_seat(s)} {int(row[L.RESULT + s]):+d}" for s in range(3)))
    return "\n".join(out)


def _trick_winner(replay: np.ndarray, n_before: int, last_seat: int) -> int:
    """Winner of the trick just completed in ``replay`` (whose last card was played by ``last_seat``)."""
    if replay[L.PHASE] != L.TERMINAL:
        return int(replay[L.LEADER])
    # the deal ended with this trick: find which seat's won cards grew
    n = int(replay[L.HIST_LEN])
    cards = [int(x) - L.A_PLAY for x in replay[L.HIST + n - 3 : L.HIST + n]]
    for s in range(3):
        if (int(replay[L.WON + s]) >> cards[0]) & 1:
            return s
    return last_seat  # pragma: no cover


__all__ = [
    "action_to_string", "parse_action", "parse_deal", "state_from_deal", "deal_of", "state_to_string",
    "transcript",
]
