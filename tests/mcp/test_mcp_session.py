"""A trial pushed one call at a time is the harness's trial; a run of them is `remit run`'s
run, trial for trial; each outcome is recorded once."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from remit.actors import Observation, TrialInfo, oracle_factory
from remit.authority import mode_by_name
from remit.harness import AgentIdentity, builtin_suite, run, run_one
from remit.mcp import (
    DRIVER_KEY,
    SUITE_PATH_KEY,
    McpClient,
    McpServer,
    RunRecorder,
    RunSession,
    RunSummary,
    SessionStateError,
    TrialSession,
    resolve_target,
)
from remit.mcp.turns import BriefingReport, RefusalReport, TurnReport
from remit.scenarios import export_suite
from remit.store import ResumeError, Store, resume_run, suite_of

CLIENT = McpClient(name="tests", version="0.1")


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
    target = resolve_target(scenarios=["unclear-request", "discount-exception"],
                            modes="all_tools")
    played = RunSession(target)
    session = played.trial
    reports = [played.call(CLIENT, "get_quote", {"quote_id": session.briefing.quote_id})
               for _ in range(session.briefing.max_steps)]
    assert all(isinstance(r, TurnReport) for r in reports)
    assert [r.ended for r in reports].index(True) == session.briefing.max_steps - 1
    assert reports[-1].end_reason == "max_steps"
    assert reports[-1].trials_left == 1
    # the trial is over: the run refuses further calls, the session would not take them
    refused = played.call(CLIENT, "end", {"summary": "too late"})
    assert isinstance(refused, RefusalReport)
    assert refused.result.error.code == "trial_over"
    assert "has ended (max_steps); call remit_next_trial" in refused.result.error.message
    assert refused.step == reports[-1].step
    with pytest.raises(SessionStateError, match="the trial has ended"):
        session.call("end", {"summary": "too late"})
    assert not session.finish().scored.score.passed
    assert played.records == [session.finish()]


def test_the_same_run_seed_gives_the_in_process_seed() -> None:
    scenario = builtin_suite("handwritten").scenario("consent-withheld")
    record, _ = run_one(scenario, mode_by_name("oracle_plan"), oracle_factory, run_seed=7)
    assert _session("consent-withheld", "oracle_plan", run_seed=7).seed == record.seed
    assert _session("consent-withheld", "oracle_plan", run_seed=7).briefing.plan is not None


def test_a_client_that_called_nothing_leaves_nothing_behind(tmp_path: Path) -> None:
    target = resolve_target(scenarios=["discount-exception"], modes="dual_control",
                            suite_spec="handwritten")
    said: list[str] = []
    with Store.open(str(tmp_path / "none.db")) as store:
        outcome = McpServer(target, store=store, say=said.append).close()
        assert outcome.records == ()
        assert outcome.run_id is None
        assert outcome.summary.played == 0
        assert store.runs() == []
    assert said == ["MCP client (unnamed) called no tool; no trial was played and nothing "
                    "was stored"]


def _oracle_plays(session: RunSession) -> RunSummary:
    """Play a whole run in-process as the oracle, through the run session's calls."""
    suite = session.target.suite
    answer = session.next_trial(CLIENT)
    while isinstance(answer, BriefingReport):
        scenario = suite.scenario(answer.trial.scenario_id)
        info = TrialInfo(scenario_id=scenario.id, mode=answer.trial.mode,
                         trial=answer.trial.trial, seed=answer.trial.seed, plan=scenario.plan,
                         scenario=scenario)
        agent = oracle_factory(info)
        agent.start(answer.briefing)
        observation = Observation(step=answer.step, minute=answer.minute,
                                  messages=answer.opening)
        while True:
            call = agent.act(observation)
            report = session.call(CLIENT, call.tool, call.arguments)
            assert isinstance(report, TurnReport)
            if report.ended:
                break
            observation = report.observation()
        answer = session.next_trial(CLIENT)
    assert isinstance(answer, RunSummary)
    return answer


