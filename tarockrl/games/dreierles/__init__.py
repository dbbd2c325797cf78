"""Dreierles (Baden): three players, the 54-card Cego pack, Dreier/Zweier/Einer/Solo or Räuber.

Modules: :mod:`.cards` (index, codes, masks), :mod:`.rules` (the variant options), :mod:`.layout` (state slots,
phases, actions), :mod:`.kernels` (numba rules), :mod:`.observe` (observation layout), :mod:`.batch`
(parallel drivers), :mod:`.text` (deal notation and readable output). ``DEFINITION`` plugs it into the
generic :mod:`tarockrl.games.api`.

Readings of the spec (where it leaves a choice to the implementation):

* A seed-only deal draws the dealer first, then a Fisher-Yates permutation of the pack, both from the counter-based
  stream of ``(seed, deal_id)``; the permutation is cut into blind and hands exactly as the spec's procedure says.
* ``auto_play_forced=True`` also applies forced decisions right after the deal (none exist under the default rules:
  every auction turn offers at least PASS and SOLO).
* With ``hand_bonus_basis="dealt"`` the declarer's dealt hand is judged without any trump he discarded under the
  fallback (the spec says such trumps do not count).
* The observation records defender knocks and Räuber knocks in one per-seat block; the phase tells them apart.
* :func:`resample.resample_hidden` uses the voids shown by not following suit as hard constraints; it does not
  infer holdings from the Räuber play restrictions. For a seat other than the declarer, a pending Pfeife decision
  is resolved as NO_ANNOUNCE first, as that is what such a seat sees.
"""

from __future__ import annotations

from tarockrl.games.api import GameDefinition
from tarockrl.games.dreierles import batch, kernels, layout, observe, resample, text
from tarockrl.games.dreierles.rules import DreierlesRules

DEFINITION = GameDefinition(
    name="dreierles",
    display_name="Dreierles",
    num_players=3,
    num_actions=layout.NUM_ACTIONS,
    state_len=layout.STATE_LEN,
    observation_size=observe.OBS_LEN,
    max_episode_length=layout.MAX_EPISODE_LENGTH,
    rules_class=DreierlesRules,
    slot_phase=layout.PHASE,
    slot_cur=layout.CUR,
    slot_hist_len=layout.HIST_LEN,
    slot_hist=layout.HIST,
    slot_magic=layout.MAGIC,
    slot_result=layout.RESULT,
    magic=layout.LAYOUT_MAGIC,
    terminal_phase=layout.TERMINAL,
    phase_names=layout.PHASE_NAMES,
    deal=kernels.deal,
    legal_mask=kernels.legal_mask,
    apply_action=kernels.apply_action,
    observe=observe.observe,
    returns=kernels.returns,
    check_invariants=kernels.check_invariants,
    batch_deal=batch.batch_deal,
    batch_legal_masks=batch.batch_legal_masks,
    batch_step=batch.batch_step,
    batch_observe=batch.batch_observe,
    batch_random_actions=batch.batch_random_actions,
    random_playouts=batch.random_playouts,
    invariant_sweep=batch.invariant_sweep,
    perft=batch.perft,
    state_from_deal=text.state_from_deal,
    deal_of=text.deal_of,
    action_to_string=text.action_to_string,
    state_to_string=text.state_to_string,
    transcript=text.transcript,
    random_action=kernels.random_action,
    step=kernels.step,
    resample_hidden=resample.resample_hidden,
    resample_scratch_len=resample.SCRATCH_LEN,
    sample_worlds=resample.sample_worlds,
)

__all__ = ["DEFINITION", "DreierlesRules"]
