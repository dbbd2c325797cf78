"""Card-play heuristics shared by the rule-based players of the tarock games (game-agnostic).

Everything works on **card masks** (Python ints, bit ``i`` = card ``i``) of a pack described by a :class:`Pack`:
one trump block, plain suits, and a counting value per card. A higher index beats a lower one inside the trumps
and inside each suit, and any trump beats any plain card; the trick goes to the highest trump, else to the
highest card of the suit led. That is the trick rule of Dreierles, Dreiertarock and (without the Fool) Troccas;
a game with other rules builds its own :class:`Pack` and reuses the functions that apply.

The player is described by a :class:`PlayView`: its hand and legal cards, the current trick, which seats are on
its side, the cards that may still be in the other hands (``outstanding``), the suits each seat has shown it
lacks, the cards to keep for a bonus in a late trick (Pfeife / Pagat and the other birds), and whether the deal
is a "take as few points as possible" game (Räuber, Trischaken). :func:`choose_card` returns the card to play;
the classic rules it follows, in order, are written in its helpers:

* **following** (:func:`_follow`): smear points on a trick the partner has surely won; win cheaply when the trick
  is worth it and the win will hold (trump in when profitable); otherwise duck with the cheapest card;
* **leading** (:func:`_lead`): the declarer draws trumps with a master trump or a long trump holding, then cashes
  masters; a defender cashes masters, forces the declarer in suits he lacks, otherwise leads short suits low;
* **bonus cards** (Pfeife/Pagat, Uhu, Kakadu): kept back for their trick while they can still win it, played in
  their trick when they can win it, smeared on a partner's sure trick when they are doomed;
* **point-avoiding games** (:func:`_avoid`): duck under the winning card with the most dangerous and valuable
  card, and when a trick must be taken, take it with the card that would cost most later.

All inference uses only what the seat may know: its own hand, public play and the public voids.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "Pack", "PlayView", "TAROCK54", "cards_of", "choose_card", "highest", "lowest", "popcount", "safety54",
    "strength54", "discard_choice",
]


def popcount(mask: int) -> int:
    """Number of cards in ``mask``."""
    return mask.bit_count()


def lowest(mask: int) -> int:
    """Index of the lowest card of a non-empty ``mask``."""
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    """Index of the highest card of a non-empty ``mask``."""
    return mask.bit_length() - 1


def cards_of(mask: int) -> list[int]:
    """The card indices of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Pack:
    """A pack of cards: the trump mask, the plain suits (masks, low to high) and each card's counting value.

    Args:
        trumps: mask of the trumps (their order is their index order).
        suits: masks of the plain suits.
        values: counting value of every card, by index.
    """

    def __init__(self, trumps: int, suits: tuple[int, ...], values: tuple[int, ...]) -> None:
        """Build the lookup tables (suit mask of each card, masks by value)."""
        self.trumps = trumps
        self.suits = suits
        self.values = values
        self.n_cards = len(values)
        self.all = (1 << self.n_cards) - 1
        self.suit_of = [trumps if (trumps >> c) & 1 else next(s for s in suits if (s >> c) & 1)
                        for c in range(self.n_cards)]
        self.value_masks = {}
        for c, v in enumerate(values):
            self.value_masks[v] = self.value_masks.get(v, 0) | (1 << c)

    def points(self, mask: int) -> int:
        """Sum of the counting values of ``mask`` (no group deduction: a heuristic measure)."""
        return sum(v * (mask & m).bit_count() for v, m in self.value_masks.items())

    def beats(self, card: int, best: int) -> bool:
        """Whether ``card`` played now beats the currently winning card ``best`` of a trick."""
        if (self.trumps >> card) & 1:
            return not (self.trumps >> best) & 1 or card > best
        return self.suit_of[card] == self.suit_of[best] and card > best

    def winner(self, trick: list[int]) -> int:
        """Position of the winning card in ``trick`` (cards in playing order)."""
        w = 0
        for i in range(1, len(trick)):
            if self.beats(trick[i], trick[w]):
                w = i
        return w

    def beaters(self, best: int, led: int, mask: int) -> int:
        """The cards of ``mask`` that beat ``best`` (the winning card of a trick whose led card is ``led``)."""
        t = self.trumps
        if (t >> best) & 1:
            return mask & t & ~((2 << best) - 1)
        suit = self.suit_of[led]
        return (mask & t) | (mask & suit & ~((2 << best) - 1))


