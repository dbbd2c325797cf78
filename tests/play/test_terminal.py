"""The terminal UI driven by scripted input: illegal inputs, hints, quit, whole deals, the record, a subprocess."""

import io
import json
import os
import subprocess
import sys

import pytest

from tarockrl.errors import IllegalActionError
from tarockrl.play import HumanSession, parse_move
from tarockrl.play.terminal import run


def _run(tmp_path, lines, **kw):
    out = io.StringIO()
    rec = tmp_path / "rec.json"
    kw.setdefault("hint_agent", "random")
    code = run(input=io.StringIO("".join(s + "\n" for s in lines)), output=out, record=str(rec), **kw)
    return code, out.getvalue(), rec


@pytest.mark.parametrize("game", ["dreierles", "dreiertarock", "tatteln", "troccas"])
def test_whole_deal_by_numbers_with_bad_inputs_first(tmp_path, game):
    """Nonsense, out-of-range numbers and unplayable cards are explained; then '1' plays every move to the end."""
    bad = ["", "foo", "0", "999", "T99", "BID Nothing", "help", "hint"]
    code, out, rec = _run(tmp_path, bad + ["1"] * 400, game=game, opponents="random", seat=1, seed=4)
    assert code == 0
    assert "Traceback" not in out
    assert "unknown input 'foo'" in out
    assert "999 is not in the list" in out
    assert "hint (random):" in out
    assert "Deal over." in out
    r = json.loads(rec.read_text())
    assert r["game"] == game and r["terminal"] and r["human_seat"] == 1
    assert len(r["returns"]) == len(r["agents"]) and r["agents"][1] == "human"
    # the record replays to the same result from its deal notation (Troccas: from its seed, see docs/play.md)
    import tarockrl
    g = tarockrl.make_game(r["game"], **r["options"])
    s = g.new_initial_state(seed=r["seed"]) if game == "troccas" else g.new_initial_state(deal=r["deal"])
    for a in r["actions"]:
        s.apply_action(a)
    assert s.is_terminal() and list(s.returns()) == r["returns"]


def test_card_codes_and_action_names(tmp_path):
    """A card code or an action name is accepted; a card not in the legal list is refused and asked again."""
    s = HumanSession("dreierles", seat=0, opponents="random", seed=5)
    v = s.view()
    assert v["legal"][0]["name"] == "PASS"
    assert parse_move("pass", v) == v["legal"][0]["id"]
    assert parse_move("  bid   solo ", v) == [a["id"] for a in v["legal"] if a["name"] == "BID Solo"][0]
    with pytest.raises(IllegalActionError, match="unknown input"):
        parse_move("PLAY T99", v)
    # reach the play phase and use card codes
    while s.view()["legal"][0]["card"] is None or not s.view()["legal"][0]["name"].startswith("PLAY"):
        s.play(s.view()["legal"][0]["id"])
    v = s.view()
    card = v["legal"][0]["card"]
    assert parse_move(card.lower(), v) == v["legal"][0]["id"]
    illegal = [c for c in v["hand"] if c not in {a["card"] for a in v["legal"]}]
    if illegal:
        with pytest.raises(IllegalActionError, match="not a legal move"):
            parse_move(illegal[0], v)
    from tarockrl.play.view import card_codes
    absent = next(c for c in card_codes(s.game) if c not in v["hand"])
    with pytest.raises(IllegalActionError, match="not in your hand"):
        parse_move(absent, v, card_codes(s.game))


def test_quit_saves_a_partial_record(tmp_path):
    """'quit' ends cleanly and the record of the unfinished deal is saved."""
    code, out, rec = _run(tmp_path, ["1", "quit"], game="tatteln", opponents="random", seat=0, seed=1)
    assert code == 0 and "Deal abandoned." in out and "Traceback" not in out
    r = json.loads(rec.read_text())
    assert not r["terminal"] and r["returns"] is None and len(r["actions"]) >= 1


def test_end_of_input_quits(tmp_path):
    """End of input counts as quit."""
    code, out, rec = _run(tmp_path, [], game="troccas", opponents="random", seat=2, seed=3)
    assert code == 0 and "end of input" in out and rec.exists()


def test_bad_arguments_are_explained(tmp_path):
    """A bad seat, game or agent spec gives a message and exit code 2, no traceback."""
    assert _run(tmp_path, [], game="tatteln", seat=5)[0] == 2
    code, out, _ = _run(tmp_path, [], game="dreierles", opponents="nosuchagent")
    assert code == 2 and "error" in out
    code, out, _ = _run(tmp_path, [], game="dreierles", opponents="random,random,random")
    assert code == 2 and "opponents" in out


def test_hint_agent_missing_is_clear(tmp_path):
    """A hint agent that cannot be built gives a clear message and the game goes on."""
    code, out, _ = _run(tmp_path, ["hint", "quit"], game="tatteln", seed=2, hint_agent="nosuchagent")
    assert code == 0 and "no hint:" in out


def test_subprocess_cli(tmp_path):
    """The real command: `python -m tarockrl play --human ...` with stdin, record in the current folder."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root, NO_COLOR="1")
    p = subprocess.run(
        [sys.executable, "-m", "tarockrl", "play", "--human", "--game", "tatteln", "--opponents", "random",
         "--seat", "1", "--seed", "9", "--hint-agent", "random"],
        input="nonsense\nhint\n" + "1\n" * 60, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "Deal over." in p.stdout and "unknown input" in p.stdout and "Traceback" not in p.stderr
    rec = json.loads((tmp_path / "tarockrl-tatteln-9.json").read_text())
    assert rec["terminal"] and rec["seed"] == 9


def test_rules_options_pass_through(tmp_path):
    """Rules options reach the game (a 36-card Tatteln deal), points are shown, and the record keeps them."""
    code, out, rec = _run(tmp_path, ["1"] * 80, game="tatteln", opponents="random", seat=0, seed=6,
                          options={"deck_size": 36})
    assert code == 0 and "Deal over." in out and "points" in out
    r = json.loads(rec.read_text())
    assert r["options"]["deck_size"] == 36 and r["terminal"]
    code, out, _ = _run(tmp_path, [], game="tatteln", options={"no_such_option": 1})
    assert code == 2 and "error" in out


def test_troccas_names_the_partner():
    """In Troccas the seat opposite is named as the partner."""
    s = HumanSession("troccas", seat=1, opponents="random", seed=0)
    assert s.names[3].startswith("partner ") and not s.names[0].startswith("partner")


def test_card_styles():
    """Trumps are styled as trumps; the Tatteln spade ten 'ST' is a plain black card, the Dreierles 'ST' a trump."""
    from tarockrl.play.terminal import card_text
    assert "yellow" in str(card_text("dreierles", "ST").style)
    assert "yellow" not in str(card_text("tatteln", "ST").style)
    assert "red" in str(card_text("tatteln", "HA").style) and "red" in str(card_text("troccas", "c7").style)
