"""A trial pushed one call at a time is the harness's trial; its outcome is recorded once."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from remit.actors import oracle_factory
from remit.authority import mode_by_name
from remit.harness import AgentIdentity, builtin_suite, run_one
from remit.mcp import (
    DRIVER_KEY,
    SUITE_PATH_KEY,
    McpTrial,
    SessionStateError,
    TrialSession,
    record_trial,
    resolve_target,
)
from remit.scenarios import export_suite
from remit.store import Store


def _session(scenario_id: str = "discount-exception", mode: str = "dual_control",
             run_seed: int = 0) -> TrialSession:
    scenario = builtin_suite("handwritten").scenario(scenario_id)
    return TrialSession(scenario, mode_by_name(mode), run_seed=run_seed)


def test_the_opening_is_shown_once_with_the_first_call_when_no_briefing_was_asked() -> None:
    session = _session()
    assert session.opening
    first = session.call("get_quote", {"quote_id": session.briefing.quote_id})
    assert first.messages == session.opening
    second = session.call("get_quote", {"quote_id": session.briefing.quote_id})
    assert second.messages == ()
    # the briefing still carries the opening, and is not a step
    briefed = session.brief()
    assert briefed.opening == session.opening
    assert briefed.step == second.step
    assert session.agent_steps == 2


def test_an_ask_brings_the_buyers_reply_in_the_same_result() -> None:
    session = _session()
    session.brief()
    report = session.call("ask", {"to": "buyer", "facts": ["quantity"], "text": "How many?"})
    assert report.result.ok
    assert [m.sender for m in report.messages] == ["buyer"]
    assert report.minute > 1  # the buyer's review time passed on the clock


def test_finishing_needs_an_ended_trial_and_is_done_once() -> None:
    session = _session()
    with pytest.raises(SessionStateError, match=r"after 0 step\(s\): it has not ended"):
        session.finish()
    session.disconnect()
    record = session.finish()
    assert session.finish() is record
    assert record.scored.score.end_reason == "agent_error"
    assert "disconnected after 0 step(s)" in record.scored.score.failures[0]
    session.disconnect()  # already ended: nothing changes
    assert session.finish().trail == record.trail


def test_the_step_budget_ends_the_trial_as_in_process() -> None:
    session = _session("unclear-request", "all_tools")
    reports = [session.call("get_quote", {"quote_id": session.briefing.quote_id})
               for _ in range(session.briefing.max_steps)]
    assert [r.ended for r in reports].index(True) == session.briefing.max_steps - 1
    assert reports[-1].end_reason == "max_steps"
    refused = session.call("end", {"summary": "too late"})
    assert refused.result.error is not None
    assert "has ended (max_steps)" in refused.result.error.message
    assert not session.finish().scored.score.passed


def test_the_same_run_seed_gives_the_in_process_seed() -> None:
    scenario = builtin_suite("handwritten").scenario("consent-withheld")
    record, _ = run_one(scenario, mode_by_name("oracle_plan"), oracle_factory, run_seed=7)
    assert _session("consent-withheld", "oracle_plan", run_seed=7).seed == record.seed
    assert _session("consent-withheld", "oracle_plan", run_seed=7).briefing.plan is not None


def test_a_client_that_called_nothing_leaves_nothing_behind(tmp_path: Path) -> None:
    target = resolve_target("discount-exception", "dual_control", suite_spec="handwritten")
    with Store.open(str(tmp_path / "none.db")) as store:
        outcome = McpTrial(target, store=store).close()
        assert outcome.record is None
        assert outcome.run_id is None
        assert store.runs() == []


def test_a_directory_suite_is_recorded_with_its_path(tmp_path: Path) -> None:
    handwritten = builtin_suite("handwritten")
    export_suite(handwritten, tmp_path / "mine")
    target = resolve_target("fff-substitution", "all_tools", suite_spec=str(tmp_path / "mine"))
    session = TrialSession(target.scenario, target.mode)
    session.call("end", {"summary": "nothing to do"})
    with Store.open(str(tmp_path / "dir.db")) as store:
        run_id = record_trial(store, target, session.finish(), client=None, run_seed=0,
                              started_at=datetime.now(UTC))
        manifest = store.manifest(run_id)
        [record] = store.trials(run_id)
    assert manifest.suite_id == "mine"
    assert manifest.metadata == {DRIVER_KEY: "mcp", SUITE_PATH_KEY: str(tmp_path / "mine")}
    assert manifest.agent_config == {"client": None}
    # the client's code is outside remit: an identity that says so, not a missing one
    assert manifest.agent == AgentIdentity(import_path=None, code_hash=None)
    assert record.trail == session.finish().trail
    assert record.seconds is not None


def test_a_mode_file_is_served_and_kept_with_the_recorded_run(tmp_path: Path) -> None:
    mode_file = Path(__file__).parents[2] / "examples" / "agent-approves-5pct.mode.yaml"
    target = resolve_target("discount-exception", str(mode_file))
    session = TrialSession(target.scenario, target.mode)
    session.call("end", {"summary": "nothing to quote"})

    with Store.open(f"sqlite:///{tmp_path / 'mcp.db'}") as store:
        run_id = record_trial(store, target, session.finish(), client="tests", run_seed=0,
                              started_at=datetime(2026, 1, 1, tzinfo=UTC))
        manifest = store.manifest(run_id)

    assert target.mode.name == "agent-approves-5pct"
    assert [m.name for m in manifest.modes] == ["agent-approves-5pct"]
    assert manifest.metadata["custom_modes"] == {  # type: ignore[index]
        "agent-approves-5pct": target.mode.model_dump(mode="json")}
