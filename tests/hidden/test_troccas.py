"""Troccas worlds: consistency, replay, determinism (hidden-card swaps), exact uniformity by brute force, and the
rules that tell where a card lies (forced redeal, FORCE secrecy, knocks, the scart, king-jack)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import tarockrl
from tarockrl.games.api import State
from tarockrl.games.troccas import kernels as K
from tarockrl.games.troccas import layout as L
from tarockrl.games.troccas import new_state
from tarockrl.games.troccas import resample as R
from tarockrl.games.troccas.cards import CARD_CODES, CODE_TO_CARD, KINGS
from tests.hidden.common import check_world, chi2_pvalue, chi_square_uniform, placements, play_out

OPTION_SETS = [
    {},
    {"must_overtrump": True, "knock_enabled": True, "double_lead_enabled": True},
    {"scart_trumps_allowed": False, "scart_jack_voids_all": True},
    {"buob_demand_automatic": True, "first_leader": "forehand", "fool_counts_as_trump_for_force": True},
    {"max_redeals": 0, "expose_last_card": False, "talk_enabled": False},
]


def _ids(o):
    return ",".join(f"{k}={v}" for k, v in o.items()) or "default"


def position(game, seed: int, steps: int, *, balance: int = 0, throw: float = 0.8):
    """A state after ``steps`` random actions (votes lean to throwing in, so that redeals happen), with a dealer
    and balance from the seed (a team far behind chooses the packet pattern)."""
    state = new_state(game, seed=seed, deal_id=seed, dealer=seed % 4, balance=balance)
    rng = np.random.default_rng([seed, steps])
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        if state.phase() == "vote" and rng.random() < throw:
            a = L.A_THROW
        else:
            a = legal[int(rng.integers(len(legal)))]
        state.apply_action(a)
    return state


def key(row) -> tuple:
    """Where the cards lie now: the four hands and the scart."""
    return tuple(int(row[L.HAND_TW + s]) for s in range(4)) + tuple(int(row[L.HAND_SW + s]) for s in range(4)) + (
        int(row[L.SCART_TW]), int(row[L.SCART_SW]))


def _sweep(game, seeds, phases):
    balances = (0, -12, 25, -40)
    for seed in seeds:
        steps = (seed * 37) % 150
        state = position(game, seed, steps, balance=balances[seed % 4])
        phases[state.phase()] += 1
        phases["redeals"] += int(state.row[L.REDEAL_COUNT] > 0)
        for p in range(4):
            world = state.resample_hidden(p, seed)
            check_world(game, state, world, p, K.check_invariants)
            assert np.array_equal(state.resample_hidden(p, seed).row, world.row)
            play_out(world, seed)


@pytest.mark.parametrize("options", OPTION_SETS, ids=_ids)
def test_worlds_replay_and_keep_the_view(options):
    game = tarockrl.make_game("troccas", **options)
    phases = Counter()
    _sweep(game, range(24), phases)
    assert phases["play"] > 3


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=_ids)
def test_worlds_replay_and_keep_the_view_many(options):
    game = tarockrl.make_game("troccas", **options)
    phases = Counter()
    _sweep(game, range(100, 700), phases)
    expected = {"pattern", "scart", "play", "terminal"}
    if options.get("talk_enabled", True):  # without table talk there are no talk or vote phases
        expected |= {"talk", "vote"}
    assert expected <= set(phases)
    if options.get("max_redeals", 1) > 0:
        assert phases["redeals"] > 10


def test_batched_worlds_are_worlds_and_reproducible():
    game = tarockrl.make_game("troccas")
    state = position(game, 8, 70)
    batch = game.sample_worlds(state, 1, 60, seed=1)
    for i in range(0, 60, 6):
        check_world(game, state, batch.state(i), 1, K.check_invariants)
    assert np.array_equal(game.sample_worlds(state, 1, 60, seed=1).rows, batch.rows)
    assert len({key(batch.rows[i]) for i in range(60)}) > 30
    masks = batch.legal_masks()  # ready for the batch API
    assert masks.any(axis=1).all()


# -- determinism: a twin that differs only in cards hidden from the player gives the same worlds -----------------------
def _twin(game, state, player, rng):
    """The state with two hidden cards of the current attempt swapped between two places (other hands or the
    scart), replayed with the swapped scart discards and the FORCE decline where the twin's dealer needs it.
    None when that history is not legal or the player's observation changes."""
    row = state.row
    d = int(row[L.DEALER])
    r = int(row[L.REDEAL_COUNT])
    played = {c for c in range(78) if K_has(row[L.PLAYED_TW], row[L.PLAYED_SW], c)}
    exposed = {int(row[L.EXPOSED + s]) for s in range(4)}
    knocked = {c for s in range(4) for c in range(21) if (int(row[L.KNOCKS_TW + s]) >> c) & 1}
    swapped = {int(row[L.SWAP_CARD + s]) for s in range(4)}
    places = {}
    for s in range(4):
        if s == player:
            continue
        for c in range(78):
            if K_has(row[L.HAND_TW + s], row[L.HAND_SW + s], c):
                places[c] = s
    if player != d:
        for c in range(78):
            if K_has(row[L.SCART_TW], row[L.SCART_SW], c):
                places[c] = 4
    cands = [c for c in places if c not in played | exposed | knocked | swapped]
    if len(cands) < 2:
        return None
    for _ in range(10):
        a, b = (int(x) for x in rng.choice(cands, size=2, replace=False))
        if places[a] != places[b]:
            break
    else:
        return None
    deal = state.deal()
    lists = deal["hands"] if r == 0 else deal["redeals"][r - 1]
    ca, cb = CARD_CODES[a], CARD_CODES[b]
    for hand in lists:
        for i, code in enumerate(hand):
            if code == ca:
                hand[i] = cb
            elif code == cb:
                hand[i] = ca
    deal["redeals"] = deal.get("redeals", [])[: r]
    if not deal["redeals"]:
        del deal["redeals"]
    twin = game.new_initial_state(deal=deal)
    for act in state.history():
        if act == L.A_DECLINE and player != d:
            continue
        if twin.phase() == "force" and act != L.A_FORCE and player != d:
            twin.apply_action(L.A_DECLINE)
        if twin.phase() == "scart" and act < 78:
            act = {a: b, b: a}.get(act, act)
        if act not in twin.legal_actions():
            return None
        twin.apply_action(act)
    if not np.array_equal(twin.observation(player), state.observation(player)):
        return None
    return twin


