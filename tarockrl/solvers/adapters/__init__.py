"""Per-game adapters of the open-hand solver: what the generic search (:mod:`tarockrl.solvers._template`) needs
to know about one game's card play, as module-level numba functions and constants.

Every adapter module defines (all ``@njit(cache=True)`` unless a constant):

* ``in_play(row)``: the row is in the card-play phase (the solver's domain); ``is_over(row)``: the deal is over;
* ``cur(row)``: the seat to move; ``side(row, seat, root)``: 0 when ``seat`` plays on ``root``'s side, else 1
  (in contracts where everyone plays for himself, 0 only for ``root``: the paranoid reading);
* ``paranoid(row)``: 1 in such contracts;
* ``leaf(row, opts, root, objective)``: the value of a finished deal for ``root``'s side (objective 0: the
  settlement, 1: the card points);
* ``gen(row, opts, moves, reps, merge)``: the legal actions and their equivalence representatives;
* ``key(row, opts)``: a 64-bit hash of everything the rest of the deal's value depends on (see each module);
* ``hint(row, opts, action, root)``: a static move-ordering score (higher first);
* additive positions (optional speed-up; ``GT_LEN``, ``additive``, ``akey``, ``apast``, ``gtable``): where the
  value is a monotone function of a quantity that is the past's part plus the rest's part, the table keys the
  position alone and stores bounds on the rest's part (the Dreierles adapter explains it);
* positions with a monotone past (optional; ``monotone_past``, ``bonus_range``): the value is monotone in the
  past's part for a fixed position, keyed by ``akey`` with threshold entries (Dreierles, Dreiertarock); with
  ``afmin``/``afmax`` static bounds on the rest's part;
* optional kernels (defaults in :mod:`tarockrl.solvers._common`): ``forced_rest(row)`` (the rest is forced:
  play it out), ``tt_skip(row)`` (keep the position out of the table), ``root_levels(row, opts, root,
  objective, out)`` (a superset of the values the root can take, written to ``out``; returns their number, 0
  for none, -1 for the template's rule from ``gtable`` and ``bonus_range``), ``copy_row(child, row, n)`` (write
  into ``child`` what a child copies from its parent before ``apply``; default: the first ``n = COPY_LEN``
  slots; an adapter may copy only the slots its ``apply`` changes, every row of the search starts as a copy of
  the root);
* ``apply(row, action, opts)``: the game's own unchecked step (or a leaner one that gives the same row wherever
  the search and ``leaf`` read it);
* ``COPY_LEN`` (slots a child copies from its parent; the history beyond it is never read in play),
  ``MAX_DEPTH`` (actions left in a play phase, at most), ``MAX_MOVES`` (legal actions at a node, at most),
  ``NUM_PLAYERS``, ``NUM_ACTIONS``.

and, in plain Python, what PIMC (:mod:`tarockrl.agents.pimc`) reads about the game: ``tricks_left(row, options)``
(required), and optionally ``pimc_defaults(options) -> (solve_tricks, max_nodes)`` (default ``(5, 30_000)``),
``world_key(row) -> bytes`` (worlds with equal keys are solved once; default: the whole row) and
``search_free_action(legal, options)`` (an action PIMC takes without search when legal; default: none).
"""
