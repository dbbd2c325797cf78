"""Tatteln rules options: every named variant of the rules (docs/rules/tatteln.md §8), with the defaults.

``TattelnRules()`` is the default game (32 cards, 9 per hand, trumps, robbing, Piquet meld values, partie to 500).
``encode`` turns an instance into the int64 array the kernels read; the ``O_*`` constants are its slots. The
partie options (``partie_target``, ``partie_double_below_half``, ``matsch_ends_partie``) change nothing inside a
deal; they are read by :mod:`tarockrl.games.tatteln.partie`.
"""

from __future__ import annotations

from dataclasses import dataclass

from tarockrl.errors import BadOptionError
from tarockrl.games import options as opt


@dataclass(frozen=True)
class TattelnRules:
    """The rules variant of a Tatteln game (all fields are keyword options of ``make_game``)."""

    deck_size: int = opt.integer(32, 32, 36, doc="32 (default) or 36 cards (with the sixes; the trump six robs)")
    hand_size: int = opt.integer(9, 8, 9, doc="cards per hand: 9 (default) or 8 (the older rule)")
    trump_jack_nine_bonus: bool = opt.flag(True, doc="trump jack scores 20 and trump nine 14 (else 2 and 0)")
    no_trump: bool = opt.flag(False, doc="play without trumps: no turn-up, all stock cards face down, no robbing")
    value_tattel: int = opt.integer(3, 1, 1000, doc="value of a Tattel (3-card sequence window)")
    value_quart: int = opt.integer(4, 1, 1000, doc="value of a Quart (4-card sequence window)")
    value_fuss: int = opt.integer(15, 1, 1000, doc="value of a Fuss (5-card sequence window)")
    value_trio: int = opt.integer(3, 1, 1000, doc="value of three of a kind")
    value_four: int = opt.integer(14, 1, 1000, doc="value of four of a kind")
    sets_all_ranks: bool = opt.flag(False, doc="sets of every rank (default: only T, J, Q, K, A)")
    max_window_length: int = opt.integer(
        5, 5, 8, doc="longest sequence window: 5 (Fuss); 6..8 add windows worth 16, 17, 18 and longer keys"
    )
    four_tops_up_trio: bool = opt.flag(
        True, doc="a four after a scored trio of its rank scores value_four - value_trio (else value_four)"
    )
    seq_tie_trump_wins: bool = opt.flag(False, doc="an equal sequence key is won by a window in the trump suit")
    announce_only_on_lead: bool = opt.flag(False, doc="ROB and announcements only by the leader before the lead")
    blocker_scores: bool = opt.flag(True, doc="after 'not good' the opponent scores his unscored atoms")
    announce_in_final_phase: bool = opt.flag(True, doc="announcements are also allowed after the stock is gone")
    rob_enabled: bool = opt.flag(True, doc="the trump seven (six) may be exchanged for the face-up bottom card")
    final_must_head: bool = opt.flag(False, doc="final phase: when following suit, beat the led card if possible")
    final_must_trump: bool = opt.flag(False, doc="final phase: when void in the led suit, trump if possible")
    matsch_enabled: bool = opt.flag(True, doc="a player who wins none of the final-phase tricks is matsched")
    matsch_forfeits_score: bool = opt.flag(True, doc="the matsched player's deal points become 0")
    matsch_multiplier: int = opt.integer(2, 1, 1000, doc="the settlement factor of a Matsch deal")
    matsch_ends_partie: bool = opt.flag(True, doc="a Matsch ends the partie, won double (session only)")
    reward_mode: str = opt.choice(
        "points", "points", "win_loss", doc="'points': the point difference; 'win_loss': its sign (times mult)"
    )
    partie_target: int = opt.integer(500, 1, 10**9, doc="partie: first to this total (session only)")
    partie_double_below_half: bool = opt.flag(True, doc="partie won double if the loser is below half the target")

    def __post_init__(self) -> None:
        """Validate every field (raises ``BadOptionError`` naming the option)."""
        opt.validate(self, "tatteln")
        if self.deck_size not in (32, 36):
            raise BadOptionError(f"tatteln option deck_size={self.deck_size!r} must be 32 or 36")
        if self.four_tops_up_trio and self.value_four <= self.value_trio:
            raise BadOptionError(
                f"tatteln options value_four={self.value_four} and value_trio={self.value_trio}: with "
                "four_tops_up_trio the top-up value_four - value_trio must be positive"
            )

    @property
    def cards_per_suit(self) -> int:
        """R: 8 or 9."""
        return self.deck_size // 4

    @property
    def num_tricks(self) -> int:
        """K = N / 2 tricks per deal."""
        return self.deck_size // 2

    @property
    def stock_size(self) -> int:
        """Cards in the stock after the deal, the turn-up included: N - 2 * hand_size."""
        return self.deck_size - 2 * self.hand_size

    @property
    def stock_tricks(self) -> int:
        """K_S: tricks played while the stock lasts."""
        return self.stock_size // 2

    @property
    def final_tricks(self) -> int:
        """K_F: tricks of the final phase (= hand_size)."""
        return self.hand_size

    @property
    def max_episode_length(self) -> int:
        """6K - 7 actions: 2K plays, at most one ROB and 4K - 8 announcements."""
        return 6 * self.num_tricks - 7


def _slot(name: str) -> int:
    return opt.slot_of(TattelnRules, name)


O_DECK = _slot("deck_size")
O_HAND = _slot("hand_size")
O_BONUS = _slot("trump_jack_nine_bonus")
O_NO_TRUMP = _slot("no_trump")
O_V_TATTEL = _slot("value_tattel")
O_V_QUART = _slot("value_quart")
O_V_FUSS = _slot("value_fuss")
O_V_TRIO = _slot("value_trio")
O_V_FOUR = _slot("value_four")
O_SETS_ALL = _slot("sets_all_ranks")
O_LMAX = _slot("max_window_length")
O_TOPUP = _slot("four_tops_up_trio")
O_TIE_TRUMP = _slot("seq_tie_trump_wins")
O_ONLY_LEAD = _slot("announce_only_on_lead")
O_BLOCKER = _slot("blocker_scores")
O_IN_FINAL = _slot("announce_in_final_phase")
O_ROB = _slot("rob_enabled")
O_MUST_HEAD = _slot("final_must_head")
O_MUST_TRUMP = _slot("final_must_trump")
O_MATSCH = _slot("matsch_enabled")
O_MATSCH_FORFEIT = _slot("matsch_forfeits_score")
O_MATSCH_MULT = _slot("matsch_multiplier")
O_MATSCH_ENDS = _slot("matsch_ends_partie")
O_REWARD = _slot("reward_mode")
O_TARGET = _slot("partie_target")
O_DOUBLE_HALF = _slot("partie_double_below_half")
NUM_OPTION_SLOTS = len(opt.encode(TattelnRules()))

# ---- named option choices (encoded values; kernels compare with these, never with a position) ----------------
REWARD_POINTS = opt.choice_code(TattelnRules, "reward_mode", "points")
