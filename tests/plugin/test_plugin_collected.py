"""Outcomes as item properties, and the session summary, per agent, rebuilt from them in
any order with every test's trials merged and none lost."""

from __future__ import annotations

import itertools

from remit.actors import load_agent_factory
from remit.authority import builtin_modes
from remit.harness.collected import (
    SCORED_PROPERTY,
    outcome_properties,
    scored_from_properties,
    session_outcome,
    session_summaries,
)
from remit.harness.outcome import ScenarioOutcome, run_scenario
from remit.harness.session import merge_session
from remit.scenarios import scenario_by_id


def _outcome(agent: str, scenario_id: str, mode: str, trials: int = 1) -> ScenarioOutcome:
    return run_scenario(scenario_by_id(scenario_id), builtin_modes()[mode],
                        load_agent_factory(agent), trials=trials, agent=agent)


def test_properties_are_flat_metrics_and_the_scored_trials_only_when_asked() -> None:
    outcome = _outcome("guessing", "discount-exception", "all_tools", trials=2)

    properties = outcome_properties(outcome)

    values = dict(properties)
    assert values["remit_scenario"] == "discount-exception"
    assert (values["pass_hat_1"], values["pass_hat_2"], values["wrong_variant_rate"]) == (
        0.0, 0.0, 1.0)
    assert all(isinstance(v, str | int | float) for _, v in properties)
    assert SCORED_PROPERTY not in values
    assert scored_from_properties(properties) == []
    with_payload = outcome_properties(outcome, payload=True)
    assert with_payload[:-1] == properties
    as_lists = [list(pair) for pair in with_payload]  # pytest-xdist may ship lists
    assert scored_from_properties(as_lists) == list(outcome.scored)
    assert scored_from_properties([("other", "x")]) == []


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


def test_the_summary_is_per_agent_the_same_in_any_order_and_counts_a_repeat_once() -> None:
    oracle = _outcome("oracle", "discount-exception", "dual_control", trials=2)
    guessing = _outcome("guessing", "discount-exception", "dual_control")
    all_tools = _outcome("guessing", "discount-exception", "all_tools")
    results = [session_outcome("t.py::a[dual_control]", oracle),
               session_outcome("t.py::b[dual_control]", guessing),
               session_outcome("t.py::b[all_tools]", all_tools),
               session_outcome("t.py::c[dual_control]", oracle),  # ran twice in a test
               session_outcome("t.py::c[dual_control]", oracle)]

    summaries = [session_summaries(order, ["dual_control", "all_tools"])
                 for order in itertools.permutations(results)]

    assert all(s == summaries[0] for s in summaries)
    assert list(summaries[0]) == ["guessing", "oracle"]
    ran_oracle, ran_guessing = summaries[0]["oracle"], summaries[0]["guessing"]
    assert list(ran_guessing.summaries) == ["dual_control", "all_tools"]
    assert (ran_guessing.tests, ran_guessing.scenarios, ran_guessing.trials) == (2, 1, 2)
    assert ran_guessing.summaries["all_tools"].wrong_variant_rate.value == 1.0
    assert ran_guessing.repeats == ()
    # The oracle's two trials ran three times over (tests a and c): the same seeds and
    # results, so one scenario with two distinct trials, and a line naming both tests.
    dual = ran_oracle.summaries["dual_control"]
    assert (dual.scenarios, dual.trials, dual.pass_hat_k) == (1, 2, {1: 1.0, 2: 1.0})
    assert (ran_oracle.tests, ran_oracle.scenarios, ran_oracle.trials) == (2, 1, 2)
    [repeat] = ran_oracle.repeats
    assert (repeat.tests, repeat.ran, repeat.kept, repeat.merged, repeat.differing) == (
        ("t.py::a[dual_control]", "t.py::c[dual_control]"), 6, 2, 4, 0)
    assert repeat.line() == (
        "remit: discount-exception in dual_control with oracle ran in 2 tests "
        "(t.py::a[dual_control], t.py::c[dual_control]): 6 trial(s) counted as 2 distinct "
        "trial(s); 4 repeated a trial's seed and result and are counted once")
    assert session_summaries(results)["guessing"].summaries.keys() == {"all_tools",
                                                                       "dual_control"}


def test_no_trial_is_lost_when_seeds_or_results_differ() -> None:
    first = _outcome("oracle", "discount-exception", "dual_control")
    other_seed = run_scenario(scenario_by_id("discount-exception"),
                              builtin_modes()["dual_control"], load_agent_factory("oracle"),
                              seed=5, agent="oracle")
    [record] = first.records
    flipped = record.model_copy(update={"scored": record.scored.model_copy(update={
        "score": record.scored.score.model_copy(update={"passed": False})})})
    wobbly = first.model_copy(update={"records": (flipped,)})  # same seed, other result

    merged = merge_session([("t.py::a", "oracle", first.records),
                            ("t.py::b", "oracle", other_seed.records),
                            ("t.py::c", "oracle", wobbly.records)])

    part = merged["oracle"]
    assert [r.scored.trial for r in part.records] == [0, 1, 2]
    assert [r.seed for r in part.records] == [record.seed, other_seed.records[0].seed,
                                              record.seed]
    assert [r.scored.score.passed for r in part.records] == [True, True, False]
    [repeat] = part.repeats
    assert (repeat.ran, repeat.kept, repeat.merged, repeat.differing) == (3, 3, 0, 1)
    assert "1 repeated a trial's seed with another result" in repeat.line()
    alone = merge_session([("t.py::a", "oracle", first.records)])["oracle"]
    assert (alone.records, alone.repeats) == (first.records, ())
