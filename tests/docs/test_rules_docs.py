"""The rules docs (docs/rules/<game>.md) are up to date with the code and cover every rules option."""

from __future__ import annotations

import dataclasses
import importlib.util
import re
from pathlib import Path

import pytest

import tarockrl

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("dreierles", "dreiertarock", "troccas", "tatteln")


def _generator():
    spec = importlib.util.spec_from_file_location("gen_rules_docs", ROOT / "scripts" / "gen_rules_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()


def _text(name: str) -> str:
    return (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")


def _prose(text: str) -> str:
    """The doc without its generated blocks."""
    return re.sub(r"<!-- generated:\w+ -->.*?<!-- end generated -->", "", text, flags=re.S)


@pytest.mark.parametrize("name", GAMES)
def test_generated_tables_are_current(name):
    text = _text(name)
    assert GEN.regenerate(text, name) == text, (
        f"docs/rules/{name}.md is out of date with the code: run python scripts/gen_rules_docs.py"
    )


@pytest.mark.parametrize("name", GAMES)
def test_every_option_is_documented(name):
    text = _text(name)
    prose = _prose(text)
    rules = tarockrl.make_game(name).rules
    for field in dataclasses.fields(rules):
        assert f"`{field.name}`" in text, f"{name}: option {field.name} missing from the options table"
        assert re.search(rf"`{field.name}[`=]", prose), f"{name}: option {field.name} is not explained in the text"


@pytest.mark.parametrize("name", GAMES)
def test_tables_match_the_game(name):
    game = tarockrl.make_game(name)
    rows = GEN.observation_rows(name)
    assert rows[0][0] == 0
    assert sum(size for _, size, *_ in rows) == game.observation_size
    for (off, size, *_), (nxt, *_) in zip(rows, rows[1:]):
        assert off + size == nxt
    actions = GEN.action_rows(name)
    last = actions[-1][0].split("–")[-1]
    assert int(last) == game.num_actions - 1
    assert len(GEN.option_rows(name)) == len(dataclasses.fields(game.rules))


@pytest.mark.parametrize("name", GAMES)
def test_sections_are_numbered_like_the_specification(name):
    headings = re.findall(r"^#{2,4} §(\d+(?:\.\d+)*)\b", _text(name), flags=re.M)
    top = [h for h in headings if "." not in h]
    assert top == [str(i) for i in range(int(top[0]), int(top[0]) + len(top))], top
    assert {"1", "2", "3", "4", "5", "6", "7", "8", "9"} <= set(top)
    assert len(headings) == len(set(headings)), "a section number appears twice"


def test_stale_blocks_are_detected_and_markers_checked():
    text = _text("dreierles")
    stale = text.replace("| 0 | `PASS` |", "| 0 | `PASSED` |")
    assert stale != text and GEN.regenerate(stale, "dreierles") == text
    with pytest.raises(ValueError):
        GEN.regenerate(text.replace("<!-- generated:actions -->", ""), "dreierles")


def test_index_lists_every_game():
    index = (ROOT / "docs" / "rules" / "README.md").read_text(encoding="utf-8")
    for name in GAMES:
        assert f"({name}.md)" in index
