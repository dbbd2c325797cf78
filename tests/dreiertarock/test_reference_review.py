"""Differential test: the engine against the independent review reference (``reference.py``).

Random games through the public API; after every action the current player, the sorted legal actions and
terminality must agree, and at the end the returns.
"""

from __future__ import annotations

import random

import pytest

import tarockrl
from tests.dreiertarock.reference import RefDreiertarock

OPTION_SETS = [
    {},
    {"all_pass_rule": "trischaken"},
    {"forehand_must_bid": True, "discard_tarock_rule": "free"},
    {"kontra_max_level": 1, "announce_first_turn_only": False},
    {"defender_announcements": False, "kontra_enabled": False, "solo_declarer_leads": True},
    {"valat_factor": 0, "silent_bird_failure_penalty": True, "trull_counts_non_trick_cards": True},
    {"valat_cancels_silent_bonuses": False, "solo_bonus_factor": 2, "kaiserstich": True},
    {"solo_valat_early_end": False, "redeal_without_tarock": True},
    {"all_pass_rule": "trischaken", "kaiserstich": True, "trischaken_value": 7},
    {"kontra_max_level": 0, "valat_factor": 1, "solo_bonus_factor": 0},
    {"kontra_max_level": 2, "discard_tarock_rule": "free", "solo_declarer_leads": True, "kaiserstich": True},
    {"kontra_enabled": False, "announce_first_turn_only": False, "silent_bird_failure_penalty": True},
]


def _strength(a: int) -> int:
    return 100 + a if a < 22 else a


def _policy(rng: random.Random, legal: list[int], bias: int) -> int:
    # bias 0: uniform; bias 1: prefer GOOD / PASS less often to get long auctions and doubling chains;
    # bias 2: prefer passing in the auction (reaches all-pass deals and short auctions);
    # bias 3: never bid Solo / Solo Valat while something else is legal (talon contracts);
    # bias 4: as 3 and aggressive; bias 5: as 4 and greedy card play (highest tarock, else highest card)
    if bias >= 3:
        no_solo = [a for a in legal if a not in (115, 116)]
        if no_solo:
            legal = no_solo
        if bias == 5 and legal[-1] < 54:
            return max(legal, key=_strength)
        if bias >= 4:
            bias = 1
    if bias == 1:
        non = [a for a in legal if a not in (108, 126)]
        if non and rng.random() < 0.7:
            return rng.choice(non)
    elif bias == 2 and 108 in legal and rng.random() < 0.6:
        return 108
    return rng.choice(legal)


CODES = (
    [f"T{i}" for i in range(1, 22)]
    + ["SKS"]
    + [s + r for s in "HD" for r in ("4", "3", "2", "1", "J", "N", "Q", "K")]
    + [s + r for s in "CS" for r in ("7", "8", "9", "10", "J", "N", "Q", "K")]
)


def skewed_deal(seed: int) -> dict:
    """A deal where one random seat holds many top tarocks (reaches valats and trick-14..16 birds)."""
    rng = random.Random(seed)
    strong = rng.randrange(3)
    n_top = rng.randint(10, 16)
    top = list(range(22 - n_top, 22))
    rest = [c for c in range(54) if c not in top]
    rng.shuffle(rest)
    hands: list[list[int]] = [[], [], []]
    hands[strong] = top + rest[: 16 - n_top]
    rest = rest[16 - n_top :]
    others = [s for s in range(3) if s != strong]
    hands[others[0]], hands[others[1]] = rest[:16], rest[16:32]
    packets = [rest[32:35], rest[35:38]]
    return {
        "dealer": rng.randrange(3),
        "hands": [[CODES[c] for c in sorted(h)] for h in hands],
        "talon_packets": [[CODES[c] for c in sorted(p)] for p in packets],
    }


def compare_one(seed: int, options: dict, bias: int = 0, skewed: bool = False) -> int:
    game = tarockrl.make_game("dreiertarock", **options)
    st = game.new_initial_state(deal=skewed_deal(seed)) if skewed else game.new_initial_state(seed=seed)
    ref = RefDreiertarock(st.deal(), **options)
    rng = random.Random(seed * 7919 + bias)
    n = 0
    while True:
        ctx = f"seed={seed} options={options} bias={bias} skewed={skewed} history={st.history()}"
        assert st.is_terminal() == ref.is_terminal(), ctx
        if st.is_terminal():
            break
        assert st.current_player() == ref.current_player(), ctx
        legal = st.legal_actions()
        assert legal == ref.legal_actions(), ctx
        a = _policy(rng, legal, bias)
        st.apply_action(a)
        ref.apply(a)
        n += 1
    ctx = f"seed={seed} options={options} bias={bias} skewed={skewed} history={st.history()}"
    assert st.legal_actions() == [], ctx
    assert [int(x) for x in st.returns()] == ref.returns(), ctx
    assert list(st.returns()) == [float(x) for x in ref.returns()], ctx
    return n


