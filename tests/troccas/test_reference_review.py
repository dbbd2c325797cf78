"""Differential review: the engine against the independent pure-Python reference (reference.py).

After every action both must agree on the seat to act, the sorted legal actions and terminality; at the end on
the returns. Deals come from the engine's seeded dealer (with ``max_redeals = 0``) or from explicit deal dicts
that supply a balance and every redeal, so that throw-ins, forced redeals and packet requests are compared too.
"""

from __future__ import annotations

import random

import pytest

import tarockrl
from tests.troccas.reference import CODES, DEFAULTS, Reference

VARIANTS = [
    {},
    {"must_overtrump": True},
    {"first_leader": "forehand"},
    {"buob_demand_automatic": True},
    {"scart_trumps_allowed": False},
    {"king_after_fool_triggers": False},
    {"scart_counts_for_fool": True, "slam_takes_scart": True},
    {"fool_counts_as_trump_for_force": True},
    {"talk_enabled": False},
    {"throw_in_enabled": False},
    {"dealer_force_enabled": False},
    {"packet_options_enabled": False},
    {"nine_ten_threshold": 3, "single_packet_threshold": 5},
    {"king_jack_rule": False},
    {"scart_jack_voids_all": True},
    {"double_lead_enabled": True},
    {"knock_enabled": True},
    {"double_lead_enabled": True, "knock_enabled": True, "must_overtrump": True},
]


def random_hands(rng: random.Random, dealer: int) -> list[list[str]]:
    pack = list(CODES)
    rng.shuffle(pack)
    hands, k = [], 0
    for p in range(4):
        n = 21 if p == dealer else 19
        hands.append(pack[k:k + n])
        k += n
    return hands


def biased_hands(rng: random.Random, dealer: int) -> list[list[str]]:
    """Sometimes give the dealer no trump (FORCE), or hold kings with their jacks (BUOB, double lead)."""
    if rng.random() < 0.3:
        trumps = [c for c in CODES if c.startswith("T")]
        others = [c for c in CODES if not c.startswith("T")]
        rng.shuffle(others)
        mine = others[:21]
        rest = trumps + others[21:]
        rng.shuffle(rest)
        hands, k = [], 0
        for p in range(4):
            if p == dealer:
                hands.append(mine)
            else:
                hands.append(rest[k:k + 19])
                k += 19
        return hands
    return random_hands(rng, dealer)


def random_deal(rng: random.Random, max_redeals: int) -> dict:
    dealer = rng.randrange(4)
    b = rng.choice([0, 0, 4, 9, 12, 18, 25])
    bal = [-b, b] if rng.random() < 0.5 else [b, -b]
    return {
        "dealer": dealer,
        "hands": biased_hands(rng, dealer),
        "balance": bal,
        "redeals": [biased_hands(rng, dealer) for _ in range(max_redeals)],
    }


def compare_episode(state, ref: Reference, rng: random.Random, policy_bias: float = 0.7) -> int:
    steps = 0
    while True:
        assert state.is_terminal() == ref.terminal, (steps, state.history())
        if ref.terminal:
            got = [int(x) for x in state.returns()]
            assert got == ref.result, (got, ref.result, state.history())
            return steps
        assert state.current_player() == ref.current_player(), (steps, ref.phase, state.history())
        legal = state.legal_actions()
        assert legal == ref.legal_actions(), (steps, ref.phase, legal, ref.legal_actions(), state.history())
        # Prefer keeping the deal going but throw in / force / knock / double-lead / demand often enough.
        if rng.random() < policy_bias and 104 in legal:
            a = 104
        else:
            a = rng.choice(legal)
        state.apply_action(a)
        ref.apply(a)
        steps += 1


def run_seeded(n: int, start: int = 0, **options) -> None:
    game = tarockrl.make_game("troccas", max_redeals=0, **options)
    for seed in range(start, start + n):
        state = game.new_initial_state(seed=seed)
        ref = Reference(state.deal(), max_redeals=0, **options)
        compare_episode(state, ref, random.Random(seed))


def run_dicts(n: int, start: int = 0, **options) -> None:
    max_redeals = options.get("max_redeals", 3)
    game = tarockrl.make_game("troccas", **options)
    for i in range(start, start + n):
        rng = random.Random(10_000 + i)
        deal = random_deal(rng, max_redeals)
        state = game.new_initial_state(deal=deal)
        ref = Reference(deal, **options)
        compare_episode(state, ref, rng, policy_bias=rng.choice([0.0, 0.5, 0.8]))


def test_reference_default_seeded():
    run_seeded(120)


