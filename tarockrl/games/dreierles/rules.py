"""Dreierles rules options: every named variant of the rules specification, with the spec's defaults.

``DreierlesRules()`` is the default game. Each field documents its meaning; ``encode`` turns an instance into
the int64 array read by the kernels, and the ``O_*`` constants are the slots of that array.
"""

from __future__ import annotations

from dataclasses import dataclass

from tarockrl.games import options as opt


@dataclass(frozen=True)
class DreierlesRules:
    """The rules variant of a Dreierles game (all fields are keyword options of ``make_game``)."""

    counting_method: str = opt.choice(
        "dreierles", "dreierles", "exact_thirds",
        doc="'dreierles': groups of three minus 2, a final short group minus 1 (70 points); "
        "'exact_thirds': points in thirds (210 in the pack), declarer wins with 107 thirds",
    )
    contract_factors: tuple = opt.int_tuple((1, 2, 3, 4), 0, 1000, doc="factor of Dreier, Zweier, Einer, Solo")
    min_one_unit_on_loss: bool = opt.flag(False, doc="a lost contract always costs at least one unit")
    knock_eligibility: str = opt.choice(
        "bidders", "bidders", "not_passed",
        doc="'bidders': only defenders who bid may knock; 'not_passed': also those who never spoke",
    )
    max_defender_knocks: int = opt.integer(1, 1, 2, doc="1: the first defender knock ends the asking; 2: ask all")
    allow_reknock: bool = opt.flag(True, doc="the declarer may answer a defender knock with a re-knock")
    knock_doubles_bonuses: bool = opt.flag(False, doc="knocks also double the Pfeife and hand bonuses")
    pfeife_announce_timing: str = opt.choice(
        "before_knocks", "before_knocks", "after_knocks", doc="when the declarer decides on the Pfeife announcement"
    )
    pfeife_value_silent: int = opt.integer(1, 0, 1000, doc="Pfeife bonus when not announced")
    pfeife_value_announced: int = opt.integer(2, 0, 1000, doc="Pfeife bonus when announced")
    pfeife_defender_loss_scores_declarer: bool = opt.flag(
        True, doc="the declarer scores the silent bonus when he captures a defender's Pfeife in trick 16"
    )
    hand_bonus_basis: str = opt.choice(
        "play_start", "play_start", "dealt", doc="hands judged for bonuses: at the start of play, or as dealt"
    )
    bonus_zehn_druck: int = opt.integer(1, 0, 1000, doc="Zehn Druck value (from each other player)")
    zehn_druck_min_trumps: int = opt.integer(10, 1, 22, doc="trumps needed for Zehn Druck")
    bonus_koenigsrolle: int = opt.integer(1, 0, 1000, doc="Königsrolle (four kings) value")
    bonus_drulle: int = opt.integer(1, 0, 1000, doc="Drulle (Stieß, 21, Pfeife) value")
    raeuber_restrictions: str = opt.choice(
        "steinmauern", "steinmauern", "iffezheim", "none", doc="the regional set of Räuber play restrictions"
    )
    raeuber_pfeife_rule: str = opt.choice(
        "by_trick_3", "by_trick_3", "third_trump_trick", doc="when the Pfeife is forced in Räuber (Steinmauern)"
    )
    raeuber_pfeife_carry_over: bool = opt.flag(True, doc="a Pfeife obligation not met in trick 3 carries over")
    raeuber_21_rule: str = opt.choice(
        "not_before_stiess", "not_before_stiess", "not_with_stiess", "none", doc="the Räuber 21 rule (Steinmauern)"
    )
    raeuber_base: int = opt.integer(2, 0, 1000, even=True, doc="Räuber payment base (even)")
    raeuber_max_knocks: int = opt.integer(3, 0, 3, doc="Räuber knocks allowed; 0 skips Räuber knocking")
    raeuber_bonuses: bool = opt.flag(False, doc="settle hand bonuses (dealt hands) in Räuber too")
    last_round_raeuber_or_solo: bool = opt.flag(False, doc="last-round mode: only PASS or SOLO may be bid")
    last_round_raeuber_base: int = opt.integer(4, 0, 1000, even=True, doc="Räuber base in last-round mode")
    discard_fallback: str = opt.choice(
        "mid_trumps_public", "mid_trumps_public", doc="discard fallback (trumps II-XX, shown face up)"
    )
    defenders_see_unused_blind: bool = opt.flag(True, doc="both defenders see the blind cards left to them")
    four_player_table: bool = opt.flag(False, doc="four-player table (not modelled; only False)")
    money_per_gp_cents: int = opt.integer(10, 0, 100000, doc="display only: cents per game point")
    auto_play_forced: bool = opt.flag(False, doc="the engine applies single-legal-action decisions itself")

    def __post_init__(self) -> None:
        """Validate every field (raises ``BadOptionError`` naming the option)."""
        opt.validate(self, "dreierles")
        if self.four_player_table:
            raise opt.BadOptionError("dreierles option four_player_table=True is not modelled; only False")


