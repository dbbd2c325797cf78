"""The rule-based Tatteln player (``make_agent("rules", "tatteln")``).

It decides from the seat's observation and legal-action mask only (``State.observation(p)``, documented block by
block in :mod:`tarockrl.games.tatteln.observe`), so it cannot peek: everything it uses is what ``docs/rules/
tatteln.md`` §9.1 makes known to the seat. The rules of thumb, in the order the decisions come up in a turn:

1. **Rob the turn-up** (§4.3) whenever it is legal: the trump seven is the lowest trump and worth nothing, the
   turn-up is a better trump, and the seven only goes back to the bottom of the stock.
2. **Announce melds** (§4.4, §4.5). In the final phase the opponent's hand is known exactly (it is every card
   that is neither ours nor played), so the agent announces a class exactly when its best key beats the
   opponent's. In the stock phase it estimates, by sampling the opponent's hidden cards from the unseen pool,
   how likely the opponent holds an equal or better combination, and announces when that risk is small (a
   "not good" outcome hands the opponent his own unscored atoms, §4.5 ``blocker_scores``). Without
   ``blocker_scores`` a failed announcement costs nothing, so it always announces. When announcing in the
   final phase is not allowed (``announce_in_final_phase = false``) it accepts more risk as the stock runs out.
3. **Card play in the stock phase** (§5.2: no duty to follow). Every card has a *holding value* ``E``: what it
   is worth to keep it for later (low plain cards are worth nothing, an ace a little, trumps their card points
   plus their trick-winning power, see :func:`holding_values`), plus the value of the unscored melds it is part
   of. Following, the agent compares, for every card, the points the trick brings (won or given away) minus the
   holding value spent: so it takes a led ten with its ace, trumps a led ace with a small trump, and otherwise
   throws its cheapest card, keeping trumps and meld cards. Leading, it leads the card that costs least to lose:
   a low plain card outside its melds. At the last stock trick it also weighs the face-up bottom card, which the
   loser of that trick draws (§5.4).
4. **Card play in the final phase.** With the stock gone the deal is a game of perfect information (§9.1) with
   compulsory following (§5.2). Once the hands are down to seven cards the agent searches it exactly (alpha-beta
   over the remaining tricks, :mod:`._tatteln_solver`) for the card that maximises its settlement: card points,
   the last-trick ten (§2.3), the Matsch (§6.3: it makes sure to win at least one final trick, and tries to
   matsch the opponent when that pays) and the reward mode (§6.4). Before that, or if the node budget runs
   out, it uses the stock-phase heuristics within the legal cards.

The agent is deterministic: its only random choice (the sampled opponent hands of rule 2) is drawn from a
generator seeded by the agent's seed and a hash of the observation, so a decision is a pure function of
``(seed, observation)``.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np

from tarockrl.agents.rules._base import RulesAgentBase
from tarockrl.agents.rules._tatteln_solver import (
    P_BUDGET,
    P_FORFEIT,
    P_LEN,
    P_MATSCH,
    P_MELD_ME,
    P_MELD_OPP,
    P_MULT,
    P_MUST_HEAD,
    P_MUST_TRUMP,
    P_R,
    P_TRUMP,
    P_WINLOSS,
    new_table,
    solve_final,
)
from tarockrl.games.tatteln.cards import CARD_POINTS, HIGHER, NATURAL_POS, STRENGTH, TRUMP_STRENGTH
from tarockrl.games.tatteln.melds import SEQ_BEST, SEQ_HELD, SET_RANKS, W_PER_SUIT, WIN_CARDS, WIN_LEN
from tarockrl.games.tatteln.observe import obs_offsets

__all__ = ["RulesAgent", "holding_values"]

# Holding value of a plain card by plain rank r (7 8 9 J Q K T A; with 36 cards 6 7 8 9 J Q K T A): low cards
# are worth nothing to keep, court cards a little (they may win a trick late), the ten is exposed to the ace, the
# ace usually wins its trick in the final phase.
_E_PLAIN = (np.array([-1.0, -1.0, -1.0, 0.0, 0.5, 1.0, 1.0, 4.0]), np.array([-1.0, -1.0, -1.0, -1.0, 0.0, 0.5,
                                                                           1.0, 1.0, 4.0]))
# A trump is worth its card points plus its trick-winning power: 3 plus its rank in the trump order.
_TRUMP_BASE = 3.0
_SAMPLES = 48  # sampled opponent hands for the announcement risk
_RISK_STOCK = 0.3  # announce in the stock phase when P(opponent ties or beats us) is at most this
_RISK_LAST = 0.6  # ... near the end of the stock when announcing in the final phase is not allowed
_NODE_BUDGET = 50_000  # alpha-beta nodes per final-phase decision before falling back to the heuristics
_SOLVE_CARDS = 7  # search exactly once the seat holds at most this many cards (earlier: the heuristics)


def holding_values(trump: int, deck_size: int = 32, bonus: bool = True) -> np.ndarray:
    """``E[c]``: the value of keeping card ``c`` in hand for later tricks (see the module docstring, rule 3)."""
    d = 0 if deck_size == 32 else 1
    r_per = 8 + d
    n = 4 * r_per
    cards = np.arange(n)
    e = _E_PLAIN[d][cards % r_per].copy()
    if trump >= 0:
        t = cards // r_per == trump
        pts = CARD_POINTS[d, int(bonus), trump + 1, :n]
        e[t] = pts[t] + _TRUMP_BASE + TRUMP_STRENGTH[d, cards[t] % r_per]
    return e


class RulesAgent(RulesAgentBase):
    """The rule-based Tatteln player: ``step(state)`` or ``act(observation, action_mask)``.

    Args:
        game: a Tatteln :class:`tarockrl.Game` (its options are public and shape the decisions).
        seed: seed of the sampling in the announcement decision (``None`` means 0); decisions are a pure
            function of ``(seed, observation)``.
    """

    GAME = "tatteln"

    def __init__(self, game: Any, seed: int | None = None) -> None:
        """Prepare the tables for the game's options."""
        super().__init__(game, seed)
        ru = game.rules
        self.rules = ru
        self.n = ru.deck_size
        self.d = 0 if self.n == 32 else 1
        self.r = 8 + self.d
        self.off = obs_offsets(self.n, ru.max_window_length)
        self.cfg = 4 * self.d + ru.max_window_length - 5
        self.w = int(W_PER_SUIT[self.cfg])
        self.k_final = ru.hand_size
        self.stock0 = ru.deck_size - 2 * ru.hand_size
        self.a_seq, self.a_set, self.a_rob = self.n, self.n + 1, self.n + 2
        self.pow2 = np.int64(1) << np.arange(self.n, dtype=np.int64)
        self.cards = np.arange(self.n)
        self.suit = self.cards // self.r
        self.rank = self.cards % self.r
        self.set_elig = int(SET_RANKS[self.d, 1 if ru.sets_all_ranks else 0])
        self.win_values = np.array([0, 0, 0, ru.value_tattel, ru.value_quart, ru.value_fuss, 16, 17, 18], float)
        self._per_trump: dict[int, tuple] = {}
        # gather indices that decode the observation in a few numpy calls (see _View)
        o, n = self.off, self.n
        self.card_rows = np.array([np.arange(o[b] + k * n, o[b] + k * n + n) for b, k in
                                   (("HAND", 0), ("REVEALED_OPP", 0), ("BOTTOM", 0), ("LED", 0), ("PLAYED", 0),
                                    ("PLAYED", 1))])
        self.win_rows = np.array([np.arange(o["SCORED_WINDOWS"] + self.w * s, o["SCORED_WINDOWS"] + self.w * s
                                            + self.w) for s in range(4)])
        self.rank_rows = np.array([np.arange(o[b], o[b] + self.r) for b in ("TRIO_SCORED", "FOUR_SCORED")])
        self.pow2w = np.int64(1) << np.arange(self.w, dtype=np.int64)
        self.pow2r = np.int64(1) << np.arange(self.r, dtype=np.int64)
        self.num_idx = np.array([o["PILE_POINTS"], o["PILE_POINTS"] + 1, o["FINAL_WON"], o["FINAL_WON"] + 1,
                                 o["MELD_POINTS"], o["MELD_POINTS"] + 1])
        self.num_scale = np.array([162.0, 162.0, self.k_final, self.k_final, 162.0, 162.0])
        self._values = np.zeros(64, dtype=np.int64)
        self._table = new_table()  # transposition table of the endgame search, one generation per call
        self._gen = 0

    # -- the interface (step and the state checks: RulesAgentBase) ---------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action for the seat whose observation this is."""
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("RulesAgent.act: the action mask has no legal action")
        if legal.size == 1:
            return int(legal[0])
        mask = np.asarray(action_mask, dtype=bool)
        if mask[self.a_rob]:
            return self.a_rob  # rule 1: always rob (§4.3)
        v = _View(self, observation)
        for a in (self.a_set, self.a_seq):  # rule 2: sets first (a set never breaks a sequence key, §4.4)
            if mask[a] and self._should_announce(v, a, observation):
                return a
        cards = legal[legal < self.n]
        return int(self._play(v, cards))

    # -- tables that depend on the trump suit ---------------------------------------------------------------
    def _tables(self, trump: int):
        tab = self._per_trump.get(trump)
        if tab is None:
            ru = self.rules
            bonus = int(ru.trump_jack_nine_bonus)
            pts = CARD_POINTS[self.d, bonus, trump + 1, : self.n].astype(np.int64)
            strength = STRENGTH[self.d, trump + 1, : self.n].astype(np.int64)
            higher = HIGHER[self.d, trump + 1, : self.n].astype(np.int64)
            e = holding_values(trump, self.n, bool(bonus))
            is_trump = (self.suit == trump) if trump >= 0 else np.zeros(self.n, bool)
            par = np.zeros(P_LEN, dtype=np.int64)
            par[P_TRUMP] = trump
            par[P_R] = self.r
            par[P_MUST_HEAD] = int(ru.final_must_head)
            par[P_MUST_TRUMP] = int(ru.final_must_trump)
            par[P_MATSCH] = int(ru.matsch_enabled)
            par[P_FORFEIT] = int(ru.matsch_forfeits_score)
            par[P_MULT] = ru.matsch_multiplier
            par[P_WINLOSS] = int(ru.reward_mode == "win_loss")
            par[P_BUDGET] = _NODE_BUDGET
            tab = (pts, strength, higher, e, is_trump, par)
            self._per_trump[trump] = tab
        return tab

    # -- melds --------------------------------------------------------------------------------------------------
    def _seq_key(self, hands: np.ndarray) -> np.ndarray:
        """Best sequence key (§4.4) of every hand mask in ``hands`` (int64 array)."""
        rm = (1 << self.r) - 1
        best = np.zeros(hands.shape, dtype=np.int64)
        for s in range(4):
            best = np.maximum(best, SEQ_BEST[self.cfg][(hands >> (self.r * s)) & rm])
        return best

    def _set_key(self, hands: np.ndarray) -> np.ndarray:
        """Best set key (§4.4): 16 * count + natural position of the best eligible rank held 3 or 4 times."""
        bits = ((hands[:, None] >> self.cards[None, :]) & 1).reshape(hands.shape[0], 4, self.r)
        counts = bits.sum(axis=1)  # [hands, rank]
        elig = ((self.set_elig >> np.arange(self.r)) & 1).astype(bool)
        keys = np.where((counts >= 3) & elig[None, :], 16 * counts + NATURAL_POS[self.d, : self.r][None, :], 0)
        return keys.max(axis=1)

    def _meld_bonus(self, v: _View) -> np.ndarray:
        """Per card: the value of the unscored melds of the own hand that the card belongs to (rule 3)."""
        bonus = np.zeros(self.n)
        rm = (1 << self.r) - 1
        for s in range(4):
            held = int(SEQ_HELD[self.cfg, (v.hand >> (self.r * s)) & rm]) & ~v.scored_win[s]
            while held:
                w = (held & -held).bit_length() - 1
                held &= held - 1
                pat = int(WIN_CARDS[self.cfg, w]) << (self.r * s)
                bonus[(pat >> self.cards) & 1 == 1] += self.win_values[WIN_LEN[self.cfg, w]]
        counts = ((v.hand >> self.cards) & 1).reshape(4, self.r).sum(axis=0)
        for q in range(self.r):
            if (self.set_elig >> q) & 1 and counts[q] >= 3:
                if counts[q] == 4 and not (v.four_scored >> q) & 1:
                    val = self.rules.value_four
                elif counts[q] == 3 and not ((v.trio_scored | v.four_scored) >> q) & 1:
                    val = self.rules.value_trio
                else:
                    continue
                ranks = self.rank == q
                bonus[ranks & (((v.hand >> self.cards) & 1) == 1)] += val
        return bonus

    def _should_announce(self, v: _View, action: int, observation: np.ndarray) -> bool:
        """Rule 2: announce a class when the opponent is unlikely to hold an equal or better combination."""
        ru = self.rules
        if not ru.blocker_scores:
            return True  # a "not good" outcome costs nothing
        keyf = self._seq_key if action == self.a_seq else self._set_key
        mine = int(keyf(np.array([v.hand], dtype=np.int64))[0])
        if v.final:
            # the opponent's hand is known exactly: every card neither ours nor played
            opp = int(keyf(np.array([v.unseen | v.rev_opp], dtype=np.int64))[0])
            return mine > opp
        k = v.opp_hidden
        pool = np.flatnonzero((v.unseen >> self.cards) & 1)
        if k <= 0 or pool.size < k:
            opp_hands = np.array([v.rev_opp], dtype=np.int64)
        else:
            h = zlib.crc32(observation.tobytes()) ^ (self.seed * 0x9E3779B1)
            rng = np.random.default_rng(h & 0xFFFFFFFFFFFF)
            pick = np.argsort(rng.random((_SAMPLES, pool.size)), axis=1)[:, :k]
            opp_hands = self.pow2[pool[pick]].sum(axis=1) | v.rev_opp
        risk = float((keyf(opp_hands) >= mine).mean())
        limit = _RISK_STOCK
        if not ru.announce_in_final_phase and v.stock_left <= 4:
            limit = _RISK_LAST
        return risk <= limit

    # -- card play -------------------------------------------------------------------------------------------
    def _play(self, v: _View, cards: np.ndarray) -> int:
        pts, strength, higher, e, is_trump, par = self._tables(v.trump)
        if v.final and bin(v.hand).count("1") <= _SOLVE_CARDS:
            best = self._solve(v, cards, pts, strength, higher, par)
            if best >= 0:
                return best
        keep = e[cards] + self._meld_bonus(v)[cards]
        if v.led >= 0:
            return int(cards[np.argmax(self._follow_scores(v, cards, pts, strength, is_trump, e) - keep)])
        return int(cards[np.argmax(self._lead_scores(v, cards, pts, strength, is_trump) - keep)])

    def _follow_scores(self, v, cards, pts, strength, is_trump, e) -> np.ndarray:
        """Points the trick brings for each card: won (+) or given away (-) (§5.3 decides who wins)."""
        led = v.led
        same = self.suit[cards] == self.suit[led]
        beats = np.where(same, strength[cards] > strength[led], is_trump[cards])
        swing = pts[cards] + pts[led]
        score = np.where(beats, swing, -swing).astype(float)
        if v.stock_left == 2 and v.bottom >= 0:
            # last stock trick: the loser draws the face-up bottom card, the winner an unseen one (§5.4)
            unseen = np.flatnonzero((v.unseen >> self.cards) & 1)
            avg = float(e[unseen].mean()) if unseen.size else 0.0
            score = score + np.where(beats, avg - e[v.bottom], 0.0)
        return score

    def _lead_scores(self, v, cards, pts, strength, is_trump) -> np.ndarray:
        """Expected loss of leading each card: its points, weighted by how likely the opponent takes it."""
        higher = self._tables(v.trump)[2]  # per card: the cards of its suit that beat it
        outside = np.int64(v.unseen | v.rev_opp)  # cards the opponent may hold
        higher_out = (higher[cards] & outside) != 0
        trumps_out = False
        if v.trump >= 0:
            trumps_out = (int(outside) >> (self.r * v.trump)) & ((1 << self.r) - 1) != 0
        can_trump = trumps_out & ~is_trump[cards]
        p = pts[cards].astype(float)
        # a sure winner brings its points; a card only a trump can take is lost half the time; else mostly lost
        return np.where(higher_out, -0.9 * p, np.where(can_trump, -0.5 * p, 0.5 * p))

    def _solve(self, v, cards, pts, strength, higher, par) -> int:
        """Rule 4: the exact final-phase search; -1 when the node budget ran out."""
        par = par.copy()
        par[P_MELD_ME] = v.meld_me
        par[P_MELD_OPP] = v.meld_opp
        opp = v.unseen | v.rev_opp
        vals = self._values
        ok = solve_final(np.int64(v.hand), np.int64(opp), np.int64(1 if v.led < 0 else 0), np.int64(v.led),
                         np.int64(v.pile_me), np.int64(v.pile_opp), np.int64(v.fw_me), np.int64(v.fw_opp), par,
                         pts, strength, higher, vals, self._table, np.int64(self._gen))
        self._gen += 1
        if ok < 0:
            return -1
        cand = vals[cards]
        best = cand.max()
        tied = cards[cand == best]
        if tied.size == 1:
            return int(tied[0])
        # equal outcomes: keep the more valuable cards (play the one with the lowest holding value)
        e = self._tables(v.trump)[3]
        return int(tied[np.argmin(e[tied])])


