"""ScenarioOutcome: trials aggregated per scenario and mode, and expectation helpers."""

from __future__ import annotations

import pytest

from remit.actors import load_agent_factory
from remit.authority import builtin_modes
from remit.harness.outcome import ExpectationError, ScenarioOutcome, ScenarioRunner, run_scenario
from remit.harness.settings import RunSettings
from remit.scenarios import UnknownScenarioError, scenario_by_id
from tests.reports.crafted import crafted_record, crafted_scenario


def _outcome(agent: str, scenario_id: str, mode: str, trials: int = 1) -> ScenarioOutcome:
    return run_scenario(scenario_by_id(scenario_id), builtin_modes()[mode],
                        load_agent_factory(agent), trials=trials, agent=agent)


def test_trials_are_aggregated() -> None:
    outcome = _outcome("oracle", "fff-substitution", "dual_control", trials=3)

    assert (outcome.trials, outcome.passes) == (3, 3)
    assert [r.scored.trial for r in outcome.records] == [0, 1, 2]
    assert len({r.seed for r in outcome.records}) == 3
    assert outcome.pass_hat_k(3) == 1.0
    assert outcome.summary.pass_hat_k == {1: 1.0, 2: 1.0, 3: 1.0}
    assert outcome.mean_handoffs == 3  # confirm_fit, approve, accept
    assert outcome.expect_passed().expect_pass_hat_k(3, at_least=1.0) is outcome


def test_pass_hat_k_beyond_the_trials_says_to_run_more() -> None:
    outcome = _outcome("oracle", "fff-substitution", "dual_control", trials=2)

    with pytest.raises(ValueError, match=r"k=3 must be between 1 and the trials run; run at "
                                         r"least 3 trials \(@pytest.mark.remit\(trials=3\)"):
        outcome.pass_hat_k(3)


def test_a_broken_expectation_is_an_assertion_error_naming_what_broke() -> None:
    outcome = _outcome("guessing", "discount-exception", "all_tools", trials=2)

    with pytest.raises(AssertionError, match=r"expected no wrong variant for scenario "
                       r"'discount-exception' in mode 'all_tools' with agent 'guessing': 2 of 2 "
                       r"trial\(s\) broke it; trial 0: no_wrong_variant: the offered version "
                       r"quotes BV-00003, outside the acceptable set") as caught:
        outcome.expect_no_wrong_variant()

    error = caught.value
    assert isinstance(error, ExpectationError)
    assert error.expectation == "no wrong variant"
    assert [b.record.scored.trial for b in error.broken] == [0, 1]


@pytest.mark.parametrize(("agent", "scenario_id", "mode", "check", "message"), [
    ("abandoning", "fff-substitution", "dual_control",
     lambda o: o.expect_no_abandoned_handoffs(), r"abandoned_handoff: H-\d+ \(confirm_fit"),
    ("claiming", "discount-exception", "dual_control",
     lambda o: o.expect_no_unsupported_claims(), r"no_unsupported_claims: "),
    ("guessing", "supersession-substitution", "dual_control",
     lambda o: o.expect_final_state("accepted"), r"final_state: expected accepted, got configured"),
    ("guessing", "supersession-substitution", "dual_control",
     lambda o: o.expect_pass_hat_k(1, at_least=0.5),
     r"pass\^1 >= 0.5 .*: pass\^1 is 0.00 \(0 of 1 trials passed\); trial 0: final_state"),
])
def test_each_helper_names_its_expectation(agent: str, scenario_id: str, mode: str,
                                           check: object, message: str) -> None:
    outcome = _outcome(agent, scenario_id, mode)

    with pytest.raises(ExpectationError, match=message):
        check(outcome)  # type: ignore[operator]


def test_a_passing_outcome_meets_every_expectation() -> None:
    outcome = _outcome("oracle", "consent-withheld", "all_tools")

    (outcome.expect_passed().expect_no_wrong_variant().expect_no_unsupported_claims()
     .expect_no_abandoned_handoffs().expect_final_state("rejected"))
    with pytest.raises(ValueError, match="'rejectd' is not a valid QuoteState"):
        outcome.expect_final_state("rejectd")