def test_reference_review_default():
    for seed in range(180):
        compare_one(seed, {}, bias=seed % 6)
    for seed in range(60):
        compare_one(seed, {}, bias=3 + seed % 3, skewed=True)
    for i, opts in enumerate(OPTION_SETS[1:]):
        for seed in range(18):
            compare_one(1000 + 100 * i + seed, opts, bias=seed % 6, skewed=seed % 3 == 0)


@pytest.mark.slow
def test_reference_review_many():
    for seed in range(6000):
        compare_one(10_000 + seed, {}, bias=seed % 6)
    for seed in range(3000):
        compare_one(20_000 + seed, {}, bias=3 + seed % 3, skewed=True)
    for i, opts in enumerate(OPTION_SETS[1:]):
        for seed in range(900):
            compare_one(100_000 + 1000 * i + seed, opts, bias=seed % 6, skewed=seed % 3 == 0)


def compare_auto(seed: int, bias: int) -> None:
    """``auto_play_forced``: the engine applies single-legal decisions itself; the game must be unchanged."""
    game = tarockrl.make_game("dreiertarock", auto_play_forced=True)
    st = game.new_initial_state(seed=seed)
    ref = RefDreiertarock(st.deal())
    rng = random.Random(seed)
    while True:
        while not ref.is_terminal() and len(ref.legal_actions()) == 1:
            ref.apply(ref.legal_actions()[0])
        ctx = f"seed={seed} bias={bias} history={st.history()}"
        assert st.history() == ref.history, ctx
        assert st.is_terminal() == ref.is_terminal(), ctx
        if st.is_terminal():
            break
        assert st.current_player() == ref.current_player(), ctx
        legal = st.legal_actions()
        assert legal == ref.legal_actions(), ctx
        a = _policy(rng, legal, bias)
        st.apply_action(a)
        ref.apply(a)
    assert [int(x) for x in st.returns()] == ref.returns()


def test_reference_review_auto_play_forced():
    for seed in range(30):
        compare_auto(seed, seed % 6)


def _play(deal: dict, actions: list[int], **options) -> tuple:
    st = tarockrl.make_game("dreiertarock", **options).new_initial_state(deal=deal)
    ref = RefDreiertarock(deal, **options)
    for a in actions:
        assert st.legal_actions() == ref.legal_actions(), (actions, a)
        st.apply_action(a)
        ref.apply(a)
    assert st.legal_actions() == ref.legal_actions()
    assert st.current_player() == ref.current_player()
    return st, ref


def test_reference_review_auction_corners():
    deal = skewed_deal(5)
    d = deal["dealer"]
    F, M, R = (d + 1) % 3, (d + 2) % 3, d
    # B5: three-way, after F holds M may only pass or raise
    st, _ = _play(deal, [110, 111, 112, 109])
    assert st.current_player() == M and st.legal_actions() == [108, 113]
    # a Solo after a holding war: the seats that have spoken may only pass
    st, _ = _play(deal, [110, 111, 115])
    assert st.current_player() == F and st.legal_actions() == [108]
    st, _ = _play(deal, [110, 111, 115, 108])
    assert st.current_player() == M and st.legal_actions() == [108]
    st, ref = _play(deal, [110, 111, 115, 108, 108])
    assert ref.declarer == R and ref.contract == 6 and st.phase() == ref.phase == "announce"
    # forehand passes: M opens with Einser, R (junior) may raise or go solo, then M may hold
    st, _ = _play(deal, [108, 110])
    assert st.current_player() == R and st.legal_actions() == [108, 111, 115, 116]
    st, _ = _play(deal, [108, 110, 111])
    assert st.current_player() == M and st.legal_actions() == [108, 109]
    # the 11-call holding war ends in a Fuenfer for forehand
    war = [110, 111, 108, 109, 112, 109, 113, 109, 114, 109, 108]
    st, ref = _play(deal, war)
    assert ref.declarer == F and ref.contract == 5 and st.current_player() == F
    assert st.legal_actions() == [117, 118]
    # forehand_must_bid removes PASS from forehand's first turn only
    st, _ = _play(deal, [], forehand_must_bid=True)
    assert st.legal_actions() == [110, 115, 116]


# --------------------------------------------------------------------------- worked examples (reference self-check)
def _h(text: str) -> list[str]:
    return text.split()


def _tricks(lines: list[str]) -> list[int]:
    """Trick lines 'sX c, sY c, sZ c' in trick order -> PLAY actions."""
    out = []
    for line in lines:
        for part in line.split(","):
            out.append(CODES.index(part.split()[1]))
    return out


def _disc(*codes: str) -> list[int]:
    return [54 + CODES.index(c) for c in codes]


