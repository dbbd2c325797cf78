"""The catalogue of issue 10 as exact tests: every reproducer, each with the error it must give now.

Saved states, the batch API's array arguments, the command line, the PettingZoo AEC env and the smaller items.
"""

from __future__ import annotations

import hashlib
import pickle
import warnings

import gymnasium
import numpy as np
import pytest

import tarockrl
from tarockrl.cli import main
from tarockrl.envs import ResetNeededError, env_id
from tarockrl.errors import BadDealError, CorruptStateError, IllegalActionError, WrongGameError
from tarockrl.games.api import State
from tarockrl.games.validate import check_row, slot_name

GAMES = ["dreierles", "dreiertarock", "tatteln", "troccas"]
HEAD, SUM = 30, 8


def resign(data: bytes) -> bytes:
    head, body = data[:HEAD], data[HEAD + SUM :]
    return head + hashlib.blake2b(head + body, digest_size=SUM).digest() + body


def mid_state(game, seed=0, steps=None):
    """A state some way into a random deal (into the play phase when ``steps`` is None)."""
    state = game.new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    n = 0
    while not state.is_terminal() and (n < steps if steps is not None else state.phase() != "play"):
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
        n += 1
    if steps is None and not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state


# ---------------------------------------------------------------------------------------------------------
# 1. saved states
# ---------------------------------------------------------------------------------------------------------
def test_issue_reproducer_bit_flip():
    g = tarockrl.make_game("dreierles")
    s = g.new_initial_state(seed=0)
    while s.phase() != "play":
        s.apply_action(s.legal_actions()[0])
    s.apply_action(s.legal_actions()[0])
    b = bytearray(s.to_bytes())
    b[30 + 8 * 41 + 6] ^= 1
    with pytest.raises(CorruptStateError, match="checksum"):
        g.state_from_bytes(bytes(b))
    # the same flip in the row, with a valid checksum: named by its slot
    row = s.row.copy()
    row[41] ^= 1 << 48
    with pytest.raises(CorruptStateError, match=f"slot '{slot_name(g, 41)}'"):
        g.state_from_bytes(g._encode(row))
    assert g.state_from_bytes(s.to_bytes()) == s


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("hist_len", [-2000, -100, -1])
def test_negative_history_length(game_name, hist_len):
    g = tarockrl.make_game(game_name)
    s = mid_state(g)
    row = s.row.copy()
    row[g.definition.slot_hist_len] = hist_len
    with pytest.raises(CorruptStateError, match=f"slot 'hist_len' is {hist_len}, expected a value in"):
        g.state_from_bytes(g._encode(row))
    with pytest.raises(CorruptStateError, match="hist_len"):
        g.batch_from_states([s, State(g, row)])


@pytest.mark.parametrize("game_name", GAMES)
def test_history_contents(game_name):
    g = tarockrl.make_game(game_name)
    s = mid_state(g)
    d = g.definition
    n = int(s.row[d.slot_hist_len])
    for value, pattern in ((-1, "not an action id"), (g.num_actions, "not an action id"), (2**63 - 1, "not an")):
        row = s.row.copy()
        row[d.slot_hist + n - 1] = value
        with pytest.raises(CorruptStateError, match=pattern):
            g.state_from_bytes(g._encode(row))
    row = s.row.copy()
    row[d.slot_hist_len] = 10**6
    with pytest.raises(CorruptStateError, match="hist_len"):
        g.state_from_bytes(g._encode(row))
    # an action id that is not legal where it stands in the history
    row = s.row.copy()
    replay = g.new_initial_state(deal=s.deal()) if game_name != "troccas" else None
    first = s.history()[0]
    bad = next(a for a in range(g.num_actions) if a != first and (replay is None or a not in replay.legal_actions()))
    row[d.slot_hist] = bad
    with pytest.raises(CorruptStateError, match="hist"):
        g.state_from_bytes(g._encode(row))


