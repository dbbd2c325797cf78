"""The Troccas solver adapter: additive positions, equivalent cards and move ordering (docs/solver.md, "Troccas").

The additive claim is checked directly on random games (fast: only the adapter's small kernels compile); the
searches with merging and additive entries against the compiled plain minimax are marked slow like every Troccas
solver test (the search kernels compile for minutes).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import tarockrl
from tarockrl.games.troccas import layout as L
from tarockrl.games.troccas.cards import CARD_VALUES
from tarockrl.solvers import solver_for
from tarockrl.solvers.adapters import troccas as A

OPTION_SETS = [
    {},
    {"slam_takes_scart": True, "scart_counts_for_fool": True},
    {"knock_enabled": True, "double_lead_enabled": True, "must_overtrump": True},
    {"king_jack_rule": False, "buob_demand_automatic": True},
]


def _in_play(state) -> bool:
    return state._row[L.PHASE] in (L.PLAY, L.BUOB)


def _play_to(game, seed: int, rng: random.Random, tricks: int, extra: bool = True):
    """A new deal of ``seed`` played at random (``rng``) until at most ``tricks`` tricks are left, then with
    ``extra`` up to three more random actions (a position inside a trick); None when it is no card-play position."""
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal() and not (_in_play(state) and A.tricks_left(state._row, {}) <= tricks):
        state.apply_action(rng.choice(state.legal_actions()))
    for _ in range(rng.randrange(4) if extra else 0):
        if not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
    return None if state.is_terminal() or not _in_play(state) else state


@pytest.mark.parametrize("options", OPTION_SETS)
def test_additive_positions_add_up(options):
    """At every additive position of 60 random games, team 0's final card points are ``apast`` plus what the
    later tricks add to its pile (their points, 3 off per four cards) and 4 for (or against) it when the Fool is
    taken later, and that lies within ``afmin``..``afmax``."""
    game = tarockrl.make_game("troccas", **options)
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        marks = []  # (index into the pile additions, apast, afmin, afmax) at each additive position
        additions = []  # what each later trick added to team 0's points (and the Fool's exchange when it is taken)
        while not state.is_terminal():
            row = state._row
            if _in_play(state) and A.additive(row, 0):
                opts = game.encoded_options
                marks.append((len(additions), int(A.apast(row, opts)), int(A.afmin(row, opts)),
                              int(A.afmax(row, opts))))
            tricks = int(row[L.TRICK_NO])
            captured = int(row[L.FOOL_TRICK_TEAM]) >= 0
            state.apply_action(rng.choice(state.legal_actions()))
            row = state._row
            if not captured and int(row[L.FOOL_TRICK_TEAM]) >= 0:  # the other team took the Fool: at the end its
                # team has it back for a one-point card, 4 points to the Fool's team
                additions.append(4 if int(row[L.FOOL_SEAT]) % 2 == 0 else -4)
            if int(row[L.TRICK_NO]) > tricks and int(row[L.LAST_WINNER]) % 2 == 0:  # a trick to team 0's pile
                cards = [int(row[L.LAST_CARD + i]) for i in range(int(row[L.LAST_N]))]
                assert len(cards) % 4 == 0
                additions.append(sum(int(CARD_VALUES[c]) for c in cards) - 3 * (len(cards) // 4))
        final = int(state._row[L.POINTS])
        assert final + int(state._row[L.POINTS + 1]) == A.TOTAL_POINTS
        for i, past, lo, hi in marks:
            rest = sum(additions[i:])
            assert final == past + rest, (seed, i)
            assert lo <= rest <= hi
            checked += 1
    assert checked > 500  # additive positions are common once both teams have a trick and the Fool is out


def test_gtable_is_the_settlement():
    """The value table of both teams and objectives: team points - 36, the other team's = 72 - points."""
    out = np.zeros(A.GT_LEN, dtype=np.int64)
    row = np.zeros(L.STATE_LEN, dtype=np.int64)
    opts = tarockrl.make_game("troccas").encoded_options
    assert A.gtable(row, opts, 0, 0, out) == 73
    assert out[0] == -36 and out[36] == 0 and out[72] == 36
    A.gtable(row, opts, 1, 0, out)
    assert out[0] == 36 and out[72] == -36
    A.gtable(row, opts, 3, 1, out)
    assert out[10] == 62


@pytest.mark.slow  # compiles the Troccas search and plain minimax kernels
@pytest.mark.parametrize("options", OPTION_SETS)
def test_search_matches_plain_minimax(options):
    """Up to 4 tricks left, 8 positions per option set: the full search (additive entries, merging, ordering),
    the search without merging and the compiled plain minimax agree, for both objectives."""
    game = tarockrl.make_game("troccas", **options)
    solver = solver_for("troccas")
    k = solver.kernels
    found = 0
    for seed in range(400, 600):
        rng = random.Random(seed)
        state = _play_to(game, seed, rng, rng.choice((3, 4)))
        if state is None:
            continue
        root = state.current_player()
        opts = game.encoded_options
        for obj, name in ((0, "returns"), (1, "card_points")):
            plain = int(k.minimax_plain(state._row.copy(), opts, np.int64(root), np.int64(obj)))
            merged = solver.solve(state, objective=name)
            unmerged = solver.solve(state, objective=name, merge=False)
            assert merged.value == plain == unmerged.value, (seed, name)
            assert merged.action_values == unmerged.action_values
        found += 1
        if found == 8:
            break
    assert found == 8


