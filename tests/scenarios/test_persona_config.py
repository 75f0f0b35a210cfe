"""A persona's perturbations mean what they say without further settings."""

from __future__ import annotations

import yaml

from remit.actors import oracle_factory
from remit.authority import Role, mode_by_name
from remit.harness import run
from remit.scenarios import scenario_by_id
from remit.scenarios.spec import (
    DEFAULT_REVIEW_MINUTES,
    SLOW_REVIEW_MINUTES,
    PersonaConfig,
    Perturbation,
)


def test_slow_owner_alone_makes_the_owner_slow_and_a_given_time_wins() -> None:
    assert PersonaConfig().review_minutes == DEFAULT_REVIEW_MINUTES
    slow = PersonaConfig.model_validate(yaml.safe_load("perturbations: [slow_owner]"))
    assert slow.review_minutes == SLOW_REVIEW_MINUTES
    assert PersonaConfig(perturbations=(Perturbation.SLOW_OWNER,),
                         review_minutes=30).review_minutes == 30


def test_a_slow_finance_costs_the_trial_hours_of_review() -> None:
    scenario = scenario_by_id("discount-exception")
    slow = scenario.model_copy(update={"personas": {
        **scenario.personas,
        Role.FINANCE: PersonaConfig(perturbations=(Perturbation.SLOW_OWNER,))}})
    dual = [mode_by_name("dual_control")]

    quick = run([scenario], dual, oracle_factory).trials[0].scored.score
    waited = run([slow], dual, oracle_factory).trials[0].scored.score

    assert waited.passed
    assert waited.review_minutes - quick.review_minutes >= (
        SLOW_REVIEW_MINUTES - DEFAULT_REVIEW_MINUTES)
