"""Dreierles (Baden): three players, the 54-card Cego pack, Dreier/Zweier/Einer/Solo or Räuber.

Modules: :mod:`.cards` (index, codes, masks), :mod:`.rules` (the variant options), :mod:`.layout` (state slots,
phases, actions), :mod:`.kernels` (numba rules), :mod:`.observe` (observation layout), :mod:`.resample`
(hidden-hand sampler), :mod:`.text` (deal notation and readable output). ``DEFINITION`` is built from them by
the contract of :mod:`tarockrl.games.contract`.

Readings of the spec (where it leaves a choice to the implementation):

* A seed-only deal draws the dealer first, then a Fisher-Yates permutation of the pack, both from the counter-based
  stream of ``(seed, deal_id)``; the permutation is cut into blind and hands exactly as the spec's procedure says.
* ``auto_play_forced=True`` also applies forced decisions right after the deal (none exist under the default rules:
  every auction turn offers at least PASS and SOLO).
* With ``hand_bonus_basis="dealt"`` the declarer's dealt hand is judged without any trump he discarded under the
  fallback (the spec says such trumps do not count).
* The observation records defender knocks and Räuber knocks in one per-seat block; the phase tells them apart.
* Hidden-card sampling (:mod:`.resample`) is exactly uniform over the worlds consistent with a seat's
  information; its module docstring lists every piece of information it honours and the soft signals (bids,
  knocks) it deliberately ignores.
"""

from __future__ import annotations

from tarockrl.games.contract import define
from tarockrl.games.dreierles.rules import DreierlesRules

DEFINITION = define(__name__, display_name="Dreierles", num_players=3, rules_class=DreierlesRules)

__all__ = ["DEFINITION", "DreierlesRules"]
