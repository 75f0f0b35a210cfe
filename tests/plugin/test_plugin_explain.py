"""The failure explanation: numbered steps, the divergence from the plan, what broke."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from remit.actors import load_agent_factory
from remit.authority import Action, ControlMode, Role, builtin_modes, default_map, delegate
from remit.harness import TrialRecord, run, run_one
from remit.reports.explain import MAX_LINES, explain
from remit.scenarios import builtin_scenarios, scenario_by_id
from tests.reports.scripted import END, Rule, scripted_trial

STEP = re.compile(r"^(>>|  ) \d{2} \[t=[ \d]{3,}m\] \w+ .+ -> .+$")
FAULT_AGENTS = ("baseline", "guessing", "abandoning", "claiming", "overreaching")


def _record(agent: str, scenario_id: str, mode: str | ControlMode) -> TrialRecord:
    chosen = builtin_modes()[mode] if isinstance(mode, str) else mode
    record, _ = run_one(scenario_by_id(scenario_id), chosen, load_agent_factory(agent))
    return record


def test_a_guess_diverges_where_the_agent_quotes_the_wrong_variant() -> None:
    record = _record("guessing", "supersession-substitution", "dual_control")

    lines = explain(record, scenario_by_id("supersession-substitution")).splitlines()

    assert lines[0].startswith("supersession-substitution in dual_control, trial 0 (seed ")
    assert lines[0].endswith("failed; the agent left the reference plan at step 02")
    marked = [i for i, line in enumerate(lines) if line.startswith(">>")]
    assert len(marked) == 1
    assert lines[marked[0]] == ">> 02 [t=  1m] agent edit_lines(BV-00021 x3) -> v2"
    assert lines[marked[0] + 1] == "      plan expected: edit_lines(BV-00003)"
    assert "   06 [t= 19m] technical_owner reject_fit -> fit_pending -> configured; declined " \
           "H-1: C5 fails" in "\n".join(lines)
    assert "   ... 1 read" in lines
    broke = [line for line in lines if line.startswith("expectation broke: ")]
    assert broke == [f"expectation broke: {f}" for f in record.scored.score.failures]
    assert lines[-len(broke):] == broke


def test_an_agent_that_stops_early_is_marked_at_its_end() -> None:
    # finance does not approve at once; the abandoning agent ends instead of following up
    record = _record("abandoning", "unresponsive-finance", "dual_control")

    text = explain(record, scenario_by_id("unresponsive-finance"))

    assert "   10 [t= 37m] agent request_action(to=finance, action=approve) -> opened H-1" in text
    assert (">> 12 [t= 39m] agent end -> ended (agent_end)\n"
            "      plan expected: approve by finance (requested at step 10, not yet done)") in text


def test_owner_steps_are_expected_as_the_mode_allocates_them() -> None:
    """In all-tools the oracle approves itself; in a custom mode too, up to the limit; a
    passing trial has no marker, and an agent that stops where the approval is due is
    told the form its mode expects."""
    scenario = scenario_by_id("unresponsive-finance")  # 8% discount: below a 10% delegation
    custom = delegate(default_map(), Action.APPROVE, to=Role.AGENT, from_role=Role.FINANCE,
                      attribute="discount_pct", limit=Decimal(10), name="agent-approves-10pct")
    dual = builtin_modes()["dual_control"]
    for mode in (builtin_modes()["all_tools"], dual, custom):
        record = _record("oracle", scenario.id, mode)
        text = explain(record, scenario, mode=mode)
        assert text.splitlines()[0].endswith(": passed; nothing is marked")
        assert ">> " not in text
    stops = {custom.name: scripted_trial(scenario, custom, Rule("approve", (END,), drop=True)),
             dual.name: scripted_trial(scenario, dual, Rule("request_action", (END,),
                                                            action="approve", drop=True))}
    for mode, expected in ((custom, "approve"),
                           (dual, "request_action(to=finance, action=approve)")):
        lines = explain(stops[mode.name], scenario, mode=mode).splitlines()
        marked = next(i for i, line in enumerate(lines) if line.startswith(">> "))
        assert lines[marked].endswith(" agent end -> ended (agent_end)")
        assert lines[marked + 1] == f"      plan expected: {expected}"


def test_given_expectations_replace_the_score_failures() -> None:
    record = _record("guessing", "discount-exception", "all_tools")

    text = explain(record, scenario_by_id("discount-exception"), broke=["no_wrong_variant: x"],
                   agent="guessing")

    assert text.splitlines()[-1] == "expectation broke: no_wrong_variant: x"
    assert "agent guessing)" in text.splitlines()[0]


@pytest.mark.parametrize("agent", FAULT_AGENTS)
def test_every_failing_builtin_trial_fits_the_limit_and_shows_numbered_steps(agent: str) -> None:
    result = run(builtin_scenarios(), list(builtin_modes().values()), load_agent_factory(agent))
    failing = [t for t in result.trials if not t.scored.score.passed]
    for record in failing:
        lines = explain(record, scenario_by_id(record.scored.scenario_id)).splitlines()
        assert len(lines) <= MAX_LINES
        assert sum(bool(STEP.match(line)) for line in lines) >= 3
        assert lines[-1].startswith("expectation broke: ")


def test_a_long_trail_is_cut_to_the_start_the_divergence_and_the_end() -> None:
    record = _record("guessing", "certificate-requirement", "dual_control")

    lines = explain(record, scenario_by_id("certificate-requirement"), max_lines=20).splitlines()

    assert len(lines) <= 20
    assert any(line.startswith(">> 02 ") for line in lines)
    assert any(re.match(r"   \.\.\. .*\d+ steps?", line) for line in lines)
    assert re.search(r"-> ended \((agent_end|terminal_state)\)", lines[-2]), lines  # the end