def test_reference_default_dicts():
    run_dicts(120)


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(o) or "default")
def test_reference_variants(options):
    run_dicts(12, **options)


@pytest.mark.slow
def test_reference_many_seeded():
    run_seeded(3000, start=1000)


@pytest.mark.slow
def test_reference_many_dicts():
    run_dicts(3000, start=1000)
    run_dicts(500, start=5000, max_redeals=1)


@pytest.mark.slow
@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(o) or "default")
def test_reference_many_variants(options):
    run_dicts(300, start=2000, **options)


def shutout_deal(rng: random.Random, dealer_team: int) -> dict:
    """Team B (seats 1, 3) holds every trump, so it wins every trick; team A (seats 0, 2) holds the Fool.

    ``dealer_team = 1``: seat 1 deals and holds all 21 trumps. ``dealer_team = 0``: seat 0 deals without a
    trump, seat 1 holds trumps I-XIX and seat 3 trumps XX and XXI (team A still wins nothing).
    """
    trumps = [f"T{i}" for i in range(1, 22)]
    plain = [c for c in CODES if c[0] in "cobs"]
    rng.shuffle(plain)
    if dealer_team == 1:
        h1 = trumps
        rest = plain + ["FOOL"]
        rest.remove("FOOL")
        h0 = ["FOOL"] + rest[:18]
        h2, h3 = rest[18:37], rest[37:]
        return {"dealer": 1, "hands": [h0, h1, h2, h3]}
    h1 = trumps[:19]
    h3 = trumps[19:] + plain[:17]
    h0 = ["FOOL"] + plain[17:37]
    h2 = plain[37:]
    return {"dealer": 0, "hands": [h0, h1, h2, h3]}


@pytest.mark.parametrize("options", [{}, {"scart_counts_for_fool": True}, {"slam_takes_scart": True},
                                     {"scart_counts_for_fool": True, "slam_takes_scart": True}],
                         ids=lambda o: ",".join(o) or "default")
def test_reference_shutout_deals(options):
    game = tarockrl.make_game("troccas", max_redeals=0, **options)
    for i in range(20):
        rng = random.Random(i)
        deal = shutout_deal(rng, i % 2)
        for p in range(4):
            rng.shuffle(deal["hands"][p])
        state = game.new_initial_state(deal=deal)
        compare_episode(state, Reference(deal, max_redeals=0, **options), rng)


def test_reference_scart_fallback_deals():
    """The dealer holds only trumps, the Fool and kings: under scart_trumps_allowed = false trumps II-XX are
    legal again (4.7); compared over a few random plays, also with the default option."""
    for options in ({"scart_trumps_allowed": False}, {}):
        game = tarockrl.make_game("troccas", max_redeals=0, **options)
        for i in range(10):
            rng = random.Random(i)
            mine = [f"T{k}" for k in range(1, 18)] + ["cK", "oK", "bK", "sK"]
            if i % 2:
                mine[-1] = "FOOL"
            rest = [c for c in CODES if c not in mine]
            rng.shuffle(rest)
            rng.shuffle(mine)
            dealer = i % 4
            hands, k = [], 0
            for p in range(4):
                if p == dealer:
                    hands.append(mine)
                else:
                    hands.append(rest[k:k + 19])
                    k += 19
            deal = {"dealer": dealer, "hands": hands}
            state = game.new_initial_state(deal=deal)
            compare_episode(state, Reference(deal, max_redeals=0, **options), rng)


def test_reference_fool_paid_with_a_counter():
    """Team A wins only the first trick (T1, T21 and two kings) and loses the Fool later: it has no 1-point
    card, so it pays with its lowest-valued card, lowest index (5.8) -- here trump I."""
    game = tarockrl.make_game("troccas", max_redeals=0)
    for i in range(10):
        rng = random.Random(i)
        plain = [c for c in CODES if c[0] in "cobs" and c not in ("cK", "oK", "bK", "sK")]
        rng.shuffle(plain)
        hands = [
            ["T21", "FOOL"] + plain[:17],
            [f"T{k}" for k in range(1, 21)] + [plain[17]],
            ["cK", "oK"] + plain[18:35],
            ["bK", "sK"] + plain[35:],
        ]
        deal = {"dealer": 1, "hands": hands}
        state = game.new_initial_state(deal=deal)
        ref = Reference(deal, max_redeals=0)
        wanted = {(1, "SCART"): [CODES.index(plain[17]), 19], (1, "PLAY"): [0], (2, "PLAY"): [35, 49],
                  (3, "PLAY"): [63, 77], (0, "PLAY"): [20]}
        while not ref.terminal:
            legal = state.legal_actions()
            assert legal == ref.legal_actions()
            assert state.current_player() == ref.current_player()
            first_trick = ref.phase != "PLAY" or not ref.played or len(ref.played) < 4
            choice = [a for a in wanted.get((ref.cur, ref.phase), []) if a in legal] if first_trick else []
            a = choice[0] if choice else rng.choice(legal)
            state.apply_action(a)
            ref.apply(a)
        assert ref.tricks_won[0] == 1 and ref.fool_trick_team == 1
        assert state.is_terminal()
        assert [int(x) for x in state.returns()] == ref.result
        # A keeps T21 and the two kings (and gets the Fool back) and pays T1: 4 cards, 20 - 3 = 17 points
        assert ref.result[0] == 17 - 36


