"""Action-by-action comparison of the engine with the independent reference in reference.py."""

from __future__ import annotations

import random

import numpy as np
import pytest

import tarockrl
from tarockrl.errors import TarockError
from tarockrl.games.tatteln.partie import Partie

from .helpers import legal_names, make_deal, melds
from .reference import RefPartie, RefTatteln

OPTION_SETS = [
    {},
    {"final_must_head": True, "final_must_trump": True},
    {"announce_only_on_lead": True},
    {"blocker_scores": False, "seq_tie_trump_wins": True},
    {"announce_in_final_phase": False, "rob_enabled": False},
    {"four_tops_up_trio": False, "sets_all_ranks": True},
    {"max_window_length": 8},
    {"max_window_length": 6, "value_tattel": 5, "value_quart": 7, "value_fuss": 20, "value_trio": 2, "value_four": 9},
    {"deck_size": 36},
    {"deck_size": 36, "hand_size": 8, "final_must_head": True},
    {"hand_size": 8},
    {"no_trump": True},
    {"trump_jack_nine_bonus": False, "matsch_forfeits_score": False, "matsch_multiplier": 3},
    {"matsch_enabled": False},
    {"reward_mode": "win_loss"},
    {"deck_size": 36, "max_window_length": 8, "sets_all_ranks": True, "seq_tie_trump_wins": True},
    {"no_trump": True, "seq_tie_trump_wins": True, "hand_size": 8},
    {"announce_only_on_lead": True, "announce_in_final_phase": False, "blocker_scores": False},
]


def _pick(rng: random.Random, legal: list[int], n: int, style: int) -> int:
    pre = [a for a in legal if a >= n]
    if style == 1 and pre and rng.random() < 0.7:
        return rng.choice(pre)
    if style == 2:
        cards = [a for a in legal if a < n]
        return rng.choice(cards)
    return rng.choice(legal)


def compare_games(options: dict, seeds, style_mod: int = 3) -> int:
    game = tarockrl.make_game("tatteln", **options)
    n = game.num_actions - 3
    count = 0
    for seed in seeds:
        rng = random.Random(seed * 7919 + 1)
        state = game.new_initial_state(seed=seed)
        deal = state.deal()
        ref = RefTatteln(deal, **options)
        style = seed % style_mod
        steps = 0
        while True:
            ctx = (options, seed, steps, state.history())
            assert state.is_terminal() == ref.done, ctx
            if ref.done:
                break
            assert state.current_player() == ref.current_player(), ctx
            legal = list(state.legal_actions())
            assert legal == ref.legal_actions(), (ctx, legal, ref.legal_actions())
            if steps % 11 == 5:
                illegal = [x for x in range(n + 3) if x not in legal]
                if illegal:
                    before = state.to_bytes()
                    with pytest.raises(TarockError):
                        state.apply_action(rng.choice(illegal))
                    assert state.to_bytes() == before
            a = _pick(rng, legal, n, style)
            state.apply_action(a)
            ref.apply(a)
            steps += 1
        assert state.legal_actions() == []
        with pytest.raises(TarockError):
            state.apply_action(0)
        got = np.asarray(state.returns(), dtype=float)
        assert np.allclose(got, ref.returns()), (options, seed, got, ref.returns())
        count += 1
    return count


def test_reference_default_options():
    assert compare_games({}, range(500)) == 500