def _slot(name: str) -> int:
    return opt.slot_of(DreierlesRules, name)


O_COUNTING = _slot("counting_method")
O_FACTORS = _slot("contract_factors")
O_MIN_ONE_UNIT = _slot("min_one_unit_on_loss")
O_KNOCK_ELIG = _slot("knock_eligibility")
O_MAX_DEF_KNOCKS = _slot("max_defender_knocks")
O_ALLOW_REKNOCK = _slot("allow_reknock")
O_KNOCK_DOUBLES_BONUSES = _slot("knock_doubles_bonuses")
O_ANNOUNCE_TIMING = _slot("pfeife_announce_timing")
O_PFEIFE_SILENT = _slot("pfeife_value_silent")
O_PFEIFE_ANNOUNCED = _slot("pfeife_value_announced")
O_PFEIFE_DEF_LOSS = _slot("pfeife_defender_loss_scores_declarer")
O_BONUS_BASIS = _slot("hand_bonus_basis")
O_BONUS_ZEHN = _slot("bonus_zehn_druck")
O_ZEHN_MIN = _slot("zehn_druck_min_trumps")
O_BONUS_KOENIG = _slot("bonus_koenigsrolle")
O_BONUS_DRULLE = _slot("bonus_drulle")
O_RAEUBER_SET = _slot("raeuber_restrictions")
O_RAEUBER_PFEIFE = _slot("raeuber_pfeife_rule")
O_RAEUBER_CARRY = _slot("raeuber_pfeife_carry_over")
O_RAEUBER_21 = _slot("raeuber_21_rule")
O_RAEUBER_BASE = _slot("raeuber_base")
O_RAEUBER_MAX_KNOCKS = _slot("raeuber_max_knocks")
O_RAEUBER_BONUSES = _slot("raeuber_bonuses")
O_LAST_ROUND = _slot("last_round_raeuber_or_solo")
O_LAST_ROUND_BASE = _slot("last_round_raeuber_base")
O_DEF_SEE_BLIND = _slot("defenders_see_unused_blind")
O_AUTO_FORCED = _slot("auto_play_forced")
NUM_OPTION_SLOTS = len(opt.encode(DreierlesRules()))

# ---- named option choices (encoded values; kernels compare with these, never with a position) ----------------
COUNTING_EXACT_THIRDS = opt.choice_code(DreierlesRules, "counting_method", "exact_thirds")
KNOCK_ELIG_BIDDERS = opt.choice_code(DreierlesRules, "knock_eligibility", "bidders")
ANNOUNCE_BEFORE_KNOCKS = opt.choice_code(DreierlesRules, "pfeife_announce_timing", "before_knocks")
BONUS_BASIS_DEALT = opt.choice_code(DreierlesRules, "hand_bonus_basis", "dealt")
RAEUBER_SET_STEINMAUERN = opt.choice_code(DreierlesRules, "raeuber_restrictions", "steinmauern")
RAEUBER_SET_IFFEZHEIM = opt.choice_code(DreierlesRules, "raeuber_restrictions", "iffezheim")
RAEUBER_SET_NONE = opt.choice_code(DreierlesRules, "raeuber_restrictions", "none")
RAEUBER_PFEIFE_BY_TRICK_3 = opt.choice_code(DreierlesRules, "raeuber_pfeife_rule", "by_trick_3")
RAEUBER_21_NOT_BEFORE_STIESS = opt.choice_code(DreierlesRules, "raeuber_21_rule", "not_before_stiess")
RAEUBER_21_NOT_WITH_STIESS = opt.choice_code(DreierlesRules, "raeuber_21_rule", "not_with_stiess")
