"""Independent, slow, pure-Python reference of Dreiertarock (review copy).

Written from the rules specification alone, without looking at the engine's kernels or at the other reference in
this folder. Plain Python sets, lists and dicts; no numba, no numpy. It holds one deal in the canonical deal
notation (``dealer``, ``hands`` by seat, ``talon_packets``), gives the sorted legal actions of the seat to act,
applies actions and computes the settlement.

Options: every rules option except ``auto_play_forced`` (an environment convenience that changes only which
decision points are presented) is honoured; pass them as keyword arguments.

Reading used where the spec leaves a gap: under Trischaken with ``kaiserstich`` the Stichzwang set can be the
Pagat alone while other tarocks are held; then the Pagat restriction wins and the Stichzwang lapses (the legal
set is the section-5 set without the Pagat), so that the legal set is never empty.
"""

from __future__ import annotations

RED = ["4", "3", "2", "1", "J", "N", "Q", "K"]
BLACK = ["7", "8", "9", "10", "J", "N", "Q", "K"]
CODES = (
    [f"T{i}" for i in range(1, 22)]
    + ["SKS"]
    + ["H" + r for r in RED]
    + ["D" + r for r in RED]
    + ["C" + r for r in BLACK]
    + ["S" + r for r in BLACK]
)
INDEX = {c: i for i, c in enumerate(CODES)}
assert len(CODES) == 54

PAGAT, UHU, KAKADU, MOND, SKUES = 0, 1, 2, 20, 21
KINGS = frozenset({29, 37, 45, 53})
TRULL = frozenset({PAGAT, MOND, SKUES})
TAROCKS = frozenset(range(22))
NONTRULL_TAROCK = frozenset(range(1, 20))
PLAIN_NONKING = frozenset(range(22, 54)) - KINGS


def points(c: int) -> int:
    if c in TRULL or c in KINGS:
        return 5
    if c < 22:
        return 1
    r = (c - 22) % 8
    return {4: 2, 5: 3, 6: 4}.get(r, 1)


def suit(c: int) -> int:
    return -1 if c < 22 else (c - 22) // 8


def thirds(pile) -> int:
    return 3 * sum(points(c) for c in pile) - 2 * len(pile)


# flat action layout (spec section 9.1)
PLAY0, DISCARD0 = 0, 54
PASS, HOLD = 108, 109
BID0 = 109  # BID_<L> = 109 + L, L = 1..7
TAKE0 = 117
ANNOUNCE0 = 119  # + bird (0 Pagat, 1 Uhu, 2 Kakadu)
DOUBLE_GAME = 122  # DOUBLE_<bird> = 123 + bird
GOOD = 126

DEFAULTS = dict(
    all_pass_rule="redeal",
    trischaken_value=30,
    forehand_must_bid=False,
    discard_tarock_rule="forced_only",
    redeal_without_tarock=False,
    kontra_enabled=True,
    kontra_max_level=3,
    defender_announcements=True,
    announce_first_turn_only=True,
    trull_counts_non_trick_cards=False,
    silent_bird_failure_penalty=False,
    valat_factor=4,
    valat_cancels_silent_bonuses=True,
    solo_bonus_factor=1,
    solo_declarer_leads=False,
    kaiserstich=False,
    solo_valat_early_end=True,
)

GAME_VALUE = {1: 30, 2: 40, 3: 50, 4: 60, 5: 70, 6: 120, 7: 960}
BIRDS = [(0, PAGAT, 16, 40, 80), (1, UHU, 15, 60, 120), (2, KAKADU, 14, 80, 160)]
DECL, DEF = 0, 1


