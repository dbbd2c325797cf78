"""Acting of the neural agents: spec parameters, action kinds, per-kind thresholds and margins, and Tatteln's
exact final phase (no peeking, the solver's value)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import tarockrl
from tarockrl.agents import make_agent
from tarockrl.agents.acting import PRETRAINED_ACTING, ActingSettings, card_actions
from tarockrl.agents.nets import QImitationNet, support_scores
from tarockrl.agents.neural import PRETRAINED_DIR, NeuralAgent
from tarockrl.errors import BadAgentSpecError
from tarockrl.solvers import solve
from tarockrl.solvers.adapters.tatteln import world_key

GAMES = ["dreierles", "dreiertarock", "troccas", "tatteln"]


# ---- spec parameters ------------------------------------------------------------------------------------------
def test_spec_parameters_reach_the_agent():
    a = make_agent("pretrained:call_threshold=1,card_threshold=0.3,call_margin=2,endgame=net", "dreierles")
    assert a.acting == ActingSettings(call_threshold=1.0, card_threshold=0.3, call_margin=2.0, card_margin=0.0,
                                      endgame_tricks=8, endgame_nodes=300_000)  # the last two: PRETRAINED_ACTING's
    cards = torch.from_numpy(card_actions(a_game := tarockrl.make_game("dreierles")))
    assert torch.equal(a.thresholds, torch.where(cards, 0.3, 1.0).float())
    # margins are stored in Q units: game points times the checkpoint's reward scale (1/40 in Dreierles)
    assert torch.allclose(a.margins, torch.where(cards, 0.0, 2.0 / 40).float())
    assert a.endgame is None and a_game.name == "dreierles"
    b = make_agent("pretrained:threshold=0.5,card_threshold=0.1", "dreierles")
    assert (b.acting.call_threshold, b.acting.card_threshold) == (0.5, 0.1)


def test_defaults_pretrained_from_the_table_and_ckpt_as_before():
    for name in GAMES:
        a = make_agent("pretrained", name)
        assert a.acting == PRETRAINED_ACTING[name]
        assert (a.endgame is not None) == (PRETRAINED_ACTING[name].endgame == "solve")
        assert (a.endgame_pimc is not None) == (PRETRAINED_ACTING[name].endgame == "pimc")
    c = make_agent(f"ckpt:{PRETRAINED_DIR / 'tatteln.pt'}", "tatteln")
    assert c.acting == ActingSettings() and c.thresholds is None and c.margins is None and c.endgame is None
    assert make_agent("pretrained:endgame=net", "tatteln").endgame is None
    assert make_agent(f"ckpt:{PRETRAINED_DIR / 'tatteln.pt'},endgame=solve", "tatteln").endgame is not None


@pytest.mark.parametrize("spec, word", [
    ("pretrained:call_threshold=0", "call_threshold"),
    ("pretrained:card_threshold=1.5", "card_threshold"),
    ("pretrained:card_threshold=abc", "card_threshold"),
    ("pretrained:threshold=-1", "threshold"),
    ("pretrained:call_margin=-0.5", "call_margin"),
    ("pretrained:card_margin=inf", "card_margin"),
    ("pretrained:endgame=exact", "endgame"),
    ("pretrained:endgam=solve", "endgame"),
])
def test_bad_parameter_values_name_the_parameter(spec, word):
    with pytest.raises(BadAgentSpecError, match=word):
        make_agent(spec, "tatteln")


def test_endgame_solve_needs_a_perfect_information_endgame():
    with pytest.raises(BadAgentSpecError, match="endgame=solve"):
        make_agent("pretrained:endgame=solve", "dreierles")


# ---- action kinds ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_card_actions_match_the_action_names(name):
    """Cross-check of the per-game table with the action names of the layout (docs/rules/<game>.md)."""
    game = tarockrl.make_game(name)
    state = game.new_initial_state(seed=0)
    named = np.array([state.action_to_string(a).split(" ")[0] in ("PLAY", "DISCARD", "CARD", "LEAD_KING_WITH_JACK")
                      for a in range(game.num_actions)])
    assert np.array_equal(card_actions(game), named)
    assert 0 < named.sum() < game.num_actions


# ---- thresholds and margins -----------------------------------------------------------------------------------
def test_per_action_thresholds_and_margins_change_the_choice():
    # actions 0, 1 are calls, 2, 3 cards; imitation probabilities 0.5, 0.3, 0.15, 0.05 (favourite: action 0)
    logits = torch.log(torch.tensor([[0.5, 0.3, 0.15, 0.05]]))
    q = torch.tensor([[0.0, 1.0, 2.0, 3.0]])
    mask = torch.ones(1, 4, dtype=torch.bool)
    thr = lambda call, card: torch.tensor([call, call, card, card])  # noqa: E731
    assert support_scores(q, logits, mask, 0.2).argmax().item() == 2  # 0.15/0.5 = 0.3 >= 0.2; 0.1 < 0.2
    assert support_scores(q, logits, mask, thr(0.2, 0.05)).argmax().item() == 3  # cards more permissive
    assert support_scores(q, logits, mask, thr(0.2, 1.0)).argmax().item() == 1  # no card passes; call 0.6 >= 0.2
    assert support_scores(q, logits, mask, thr(1.0, 1.0)).argmax().item() == 0  # the imitation favourite only
    assert support_scores(q, logits, mask, thr(0.2, 0.2), margin=1.5).argmax().item() == 2  # 2 > 0 + 1.5
    assert support_scores(q, logits, mask, thr(0.2, 0.2), margin=2.5).argmax().item() == 0  # 2 < 0 + 2.5
    per_action = torch.tensor([2.5, 0.0, 0.0, 0.0])  # the favourite's own margin counts
    assert support_scores(q, logits, mask, 0.2, margin=per_action).argmax().item() == 0
    assert support_scores(q, logits, mask, 0.2, margin=per_action.flip(0)).argmax().item() == 2
    # a scalar threshold tensor equals the float, and illegal actions stay at -1e9
    m2 = torch.tensor([[True, True, False, True]])
    assert torch.equal(support_scores(q, logits, m2, 0.2), support_scores(q, logits, m2, torch.full((4,), 0.2)))
    assert support_scores(q, logits, m2, 0.2)[0, 2].item() == -1e9


def test_agent_uses_the_per_kind_thresholds():
    game = tarockrl.make_game("dreierles")
    torch.manual_seed(0)
    net = QImitationNet(game.observation_size, game.num_actions, [32, 32], threshold=0.2)
    obs = torch.randn(64, game.observation_size)
    mask = torch.rand(64, game.num_actions) < 0.3
    mask[:, 0] = True
    cards = torch.from_numpy(card_actions(game))
    acting = ActingSettings(call_threshold=1.0, card_threshold=0.01, card_margin=1.0)
    agent = NeuralAgent(net, game=game, acting=acting, reward_scale=0.5)
    got = agent.act_batch(obs.numpy(), mask.numpy())
    with torch.no_grad():
        q, lg = net(obs)
        want = support_scores(q, lg, mask, torch.where(cards, 0.01, 1.0), torch.where(cards, 0.5, 0.0))
    assert np.array_equal(got, want.argmax(dim=1).numpy())
    plain = NeuralAgent(net, game=game).act_batch(obs.numpy(), mask.numpy())
    assert not np.array_equal(got, plain)  # the settings change some choices (64 random decisions)
    with pytest.raises(BadAgentSpecError, match="imitation head"):
        from tarockrl.agents.nets import QNet

        NeuralAgent(QNet(game.observation_size, game.num_actions, [8]), game=game, acting=acting)


# ---- Tatteln: the exact final phase ---------------------------------------------------------------------------
def _rules_positions(game, n_deals: int, seed: int, chosen) -> tuple[list, list]:
    """Positions with a choice from deals of ``rules`` against itself, split into (``chosen(state)`` true, false)."""
    rules = make_agent("rules", game, seed=seed)
    yes, no = [], []
    for d in range(n_deals):
        state = game.new_initial_state(seed=seed, deal_id=d)
        while not state.is_terminal():
            if len(state.legal_actions()) > 1:
                (yes if chosen(state) else no).append(state.clone())
            state.apply_action(rules.step(state))
    return yes, no


def _tatteln_positions(n_deals: int, seed: int):
    """(stock-phase, final-phase) positions with a choice, from deals of ``rules`` against itself."""
    game = tarockrl.make_game("tatteln")
    final, stock = _rules_positions(game, n_deals, seed, lambda s: s.phase() == "final")
    return game, stock, final


def test_final_phase_worlds_are_all_the_true_position():
    game, _, final = _tatteln_positions(3, seed=5)
    assert final
    for state in final[::3]:
        p = state.current_player()
        keys = {world_key(state.resample_hidden(p, s)._row) for s in range(4)}
        assert keys == {world_key(state._row)}


def test_final_phase_plays_a_best_action_of_the_solver():
    game, _, final = _tatteln_positions(2, seed=11)
    agent = make_agent("pretrained", game, seed=3)  # endgame=solve is Tatteln's default
    unique = 0
    for state in final:
        a = agent.step(state)
        res = solve(state, objective="returns")  # the true position (the test may look; the agent may not)
        assert agent.endgame.last["solved"]
        assert res.action_values[a] == res.value, state.transcript()
        if sum(v == res.value for v in res.action_values.values()) == 1:
            assert a == res.best_action
            unique += 1
    assert unique >= 2


def test_endgame_never_peeks():
    """The action depends only on the seat's view: resampled hidden cards give the same action (both phases)."""
    game, stock, final = _tatteln_positions(2, seed=21)
    agent = make_agent("pretrained", game, seed=7)
    assert _same_action_on_resampled_views(agent, stock[::8] + final[::3], seed=2) >= 14


