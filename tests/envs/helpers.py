"""Helpers for the env tests: a deterministic policy and plain replays through the State API."""

from __future__ import annotations

import zlib

import numpy as np

import tarockrl

GAMES = tarockrl.list_games()


def pick(observation: np.ndarray, mask: np.ndarray) -> int:
    """A deterministic legal action that depends on the observation (so different states get varied choices)."""
    legal = np.flatnonzero(mask)
    return int(legal[zlib.crc32(np.ascontiguousarray(observation).tobytes()) % legal.size])


def pick_batch(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """:func:`pick` row by row."""
    return np.array([pick(o, m) for o, m in zip(observations, masks)], dtype=np.int64)


class FirstLegal:
    """A deterministic Python agent: always the lowest legal action (counts its calls)."""

    def __init__(self) -> None:
        self.calls = 0
        self.resets = []

    def act(self, observation, action_mask):
        self.calls += 1
        return int(np.flatnonzero(action_mask)[0])

    def reset(self, seed=None):
        self.resets.append(seed)

    def __repr__(self) -> str:
        return "FirstLegal()"


class BatchedLast:
    """A batched Python agent: the highest legal action of each row."""

    def __init__(self) -> None:
        self.batches = 0

    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask)[-1])

    def act_batch(self, observations, action_masks):
        self.batches += 1
        return action_masks.shape[1] - 1 - np.argmax(action_masks[:, ::-1], axis=1)


def play_single(env, seed=None, options=None, policy=pick, max_steps=10_000):
    """One episode of a single env; returns the list of (obs, mask, reward, terminated, info) after reset/steps."""
    obs, info = env.reset(seed=seed, options=options)
    out = [(obs.copy(), info["action_mask"].copy(), 0.0, False, info)]
    for _ in range(max_steps):
        obs, reward, terminated, truncated, info = env.step(policy(obs, info["action_mask"]))
        assert truncated is False
        out.append((obs.copy(), info["action_mask"].copy(), reward, terminated, info))
        if terminated:
            return out
    raise AssertionError("episode did not end")
