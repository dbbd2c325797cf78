"""Hidden information: a seat's observation (and its legal mask) depends only on what the spec lets it know.

Two deals that differ only in cards hidden from seat ``p`` (another seat's unplayed cards, an unexposed talon,
the declarer's plain discards for a defender), replayed with the same actions, must give seat ``p`` the same
observation after every action.
"""

from __future__ import annotations

import random

import numpy as np

import tarockrl
from tarockrl.games.dreiertarock import layout as L
from tarockrl.games.dreiertarock import observe as O
from tarockrl.games.dreiertarock.cards import CODE_TO_CARD
from tests.dreiertarock.test_reference import choose, random_options


def _locations(deal):
    """card index -> location: ("hand", seat) or ("packet", i)."""
    where = {}
    for s, hand in enumerate(deal["hands"]):
        for c in hand:
            where[CODE_TO_CARD[c]] = ("hand", s)
    for i, packet in enumerate(deal["talon_packets"]):
        for c in packet:
            where[CODE_TO_CARD[c]] = ("packet", i)
    return where


def _hidden_candidates(row, deal, p):
    """Cards of the deal hidden from seat p at the end of ``row``'s history, with their deal locations."""
    where = _locations(deal)
    declarer = int(row[L.DECLARER])
    contract = int(row[L.CONTRACT])
    exposed = declarer >= 0 and 1 <= contract <= 5
    hidden = set()
    for s in range(3):
        if s != p:
            hidden |= {c for c in range(54) if (int(row[L.HAND + s]) >> c) & 1}
    if not exposed:
        hidden |= {c for c in range(54) if (int(row[L.PACKET] | row[L.PACKET + 1]) >> c) & 1}
    if declarer >= 0 and p != declarer:
        hidden |= {c for c in range(54) if (int(row[L.DISCARDS]) >> c) & 1 and c >= 22}
    # only cards that came from a place p never saw
    return [c for c in hidden
            if not (where[c] == ("hand", p) or (where[c][0] == "packet" and exposed))], where


def _swap(deal, x, y, where):
    codes = {i: c for c, i in CODE_TO_CARD.items()}
    new = {"dealer": deal["dealer"], "hands": [list(h) for h in deal["hands"]],
           "talon_packets": [list(t) for t in deal["talon_packets"]]}
    for a, b in ((x, y), (y, x)):
        kind, i = where[a]
        place = new["hands"][i] if kind == "hand" else new["talon_packets"][i]
        place[place.index(codes[a])] = codes[b]
    return new


def _obs_trace(game, deal, history, p):
    state = game.new_initial_state(deal=deal)
    trace = []
    for a in history:
        if state.is_terminal() or a not in state.legal_actions():
            return None
        state.apply_action(a)
        obs = state.observation(p)
        if state.is_terminal():
            obs = obs.copy()
            obs[O.OBS_RESULT:O.OBS_RESULT + 3] = 0  # the settlement is public at the end and may differ
        mask = state.legal_action_mask() if state.current_player() == p else None
        trace.append((obs, mask))
    return trace


def test_observations_ignore_hidden_cards():
    rnd = random.Random(21)
    compared = 0
    discards_swapped = 0
    for g in range(150):
        options = random_options(rnd)
        game = tarockrl.make_game("dreiertarock", **options)
        state = game.new_initial_state(seed=77, deal_id=g)
        style = rnd.randrange(3)
        stop = rnd.randrange(1, 80)
        while not state.is_terminal() and len(state.history()) < stop:
            state.apply_action(choose(rnd, state, state.legal_actions(), style))
        deal, history, row = state.deal(), state.history(), state.row
        for p in range(3):
            candidates, where = _hidden_candidates(row, deal, p)
            rnd.shuffle(candidates)
            discarded = int(row[L.DISCARDS])
            pairs = [(x, y) for x in candidates[:6] for y in candidates[:6] if x < y and where[x] != where[y]
                     # whether a discard is a tarock is public: a plain discard may only become another plain card
                     and not ((discarded >> x) & 1 and y < 22) and not ((discarded >> y) & 1 and x < 22)]
            for x, y in pairs[:3]:
                other = _swap(deal, x, y, where)
                # a plain discard is an anonymous token to the other seats: rename it along with the swap
                rename = {L.A_DISCARD + x: L.A_DISCARD + y, L.A_DISCARD + y: L.A_DISCARD + x}
                other_history = [rename.get(a, a) for a in history]
                mine = _obs_trace(game, deal, history, p)
                theirs = _obs_trace(game, other, other_history, p)
                if theirs is None:
                    continue  # the swap made some past action illegal: not a deal consistent with the history
                for (o1, m1), (o2, m2) in zip(mine, theirs):
                    assert np.array_equal(o1, o2), (g, p, options, history)
                    assert (m1 is None) == (m2 is None)
                    if m1 is not None:
                        assert np.array_equal(m1, m2)
                compared += 1
                discards_swapped += other_history != history
    assert compared > 200 and discards_swapped > 5


def test_observation_shows_only_the_own_hand():
    game = tarockrl.make_game("dreiertarock")
    state = game.new_initial_state(seed=3)
    for p in range(3):
        obs = state.observation(p)
        hand = np.flatnonzero(obs[O.OBS_HAND:O.OBS_HAND + 54]).tolist()
        assert hand == [c for c in range(54) if (int(state.row[L.HAND + p]) >> c) & 1]
        assert not obs[O.OBS_PACKETS:O.OBS_PACKETS + 108].any()  # the talon is face down in the auction