@pytest.mark.parametrize("options", OPTION_SETS[1:], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_reference_option_sets(options):
    assert compare_games(options, range(40)) == 40


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_reference_many_games(options):
    assert compare_games(options, range(1000, 4000)) == 3000


def own_deal(rng: random.Random, n: int = 32, hand: int = 9, no_trump: bool = False) -> dict:
    """A deal shuffled here by Section 3 of the rules (not by the engine's generator)."""
    ranks = "789JQKTA" if n == 32 else "6789JQKTA"
    d = [s + r for s in "HDCS" for r in ranks]
    rng.shuffle(d)
    dealer = rng.randrange(2)
    fh = 1 - dealer
    hands: list[list[str]] = [[], []]
    for k in range(2 * hand):
        hands[fh if k % 2 == 0 else dealer].append(d[k])
    if no_trump:
        return {"dealer": dealer, "hands": hands, "turn_up": None, "stock": d[2 * hand :]}
    return {"dealer": dealer, "hands": hands, "turn_up": d[2 * hand], "stock": d[2 * hand + 1 :]}


def compare_own_deals(options: dict, seeds) -> int:
    game = tarockrl.make_game("tatteln", **options)
    n = game.num_actions - 3
    count = 0
    for seed in seeds:
        rng = random.Random(seed)
        deal = own_deal(rng, n, options.get("hand_size", 9), options.get("no_trump", False))
        state = game.new_initial_state(deal=deal)
        ref = RefTatteln(deal, **options)
        while not ref.done:
            assert state.current_player() == ref.current_player(), (seed, state.history())
            legal = list(state.legal_actions())
            assert legal == ref.legal_actions(), (seed, state.history(), legal, ref.legal_actions())
            a = _pick(rng, legal, n, seed % 3)
            state.apply_action(a)
            ref.apply(a)
        assert state.is_terminal()
        assert np.allclose(np.asarray(state.returns(), dtype=float), ref.returns())
        count += 1
    return count


@pytest.mark.parametrize("options", [{}, {"deck_size": 36, "hand_size": 8}, {"no_trump": True}])
def test_reference_own_shuffled_deals(options):
    assert compare_own_deals(options, range(60)) == 60


def test_reference_reproduces_example_2():
    """The reference itself against the rules' Example 2 (a check of the reference)."""
    deal = {
        "dealer": 1,
        "hands": [
            ["HJ", "HT", "H9", "SA", "SK", "SQ", "DK", "CK", "D7"],
            ["DJ", "DT", "D9", "D8", "HA", "CA", "SJ", "C8", "H7"],
        ],
        "turn_up": "CQ",
        "stock": [],
    }
    used = set(deal["hands"][0]) | set(deal["hands"][1]) | {"CQ", "S7", "HQ"}
    ranks = "789JQKTA"
    deal["stock"] = ["S7", "HQ"] + [s + r for s in "HDCS" for r in ranks if s + r not in used]
    game = tarockrl.make_game("tatteln")
    state = game.new_initial_state(deal=deal)
    ref = RefTatteln(deal)
    seq, set_ = 32, 33
    idx = {s + r: 8 * i + j for i, s in enumerate("HDCS") for j, r in enumerate(ranks)}
    for a in [seq, set_, idx["D7"], idx["C8"]]:
        assert state.legal_actions() == ref.legal_actions()
        state.apply_action(a)
        ref.apply(a)
    assert ref.meld == [3, 10]
    assert ref.legal_actions() == sorted(idx[c] for c in ("DJ", "DT", "D9", "D8", "HA", "CA", "SJ", "H7", "S7"))
    for a in [idx["DJ"], seq, idx["DK"]]:
        assert state.legal_actions() == ref.legal_actions()
        state.apply_action(a)
        ref.apply(a)
    assert ref.meld == [16, 10]
    assert ref.leader == 0


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"partie_target": 100},
        {"partie_target": 300, "partie_double_below_half": False, "matsch_ends_partie": False},
    ],
)
def test_reference_partie(options):
    game = tarockrl.make_game("tatteln", **options)
    ref_opts = {k: v for k, v in options.items() if not k.startswith("partie") and k != "matsch_ends_partie"}
    for seed in range(8):
        rng = random.Random(seed)
        partie = Partie(game, seed=seed)
        ref_p = RefPartie(
            partie.next_dealer,
            options.get("partie_target", 500),
            options.get("partie_double_below_half", True),
            options.get("matsch_ends_partie", True),
        )
        while not partie.over:
            state = partie.new_deal()
            deal = state.deal()
            assert deal["dealer"] == ref_p.dealer
            ref = RefTatteln(deal, **ref_opts)
            while not ref.done:
                a = _pick(rng, list(state.legal_actions()), 32, 1)
                state.apply_action(a)
                ref.apply(a)
            rec = partie.record(state)
            dadj, matsched, _ = ref.deal_points()
            assert rec.deal_points == tuple(dadj) and rec.matsched == matsched
            ref_p.record(dadj, matsched)
            assert partie.totals == ref_p.totals
            assert partie.over == (ref_p.winner is not None)
        assert list(partie.settlement()) == ref_p.settlement()


