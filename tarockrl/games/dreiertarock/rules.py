"""Dreiertarock rules options: every named variant of the rules (docs/rules/dreiertarock.md §8), with defaults.

``DreiertarockRules()`` is the default game. ``encode`` (in :mod:`tarockrl.games.options`) turns an instance
into the int64 array the kernels read; the ``O_*`` constants are the slots of that array.

The spec allows any non-negative integer for ``trischaken_value``, ``valat_factor`` and
``solo_bonus_factor``; the engine caps them at 10**9 so that every settlement fits an int64.
"""

from __future__ import annotations

from dataclasses import dataclass

from tarockrl.games import options as opt

BIG = 10**9


@dataclass(frozen=True)
class DreiertarockRules:
    """The rules variant of a Dreiertarock game (all fields are keyword options of ``make_game``)."""

    all_pass_rule: str = opt.choice(
        "redeal", "redeal", "trischaken",
        doc="when all three pass: 'redeal' throws the deal in (zero score, episode ends); 'trischaken' plays it",
    )
    trischaken_value: int = opt.integer(30, 0, BIG, doc="Trischaken: what a loser pays to each winner")
    forehand_must_bid: bool = opt.flag(False, doc="forehand may not pass at his first turn")
    discard_tarock_rule: str = opt.choice(
        "forced_only", "forced_only", "free",
        doc="'forced_only': tarocks II-XX only when plain non-king cards run out; 'free': any of them (face up)",
    )
    redeal_without_tarock: bool = opt.flag(
        False, doc="a deal where some hand has no tarock is void (terminal at once, zero score)"
    )
    kontra_enabled: bool = opt.flag(True, doc="Kontra / Rekontra / Subkontra on the game and announced birds")
    kontra_max_level: int = opt.integer(3, 0, 3, doc="highest doubling level (1 Kontra, 2 Rekontra, 3 Subkontra)")
    defender_announcements: bool = opt.flag(True, doc="defenders may announce birds too")
    announce_first_turn_only: bool = opt.flag(True, doc="birds may be announced only before the seat's first GOOD")
    trull_counts_non_trick_cards: bool = opt.flag(
        False, doc="Trull and King Trull test the whole piles (talon share, discards) instead of trick cards"
    )
    silent_bird_failure_penalty: bool = opt.flag(
        False, doc="an unannounced bird played in its own trick without winning it costs its side the silent value"
    )
    valat_factor: int = opt.integer(4, 0, BIG, doc="game value factor of an unbid valat; 0: valat does not exist")
    valat_cancels_silent_bonuses: bool = opt.flag(True, doc="a valat voids Trull, King Trull, Mondfang, silent birds")
    solo_bonus_factor: int = opt.integer(1, 0, BIG, doc="factor on every bonus value in a Solo")
    solo_declarer_leads: bool = opt.flag(False, doc="the declarer leads trick 1 in Solo and Solo Valat")
    kaiserstich: bool = opt.flag(False, doc="a trick holding Pagat, Mond and Sküs is won by the Pagat (no Mondfang)")
    solo_valat_early_end: bool = opt.flag(True, doc="Solo Valat ends at the first trick a defender wins")
    auto_play_forced: bool = opt.flag(False, doc="the engine applies single-legal-action decisions itself")

    def __post_init__(self) -> None:
        """Validate every field (raises ``BadOptionError`` naming the option)."""
        opt.validate(self, "dreiertarock")


def _slot(name: str) -> int:
    return opt.slot_of(DreiertarockRules, name)


O_ALL_PASS = _slot("all_pass_rule")
O_TRISCHAKEN_VALUE = _slot("trischaken_value")
O_FOREHAND_MUST_BID = _slot("forehand_must_bid")
O_DISCARD_FREE = _slot("discard_tarock_rule")
O_REDEAL_NO_TAROCK = _slot("redeal_without_tarock")
O_KONTRA = _slot("kontra_enabled")
O_KONTRA_MAX = _slot("kontra_max_level")
O_DEF_ANNOUNCE = _slot("defender_announcements")
O_FIRST_TURN_ONLY = _slot("announce_first_turn_only")
O_TRULL_PILES = _slot("trull_counts_non_trick_cards")
O_SILENT_PENALTY = _slot("silent_bird_failure_penalty")
O_VALAT_FACTOR = _slot("valat_factor")
O_VALAT_CANCELS = _slot("valat_cancels_silent_bonuses")
O_SOLO_BONUS = _slot("solo_bonus_factor")
O_SOLO_DECL_LEADS = _slot("solo_declarer_leads")
O_KAISERSTICH = _slot("kaiserstich")
O_SV_EARLY_END = _slot("solo_valat_early_end")
O_AUTO_FORCED = _slot("auto_play_forced")
NUM_OPTION_SLOTS = len(opt.encode(DreiertarockRules()))

# ---- named option choices (encoded values; kernels compare with these, never with a position) ----------------
ALL_PASS_TRISCHAKEN = opt.choice_code(DreiertarockRules, "all_pass_rule", "trischaken")
