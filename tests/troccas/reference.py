"""A slow, deliberately plain pure-Python reference of one Troccas episode, written from the rules spec alone.

It is used only by ``test_reference_review.py`` to compare the engine action by action. It holds the deal in
the canonical deal notation (dealer, hands in the order received, optional balance and redeals) and follows
the phases PATTERN, TALK, VOTE, FORCE, SCART, PLAY, BUOB, END step by step. Every redeal must be supplied in
``redeals`` (the reference has no random generator).
"""

from __future__ import annotations

# ---- cards -------------------------------------------------------------------------------------------------
CODES = [f"T{i}" for i in range(1, 22)] + ["FOOL"]
for _s in "cobs":
    _nums = [str(n) for n in (range(10, 0, -1) if _s in "co" else range(1, 11))]
    CODES += [_s + x for x in _nums + ["V", "C", "Q", "K"]]
INDEX = {c: i for i, c in enumerate(CODES)}
FOOL = 21
NO_SCART = {0, 20, 21, 35, 49, 63, 77}

# action indices
DOUBLE0 = 78
EARLY0, FINAL0 = 82, 92
KEEP, THROW = 104, 105
DECLINE, FORCE = 106, 107
PAT_STD, PAT_910, PAT_SINGLE = 108, 109, 110
NO_DEMAND, DEMAND = 111, 112
KNOCK = 113

PACKETS = {  # pattern -> (non-dealer packet sizes, dealer packet sizes)
    PAT_STD: ([6, 6, 7], [6, 6, 9]),
    PAT_910: ([9, 10], [9, 12]),
    PAT_SINGLE: ([19], [21]),
}

DEFAULTS = dict(
    first_leader="dealer", must_overtrump=False, scart_counts_for_fool=False, king_jack_rule=True,
    king_after_fool_triggers=True, buob_demand_automatic=False, scart_jack_voids_all=False,
    double_lead_enabled=False, talk_enabled=True, throw_in_enabled=True, max_redeals=3,
    dealer_force_enabled=True, fool_counts_as_trump_for_force=False, packet_options_enabled=True,
    nine_ten_threshold=9, single_packet_threshold=18, scart_trumps_allowed=True, knock_enabled=False,
    slam_takes_scart=False,
)


def is_trump(c: int) -> bool:
    return 0 <= c <= 20


def suit_of(c: int):
    """'T' for a trump, None for the Fool, 0..3 for a plain card."""
    if c == FOOL:
        return None
    if is_trump(c):
        return "T"
    return (c - 22) // 14


def offset(c: int) -> int:
    return (c - 22) % 14


def value(c: int) -> int:
    if c in (0, 20, 21):
        return 5
    if c < 22:
        return 1
    return {13: 5, 12: 4, 11: 3, 10: 2}.get(offset(c), 1)


def king(s: int) -> int:
    return 35 + 14 * s


def jack(s: int) -> int:
    return 32 + 14 * s