def K_has(tw, sw, c) -> bool:
    return bool((int(tw) >> c) & 1) if c < 22 else bool((int(sw) >> (c - 22)) & 1)


@pytest.mark.parametrize("options", [{}, {"must_overtrump": True, "knock_enabled": True}], ids=_ids)
def test_worlds_do_not_depend_on_the_hidden_cards(options):
    game = tarockrl.make_game("troccas", **options)
    rng = np.random.default_rng(5)
    checked = 0
    for seed in range(60):
        state = position(game, seed, (seed * 29) % 140)
        if state.is_terminal():
            continue
        for p in range(4):
            twin = _twin(game, state, p, rng)
            if twin is None:
                continue
            assert not np.array_equal(twin.row, state.row)
            a = game.sample_worlds(state, p, 5, seed=seed).rows
            b = game.sample_worlds(twin, p, 5, seed=seed).rows
            assert np.array_equal(a, b)
            assert np.array_equal(state.resample_hidden(p, 3).row, twin.resample_hidden(p, 3).row)
            checked += 1
    assert checked > 40


# -- exact uniformity against brute-force enumeration -----------------------------------------------------------------
def _problem(game, state, player):
    """The unconstrained placement problem: hidden cards, capacities (hands, scart) and the public analysis."""
    opts = game.encoded_options
    row = state.row
    ban_tw = np.zeros(4, np.int64)
    ban_sw = np.zeros(4, np.int64)
    forced = np.zeros(L.MAX_ATTEMPTS, np.int64)
    R._analyze(row, np.int64(player), opts, ban_tw, ban_sw, forced, np.zeros(L.STATE_LEN, np.int64),
               np.zeros((L.MAX_ATTEMPTS, 78), np.int64))
    fx_tw = np.zeros(4, np.int64)
    fx_sw = np.zeros(4, np.int64)
    R._fixed(row, np.int64(player), fx_tw, fx_sw)
    known = set()
    caps = [0] * 5
    for s in range(4):
        fixed = {c for c in range(78) if K_has(fx_tw[s], fx_sw[s], c)}
        known |= fixed
        if s != player:
            caps[s] = bin(int(row[L.HAND_TW + s])).count("1") + bin(int(row[L.HAND_SW + s])).count("1") - len(fixed)
    known |= {c for c in range(78) if K_has(row[L.HAND_TW + player], row[L.HAND_SW + player], c)}
    known |= {c for c in range(78) if K_has(row[L.PLAYED_TW], row[L.PLAYED_SW], c)}
    if player == int(row[L.DEALER]):
        known |= {c for c in range(78) if K_has(row[L.SCART_TW], row[L.SCART_SW], c)}
    else:
        caps[4] = int(row[L.SCART_N])
    cards = [c for c in range(78) if c not in known]
    assert len(cards) == sum(caps)
    return cards, caps, forced


