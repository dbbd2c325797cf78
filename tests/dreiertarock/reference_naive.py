"""A slow, obvious reference implementation of Dreiertarock, written straight from the rules text.

It uses Python sets and lists and follows the spec's pseudo-code literally (auction state machine, discard rule,
announcement rule, section-5 play rule, Trischaken restrictions, the item list of section 6.5). The tests
step it side by side with the numba engine and compare legal sets and results action by action.
"""

from __future__ import annotations

import dataclasses

from tarockrl.games.dreiertarock.cards import CODE_TO_CARD
from tarockrl.games.dreiertarock.rules import DreiertarockRules

TAROCK = "T"
KINGS = {29, 37, 45, 53}
TRULL = {0, 20, 21}
G = {1: 30, 2: 40, 3: 50, 4: 60, 5: 70, 6: 120, 7: 960}
BIRDS = [(0, 16, 40, 80), (1, 15, 60, 120), (2, 14, 80, 160)]  # (card, trick, silent, announced)


def suit(c: int):
    return TAROCK if c <= 21 else (c - 22) // 8


def pts(c: int) -> int:
    if c in TRULL or c in KINGS:
        return 5
    if c >= 22:
        r = (c - 22) % 8
        return {4: 2, 5: 3, 6: 4}.get(r, 1)
    return 1


def thirds(pile) -> int:
    return 3 * sum(pts(c) for c in pile) - 2 * len(pile)


