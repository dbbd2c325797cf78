"""The rule-based Troccas player (``make_agent("rules", "troccas")``).

It decides from the seat's observation and legal-action mask only (``State.observation(p)``, decoded by
:mod:`._troccas_view`), so it cannot peek: it sees exactly what ``docs/rules/troccas.md`` §4.10 entitles the seat
to. Every decision of the game is covered; the rules of thumb, by phase:

* **Packet size** (§4.2, a team that is behind): it takes the largest packets it may ask for, which is the
  custom the rule exists for.
* **Hand strength** (used by talk and votes): ``strength`` counts trumps (1 each), high trumps XV-XX (+1),
  trump XXI (+3), the Fool (+1.5), kings (+2), queens (+0.5), scaled to a 19-card hand so that a partial hand of
  an early pause can be judged too. An average hand scores about 11.
* **Table talk** (*tschintschar*, §4.3): it tells the truth with the conventional meanings of the tournament
  lists (e.g. *il narr* when it holds the Fool and some trumps, *ina trocca* for 7-8 trumps, *ina cuort* for a
  whole court of one suit, *nuot* / *jeu sun buc cheu* for a worthless hand), choosing the most useful true
  message; see :func:`early_message` and :func:`final_message`.
* **Throw-in vote** (§4.4): it votes to throw in when its own strength, corrected by what its partner said,
  is below average; otherwise it keeps (against random players this measured better than throwing in only
  clearly bad hands).
* **Dealer's forced redeal** (§4.5): a dealer without trumps always demands the new deal.
* **Scart** (§4.7): two discards that bank points and make voids: a court card that a king does not protect,
  the last cards of a short suit (so it can trump that suit later), never a trump unless forced.
* **King-jack demand** (§5.7): always demand; the jack can only come into the winner's trick.
* **Knocking** (§4.8, option): it knocks whenever it may, an honest signal that it holds the top trump.
* **Card play** (§5.3-§5.8):

  - *following*: every legal card is scored by the points the trick brings to the team, counted plus when the
    team will take the trick and minus when the opponents will, weighted by how sure that is (certain for the
    last player, or when the winning card is the top card still out; a guess otherwise), minus the *power* the
    card would have kept for later (middle trumps by rank, trump XXI most, a king in its suit's first round; trump
    I has none and only risks being lost). This one rule **smears** points on a trick the partner holds safely
    (trump I first, never trump XXI), **trumps in** or beats with the cheapest card that wins when the trick is
    worth it, and otherwise **ducks cheaply**; the Fool replaces an expensive card (it costs one point to
    redeem, §5.8);
  - *leading*, **from strength**: a king of a suit not yet led (it usually wins, and a first king lead brings
    the jack demand), a sure-winning top trump when it is long in trumps or the partner knocked, a low trump
    to reach the partner who said he is strong in trumps, otherwise a low card of its shortest plain suit (to
    make a void it can trump later); it uses the double lead of king and jack (option, §5.5) early in the deal
    when the suit is short.

The agent has no randomness: a decision is a function of the observation and the legal actions.
"""

from __future__ import annotations

import numpy as np

from tarockrl.agents.rules._base import RulesAgentBase
from tarockrl.agents.rules._troccas_view import (
    FOOL,
    IS_COURT,
    IS_FIVE,
    IS_KING,
    IS_TRUMP,
    OFFSET,
    POWER,
    SUIT,
    SUIT_MASK,
    T1,
    T21,
    VALUE,
    View,
)
from tarockrl.games.troccas import layout as L

__all__ = ["RulesAgent", "strength", "early_message", "final_message"]

_AVERAGE = 11.0  # strength of an average hand (see strength)
_THROW_BELOW = _AVERAGE  # vote to throw in a hand (corrected by the partner's talk) below average
# What the partner's messages say about his hand, as a strength correction for the vote (§4.3 meanings).
_EARLY_HINT = np.array([0, 0, 1, 1, 3, -3, -4, 1, -1, 0], dtype=float)
_FINAL_HINT = np.array([0, 1, 2, 0, 3, 2, 2, 2, 3, -2, -4, 0], dtype=float)
_FINAL_TRUMPS = {1, 2, 4, 7}  # final messages that promise many trumps


