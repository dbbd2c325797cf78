"""Regenerate the tables of ``docs/rules/<game>.md`` from the code (options, actions, observation layout).

Each rules doc holds three generated blocks, each between a start marker and ``<!-- end generated -->``::

    <!-- generated:options -->       the rules options: name, values, default, meaning (the rules dataclass)
    <!-- generated:actions -->       the flat action layout (the layout constants and ``action_to_string``)
    <!-- generated:observation -->   the observation blocks: offset, size, meaning (the game's ``observe`` module)

Run ``python scripts/gen_rules_docs.py`` to rewrite them in place, ``--check`` to only report stale docs
(exit status 1). ``tests/docs/test_rules_docs.py`` runs the same comparison in memory.

How each table is read from the code is kept in the three ``*_rows`` functions below, so that a change in how
a game describes its layout touches one function only.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "rules"
GAMES = ("dreierles", "dreiertarock", "troccas", "tatteln")
BLOCKS = ("options", "actions", "observation")
END = "<!-- end generated -->"
_LIST_ALL_UP_TO = 24  # a run of actions with the same verb lists every argument up to this length


def _start(kind: str) -> str:
    return f"<!-- generated:{kind} -->"


def _game(name: str):
    import tarockrl

    return tarockrl.make_game(name)


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


# ---- options -------------------------------------------------------------------------------------------
def option_rows(name: str) -> list[tuple[str, str, str, str]]:
    """``(option, allowed values, default, meaning)`` for every field of the game's rules dataclass."""
    game = _game(name)
    rows = []
    for f in dataclasses.fields(game.rules):
        meta = f.metadata
        kind = meta.get("kind")
        if kind == "choice":
            values = " \\| ".join(f"`{c!r}`" for c in meta["choices"])
        elif kind == "flag":
            values = "`True` \\| `False`"
        elif kind == "int":
            values = f"integer {meta['lo']}–{meta['hi']}" + (", even" if meta.get("even") else "")
        elif kind == "tuple":
            values = f"{meta['len']} integers, each {meta['lo']}–{meta['hi']}"
        else:
            values = "?"
        rows.append((f"`{f.name}`", values, f"`{f.default!r}`", _cell(meta.get("doc", ""))))
    return rows


def render_options(name: str) -> str:
    """The options table as Markdown."""
    lines = ["| option | values | default | meaning |", "|---|---|---|---|"]
    lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in option_rows(name)]
    return "\n".join(lines)


# ---- actions -------------------------------------------------------------------------------------------
def _action_constants(name: str) -> dict[int, list[str]]:
    """Action id -> names in the game's layout module: ``A_*`` constants, or ``a_*(deck_size)`` functions."""
    layout = importlib.import_module(f"tarockrl.games.{name}.layout")
    rules = _game(name).rules
    out: dict[int, list[str]] = {}
    for const, value in vars(layout).items():
        if const.startswith("A_") and isinstance(value, int) and not isinstance(value, bool):
            out.setdefault(value, []).append(const)
        elif const.startswith("a_") and callable(value) and hasattr(rules, "deck_size"):
            out.setdefault(int(value(rules.deck_size)), []).append(f"{const}(deck_size)")
    return out


def action_rows(name: str) -> list[tuple[str, str, str, str]]:
    """``(ids, action, arguments, constants)``: runs of consecutive actions with the same verb, in id order.

    The verb is the first word of ``action_to_string``; the rest is the argument (a card code, a suit, ...).
    """
    game = _game(name)
    consts = _action_constants(name)
    runs: list[list[tuple[int, str, str]]] = []
    for a in range(game.num_actions):
        text = game.action_to_string(a)
        verb, _, arg = text.partition(" ")
        if runs and runs[-1][0][1] == verb and arg and runs[-1][0][2]:
            runs[-1].append((a, verb, arg))
        else:
            runs.append([(a, verb, arg)])
    rows = []
    for run in runs:
        first, last = run[0][0], run[-1][0]
        ids = f"{first}" if first == last else f"{first}–{last}"
        args = [arg for _, _, arg in run if arg]
        if not args:
            shown = ""
        elif len(args) <= _LIST_ALL_UP_TO:
            shown = ", ".join(f"`{x}`" for x in args)
        else:
            shown = f"`{args[0]}`, `{args[1]}`, … `{args[-1]}` ({len(args)})"
        names = ", ".join(f"`{c}`" for c in consts.get(first, []))
        rows.append((ids, f"`{run[0][1]}`", shown, names))
    return rows