def test_a_run_plays_remit_runs_trials_in_its_order_with_its_seeds(tmp_path: Path) -> None:
    target = resolve_target(suite_spec="handwritten", keyword="discount or consent",
                            modes="all_tools,dual_control", trials=2, seed=11)
    reference = run(target.suite.scenarios, list(target.modes), oracle_factory, trials=2,
                    seed=11)
    said: list[str] = []
    with Store.open(str(tmp_path / "run.db")) as store:
        session = RunSession(target, store=store, say=said.append)
        summary = _oracle_plays(session)
        assert session.run_id is not None
        [listing] = store.runs()
        stored = store.trials(session.run_id)
        manifest = store.manifest(session.run_id)
        rebuilt = suite_of(manifest)

    assert summary.run_complete
    assert (summary.planned, summary.played, summary.passed, summary.unplayed) == (8, 8, 8, 0)
    assert {m: (t.played, t.passed) for m, t in summary.modes.items()} == {
        "all_tools": (4, 4), "dual_control": (4, 4)}
    # the same trials, in the same order, with the same seeds, trails and scores
    key = [(r.scored.scenario_id, r.scored.mode, r.scored.trial, r.seed)
           for r in reference.trials]
    assert [(r.scored.scenario_id, r.scored.mode, r.scored.trial, r.seed)
            for r in session.records] == key
    assert [(r.trail, r.scored.score) for r in session.records] == \
        [(r.trail, r.scored.score) for r in reference.trials]
    assert sorted((r.scored.scenario_id, r.scored.mode, r.scored.trial) for r in stored) == \
        sorted(k[:3] for k in key)
    # one run: its selection recorded, so its suite can be rebuilt for reports
    assert (listing.run_id, listing.trials, listing.passed) == (session.run_id, 8, 8)
    assert listing.agent_id == "mcp:tests@0.1"
    assert listing.ended_at is not None
    assert (manifest.trials, manifest.seed) == (2, 11)
    assert manifest.selection is not None
    assert manifest.selection.keyword == "discount or consent"
    assert rebuilt is not None
    assert rebuilt.fingerprint == manifest.suite_fingerprint
    assert len(said) == 9
    assert said[-1].startswith(f"run {session.run_id} complete: 8 of 8 trials passed "
                               "(all_tools 4/4, dual_control 4/4); agent mcp:tests@0.1")
    # once complete, next_trial answers the summary again and world calls are refused
    assert session.next_trial(CLIENT) == summary
    late = session.call(CLIENT, "get_quote", {"quote_id": "q"})
    assert isinstance(late, RefusalReport)
    assert late.result.error.code == "trial_over"
    assert late.run_complete
    assert session.close().summary == summary
    assert len(said) == 9  # closing a complete run says nothing more


def test_next_trial_is_refused_mid_trial_and_a_client_leaving_stores_what_was_played(
        tmp_path: Path) -> None:
    target = resolve_target(suite_spec="handwritten", modes="dual_control",
                            scenarios=["discount-exception", "consent-withheld",
                                       "unclear-request"])
    said: list[str] = []
    with Store.open(str(tmp_path / "left.db")) as store:
        session = RunSession(target, store=store, say=said.append)
        first = session.next_trial(CLIENT)  # begins the first trial
        assert isinstance(first, BriefingReport)
        assert (first.trial.number, first.trial.of) == (1, 3)
        early = session.next_trial(CLIENT)
        assert isinstance(early, RefusalReport)
        assert early.result.error.code == "trial_not_over"
        assert "play it to the end (call end) before calling remit_next_trial" in \
            early.result.error.message
        ended = session.call(CLIENT, "end", {"summary": "nothing to do"})
        assert isinstance(ended, TurnReport)
        assert ended.trials_left == 2
        late = session.call(CLIENT, "end", {"summary": "again"})
        assert isinstance(late, RefusalReport)
        assert late.result.error.code == "trial_over"
        assert late.result.error.message == (
            "cannot call end: trial 1 of 3 has ended (agent_end); call remit_next_trial to "
            "start trial 2")
        second = session.next_trial(CLIENT)
        assert isinstance(second, BriefingReport)
        session.call(CLIENT, "get_quote", {"quote_id": second.briefing.quote_id})
        outcome = session.close()
        manifest = store.manifest(session.run_id or "")
        stored = store.trials(session.run_id or "")

    assert [r.scored.score.end_reason for r in outcome.records] == ["agent_end", "agent_error"]
    assert [(r.scored.scenario_id, r.seed) for r in stored] == \
        [(r.scored.scenario_id, r.seed) for r in outcome.records]
    assert (outcome.summary.played, outcome.summary.unplayed) == (2, 1)
    assert not outcome.summary.run_complete
    assert manifest.ended_at is not None  # the run is over: nothing will add to it
    assert said[-1].startswith(f"run {outcome.run_id} ended when the client left: 0 of 2 "
                               "trials passed (dual_control 0/2); 1 of 3 planned trials were "
                               "not played; agent mcp:tests@0.1")


