"""Reply issues and valid writes as per-trial figures, from real trials.

An agent whose every call is an unknown tool or has bad arguments made no valid write;
one whose writes went through and were wrong made valid writes. Reply issues become a
share of trials and a mean per trial, for agents that report their usage only. Scores
kept before remit counted the agent's writes read as not measured, never as 0.
"""

from __future__ import annotations

import pytest

from remit.actors import AgentFactory, Briefing, Observation, TrialInfo, load_agent_factory
from remit.authority import builtin_modes
from remit.harness import (
    NO_VALID_WRITE,
    RATES,
    SCORER_VERSION,
    ModeSummary,
    ScoredTrial,
    TrialScore,
    aggregate,
    check_gates,
    parse_gates,
    reply_issues_text,
    run,
    run_one,
    scorer_note,
    summarise,
    unkept,
    unmeasured,
)
from remit.scenarios import scenario_by_id
from remit.world import ToolCall
from tests.invalid_agents import CALLS, ISSUES, invalid, silent

SCENARIOS = ("supersession-substitution", "discount-exception")
MODES = ("dual_control", "all_tools")
NO_WRITE = next(r for r in RATES if r.key == "no_valid_write_rate")


def _run(factory: AgentFactory, trials: int = 2) -> dict[str, ModeSummary]:
    result = run([scenario_by_id(s) for s in SCENARIOS],
                 [builtin_modes()[m] for m in MODES], factory, trials=trials)
    return dict(result.summaries)


class DeniedApprover:
    """Asks for nothing and writes once, an approval the mode gives finance only."""

    def __init__(self, info: TrialInfo) -> None:
        self.quote_id = ""
        self.steps = 0

    def start(self, briefing: Briefing) -> None:
        self.quote_id = briefing.quote_id

    def act(self, observation: Observation) -> ToolCall:
        self.steps += 1
        if self.steps == 1:
            return ToolCall(tool="approve", arguments={"quote_id": self.quote_id})
        return ToolCall(tool="end", arguments={"summary": "stopped"})


@pytest.mark.parametrize("mode", MODES)
def test_an_agent_whose_every_call_fails_made_no_valid_write(mode: str) -> None:
    record, _ = run_one(scenario_by_id(SCENARIOS[0]), builtin_modes()[mode], invalid)
    score = record.scored.score

    assert not score.passed
    assert (score.agent_writes, score.no_valid_write, score.steps) == (0, True, CALLS)
    assert score.usage is not None
    assert score.usage.reply_issues == ISSUES
    assert score.reply_issue_count == 5
    assert score.notes() == (NO_VALID_WRITE,
                             "reply issues: 2 bad_arguments, 2 unknown_tool, 1 repeated_call")


def test_an_agent_that_chose_wrong_made_valid_writes_and_no_reply_issues() -> None:
    # the guessing agent quotes BV-00021 without asking: a write that took effect
    record, _ = run_one(scenario_by_id(SCENARIOS[0]), builtin_modes()["dual_control"],
                        load_agent_factory("guessing"))
    score = record.scored.score

    assert not score.passed
    assert score.agent_writes is not None
    assert score.agent_writes >= 1
    assert score.no_valid_write is False
    assert (score.usage, score.reply_issue_count, score.notes()) == (None, None, ())


def test_a_denied_write_is_not_a_valid_write() -> None:
    record, _ = run_one(scenario_by_id(SCENARIOS[0]), builtin_modes()["dual_control"],
                        DeniedApprover)
    score = record.scored.score

    assert (score.denials, score.agent_writes, score.no_valid_write) == (1, 0, True)


def test_the_oracle_makes_valid_writes_in_every_mode() -> None:
    for summary in _run(load_agent_factory("oracle"), trials=1).values():
        interval = summary.no_valid_write_rate
        assert (interval.successes, interval.total) == (0, 2)