@pytest.mark.parametrize("game_name", GAMES)
def test_every_slot_changed_is_rejected_by_name(game_name):
    """Each slot of a saved state changed by one (checksum valid) is rejected, naming a slot.

    (A Troccas state after a redeal is not used here: the talk and votes of a cancelled attempt live only in the
    history, so changing one of them gives another reachable state, which is rightly accepted.)
    """
    g = tarockrl.make_game(game_name)
    from tarockrl.games.troccas.layout import REDEAL_COUNT

    seed = 0
    s = mid_state(g, seed)
    while game_name == "troccas" and int(s.row[REDEAL_COUNT]) != 0:
        seed += 1
        s = mid_state(g, seed)
    rejected = 0
    for i in range(g.state_len):
        row = s.row.copy()
        row[i] += 1
        with pytest.raises(CorruptStateError, match="slots? '") as info:
            g.state_from_bytes(g._encode(row))
        assert "not a reachable" in str(info.value)
        rejected += 1
    assert rejected == g.state_len


@pytest.mark.parametrize("game_name", GAMES)
def test_valid_states_round_trip_everywhere(game_name):
    g = tarockrl.make_game(game_name)
    for seed in range(3):
        s = g.new_initial_state(seed=seed, deal_id=seed * 1000)
        rng = np.random.default_rng(seed)
        while True:
            assert g.state_from_bytes(s.to_bytes()) == s
            assert pickle.loads(pickle.dumps(s)) == s
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply_action(legal[int(rng.integers(len(legal)))])
        from_deal = g.new_initial_state(deal=s.deal())
        assert g.state_from_bytes(from_deal.to_bytes()) == from_deal
        assert np.array_equal(g.batch_from_states([s, from_deal]).rows, np.stack([s.row, from_deal.row]))


def test_troccas_redeals_and_generator_are_checked():
    from tarockrl.games import troccas
    from tarockrl.games.troccas import layout as L

    g = tarockrl.make_game("troccas", max_redeals=3)
    found = 0
    for seed in range(40):
        s = troccas.new_state(g, seed, dealer=seed % 4, balance=seed) if seed % 2 else g.new_initial_state(seed=seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[-1] if s.phase() in ("vote", "force") else legal[0])
        if int(s.row[L.REDEAL_COUNT]) == 0:
            continue
        found += 1
        assert g.state_from_bytes(s.to_bytes()) == s
        given = g.new_initial_state(deal=s.deal())
        assert g.state_from_bytes(given.to_bytes()) == given
        row = s.row.copy()
        row[L.RNG] += 1
        with pytest.raises(CorruptStateError, match="'rng'"):
            g.state_from_bytes(g._encode(row))
        row = s.row.copy()
        row[L.PERM], row[L.PERM + 1] = row[L.PERM + 1], row[L.PERM]
        with pytest.raises(CorruptStateError):
            g.state_from_bytes(g._encode(row))
    assert found >= 5


def test_tatteln_stock_order_is_checked():
    from tarockrl.games.tatteln import layout as L

    for opts in ({}, {"deck_size": 36}, {"no_trump": True}):
        g = tarockrl.make_game("tatteln", **opts)
        s = mid_state(g, steps=6)
        assert g.state_from_bytes(s.to_bytes()) == s
        row = s.row.copy()
        w = row[L.DECK]
        row[L.DECK] = (w & ~np.int64(0xFFF)) | ((w & 0x3F) << 6) | ((w >> 6) & 0x3F)  # swap d[0] and d[1]
        with pytest.raises(CorruptStateError, match="slot '"):  # the hands (or the history) no longer fit the deck
            g.state_from_bytes(g._encode(row))
        row[L.DECK] = (w & ~np.int64(0x3F)) | ((w >> 6) & 0x3F)  # d[0] = d[1]: a card twice
        with pytest.raises(CorruptStateError, match="slot 'deck' does not hold a shuffle"):
            g.state_from_bytes(g._encode(row))
        # two stock cards not yet drawn swapped: another deal with the same history, a reachable state
        row = s.row.copy()
        last = row[L.DECK + 3]  # d[30] and d[31]: not drawn after six actions
        row[L.DECK + 3] = (last & ~np.int64(0xFFF)) | ((last & 0x3F) << 6) | ((last >> 6) & 0x3F)
        other = g.state_from_bytes(g._encode(row))
        assert other != s and other.history() == s.history()


@pytest.mark.parametrize(
    "data,pattern",
    [(b"", "bad header"), (b"TRKL", "bad header"), (b"TRKL\x01\x00" + bytes(40), "version 1"),
     (b"TRKL\x02\x00", "truncated"), (b"TRKL\x02\x00" + bytes(37), "checksum")],
)
def test_old_short_and_damaged_bytes(data, pattern):
    with pytest.raises(CorruptStateError, match=pattern):
        tarockrl.make_game("dreierles").state_from_bytes(data)