_VALUES54 = tuple(
    [5] + [1] * 19 + [5, 5]  # trumps: Pfeife/Pagat 5, II-XX 1, 21 and Stieß/Sküs 5
    + [1, 1, 1, 1, 2, 3, 4, 5] * 4  # each suit from its lowest card: four pips, jack, cavalier, queen, king
)
TAROCK54 = Pack((1 << 22) - 1, tuple(0xFF << (22 + 8 * s) for s in range(4)), _VALUES54)
"""The 54-card Cego / Industrie und Glück pack of Dreierles and Dreiertarock (trumps 0-21, four suits of 8)."""

# ---- hand measures of the 54-card pack ---------------------------------------------------------------------------

_T54 = (1 << 22) - 1
_SUITS54 = tuple(0xFF << (22 + 8 * s) for s in range(4))
_KINGS54 = sum(1 << (29 + 8 * s) for s in range(4))
_PIPS54 = sum(0x0F << (22 + 8 * s) for s in range(4))  # the four lowest cards of each suit
_HIGH_TRUMP_BONUS = {21: 2.0, 20: 1.5, 19: 1.0, 18: 0.7, 17: 0.4}  # Stieß/Sküs, 21, 20, 19, 18


def strength54(hand: int) -> float:
    """Trick-taking strength of a hand of the 54-card tarock pack, in "trick-taking units".

    Every trump counts 1 and the high trumps more (top trump +2, 21 +1.5, 20 +1, 19 +0.7, 18 +0.4); every
    king 1.5; with at least four trumps a void 1 and a singleton 0.4 (they let the hand trump in); the lowest
    trump (Pfeife / Pagat) +0.5 with seven or more trumps (it may win the last trick). A dealt 16-card hand
    scores about 11 on average.
    """
    n_trumps = (hand & _T54).bit_count()
    s = float(n_trumps)
    for card, bonus in _HIGH_TRUMP_BONUS.items():
        if (hand >> card) & 1:
            s += bonus
    if hand & 1 and n_trumps >= 7:
        s += 0.5
    s += 1.5 * (hand & _KINGS54).bit_count()
    if n_trumps >= 4:
        for suit in _SUITS54:
            n = (hand & suit).bit_count()
            if n == 0:
                s += 1.0
            elif n == 1:
                s += 0.4
    return s


def safety54(hand: int) -> float:
    """How safe a hand is in a point-avoiding game (Räuber, Trischaken): higher = fewer tricks to fear.

    The top trump costs 3, the 21 costs 2, every trump from 16 up 1 more, every king 1.5; each of the four
    lowest cards of a suit adds 0.5 and each trump 2..8 adds 0.3 (cards that duck under others).
    """
    s = -3.0 * ((hand >> 21) & 1) - 2.0 * ((hand >> 20) & 1)
    s -= (hand & _T54 & ~((1 << 15) - 1)).bit_count()
    s -= 1.5 * (hand & _KINGS54).bit_count()
    s += 0.5 * (hand & _PIPS54).bit_count()
    s += 0.3 * (hand & ((1 << 8) - 2)).bit_count()
    return s


