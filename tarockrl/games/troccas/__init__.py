"""Troccas (Surselva, Graubünden): four players in two fixed partnerships, the 78-card Swiss 1JJ tarot pack.

Seats 0-3 are numbered anticlockwise, so the next player after seat ``p`` is ``(p + 1) % 4``; **partners sit
opposite**: team A = seats {0, 2}, team B = seats {1, 3} (``team = seat % 2``). ``State.returns()`` gives each
seat its team's result ``points - 36`` (``[r_A, r_B, r_A, r_B]``, zero-sum); an environment's reward for a
seat is that entry. The dealer of a random deal ``deal(seed, deal_id)`` is drawn uniformly and the match
balance is 0; :func:`new_state` / :func:`new_batch` take both as inputs, and :class:`Match` plays the spec's
four-deal match.

Modules: :mod:`.cards` (index, codes, two-word masks, points), :mod:`.rules` (the variant options),
:mod:`.layout` (state slots, phases, actions), :mod:`.kernels` (numba rules), :mod:`.observe` (observation
layout), :mod:`.text` (deal notation and readable output), :mod:`.match`
(episode inputs, partnership draw, match). ``DEFINITION`` plugs it into the generic :mod:`tarockrl.games.api`.

Hidden cards
------------
``state.resample_hidden(player, seed)`` and ``game.sample_worlds(state, player, n, seed)`` (module
:mod:`.resample`) draw *worlds* exactly uniformly among the placements of the cards ``player`` cannot see that are
consistent with what it knows, each a whole episode (the attempts so far as a deal, the history replayed legally,
the dealer's hidden scart discards and his private FORCE decline rewritten to fit). Honoured: hand and scart
sizes, every card seen (own hand, own scart, played cards, face-up cards: the dealer's may be in the scart),
cards that may not lie in the scart (trump I, XXI, the Fool, kings; trumps II-XX only under the §4.7 fallback when
``scart_trumps_allowed=False``), the announced jack in the scart (``scart_jack_voids_all``), voids from not
following or not trumping and ``must_overtrump``, the king-jack outcomes (a demand without swap clears every seat
that put a numeral of the suit into the trick; a returned numeral stays with its holder), knocked trumps (held by
the knocker), and a forced redeal (that attempt's dealer held no trump). **Deliberately not used**: table talk
(cheap talk, any message is legal), votes, the pattern choice, knocks and demands not made, and the choice of
cards. Cancelled attempts are redrawn (only their kinds are kept, as in the observation). The full list is the
docstring of :mod:`.resample`.

Readings of the spec
--------------------
Where the spec leaves room, this implementation reads it as follows.

* **In-episode randomness.** Redeals that the deal does not supply are shuffled with a SplitMix64 generator
  kept in the state row (slot ``RNG``): for ``deal(seed, deal_id)`` it continues the stream that dealt the
  first attempt; for a deal dict it is seeded from the dict's stored contents, so a dict always gives the
  same episode. Every attempt's card order is archived in the row and ``State.deal()`` lists the redeals.
* **Redeal cap.** ``max_redeals`` is "any integer >= 0" in the spec; the engine accepts 0..10 so that the
  state row (history and deal archive) has a fixed size. ``Game.max_episode_length`` is the bound at the
  largest options (366); :func:`rules.max_episode_length` gives the exact 9.4 bound of a rules set (170 by
  default).
* **Redeal entries beyond ``max_redeals``** in a deal dict are validated but never used (and not stored).
* **Random deals.** ``deal(seed, deal_id)`` draws the dealer uniformly and uses balance 0 (so PATTERN is
  skipped); pass a dealer and balance through :func:`new_state`, :func:`new_batch` or :class:`Match`.
* **Face-up cards** stay in the observation as "revealed at the deal" even after the card was played or
  discarded (a discarded face-up card is not announced; whoever watches the play can infer it).
* **Observation of cancelled attempts** is reduced to the redeal count and the numbers of throw-ins and forced
  redeals (allowed by 4.10); talk and votes are shown for the current attempt.
* **FORCE secrecy.** While the dealer decides on FORCE, the other seats observe phase ``scart`` with the
  dealer to act, which is what they see after a decline or when the dealer was never eligible.
* **Jack swap bookkeeping.** After a swap the jack counts as played by the holder and the numeral returns to
  his hand (``PLAYED`` in the observation shows the jack for that seat), as 5.7 describes.
* **Fool payment card** is taken after the scart was added (so it can be a scart card) and before the Fool
  moves in; a value-5 payment (only when the pile has nothing cheaper) prefers trumps I/XXI by index.
* **Knock** is legal at any card turn (including before a double lead and within it), never in SCART or BUOB.
* **Double-lead trick and the Fool**: the same Fool settlement applies to an 8-card trick.
* **``packet_basis``, ``deals_per_match``, ``balance_scope``** act in :class:`Match` only (decision 35); under
  ``balance_scope = "session"`` :meth:`Match.next_match` carries the running balance over, while each match
  still settles its own deals.
"""

from __future__ import annotations

from tarockrl.games.contract import define
from tarockrl.games.troccas.match import Match, new_batch, new_state, partnership_draw
from tarockrl.games.troccas.rules import TroccasRules, max_episode_length

DEFINITION = define(__name__, display_name="Troccas", num_players=4, rules_class=TroccasRules)

__all__ = ["DEFINITION", "TroccasRules", "Match", "new_state", "new_batch", "partnership_draw", "max_episode_length"]
