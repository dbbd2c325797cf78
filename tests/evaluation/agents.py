"""Small deterministic test agents (registered by name in the tests through ``register_agent``)."""

from __future__ import annotations

import time


class FirstLegal:
    """Always the lowest legal action (deterministic)."""

    def step(self, state) -> int:
        return state.legal_actions()[0]


class LastLegal:
    """Always the highest legal action (deterministic)."""

    def step(self, state) -> int:
        return state.legal_actions()[-1]


class Sleepy(FirstLegal):
    """FirstLegal that sleeps a little per decision (so a run can be killed mid-way)."""

    def step(self, state) -> int:
        time.sleep(0.002)
        return super().step(state)


def make_first(game, seed: int | None = None) -> FirstLegal:
    return FirstLegal()


def make_last(game, seed: int | None = None) -> LastLegal:
    return LastLegal()


def make_sleepy(game, seed: int | None = None) -> Sleepy:
    return Sleepy()


NAMES = ("first_legal", "last_legal", "sleepy")


def register() -> None:
    from tarockrl.agents import register_agent

    register_agent("first_legal", "tests.evaluation.agents:make_first", "test: lowest legal action")
    register_agent("last_legal", "tests.evaluation.agents:make_last", "test: highest legal action")
    register_agent("sleepy", "tests.evaluation.agents:make_sleepy", "test: lowest legal action, slowly")
