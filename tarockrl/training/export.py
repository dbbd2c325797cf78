"""Export a training checkpoint as an inference-only agent file (what ``tarockrl/agents/pretrained/`` ships).

    python -m tarockrl.training.export runs/dreierles_pretrained/checkpoints/last.pt \\
        tarockrl/agents/pretrained/dreierles.pt

The file keeps the acting network's weights and spec, the game, its rules options and layout fingerprint, the
counters and the resolved config (see :func:`tarockrl.agents.checkpoint.export_for_inference`).
"""

from __future__ import annotations

import argparse

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Command line: ``SRC DST``."""
    from tarockrl.agents.checkpoint import export_for_inference, load_checkpoint

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("src", help="a training checkpoint (runs/<run>/checkpoints/*.pt)")
    ap.add_argument("dst", help="the inference-only file to write")
    args = ap.parse_args(argv)
    path = export_for_inference(args.src, args.dst)
    c = load_checkpoint(path)["counters"]
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB): {c['decisions']:,} decisions, "
          f"{c['iteration']} iterations, {c['seconds']:.0f} s of training")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