def enumerate_worlds(game, state, player):
    """Every placement of the hidden cards (no constraint), kept when the episode it gives replays legally and
    shows ``player`` the same observation: the set of world keys."""
    cards, caps, forced = _problem(game, state, player)
    target = state.observation(player)
    arr = np.zeros(80, np.int64)
    arr[: len(cards)] = cards
    world = np.zeros(L.STATE_LEN, np.int64)
    keys = set()
    for pl in placements(len(cards), caps):
        loc = np.zeros(80, np.int64)
        loc[: len(cards)] = pl
        ok = R._build(state.row, np.int64(player), game.encoded_options, arr, loc, np.int64(len(cards)), forced,
                      world, np.zeros(1, np.int64), np.zeros((L.MAX_ATTEMPTS, 78), np.int64),
                      np.zeros(192, np.int64))
        if ok and np.array_equal(State(game, world.copy()).observation(player), target):
            keys.add(key(world))
    return keys


def _multinomial(caps):
    from math import factorial

    r = factorial(sum(caps))
    for c in caps:
        r //= factorial(c)
    return r


def _uniformity(game, state, player, seed):
    truth = enumerate_worlds(game, state, player)
    n = len(truth)
    draws = max(3000, 30 * n)
    counts = Counter()
    done = 0
    chunk = 0
    while done < draws:
        m = min(4000, draws - done)
        batch = game.sample_worlds(state, player, m, seed=seed * 1000 + chunk)
        counts.update(key(batch.rows[i]) for i in range(m))
        done += m
        chunk += 1
    stat, dof = chi_square_uniform(counts, n, draws)
    p = chi2_pvalue(stat, dof) if dof > 0 else 1.0
    return truth, counts, p


@pytest.mark.parametrize("options", [{}, {"must_overtrump": True}, {"scart_jack_voids_all": True,
                                                                       "scart_trumps_allowed": False}], ids=_ids)
def test_uniform_against_exact_enumeration(options):
    game = tarockrl.make_game("troccas", **options)
    found = 0
    voids = 0
    for seed in range(400):
        state = position(game, seed, 85 + seed % 25, throw=0.0)
        if state.is_terminal() or state.phase() not in ("play", "buob") or state.row[L.TRICK_NO] < 16:
            continue
        for p in range(4):
            cards, caps, _ = _problem(game, state, p)
            if _multinomial(caps) > 3000:
                continue
            truth, counts, pvalue = _uniformity(game, state, p, seed)
            assert set(counts) == truth
            assert pvalue > 1e-4
            assert R.count_worlds(state.row, np.int64(p), game.encoded_options) == pytest.approx(len(truth))
            voids += len(truth) < _multinomial(caps)
            found += 1
        if found >= 6:
            break
    assert found >= 6 and voids >= 3


