"""The engine helpers added for Dreiertarock: pack54 counting, mask trick helpers, the paired shuffle."""

from __future__ import annotations

import numpy as np

from tarockrl.engine import masktricks, pack54
from tarockrl.engine.rng import stream_seed
from tarockrl.engine.shuffle import shuffle_prefix_pairs
from tests.dreiertarock.helpers import mask


def test_pack54_values_and_thirds():
    assert int(pack54.CARD_VALUES.sum()) == 106
    assert pack54.card_codes("SKS")[21] == "SKS" and pack54.card_codes("ST")[25] == "H1"
    assert int(pack54.point_sum(pack54.ALL)) == 106
    assert int(pack54.thirds(pack54.ALL)) == 210
    for m in (0, mask("T1 T21 SKS"), mask("HK HQ HN HJ H1"), mask("C7 C8 C9")):
        values = sum(int(pack54.CARD_VALUES[c]) for c in range(54) if (m >> c) & 1)
        assert int(pack54.point_sum(np.int64(m))) == values
        assert int(pack54.thirds(np.int64(m))) == 3 * values - 2 * bin(m).count("1")
    assert int(pack54.SUIT_MASK_OF_CARD[5]) == int(pack54.TAROCKS)
    assert int(pack54.SUIT_MASK_OF_CARD[45]) == int(pack54.CLUBS)


def test_mask_trick_helpers():
    assert int(masktricks.highest_index(np.int64(1))) == 0
    assert int(masktricks.highest_index(np.int64(1 << 53 | 5))) == 53
    assert int(masktricks.highest_index(np.int64(0))) == -1
    hearts, tarocks = pack54.HEARTS, pack54.TAROCKS
    assert int(masktricks.winning_card(np.int64(mask("H3 HN H4")), hearts, tarocks)) == 27
    assert int(masktricks.winning_card(np.int64(mask("H3 T2 HK")), hearts, tarocks)) == 1
    assert int(masktricks.winning_card(np.int64(mask("H3 CK")), hearts, tarocks)) == 23
    beat = masktricks.beating_cards(np.int64(mask("H2 HK T1 CK")), np.int64(mask("H3 HN")), hearts, tarocks)
    assert int(beat) == mask("HK T1")
    beat = masktricks.beating_cards(np.int64(mask("H2 HK T1 T9")), np.int64(mask("H3 T5")), hearts, tarocks)
    assert int(beat) == mask("T9")


def test_paired_shuffle_is_a_uniform_permutation():
    counts = np.zeros((6, 6))
    values = np.empty(6, dtype=np.int64)
    for k in range(30_000):
        values[:] = np.arange(6)
        shuffle_prefix_pairs(stream_seed(np.int64(1), np.int64(k)), values, 6)
        assert sorted(values.tolist()) == list(range(6))
        counts[np.arange(6), values] += 1
    assert np.all(np.abs(counts - 5000) < 5 * np.sqrt(5000))