def test_truncated_and_extended_bytes_and_pickles():
    g = tarockrl.make_game("dreiertarock")
    s = mid_state(g)
    data = s.to_bytes()
    for cut in (1, 7, 8, 100, len(data) - HEAD - SUM):
        with pytest.raises(CorruptStateError, match="checksum"):
            g.state_from_bytes(data[:-cut])
        with pytest.raises(CorruptStateError, match="state bytes"):
            g.state_from_bytes(resign(data[:-cut]))
    with pytest.raises(CorruptStateError, match="state bytes"):
        g.state_from_bytes(resign(data + bytes(8)))
    raw = bytearray(pickle.dumps(s))
    pos = raw.index(data[-16:])
    raw[pos] ^= 4
    with pytest.raises(CorruptStateError, match="checksum"):
        pickle.loads(bytes(raw))
    for bad in (None, 12, "text", [1, 2]):
        with pytest.raises(CorruptStateError, match="expected bytes"):
            g.state_from_bytes(bad)


def test_batch_from_states_checks_rows_and_types():
    g = tarockrl.make_game("tatteln")
    s = mid_state(g)
    row = s.row.copy()
    row[5] = 99
    with pytest.raises(CorruptStateError, match=r"states\[1\]"):
        g.batch_from_states([s, State(g, row)])
    with pytest.raises(CorruptStateError, match="int64"):
        g.batch_from_states([State(g, s.row.astype(np.int32))])
    with pytest.raises(CorruptStateError, match="int64"):
        g.batch_from_states([State(g, s.row[:-1].copy())])
    with pytest.raises(TypeError):
        g.batch_from_states(s)
    with pytest.raises(WrongGameError):
        g.batch_from_states([tarockrl.make_game("dreierles").new_initial_state(seed=0)])
    assert check_row(g, s.row).tolist() == s.row.tolist()


# ---------------------------------------------------------------------------------------------------------
# 2. array arguments of the batch API
# ---------------------------------------------------------------------------------------------------------
def _bad_outs(n, a):
    ro = np.zeros((n, a), bool)
    ro.setflags(write=False)
    return [
        np.zeros((1, 1), bool), np.zeros((n, a + 1), bool), np.zeros((n - 1, a), bool), np.zeros(n * a, bool),
        np.zeros((n, a), np.int8), np.zeros((n, a), np.float64), ro, np.zeros((n, a), bool, order="F"),
        np.zeros((n, 2 * a), bool)[:, ::2], [[False] * a] * n, None.__class__,
    ]


@pytest.mark.parametrize("game_name", GAMES)
def test_legal_masks_out_is_checked(game_name):
    g = tarockrl.make_game(game_name)
    batch = g.new_batch(64, seed=0)
    before = batch.rows.copy()
    for out in _bad_outs(64, g.num_actions):
        with pytest.raises(ValueError, match="out must be a writable C-contiguous bool array"):
            batch.legal_masks(out=out)
    assert np.array_equal(batch.rows, before)
    good = np.zeros((64, g.num_actions), bool)
    assert batch.legal_masks(out=good) is good and np.array_equal(good, batch.legal_masks())


def test_issue_reproducer_legal_masks_big_batch():
    batch = tarockrl.make_game("dreierles").new_batch(4096)
    with pytest.raises(ValueError, match=r"shape \(4096, 117\)"):
        batch.legal_masks(out=np.zeros((1, 1), bool))


def test_other_batch_arguments():
    g = tarockrl.make_game("dreierles")
    batch = g.new_batch(8, seed=0)
    before = batch.rows.copy()
    for acts in ([0] * 7, np.zeros(8, float), np.zeros((8, 1), np.int64), ["a"] * 8, [[1, 2], [3]], None,
                 np.full(8, 2**64 - 1, np.uint64)):
        with pytest.raises(IllegalActionError):
            batch.step(acts)
    for players in (np.zeros(7, np.int64), np.full(8, 3), np.full(8, -2), np.zeros(8, float), "x", [[0, 1], [2]]):
        with pytest.raises(ValueError, match="players"):
            batch.observations(players)
    assert np.array_equal(batch.rows, before)
    strided = np.repeat(batch.random_actions(seed=1), 2)[::2]  # a non-contiguous view is fine
    batch.step(strided)
    for i, exc in ((-1, ValueError), (8, ValueError), (None, TypeError), (1.0, TypeError), (True, TypeError)):
        with pytest.raises(exc):
            batch.state(i)
    assert batch.state(np.int64(7)) == State(g, batch.rows[7].copy())
    with pytest.raises(ValueError, match="rows"):
        tarockrl.games.api.Batch(g, np.zeros((2, 3), np.int64))
    with pytest.raises(ValueError, match="rows"):
        tarockrl.games.api.Batch(g, batch.rows.astype(np.int32))