def _same_action_on_resampled_views(agent, states, seed: int, repeats: int = 2) -> int:
    """Assert that ``agent`` takes the same action in every state as in states with the hidden cards redrawn from
    the mover's view (the agent cannot tell them apart); the number of redrawn states checked."""
    rng = np.random.default_rng(seed)
    checked = 0
    for state in states:
        p = state.current_player()
        a = agent.step(state)
        for _ in range(repeats):
            other = state.resample_hidden(p, int(rng.integers(1 << 40)))
            assert agent.step(other) == a, state.transcript()
            checked += 1
    return checked


# ---- endgame=pimc: solved sampled worlds in the last tricks (every game) --------------------------------------
def test_endgame_pimc_parameters():
    a = make_agent("pretrained:endgame=pimc,endgame_worlds=8,endgame_tricks=3", "dreierles", seed=4)
    assert a.acting.endgame == "pimc" and a.endgame is None
    assert (a.endgame_pimc.pimc.worlds, a.endgame_pimc.pimc.solve_tricks, a.endgame_pimc.seed) == (8, 3, 4)
    assert make_agent("pretrained:endgame=pimc", "troccas").endgame_pimc.pimc.solve_tricks == 5  # PRETRAINED_ACTING
    ckpt = make_agent(f"ckpt:{PRETRAINED_DIR / 'troccas.pt'},endgame=pimc", "troccas")
    assert ckpt.endgame_pimc.pimc.solve_tricks == 7  # PIMC's default for Troccas
    assert make_agent("pretrained:endgame=net", "dreierles").endgame_pimc is None
    for spec, word in (("endgame_worlds=0", "endgame_worlds"), ("endgame_worlds=2.5", "endgame_worlds"),
                       ("endgame_tricks=0", "endgame_tricks"), ("endgame_tricks=99", "endgame_tricks")):
        with pytest.raises(BadAgentSpecError, match=word):
            make_agent(f"pretrained:endgame=pimc,{spec}", "dreierles")