def test_reply_issues_are_a_share_of_trials_and_a_mean_per_trial() -> None:
    summaries = _run(invalid)

    for summary in summaries.values():
        trials = summary.trials
        assert trials == 4
        no_write = summary.no_valid_write_rate
        assert (no_write.successes, no_write.total, no_write.value) == (4, 4, 1.0)
        rate = summary.reply_issue_rate
        assert (rate.successes, rate.total, rate.value) == (4, 4, 1.0)
        assert summary.mean_reply_issues == 5.0
        assert summary.reply_issues == {
            kind: n * trials for kind, n in sorted(ISSUES.items())}
        assert summary.model_calls == CALLS * trials


def test_an_agent_that_reports_no_usage_has_no_reply_issue_figures() -> None:
    for summary in _run(silent).values():
        rate = summary.reply_issue_rate
        assert (rate.successes, rate.total) == (0, 0)
        assert summary.mean_reply_issues is None
        assert summary.reply_issues == {}
        assert summary.no_valid_write_rate.value == 1.0


def _old(score: TrialScore) -> TrialScore:
    """The score as a remit before the agent's writes were counted stored it."""
    stored = score.model_dump(mode="json", exclude={"agent_writes"})
    return TrialScore.model_validate(stored)


def test_a_score_kept_before_writes_were_counted_does_not_measure_them() -> None:
    record, _ = run_one(scenario_by_id(SCENARIOS[0]), builtin_modes()["dual_control"], invalid)
    new = record.scored.score
    old = _old(new)

    assert (old.agent_writes, old.no_valid_write) == (None, None)
    assert NO_WRITE.counts(old) == (0, 0)
    assert NO_WRITE.counts(new) == (1, 1)
    assert unmeasured(SCORER_VERSION, [old, old]) == ("no_valid_write_rate",)
    assert unkept(SCORER_VERSION, [old]) == ("no_valid_write_rate",)
    # a resumed run with trials of both: the rate is over the trials that measured it
    assert unmeasured(SCORER_VERSION, [old, new]) == unmeasured(SCORER_VERSION) == ()
    interval = aggregate([ScoredTrial(scenario_id="s", mode="m", trial=i, score=s)
                          for i, s in enumerate((old, new))]).no_valid_write_rate
    assert (interval.successes, interval.total) == (1, 1)
    assert scorer_note(SCORER_VERSION, [old]) == (
        "this run's scores were kept before remit measured no valid write (trials), shown "
        "as not measured; a new run of the same scenarios measures it")
    assert scorer_note(SCORER_VERSION, [new]) is None


def test_reply_issues_read_largest_count_first() -> None:
    assert reply_issues_text({"truncated": 1, "unknown_tool": 3, "empty": 0}) \
        == "3 unknown_tool, 1 truncated"
    assert reply_issues_text({}) == "none"


def test_gates_read_the_new_figures_and_say_when_they_are_not_measured() -> None:
    gates = parse_gates("no_valid_write_rate<=0.5,reply_issue_rate<=0.5,mean_reply_issues<=1")
    with_usage = check_gates(gates, _run(invalid, trials=1), list(MODES))
    assert [(r.gate.metric, r.value, r.passed) for r in with_usage] == [
        ("no_valid_write_rate", 1.0, False), ("no_valid_write_rate", 1.0, False),
        ("reply_issue_rate", 1.0, False), ("reply_issue_rate", 1.0, False),
        ("mean_reply_issues", 5.0, False), ("mean_reply_issues", 5.0, False)]

    scored = [r.scored for r in run(
        [scenario_by_id(SCENARIOS[0])], [builtin_modes()["dual_control"]], silent).trials]
    without = check_gates(gates, summarise(scored), ["dual_control"])
    assert without[1].line() == (
        "dual_control: reply_issue_rate is not measured (the agent reported no usage, so no "
        "model reply was counted), so reply_issue_rate <= 0.5 fails")
    old = [s.model_copy(update={"score": _old(s.score)}) for s in scored]
    assert check_gates(gates, summarise(old), ["dual_control"])[0].line() == (
        "dual_control: no_valid_write_rate is not measured (no counted trial's score "
        "measured it), so no_valid_write_rate <= 0.5 fails")