class RefDreiertarock:
    def __init__(self, deal: dict, **options):
        unknown = set(options) - set(DEFAULTS)
        if unknown:
            raise ValueError(f"unknown options {unknown}")
        self.o = dict(DEFAULTS, **options)
        self.dealer = int(deal["dealer"])
        self.hands = [set(INDEX[c] for c in h) for h in deal["hands"]]
        self.packets = [[INDEX[c] for c in p] for p in deal["talon_packets"]]
        self.F = (self.dealer + 1) % 3
        self.phase = "auction"
        self.turn = self.F
        self.history: list[int] = []
        # auction
        self.L = 0
        self.H = -1
        self.passed = [False] * 3
        self.spoken = [False] * 3
        # contract
        self.declarer = -1
        self.contract = 0
        self.discards: list[int] = []
        self.def_extra: list[int] = []
        # announcements
        self.announced: dict[int, int] = {}
        self.k = {"GAME": 0}
        self.had_turn = [False] * 3
        self.goods = 0
        # play
        self.trischaken = False
        self.tricks: list[list[tuple[int, int]]] = []  # list of [(seat, card)] * 3
        self.winners: list[tuple[int, int]] = []  # (seat, card)
        self.trick: list[tuple[int, int]] = []
        self.delta = [0, 0, 0]
        if self.o["redeal_without_tarock"] and any(not (h & TAROCKS) for h in self.hands):
            self._finish([0, 0, 0])

    # ---------------------------------------------------------------- helpers
    def rank(self, s: int) -> int:
        return (s - self.dealer - 1) % 3

    def side(self, s: int) -> int:
        return DECL if s == self.declarer else DEF

    def _finish(self, delta):
        self.phase = "terminal"
        self.turn = -1
        self.delta = list(delta)

    def is_terminal(self) -> bool:
        return self.phase == "terminal"

    def current_player(self) -> int:
        return self.turn

    def returns(self):
        return list(self.delta)

    # ---------------------------------------------------------------- legal actions
    def legal_actions(self) -> list[int]:
        if self.phase == "terminal":
            return []
        P = self.turn
        out: list[int] = []
        if self.phase == "auction":
            if not (self.o["forehand_must_bid"] and P == self.F and not self.spoken[P]):
                out.append(PASS)
            first = not self.spoken[P]
            if self.L == 0:
                out.append(BID0 + 1)
                if first:
                    out += [BID0 + 6, BID0 + 7]
            elif self.L <= 5:
                if self.rank(P) < self.rank(self.H):
                    out.append(HOLD)
                else:
                    if self.L <= 4:
                        out.append(BID0 + self.L + 1)
                    if first:
                        out += [BID0 + 6, BID0 + 7]
            elif self.L == 6:
                if first:
                    out.append(BID0 + 7)
        elif self.phase == "talon":
            out = [TAKE0, TAKE0 + 1]
        elif self.phase == "discard":
            h = self.hands[P]
            plain = h & PLAIN_NONKING
            n = 3 - len(self.discards)
            if self.o["discard_tarock_rule"] == "free" or len(plain) < n:
                legal = plain | (h & NONTRULL_TAROCK)
            else:
                legal = plain
            out = [DISCARD0 + c for c in legal]
        elif self.phase == "announce":
            for b, card, _t, _s, _a in BIRDS:
                if (
                    self.contract != 7
                    and (not self.had_turn[P] or not self.o["announce_first_turn_only"])
                    and card in self.hands[P]
                    and b not in self.announced
                    and (P == self.declarer or self.o["defender_announcements"])
                ):
                    out.append(ANNOUNCE0 + b)
            if self.o["kontra_enabled"]:
                items = [("GAME", DECL, DOUBLE_GAME)] + [
                    (b, self.side(s), DOUBLE_GAME + 1 + b) for b, s in self.announced.items()
                ]
                for key, owner, act in items:
                    lvl = self.k[key]
                    if lvl >= self.o["kontra_max_level"]:
                        continue
                    if lvl % 2 == 0 and self.side(P) != owner:
                        out.append(act)
                    elif lvl % 2 == 1 and self.side(P) == owner:
                        out.append(act)
            out.append(GOOD)
        elif self.phase == "play":
            out = [PLAY0 + c for c in self.legal_cards(P)]
        return sorted(out)

    def winner_index(self, cards: list[int]) -> int:
        """Index into ``cards`` of the winning card (spec section 5 rule, with the Kaiserstich option)."""
        if self.o["kaiserstich"] and PAGAT in cards and MOND in cards and SKUES in cards:
            return cards.index(PAGAT)
        taro = [c for c in cards if c < 22]
        if taro:
            return cards.index(max(taro))
        led = suit(cards[0])
        return cards.index(max(c for c in cards if suit(c) == led))

    def legal_cards(self, P: int) -> set[int]:
        h = self.hands[P]
        t = [c for _, c in self.trick]
        if not t:
            legal = set(h)
        else:
            led = suit(t[0])
            same = {c for c in h if suit(c) == led}
            if same:
                legal = same
            elif led != -1 and (h & TAROCKS):
                legal = h & TAROCKS
            else:
                legal = set(h)
        if self.trischaken:
            base = set(legal)
            if t:
                beating = {c for c in legal if self.winner_index(t + [c]) == len(t)}
                if beating:
                    legal = beating
            if PAGAT in legal and (h & (TAROCKS - {PAGAT})):
                legal = legal - {PAGAT}
                if not legal:  # reading: the Pagat restriction wins, Stichzwang lapses
                    legal = base - {PAGAT}
        return legal

    # ---------------------------------------------------------------- apply
    def apply(self, a: int) -> None:
        if a not in self.legal_actions():
            raise ValueError(f"illegal action {a}")
        self.history.append(a)
        P = self.turn
        if self.phase == "auction":
            self._auction(P, a)
        elif self.phase == "talon":
            i = a - TAKE0
            self.hands[P] |= set(self.packets[i])
            self.def_extra = list(self.packets[1 - i])
            self.phase = "discard"
        elif self.phase == "discard":
            c = a - DISCARD0
            self.hands[P].discard(c)
            self.discards.append(c)
            if len(self.discards) == 3:
                self._start_announce()
        elif self.phase == "announce":
            if a == GOOD:
                self.had_turn[P] = True
                self.goods += 1
                if self.goods == 3:
                    self._start_play()
                else:
                    self.turn = (P + 1) % 3
            else:
                if ANNOUNCE0 <= a < DOUBLE_GAME:
                    b = a - ANNOUNCE0
                    self.announced[b] = P
                    self.k[b] = 0
                elif a == DOUBLE_GAME:
                    self.k["GAME"] += 1
                else:
                    self.k[a - DOUBLE_GAME - 1] += 1
                self.goods = 0
        elif self.phase == "play":
            self._play(P, a - PLAY0)

    def _auction(self, P: int, a: int) -> None:
        if a == PASS:
            self.passed[P] = True
        elif a == HOLD:
            self.H = P
        else:
            self.L = a - BID0
            self.H = P
        self.spoken[P] = True
        active = [s for s in range(3) if not self.passed[s]]
        if self.L == 7:
            self._end_auction()
        elif self.L == 0 and not active:
            if self.o["all_pass_rule"] == "trischaken":
                self.trischaken = True
                self.phase = "play"
                self.turn = self.F
            else:
                self._finish([0, 0, 0])
        elif len(active) == 1 and self.L >= 1:
            assert active[0] == self.H
            self._end_auction()
        else:
            s = (P + 1) % 3
            while self.passed[s]:
                s = (s + 1) % 3
            self.turn = s

    def _end_auction(self) -> None:
        self.declarer = self.H
        self.contract = self.L
        if self.L <= 5:
            self.phase = "talon"
            self.turn = self.declarer
        else:
            self.def_extra = self.packets[0] + self.packets[1]
            self._start_announce()

    def _start_announce(self) -> None:
        self.phase = "announce"
        self.turn = self.declarer
        self.goods = 0

    def _start_play(self) -> None:
        self.phase = "play"
        if self.contract >= 6 and self.o["solo_declarer_leads"]:
            self.turn = self.declarer
        else:
            self.turn = self.F

    def _play(self, P: int, c: int) -> None:
        self.hands[P].discard(c)
        self.trick.append((P, c))
        if len(self.trick) < 3:
            self.turn = (P + 1) % 3
            return
        cards = [x for _, x in self.trick]
        w = self.trick[self.winner_index(cards)]
        self.tricks.append(self.trick)
        self.winners.append(w)
        self.trick = []
        self.turn = w[0]
        if not self.trischaken and self.contract == 7 and self.o["solo_valat_early_end"] and w[0] != self.declarer:
            self._score()
        elif len(self.tricks) == 16:
            self._score()

    # ---------------------------------------------------------------- scoring
    def _score(self) -> None:
        if self.trischaken:
            piles = [[] for _ in range(3)]
            for tr, (ws, _) in zip(self.tricks, self.winners):
                piles[ws] += [c for _, c in tr]
            pts = [thirds(p) // 3 for p in piles]
            assert all(thirds(p) % 3 == 0 for p in piles)
            m = max(pts)
            losers = [s for s in range(3) if pts[s] == m]
            V = self.o["trischaken_value"]
            if len(losers) == 3:
                self._finish([0, 0, 0])
            elif len(losers) == 1:
                self._finish([-2 * V if s in losers else V for s in range(3)])
            else:
                self._finish([-V if s in losers else 2 * V for s in range(3)])
            return
        o = self.o
        L = self.contract
        decl_tricks: list[int] = []
        def_tricks: list[int] = []
        n_decl = 0
        for tr, (ws, _) in zip(self.tricks, self.winners):
            if ws == self.declarer:
                decl_tricks += [c for _, c in tr]
                n_decl += 1
            else:
                def_tricks += [c for _, c in tr]
        decl_pile = self.discards + decl_tricks
        def_pile = self.def_extra + def_tricks
        items: list[tuple[int, int]] = []
        kg = 2 ** self.k["GAME"]
        if L == 7:
            items.append((960 * kg, DECL if n_decl == 16 and len(self.tricks) == 16 else DEF))
            valat = False
        else:
            valat = o["valat_factor"] > 0 and (n_decl == 16 or n_decl == 0)
            if valat:
                items.append((GAME_VALUE[L] * o["valat_factor"] * kg, DECL if n_decl == 16 else DEF))
            else:
                items.append((GAME_VALUE[L] * kg, DECL if thirds(decl_pile) >= 107 else DEF))
        if L != 7:
            bf = o["solo_bonus_factor"] if L == 6 else 1
            cancel = valat and o["valat_cancels_silent_bonuses"]
            for b, card, tno, S, A in BIRDS:
                wseat, wcard = self.winners[tno - 1]
                if b in self.announced:
                    owner = self.side(self.announced[b])
                    items.append((A * 2 ** self.k[b] * bf, owner if wcard == card else 1 - owner))
                elif not cancel and wcard == card:
                    items.append((S * bf, self.side(wseat)))
                elif not cancel and o["silent_bird_failure_penalty"]:
                    for seat, x in self.tricks[tno - 1]:
                        if x == card:  # played in its own trick and did not win it
                            items.append((S * bf, 1 - self.side(seat)))
            if not cancel:
                if o["trull_counts_non_trick_cards"]:
                    sets = [(set(decl_pile), DECL), (set(def_pile), DEF)]
                else:
                    sets = [(set(decl_tricks), DECL), (set(def_tricks), DEF)]
                for bonus in (TRULL, KINGS):
                    for cards, sd in sets:
                        if bonus <= cards:
                            items.append((10 * bf, sd))
                for tr in self.tricks:
                    seat_of = {c: s for s, c in tr}
                    if MOND in seat_of and SKUES in seat_of:
                        if o["kaiserstich"] and PAGAT in seat_of:
                            continue
                        if self.side(seat_of[MOND]) != self.side(seat_of[SKUES]):
                            items.append((10 * bf, self.side(seat_of[SKUES])))
        N = sum(v if w == DECL else -v for v, w in items)
        self.items = items
        self._finish([2 * N if s == self.declarer else -N for s in range(3)])