def strength(hand: np.ndarray) -> float:
    """The hand-strength measure of the module docstring, scaled to a 19-card hand (0 for an empty hand)."""
    n = int(hand.sum())
    if n == 0:
        return 0.0
    trumps = hand & IS_TRUMP
    s = float(trumps.sum()) + float(trumps[14:20].sum()) + 3.0 * hand[T21] + 1.5 * hand[FOOL]
    s += 2.0 * float((hand & IS_KING).sum()) + 0.5 * float((hand & (OFFSET == 12)).sum())
    return s * 19.0 / n


def early_message(hand: np.ndarray) -> int:
    """The honest early message (E0-E9, §4.3) for a partial hand."""
    n = int(hand.sum())
    st = strength(hand)
    n_trumps = int((hand & IS_TRUMP).sum())
    fives = int((hand & IS_FIVE).sum())
    if hand[FOOL]:
        return 7 if n_trumps else 8  # il narr (with trumps) / il narr blut (bare)
    if st < 5:
        return 6  # nuot: my cards are worthless
    if st < 7.5:
        return 5  # autras: bad hand, I would like a new deal
    if st > 14:
        return 4  # jeu mirel: promising hand, keep dealing
    if 2 * n_trumps >= n and n_trumps >= 3:
        return 3  # tric e trac: about half my cards are trumps
    if fives >= 2:
        return 2  # in: two 5-point cards
    if fives == 1:
        return 1  # strusch in: just one 5-point card
    return 0


def final_message(hand: np.ndarray) -> int:
    """The honest final message (F0-F11, §4.3) for the complete hand."""
    st = strength(hand)
    trumps = hand & IS_TRUMP
    n_trumps = int(trumps.sum())
    high = int(trumps[11:21].sum())  # trumps XII-XXI
    fives = int((hand & IS_FIVE).sum())
    courts = hand & IS_COURT
    full_court = any(int((courts & SUIT_MASK[s]).sum()) == 4 for s in range(4))
    if st < 5:
        return 10  # jeu sun buc cheu: I have nothing
    if full_court:
        return 6  # ina cuort: all four court cards of one suit
    if 8 <= high <= 10:
        return 4  # da Medel: 8 to 10 high trumps
    if fives == 2 and 6 <= n_trumps <= 7:
        return 7  # in pass: two 5-point cards with 6 or 7 trumps
    if 7 <= n_trumps <= 8:
        return 2  # ina trocca: 7 or 8 trumps
    if 5 <= n_trumps <= 6:
        return 1  # in troschet: 5 or 6 trumps
    if 4 <= n_trumps <= 5 and high == 0:
        return 3  # in tunnel: 4 or 5 low trumps
    if int(courts.sum()) >= 6:
        return 5  # da Tujetsch: many court cards
    if st > 14:
        return 8  # jeu gidel: a good hand
    if st < 8:
        return 9  # pli bugen autras: mediocre
    return 11  # fai scart: let's play


