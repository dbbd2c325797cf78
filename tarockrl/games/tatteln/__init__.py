"""Tatteln (Franzefuss, Daerde): two players, 32 cards (or 36), trick-and-draw with melds, robbing and Matsch.

Modules: :mod:`.cards` (index, codes, tables), :mod:`.rules` (the variant options), :mod:`.melds` (sequence
windows and sets as bit operations), :mod:`.layout` (state slots, phases, actions), :mod:`.kernels` (numba
rules), :mod:`.observe` (observation layout), :mod:`.fastplay` (the register-resident random playout),
:mod:`.text` (deal notation and readable output), :mod:`.partie` (the session to 500 above single deals),
:mod:`.resample` (the hidden-card sampler) and :mod:`.factdp` (its exact count of announcement facts).
``DEFINITION`` is built from them by the contract of :mod:`tarockrl.games.contract`; the action, state and
observation sizes follow the options (``deck_size`` and ``max_window_length``) through ``DEFINITION.specialize``.

Hidden cards (worlds for PIMC)
------------------------------
``state.resample_hidden(player, seed)`` and ``game.sample_worlds(state, player, n, seed)`` (:mod:`.resample`) redeal
what ``player`` cannot see: the opponent's dealt hand, which cards he drew and when, and the face-down stock still
to come **in its order**. Worlds are exactly uniform over the deals consistent with ``player``'s information
(every action of Tatteln is public, so a world keeps the history and differs only in its deal). Honoured: hand
and stock sizes, every card ``player`` has seen (own hand and own draws, the turn-up and the face-up bottom card,
who drew it, every card played, the ROB, the cards of every scored meld atom); that a card the opponent played,
robbed with or showed was dealt to him or drawn by him before that moment; every announcement's legality and its
public record (both keys, outcome, points, scored atoms), which depend on the opponent's whole hand at that moment
(e.g. "he holds no Tattel"), counted exactly by a dynamic programme (:mod:`.factdp`) that never fails.
Voids: following suit is compulsory only in final-phase tricks (§5.2, also ``final_must_head`` /
``final_must_trump``), when the opponent's hand is exactly the cards ``player`` has not seen,
so they are honoured automatically and carry no information about the deal; stock-phase plays show nothing. No
decision is compulsory given a holding (ROB and announcing are optional), so **deliberately not used** as soft
signals: a ROB or an announcement not made while possible, and the choice of cards played. Method, determinism
and limits: the docstring of :mod:`.resample`.

Readings of the spec
--------------------
Where the rules text leaves room, this implementation reads it as follows.

* **Deal from a seed.** The shuffle is a Fisher-Yates permutation of the pack from the counter-based stream
  ``(seed, deal_id)``; the dealer is drawn first from the same stream (D20). An explicit deal names its dealer.
* **Partie.** One deal is one episode; the partie (first to ``partie_target``) is the Python helper
  :class:`tarockrl.games.tatteln.partie.Partie`. A partie deal is generated from its seed and then given the
  partie's dealer (the next dealer is the previous forehand); the hands stay a uniform shuffle.
* **Meld values.** ``value_*`` options are positive integers. With ``four_tops_up_trio`` the top-up
  ``value_four - value_trio`` must be positive (otherwise a "held, unscored" four could be worth nothing and the
  spec's two forms of the legality test, "unscored value > 0" and "holds an unscored atom", would differ); such
  option combinations are refused.
* **Windows beyond the Fuss.** With ``max_window_length`` 6, 7, 8 the extra windows are worth 16, 17, 18 (fixed,
  as in the spec's general form).
* **Phase of a trick.** ``final_phase`` is fixed when the trick starts: a trick is a final-phase trick iff the
  stock was empty after the previous trick's draws. ``announce_in_final_phase = false`` therefore also forbids
  announcing before the lead of trick 8 (default pack).
* **Announcement record.** The state keeps the last announcement (announcer, class, outcome, both keys, the
  points each seat scored) and the count of announcements; the full list is in the history and the transcript.
* **Settlement multiplier** under ``reward_mode = "win_loss"`` is ``mult * sign(difference)`` (a Matsch deal
  settles +-2 by default); a drawn deal settles 0.
* **Observation.** The spec's suggested compact vector, plus the previous trick and the public facts of 9.1
  (who robbed, who drew the bottom card, the scored atoms of both seats as window ids and rank patterns).
  Finished tricks are shown as the cards each seat played and won, and the last trick in full (the spec lets an
  environment show every trick; this is the memory-free part of it). The partie totals are not part of a
  deal's observation (``Partie.features`` gives them).
* **Revealed cards.** ``revealed[p]`` holds the cards of every atom scored by ``p`` (as announcer or as blocker),
  the turn-up taken by ROB and the face-up bottom card drawn at the end of the stock; a card leaves it when it is
  played or given away by ROB. Under ``no_trump`` the last stock card is face down and is not revealed.
* **Deal notation.** Hands are sets: ``deal()`` lists them in card-index order, and a given deal is stored with
  the forehand's cards at ``d[0], d[2], ...`` in that order. The turn-up and the stock order are kept exactly.
* **State size.** 1024 bytes with 32 cards, 1120 with 36: the history needs one slot per action and the spec
  bounds a deal by ``6K - 7`` actions (89 / 101); the rest of the row is 39 slots, with rarely read facts
  packed into bit fields.
* **Random playouts.** ``random_playouts`` uses a register-resident copy of the rules (:mod:`.fastplay`) that
  makes exactly the random choices of the row kernels (tests compare both on many deals and option sets).
"""

from __future__ import annotations

import dataclasses
import functools

from tarockrl.games.api import GameDefinition
from tarockrl.games.contract import define
from tarockrl.games.tatteln import layout, observe, text
from tarockrl.games.tatteln.rules import TattelnRules


def _specialize(base: GameDefinition, rules: TattelnRules) -> GameDefinition:
    """The definition with the action, state and observation sizes of ``rules``."""
    n = rules.deck_size
    return dataclasses.replace(
        base,
        num_actions=layout.num_actions(n),
        state_len=layout.state_len(n),
        observation_size=observe.obs_len(n, rules.max_window_length),
        max_episode_length=rules.max_episode_length,
        deal_of=functools.partial(text.deal_of, rules=rules),
        action_to_string=functools.partial(text.action_to_string, deck_size=n),
    )


DEFINITION = define(__name__, display_name="Tatteln", num_players=2, rules_class=TattelnRules,
                    specialize=_specialize)
"""The registry entry; ``make_game("tatteln", **options)`` specialises it to the options' sizes."""

__all__ = ["DEFINITION", "TattelnRules"]