def _late_positions(name: str, n_deals: int, seed: int, tricks: int):
    """Positions with a choice from deals of ``rules`` against itself: (in the last ``tricks`` tricks of the card
    play, earlier)."""
    from tarockrl.agents.pimc import PIMCAgent

    game = tarockrl.make_game(name)
    probe = PIMCAgent(game, solve_tricks=tricks)
    late, early = _rules_positions(game, n_deals, seed, probe._solvable)
    return game, late, early


@pytest.mark.parametrize("name", ["dreierles", "troccas"])
def test_endgame_pimc_plays_the_best_mean_and_the_net_elsewhere(name):
    from tarockrl.agents.pimc import PIMCAgent

    game, late, early = _late_positions(name, 2, seed=13, tricks=3)
    assert late and early
    agent = make_agent("pretrained:endgame=pimc,endgame_worlds=6,endgame_tricks=3,rollout_tricks=0", game, seed=5)
    net = make_agent("pretrained:endgame=net", game, seed=5)
    reference = PIMCAgent(game, seed=5, worlds=6, solve_tricks=3)
    solved = 0
    for state in late[::2]:
        a = agent.step(state)
        d = reference.evaluate(state)
        if d.method != "solver":  # over the node budget: the network decides
            assert not agent.endgame_pimc.last["solved"] and a == net.step(state)
            continue
        assert agent.endgame_pimc.last["solved"]
        solved += 1
        means = dict(zip(d.actions, d.means, strict=True))
        assert means[a] == pytest.approx(max(means.values())), state.transcript()
    assert solved >= 3
    for state in early[::10]:
        agent.endgame_pimc.last = None
        assert agent.step(state) == net.step(state)
        assert agent.endgame_pimc.last is None  # no search before the last tricks


