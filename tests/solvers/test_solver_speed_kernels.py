"""The solver's fast kernels against their definitions: the bit extract (``pext``, BMI2 and portable), the
Dreierles rank key (positions equal up to ranks share a key, positions that differ do not), and the Dreierles
solver step (a child row written from its parent equals the game's own step wherever the search reads it)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit

import tarockrl
from tarockrl.games.dreierles import kernels as DK
from tarockrl.games.dreierles import layout as L
from tarockrl.games.dreierles.cards import CARD_VALUES, PFEIFE
from tarockrl.solvers._bits import pext, pext_soft
from tarockrl.solvers.adapters import dreierles as A


def _pext_ref(x: int, m: int) -> int:
    """The definition: the bits of x at the set bits of m, packed low, as a signed 64-bit integer."""
    x &= 2**64 - 1
    m &= 2**64 - 1
    r = k = 0
    while m:
        low = m & -m
        if x & low:
            r |= 1 << k
        k += 1
        m ^= low
    return r - 2**64 if r >= 2**63 else r


@njit  # not cached: numba would keep the inlined kernels of an older version
def _pext_both(xs, ms, out_fast, out_soft):
    for i in range(xs.shape[0]):
        out_fast[i] = pext(xs[i], ms[i])
        out_soft[i] = pext_soft(xs[i], ms[i])


def test_pext_matches_its_definition():
    rng = np.random.default_rng(11)
    n = 4000
    xs = rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64, endpoint=True)
    ms = rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64, endpoint=True)
    ms[: n // 4] &= rng.integers(-2**63, 2**63 - 1, n // 4, dtype=np.int64, endpoint=True)  # sparse masks
    ms[n // 4: n // 4 + 50] = -1
    ms[n // 4 + 50: n // 4 + 100] = 0
    ms[n // 4 + 100: n // 4 + 200] = (1 << 54) - 1  # a whole pack
    fast = np.zeros(n, dtype=np.int64)
    soft = np.zeros(n, dtype=np.int64)
    _pext_both(xs, ms, fast, soft)
    for i in range(n):
        want = _pext_ref(int(xs[i]), int(ms[i]))
        assert int(fast[i]) == want and int(soft[i]) == want, (int(xs[i]), int(ms[i]))


# ---- Dreierles rank key ----------------------------------------------------------------------------------------
def _bits(m: int):
    return [c for c in range(54) if (m >> c) & 1]


def _suit(c: int) -> int:
    return 0 if c <= 21 else 1 + (c - 22) // 8


def _places(row) -> dict[int, int]:
    """Card in play -> its place: hand 0..2, or 3 + its position in the current trick."""
    place = {}
    for s in range(3):
        for c in _bits(int(row[L.HAND + s])):
            place[c] = s
    for i in range(int(row[L.TRICK_N])):
        place[int(row[L.TRICK_CARD + i])] = 3 + i
    return place


def _up_to_ranks(row) -> tuple:
    """The position up to ranks, by definition: the cards in play in suit and rank order as (suit, place, value),
    the seat to move, the leader, the trick size and whether the Pfeife is in play."""
    place = _places(row)
    seq = tuple((_suit(c), place[c], int(CARD_VALUES[c])) for c in sorted(place))
    return seq, int(row[L.CUR]), int(row[L.LEADER]), int(row[L.TRICK_N]), 0 in place


def _full(row, opts) -> tuple:
    """What ``key`` keys: outside Räuber the position up to ranks and the declarer's pile points so far; in Räuber
    also which of Pfeife, XXI, Stieß are in play, every seat's pile points, the Stieß flag and the trump leads."""
    base = _up_to_ranks(row)
    if row[L.RAEUBER] != 0:
        rem = sum(1 << c for c in _places(row))
        piles = tuple(int(DK.pile_points(row[L.WON + s], opts)) for s in range(3))
        return base, rem & ((1 << 0) | (1 << 20) | (1 << 21)), piles, int(row[L.STIESS_PLAYED]), int(
            row[L.N_TRUMP_LED])
    d = int(row[L.DECLARER])
    return base, int(DK.pile_points(row[L.DISCARDS] | row[L.WON + d], opts))


def _swap(row, c: int, o: int):
    """A copy of ``row`` with the card in play ``c`` and the card out of play ``o`` exchanged (``o`` takes c's
    place in a hand or the trick, ``c`` goes to o's pile)."""
    r = row.copy()
    bc, bo = np.int64(1 << c), np.int64(1 << o)
    for s in range(3):
        if r[L.HAND + s] & bc:
            r[L.HAND + s] = (r[L.HAND + s] & ~bc) | bo
    for i in range(int(r[L.TRICK_N])):
        if r[L.TRICK_CARD + i] == c:
            r[L.TRICK_CARD + i] = o
    for slot in (L.WON, L.WON + 1, L.WON + 2, L.DISCARDS, L.BLIND_REST):
        if r[slot] & bo:
            r[slot] = (r[slot] & ~bo) | bc
    return r