@pytest.mark.parametrize("options", [{}, {"deck_size": 36, "final_must_head": True, "final_must_trump": True}])
def test_reference_batch_drivers(options):
    """The batch path (legal masks, random actions, step, returns) against the reference."""
    game = tarockrl.make_game("tatteln", **options)
    n = game.num_actions - 3
    batch = game.new_batch(40, seed=5)
    refs = [RefTatteln(batch.state(i).deal(), **options) for i in range(len(batch))]
    step_no = 0
    while not batch.is_terminal().all():
        masks = batch.legal_masks()
        players = batch.current_players()
        term = batch.is_terminal()
        for i, ref in enumerate(refs):
            assert bool(term[i]) == ref.done
            if not ref.done:
                assert players[i] == ref.current_player()
                assert list(np.flatnonzero(masks[i])) == ref.legal_actions()
            else:
                assert not masks[i].any()
        acts = batch.random_actions(seed=9, step_no=step_no)
        batch.step(acts)
        for i, ref in enumerate(refs):
            if not ref.done:
                ref.apply(int(acts[i]))
        step_no += 1
    assert all(ref.done for ref in refs)
    assert np.allclose(batch.returns(), [ref.returns() for ref in refs])
    assert step_no <= 6 * (n // 2) - 7


def _both(deal: dict, names: list[str], **options):
    """Play ``names`` ("PLAY HK", "ANNOUNCE_SEQ", ...) on the engine and the reference, comparing every step."""
    game = tarockrl.make_game("tatteln", **options)
    state = game.new_initial_state(deal=deal)
    ref = RefTatteln(deal, **options)
    for name in names:
        assert state.current_player() == ref.current_player()
        assert list(state.legal_actions()) == ref.legal_actions()
        a = next(x for x in state.legal_actions() if state.action_to_string(x) == name)
        state.apply_action(a)
        ref.apply(a)
    assert list(state.legal_actions()) == ref.legal_actions()
    assert melds(state) == ref.meld
    return state, ref


def test_hand_made_led_card_no_longer_blocks():
    """D23: the follower's announcement is compared with the leader's hand after the lead."""
    deal = make_deal(1, ["SA SK SQ D7 D8 C7 C8 HA DA", "HJ HT H9 D9 DT C9 CT S7 S8"], "CA")
    # The leader announces first: A K Q beats J T 9, the leader scores 3.
    _, ref = _both(deal, ["ANNOUNCE_SEQ"])
    assert ref.meld == [3, 0]
    # The leader leads SA first: the follower's J T 9 (key 52) now beats K Q (no window) and scores 3.
    _, ref = _both(deal, ["PLAY SA", "ANNOUNCE_SEQ"])
    assert ref.meld == [0, 3]


def test_hand_made_rob_then_announce_and_four_top_up():
    """ROB creates a Tattel; a trio scored early is topped up to 14 in all once the fourth card is drawn."""
    deal = make_deal(1, ["H7 HT HJ DJ CJ D7 D8 C7 C8", "HA DA SK DQ S8 ST C9 HQ CK"], "H9", "SJ S7")
    names = ["ROB", "ANNOUNCE_SEQ", "ANNOUNCE_SET", "PLAY D7", "PLAY S8"]
    state, ref = _both(deal, names)
    assert ref.meld == [6, 0]
    assert "ANNOUNCE_SET" in legal_names(state) and "ANNOUNCE_SEQ" not in legal_names(state)
    state, ref = _both(deal, [*names, "ANNOUNCE_SET"])
    assert ref.meld == [17, 0]
    assert "ROB" not in legal_names(state)