def test_endgame_pimc_never_peeks():
    """In the last tricks, states the seat cannot tell apart get the same action."""
    game, late, _ = _late_positions("dreierles", 2, seed=17, tricks=4)
    agent = make_agent("pretrained:endgame=pimc,endgame_worlds=8,endgame_tricks=4,rollout_tricks=0", game, seed=9)
    assert _same_action_on_resampled_views(agent, late[::3], seed=3) >= 6


def test_endgame_pimc_rollouts_before_the_solved_tricks():
    """``rollout_tricks``: PIMC with heuristic rollouts between the solved endgame and ``rollout_tricks`` tricks."""
    from tarockrl.agents.pimc import PIMCAgent, tricks_left

    game, late, early = _late_positions("dreiertarock", 1, seed=19, tricks=4)
    band = [s for s in late if tricks_left(s) > 2]
    assert band
    agent = make_agent("pretrained:endgame=pimc,endgame_worlds=4,endgame_tricks=2,rollout_tricks=4", game, seed=6)
    reference = PIMCAgent(game, seed=6, worlds=4, solve_tricks=2)
    for state in band[::2]:
        a = agent.step(state)
        assert agent.endgame_pimc.last["rollouts"]
        d = reference.evaluate(state, force=True)
        means = dict(zip(d.actions, d.means, strict=True))
        assert means[a] == pytest.approx(max(means.values())), state.transcript()
        other = state.resample_hidden(state.current_player(), 12345)  # no peeking in the rollout band either
        assert agent.step(other) == a, state.transcript()
    net = make_agent("pretrained:endgame=net", game, seed=6)
    for state in early[::10]:
        agent.endgame_pimc.last = None
        assert agent.step(state) == net.step(state) and agent.endgame_pimc.last is None
    with pytest.raises(BadAgentSpecError, match="rollout_tricks"):
        make_agent("pretrained:endgame=pimc,rollout_tricks=-1", game)