EX_A = {
    "dealer": 2,
    "hands": [
        _h("T1 T7 T9 T10 T16 T17 SKS H1 D3 C10 CJ CN CQ SJ SQ SK"),
        _h("T4 T8 T11 T19 T20 H2 HN D4 D1 DJ DN C8 C9 S7 S9 S10"),
        _h("T2 T3 T6 T12 T14 T15 T21 H4 H3 HJ D2 DQ DK C7 S8 SN"),
    ],
    "talon_packets": [_h("T18 HQ CK"), _h("T5 T13 HK")],
}
EX_A_PLAY = [
    "s0 T7, s1 T11, s2 T6",
    "s1 T20, s2 T15, s0 T16",
    "s1 DJ, s2 DQ, s0 T18",
    "s0 SQ, s1 S9, s2 S8",
    "s0 T17, s1 T19, s2 T14",
    "s1 DN, s2 DK, s0 T9",
    "s0 SJ, s1 S10, s2 SN",
    "s2 D2, s0 T10, s1 D4",
    "s0 CN, s1 C8, s2 C7",
    "s0 CK, s1 C9, s2 T12",
    "s2 H3, s0 HQ, s1 H2",
    "s0 CQ, s1 T8, s2 T21",
    "s2 H4, s0 SKS, s1 HN",
    "s0 CJ, s1 T4, s2 T3",
    "s1 S7, s2 T2, s0 SK",
    "s2 HJ, s0 T1, s1 D1",
]
EX_D = {
    "dealer": 2,
    "hands": [
        _h("T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 SKS HK"),
        _h("T1 T2 T3 T4 H3 H2 H1 HJ HN HQ D2 D1 DJ DN DQ DK"),
        _h("T5 T6 T7 C8 C9 C10 CJ CN CQ CK S9 S10 SJ SN SQ SK"),
    ],
    "talon_packets": [_h("D4 D3 C7"), _h("H4 S7 S8")],
}
EX_D_PLAY = [
    "s0 SKS, s1 T4, s2 T7",
    "s0 T21, s1 T3, s2 T6",
    "s0 T20, s1 T2, s2 T5",
    "s0 T19, s1 T1, s2 SK",
    "s0 T18, s1 DK, s2 SQ",
    "s0 T17, s1 DQ, s2 SN",
    "s0 T16, s1 DN, s2 SJ",
    "s0 T15, s1 DJ, s2 S10",
    "s0 T14, s1 D1, s2 S9",
    "s0 T13, s1 D2, s2 CK",
    "s0 T12, s1 HQ, s2 CQ",
    "s0 T11, s1 HN, s2 CN",
    "s0 T10, s1 HJ, s2 CJ",
    "s0 T9, s1 H1, s2 C10",
    "s0 T8, s1 H2, s2 C9",
    "s0 HK, s1 H3, s2 C8",
]
EX_E = {
    "dealer": 2,
    "hands": [
        _h("T6 T7 T8 T10 T13 H3 HK D1 DJ DQ C7 C8 C9 CN CK S10"),
        _h("T1 T2 T5 T9 T14 T15 T19 T20 T21 H4 D4 DN DK CJ SN SQ"),
        _h("T3 T4 T12 T17 T18 H2 H1 HJ D3 D2 C10 CQ S7 S8 S9 SK"),
    ],
    "talon_packets": [_h("T11 T16 SKS"), _h("HN HQ SJ")],
}
EX_F_PLAY = [
    "s0 C9, s1 CJ, s2 CQ",
    "s2 H2, s0 HK, s1 H4",
    "s0 CK, s1 T14, s2 C10",
    "s1 D4, s2 D3, s0 DQ",
    "s0 T8, s1 T19, s2 T12",
    "s1 T9, s2 T18, s0 T7",
    "s2 D2, s0 D1, s1 DN",
    "s1 SQ, s2 SK, s0 S10",
    "s2 S7, s0 T6, s1 SN",
    "s0 DJ, s1 DK, s2 T4",
    "s2 S9, s0 T13, s1 T20",
    "s1 T15, s2 T17, s0 T10",
    "s2 H1, s0 H3, s1 T5",
    "s1 T21, s2 T3, s0 C8",
    "s1 T2, s2 HJ, s0 CN",
    "s1 T1, s2 S8, s0 C7",
]


@pytest.mark.parametrize(
    "deal, actions, options, expected",
    [
        (
            EX_A,
            [110, 111, 108, 109, 108, 117, *_disc("H1", "D3", "C10"), 126, 126, 126, *_tricks(EX_A_PLAY)],
            {},
            [40, -20, -20],
        ),
        (
            EX_D,
            [
                110,
                108,
                108,
                117,
                *_disc("D4", "D3", "C7"),
                126,
                119,
                126,
                122,
                126,
                123,
                122,
                126,
                126,
                126,
                *_tricks(EX_D_PLAY),
            ],
            {},
            [1280, -640, -640],
        ),
        (EX_E, [108, 108, 116, 126, 122, 126, 126, 126, *_tricks(["s0 C9, s1 CJ, s2 C10"])], {}, [1920, 1920, -3840]),
        (EX_E, [108, 108, 108], {}, [0, 0, 0]),
        (EX_E, [108, 108, 108, *_tricks(EX_F_PLAY)], {"all_pass_rule": "trischaken"}, [30, -60, 30]),
    ],
)
def test_reference_review_worked_examples(deal, actions, options, expected):
    st, ref = _play(deal, actions, **options)
    assert ref.is_terminal() and st.is_terminal()
    assert ref.returns() == expected
    assert [int(x) for x in st.returns()] == expected