class Naive:
    """One deal. Actions are the flat layout indices of the spec's section 9.1."""

    def __init__(self, deal: dict, **options):
        self.o = dataclasses.asdict(DreiertarockRules(**options))
        self.d = deal["dealer"]
        self.hands = [{CODE_TO_CARD[c] for c in h} for h in deal["hands"]]
        self.packets = [{CODE_TO_CARD[c] for c in p} for p in deal["talon_packets"]]
        self.F = (self.d + 1) % 3
        self.history: list[int] = []
        self.delta = [0, 0, 0]
        self.phase = "auction"
        self.L, self.H = 0, None
        self.passed = [False] * 3
        self.spoken = [False] * 3
        self.turn = self.F
        self.declarer = None
        self.trischaken = False
        self.decl_pile: list[int] = []
        self.def_pile: list[int] = []
        self.discards: list[int] = []
        self.announced: dict[int, int] = {}
        self.k = {"GAME": 0}
        self.had_turn = [False] * 3
        self.goods = 0
        self.tricks: list[list[tuple[int, int]]] = []  # each: [(seat, card), ...] in playing order
        self.trick: list[tuple[int, int]] = []
        self.piles = [[], [], []]
        if self.o["redeal_without_tarock"] and any(not any(c <= 21 for c in h) for h in self.hands):
            self.phase = "terminal"
            return
        self._auto()

    # ---- helpers -----------------------------------------------------------------------------------------
    def rank(self, s: int) -> int:
        return (s - self.d - 1) % 3

    def side(self, s: int) -> str:
        return "DECL" if s == self.declarer else "DEF"

    def current_player(self) -> int:
        return -1 if self.phase == "terminal" else self.turn

    def is_terminal(self) -> bool:
        return self.phase == "terminal"

    def winner_pos(self, cards: list[int]) -> int:
        """Position of the winning card of ``cards`` (the section-5 rule with the Kaiserstich option)."""
        if self.o["kaiserstich"] and len(cards) == 3 and TRULL <= set(cards):
            return cards.index(0)
        tarocks = [c for c in cards if c <= 21]
        if tarocks:
            return cards.index(max(tarocks))
        led = suit(cards[0])
        return cards.index(max(c for c in cards if suit(c) == led))

    # ---- legal actions -----------------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        if self.phase == "terminal":
            return []
        P = self.turn
        if self.phase == "auction":
            acts = []
            if not (self.o["forehand_must_bid"] and P == self.F and not self.spoken[P]):
                acts.append(108)
            L = self.L
            if L == 0:
                acts.append(110)
                if not self.spoken[P]:
                    acts += [115, 116]
            elif 1 <= L <= 5:
                if self.rank(P) < self.rank(self.H):
                    acts.append(109)
                else:
                    if L <= 4:
                        acts.append(109 + L + 1)
                    if not self.spoken[P]:
                        acts += [115, 116]
            elif L == 6 and not self.spoken[P]:
                acts.append(116)
            return sorted(acts)
        if self.phase == "talon":
            return [117, 118]
        if self.phase == "discard":
            h = self.hands[P]
            N = 3 - len(self.discards)
            plain = {c for c in h if c >= 22 and c not in KINGS}
            mids = {c for c in h if 1 <= c <= 19}
            if self.o["discard_tarock_rule"] == "free" or len(plain) < N:
                legal = plain | mids
            else:
                legal = plain
            return sorted(54 + c for c in legal)
        if self.phase == "announce":
            acts = [126]
            first_ok = not self.o["announce_first_turn_only"] or not self.had_turn[P]
            may = P == self.declarer or self.o["defender_announcements"]
            for i, (card, _, _, _) in enumerate(BIRDS):
                if self.L != 7 and first_ok and card in self.hands[P] and i not in self.announced and may:
                    acts.append(119 + i)
            if self.o["kontra_enabled"]:
                items = [("GAME", "DECL")] + [(i, self.side(s)) for i, s in self.announced.items()]
                for x, owner in items:
                    k = self.k[x]
                    if k >= self.o["kontra_max_level"]:
                        continue
                    mine = self.side(P)
                    if (k % 2 == 0 and mine != owner) or (k % 2 == 1 and mine == owner):
                        acts.append(122 if x == "GAME" else 123 + x)
            return sorted(acts)
        # play
        h = self.hands[P]
        t = [c for _, c in self.trick]
        if not t:
            legal = set(h)
        else:
            led = suit(t[0])
            same = {c for c in h if suit(c) == led}
            if same:
                legal = same
            elif led != TAROCK and any(c <= 21 for c in h):
                legal = {c for c in h if c <= 21}
            else:
                legal = set(h)
        if self.trischaken:
            five = set(legal)
            if t:
                beating = {c for c in legal if self.winner_pos(t + [c]) == len(t)}
                if beating:
                    legal = beating
            if 0 in legal and any(1 <= c <= 21 for c in h):
                legal = legal - {0}
                if not legal:  # reading: the Pagat restriction wins, Stichzwang lapses
                    legal = five - {0}
        return sorted(legal)

    # ---- transitions -------------------------------------------------------------------------------------
    def apply(self, a: int) -> None:
        assert a in self.legal_actions(), (a, self.legal_actions())
        self._apply(a)
        self._auto()

    def _auto(self) -> None:
        while self.o["auto_play_forced"] and self.phase != "terminal":
            legal = self.legal_actions()
            if len(legal) != 1:
                return
            self._apply(legal[0])

    def _apply(self, a: int) -> None:
        self.history.append(a)
        P = self.turn
        if self.phase == "auction":
            if a == 108:
                self.passed[P] = True
            elif a == 109:
                self.H = P
            else:
                self.L, self.H = a - 109, P
            self.spoken[P] = True
            if self.L == 7:
                self._contract()
            elif all(self.passed):
                if self.o["all_pass_rule"] == "trischaken":
                    self.trischaken = True
                    self._play_start()
                else:
                    self.phase = "terminal"
            elif self.passed.count(False) == 1 and self.L >= 1:
                self._contract()
            else:
                q = (P + 1) % 3
                while self.passed[q]:
                    q = (q + 1) % 3
                self.turn = q
        elif self.phase == "talon":
            i = a - 117
            self.hands[P] |= self.packets[i]
            self.def_pile += sorted(self.packets[1 - i])
            self.phase = "discard"
        elif self.phase == "discard":
            c = a - 54
            self.hands[P].remove(c)
            self.discards.append(c)
            self.decl_pile.append(c)
            if len(self.discards) == 3:
                self._announce_start()
        elif self.phase == "announce":
            if a == 126:
                self.had_turn[P] = True
                self.goods += 1
                if self.goods == 3:
                    self._play_start()
                else:
                    self.turn = (P + 1) % 3
            elif a < 122:
                self.announced[a - 119] = P
                self.k[a - 119] = 0
                self.goods = 0
            else:
                x = "GAME" if a == 122 else a - 123
                self.k[x] += 1
                self.goods = 0
        else:
            c = a
            self.hands[P].remove(c)
            self.trick.append((P, c))
            if len(self.trick) < 3:
                self.turn = (P + 1) % 3
                return
            cards = [x for _, x in self.trick]
            w = self.trick[self.winner_pos(cards)][0]
            self.tricks.append(self.trick)
            self.trick = []
            self.piles[w] += cards
            if self.trischaken:
                pass
            elif w == self.declarer:
                self.decl_pile += cards
            else:
                self.def_pile += cards
                if self.L == 7 and self.o["solo_valat_early_end"]:
                    self._score()
                    return
            if len(self.tricks) == 16:
                self._score()
                return
            self.turn = w

    def _contract(self) -> None:
        self.declarer = self.H
        if self.L <= 5:
            self.phase = "talon"
            self.turn = self.declarer
        else:
            self.def_pile += sorted(self.packets[0] | self.packets[1])
            self._announce_start()

    def _announce_start(self) -> None:
        self.phase = "announce"
        self.turn = self.declarer
        self.goods = 0

    def _play_start(self) -> None:
        self.phase = "play"
        self.turn = self.F
        if self.o["solo_declarer_leads"] and not self.trischaken and self.L >= 6:
            self.turn = self.declarer

    # ---- scoring (section 6.5 item list) -----------------------------------------------------------------
    def trick_winner(self, n: int):
        tr = self.tricks[n - 1]
        pos = self.winner_pos([c for _, c in tr])
        return tr[pos]

    def _score(self) -> None:
        self.phase = "terminal"
        if self.trischaken:
            p = [thirds(self.piles[s]) // 3 for s in range(3)]
            m = max(p)
            losers = [s for s in range(3) if p[s] == m]
            V = self.o["trischaken_value"]
            if len(losers) == 1:
                self.delta = [-2 * V if s in losers else V for s in range(3)]
            elif len(losers) == 2:
                self.delta = [-V if s in losers else 2 * V for s in range(3)]
            return
        D = self.declarer
        k = self.k
        items = []
        decl_tricks = [c for tr in self.tricks for s, c in tr if self.trick_winner_seat(tr) == D]
        def_tricks = [c for tr in self.tricks for s, c in tr if self.trick_winner_seat(tr) != D]
        n_decl = sum(1 for tr in self.tricks if self.trick_winner_seat(tr) == D)
        if self.L == 7:
            items.append((960 * 2 ** k["GAME"], "DECL" if n_decl == 16 else "DEF"))
        else:
            VF = self.o["valat_factor"]
            valat = VF > 0 and n_decl in (0, 16)
            if valat:
                items.append((G[self.L] * VF * 2 ** k["GAME"], "DECL" if n_decl == 16 else "DEF"))
            else:
                items.append((G[self.L] * 2 ** k["GAME"], "DECL" if thirds(self.decl_pile) >= 107 else "DEF"))
            cancel = valat and self.o["valat_cancels_silent_bonuses"]
            bf = self.o["solo_bonus_factor"] if self.L == 6 else 1
            for i, (card, trick_no, S, A) in enumerate(BIRDS):
                wseat, wcard = self.trick_winner(trick_no)
                if i in self.announced:
                    owner = self.side(self.announced[i])
                    other = "DEF" if owner == "DECL" else "DECL"
                    items.append((A * 2 ** k[i] * bf, owner if wcard == card else other))
                elif not cancel:
                    if wcard == card:
                        items.append((S * bf, self.side(wseat)))
                    elif self.o["silent_bird_failure_penalty"]:
                        for s, c in self.tricks[trick_no - 1]:
                            if c == card:
                                items.append((S * bf, "DEF" if self.side(s) == "DECL" else "DECL"))
            if not cancel:
                if self.o["trull_counts_non_trick_cards"]:
                    dset, fset = set(self.decl_pile), set(self.def_pile)
                else:
                    dset, fset = set(decl_tricks), set(def_tricks)
                for bonus_cards in (TRULL, KINGS):
                    if bonus_cards <= dset:
                        items.append((10 * bf, "DECL"))
                    if bonus_cards <= fset:
                        items.append((10 * bf, "DEF"))
                for tr in self.tricks:
                    cards = [c for _, c in tr]
                    if 20 in cards and 21 in cards:
                        if self.o["kaiserstich"] and 0 in cards:
                            continue
                        s20 = [s for s, c in tr if c == 20][0]
                        s21 = [s for s, c in tr if c == 21][0]
                        if self.side(s20) != self.side(s21):
                            items.append((10 * bf, self.side(s21)))
        N = sum(v if w == "DECL" else -v for v, w in items)
        self.delta = [2 * N if s == D else -N for s in range(3)]

    def trick_winner_seat(self, tr) -> int:
        return tr[self.winner_pos([c for _, c in tr])][0]

    def returns(self) -> list[int]:
        return list(self.delta) if self.phase == "terminal" else [0, 0, 0]