def test_endgame_nodes_is_the_solver_budget_of_the_endgame():
    """``endgame_nodes`` reaches the solver; with a budget of one node every world is over it and the net decides."""
    a = make_agent("pretrained:endgame=pimc,endgame_nodes=250000", "dreiertarock")
    assert a.endgame_pimc.pimc.max_nodes == 250_000
    ckpt = make_agent(f"ckpt:{PRETRAINED_DIR / 'dreiertarock.pt'},endgame=pimc", "dreiertarock")
    assert ckpt.endgame_pimc.pimc.max_nodes == 30_000  # PIMC's default
    assert make_agent("pretrained", "dreiertarock").endgame_pimc.pimc.max_nodes == 400_000  # PRETRAINED_ACTING
    dl = make_agent("pretrained", "dreierles").endgame_pimc.pimc  # PRETRAINED_ACTING: 8 tricks, 300,000 nodes
    assert (dl.solve_tricks, dl.max_nodes) == (8, 300_000)
    tr = make_agent("pretrained", "troccas").endgame_pimc  # 5 tricks (not PIMC's 7), rollouts from 8 tricks left
    assert (tr.pimc.solve_tricks, tr.pimc.max_nodes, tr.rollout_tricks) == (5, 30_000, 8)
    for bad in ("0", "1.5", "x"):
        with pytest.raises(BadAgentSpecError, match="endgame_nodes"):
            make_agent(f"pretrained:endgame=pimc,endgame_nodes={bad}", "dreiertarock")
    game, late, _ = _late_positions("dreierles", 1, seed=23, tricks=3)
    tiny = make_agent("pretrained:endgame=pimc,endgame_worlds=4,endgame_tricks=3,endgame_nodes=1", game, seed=2)
    net = make_agent("pretrained:endgame=net", game, seed=2)
    for state in late[::2]:
        assert tiny.step(state) == net.step(state)
        if len(state.legal_actions()) > 1:
            assert tiny.endgame_pimc.last == {"solved": False}


# ---- calls=pimc: PIMC with heuristic rollouts at the calls ---------------------------------------------------
def _call_positions(name: str, n_deals: int, seed: int):
    """Positions of ``rules`` self-play whose legal actions are two or more calls, and positions offering a card."""
    game = tarockrl.make_game(name)
    cards = card_actions(game)
    calls, others = _rules_positions(game, n_deals, seed, lambda s: not cards[s.legal_actions()].any())
    return game, calls, others


def test_calls_pimc_plays_the_best_rollout_mean_at_calls_only():
    from tarockrl.agents.pimc import PIMCAgent

    game, calls, others = _call_positions("dreiertarock", 3, seed=31)
    assert len(calls) >= 6 and others
    agent = make_agent("pretrained:calls=pimc,call_worlds=6,endgame=net", game, seed=8)
    assert (agent.call_pimc.pimc.worlds, agent.call_pimc.pimc.solve_tricks) == (6, 0)
    reference = PIMCAgent(game, seed=8, worlds=6, solve_tricks=0)
    for state in calls:
        a = agent.step(state)
        d = reference.evaluate(state, force=True)
        means = dict(zip(d.actions, d.means, strict=True))
        assert means[a] == pytest.approx(max(means.values())), state.transcript()
        assert agent.call_pimc.last["values"] == pytest.approx({k: float(v) for k, v in means.items()})
    net = make_agent("pretrained:endgame=net", game, seed=8)
    for state in others[::15]:
        agent.call_pimc.last = None
        assert agent.step(state) == net.step(state) and agent.call_pimc.last is None


def test_calls_pimc_never_peeks_and_bad_values_are_named():
    game, calls, _ = _call_positions("dreierles", 3, seed=37)
    agent = make_agent("pretrained:calls=pimc,call_worlds=8,endgame=net", game, seed=3)
    assert _same_action_on_resampled_views(agent, calls[::2], seed=5) >= 4
    for spec, word in (("calls=search", "calls"), ("call_worlds=0", "call_worlds"),
                       ("call_worlds=5000", "call_worlds")):
        with pytest.raises(BadAgentSpecError, match=word):
            make_agent(f"pretrained:{spec}", game)
