"""A slow, independent pure-Python reference of Dreierles, written from the rules text only (not from the kernels).

It holds a deal in the game's deal notation, lists the legal actions (flat 117-action layout, ascending), applies
actions and computes the settlement. Used by ``test_reference_review.py`` to cross-check the numba engine action by
action. Clarity over speed: cards are ints 0..53, hands are Python sets.
"""

from __future__ import annotations

# --- cards -------------------------------------------------------------------------------------------------------
_TRUMP_CODES = [f"T{i}" for i in range(1, 22)] + ["ST"]
_RED = ["4", "3", "2", "1", "J", "N", "Q", "K"]
_BLACK = ["7", "8", "9", "10", "J", "N", "Q", "K"]
CODES = _TRUMP_CODES + [f"H{r}" for r in _RED] + [f"D{r}" for r in _RED] + [f"C{r}" for r in _BLACK] + [
    f"S{r}" for r in _BLACK
]
INDEX = {c: i for i, c in enumerate(CODES)}
assert len(CODES) == 54

PFEIFE, T21, ST = 0, 20, 21
KINGS = {29, 37, 45, 53}


def is_trump(c: int) -> bool:
    return c <= 21


def suit(c: int) -> int:
    return 4 if c <= 21 else (c - 22) // 8


def value(c: int) -> int:
    if c in (PFEIFE, T21, ST) or c in KINGS:
        return 5
    if c <= 21:
        return 1
    rank = (c - 22) % 8  # 0..7 low to high; 4 = J, 5 = N, 6 = Q, 7 = K
    return {4: 2, 5: 3, 6: 4, 7: 5}.get(rank, 1)


assert sum(value(c) for c in range(54)) == 106

PLAIN_NON_KING = {c for c in range(22, 54) if c not in KINGS}
MID_TRUMPS = set(range(1, 20))

# --- actions -----------------------------------------------------------------------------------------------------
PASS, DREIER, ZWEIER, EINER, SOLO = 0, 1, 2, 3, 4
A_DISCARD = 5
ANNOUNCE, NO_ANNOUNCE = 59, 60
KNOCK, NO_KNOCK = 61, 62
A_PLAY = 63
BLIND_TAKEN = {DREIER: 3, ZWEIER: 2, EINER: 1, SOLO: 0}

DEFAULTS = {
    "counting_method": "dreierles",
    "contract_factors": (1, 2, 3, 4),
    "min_one_unit_on_loss": False,
    "knock_eligibility": "bidders",
    "max_defender_knocks": 1,
    "allow_reknock": True,
    "knock_doubles_bonuses": False,
    "pfeife_announce_timing": "before_knocks",
    "pfeife_value_silent": 1,
    "pfeife_value_announced": 2,
    "pfeife_defender_loss_scores_declarer": True,
    "hand_bonus_basis": "play_start",
    "bonus_zehn_druck": 1,
    "zehn_druck_min_trumps": 10,
    "bonus_koenigsrolle": 1,
    "bonus_drulle": 1,
    "raeuber_restrictions": "steinmauern",
    "raeuber_pfeife_rule": "by_trick_3",
    "raeuber_pfeife_carry_over": True,
    "raeuber_21_rule": "not_before_stiess",
    "raeuber_base": 2,
    "raeuber_max_knocks": 3,
    "raeuber_bonuses": False,
    "last_round_raeuber_or_solo": False,
    "last_round_raeuber_base": 4,
}


def raw_points(cards) -> tuple[int, int]:
    """(F, n) of a pile."""
    cards = list(cards)
    return sum(value(c) for c in cards), len(cards)