def test_deal_with_deal_id_and_huge_ids():
    g = tarockrl.make_game("dreierles")
    d = g.new_initial_state(seed=1).deal()
    with pytest.raises(ValueError, match="not both"):
        g.new_initial_state(deal=d, deal_id=5)
    with pytest.raises(ValueError, match="out of range"):
        g.new_initial_state(seed=1, deal_id=2**64)
    assert g.new_initial_state(seed=1, deal_id=0) == g.new_initial_state(seed=1)


# ---------------------------------------------------------------------------------------------------------
# 3. command line
# ---------------------------------------------------------------------------------------------------------
CLI_CASES = [
    (["show", "--seed", "-1"], "out of range"),
    (["play", "--seed", "9223372036854775807", "--deals", "2", "--quiet"], "out of range"),
    (["show", "--seed", "99999999999999999999"], "out of range"),
    (["show", "--deal-id", "-5"], "out of range"),
    (["show", "--deal-id", "1e3"], "not a deal id"),
    (["show", "--seed", "seven"], "not a seed"),
    (["play", "-o", "contract_factors=[1,2", "--deals", "2", "--quiet"], "cannot read the value"),
    (["play", "-o", "novalue", "--deals", "2", "--quiet"], "must look like name=value"),
    (["play", "--deals", "10000000000000", "--quiet"], "out of range"),
    (["play", "--deals", "0", "--quiet"], "out of range"),
    (["bench", "--seconds", "nan"], "out of range"),
    (["bench", "--seconds", "inf"], "out of range"),
    (["bench", "--seconds", "-1"], "out of range"),
    (["bench", "--game", "skat"], "unknown game"),
    (["selfcheck", "--deals", "0"], "out of range"),
    (["selfcheck", "--deals", "-3"], "out of range"),
    (["show", "--game", "skat"], "unknown game"),
    (["play", "-o", "raeuber_base=lots", "--deals", "2", "--quiet"], "raeuber_base"),
]


