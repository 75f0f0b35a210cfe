"""A scenario kept as YAML: exported once from a built-in scenario, loaded and run.

``discount_exception.yaml`` was written with
``yaml.safe_dump(scenario.model_dump(mode="json", exclude_defaults=True))`` from the
built-in ``discount-exception`` scenario; edit it like any other test data. The fixture
loads a ``.yaml`` path itself (``remit.run(path)``); ``load_scenario`` gives the
Scenario object when the test wants to change it first.

Files named ``scenario_*.yaml`` or ``*.scenario.yaml`` need no test module at all: the
plugin collects them (see ``scenario_supersession.yaml``), one item per mode, which fails
unless every trial passes with the configured agent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from remit.authority import Role
from remit.harness.outcome import ScenarioRunner
from remit.scenarios import Scenario, load_scenario, scenario_by_id

HERE = Path(__file__).parent
DISCOUNT = HERE / "discount_exception.yaml"


def test_the_yaml_file_is_the_builtin_scenario() -> None:
    assert load_scenario(DISCOUNT) == scenario_by_id("discount-exception")


@pytest.mark.remit(agent="baseline", trials=2)
def test_baseline_gets_the_justified_discount_approved(remit: ScenarioRunner) -> None:
    outcome = remit.run(DISCOUNT)

    outcome.expect_passed().expect_no_wrong_variant().expect_no_unsupported_claims()
    assert outcome.passes == outcome.trials == 2


@pytest.mark.remit(modes=("dual_control",), agent="oracle")
def test_an_edited_copy_with_a_slow_finance_desk(remit: ScenarioRunner) -> None:
    scenario = load_scenario(DISCOUNT)
    slow = Scenario.model_validate({
        **scenario.model_dump(), "id": "discount-exception-slow-finance",
        "personas": {**scenario.model_dump()["personas"],
                     Role.FINANCE: {"review_minutes": 240}},
    })

    outcome = remit.run(slow).expect_passed()

    assert outcome.summary.mean_review_minutes >= 240