def test_another_client_and_arguments_to_remit_tools_are_refused() -> None:
    target = resolve_target(scenarios=["discount-exception"], modes="dual_control")
    session = RunSession(target)
    session.brief(CLIENT)
    other = session.call(McpClient(name="intruder", version="9"), "end", {"summary": "x"})
    assert isinstance(other, RefusalReport)
    assert other.result.error.code == "other_client"
    assert "played by client tests@0.1, not intruder@9" in other.result.error.message
    for refused in (session.brief(CLIENT, {"verbose": True}),
                    session.next_trial(CLIENT, {"skip": 1})):
        assert isinstance(refused, RefusalReport)
        assert refused.result.error.code == "bad_arguments"
        assert "takes no arguments" in refused.result.error.message
    assert session.trial.agent_steps == 0  # nothing was played


def test_a_directory_suite_is_recorded_with_its_path(tmp_path: Path) -> None:
    handwritten = builtin_suite("handwritten")
    export_suite(handwritten, tmp_path / "mine")
    target = resolve_target(suite_spec=str(tmp_path / "mine"), modes="all_tools")
    session = TrialSession(target.suite.scenario("fff-substitution"), target.modes[0])
    session.call("end", {"summary": "nothing to do"})
    with Store.open(str(tmp_path / "dir.db")) as store:
        recorder = RunRecorder(store, target, started_at=datetime.now(UTC))
        run_id = recorder.save(session.finish(), McpClient())
        recorder.finish()
        recorder.finish()  # once
        manifest = store.manifest(run_id)
        [record] = store.trials(run_id)
    assert manifest.suite_id == "mine"
    assert manifest.metadata == {DRIVER_KEY: "mcp", SUITE_PATH_KEY: str(tmp_path / "mine")}
    assert manifest.agent_id == "mcp-client"  # a client that gave no name
    assert manifest.agent_config == {"client": None, "client_version": None}
    # the client's code is outside remit: an identity that says so, not a missing one
    assert manifest.agent is not None
    assert (manifest.agent.import_path, manifest.agent.code_hash) == (None, None)
    assert manifest.agent == AgentIdentity(declared_config=manifest.agent_config)
    assert record.trail == session.finish().trail
    assert record.seconds is not None


def test_a_mode_file_is_served_and_kept_with_the_recorded_run(tmp_path: Path) -> None:
    mode_file = Path(__file__).parents[2] / "examples" / "agent-approves-5pct.mode.yaml"
    target = resolve_target(scenarios=["discount-exception"], modes=str(mode_file))
    [mode] = target.modes
    session = TrialSession(target.suite.scenario("discount-exception"), mode)
    session.call("end", {"summary": "nothing to quote"})

    with Store.open(f"sqlite:///{tmp_path / 'mcp.db'}") as store:
        recorder = RunRecorder(store, target, started_at=datetime(2026, 1, 1, tzinfo=UTC))
        run_id = recorder.save(session.finish(), CLIENT)
        manifest = store.manifest(run_id)

    assert mode.name == "agent-approves-5pct"
    assert [m.name for m in manifest.modes] == ["agent-approves-5pct"]
    assert manifest.metadata["custom_modes"] == {
        "agent-approves-5pct": mode.model_dump(mode="json")}
    assert manifest.ended_at is None  # not finished yet


def test_an_mcp_run_is_not_resumed_by_remit(tmp_path: Path) -> None:
    target = resolve_target(scenarios=["discount-exception"], modes="dual_control")
    with Store.open(str(tmp_path / "mcp.db")) as store:
        session = RunSession(target, store=store)
        session.brief(CLIENT)
        session.close()
        with pytest.raises(ResumeError, match=r"played by an external MCP client "
                                              r"\(mcp:tests@0.1\)"):
            resume_run(store, session.run_id or "")
