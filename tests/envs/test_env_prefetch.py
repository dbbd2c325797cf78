"""The env drivers' prefetch plan: the hot part of a state row, and the history slot of a large row."""

from __future__ import annotations

import pytest

import tarockrl
from tarockrl.envs._bind import _SMALL_ROW, drivers


@pytest.mark.parametrize("name", tarockrl.list_games())
def test_prefetch_plan_follows_the_row_layout(name):
    game = tarockrl.make_game(name)
    d = game.definition
    k = drivers(game)  # importing the generated module compiles nothing
    assert k.SLOT_HIST == d.slot_hist and k.SLOT_HIST_LEN == d.slot_hist_len
    assert 1 <= k.PREFETCH_SLOTS <= d.state_len
    large = d.state_len > _SMALL_ROW
    assert k.PREFETCH_HIST == (large and d.slot_hist >= k.PREFETCH_SLOTS)
    if not large:
        assert k.PREFETCH_SLOTS == d.state_len
    if name == "troccas":  # 5.5 KB rows: the history lies beyond the prefetched slots
        assert k.PREFETCH_HIST and k.PREFETCH_SLOTS == d.slot_hist_len + 1