@dataclass
class PlayView:
    """Everything the seat to move knows that matters for choosing a card (see the module docstring).

    Attributes:
        pack: the pack.
        me: the seat to move.
        n_players: players per trick.
        hand: the mover's hand.
        legal: the legal cards (a non-empty subset of ``hand``).
        trick: the current trick as ``(seat, card)`` pairs in playing order (empty when leading).
        side: side id of every seat (equal ids play together; all different in point-avoiding games).
        outstanding: cards that may still be in another seat's hand (not mine, not played, not known laid away).
        voids: per seat, the mask of the suits (as card masks) it has shown it lacks.
        known: per seat, cards known to be in that seat's hand (for example blind cards taken face up).
        trick_no: the number of the current trick, 1-based.
        n_tricks: tricks in a deal.
        keep: bonus cards of the mover with the trick number they should win (e.g. ``{0: 16}`` for the Pfeife).
        announced: the subset of ``keep`` whose bonus was announced (kept back whatever happens).
        avoid_points: a point-avoiding game (Räuber, Trischaken): every seat wants to take as few points as possible.
        declarer: the declarer's seat (``-1`` in point-avoiding games).
        precious: cards that cost extra when captured by an opponent (e.g. the Mond while the Sküs is out).
        reserve: cards to hold back as long as another legal card exists (e.g. a trump kept to beat an opponent's
            bird in its trick).
    """

    pack: Pack
    me: int
    n_players: int
    hand: int
    legal: int
    trick: list[tuple[int, int]]
    side: tuple[int, ...]
    outstanding: int
    voids: tuple[int, ...]
    known: tuple[int, ...]
    trick_no: int
    n_tricks: int = 16
    keep: dict[int, int] = field(default_factory=dict)
    announced: frozenset[int] = frozenset()
    avoid_points: bool = False
    declarer: int = -1
    precious: int = 0
    reserve: int = 0

    def possible(self, seat: int) -> int:
        """Cards ``seat`` may hold: its known cards, plus outstanding cards of suits it may still hold that no
        other seat is known to hold."""
        others = 0
        for s, k in enumerate(self.known):
            if s != seat:
                others |= k
        return self.known[seat] | (self.outstanding & ~self.voids[seat] & ~others)

    def partner_of(self, seat: int) -> bool:
        """Whether ``seat`` is on the mover's side (and is not the mover)."""
        return seat != self.me and self.side[seat] == self.side[self.me]


def choose_card(v: PlayView) -> int:
    """The card the rule-based player plays (always one of ``v.legal``)."""
    legal = v.legal
    if legal & (legal - 1) == 0:
        return lowest(legal)  # a single legal card
    if v.avoid_points:
        return _avoid(v)
    # A bonus card in its own trick: play it when it can win (an announced one always goes now).
    for card, target in v.keep.items():
        if v.trick_no == target and (legal >> card) & 1 and (card in v.announced or _bird_can_win(v, card)):
            return card
    usable = legal & ~_kept(v)
    if usable == 0:
        usable = legal
    if usable & ~v.reserve:
        usable &= ~v.reserve
    if not v.trick:
        return _lead(v, usable)
    return _follow(v, usable)


# ---- bonus cards ------------------------------------------------------------------------------------------------


def _kept(v: PlayView) -> int:
    """The bonus cards still worth keeping back for their trick (announced ones always, silent ones while the
    mover's other trumps match the trumps still out, so that the card can be the only trump of its trick)."""
    kept = 0
    trumps_out = popcount(v.outstanding & v.pack.trumps)
    my_trumps = popcount(v.hand & v.pack.trumps)
    for card, target in v.keep.items():
        if not (v.hand >> card) & 1 or v.trick_no >= target:
            continue
        if card in v.announced or my_trumps - len(v.keep) >= trumps_out:
            kept |= 1 << card
    return kept


def _bird_can_win(v: PlayView, card: int) -> bool:
    """Whether ``card`` played now would win the trick for sure (no later opponent can beat it)."""
    if v.trick:
        best = v.trick[v.pack.winner([c for _, c in v.trick])][1]
        if not v.pack.beats(card, best):
            return False
    led = v.trick[0][1] if v.trick else card
    return not any(_may_beat(v, s, card, led) for s in _rest(v) if not v.partner_of(s))


