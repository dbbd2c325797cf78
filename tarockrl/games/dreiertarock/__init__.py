"""Dreiertarock: Austrian tarock for three with the 54-card pack (Einser .. Fünfer, Solo, Solo Valat).

Modules: :mod:`.cards` (index, codes, masks), :mod:`.rules` (the variant options), :mod:`.layout` (state slots,
phases, actions), :mod:`.kernels` (numba rules), :mod:`.observe` (observation layout), :mod:`.text` (deal
notation and readable output), :mod:`.resample` (hidden-card sampling for a seat). ``DEFINITION`` is built from
them by the contract of :mod:`tarockrl.games.contract`.

Readings of the spec
--------------------
Where the rules specification leaves a point open, the engine reads it as follows.

* **Trischaken Stichzwang under Kaiserstich.** With both ``all_pass_rule="trischaken"`` and ``kaiserstich``,
  "would beat" uses the trick-winner rule including the Kaiserstich exception: on a trick holding Mond and
  Sküs the Pagat is the only beating card, and the card that would complete Pagat + Mond + Sküs does not beat.
* **Pagat restriction against Stichzwang.** If the Stichzwang set is only the Pagat while the player holds
  another tarock (possible only with ``kaiserstich``), the Pagat restriction wins and the Stichzwang lapses:
  the legal set is the section-5 set without the Pagat. In every other case this equals the spec's order
  (Stichzwang first, then remove the Pagat), which never empties the set.
* **Forced actions at the start.** ``auto_play_forced`` also applies to the first decision of a deal (e.g. a
  forehand whose first call is forced).
* **Void deals from the deal notation.** ``redeal_without_tarock`` applies to explicit deals as well: such a
  state is terminal at once with zero settlement and an empty history.
* **Silent bird penalty** (``silent_bird_failure_penalty``): "played in its own trick" means the bird card was
  played in trick 16 (Pagat), 15 (Uhu) or 14 (Kakadu) and was not the winning card; it is multiplied by
  ``solo_bonus_factor`` in a Solo like every bonus value, and it is cancelled by a valat like silent birds.
* **Option ranges.** The spec allows any non-negative ``trischaken_value``, ``valat_factor`` and
  ``solo_bonus_factor``; the engine caps them at 10**9 so that every settlement fits in an int64.
* **Observation at the end.** The terminal observation adds only the public settlement; card points are
  never observed (after a Solo they would reveal the unseen talon's points).
* **Solo Valat early end and card points.** ``POINTS`` of an early-ended Solo Valat count the declarer's
  tricks and the defenders' tricks plus the talon; cards still in the hands belong to nobody.
* **Birds and the Kaiserstich.** A bird "wins its trick" when it is the winning card of that trick under the
  trick-winner rule in force, so with ``kaiserstich`` a Pagat that takes Mond and Sküs in trick 16 scores.
* **Action names.** The spec's identifiers (``PASS``, ``BID_ZWEIER``, ``TAKE_PACKET_0``, ``DOUBLE_GAME`` ...);
  card actions read ``PLAY HK`` / ``DISCARD D4`` (``text.parse_action`` also takes ``PLAY_HK``).
* **Hidden-card sampling** (:mod:`.resample`) is exactly uniform over the worlds consistent with a seat's
  information; its module docstring lists what it honours (voids, taken talon cards, forbidden discards, announced
  birds, the Trischaken duties, the non-void deal) and what it deliberately ignores (bids, Kontra).
"""

from __future__ import annotations

from tarockrl.games.contract import define
from tarockrl.games.dreiertarock.rules import DreiertarockRules

DEFINITION = define(__name__, display_name="Dreiertarock", num_players=3, rules_class=DreiertarockRules)

__all__ = ["DEFINITION", "DreiertarockRules"]
