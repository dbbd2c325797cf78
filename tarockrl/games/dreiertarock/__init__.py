"""Dreiertarock: Austrian tarock for three with the 54-card pack (Einser .. Fünfer, Solo, Solo Valat).

Modules: :mod:`.cards` (index, codes, masks), :mod:`.rules` (the variant options), :mod:`.layout` (state slots,
phases, actions), :mod:`.kernels` (numba rules), :mod:`.observe` (observation layout), :mod:`.batch`
(parallel drivers), :mod:`.text` (deal notation and readable output), :mod:`.resample` (hidden-card
sampling for a seat). ``DEFINITION`` plugs it into the
generic :mod:`tarockrl.games.api`.

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
* **Hidden-card sampling** (:mod:`.resample`) uses the inferences listed in its docstring (voids, taken talon
  cards, plain hidden discards, no plain card left after a forced tarock discard, the non-void deal); it does
  not use the Trischaken Stichzwang and Pagat inferences.
"""

from __future__ import annotations

from tarockrl.games.api import GameDefinition
from tarockrl.games.dreiertarock import batch, kernels, layout, observe, resample, text
from tarockrl.games.dreiertarock.rules import DreiertarockRules

DEFINITION = GameDefinition(
    name="dreiertarock",
    display_name="Dreiertarock",
    num_players=3,
    num_actions=layout.NUM_ACTIONS,
    state_len=layout.STATE_LEN,
    observation_size=observe.OBS_LEN,
    max_episode_length=layout.MAX_EPISODE_LENGTH,
    rules_class=DreiertarockRules,
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
    random_action=kernels.random_action,
    step=kernels.step,
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
    specialize=None,  # the sizes do not depend on the options
    resample_hidden=resample.resample_hidden,
    resample_scratch_len=resample.SCRATCH_LEN,
    sample_worlds=resample.sample_worlds,
)

__all__ = ["DEFINITION", "DreiertarockRules"]