def points(pile) -> int:
    n = len(pile)
    assert n % 4 in (0, 2)
    return sum(value(c) for c in pile) - 3 * (n // 4) - ((n % 4) // 2)


def team(p: int) -> int:
    return p % 2


class Reference:
    def __init__(self, deal: dict, **options):
        self.o = dict(DEFAULTS)
        for k, v in options.items():
            assert k in self.o, k
            self.o[k] = v
        self.d = deal["dealer"]
        self.bal = list(deal.get("balance", [0, 0]))
        self.attempts = [[[INDEX[c] for c in h] for h in deal["hands"]]]
        for r in deal.get("redeals", []):
            self.attempts.append([[INDEX[c] for c in h] for h in r])
        self.redeal_count = 0
        self.terminal = False
        self.result = None
        self.order = [(self.d + k) % 4 for k in (1, 2, 3, 4)]  # d+1, d+2, d+3, d
        self.pattern = PAT_STD
        chooser_team = None
        if self.o["packet_options_enabled"]:
            for t in (0, 1):
                if self.bal[t] <= -self.o["nine_ten_threshold"]:
                    chooser_team = t
        if chooser_team is not None:
            self.phase = "PATTERN"
            self.chooser_team = chooser_team
            self.cur = next(p for p in self.order if team(p) == chooser_team)
        else:
            self._start_attempt()

    # ---- deal attempts -------------------------------------------------------------------------------------
    def _start_attempt(self):
        self.full = self.attempts[self.redeal_count]
        sizes_nd, sizes_d = PACKETS[self.pattern]
        self.sizes = {p: (sizes_d if p == self.d else sizes_nd) for p in range(4)}
        self.npackets = len(sizes_nd)
        self.packet = 0
        self.hands = [set() for _ in range(4)]
        self._deal_packet()

    def _deal_packet(self):
        j = self.packet
        for p in range(4):
            start = sum(self.sizes[p][:j])
            self.hands[p] |= set(self.full[p][start:start + self.sizes[p][j]])
        self._pause_talk()

    def _final_pause(self) -> bool:
        return self.packet == self.npackets - 1

    def _pause_talk(self):
        if self.o["talk_enabled"]:
            self.phase = "TALK"
            self.queue = list(self.order)
            self.cur = self.queue[0]
        else:
            self._pause_vote()

    def _redeals_allowed(self) -> bool:
        return self.redeal_count < self.o["max_redeals"]

    def _pause_vote(self):
        if self.o["throw_in_enabled"] and self._redeals_allowed():
            self.phase = "VOTE"
            self.queue = list(self.order)
            self.cur = self.queue[0]
        else:
            self._after_pause()

    def _after_pause(self):
        if not self._final_pause():
            self.packet += 1
            self._deal_packet()
            return
        hand = self.hands[self.d]
        has_trump = any(is_trump(c) for c in hand) or (self.o["fool_counts_as_trump_for_force"] and FOOL in hand)
        if self.o["dealer_force_enabled"] and self._redeals_allowed() and not has_trump:
            self.phase = "FORCE"
            self.cur = self.d
        else:
            self._start_scart()

    def _redeal(self):
        self.redeal_count += 1
        assert self.redeal_count < len(self.attempts), "the reference needs every redeal in the deal dict"
        self._start_attempt()

    def _start_scart(self):
        self.phase = "SCART"
        self.cur = self.d
        self.scart = []

    # ---- play ----------------------------------------------------------------------------------------------
    def _start_play(self):
        self.kj_on = self.o["king_jack_rule"]
        if self.o["scart_jack_voids_all"] and any(c >= 22 and offset(c) == 10 for c in self.scart):
            self.kj_on = False
        self.phase = "PLAY"
        self.leader = self.d if self.o["first_leader"] == "dealer" else (self.d + 1) % 4
        self.cur = self.leader
        self.trick = []  # list of (seat, card)
        self.is_double = False
        self.led_suits = set()
        self.played = set()
        self.piles = [[], []]
        self.tricks_won = [0, 0]
        self.fool_seat = None
        self.fool_trick_team = None
        self.knocked_for = [None] * 4
        self.knocked_now = False

    def _led_suit(self):
        for _, c in self.trick:
            if c != FOOL:
                return suit_of(c)
        return None

    def _legal_cards(self, p):
        hand = self.hands[p]
        led = self._led_suit()
        if led is None:
            return set(hand)
        f = {FOOL} & hand
        same = {c for c in hand if suit_of(c) == led}
        if same:
            base = same
        else:
            trumps = {c for c in hand if is_trump(c)}
            if trumps:
                base = trumps
            else:
                return set(hand)
        if self.o["must_overtrump"] and all(is_trump(c) for c in base):
            in_trick = [c for _, c in self.trick if is_trump(c)]
            if in_trick:
                top = max(in_trick)
                higher = {c for c in base if c > top}
                if higher:
                    base = higher
        return base | f

    def _t_top(self):
        for t in range(20, -1, -1):
            if t not in self.played:
                return t
        return None

    def _cards_per_trick(self):
        return 8 if self.is_double else 4

    def _finish_trick(self):
        cards = [c for _, c in self.trick]
        trumps = [(c, p) for p, c in self.trick if is_trump(c)]
        led = self._led_suit()
        if trumps:
            winner = max(trumps)[1]
        else:
            winner = max((c, p) for p, c in self.trick if suit_of(c) == led)[1]
        self.winner = winner
        # buob trigger
        trigger = False
        if self.kj_on and not self.is_double and led not in (None, "T"):
            setter_pos = 0 if cards[0] != FOOL else 1
            setter = cards[setter_pos]
            ok_setter = setter == king(led) and (setter_pos == 0 or self.o["king_after_fool_triggers"])
            if ok_setter and led not in self.led_suits and jack(led) not in self.played:
                trigger = True
        if trigger:
            self.buob_suit = led
            if self.o["buob_demand_automatic"]:
                self._resolve_buob(True)
            else:
                self.phase = "BUOB"
                self.cur = winner
        else:
            self._close_trick()

    def _resolve_buob(self, demand: bool):
        s = self.buob_suit
        if demand:
            j = jack(s)
            holder = next((p for p in range(4) if j in self.hands[p]), None)
            if holder is not None:
                pos = next(i for i, (p, _) in enumerate(self.trick) if p == holder)
                c = self.trick[pos][1]
                if c != FOOL and suit_of(c) == s and offset(c) <= 9:
                    self.trick[pos] = (holder, j)
                    self.hands[holder].discard(j)
                    self.hands[holder].add(c)
                    self.played.discard(c)
                    self.played.add(j)
        self._close_trick()

    def _close_trick(self):
        led = self._led_suit()
        if led not in (None, "T"):
            self.led_suits.add(led)
        w = self.winner
        tw = team(w)
        for p, c in self.trick:
            self.piles[tw].append(c)
            if c == FOOL:
                self.fool_seat = p
                if team(p) != tw:
                    self.fool_trick_team = tw
        self.tricks_won[tw] += 1
        self.trick = []
        self.is_double = False
        self.leader = w
        self.cur = w
        self.phase = "PLAY"
        self.knocked_now = False
        if all(not h for h in self.hands):
            self._end()

    def _end(self):
        dt = team(self.d)
        scart_team = dt
        if self.o["slam_takes_scart"]:
            for t in (0, 1):
                if self.tricks_won[t] > 0 and self.tricks_won[1 - t] == 0:
                    scart_team = t
        self.piles[scart_team] += self.scart
        if self.fool_trick_team is not None:
            ft = team(self.fool_seat)
            can = self.tricks_won[ft] > 0 or (self.o["scart_counts_for_fool"] and scart_team == ft)
            if can:
                pile = self.piles[ft]
                ones = sorted(c for c in pile if value(c) == 1)
                pay = ones[0] if ones else min(pile, key=lambda c: (value(c), c))
                pile.remove(pay)
                self.piles[1 - ft].append(pay)
                self.piles[1 - ft].remove(FOOL)
                pile.append(FOOL)
        pa, pb = points(self.piles[0]), points(self.piles[1])
        assert pa + pb == 72
        self.result = [pa - 36, pb - 36, pa - 36, pb - 36]
        self.terminal = True
        self.phase = "END"
        self.cur = None

    # ---- public interface ----------------------------------------------------------------------------------
    def legal_actions(self):
        if self.terminal:
            return []
        ph = self.phase
        if ph == "PATTERN":
            acts = [PAT_STD, PAT_910]
            if self.bal[self.chooser_team] <= -self.o["single_packet_threshold"]:
                acts.append(PAT_SINGLE)
            return acts
        if ph == "TALK":
            return list(range(FINAL0, FINAL0 + 12)) if self._final_pause() else list(range(EARLY0, EARLY0 + 10))
        if ph == "VOTE":
            return [KEEP, THROW]
        if ph == "FORCE":
            return [DECLINE, FORCE]
        if ph == "SCART":
            hand = self.hands[self.d]
            legal = {c for c in hand if c not in NO_SCART}
            if not self.o["scart_trumps_allowed"]:
                no_trumps = {c for c in legal if not is_trump(c)}
                if no_trumps:
                    legal = no_trumps
            return sorted(legal)
        if ph == "BUOB":
            return [NO_DEMAND, DEMAND]
        assert ph == "PLAY"
        p = self.cur
        acts = set(self._legal_cards(p))
        if self.o["double_lead_enabled"] and not self.trick and self.kj_on:
            for s in range(4):
                if s not in self.led_suits and king(s) in self.hands[p] and jack(s) in self.hands[p]:
                    acts.add(DOUBLE0 + s)
        if self.o["knock_enabled"]:
            t = self._t_top()
            if t is not None and t in self.hands[p] and self.knocked_for[p] != t:
                acts.add(KNOCK)
        return sorted(acts)

    def current_player(self):
        return self.cur

    def apply(self, a: int):
        assert a in self.legal_actions(), (a, self.phase)
        ph = self.phase
        if ph == "PATTERN":
            self.pattern = a
            self._start_attempt()
        elif ph == "TALK":
            self.queue.pop(0)
            if self.queue:
                self.cur = self.queue[0]
            else:
                self._pause_vote()
        elif ph == "VOTE":
            if a == KEEP:
                self._after_pause()
            else:
                self.queue.pop(0)
                if self.queue:
                    self.cur = self.queue[0]
                else:
                    self._redeal()
        elif ph == "FORCE":
            if a == FORCE:
                self._redeal()
            else:
                self._start_scart()
        elif ph == "SCART":
            self.hands[self.d].discard(a)
            self.scart.append(a)
            if len(self.scart) == 2:
                self._start_play()
        elif ph == "BUOB":
            self._resolve_buob(a == DEMAND)
        else:
            p = self.cur
            if a == KNOCK:
                self.knocked_for[p] = self._t_top()
                return
            if DOUBLE0 <= a < DOUBLE0 + 4:
                s = a - DOUBLE0
                for c in (king(s), jack(s)):
                    self.hands[p].discard(c)
                    self.trick.append((p, c))
                    self.played.add(c)
                self.is_double = True
                self.cur = (p + 1) % 4
                return
            self.hands[p].discard(a)
            self.trick.append((p, a))
            self.played.add(a)
            if len(self.trick) == self._cards_per_trick():
                self._finish_trick()
            elif self.is_double and len(self.trick) == 5:
                self.cur = (self.leader + 1) % 4
            else:
                self.cur = (p + 1) % 4