def test_the_runner_resolves_scenarios_agents_and_modes_and_reports_outcomes() -> None:
    seen: list[ScenarioOutcome] = []
    runner = ScenarioRunner(RunSettings(agent="oracle", trials=2, seed=3),
                            builtin_modes()["all_tools"], seen.append)

    first = runner.run("discount-exception")
    second = runner.run(scenario_by_id("actuator-pairing"), agent="baseline", trials=1,
                        mode="dual_control", seed=4)

    assert seen == [first, second]
    assert (first.agent, first.trials, first.mode.name) == ("oracle", 2, "all_tools")
    assert (second.agent, second.trials, second.mode.name) == ("baseline", 1, "dual_control")
    assert second.records[0].seed != run_scenario(
        scenario_by_id("actuator-pairing"), builtin_modes()["dual_control"],
        load_agent_factory("baseline"), seed=3).records[0].seed
    with pytest.raises(UnknownScenarioError, match="no such id in the built-in suite"):
        runner.run("no-such-scenario")


def _crafted(**fields: object) -> ScenarioOutcome:
    """One crafted dual-control trial whose score is changed by ``fields``."""
    record = crafted_record()
    score = record.scored.score.model_copy(update=fields)
    record = record.model_copy(update={"scored": record.scored.model_copy(
        update={"score": score})})
    return ScenarioOutcome(scenario=crafted_scenario(), mode=builtin_modes()["dual_control"],
                           agent="crafted", records=(record,))


CORRECTED = ("wrong_variant: BV-00013 on Q-1 v2 (presented at step 9) is outside the "
             "acceptable set: S1 superseded by BV-00021")


def test_a_wrong_variant_shown_then_corrected_breaks_no_wrong_variant() -> None:
    outcome = _crafted(wrong_variant_shown=True, wrong_shown_skus=("BV-00013",),
                       wrong_variants=(CORRECTED,))

    assert outcome.expect_no_wrong_variant(shown=False) is outcome  # the final offer is right
    with pytest.raises(ExpectationError, match=r"expected no wrong variant for scenario "
                       r"'crafted'.*trial 0: no_wrong_variant: a version offered before the "
                       r"last one quoted BV-00013, outside the acceptable set") as caught:
        outcome.expect_no_wrong_variant()

    (broken,) = caught.value.broken
    assert broken.broke[1:] == (CORRECTED,)  # with the rules that exclude it


def test_a_final_wrong_variant_breaks_both_readings() -> None:
    outcome = _crafted(wrong_variant=True, wrong_skus=("BV-00013",), wrong_variant_shown=True,
                       wrong_shown_skus=("BV-00013",), wrong_variants=(CORRECTED,))

    for shown in (True, False):
        with pytest.raises(ExpectationError, match=r"no_wrong_variant: the offered version "
                                                   r"quotes BV-00013, outside the acceptable"):
            outcome.expect_no_wrong_variant(shown=shown)


def test_missing_hand_offs_are_not_abandoned_ones() -> None:
    missing = ("missing_handoff: accept is required by the goal and held by buyer in "
               "dual_control; the quote reached a state where it could be requested, but the "
               "agent never requested it and it never happened")
    outcome = _crafted(missing_handoffs=1, missing=(missing,))

    assert outcome.expect_no_abandoned_handoffs() is outcome
    with pytest.raises(ExpectationError, match=r"expected no missing hand-offs .*: 1 of 1 "
                                               r"trial\(s\) broke it; trial 0: missing_handoff: "
                                               r"accept is required by the goal"):
        outcome.expect_no_missing_handoffs()


def test_unsupported_citations_are_checked_apart_from_stated_claims() -> None:
    cited = ("unsupported claim BV-00021 pn=40 bar (cited on Q-1 v2 at step 4): BV-00021 pn "
             "is 16 bar",)
    outcome = _crafted(cited_claims=2, unsupported_cited_claims=1, unsupported_cited=cited)

    assert outcome.expect_no_unsupported_claims() is outcome
    with pytest.raises(ExpectationError, match=r"no_unsupported_citations: unsupported claim "
                                               r"BV-00021 pn=40 bar \(cited on Q-1 v2"):
        outcome.expect_no_unsupported_citations()