# ---- inference ------------------------------------------------------------------------------------------------


def _rest(v: PlayView) -> list[int]:
    """Seats still to play to the current trick after the mover."""
    return [(v.me + i) % v.n_players for i in range(1, v.n_players - len(v.trick))]


def _may_beat(v: PlayView, seat: int, best: int, led: int) -> bool:
    """Whether ``seat`` may hold and legally play a card beating ``best`` (a trick led with ``led``).

    A seat that still holds cards of the suit led must follow, so it can only trump when it is void there; a
    seat not known to be void is assumed to follow while two or more cards of the suit may be in its hand.
    """
    pack = v.pack
    poss = v.possible(seat)
    suit = pack.suit_of[led]
    if suit != pack.trumps and v.known[seat] & suit == 0:
        follows = (v.voids[seat] & suit) == 0 and popcount(poss & suit) >= 2
    else:
        follows = (poss & suit) != 0 and suit != pack.trumps
    if (pack.trumps >> best) & 1:
        higher = poss & pack.trumps & ~((2 << best) - 1)
        if higher == 0:
            return False
        return suit == pack.trumps or not follows
    if poss & suit & ~((2 << best) - 1):
        return True
    return not follows and (poss & pack.trumps) != 0


def _sure(v: PlayView, best: int, led: int, owner: int) -> bool:
    """Whether the card ``best`` of seat ``owner`` will win the trick: no later opponent of ``owner`` may beat it."""
    return not any(_may_beat(v, s, best, led) for s in _rest(v) if v.side[s] != v.side[owner])


def _is_master(v: PlayView, card: int) -> bool:
    """Whether no outstanding card of ``card``'s suit ranks above it (it wins a trick of its suit unless trumped)."""
    return v.outstanding & v.pack.suit_of[card] & ~((2 << card) - 1) == 0


# ---- following -------------------------------------------------------------------------------------------------


def _cost(v: PlayView, card: int) -> float:
    """What giving ``card`` away costs: its points (given to the winner), then its rank (kept for later)."""
    pack = v.pack
    c = 10.0 * pack.values[card]
    if (pack.trumps >> card) & 1:
        c += 3.0 + card * 0.5  # a trump is a future trick: keep the high ones
    else:
        c += (card - lowest(pack.suit_of[card])) * 0.2
        # prefer shedding from short suits (makes a void for trumping later)
        c += 0.3 * popcount(v.hand & pack.suit_of[card])
    if (v.precious >> card) & 1:
        c += 40.0
    return c


def _cheapest(v: PlayView, mask: int) -> int:
    return min(cards_of(mask), key=lambda c: _cost(v, c))


def _smear_card(v: PlayView, mask: int) -> int:
    """The card to smear on a trick the side has won: most points, sparing high trumps (they win tricks later)."""
    pack = v.pack

    def score(c: int) -> float:
        if (pack.trumps >> c) & 1:
            if (v.precious >> c) & 1 or c == lowest(pack.trumps):
                return 8.0  # a Mond in danger, or the lowest trump worth 5: bank it
            return -c * 0.1  # otherwise the lowest trump
        return pack.values[c] * 2.0 - 0.1 * (c - lowest(pack.suit_of[c]))

    return max(cards_of(mask), key=score)