class Reference:
    """One Dreierles deal under the given options (a subset of the spec's options; defaults elsewhere)."""

    def __init__(self, deal: dict, **options) -> None:
        self.o = dict(DEFAULTS)
        for k, v in options.items():
            if k not in DEFAULTS:
                raise KeyError(k)
            self.o[k] = v
        self.dealer = int(deal["dealer"])
        self.dealt = [{INDEX[c] for c in h} for h in deal["hands"]]
        self.hands = [set(h) for h in self.dealt]
        self.blind = [INDEX[c] for c in deal["blind"]]
        self.fh = (self.dealer + 1) % 3
        self.order = [self.fh, (self.dealer + 2) % 3, self.dealer]
        self.last_round = bool(self.o["last_round_raeuber_or_solo"])
        # auction
        self.status = {s: "silent" for s in range(3)}
        self.high = 0  # 0 = no bid
        self.auction_pos = 0
        self.declarer = -1
        self.contract = 0
        self.raeuber = False
        # exchange
        self.discards: list[int] = []
        self.to_discard = 0
        self.def_pile: list[int] = []
        self.announced = False
        self.announce_done = False
        # knocking
        self.knocks = 0
        self.knock_queue: list[int] = []
        self.defender_knocked = False
        # play
        self.piles: list[list[int]] = [[], [], []]
        self.trick: list[tuple[int, int]] = []
        self.trick_no = 1
        self.leader = -1
        self.history_tricks: list[list[tuple[int, int]]] = []
        self.stiess_played = False
        self.n_trump_led = 0
        self.play_start_hands: list[set[int]] | None = None
        self.phase = "auction"
        self.cur = self.order[0]
        self.result: list[float] | None = None

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[int]:
        p = self.phase
        if p == "terminal":
            return []
        if p == "auction":
            if self.last_round:
                return [PASS, SOLO]
            return [PASS] + [c for c in (DREIER, ZWEIER, EINER, SOLO) if c > self.high]
        if p == "discard":
            hand = self.hands[self.declarer]
            plain = hand & PLAIN_NON_KING
            legal = plain if len(plain) >= self.to_discard else plain | (hand & MID_TRUMPS)
            return sorted(A_DISCARD + c for c in legal)
        if p == "announce":
            return [ANNOUNCE, NO_ANNOUNCE]
        if p in ("knock", "reknock", "raeuber_knock"):
            return [KNOCK, NO_KNOCK]
        if p == "play":
            return sorted(A_PLAY + c for c in self.legal_cards())
        raise AssertionError(p)

    def base_legal(self, hand: set[int]) -> set[int]:
        if not self.trick:
            return set(hand)
        led = self.trick[0][1]
        if is_trump(led):
            t = {c for c in hand if is_trump(c)}
            return t if t else set(hand)
        s = {c for c in hand if suit(c) == suit(led)}
        if s:
            return s
        t = {c for c in hand if is_trump(c)}
        return t if t else set(hand)

    def legal_cards(self) -> set[int]:
        hand = self.hands[self.cur]
        L = self.base_legal(hand)
        if not self.raeuber:
            return L
        o = self.o
        t = self.trick_no
        in_trick = {c for _, c in self.trick}
        if o["raeuber_restrictions"] == "none":
            return L
        if o["raeuber_restrictions"] == "iffezheim":
            if len(L) == 1:
                return L
            if ST in L and T21 in in_trick:
                L = L - {ST}
            if T21 in L and ST in in_trick:
                L = L - {T21}
            oblig = L & {ST, T21}
            if t >= 3:
                oblig |= L & {PFEIFE}
            return oblig if oblig else L
        # steinmauern
        if o["raeuber_pfeife_rule"] == "by_trick_3":
            due = (t >= 3) if o["raeuber_pfeife_carry_over"] else (t == 3)
            if due and PFEIFE in L:
                return {PFEIFE}
        else:  # third_trump_trick
            if self.trick and is_trump(self.trick[0][1]) and self.n_trump_led >= 3 and PFEIFE in L:
                return {PFEIFE}
        st_in_trick = ST in in_trick
        other_trumps = {c for c in hand if is_trump(c) and c != T21}
        if T21 in L and other_trumps:
            if o["raeuber_21_rule"] == "not_before_stiess" and not (self.stiess_played or st_in_trick):
                L = L - {T21}
            if o["raeuber_21_rule"] == "not_with_stiess" and st_in_trick:
                L = L - {T21}
        assert L
        return L

    def current_player(self) -> int:
        return -1 if self.phase == "terminal" else self.cur

    def is_terminal(self) -> bool:
        return self.phase == "terminal"

    # ------------------------------------------------------------------ transitions
    def apply(self, a: int) -> None:
        assert a in self.legal_actions(), (a, self.phase, self.legal_actions())
        p = self.phase
        if p == "auction":
            seat = self.cur
            if a == PASS:
                self.status[seat] = "passed"
            else:
                self.status[seat] = "bid"
                self.high = a
                self.declarer = seat
            self.auction_pos += 1
            if a == SOLO or self.auction_pos == 3:
                self._end_auction()
            else:
                self.cur = self.order[self.auction_pos]
        elif p == "discard":
            c = a - A_DISCARD
            self.hands[self.declarer].remove(c)
            self.discards.append(c)
            self.to_discard -= 1
            if self.to_discard == 0:
                self._after_exchange()
        elif p == "announce":
            self.announced = a == ANNOUNCE
            self.announce_done = True
            if self.o["pfeife_announce_timing"] == "before_knocks":
                self._start_knocking()
            else:
                self._start_play()
        elif p == "knock":
            if a == KNOCK:
                self.knocks += 1
                self.defender_knocked = True
                if self.o["max_defender_knocks"] == 1:
                    self.knock_queue = []
            self._next_knocker()
        elif p == "reknock":
            if a == KNOCK:
                self.knocks += 1
            self._after_knocking()
        elif p == "raeuber_knock":
            if a == KNOCK:
                self.knocks += 1
            self._next_raeuber_knocker()
        elif p == "play":
            self._play(a - A_PLAY)

    def _end_auction(self) -> None:
        if self.high == 0:
            self.raeuber = True
            self.knock_queue = list(self.order)
            if self.o["raeuber_max_knocks"] == 0:
                self.knock_queue = []
            self._next_raeuber_knocker()
            return
        self.contract = self.high
        d = self.declarer
        k = BLIND_TAKEN[self.contract]
        self.hands[d] |= set(self.blind[:k])
        self.def_pile = list(self.blind[k:])
        if k > 0:
            self.phase = "discard"
            self.cur = d
            self.to_discard = k
        else:
            self._after_exchange()

    def _after_exchange(self) -> None:
        if self.o["pfeife_announce_timing"] == "before_knocks" and PFEIFE in self.hands[self.declarer]:
            self.phase = "announce"
            self.cur = self.declarer
            return
        self._start_knocking()

    def _eligible(self, s: int) -> bool:
        if self.last_round:
            return self.status[s] == "silent"
        if self.o["knock_eligibility"] == "bidders":
            return self.status[s] == "bid"
        return self.status[s] != "passed"

    def _start_knocking(self) -> None:
        d = self.declarer
        self.knock_queue = [s for s in ((d + 1) % 3, (d + 2) % 3) if self._eligible(s)]
        self._next_knocker()

    def _next_knocker(self) -> None:
        if self.knock_queue:
            self.phase = "knock"
            self.cur = self.knock_queue.pop(0)
            return
        if self.defender_knocked and self.o["allow_reknock"]:
            self.phase = "reknock"
            self.cur = self.declarer
            return
        self._after_knocking()

    def _after_knocking(self) -> None:
        if (
            self.o["pfeife_announce_timing"] == "after_knocks"
            and not self.announce_done
            and PFEIFE in self.hands[self.declarer]
        ):
            self.phase = "announce"
            self.cur = self.declarer
            return
        self._start_play()

    def _next_raeuber_knocker(self) -> None:
        if self.knock_queue and self.knocks < self.o["raeuber_max_knocks"]:
            self.phase = "raeuber_knock"
            self.cur = self.knock_queue.pop(0)
            return
        self._start_play()

    def _start_play(self) -> None:
        self.phase = "play"
        self.play_start_hands = [set(h) for h in self.hands]
        self.leader = self.fh if self.raeuber else self.declarer
        self.cur = self.leader
        self._begin_trick()

    def _begin_trick(self) -> None:
        self.trick = []

    def _play(self, c: int) -> None:
        seat = self.cur
        if not self.trick and is_trump(c):
            self.n_trump_led += 1
        self.hands[seat].remove(c)
        self.trick.append((seat, c))
        if len(self.trick) < 3:
            self.cur = (seat + 1) % 3
            return
        cards = [x for _, x in self.trick]
        trumps = [(x, s) for s, x in self.trick if is_trump(x)]
        if trumps:
            winner = max(trumps)[1]
        else:
            led_suit = suit(cards[0])
            winner = max((x, s) for s, x in self.trick if suit(x) == led_suit)[1]
        self.piles[winner].extend(cards)
        if ST in cards:
            self.stiess_played = True
        self.history_tricks.append(list(self.trick))
        self.last_winner = winner
        if self.trick_no == 16:
            self.phase = "terminal"
            self.cur = -1
            self._score()
            return
        self.trick_no += 1
        self.leader = winner
        self.cur = winner
        self._begin_trick()

    # ------------------------------------------------------------------ scoring
    def _bonus_total(self, hand: set[int]) -> int:
        o = self.o
        b = 0
        if sum(1 for c in hand if is_trump(c)) >= o["zehn_druck_min_trumps"]:
            b += o["bonus_zehn_druck"]
        if KINGS <= hand:
            b += o["bonus_koenigsrolle"]
        if {PFEIFE, T21, ST} <= hand:
            b += o["bonus_drulle"]
        return b

    def _pile_points(self, cards) -> int:
        f, n = raw_points(cards)
        if self.o["counting_method"] == "exact_thirds":
            return 3 * f - 2 * n
        return f - 2 * (n // 3) - (1 if n % 3 else 0)

    def _score(self) -> None:
        o = self.o
        delta = [0, 0, 0]

        def pay(a: int, b: int, x: int) -> None:
            delta[a] -= x
            delta[b] += x

        if self.raeuber:
            pts = [self._pile_points(p) for p in self.piles]
            r = o["last_round_raeuber_base"] if self.last_round else o["raeuber_base"]
            mult = 2**self.knocks
            m = max(pts)
            losers = [i for i in range(3) if pts[i] == m]
            if len(losers) == 1:
                lo = losers[0]
                for q in range(3):
                    if q != lo:
                        pay(lo, q, r * mult)
            elif len(losers) == 2:
                third = next(i for i in range(3) if i not in losers)
                for lo in losers:
                    pay(lo, third, (r // 2) * mult)
            if o["raeuber_bonuses"]:
                bm = mult if o["knock_doubles_bonuses"] else 1
                for p in range(3):
                    b = self._bonus_total(self.dealt[p])
                    for q in range(3):
                        if q != p:
                            pay(q, p, b * bm)
            assert sum(delta) == 0
            self.result = [float(x) for x in delta]
            return

        d = self.declarer
        defenders = [s for s in range(3) if s != d]
        dpile = list(self.discards) + self.piles[d]
        fpile = list(self.def_pile) + self.piles[defenders[0]] + self.piles[defenders[1]]
        assert len(dpile) + len(fpile) == 54
        P = self._pile_points(dpile)
        Q = self._pile_points(fpile)
        if o["counting_method"] == "exact_thirds":
            assert P + Q == 210
            win = P >= 107
            excess = P - 105 if win else max(0, 105 - P)
            units = (excess + 14) // 15
        else:
            assert P + Q == 70
            win = P >= 36
            excess = P - 35 if win else 35 - P
            units = (excess + 4) // 5
        if not win and o["min_one_unit_on_loss"]:
            units = max(units, 1)
        factor = o["contract_factors"][self.contract - 1]
        S = units * factor * 2**self.knocks
        sign = 1 if win else -1
        bm = 2**self.knocks if o["knock_doubles_bonuses"] else 1
        for f in defenders:
            pay(f, d, sign * S)
        # Pfeife
        last = self.history_tricks[15]
        winner16 = self.last_winner
        pf_player = next((s for s, c in last if c == PFEIFE), None)
        side = None
        if self.announced:
            v = o["pfeife_value_announced"]
            side = "declarer" if (pf_player == d and winner16 == d) else "defenders"
        else:
            v = o["pfeife_value_silent"]
            if pf_player is not None:

                def side_of(s: int) -> str:
                    return "declarer" if s == d else "defenders"

                if winner16 == pf_player:
                    side = side_of(pf_player)
                elif side_of(winner16) != side_of(pf_player):
                    if side_of(pf_player) == "defenders" and not o["pfeife_defender_loss_scores_declarer"]:
                        side = None
                    else:
                        side = side_of(winner16)
        if side == "declarer":
            for f in defenders:
                pay(f, d, v * bm)
        elif side == "defenders":
            for f in defenders:
                pay(d, f, v * bm)
        basis = self.play_start_hands if o["hand_bonus_basis"] == "play_start" else self.dealt
        for p in range(3):
            b = self._bonus_total(basis[p])
            for q in range(3):
                if q != p:
                    pay(q, p, b * bm)
        assert sum(delta) == 0
        self.result = [float(x) for x in delta]

    def returns(self) -> list[float]:
        return list(self.result) if self.result is not None else [0.0, 0.0, 0.0]