class RulesAgent(RulesAgentBase):
    """The rule-based Troccas player: ``step(state)`` or ``act(observation, action_mask)``.

    Args:
        game: a Troccas :class:`tarockrl.Game` (its options are public).
        seed: accepted for the common interface; the agent has no random choices.
    """

    GAME = "troccas"  # its options decide nothing the legal mask does not already say; step: RulesAgentBase

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action for the seat whose observation this is."""
        mask = np.asarray(action_mask, dtype=bool)
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("RulesAgent.act: the action mask has no legal action")
        if legal.size == 1:
            return int(legal[0])
        first = int(legal[0])
        if first >= L.A_PATTERN and first < L.A_NO_DEMAND:
            return int(legal[-1])  # §4.2: the largest packets the team may ask for
        if first >= L.A_NO_DEMAND and first <= L.A_DEMAND:
            return L.A_DEMAND if mask[L.A_DEMAND] else first  # §5.7: always demand the jack
        v = View(observation)
        if first >= L.A_EARLY and first < L.A_FINAL:
            return L.A_EARLY + early_message(v.hand)
        if first >= L.A_FINAL and first < L.A_KEEP:
            return L.A_FINAL + final_message(v.hand)
        if first in (L.A_KEEP, L.A_THROW):
            return self._vote(v)
        if first in (L.A_DECLINE, L.A_FORCE):
            return L.A_FORCE if mask[L.A_FORCE] else L.A_DECLINE  # §4.5: no trump, new deal
        if mask[L.A_KNOCK]:
            return L.A_KNOCK  # §4.8: an honest signal of the top trump
        cards = legal[legal < 78]
        if v.phase == L.SCART:
            return self._discard(v, cards)
        doubles = legal[(legal >= L.A_DOUBLE) & (legal < L.A_DOUBLE + 4)]
        return self._play(v, cards, doubles)

    # -- before the play -------------------------------------------------------------------------------------
    def _partner_hint(self, v: View) -> float:
        """What the partner's talk of this attempt says about his hand (a strength correction)."""
        hint = 0.0
        for pause, m in enumerate(v.partner_talk()):
            if m >= 0:
                hint += _FINAL_HINT[m] if pause == v.final_pause else _EARLY_HINT[min(m, 9)]
        return hint

    def _vote(self, v: View) -> int:
        """§4.4: throw in when the hand, corrected by the partner's word, is below average."""
        team = strength(v.hand) + 0.5 * self._partner_hint(v)
        return L.A_THROW if team < _THROW_BELOW else L.A_KEEP

    def _discard(self, v: View, cards: np.ndarray) -> int:
        """§4.7: bank points and make voids; trumps only when nothing else is legal."""
        hand = v.hand
        score = VALUE[cards].astype(float) - 1.0  # points banked in the scart
        for i, c in enumerate(cards):
            s = SUIT[c]
            if s == 4:
                score[i] -= 20.0 + c  # a trump: only when forced, then the lowest
                continue
            length = int((hand & SUIT_MASK[s]).sum())
            if length == 1:
                score[i] += 4.0  # a void in that suit
            elif length == 2:
                score[i] += 1.5
            if IS_COURT[c] and hand[35 + 14 * s]:
                score[i] -= 2.5  # a court card the king protects can stay
            score[i] -= 0.01 * OFFSET[c]  # among equals, the lowest card
        return int(cards[np.argmax(score)])

    # -- card play ------------------------------------------------------------------------------------------
    def _play(self, v: View, cards: np.ndarray, doubles: np.ndarray) -> int:
        if v.trick_cards().size == 0:
            return self._lead(v, cards, doubles)
        return self._follow(v, cards)

    def _sure(self, v: View, card: int) -> bool:
        """True when no card another seat may hold can beat ``card`` in this trick (§5.6)."""
        outside = np.flatnonzero(v.outside)
        if IS_TRUMP[card]:
            return not (IS_TRUMP[outside] & (outside > card)).any()
        s = SUIT[card]
        higher = (SUIT[outside] == s) & (outside > card)
        if higher.any():
            return False
        # nobody has shown a void yet only in the first round of a suit; later they may trump
        return not v.led_suits[s] and v.trick_no < 6

    def _power(self, v: View, cards: np.ndarray) -> np.ndarray:
        """What keeping each card is worth for later tricks (its trick-taking power), in card points.

        Middle trumps win or force tricks later (more the higher they are); trump XXI is a sure trick of its own,
        worth most early in the deal; trump I has no power and risks being lost, so keeping it costs; a king
        usually wins its suit's first round; the Fool is an escape from an expensive follow.
        """
        left = (19 - v.trick_no) / 19.0
        power = np.zeros(cards.size)
        t = IS_TRUMP[cards]
        power[t] = 0.4 + cards[t] / 6.0 * left
        power[cards == T21] = 1.0 + 2.0 * left
        power[cards == T1] = -1.5
        power[IS_KING[cards]] = 1.5 * left + 0.5
        power[IS_COURT[cards] & ~IS_KING[cards]] = 0.3
        power[cards == FOOL] = 1.5
        return power

    def _follow(self, v: View, cards: np.ndarray) -> int:
        """Score every legal card by the points the trick brings to the team (won +, lost -), weighted by how
        sure the outcome is, minus the power the card would have kept for later (§5.6, §5.8)."""
        win_seat, win_card = v.winner()
        rest = v.still_to_play()
        pts = float(VALUE[v.trick_cards()].sum())
        pts += 1.5 * len(rest)  # the cards still to come, about a point and a half each
        partner_after = 2 in rest
        opp_after = 1 in rest or 3 in rest
        score = np.zeros(cards.size)
        for i, c in enumerate(cards):  # at most 19 cards
            c = int(c)
            if c == FOOL:
                # the Fool never wins and does not change the winner; it costs one point if the opponents win
                takes = False
            elif win_card < 0:
                takes = True
            elif IS_TRUMP[c]:
                takes = not IS_TRUMP[win_card] or c > win_card
            else:
                takes = not IS_TRUMP[win_card] and SUIT[c] == SUIT[win_card] and c > win_card
            if takes:
                top, ours = c, True
            else:
                top, ours = win_card, win_seat == 2
            if top < 0:
                p_ours = 0.5
            elif not rest or self._sure(v, top):
                p_ours = 1.0 if ours else 0.0
            elif ours:
                # an opponent still to play may beat it (0.45 and 0.75 measured worse than 0.6 against random)
                p_ours = 0.6 if opp_after else 0.9
            else:
                p_ours = 0.45 if partner_after else 0.0  # the partner still to play may take it
            own = 0.0 if c == FOOL else float(VALUE[c])
            swing = (2.0 * p_ours - 1.0) * (pts + own)
            if c == FOOL:
                swing -= (1.0 - p_ours) * 1.0
            score[i] = swing
        score -= self._power(v, cards)
        score -= 0.001 * POWER[cards]  # among equals, the lower card
        return int(cards[np.argmax(score)])

    def _lead(self, v: View, cards: np.ndarray, doubles: np.ndarray) -> int:
        hand = v.hand
        no_fool = cards[cards != FOOL]
        if no_fool.size == 0:
            return int(cards[0])
        trumps = no_fool[IS_TRUMP[no_fool]]
        plain = no_fool[~IS_TRUMP[no_fool]]
        # 1. a king of a suit not yet led (it wins the first round and brings the jack demand, §5.7)
        kings = plain[IS_KING[plain]]
        fresh = [int(k) for k in kings if not v.led_suits[SUIT[k]] and self._sure(v, int(k))]
        if fresh:
            # the suit where it holds the fewest cards: the others still follow
            k = min(fresh, key=lambda c: (int((hand & SUIT_MASK[SUIT[c]]).sum()), c))
            s = SUIT[k]
            if doubles.size and (L.A_DOUBLE + s) in doubles and int((hand & SUIT_MASK[s]).sum()) <= 4 \
                    and v.trick_no <= 4:
                return L.A_DOUBLE + s  # §5.5: king and jack together while the suit goes round
            return k
        # 1b. another sure winner of a suit's first round (the top card still out, e.g. a queen once the king
        # has gone): the others follow with what they have
        tops = [int(c) for c in plain if IS_COURT[c] and self._sure(v, int(c))]
        if tops:
            return max(tops, key=lambda c: (VALUE[c], -int((hand & SUIT_MASK[SUIT[c]]).sum()), c))
        out_trumps = np.flatnonzero(v.outside & IS_TRUMP)
        # the partner knocked for the highest trump still out: he holds it (§4.8, knocks are truthful)
        partner_knocked = out_trumps.size > 0 and bool(v.knocks[2, out_trumps.max()])
        n_trumps = trumps.size
        # 2. a sure-winning top trump when long in trumps (it draws the opponents' trumps)
        if n_trumps:
            top = int(trumps.max())
            if self._sure(v, top) and (n_trumps >= 5 or out_trumps.size <= n_trumps):
                return top
            # 3. the partner knocked (holds the top trump) or promised many trumps: lead him a low trump
            partner_long = any(m in _FINAL_TRUMPS for p, m in enumerate(v.partner_talk()) if p == v.final_pause)
            low = trumps[trumps != T1]
            if (partner_knocked or partner_long) and low.size:
                return int(low.min())
        # 4. a low card of the shortest plain suit (a void to trump later)
        if plain.size:
            lengths = np.array([int((hand & SUIT_MASK[SUIT[c]]).sum()) for c in plain])
            val = VALUE[plain].astype(float) * 3 + lengths + 0.01 * OFFSET[plain]
            # keep kings that will win later; a lone court card is better led than lost
            val[IS_KING[plain]] += 5
            return int(plain[np.argmin(val)])
        # 5. only trumps left: the lowest but trump I (kept for smearing), or the Fool
        low = trumps[trumps != T1]
        if low.size:
            return int(low.min())
        if FOOL in cards:
            return FOOL
        return int(trumps.min())