class _View:
    """The observation of the seat to move, decoded into card masks and numbers (only what §9.1 shows it)."""

    __slots__ = ("hand", "rev_opp", "final", "trump", "bottom", "stock_left", "led", "played", "unseen",
                 "pile_me", "pile_opp", "fw_me", "fw_opp", "meld_me", "meld_opp", "scored_win", "trio_scored",
                 "four_scored", "opp_hidden")

    def __init__(self, agent: RulesAgent, obs: np.ndarray) -> None:
        o = agent.off
        bits = obs > 0.5
        hand, rev_opp, b, led, played0, played1 = (int(x) for x in bits[agent.card_rows] @ agent.pow2)
        self.hand = hand
        self.rev_opp = rev_opp
        self.final = bool(bits[o["PHASE"] + 1])
        tr = bits[o["TRUMP"]:o["TRUMP"] + 4]
        self.trump = int(np.argmax(tr)) if tr.any() else -1
        self.bottom = b.bit_length() - 1 if b else -1
        self.stock_left = int(round(float(obs[o["STOCK_SIZE"]]) * agent.stock0))
        self.led = led.bit_length() - 1 if led else -1
        self.played = played0 | played1
        # cards whose place the seat does not know: the opponent's hidden cards and the face-down stock
        self.unseen = ((1 << agent.n) - 1) & ~hand & ~self.played & ~rev_opp & ~b
        nums = np.rint(obs[agent.num_idx] * agent.num_scale).astype(np.int64)
        self.pile_me, self.pile_opp, self.fw_me, self.fw_opp, self.meld_me, self.meld_opp = (int(x) for x in nums)
        self.scored_win = [int(x) for x in bits[agent.win_rows] @ agent.pow2w]
        self.trio_scored, self.four_scored = (int(x) for x in bits[agent.rank_rows] @ agent.pow2r)
        # the opponent holds as many cards as we do, one fewer when he has led to this trick
        me_leads = bits[o["LEADER"]]
        opp_size = hand.bit_count() - (0 if me_leads or self.led < 0 else 1)
        self.opp_hidden = opp_size - rev_opp.bit_count()
