"""Malformed calls are structured errors and the session goes on; bad names stop at once."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import ClientSession

from remit.harness import builtin_suite
from remit.mcp import UnknownTargetError, resolve_target
from remit.mcp import target as target_module
from remit.mcp.__main__ import USER_ERROR, main
from remit.mcp.turns import TurnReport
from remit.scenarios import Suite
from remit.store import Store
from remit.world import ToolCallEntry
from tests.mcp.spawn import Served, document

SCENARIO = "certificate-requirement"
MODE = "all_tools"


def test_malformed_calls_are_structured_errors_and_the_session_goes_on(
        tmp_path: Path) -> None:
    quote_id = builtin_suite("handwritten").scenario(SCENARIO).terms.quote_id
    served = Served(tmp_path, SCENARIO, MODE)

    async def script(session: ClientSession) -> list[tuple[bool, TurnReport]]:
        calls = [("fly_to_the_moon", {}),
                 ("get_product", {"sku": 42, "colour": "red"}),
                 ("get_quote", {"quote_id": quote_id}),
                 ("end", {"summary": "giving up"}),
                 ("get_quote", {"quote_id": quote_id})]
        seen = []
        for tool, arguments in calls:
            result = await session.call_tool(tool, arguments)
            seen.append((bool(result.is_error), TurnReport.model_validate(document(result))))
        return seen

    (unknown_err, unknown), (bad_err, bad), (good_err, good), (_, end), (late_err, late) = \
        served.play(script)

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
    # after the end, calls are refused without touching the trial
    assert late_err
    assert late.ended
    assert late.result.error is not None
    assert "the trial has ended (agent_end)" in late.result.error.message
    assert late.step == end.step

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
     "suite 'handwritten' has no scenario id='no-such-scenario'"),
])
def test_a_bad_name_is_one_line_and_exit_2_before_any_database_opens(
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

    found = resolve_target("discount-exception", "dual_control")
    assert (found.suite.id, found.scenario.id) == ("handwritten", "discount-exception")
    found = resolve_target("composed-s01", "all_tools")
    assert (found.suite.id, found.mode.name) == ("core", "all_tools")
    assert found.manifest_metadata() == {}
    with pytest.raises(UnknownTargetError, match=r"no built-in suite \(handwritten, core\)"):
        resolve_target("no-such-scenario", "dual_control")
    assert main(["--scenario", "no-such-scenario", "--mode", "dual_control"]) == USER_ERROR
    assert "hand-written ids are: supersession-substitution" in capsys.readouterr().err