def render_actions(name: str) -> str:
    """The action table as Markdown."""
    game = _game(name)
    lines = [
        f"{game.num_actions} actions with the default options (`game.num_actions`); "
        f"`game.max_episode_length` = {game.max_episode_length} bounds the actions of one deal.",
        "",
        "| ids | action | argument (in id order) | constant in `layout.py` |",
        "|---|---|---|---|",
    ]
    lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in action_rows(name)]
    return "\n".join(lines)


# ---- observation ---------------------------------------------------------------------------------------
_ROW = re.compile(r"^``(?:OBS_)?([A-Z0-9_]+)``\s+(\S+)\s+(.*)$")


def _docstring_table(doc: str) -> dict[str, tuple[str, str]]:
    """``block -> (size as written, meaning)`` from the reStructuredText table of an observe docstring."""
    out: dict[str, tuple[str, str]] = {}
    last = None
    indent = 0
    for line in doc.splitlines():
        m = _ROW.match(line)
        if m:
            last = m.group(1)
            indent = line.index(m.group(3))
            out[last] = (m.group(2), m.group(3).strip())
        elif last is not None and line.strip() and not line.startswith("=") and line[:indent].strip() == "":
            size, meaning = out[last]
            out[last] = (size, meaning + " " + line.strip())
        elif line.startswith("="):
            continue
        else:
            last = None
    return out


def _observation_sizes(name: str) -> dict[str, int]:
    """Block sizes in layout order for the default options, as the game's observe module defines them."""
    observe = importlib.import_module(f"tarockrl.games.{name}.observe")
    if hasattr(observe, "obs_sizes"):  # Tatteln: the sizes depend on the pack and the window length
        return dict(observe.obs_sizes())
    return dict(observe.OBS_SIZES)


def observation_rows(name: str) -> list[tuple[int, int, str, str, str]]:
    """``(offset, size, size as written, block, meaning)`` for every block of the observation."""
    observe = importlib.import_module(f"tarockrl.games.{name}.observe")
    table = _docstring_table(observe.__doc__ or "")
    rows, pos = [], 0
    for block, size in _observation_sizes(name).items():
        written, meaning = table.get(block, ("", ""))
        if not meaning:
            raise ValueError(f"{name}: observation block {block} has no meaning in observe.py's table")
        rows.append((pos, size, written, block, _cell(meaning)))
        pos += size
    expected = _game(name).observation_size
    if pos != expected:
        raise ValueError(f"{name}: the observation blocks add up to {pos}, the game says {expected}")
    return rows


def render_observation(name: str) -> str:
    """The observation table as Markdown."""
    rows = observation_rows(name)
    symbolic = any(w and not w.isdigit() for _, _, w, _, _ in rows)
    total = rows[-1][0] + rows[-1][1]
    lines = [f"{total} float32 entries with the default options (`game.observation_size`).", ""]
    if symbolic:
        lines += ["| offset | size | size in general | block | meaning |", "|---:|---:|---|---|---|"]
        lines += [f"| {o} | {s} | {w} | `{b}` | {m} |" for o, s, w, b, m in rows]
    else:
        lines += ["| offset | size | block | meaning |", "|---:|---:|---|---|"]
        lines += [f"| {o} | {s} | `{b}` | {m} |" for o, s, _, b, m in rows]
    return "\n".join(lines)


RENDER = {"options": render_options, "actions": render_actions, "observation": render_observation}


# ---- rewriting ---------------------------------------------------------------------------------------
def regenerate(text: str, name: str) -> str:
    """``text`` with every generated block of game ``name`` rewritten from the code.

    Raises ``ValueError`` when a block's markers are missing or unbalanced.
    """
    for kind in BLOCKS:
        start = _start(kind)
        if text.count(start) != 1:
            raise ValueError(f"{name}: expected exactly one {start} marker, found {text.count(start)}")
        i = text.index(start) + len(start)
        j = text.find(END, i)
        if j < 0:
            raise ValueError(f"{name}: the {start} block has no {END}")
        text = text[:i] + "\n" + RENDER[kind](name) + "\n" + text[j:]
    return text


def doc_path(name: str) -> Path:
    """Path of the rules doc of game ``name``."""
    return DOCS / f"{name}.md"


def main(argv: list[str] | None = None) -> int:
    """Rewrite (or with ``--check`` only compare) the generated blocks of every rules doc."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report stale docs, change nothing")
    parser.add_argument("games", nargs="*", default=list(GAMES))
    args = parser.parse_args(argv)
    stale = []
    for name in args.games:
        path = doc_path(name)
        old = path.read_text(encoding="utf-8")
        new = regenerate(old, name)
        if new != old:
            stale.append(str(path.relative_to(ROOT)))
            if not args.check:
                path.write_text(new, encoding="utf-8")
    verb = "stale" if args.check else "rewritten"
    print(f"{verb}: {', '.join(stale)}" if stale else "all rules docs are up to date")
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
