"""The shared field allocator behind every state row and observation layout."""

from __future__ import annotations

import pytest

from tarockrl.engine.layout import Fields
from tarockrl.games import make_game


def test_offsets_follow_the_order_of_allocation():
    f = Fields()
    assert f.take("phase") == 0
    assert f.take("hand", 3, "three hands") == 1
    assert f.take("empty", 0) == 4
    assert f.take("trick", 2) == 4
    assert f.size == 6
    assert f.widths == {"phase": 1, "hand": 3, "empty": 0, "trick": 2}
    assert f.offsets == {"phase": 0, "hand": 1, "empty": 4, "trick": 4}
    assert "| `hand` | 1 | 3 | three hands |" in f.markdown_table()


def test_bad_fields_are_refused():
    f = Fields()
    f.take("phase")
    with pytest.raises(ValueError, match="twice"):
        f.take("phase")
    with pytest.raises(ValueError, match="negative"):
        f.take("hand", -1)


@pytest.mark.parametrize("name", ["dreierles", "dreiertarock", "troccas", "tatteln"])
def test_every_layout_tiles_its_row_and_observation(name):
    import importlib

    layout = importlib.import_module(f"tarockrl.games.{name}.layout")
    observe = importlib.import_module(f"tarockrl.games.{name}.observe")
    widths = layout.SLOT_WIDTHS
    assert widths and all(w >= 0 for w in widths.values())
    if name == "tatteln":  # the history runs on after the last named slot, to the row's fixed length
        assert sum(widths.values()) == layout.HIST < layout.STATE_LEN
    else:
        assert sum(widths.values()) == layout.STATE_LEN
    game = make_game(name)
    assert observe.OBS_LEN == game.observation_size