def _follow(v: PlayView, usable: int) -> int:
    pack = v.pack
    cards = [c for _, c in v.trick]
    w = pack.winner(cards)
    best_seat, best = v.trick[w]
    led = cards[0]
    on_table = pack.points(sum(1 << c for c in cards))
    rest = _rest(v)
    # 1. The partner has the trick for sure: smear points (bonus cards that are doomed included).
    if v.partner_of(best_seat) and _sure(v, best, led, best_seat):
        doomed = v.legal & _doomed_bonus(v)
        if doomed:
            return lowest(doomed)
        return _smear_card(v, usable)
    # 2. Win it if a winning card will hold and the trick is worth it.
    winners = pack.beaters(best, led, usable)
    if winners:
        holding = [c for c in cards_of(winners) if _sure(v, c, led, v.me)]
        partner_next = any(v.partner_of(s) for s in rest)
        if holding:
            plain = [c for c in holding if not (pack.trumps >> c) & 1]
            if plain:  # winning in suit: bank the most points
                return max(plain, key=lambda c: pack.values[c])
            c = min(holding)  # the lowest trump that holds
            if on_table >= 2 or not rest or c < 16:
                return c
        elif not partner_next:
            # Not sure to hold, only opponents behind: with a queen or king on the table, try the strongest card.
            top = highest(winners)
            if on_table >= 4 and not (v.precious >> top) & 1:
                return top
    # 3. Otherwise duck: the cheapest card (the partner, if still to play, may yet win it).
    return _cheapest(v, usable)


def _doomed_bonus(v: PlayView) -> int:
    """Bonus cards of the mover (silent, not kept back) that cannot expect to win their trick: smear them."""
    kept = _kept(v)
    out = 0
    for card in v.keep:
        if (v.hand >> card) & 1 and not (kept >> card) & 1 and card not in v.announced:
            out |= 1 << card
    return out


# ---- leading ---------------------------------------------------------------------------------------------------


def _lead(v: PlayView, usable: int) -> int:
    pack = v.pack
    t = pack.trumps
    opponents = [s for s in range(v.n_players) if v.side[s] != v.side[v.me]]
    opp_trumps = 0
    for s in opponents:
        opp_trumps |= v.possible(s) & t
    my_trumps = usable & t
    is_declarer = v.me == v.declarer
    # masters in plain suits that no opponent is known to trump
    masters = [c for c in cards_of(usable & ~t) if _is_master(v, c)
               and not any(v.voids[s] & pack.suit_of[c] for s in opponents)]
    if is_declarer:
        # 1. Draw trumps with a master trump while the opponents may still hold trumps.
        if my_trumps and opp_trumps:
            top = highest(my_trumps)
            if top > highest(opp_trumps) and not (v.precious >> top) & 1:
                return top
            # 2. With the longer trumps, lead a low one to pull theirs.
            if popcount(v.hand & t) > popcount(v.outstanding & t) + 1:
                return _low_trump(v, my_trumps)
        # 3. Cash a master in a side suit.
        if masters:
            return max(masters, key=lambda c: pack.values[c])
        # 4. Lead low from the shortest plain suit (to ruff it later).
        plain = usable & ~t
        if plain:
            return _low_from_short(v, plain)
        return _low_trump(v, my_trumps)
    # defender (or any seat with a partner)
    if masters:
        return max(masters, key=lambda c: pack.values[c])
    decl = v.declarer
    plain = usable & ~t
    if decl >= 0 and plain:
        partner = [s for s in range(v.n_players) if v.partner_of(s)]
        decl_void = v.voids[decl]
        # force the declarer to trump with a low card of a suit he lacks (unless he is out of trumps)
        force = plain & decl_void
        if force and v.possible(decl) & t:
            return min(cards_of(force), key=lambda c: _cost(v, c))
        # a suit the partner lacks and the declarer holds: partner can trump
        for s in partner:
            ruff = plain & v.voids[s] & ~decl_void
            if ruff and v.possible(s) & t:
                return min(cards_of(ruff), key=lambda c: _cost(v, c))
    if plain:
        return _low_from_short(v, plain)
    if my_trumps:
        top = highest(my_trumps)
        if opp_trumps and top > highest(opp_trumps) and not (v.precious >> top) & 1:
            return top
        return _low_trump(v, my_trumps)
    return _cheapest(v, usable)