def test_fool_payment_of_unknown_value_is_not_additive():
    """A pending Fool payment from a pile with no middle trump or numeral (the card paid could still be a court
    card or a one-point card) keeps a position out of the additive ones."""
    game = tarockrl.make_game("troccas")
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal() and not (_in_play(state) and A.additive(state._row, 0)
                                               and state._row[L.FOOL_TRICK_TEAM] >= 0):
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            break
    else:
        pytest.fail("no additive position with a pending Fool payment in 200 games")
    row = state._row.copy()
    ft = int(row[L.FOOL_SEAT]) % 2
    row[L.PILE_TW + ft] = 0
    row[L.PILE_SW + ft] = np.int64(0b1111 << 10)  # the four court cards of cups only
    row[L.SCART_TW] = 0
    row[L.SCART_SW] = np.int64(0b11 << 24)  # two court cards of coins
    assert not A.additive(row, 0)
    row[L.PILE_SW + ft] |= np.int64(1)  # a numeral: the payment is one point
    assert A.additive(row, 0)


def _twin(state, rng):
    """A copy of ``state`` (additive) in which a numeral of a hand and a played numeral of its suit with no card in
    play or in the scart between them trade places (the played one into the hand, the other into the same pile
    and played records), or None. Both count 1, so the two positions differ only in which numeral is in play."""
    row = state._row
    live_sw = int(row[L.SCART_SW] | row[L.TRICK_SW])
    for s in range(4):
        live_sw |= int(row[L.HAND_SW + s])
    pairs = []
    for seat in range(4):
        hand = int(row[L.HAND_SW + seat])
        for t in range(2):
            pile = int(row[L.PILE_SW + t])
            for suit in range(4):
                for a in range(10):
                    for b in range(10):
                        ia, ib = 14 * suit + a, 14 * suit + b
                        lo, hi = min(ia, ib), max(ia, ib)
                        between = live_sw & (((1 << hi) - 1) & ~((1 << (lo + 1)) - 1))
                        if (hand >> ia) & 1 and (pile >> ib) & 1 and a != b and between == 0:
                            pairs.append((seat, t, ia, ib))
    if not pairs:
        return None
    seat, t, ia, ib = rng.choice(pairs)
    twin = state.clone()
    r = twin._row
    owner = next(p for p in range(4) if (int(r[L.PLAYED_BY_SW + p]) >> ib) & 1)
    r[L.HAND_SW + seat] ^= (1 << ia) | (1 << ib)
    r[L.PILE_SW + t] ^= (1 << ia) | (1 << ib)
    r[L.PLAYED_SW] ^= (1 << ia) | (1 << ib)
    r[L.PLAYED_BY_SW + owner] ^= (1 << ia) | (1 << ib)
    return twin


@pytest.mark.slow  # compiles the Troccas search and plain minimax kernels
def test_rank_key_twins_have_the_same_value():
    """Positions that differ only in which numeral of a suit is in play share ``akey`` and ``apast``, and the
    compiled plain minimax (full keys, no table) gives them the same value: the premise of the key up to ranks."""
    game = tarockrl.make_game("troccas")
    k = solver_for("troccas").kernels
    opts = game.encoded_options
    found = 0
    for seed in range(700, 1100):
        rng = random.Random(seed)
        state = _play_to(game, seed, rng, 3, extra=False)
        if state is None or not A.additive(state._row, 0):
            continue
        twin = _twin(state, rng)
        if twin is None:
            continue
        assert A.additive(twin._row, 0)
        assert A.akey(twin._row) == A.akey(state._row)
        assert A.apast(twin._row, opts) == A.apast(state._row, opts)
        root = state.current_player()
        for obj in (0, 1):
            v = int(k.minimax_plain(state._row.copy(), opts, np.int64(root), np.int64(obj)))
            w = int(k.minimax_plain(twin._row.copy(), opts, np.int64(root), np.int64(obj)))
            assert v == w, seed
        found += 1
        if found == 12:
            break
    assert found == 12


@pytest.mark.slow  # compiles the Troccas search kernels
@pytest.mark.parametrize("options", OPTION_SETS)
def test_search_matches_alpha_beta_at_five_tricks(options):
    """5 tricks left, 6 positions per option set: every root action's value with the table, the bounds, the memo
    and merging equals alpha-beta without table, bounds and merging."""
    game = tarockrl.make_game("troccas", **options)
    solver = solver_for("troccas")
    found = 0
    for seed in range(1200, 1400):
        state = _play_to(game, seed, random.Random(seed), 5)
        if state is None:
            continue
        full = solver.solve(state)
        bare = solver.solve(state, merge=False, table=False)
        assert full.value == bare.value and full.action_values == bare.action_values, seed
        found += 1
        if found == 6:
            break
    assert found == 6
