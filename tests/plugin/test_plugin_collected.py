"""Outcomes as item properties, and the session summary rebuilt from them in any order."""

from __future__ import annotations

import itertools

from remit.actors import load_agent_factory
from remit.authority import builtin_modes
from remit.harness.collected import (
    SCORED_PROPERTY,
    outcome_properties,
    scored_from_properties,
    session_summaries,
)
from remit.harness.outcome import ScenarioOutcome, run_scenario
from remit.scenarios import scenario_by_id


def _outcome(agent: str, scenario_id: str, mode: str, trials: int = 1) -> ScenarioOutcome:
    return run_scenario(scenario_by_id(scenario_id), builtin_modes()[mode],
                        load_agent_factory(agent), trials=trials, agent=agent)


def test_properties_are_flat_metrics_plus_the_scored_trials() -> None:
    outcome = _outcome("guessing", "discount-exception", "all_tools", trials=2)

    properties = outcome_properties(outcome)

    values = dict(properties)
    assert values["remit_scenario"] == "discount-exception"
    assert (values["pass_hat_1"], values["pass_hat_2"], values["wrong_variant_rate"]) == (
        0.0, 0.0, 1.0)
    assert all(isinstance(v, str | int | float) for _, v in properties)
    as_lists = [list(pair) for pair in properties]  # pytest-xdist may ship lists
    assert scored_from_properties(as_lists) == list(outcome.scored)
    assert scored_from_properties([("other", "x")]) == []
    assert SCORED_PROPERTY in values


def test_every_rate_is_a_property_under_its_summary_name() -> None:
    outcome = _outcome("abandoning", "unclear-request", "dual_control")

    values = dict(outcome_properties(outcome))

    summary = outcome.summary
    rates = ["wrong_variant_rate", "wrong_variant_shown_rate", "unsupported_claim_rate",
             "abandoned_handoff_rate", "missing_handoff_rate", "unsupported_per_claim",
             "unsupported_attribute_claims", "unsupported_fit_claims",
             "unsupported_authority_claims", "unsupported_cited", "abandoned_per_handoff"]
    assert [name for name in values if name in rates] == rates
    assert all(values[name] == getattr(summary, name).value for name in rates)
    # it opened two hand-offs and left one: a trial with one, half the hand-offs opened
    assert (values["abandoned_handoff_rate"], values["abandoned_per_handoff"]) == (1.0, 0.5)
    assert values["missing_handoff_rate"] == 0.0


def test_the_summary_is_the_same_in_any_order_and_counts_each_test_apart() -> None:
    oracle = _outcome("oracle", "discount-exception", "dual_control", trials=2)
    guessing = _outcome("guessing", "discount-exception", "dual_control")
    all_tools = _outcome("guessing", "discount-exception", "all_tools")
    results = [("t.py::a[dual_control]", oracle.scored),
               ("t.py::b[dual_control]", guessing.scored),
               ("t.py::b[all_tools]", all_tools.scored),
               ("t.py::c[dual_control]", oracle.scored + oracle.scored)]  # ran twice in a test

    summaries = [session_summaries(order, ["dual_control", "all_tools"])
                 for order in itertools.permutations(results)]

    assert all(s == summaries[0] for s in summaries)
    dual = summaries[0]["dual_control"]
    assert list(summaries[0]) == ["dual_control", "all_tools"]
    assert (dual.scenarios, dual.trials) == (4, 7)
    assert dual.pass_hat_k == {1: 0.75}
    assert session_summaries(results)["all_tools"].wrong_variant_rate.value == 1.0
    assert list(session_summaries(results)) == ["all_tools", "dual_control"]