# -- what the rules reveal ------------------------------------------------------------------------------------------
def _deal_without_dealer_trump(dealer=0):
    """A deal dict whose dealer holds no trump I-XXI (21 plain cards, the Fool elsewhere)."""
    plain = list(range(22, 78))
    trumps = list(range(22))
    order = {dealer: plain[:21]}
    rest = plain[21:] + trumps
    seats = [s for s in range(4) if s != dealer]
    for i, s in enumerate(seats):
        order[s] = rest[19 * i: 19 * (i + 1)]
    return {"dealer": dealer, "hands": [[CARD_CODES[c] for c in order[s]] for s in range(4)]}


def _to_force(game, deal):
    state = game.new_initial_state(deal=deal)
    while state.phase() in ("talk", "vote"):
        state.apply_action(L.A_KEEP if state.phase() == "vote" else state.legal_actions()[0])
    return state


def test_force_secrecy_and_the_forced_redeal():
    game = tarockrl.make_game("troccas")
    state = _to_force(game, _deal_without_dealer_trump(0))
    assert state.phase() == "force"
    # the dealer knows he is deciding; the others see a scart phase and worlds of both kinds
    for s in range(5):
        assert state.resample_hidden(0, s).phase() == "force"
    kinds = Counter()
    for s in range(60):
        w = state.resample_hidden(1, s)
        check_world(game, state, w, 1, K.check_invariants)
        kinds[w.phase()] += 1
    assert kinds["scart"] > 40  # a dealer without trump is rare among worlds
    # after the forced redeal, every world's first attempt had a dealer without trump
    state.apply_action(L.A_FORCE)
    assert state.row[L.REDEAL_COUNT] == 1
    for p in range(4):
        batch = game.sample_worlds(state, p, 40, seed=p)
        for i in range(40):
            w = batch.state(i)
            first = w.deal()["hands"][0]
            assert not any(CODE_TO_CARD[c] < 21 for c in first)
            if i % 8 == 0:
                check_world(game, state, w, p, K.check_invariants)


def test_a_declined_force_is_rewritten_to_fit_the_world():
    game = tarockrl.make_game("troccas")
    state = _to_force(game, _deal_without_dealer_trump(2))
    state.apply_action(L.A_DECLINE)
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    assert state.phase() == "play"
    for p in (0, 1, 3):
        for s in range(20):
            w = state.resample_hidden(p, s)
            check_world(game, state, w, p, K.check_invariants)
            dealer_trumps = (int(w.row[L.HAND_TW + 2]) | int(w.row[L.SCART_TW])) & 0x1FFFFF
            assert (L.A_DECLINE in w.history()) == (dealer_trumps == 0)


def test_scart_never_holds_what_may_not_be_discarded():
    game = tarockrl.make_game("troccas")
    for seed in range(10):
        state = position(game, seed, 60, throw=0.0)
        if state.phase() != "play":
            continue
        d = int(state.row[L.DEALER])
        batch = game.sample_worlds(state, (d + 1) % 4, 200, seed=seed)
        tw = batch.rows[:, L.SCART_TW]
        sw = batch.rows[:, L.SCART_SW]
        assert not np.any(tw & 0x300001) and not np.any(sw & int(KINGS))


def test_knocked_trump_stays_with_the_knocker():
    game = tarockrl.make_game("troccas", knock_enabled=True)
    seen = 0
    for seed in range(200):
        state = position(game, seed, 40 + seed % 60, throw=0.0)
        knocks = [(s, int(state.row[L.KNOCKS_TW + s]) & ~int(state.row[L.PLAYED_TW])) for s in range(4)]
        knocks = [(s, m) for s, m in knocks if m]
        if not knocks or state.is_terminal():
            continue
        for s, m in knocks:
            for p in range(4):
                if p == s:
                    continue
                batch = game.sample_worlds(state, p, 30, seed=seed)
                assert np.all(batch.rows[:, L.HAND_TW + s] & m == m)
        seen += 1
        if seen == 5:
            break
    assert seen == 5
