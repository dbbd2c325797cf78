"""Tatteln text: the deal notation (parse and produce), action names, the state table and transcripts.

The deal notation (docs/rules/tatteln.md §3.1) is a dict
``{"dealer": 0|1, "hands": [[codes of seat 0], [codes of seat 1]],
"turn_up": code (None under no_trump), "stock": [codes, top first]}``. The engine's draw list is
``stock + [turn_up]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tarockrl.errors import BadDealError
from tarockrl.games.dealtext import check_each_once, parse_codes
from tarockrl.games.tatteln import kernels as k
from tarockrl.games.tatteln import layout as L
from tarockrl.games.tatteln.cards import NATPOS_TO_R, RANK_LETTERS, RANK_NAMES, SUIT_NAMES, codes_of, mask_codes

SEAT_NAMES = ("A", "B")
SEQ_NAMES = {3: "Tattel", 4: "Quart", 5: "Fuss", 6: "sixieme", 7: "septieme", 8: "huitieme"}


def action_to_string(action: int, deck_size: int = 32) -> str:
    """Name of an action of the flat layout: ``PLAY HK``, ``ANNOUNCE_SEQ``, ``ANNOUNCE_SET`` or ``ROB``."""
    a = int(action)
    n = int(deck_size)
    if 0 <= a < n:
        return f"PLAY {codes_of(n)[0][a]}"
    if a == n:
        return "ANNOUNCE_SEQ"
    if a == n + 1:
        return "ANNOUNCE_SET"
    if a == n + 2:
        return "ROB"
    raise ValueError(f"action {a} is out of range [0, {n + 3})")


def key_name(cls: int, key: int, deck_size: int = 32) -> str:
    """Readable meld key: ``"Quart to the jack"`` (SEQ) or ``"three kings"`` (SET); ``"nothing"`` for 0."""
    key = int(key)
    if key == 0:
        return "nothing"
    d = 0 if int(deck_size) == 32 else 1
    length, top = divmod(key, 16)
    rank = RANK_NAMES[RANK_LETTERS[d][int(NATPOS_TO_R[d, top])]]
    if cls == 0:
        return f"{SEQ_NAMES.get(length, f'{length}-window')} to the {rank}"
    plural = "sixes" if rank == "six" else rank + "s"
    return f"{'three' if length == 3 else 'four'} {plural}"


_PACK = " for this pack"  # the end of the unknown-code message


def parse_deal(deal: Any, rules) -> tuple[int, list[int]]:
    """Validate a deal dict for ``rules``; return ``(dealer, shuffle d[0..N-1])`` (hands sorted into d)."""
    keys = {"dealer", "hands", "turn_up", "stock"}
    if not isinstance(deal, dict):
        raise BadDealError(
            f"a Tatteln deal is a dict with keys dealer, hands, turn_up, stock; got {type(deal).__name__}"
        )
    if set(deal) != keys:
        missing = sorted(keys - set(deal))
        extra = sorted(str(x) for x in set(deal) - keys)
        raise BadDealError(f"a Tatteln deal has exactly the keys dealer, hands, turn_up, stock (missing {missing}, "
                           f"extra {extra})")
    n, h = rules.deck_size, rules.hand_size
    codes, lookup = codes_of(n)
    dealer = deal["dealer"]
    if isinstance(dealer, (bool, np.bool_)) or not isinstance(dealer, (int, np.integer)) or dealer not in (0, 1):
        raise BadDealError(f"dealer must be the seat number 0 or 1, got {dealer!r}")
    dealer = int(dealer)
    hands = deal["hands"]
    if isinstance(hands, str) or not isinstance(hands, (list, tuple)) or len(hands) != 2:
        raise BadDealError("hands must be a list of two hands (one per seat)")
    hand_cards = [sorted(parse_codes(hands[s], f"hands[{s}]", h, lookup, _PACK)) for s in range(2)]
    turn_up = deal["turn_up"]
    if rules.no_trump:
        if turn_up is not None:
            raise BadDealError(f"under no_trump there is no turn-up: turn_up must be None, got {turn_up!r}")
        stock = parse_codes(deal["stock"], "stock", n - 2 * h, lookup, _PACK)
        rest = stock
    else:
        if not isinstance(turn_up, str) or turn_up.strip().upper() not in lookup:
            raise BadDealError(f"turn_up must be a card code of the {n}-card pack, got {turn_up!r}")
        stock = parse_codes(deal["stock"], "stock", n - 2 * h - 1, lookup, _PACK)
        rest = [lookup[turn_up.strip().upper()]] + stock
    everything = hand_cards[0] + hand_cards[1] + rest
    check_each_once(everything, n, codes, f"every card of the {n}-card pack must appear exactly once")
    fh = 1 - dealer
    shuffle = []
    for i in range(h):
        shuffle.append(hand_cards[fh][i])
        shuffle.append(hand_cards[dealer][i])
    return dealer, shuffle + rest


def state_from_deal(game, deal: Any) -> np.ndarray:
    """A fresh state row for an explicit deal (raises ``BadDealError`` naming the problem)."""
    dealer, shuffle = parse_deal(deal, game.rules)
    row = np.zeros(game.state_len, dtype=np.int64)
    k.init_from_deck(row, np.asarray(shuffle, dtype=np.int64), np.int64(dealer), game.encoded_options)
    return row


def shuffle_of(row: np.ndarray, deck_size: int) -> list[int]:
    """The stored shuffle ``d[0..N-1]`` of a row."""
    return [int(k.deck_card(row, np.int64(i))) for i in range(deck_size)]


def deal_of(row: np.ndarray, rules=None) -> dict:
    """The deal of a state in deal notation (hands sorted by card index)."""
    if rules is None:
        from tarockrl.games.tatteln.rules import TattelnRules

        rules = TattelnRules()
    n, h = rules.deck_size, rules.hand_size
    codes = codes_of(n)[0]
    d = shuffle_of(row, n)
    dealer = int(row[L.DEALER])
    hands: list[list[str]] = [[], []]
    for i in range(2 * h):
        seat = (1 - dealer) if i % 2 == 0 else dealer
        hands[seat].append(d[i])
    out_hands = [[codes[c] for c in sorted(x)] for x in hands]
    if rules.no_trump:
        return {"dealer": dealer, "hands": out_hands, "turn_up": None, "stock": [codes[c] for c in d[2 * h:]]}
    return {"dealer": dealer, "hands": out_hands, "turn_up": codes[d[2 * h]],
            "stock": [codes[c] for c in d[2 * h + 1:]]}


def _cards(mask: int, n: int) -> str:
    codes = mask_codes(mask, n)
    return " ".join(codes) if codes else "-"


def _seat(s: int) -> str:
    return f"{SEAT_NAMES[s]}({s})"


def state_to_string(game, row: np.ndarray) -> str:
    """A readable table of the whole state (an omniscient view, for people)."""
    rules = game.rules
    n = rules.deck_size
    opts = game.encoded_options
    codes = codes_of(n)[0]
    phase = L.PHASE_NAMES[int(row[L.PHASE])]
    dealer = int(row[L.DEALER])
    trump = int(row[L.TRUMP])
    cur = int(row[L.CUR])
    lines = [f"Tatteln  dealer {_seat(dealer)}  trumps {SUIT_NAMES[trump] if trump >= 0 else 'none'}  "
             f"phase {phase}  tricks done {int(row[L.TRICKS])}  to act {_seat(cur) if cur >= 0 else '-'}"]
    for s in range(2):
        lines.append(f"  {_seat(s)} hand: {_cards(row[L.HAND + s], n):<30} public: {_cards(row[L.REVEALED + s], n)}")
    stock = [codes[int(k.stock_card(row, np.int64(i), opts))] for i in range(int(row[L.STOCK_POS]),
                                                                               rules.stock_size)]
    bottom = int(row[L.BOTTOM])
    lines.append(f"  stock (top first): {' '.join(stock) if stock else '-'}"
                 + (f"   face-up bottom: {codes[bottom]}" if bottom >= 0 else ""))
    led = int(row[L.LED])
    if row[L.PHASE] != L.TERMINAL:
        lines.append(f"  current trick (led by {_seat(int(row[L.LEADER]))}): {codes[led] if led >= 0 else '-'}")
    for s in range(2):
        lines.append(f"  {_seat(s)} pile: {_cards(row[L.WON + s], n)}")
        lines.append(f"      card points {int(k.pile_points(row, np.int64(s), opts))}  melds "
                     f"{int(row[L.MELD + s])}  final-phase tricks {int(row[L.FINAL_WON + s])}")
    if row[L.PHASE] == L.TERMINAL:
        d0, d1, x, mult = k.deal_points(row, opts)
        lines.append(f"  deal points (adjusted): A {int(d0)}, B {int(d1)}"
                     + (f"   Matsch against {_seat(int(x))}, x{int(mult)}" if x >= 0 else ""))
        lines.append(f"  settlement: {_seat(0)} {int(row[L.RESULT]):+d}, {_seat(1)} {int(row[L.RESULT + 1]):+d}")
    return "\n".join(lines)


def describe_announcement(row: np.ndarray, n: int) -> str:
    """The last announcement of a row as text."""
    ann = int(row[L.ANN])
    cls = (ann >> L.ANN_CLASS_SHIFT) & 1
    outcome = (ann >> L.ANN_OUTCOME_SHIFT) & 3
    ka = (ann >> L.ANN_KA_SHIFT) & 255
    kb = (ann >> L.ANN_KB_SHIFT) & 255
    pts = int(row[L.ANN_PTS])
    scored = [pts & 0xFFFFFFFF, (pts >> 32) & 0xFFFFFFFF]
    text = (f"{key_name(cls, ka, n)} ({ka}) against {key_name(cls, kb, n)} ({kb}): "
            f"{L.OUTCOME_NAMES[outcome]}")
    who = [f"{SEAT_NAMES[s]} scores {scored[s]}" for s in range(2) if scored[s]]
    if who:
        text += "; " + ", ".join(who)
    else:
        text += "; nobody scores"
    return text


def transcript(game, row: np.ndarray) -> str:
    """Replay the deal's history from its start and describe every step."""
    rules = game.rules
    n = rules.deck_size
    opts = game.encoded_options
    codes = codes_of(n)[0]
    deal = deal_of(row, rules)
    replay = state_from_deal(game, deal)
    dealer = deal["dealer"]
    trump = int(replay[L.TRUMP])
    out = [f"Tatteln deal: dealer {_seat(dealer)}, forehand {_seat(1 - dealer)}, trumps "
           + (SUIT_NAMES[trump] if trump >= 0 else "none")]
    for s in range(2):
        out.append(f"  {_seat(s)}: {' '.join(deal['hands'][s])}")
    out.append(f"  turn-up: {deal['turn_up'] or '-'}   stock (top first): {' '.join(deal['stock'])}")
    history = row[L.HIST: L.HIST + min(int(row[L.HIST_LEN]), game.max_episode_length)]
    for a in history:
        a = int(a)
        seat = int(replay[L.CUR])
        name = SEAT_NAMES[seat]
        if a < n:
            lead = int(replay[L.LED])
            before_pos = int(replay[L.STOCK_POS])
            draws = []
            if lead >= 0 and before_pos < rules.stock_size:
                draws = [codes[int(k.stock_card(replay, np.int64(before_pos + i), opts))] for i in range(2)]
            k.apply_unchecked(replay, np.int64(a), opts)
            if lead < 0:
                continue
            tricks = int(replay[L.TRICKS])
            winner = int(k.last_trick_winner(replay))
            leader = 1 - seat
            out.append(f"  {tricks:>2}. {SEAT_NAMES[leader]} {codes[lead]}, {name} {codes[a]} -> "
                       f"{SEAT_NAMES[winner]}")
            if draws and tricks < rules.num_tricks:
                out.append(f"      {SEAT_NAMES[winner]} draws {draws[0]}, {SEAT_NAMES[1 - winner]} draws {draws[1]}"
                           + ("; the stock is empty" if int(replay[L.STOCK_POS]) == rules.stock_size else ""))
        elif a == n + 2:
            taken = int(replay[L.BOTTOM])
            k.apply_unchecked(replay, np.int64(a), opts)
            out.append(f"  {int(replay[L.TRICKS]) + 1:>2}. {name} ROB: takes {codes[taken]}, leaves "
                       f"{codes[int(replay[L.BOTTOM])]} face up")
        else:
            k.apply_unchecked(replay, np.int64(a), opts)
            out.append(f"  {int(replay[L.TRICKS]) + 1:>2}. {name} {action_to_string(a, n)}: "
                       f"{describe_announcement(replay, n)}")
    if row[L.PHASE] == L.TERMINAL:
        d0, d1, x, mult = k.deal_points(row, opts)
        out.append("Result:")
        for s in range(2):
            out.append(f"  {_seat(s)}: card points {int(k.pile_points(row, np.int64(s), opts))}, melds "
                       f"{int(row[L.MELD + s])}, final-phase tricks {int(row[L.FINAL_WON + s])}")
        if x >= 0:
            out.append(f"  Matsch against {_seat(int(x))}: settlement x{int(mult)}")
        out.append(f"  deal points (adjusted): {_seat(0)} {int(d0)}, {_seat(1)} {int(d1)}")
        out.append(f"  settlement: {_seat(0)} {int(row[L.RESULT]):+d}, {_seat(1)} {int(row[L.RESULT + 1]):+d}")
    return "\n".join(out)


__all__ = ["action_to_string", "key_name", "parse_deal", "state_from_deal", "deal_of", "state_to_string",
           "transcript"]