def _low_trump(v: PlayView, trumps: int) -> int:
    """A low trump to lead (never a precious one when another exists; the Pfeife only if nothing else)."""
    cand = trumps & ~v.precious & ~1
    if cand == 0:
        cand = trumps & ~v.precious or trumps
    return lowest(cand)


def _low_from_short(v: PlayView, plain: int) -> int:
    """The cheapest card of the shortest plain suit held (kings and masters are cashed elsewhere)."""
    pack = v.pack
    best = None
    for suit in pack.suits:
        mine = plain & suit
        if not mine:
            continue
        non_master = [c for c in cards_of(mine) if not _is_master(v, c)]
        cand = non_master or cards_of(mine)
        c = min(cand, key=lambda x: pack.values[x] * 10 + x)
        key = (popcount(v.hand & suit), pack.values[c])
        if best is None or key < best[0]:
            best = (key, c)
    return best[1]


# ---- point-avoiding games ----------------------------------------------------------------------------------------


def _danger(v: PlayView, card: int) -> int:
    """How many outstanding cards of the card's suit rank above it (0: it would win a trick of its suit)."""
    return popcount(v.outstanding & v.pack.suit_of[card] & ~((2 << card) - 1))


def _avoid(v: PlayView) -> int:
    """Räuber / Trischaken: take as few card points as possible."""
    pack = v.pack
    legal = v.legal
    if not v.trick:
        # Lead the card most likely to be beaten: many outstanding higher cards, few points.
        return max(cards_of(legal), key=lambda c: (_danger(v, c) - 2 * pack.values[c], -c))
    cards = [c for _, c in v.trick]
    best = cards[pack.winner(cards)]
    winners = pack.beaters(best, cards[0], legal)
    under = legal & ~winners
    if under:
        # Duck: shed the most dangerous / valuable card that still loses to the winning card.
        return max(cards_of(under), key=lambda c: (3 * pack.values[c] - _danger(v, c), c))
    if len(v.trick) == v.n_players - 1:
        # Last and forced to win: take it with the card that would cost most later (a master), few points.
        return min(cards_of(legal), key=lambda c: (_danger(v, c), pack.values[c], -c))
    # Someone may still overtake: play the lowest winner.
    return min(cards_of(legal), key=lambda c: (pack.values[c], c))


# ---- discards -------------------------------------------------------------------------------------------------------

VOID_BONUS = 10.0  # discard score for a card whose suit can be emptied by the discards still to make
BARE_KING_BONUS = 3.0  # ... and for one whose suit keeps only its king


def discard_choice(pack: Pack, hand: int, legal: int, left: int, kings: int) -> int:
    """One card to lay away (it counts for the declarer) from ``legal``, with ``left`` discards still to make.

    Plain cards first (a trump is laid away only when nothing else is legal, the lowest one). Each plain card is
    scored: ``VOID_BONUS`` when its suit holds no king and the discards still to make can empty it (a void lets
    the declarer trump that suit), ``BARE_KING_BONUS`` when only the suit's king would stay (the king wins the
    first round, then the suit is void), plus the card's counting value (banked in the declarer's own pile), minus
    0.5 for every card of its suit beyond the discards still to make. Seat-rotated comparisons in Dreierles chose
    the weights: voids first (a bonus of 1 or 3 instead of 10 lost 0.13 and 0.01 game points per seat and deal),
    a bare king a little (3 gained 0.03, 8 lost 0.05).
    """
    plain = legal & ~pack.trumps
    if not plain:
        return lowest(legal)
    best, best_score = -1, -1e9
    for c in cards_of(plain):
        suit = pack.suit_of[c]
        has_king = (hand & suit & kings) != 0
        non_king = popcount(hand & suit) - has_king
        score = float(pack.values[c])
        if non_king <= left:
            score += BARE_KING_BONUS if has_king else VOID_BONUS
        score -= 0.5 * max(0, non_king - left)
        if score > best_score:
            best, best_score = c, score
    return best
