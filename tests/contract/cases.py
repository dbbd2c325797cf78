"""The games and option sets every contract test runs over (a few option sets per game, defaults first)."""

from __future__ import annotations

import tarockrl

OPTION_SETS = {
    "dreierles": [
        {},
        {"auto_play_forced": True, "raeuber_restrictions": "none"},
        {"knock_eligibility": "not_passed", "max_defender_knocks": 2, "pfeife_announce_timing": "after_knocks"},
    ],
    "dreiertarock": [
        {},
        {"all_pass_rule": "trischaken", "auto_play_forced": True},
        {"kontra_enabled": False, "kaiserstich": True, "solo_declarer_leads": True},
    ],
    "troccas": [
        {},
        {"knock_enabled": True, "double_lead_enabled": True},
        {"talk_enabled": False, "max_redeals": 0, "must_overtrump": True},
    ],
    "tatteln": [
        {},
        {"deck_size": 36},
        {"hand_size": 8, "no_trump": True, "rob_enabled": False},
    ],
}
assert sorted(OPTION_SETS) == tarockrl.list_games(), "every game needs option sets here"

CASES = [(name, opts) for name in sorted(OPTION_SETS) for opts in OPTION_SETS[name]]
"""``(game name, options)`` pairs."""

DEFAULT_CASES = [(name, {}) for name in sorted(OPTION_SETS)]


def case_id(case) -> str:
    """A short test id: the game and its changed options."""
    name, opts = case
    return name + ("" if not opts else "[" + ",".join(f"{k}={v}" for k, v in opts.items()) + "]")


def make(case) -> tarockrl.Game:
    """The game of a case."""
    name, opts = case
    return tarockrl.make_game(name, **opts)
