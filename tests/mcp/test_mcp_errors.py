"""Malformed and refused calls are structured errors and the session goes on; bad options
stop at once."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import ClientSession, types

from remit.harness import builtin_suite
from remit.mcp import UnknownTargetError, resolve_target
from remit.mcp import target as target_module
from remit.mcp.__main__ import USER_ERROR, main
from remit.mcp.turns import RefusalReport, TurnReport
from remit.scenarios import Suite
from remit.store import Store
from remit.world import ToolCallEntry
from tests.mcp.spawn import Served, document

SCENARIO = "certificate-requirement"
MODE = "all_tools"


def test_malformed_calls_are_structured_errors_and_the_session_goes_on(
        tmp_path: Path) -> None:
    quote_id = builtin_suite("handwritten").scenario(SCENARIO).terms.quote_id
    served = Served.one(tmp_path, SCENARIO, MODE)

    async def script(session: ClientSession) -> list[tuple[bool, TurnReport]]:
        calls = [("fly_to_the_moon", {}),
                 ("get_product", {"sku": 42, "colour": "red"}),
                 ("get_quote", {"quote_id": quote_id}),
                 ("end", {"summary": "giving up"}),
                 ("get_quote", {"quote_id": quote_id})]
        seen = []
        for tool, arguments in calls[:-1]:
            result = await session.call_tool(tool, arguments)
            seen.append((bool(result.is_error), TurnReport.model_validate(document(result))))
        tool, arguments = calls[-1]
        late.append(await session.call_tool(tool, arguments))
        return seen

    late: list[types.CallToolResult] = []
    (unknown_err, unknown), (bad_err, bad), (good_err, good), (_, end) = served.play(script)

    assert unknown_err
    assert unknown.result.error is not None
    assert unknown.result.error.code == "unknown_tool"
    assert "fly_to_the_moon" in unknown.result.error.message
    assert not unknown.ended
    assert unknown.messages[0].sender == "buyer"  # no briefing asked: the opening comes here
    assert bad_err
    assert bad.result.error is not None
    assert bad.result.error.code == "bad_arguments"
    assert not bad.ended
    assert bad.messages == ()
    assert not good_err
    assert good.result.ok
    assert good.step > bad.step > unknown.step
    assert end.ended
    assert end.end_reason == "agent_end"
    assert end.end_summary == "giving up"
    # after the end, calls are refused as trial_over without touching the trial; the
    # run (one trial) is complete, so there is no next trial to go to
    assert late[0].is_error
    refused = RefusalReport.model_validate(document(late[0]))
    assert refused.ended
    assert refused.run_complete
    assert refused.result.error.code == "trial_over"
    assert "the run is complete (all 1 trials played, stored as run r-" in \
        refused.result.error.message
    assert refused.step == end.step
    assert end.trials_left == 0

    with Store.open(str(served.db)) as store:
        [run] = store.runs()
        [record] = store.trials(run.run_id)
    called = [e.tool for e in record.trail if isinstance(e, ToolCallEntry) and e.actor == "agent"]
    assert called == ["fly_to_the_moon", "get_product", "get_quote", "end"]
    assert not record.scored.score.passed
    assert record.scored.score.end_reason == "agent_end"


@pytest.mark.parametrize(("args", "expected"), [
    (["--scenario", "discount-exception", "--mode", "solo"], "control mode name='solo'"),
    (["--scenario", "discount-exception", "--mode", "dual_control", "--suite", "nope"],
     "built-in suite name='nope'"),
    (["--scenario", "no-such-scenario", "--mode", "dual_control", "--suite", "handwritten"],
     "--scenario no-such-scenario: suite 'handwritten' has no scenario with that id"),
    (["--suite", "handwritten", "--modes", "dual_control,dual_control"],
     "--modes names a mode twice: dual_control"),
    (["--suite", "handwritten", "--tag", "no-such-tag"], "--tag 'no-such-tag': no scenario"),
    (["--suite", "handwritten", "-k", "discount and"], "-k"),
    (["--suite", "handwritten", "--trials", "0"], "--trials 0: a run needs at least one"),
    (["--suite", "handwritten", "--http", "0.0.0.0:8765"],
     "0.0.0.0 is not a loopback address"),
    (["--suite", "handwritten", "--http", "192.0.2.7:8765"],
     "pass --allow-remote to accept connections from other machines"),
    (["--suite", "handwritten", "--http", "8765"], "give HOST:PORT"),
    (["--suite", "handwritten", "--allow-remote"], "--allow-remote only applies to --http"),
])
def test_a_bad_option_is_one_line_and_exit_2_before_any_database_opens(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
        expected: str) -> None:
    db = tmp_path / "never.db"
    assert main([*args, "--db", str(db)]) == USER_ERROR
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error: ")
    assert expected in captured.err
    assert captured.err.count("\n") == 1
    assert not db.exists()


def test_without_a_suite_the_id_is_looked_up_in_handwritten_then_core(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    handwritten = builtin_suite("handwritten")
    # a small stand-in for core, whose real build takes seconds
    core = Suite(id="core", scenarios=(handwritten.scenarios[0].model_copy(
        update={"id": "composed-s01"}),))
    monkeypatch.setattr(target_module, "builtin_suite",
                        lambda name: {"handwritten": handwritten, "core": core}[name])

    found = resolve_target(scenarios=["discount-exception"], modes="dual_control")
    assert (found.suite.id, found.suite_spec) == ("handwritten", "handwritten")
    assert [s.id for s in found.suite] == ["discount-exception"]
    found = resolve_target(scenarios=["composed-s01"], modes="all_tools")
    assert (found.suite.id, [m.name for m in found.modes]) == ("core", ["all_tools"])
    # a selection: the whole suite's fingerprint is kept, so the suite can be rebuilt
    assert found.manifest_metadata() == {"whole_suite_fingerprint": core.fingerprint}
    with pytest.raises(UnknownTargetError, match=r"no built-in suite \(handwritten, core\)"):
        resolve_target(scenarios=["no-such-scenario"], modes="dual_control")
    assert main(["--scenario", "no-such-scenario", "--mode", "dual_control"]) == USER_ERROR
    assert "hand-written ids are: supersession-substitution" in capsys.readouterr().err
    # no suite and no id: core, as for remit run, and its modes by default
    everything = resolve_target()
    assert (everything.suite.id, everything.selection) == ("core", None)
    assert [m.name for m in everything.modes] == ["all_tools", "dual_control"]
