"""``tarockrl play``'s progress bar starts after the kernels are loaded, so its rate excludes compile time."""

from __future__ import annotations

import contextlib
import io

import tarockrl
from tarockrl.cli import play_random_deals


def test_kernels_load_before_the_bar_starts() -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        returns, lengths = play_random_deals(tarockrl.make_game("dreierles"), 50, seed=0, chunk=16, progress=True)
    text = err.getvalue()
    assert text.index("compiling/loading kernels") < text.index("deal")
    assert "compiling/loading kernels" not in text[text.index("%|"):]
    quiet, _ = play_random_deals(tarockrl.make_game("dreierles"), 50, seed=0, chunk=16, progress=False)
    assert (quiet == returns).all() and lengths.min() > 0