def _play_rows(game, seed: int, pass_all: bool) -> list[np.ndarray]:
    """Every card-play row of one random deal (Räuber when ``pass_all``)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    rows = []
    while not state.is_terminal():
        if state._row[L.PHASE] == L.PLAY:
            rows.append(state._row.copy())
        legal = state.legal_actions()
        a = L.A_PASS if pass_all and state._row[L.PHASE] == L.AUCTION else rng.choice(legal)
        state.apply_action(a)
    return rows


def _variants(row, rng: random.Random) -> list[np.ndarray]:
    """Rows from ``row`` by exchanging a card in play with one out of play of the same suit: up to three that keep
    the position up to ranks (same value, no card in play between them), two that move a card past exactly one
    card in play (same value: only the order of places changes), two random ones, and the row with another
    leader and with another seat to move."""
    place = _places(row)
    out_of_play = [o for o in range(54) if o not in place]
    same, past_one, other = [], [], []
    for c in place:
        for o in out_of_play:
            if _suit(o) != _suit(c):
                continue
            lo, hi = min(c, o), max(c, o)
            between = sum(lo < x < hi for x in place)
            if CARD_VALUES[o] == CARD_VALUES[c] and between == 0 and 0 not in (c, o):
                same.append((c, o))
            elif CARD_VALUES[o] == CARD_VALUES[c] and between == 1:
                past_one.append((c, o))
            else:
                other.append((c, o))
    picks = rng.sample(same, min(3, len(same))) + rng.sample(past_one, min(2, len(past_one)))
    picks += rng.sample(other, min(2, len(other)))
    out = [_swap(row, c, o) for c, o in picks]
    for slot in (L.LEADER, L.CUR):  # the same cards, another leader or seat to move
        r = row.copy()
        r[slot] = (r[slot] + 1) % 3
        out.append(r)
    return out


@pytest.mark.parametrize("pass_all", [False, True], ids=["contract", "raeuber"])
def test_rank_key_partition_is_the_position_up_to_ranks(pass_all):
    """On thousands of positions and rank-preserving (and other) card exchanges: two positions share ``akey``
    exactly when they are equal up to ranks, and ``key`` exactly when also its summary of the past is equal."""
    game = tarockrl.make_game("dreierles")
    opts = game.encoded_options
    rng = random.Random(5)
    rows = []
    for seed in range(60 if pass_all else 150):
        for row in _play_rows(game, seed, pass_all)[seed % 2:: 2]:  # every trick position
            rows.append(row)
            rows.extend(_variants(row, rng))
    assert len(rows) > 2000
    by_canon: dict = {}
    by_key: dict = {}
    by_full: dict = {}
    by_fkey: dict = {}
    equal_pairs = 0
    for row in rows:
        canon = _up_to_ranks(row)
        k = int(A.akey(row))
        full = _full(row, opts)
        fk = int(A.key(row, opts))
        equal_pairs += canon in by_canon
        by_canon.setdefault(canon, set()).add(k)
        by_key.setdefault(k, set()).add(canon)
        by_full.setdefault(full, set()).add(fk)
        by_fkey.setdefault(fk, set()).add(full)
    assert equal_pairs > 500  # the exchanges do produce positions equal up to ranks
    assert all(len(v) == 1 for v in by_canon.values()), "positions equal up to ranks with different keys"
    assert all(len(v) == 1 for v in by_key.values()), "positions that differ share a key"
    assert all(len(v) == 1 for v in by_full.values())
    assert all(len(v) == 1 for v in by_fkey.values())


# ---- Dreierles solver step ---------------------------------------------------------------------------------------
# slots only a finished deal fills (and only ``leaf`` reads), and the history: the search never reads them in a
# row that is not finished
_END_SLOTS = set(range(L.LAST_LEADER, L.RESULT + 3)) | {L.HIST_LEN} | set(range(L.HIST, L.STATE_LEN))


@njit  # not cached: numba would keep the inlined kernels of an older version
def _solver_child(child, row, action, opts):
    A.copy_row(child, row, A.COPY_LEN)
    A.apply(child, action, opts)


@njit  # not cached: numba would keep the inlined kernels of an older version
def _game_child(child, row, action, opts):
    child[:] = row
    DK.step(child, action, opts)


@pytest.mark.parametrize("options,pass_all", [({}, False), ({"auto_play_forced": True}, False),
                                              ({"counting_method": "exact_thirds"}, False), ({}, True)],
                         ids=["default", "auto_forced", "thirds", "raeuber"])
def test_solver_step_equals_the_game_step(options, pass_all):
    """Random walks through the card play as the search makes them (a stack of rows, each child written by
    ``copy_row`` + ``apply`` into a row that holds an earlier row of the walk, backtracking to random depths):
    every child equals the game's own step of a full copy of its parent in every slot the search reads (finished
    deals: every slot but the history)."""
    game = tarockrl.make_game("dreierles", **options)
    opts = game.encoded_options
    rng = random.Random(23)
    plays = 0
    for seed in range(40):
        state = game.new_initial_state(seed=seed)
        while state._row[L.PHASE] not in (L.PLAY, L.TERMINAL):
            legal = state.legal_actions()
            state.apply_action(L.A_PASS if pass_all and state._row[L.PHASE] == L.AUCTION else rng.choice(legal))
        if state._row[L.PHASE] != L.PLAY:
            continue
        root = state._row.copy()
        stack = np.tile(root, (50, 1))  # the search's rows all start as copies of the root
        ref = [root.copy()]
        seen = [root.copy()]
        d = 0
        for _ in range(150):
            row = stack[d]
            if row[L.PHASE] == L.TERMINAL or (d > 0 and rng.random() < 0.15):
                d = rng.randrange(d + 1) if row[L.PHASE] != L.TERMINAL else rng.randrange(d)
                del ref[d + 1:]
                continue
            legal = DK.play_legal(row, opts)
            cards = [c for c in range(54) if (int(legal) >> c) & 1]
            action = np.int64(L.A_PLAY + rng.choice(cards))
            stack[d + 1] = seen[rng.randrange(len(seen))]  # a stale row: any earlier row of the search
            _solver_child(stack[d + 1], stack[d], action, opts)
            want = np.empty_like(root)
            _game_child(want, ref[d], action, opts)
            got = stack[d + 1]
            slots = range(L.HIST_LEN) if want[L.PHASE] == L.TERMINAL else [
                i for i in range(L.STATE_LEN) if i not in _END_SLOTS]
            diff = [i for i in slots if got[i] != want[i]]
            assert not diff, (seed, d, diff)
            ref.append(want)
            seen.append(want)
            d += 1
            plays += 1
    assert plays > 3000


@njit  # not cached: numba would keep the inlined kernels of an older version
def _hints_both(row, opts, root, actions, out_hint, out_at):
    hc = A.hint_ctx(row, opts, root)
    for i in range(actions.shape[0]):
        out_hint[i] = A.hint(row, opts, actions[i], root)
        out_at[i] = A.hint_at(row, opts, actions[i], root, hc)


@pytest.mark.parametrize("pass_all", [False, True], ids=["contract", "raeuber"])
def test_hint_at_equals_hint(pass_all):
    """The search's per-node hint context (``HINT_CTX``: ``hint_ctx`` once, ``hint_at`` per move) gives the same
    score as ``hint`` for every legal card of every card-play row of random deals, for every root seat."""
    game = tarockrl.make_game("dreierles")
    opts = game.encoded_options
    checked = 0
    for seed in range(30):
        for row in _play_rows(game, 300 + seed, pass_all):
            legal = int(DK.play_legal(row, opts))
            actions = np.array([L.A_PLAY + c for c in range(54) if (legal >> c) & 1], dtype=np.int64)
            for root in range(3):
                h = np.zeros(actions.shape[0], dtype=np.int64)
                g = np.zeros(actions.shape[0], dtype=np.int64)
                _hints_both(row, opts, np.int64(root), actions, h, g)
                assert (h == g).all(), (seed, root, h, g)
                checked += actions.shape[0]
    assert checked > 5000


@njit  # not cached: numba would keep the inlined kernels of an older version
def _hints_alt(row, opts, root, actions, out_at, out_alt):
    hc = A.hint_ctx(row, opts, root)
    for i in range(actions.shape[0]):
        out_at[i] = A.hint_at(row, opts, actions[i], root, hc)
        out_alt[i] = A.hint_alt(row, opts, actions[i], root, hc)
    return A.alt_class(row, opts, root, hc)


def _side(row, seat, root):
    if row[L.RAEUBER] != 0:
        return 0 if seat == root else 1
    d = row[L.DECLARER]
    return 0 if (seat == d) == (root == d) else 1


@pytest.mark.parametrize("pass_all", [False, True], ids=["contract", "raeuber"])
def test_order14_follow_rules(pass_all):
    """The alternative ordering of the follows (``hint_alt``, used where ``ORDER_LEARN`` finds it cutting;
    docs/solver.md, round order14), checked from its definition on every card-play row of random deals and every
    root seat. Only a defender's follow in a contract changes; there (1) when the mover's side wins the trick, a plain
    card that does not overtake and is the highest of its suit still in the hands (a master) is tried after every
    other plain card that does not overtake; (2) second to play against an opponent's lead, when the third seat
    cannot overtake (or is a partner), the plain cards that win are tried most valuable first, before every other
    card. With rule 8, while a defender holds the Pfeife, (1) covers the trumps too (the highest trump still in
    the hands). Everywhere else ``hint_alt`` is ``hint_at``. ``alt_class`` is 3 * trick (at most 11) + kind: 0 second
    card after a partner's lead, 1 second card after an opponent's lead, 2 third card with the mover's side
    winning; -1 on leads, in Räuber, at the declarer's nodes and at third cards the opponents win."""
    assert A.ORDER_RULES == 15 and A.ORDER_LEARN > 0
    game = tarockrl.make_game("dreierles")
    opts = game.encoded_options
    trumps = int(A.TRUMPS)
    seen1 = seen2 = seen8 = same = 0
    for seed in range(30):
        for row in _play_rows(game, 500 + seed, pass_all):
            n = int(row[L.TRICK_N])
            legal = int(DK.play_legal(row, opts))
            cards = [c for c in range(54) if (legal >> c) & 1]
            actions = np.array([L.A_PLAY + c for c in cards], dtype=np.int64)
            me = int(row[L.CUR])
            defender = row[L.RAEUBER] == 0 and me != int(row[L.DECLARER])
            for root in range(3):
                h = np.zeros(len(cards), dtype=np.int64)
                g = np.zeros(len(cards), dtype=np.int64)
                cls = int(_hints_alt(row, opts, np.int64(root), actions, h, g))
                if n == 0 or not defender:
                    assert cls == -1 and (h == g).all(), (seed, root, cls)
                    same += 1
                    continue
                trick = [int(row[L.TRICK_CARD + i]) for i in range(n)]
                led = int(A.SUIT_OF_CARD[trick[0]])

                def win(cs):
                    t = [c for c in cs if (trumps >> c) & 1]
                    return max(t) if t else max(c for c in cs if (led >> c) & 1)

                w = win(trick)
                winner = (int(row[L.LEADER]) + trick.index(w)) % 3
                mine = _side(row, winner, root) == _side(row, me, root)
                t = 16 - bin(int(row[L.HAND + me])).count("1")
                kind = (0 if mine else 1) if n == 1 else (2 if mine else -1)
                assert cls == (-1 if kind < 0 else 3 * min(t, 11) + kind), (seed, root, cls)
                inhand = int(row[L.HAND]) | int(row[L.HAND + 1]) | int(row[L.HAND + 2])
                sc = dict(zip(cards, g.tolist()))
                plain_under = [c for c in cards if not (trumps >> c) & 1 and win(trick + [c]) != c]
                d = int(row[L.DECLARER])
                defender_pfeife = any(int(row[L.HAND + p]) & int(PFEIFE) for p in range(3) if p != d)
                if defender_pfeife:  # rule 8: the trumps too, while a defender holds the Pfeife
                    plain_under += [c for c in cards if (trumps >> c) & 1 and win(trick + [c]) != c]
                third = (me + 1) % 3
                if mine:
                    if n == 1 and _side(row, third, root) != _side(row, me, root):
                        continue  # the third seat, an opponent, may overtake (the older rule decides first)
                    masters = [c for c in plain_under
                               if max(x for x in range(54) if (inhand >> x) & 1 and A.SUIT_OF_CARD[x]
                                      == A.SUIT_OF_CARD[c]) == c]
                    for m_ in masters:
                        for c in plain_under:
                            if c not in masters:
                                assert sc[m_] < sc[c], (seed, root, m_, c, sc)
                                seen1 += 1
                                seen8 += (trumps >> m_) & 1
                elif n == 1:
                    h3 = int(row[L.HAND + third])
                    wins = []
                    for c in cards:
                        if (trumps >> c) & 1 or win(trick + [c]) != c:
                            continue
                        if _side(row, third, root) != _side(row, me, root):
                            cand = h3 & led if h3 & led else h3 & trumps
                            if cand and win(trick + [c, cand.bit_length() - 1]) != c:
                                continue
                        wins.append(c)
                    for a in wins:
                        for b in cards:
                            if b in wins and CARD_VALUES[b] < CARD_VALUES[a]:
                                assert sc[a] > sc[b], (seed, root, a, b, sc)
                                seen2 += 1
                            elif b not in wins:
                                assert sc[a] > sc[b], (seed, root, a, b, sc)
    assert same > 100
    if not pass_all:
        assert seen1 > 20 and seen2 > 20 and seen8 > 5, (seen1, seen2, seen8)
