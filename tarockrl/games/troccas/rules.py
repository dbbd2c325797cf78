"""Troccas rules options: every named variant of the decisions of docs/rules/troccas.md §8, with the spec's defaults.

``TroccasRules()`` is the default game. ``encode`` turns an instance into the int64 array read by the kernels;
the ``O_*`` constants are the slots of that array. The match-level options (``packet_basis``,
``deals_per_match``, ``balance_scope``) only decide which balance the next episode receives (see
:mod:`.match`); a single episode depends on the balance alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from tarockrl.errors import BadOptionError
from tarockrl.games import options as opt

MAX_REDEALS_CAP = 10  # largest allowed max_redeals: the state row keeps a fixed-size history and deal archive
THRESHOLD_CAP = 1_000_000


@dataclass(frozen=True)
class TroccasRules:
    """The rules variant of a Troccas game (all fields are keyword options of ``make_game``)."""

    first_leader: str = opt.choice(
        "dealer", "dealer", "forehand", doc="who leads the first trick: the dealer, or forehand (dealer + 1)"
    )
    must_overtrump: bool = opt.flag(
        False, doc="a player who must play a trump must beat the highest trump in the trick if able"
    )
    scart_counts_for_fool: bool = opt.flag(
        False, doc="a team that won no trick but received the scart can still redeem the Fool"
    )
    king_jack_rule: bool = opt.flag(True, doc="the king-jack (buob) rule: jack demand after a first king lead")
    king_after_fool_triggers: bool = opt.flag(True, doc="a king played right after a led Fool also triggers the demand")
    buob_demand_automatic: bool = opt.flag(False, doc="the engine always demands the jack (no BUOB decision)")
    scart_jack_voids_all: bool = opt.flag(
        False, doc="a jack in the scart voids the whole king-jack rule for the deal (announced when SCART ends)"
    )
    double_lead_enabled: bool = opt.flag(False, doc="reconstructed double lead of a king with its jack (8-card trick)")
    talk_enabled: bool = opt.flag(True, doc="table talk (tschintschar) at every pause of the deal")
    throw_in_enabled: bool = opt.flag(True, doc="unanimous throw-in vote at every pause")
    max_redeals: int = opt.integer(
        3, 0, MAX_REDEALS_CAP, doc="cap on throw-ins plus forced redeals per episode (0 disables redeals)"
    )
    dealer_force_enabled: bool = opt.flag(True, doc="the dealer may demand a new deal when he holds no trump")
    fool_counts_as_trump_for_force: bool = opt.flag(False, doc="the Fool counts as a trump for the dealer's force")
    expose_last_card: bool = opt.flag(True, doc="each player's last dealt card is shown to everybody")
    packet_options_enabled: bool = opt.flag(True, doc="a team that is behind may request larger packets")
    nine_ten_threshold: int = opt.integer(9, 1, THRESHOLD_CAP, doc="behind by at least this: 9-10 packets allowed")
    single_packet_threshold: int = opt.integer(
        18, 1, THRESHOLD_CAP, doc="behind by at least this: a single 19-card packet allowed"
    )
    packet_basis: str = opt.choice(
        "match_balance", "match_balance", "last_deal",
        doc="match level: the balance given to a deal is the match balance, or only the previous deal's result",
    )
    scart_trumps_allowed: bool = opt.flag(True, doc="trumps II-XX may be discarded (else only as a fallback)")
    knock_enabled: bool = opt.flag(False, doc="a player holding the highest unplayed trump may knock")
    slam_takes_scart: bool = opt.flag(False, doc="a team that wins every trick also receives the scart")
    deals_per_match: int = opt.integer(4, 1, 1000, doc="match level: deals per match")
    balance_scope: str = opt.choice(
        "match", "match", "session", doc="match level: the balance is reset every match, or carried over"
    )

    def __post_init__(self) -> None:
        """Validate every field (raises ``BadOptionError`` naming the option)."""
        opt.validate(self, "troccas")
        if self.nine_ten_threshold > self.single_packet_threshold:
            raise BadOptionError(
                f"troccas options need nine_ten_threshold <= single_packet_threshold, got "
                f"{self.nine_ten_threshold} > {self.single_packet_threshold}"
            )


def _slot(name: str) -> int:
    return opt.slot_of(TroccasRules, name)


O_FIRST_LEADER = _slot("first_leader")
O_MUST_OVERTRUMP = _slot("must_overtrump")
O_SCART_FOR_FOOL = _slot("scart_counts_for_fool")
O_KING_JACK = _slot("king_jack_rule")
O_KING_AFTER_FOOL = _slot("king_after_fool_triggers")
O_BUOB_AUTO = _slot("buob_demand_automatic")
O_SCART_JACK_VOIDS = _slot("scart_jack_voids_all")
O_DOUBLE_LEAD = _slot("double_lead_enabled")
O_TALK = _slot("talk_enabled")
O_THROW_IN = _slot("throw_in_enabled")
O_MAX_REDEALS = _slot("max_redeals")
O_FORCE = _slot("dealer_force_enabled")
O_FOOL_FORCE = _slot("fool_counts_as_trump_for_force")
O_EXPOSE = _slot("expose_last_card")
O_PACKET_OPTIONS = _slot("packet_options_enabled")
O_NINE_TEN = _slot("nine_ten_threshold")
O_SINGLE = _slot("single_packet_threshold")
O_SCART_TRUMPS = _slot("scart_trumps_allowed")
O_KNOCK = _slot("knock_enabled")
O_SLAM_SCART = _slot("slam_takes_scart")
NUM_OPTION_SLOTS = len(opt.encode(TroccasRules()))


def max_episode_length(rules: TroccasRules) -> int:
    """The exact episode-length bound of docs/rules/troccas.md §9.4 for these options (170 for the defaults)."""
    m = rules.max_redeals if (rules.throw_in_enabled or rules.dealer_force_enabled) else 0
    t = 12 if rules.talk_enabled else 0
    v = 12 if rules.throw_in_enabled else 0
    f = 1 if rules.dealer_force_enabled else 0
    k = 21 if rules.knock_enabled else 0
    return 1 + m * (t + v + f) + t + 2 + 76 + 4 + k

# ---- named option choices (encoded values; kernels compare with these, never with a position) ----------------
FIRST_LEADER_DEALER = opt.choice_code(TroccasRules, "first_leader", "dealer")
