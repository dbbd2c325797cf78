"""A slow, plain-Python reference of Tatteln, written from the rules text only (review check).

It knows nothing of the engine: it starts from a deal in the deal notation (dealer, hands by seat, turn-up,
stock top first), answers the current player, the sorted legal actions and terminality, applies actions and
computes the settlement.  All rules options are honoured except the partie (session) layer.

Card index: ``idx = R*s + r`` with suits H D C S and plain ranks ``7 8 9 J Q K T A`` (``6 7 8 9 J Q K T A``
with 36 cards).  Actions: ``PLAY(c) = c``, ``ANNOUNCE_SEQ = N``, ``ANNOUNCE_SET = N + 1``, ``ROB = N + 2``.
"""

from __future__ import annotations

SUITS = "HDCS"

DEFAULTS = {
    "deck_size": 32,
    "hand_size": 9,
    "trump_jack_nine_bonus": True,
    "no_trump": False,
    "value_tattel": 3,
    "value_quart": 4,
    "value_fuss": 15,
    "value_trio": 3,
    "value_four": 14,
    "sets_all_ranks": False,
    "max_window_length": 5,
    "four_tops_up_trio": True,
    "seq_tie_trump_wins": False,
    "announce_only_on_lead": False,
    "blocker_scores": True,
    "announce_in_final_phase": True,
    "rob_enabled": True,
    "final_must_head": False,
    "final_must_trump": False,
    "matsch_enabled": True,
    "matsch_forfeits_score": True,
    "matsch_multiplier": 2,
    "reward_mode": "points",
}