def random_options(rng: random.Random) -> dict:
    opts = {
        "first_leader": rng.choice(["dealer", "forehand"]),
        "max_redeals": rng.choice([0, 1, 2, 3, 5]),
        "nine_ten_threshold": rng.choice([1, 9, 12]),
    }
    opts["single_packet_threshold"] = opts["nine_ten_threshold"] + rng.choice([0, 6, 9])
    for flag in ("must_overtrump", "scart_counts_for_fool", "king_jack_rule", "king_after_fool_triggers",
                 "buob_demand_automatic", "scart_jack_voids_all", "double_lead_enabled", "talk_enabled",
                 "throw_in_enabled", "dealer_force_enabled", "fool_counts_as_trump_for_force",
                 "packet_options_enabled", "scart_trumps_allowed", "knock_enabled", "slam_takes_scart"):
        if rng.random() < 0.3:
            opts[flag] = not DEFAULTS[flag]
    return opts


@pytest.mark.slow
def test_reference_random_option_sets():
    for k in range(200):
        opts = random_options(random.Random(k))
        run_dicts(25, start=100 * k, **opts)


def run_seeded_with_redeals(n: int, start: int = 0, **options) -> None:
    """Seeded deals with redeals drawn by the engine: play once to learn the redeals (``State.deal()`` lists
    them at the end), then replay the same actions against the reference step by step."""
    from tarockrl.games.troccas import new_state

    game = tarockrl.make_game("troccas", **options)
    for seed in range(start, start + n):
        rng = random.Random(seed)
        kwargs = {"dealer": rng.randrange(4), "balance": rng.choice([0, 9, -9, 18, -20])}
        state = new_state(game, seed, **kwargs)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(105 if 105 in legal and rng.random() < 0.6 else rng.choice(legal))
        deal, actions = state.deal(), state.history()
        replay = new_state(game, seed, **kwargs)
        ref = Reference(deal, **options)
        for a in actions:
            assert replay.current_player() == ref.current_player()
            assert replay.legal_actions() == ref.legal_actions()
            replay.apply_action(a)
            ref.apply(a)
        assert replay.is_terminal() and ref.terminal
        assert [int(x) for x in replay.returns()] == ref.result


def test_reference_seeded_with_redeals():
    run_seeded_with_redeals(60)


def test_reference_batch():
    """The batch drivers against the reference (max_redeals = 0, dealers and balances per row)."""
    from tarockrl.games.troccas import new_batch

    game = tarockrl.make_game("troccas", max_redeals=0)
    n = 24
    batch = new_batch(game, n, seed=7, dealers=[i % 4 for i in range(n)],
                      balances=[(-20, -9, 0, 9, 18, 30)[i % 6] for i in range(n)])
    refs = [Reference(batch.state(i).deal(), max_redeals=0) for i in range(n)]
    step = 0
    while not batch.is_terminal().all():
        masks = batch.legal_masks()
        players = batch.current_players()
        for i, ref in enumerate(refs):
            assert bool(batch.is_terminal()[i]) == ref.terminal
            if not ref.terminal:
                assert int(players[i]) == ref.current_player()
                assert [int(a) for a in masks[i].nonzero()[0]] == ref.legal_actions()
        actions = batch.random_actions(seed=3, step_no=step)
        batch.step(actions)
        for i, ref in enumerate(refs):
            if not ref.terminal:
                ref.apply(int(actions[i]))
        step += 1
    returns = batch.returns()
    for i, ref in enumerate(refs):
        assert ref.terminal and [int(x) for x in returns[i]] == ref.result


@pytest.mark.slow
def test_reference_many_seeded_with_redeals():
    run_seeded_with_redeals(1500, start=1000)
    run_seeded_with_redeals(300, start=5000, fool_counts_as_trump_for_force=True, talk_enabled=False)
