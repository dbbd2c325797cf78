import pytest

import tarockrl
from tests.evaluation.agents import NAMES, register


@pytest.fixture(scope="module", autouse=True)
def _test_agents():
    """Register the test agents for the evaluation tests only (removed again afterwards)."""
    from tarockrl.agents import registry

    register()
    yield
    for name in NAMES:
        registry._FACTORIES.pop(name, None)
        registry._DESCRIPTIONS.pop(name, None)


@pytest.fixture(scope="session")
def games():
    return {name: tarockrl.make_game(name) for name in tarockrl.list_games()}