class RefTatteln:
    """One deal of Tatteln, played by the rules text."""

    def __init__(self, deal: dict, **options) -> None:
        o = dict(DEFAULTS)
        o.update(options)
        self.o = o
        n = o["deck_size"]
        self.N = n
        self.R = n // 4
        if n == 32:
            self.ranks = "789JQKTA"
            natural = "789TJQKA"
        else:
            self.ranks = "6789JQKTA"
            natural = "6789TJQKA"
        # natural position of plain rank r
        self.natpos = [natural.index(ch) for ch in self.ranks]
        # strength inside the trump suit (low to high: 7 8 Q K T A 9 J, with a 6 below in the 36-card pack)
        trump_order = ("6" if n == 36 else "") + "78QKTA9J"
        self.trump_str = [trump_order.index(ch) for ch in self.ranks]
        self.hand_size = o["hand_size"]
        self.K = n // 2
        self.code = [SUITS[i // self.R] + self.ranks[i % self.R] for i in range(n)]
        idx = {c: i for i, c in enumerate(self.code)}
        self.dealer = deal["dealer"]
        self.hand = [set(idx[c] for c in deal["hands"][p]) for p in (0, 1)]
        self.stock = [idx[c] for c in deal["stock"]]
        if o["no_trump"]:
            assert deal["turn_up"] is None
            self.trump = None
        else:
            tu = idx[deal["turn_up"]]
            self.trump = tu // self.R
            self.stock.append(tu)
        assert len(self.hand[0]) == len(self.hand[1]) == self.hand_size
        assert len(self.hand[0]) + len(self.hand[1]) + len(self.stock) == n
        self.leader = 1 - self.dealer
        self.led = None
        self.trick_no = 1
        self.pile = [0, 0]
        self.final_won = [0, 0]
        self.meld = [0, 0]
        self.scored_win = [set(), set()]
        self.trio_scored = [set(), set()]
        self.four_scored = [set(), set()]
        self.did = {"rob": False, "seq": False, "set": False}
        self.done = False
        self.rob_count = 0
        # windows: list of (frozenset of cards, L, top natpos, suit)
        lmax = o["max_window_length"]
        self.values = {3: o["value_tattel"], 4: o["value_quart"], 5: o["value_fuss"], 6: 16, 7: 17, 8: 18}
        nat_to_r = {self.natpos[r]: r for r in range(self.R)}
        self.windows = []
        for s in range(4):
            for L in range(3, lmax + 1):
                for t in range(L - 1, self.R):
                    cards = frozenset(self.R * s + nat_to_r[m] for m in range(t - L + 1, t + 1))
                    self.windows.append((cards, L, t, s))
        if o["sets_all_ranks"]:
            self.set_ranks = list(range(self.R))
        else:
            self.set_ranks = [self.ranks.index(ch) for ch in "TJQKA"]

    # ------------------------------------------------------------------ cards
    def suit(self, c: int) -> int:
        return c // self.R

    def strength(self, c: int) -> int:
        r = c % self.R
        if self.trump is not None and self.suit(c) == self.trump:
            return 100 + self.trump_str[r]
        return r

    def points(self, c: int) -> int:
        r = c % self.R
        ch = self.ranks[r]
        trump = self.trump is not None and self.suit(c) == self.trump
        if trump and self.o["trump_jack_nine_bonus"]:
            if ch == "J":
                return 20
            if ch == "9":
                return 14
        return {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}.get(ch, 0)

    # ------------------------------------------------------------------ melds
    def held_windows(self, p: int):
        return [w for w in self.windows if w[0] <= self.hand[p]]

    def best_seq_key(self, p: int) -> int:
        return max((16 * w[1] + w[2] for w in self.held_windows(p)), default=0)

    def unscored_windows(self, p: int):
        return [w for w in self.held_windows(p) if w[0] not in self.scored_win[p]]

    def unscored_seq(self, p: int) -> int:
        return sum(self.values[w[1]] for w in self.unscored_windows(p))

    def rank_count(self, p: int, q: int) -> int:
        return sum(1 for s in range(4) if self.R * s + q in self.hand[p])

    def best_set_key(self, p: int) -> int:
        best = 0
        for q in self.set_ranks:
            c = self.rank_count(p, q)
            if c >= 3:
                best = max(best, 16 * c + self.natpos[q])
        return best

    def set_atoms(self, p: int):
        """(rank, kind, value) of the available set atoms."""
        out = []
        for q in self.set_ranks:
            c = self.rank_count(p, q)
            if c == 3 and q not in self.trio_scored[p] and q not in self.four_scored[p]:
                out.append((q, "trio", self.o["value_trio"]))
            elif c == 4 and q not in self.four_scored[p]:
                if q in self.trio_scored[p] and self.o["four_tops_up_trio"]:
                    out.append((q, "four", self.o["value_four"] - self.o["value_trio"]))
                else:
                    out.append((q, "four", self.o["value_four"]))
        return out

    def unscored_set(self, p: int) -> int:
        return sum(a[2] for a in self.set_atoms(p))

    def score_class(self, p: int, cls: str) -> None:
        if cls == "seq":
            for w in self.unscored_windows(p):
                self.meld[p] += self.values[w[1]]
                self.scored_win[p].add(w[0])
        else:
            for q, kind, v in self.set_atoms(p):
                self.meld[p] += v
                self.trio_scored[p].add(q)
                if kind == "four":
                    self.four_scored[p].add(q)

    def trump_window_with_key(self, p: int, key: int) -> bool:
        return any(w[3] == self.trump and 16 * w[1] + w[2] == key for w in self.held_windows(p))

    def announce(self, p: int, cls: str) -> None:
        self.did[cls] = True
        o = 1 - p
        if cls == "seq":
            ka, kb = self.best_seq_key(p), self.best_seq_key(o)
        else:
            ka, kb = self.best_set_key(p), self.best_set_key(o)
        if ka > kb:
            winner = p
        elif ka < kb:
            winner = o
        else:
            winner = None
            if cls == "seq" and self.o["seq_tie_trump_wins"] and self.trump is not None:
                if self.trump_window_with_key(p, ka):
                    winner = p
                elif self.trump_window_with_key(o, kb):
                    winner = o
        if winner == p:
            self.score_class(p, cls)
        elif winner == o and self.o["blocker_scores"]:
            self.score_class(o, cls)

    # ------------------------------------------------------------------ turn
    def current_player(self) -> int:
        if self.done:
            return -1
        return self.leader if self.led is None else 1 - self.leader

    def final_phase(self) -> bool:
        return len(self.stock) == 0

    def legal_cards(self, p: int):
        h = self.hand[p]
        if self.led is None or not self.final_phase():
            return set(h)
        ls = self.suit(self.led)
        same = {c for c in h if self.suit(c) == ls}
        if same:
            if self.o["final_must_head"]:
                higher = {c for c in same if self.strength(c) > self.strength(self.led)}
                if higher:
                    return higher
            return same
        if self.o["final_must_trump"] and self.trump is not None:
            tr = {c for c in h if self.suit(c) == self.trump}
            if tr:
                return tr
        return set(h)

    def pre_play_allowed(self) -> bool:
        return not self.o["announce_only_on_lead"] or self.led is None

    def legal_actions(self) -> list[int]:
        if self.done:
            return []
        p = self.current_player()
        acts = sorted(self.legal_cards(p))
        n = self.N
        ann_ok = self.pre_play_allowed() and (self.o["announce_in_final_phase"] or not self.final_phase())
        if ann_ok and not self.did["seq"] and self.unscored_seq(p) > 0:
            acts.append(n)
        if ann_ok and not self.did["set"] and self.unscored_set(p) > 0:
            acts.append(n + 1)
        if (
            self.trump is not None
            and self.o["rob_enabled"]
            and self.R * self.trump in self.hand[p]
            and len(self.stock) > 0
            and not self.did["rob"]
            and self.pre_play_allowed()
        ):
            acts.append(n + 2)
        return acts

    def apply(self, a: int) -> None:
        assert a in self.legal_actions(), a
        p = self.current_player()
        n = self.N
        if a == n:
            self.announce(p, "seq")
            return
        if a == n + 1:
            self.announce(p, "set")
            return
        if a == n + 2:
            self.did["rob"] = True
            self.rob_count += 1
            seven = self.R * self.trump
            self.hand[p].remove(seven)
            self.hand[p].add(self.stock[-1])
            self.stock[-1] = seven
            return
        self.hand[p].remove(a)
        self.did = {"rob": False, "seq": False, "set": False}
        if self.led is None:
            self.led = a
            return
        lead, follow = self.led, a
        fp = self.final_phase()
        if self.suit(follow) == self.suit(lead):
            win = p if self.strength(follow) > self.strength(lead) else self.leader
        elif self.trump is not None and self.suit(follow) == self.trump:
            win = p
        else:
            win = self.leader
        self.pile[win] += self.points(lead) + self.points(follow)
        if fp:
            self.final_won[win] += 1
        if self.trick_no == self.K:
            self.pile[win] += 10
        if self.stock:
            self.hand[win].add(self.stock.pop(0))
            self.hand[1 - win].add(self.stock.pop(0))
        self.led = None
        self.leader = win
        if self.trick_no == self.K:
            self.done = True
        else:
            self.trick_no += 1

    # ------------------------------------------------------------------ score
    def deal_points(self):
        """(Dadj, matsched seat or None, mult) of a finished deal (Sections 6.1-6.3)."""
        d = [self.pile[p] + self.meld[p] for p in (0, 1)]
        mult, matsched = 1, None
        if self.o["matsch_enabled"]:
            for x in (0, 1):
                if self.final_won[x] == 0:
                    matsched = x
                    mult = self.o["matsch_multiplier"]
                    if self.o["matsch_forfeits_score"]:
                        d[x] = 0
        return d, matsched, mult

    def returns(self) -> list[int]:
        if not self.done:
            return [0, 0]
        d, _, mult = self.deal_points()
        diff = d[0] - d[1]
        if self.o["reward_mode"] == "points":
            s = mult * diff
        else:
            s = mult * ((diff > 0) - (diff < 0))
        return [s, -s]


class RefPartie:
    """The partie bookkeeping of Section 7."""

    def __init__(self, first_dealer: int, target: int = 500, double_below_half: bool = True, matsch_ends: bool = True):
        self.dealer = first_dealer
        self.target = target
        self.double_below_half = double_below_half
        self.matsch_ends = matsch_ends
        self.totals = [0, 0]
        self.winner = None
        self.stake = 0

    def record(self, dadj, matsched) -> None:
        assert self.winner is None
        self.totals = [self.totals[0] + dadj[0], self.totals[1] + dadj[1]]
        self.dealer = 1 - self.dealer
        if matsched is not None and self.matsch_ends:
            self.winner, self.stake = 1 - matsched, 2
            return
        if max(self.totals) >= self.target and self.totals[0] != self.totals[1]:
            self.winner = 0 if self.totals[0] > self.totals[1] else 1
            lose = self.totals[1 - self.winner]
            self.stake = 2 if self.double_below_half and 2 * lose < self.target else 1

    def settlement(self):
        if self.winner is None:
            return [0, 0]
        out = [0, 0]
        out[self.winner] = self.stake
        out[1 - self.winner] = -self.stake
        return out