@pytest.mark.parametrize("argv,message", CLI_CASES, ids=[" ".join(a) for a, _ in CLI_CASES])
def test_cli_bad_arguments(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


CONFIG_CASES = [
    (b"game: dreierles\ndeals: lots\n", "deals: Input should be a valid integer"),
    (b"game: dreierles\ndeals: true\n", "deals: Input should be a valid integer"),
    (b"game: dreierles\ndeals: 10.7\n", "deals: Input should be a valid integer"),
    (b"deals: 0\n", "deals: Input should be greater than or equal to 1"),
    (b"seed: -4\n", "seed: Input should be greater than or equal to 0"),
    (b"game: 7\n", "game: Input should be a valid string"),
    (b"game: skat\n", "unknown game"),
    (b"options: [1]\n", "options: Input should be a valid dictionary"),
    (b"colour: red\n", "colour: unknown key"),
    (b"game: dreierles\n# K\xf6nig\n", "is not UTF-8 text"),
    (b"- 1\n- 2\n", "must be a mapping"),
    (b"game: [unclosed\n", "is not valid YAML"),
    (b"options:\n  raeuber_base: lots\n", "raeuber_base"),
]


@pytest.mark.parametrize("text,message", CONFIG_CASES, ids=[m for _, m in CONFIG_CASES])
def test_cli_bad_configs(text, message, tmp_path, capsys):
    path = tmp_path / "config.yaml"
    path.write_bytes(text)
    assert main(["play", "--config", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_cli_good_config_values(tmp_path, capsys):
    path = tmp_path / "config.yaml"
    path.write_text("game: tatteln\ndeals: 7\nseed: 3\n")
    assert main(["play", "--config", str(path), "--quiet"]) == 0
    assert "7 deals" in capsys.readouterr().out
    assert main(["show", "--seed", "9223372036854775806", "--deal-id", "9223372036854775807"]) == 0


# ---------------------------------------------------------------------------------------------------------
# 4. PettingZoo AEC env
# ---------------------------------------------------------------------------------------------------------
pettingzoo = pytest.importorskip("pettingzoo")
from tarockrl.envs import aec_env, raw_aec_env  # noqa: E402


def test_aec_calls_before_reset():
    raw = raw_aec_env("dreierles")
    with pytest.raises(ResetNeededError, match="reset"):
        raw.step(0)
    with pytest.raises(ResetNeededError, match="reset"):
        raw.observe("player_0")
    with pytest.raises(ResetNeededError, match="reset"):
        raw.last()
    wrapped = aec_env("dreierles")
    for call in (lambda: wrapped.step(0), lambda: wrapped.observe("player_0"), lambda: wrapped.last()):
        with pytest.raises(Exception, match="reset") as info:
            call()
        assert not isinstance(info.value, AttributeError) or "before reset" in str(info.value)


@pytest.mark.parametrize("mode", ["raise", "lose"])
def test_aec_bad_actions_name_the_value_and_legal_actions(mode):
    env = aec_env("dreierles", illegal_action=mode)
    env.reset(seed=3)
    before = env.unwrapped.state_object
    legal = before.legal_actions()
    for bad in (200, -1, 1.5, "a", np.array([legal[0], legal[0]]), None, True):
        with pytest.raises(IllegalActionError, match="legal actions") as info:
            env.step(bad)
        assert repr(bad).split("(")[0][:5] in str(info.value) or str(bad) in str(info.value)
        assert env.unwrapped.state_object == before
    raw = env.unwrapped
    if mode == "raise":  # an action id that is not legal now: the error names it, nothing changes
        snapshot = (raw.agent_selection, dict(raw._cumulative_rewards), dict(raw.rewards), dict(raw.terminations))
        illegal = next(a for a in range(raw.game.num_actions) if a not in legal)
        with pytest.raises(IllegalActionError, match=f"action {illegal} .*legal actions"):
            env.step(illegal)
        assert env.unwrapped.state_object == before
        assert snapshot == (raw.agent_selection, dict(raw._cumulative_rewards), dict(raw.rewards),
                            dict(raw.terminations))
    env.step(legal[0])


def test_aec_failed_reset_changes_nothing():
    g = tarockrl.make_game("dreierles")
    env = aec_env("dreierles")
    env.reset(seed=5)
    first = env.unwrapped.state_object
    assert first == g.new_initial_state(seed=5, deal_id=0)
    with pytest.raises(BadDealError):
        env.reset(seed=99, options={"deal": {}})
    assert env.unwrapped.state_object == first
    with pytest.raises(TypeError, match="must be a dict"):
        env.reset(options=[1])
    with pytest.raises(BadDealError, match="must be a deal dict"):
        env.reset(options={"deal": None})
    with pytest.raises(ValueError, match="out of range"):
        env.reset(options={"deal_id": 2**64})
    with pytest.raises(TypeError):
        env.reset(seed="x")
    env.reset()
    assert env.unwrapped.state_object == g.new_initial_state(seed=5, deal_id=1)  # the stream of seed 5 goes on


# ---------------------------------------------------------------------------------------------------------
# 5. the smaller items (single env)
# ---------------------------------------------------------------------------------------------------------
def test_single_env_seeds_deals_and_actions():
    env = gymnasium.make(env_id("dreierles"), illegal_action="raise").unwrapped  # "lose" is the default (issue 15)
    obs_a, _ = env.reset(seed=np.int64(4))
    obs_b, _ = env.reset(seed=4)
    assert np.array_equal(obs_a, obs_b)
    env.reset(seed=-3)  # accepted like the other envs (folded into the int64 stream)
    with pytest.raises(BadDealError, match="must be a deal dict"):
        env.reset(options={"deal": None})
    with pytest.raises(ValueError, match="out of range"):
        env.reset(options={"deal_id": 2**64})
    env.reset(seed=4)
    a = env.legal_actions()[0]
    with pytest.raises(IllegalActionError, match="an action must be an integer"):
        env.step(np.array([a, a]))
    env.step(np.array([a]))
    lose = gymnasium.make(env_id("dreierles"), illegal_action="lose").unwrapped
    lose.reset(seed=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, reward, terminated, _, info = lose.step(np.array([a, a]))
    assert terminated and reward < 0 and "illegal_action" in info
